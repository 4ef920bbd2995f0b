//! The rules of `nbsight check` (DESIGN.md, the check engine): their
//! registry, one file per rule holding its documentation and its driver,
//! selection as ruff resolves it, and the findings of every enabled rule for
//! a notebook as saved.
//!
//! Invariants: it stands on `nbsight-whatif` (whose leakage domain the
//! leakage rules run) and `nbsight-model`, and is the only crate that knows
//! rule codes and names. Every rule has a stable code and name, one row in
//! [`rules::REGISTRY`], and documents itself in its file (`docs/rules.md`
//! and the README's rule table are generated from them, see [`docs`]). It is
//! deterministic and offline, does no I/O and never panics on user input.

mod check;
pub mod docs;
mod finding;
mod hidden;
pub mod rules;
mod selection;
pub mod suppress;

pub use check::{Checked, check_model, check_notebook, check_saved, check_saved_model};
pub use finding::{Finding, Severity};
pub use rules::{REGISTRY, Rule, RuleMeta};
pub use selection::{RuleSet, UnknownSelector, validate_selectors};
pub use suppress::Suppressions;
