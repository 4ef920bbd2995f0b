//! Notebook documents for nbsight.
//!
//! This crate reads notebooks robustly and turns them into one model:
//!
//! - `.ipynb` files (nbformat 4, any minor) — [`load_ipynb_bytes`], [`load_ipynb_str`];
//! - percent scripts as jupytext writes them (`# %%` cell markers) — [`load_percent_str`];
//! - [`load_path`] dispatches on the file extension;
//! - the cells an editor holds (a language client's notebook) — [`from_editor`].
//!
//! A [`Notebook`] keeps *every* cell in file order (code, markdown, raw) with a stable
//! id, its saved execution count and number of outputs, and a [`CodeForm`] saying
//! whether the cell is plain Python (possibly under a Python cell magic such as
//! `%%time`) or opaque (another cell magic, a non-Python kernel, a broken cell).
//! Problems that do not stop loading are reported as [`Diagnostic`]s; problems that do
//! are [`LoadError`]s. Nothing here panics on bad input.
//!
//! Python cells are parsed with ruff's parser in IPython mode ([`Cell::parse`],
//! [`parse_python`]), after the clean-up IPython does before running a cell
//! (common indentation and pasted prompts removed, [`ipython_cleanup`]); syntax errors become [`SyntaxIssue`]s with 1-based line and
//! column and never stop the other cells from being parsed.
//!
//! Numbers say their base in their type: a cell's position in the full cell
//! list is a 0-based [`CellIndex`] (a plain `usize` inside loops over the
//! cells), a line or column is a 1-based [`OneIndexed`].
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-notebook`), the one place
//! they are written; each names the test that holds it, where one does.

mod assemble;
mod automagic;
mod cell;
mod cell_index;
mod cell_kind;
mod diagnostic;
mod discover;
mod editor;
mod error;
mod form;
mod ids;
mod ipynb;
mod language;
mod load;
mod magic;
mod nesting;
mod notebook;
mod parse;
mod percent;
mod severity;
mod transform;

pub use cell::{Cell, CellKind, CellOrigin};
pub use cell_index::CellIndex;
pub use diagnostic::Diagnostic;
pub use discover::{Discovery, find_notebooks, is_ipynb};
pub use editor::{EditorCell, from_editor};
pub use error::LoadError;
pub use form::{CodeForm, OpaqueReason};
pub use ids::content_id;
pub use ipynb::{IpynbPositions, load_ipynb_bytes, load_ipynb_str};
pub use language::Language;
pub use load::{has_percent_marker, load_path};
pub use magic::CellMagic;
pub use magic::{PYTHON_CELL_MAGICS, is_python_cell_magic};
pub use nesting::{MAX_NESTING, nesting_within};
pub use notebook::{Notebook, SourceFormat};
pub use parse::{ParsedCell, SyntaxIssue, parse_python};
pub use percent::load_percent_str;
/// 1-based lines and columns (ruff's type, re-exported so that the engines
/// name it without depending on `ruff_source_file`).
pub use ruff_source_file::OneIndexed;
pub use severity::Severity;
pub use transform::ipython_cleanup;
