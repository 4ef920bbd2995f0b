//! Per-cell dataflow for nbsight (DESIGN.md, "Core vocabulary").
//!
//! A cell's code is turned into a control-flow graph whose nodes hold
//! *accesses* (read, write, mutate, ... of a *symbol* such as `df`, `df.col`,
//! `lst[3]`) in evaluation order ([`build`]). Solvers compute liveness, the
//! initialized-variable (DEAD) analysis and reaching definitions on it
//! ([`solve`]); [`summarize`] turns them into the [`CellSummary`] that
//! notebook-level analyses consume. Library calls are interpreted with the
//! library-effects knowledge base ([`effects`]).

pub mod access;
pub mod build;
pub mod builtins;
pub mod call_site;
pub mod cell;
pub mod cfg;
pub mod effects;
pub mod imports;
pub mod scope;
pub mod solve;
pub mod summarize;
pub mod symbol;
pub mod symbol_set;

pub use build::{Context, FunctionSummary, Param};
pub use call_site::{CallSite, Operand};
pub use cell::{CellAnalysis, NotebookAnalysis, analyze_cell, analyze_notebook, parse_notebook};
pub use effects::Effects;
pub use imports::ImportEnv;
pub use summarize::{CellSummary, ModuleAnalysis, analyze_module};
pub use symbol::Symbol;
pub use symbol_set::SymbolSet;
