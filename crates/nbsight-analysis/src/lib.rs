//! Notebook-level analyses (DESIGN.md, `nbsight-analysis`): the what-if engine
//! of NBLyzer with its abstract domains, the checks `nbsight check` runs, and
//! static slicing (`slice`).

pub mod finding;
pub mod rules;

pub use finding::{Finding, Severity};
pub use rules::{Rule, RuleSet, UnknownSelector};
pub mod check;
pub mod checks;
pub mod classes;
pub mod consequences;
pub mod domain;
pub mod engine;
pub mod flow;
pub mod impact;
pub mod leakage;
mod memo;
pub mod model;
mod paths;
pub mod program;
pub mod rerun;
pub mod slice;
pub mod state;
#[cfg(test)]
mod test_support;
pub mod transformer;
pub mod vars;
pub mod whatif;

pub use check::{check_model, check_notebook};
pub use classes::{CellClass, classify_cells};
pub use state::{History, NotebookState};
pub use whatif::{Event, WhatIfError, WhatIfOptions, WhatIfReport, WhatIfSession, what_if};
