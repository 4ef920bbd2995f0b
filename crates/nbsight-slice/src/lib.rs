//! Static slicing of a notebook run top to bottom once (issue 9, NBSlicer's
//! backward and forward slices, seed 004, with field-granular symbols).
//!
//! The unit of a slice is a *statement*: a simple statement, a `def` or
//! `class` with its body, or the header of an `if`/`for`/`while`/`try`/
//! `with`/`match` whose nested statements are units of their own
//! (`units.rs`). A statement depends on
//! - the statements whose definitions reach its reads (data dependence over
//!   the notebook's cells in order and each cell's control-flow graph from
//!   `nbsight-dataflow`, field by field: `path.rs`, `deps.rs`), in-place
//!   changes and calls the library-effects knowledge base says mutate
//!   included, and changes made through may-aliases (`alias.rs`);
//! - the compound statement it is nested in (control dependence), and a loop
//!   or `try` header on the `break`/`continue`/`raise` statements aimed at it;
//! - for a read of a user function or class, on what calling it reads and
//!   writes (its free globals, the model's `FunctionsByName`), and for a
//!   call, on the arguments its body changes in place (`calls.rs`).
//!
//! A [`Slicer`] builds that graph once per notebook from its
//! `nbsight_model::NotebookModel` (the cells parsed and analysed once);
//! [`Slicer::backward`] and
//! [`Slicer::forward`] answer slices at the granularity of cells or
//! statements; [`gather`] writes a backward slice as a script or notebook.
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-slice`), the one place
//! they are written; each names the test that holds it, where one does.

mod calls;
mod deps;
mod error;
mod gather;
mod path;
mod query;
mod units;

#[cfg(test)]
mod tests;

pub use error::SliceError;
pub use gather::{GatherError, GatherFormat, HistoryCell, gather, gather_history};
pub use query::{Direction, Granularity, Slice, Slicer, StmtRef, TargetError};

use nbsight_dataflow::Effects;
use nbsight_notebook::Notebook;

/// The backward slice of cell `cell`: what is needed to reproduce its result
/// when the notebook runs top to bottom.
pub fn backward_slice(
    notebook: &Notebook,
    effects: &Effects,
    cell: usize,
    granularity: Granularity,
) -> Result<Slice, SliceError> {
    Slicer::new(notebook, effects).backward(cell, granularity)
}

/// The forward slice of cell `cell`: the cells (or statements) whose results
/// depend on it.
pub fn forward_slice(
    notebook: &Notebook,
    effects: &Effects,
    cell: usize,
    granularity: Granularity,
) -> Result<Slice, SliceError> {
    Slicer::new(notebook, effects).forward(cell, granularity)
}
