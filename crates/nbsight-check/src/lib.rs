//! The rules of `nbsight check` (DESIGN.md, the check engine): their
//! registry, selection as ruff resolves it, and the findings of every
//! enabled rule for a notebook as saved.
//!
//! Invariants: it stands on `nbsight-whatif` (whose leakage domain the
//! leakage rules run) and `nbsight-model`, and is the only crate that knows
//! rule codes and names. Every rule has a stable code and name and documents
//! itself in its file. It is deterministic and offline, does no I/O and
//! never panics on user input.

mod check;
mod checks;
mod finding;
pub mod rules;

pub use check::{check_model, check_notebook};
pub use finding::{Finding, Severity};
pub use rules::{Rule, RuleSet, UnknownSelector};
