//! The rules of `nbsight check` (DESIGN.md, the check engine): their
//! registry, one file per rule holding its documentation and its driver,
//! selection and configuration as ruff resolves them, and the findings of
//! every enabled rule for a notebook as saved.
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-check`), the one place
//! they are written; each names the test that holds it, where one does.

mod check;
pub mod config;
mod doc_comment;
pub mod docs;
mod driver;
mod finding;
mod hidden;
mod registry;
pub mod rules;
mod selection;
pub mod suppress;

pub use check::{Checked, check_model, check_notebook, check_notebook_model};
pub use finding::Finding;
pub use registry::{REGISTRY, ReportedBy, Rule, RuleMeta};
pub use selection::{RuleSet, UnknownSelector, validate_selectors};
pub use suppress::Suppressions;
