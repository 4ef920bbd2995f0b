//! Per-cell dataflow for nbsight (DESIGN.md, "Core vocabulary").
//!
//! A cell's code is turned into a control-flow graph whose nodes hold
//! *accesses* (read, write, mutate, ... of a *symbol* such as `df`, `df.col`,
//! `lst[3]`) in evaluation order ([`build`]). Solvers compute liveness, the
//! initialized-variable (DEAD) analysis and reaching definitions on it
//! ([`solve`]); [`summarize`] turns them into the [`CellSummary`] that
//! notebook-level analyses consume. Library calls are interpreted with the
//! library-effects knowledge base ([`effects`]).
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-dataflow`), the one place
//! they are written; each names the test that holds it, where one does.

pub mod access;
pub mod build;
pub mod builtins;
pub mod call_site;
pub mod cell;
pub mod cfg;
pub mod field;
pub mod first_pass;
pub mod global_state;
pub mod imports;
pub mod index;
pub mod method_calls;
mod node;
pub mod scope;
mod scope_sets;
pub mod solve;
pub mod statements;
pub mod summarize;
pub mod symbol;
pub mod symbol_set;

pub use build::{Context, FunctionSummary, Param};
pub use call_site::{CallSite, Operand};
pub use cell::{CellAnalysis, NotebookAnalysis, analyze_cell, analyze_notebook, parse_notebook};
pub use imports::ImportEnv;
/// The library-effects knowledge base (its own crate, `nbsight-effects`).
pub use nbsight_effects as effects;
pub use nbsight_effects::Effects;
pub use summarize::{CellSummary, ModuleAnalysis, analyze_module, analyze_timed_module};
pub use symbol::Symbol;
pub use symbol_set::SymbolSet;
