//! Notebook-level analyses (DESIGN.md, `nbsight-analysis`): the what-if engine
//! of NBLyzer with its abstract domains, and the checks `nbsight check` runs.

pub mod finding;
pub mod rules;

pub use finding::{Finding, Severity};
pub use rules::{Rule, RuleSet, UnknownSelector};
pub mod check;

pub use check::check_notebook;
