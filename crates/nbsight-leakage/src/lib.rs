//! The ML data-leakage domain (NBLyzer sec. 4.2, made precise). Each variable
//! maps to what its data went through ([`Val`]): where its rows were
//! read (`read-file`), statistics fitted on rows that include a split's test
//! rows (the seed's *reset* rule, driven by the knowledge base's
//! `fit-transform`/`transformer` roles, statistics of the data such as
//! `df.mean()`, and user functions that fit, `functions.rs`), resampling or
//! augmentation before a split, the side of a split (`split` role, or a
//! part bound by slicing or sampling, `syntax.rs`), the model it is or comes
//! from (`fit`). Everything else propagates with a join over what a
//! statement reads (the seed prints a meet; see seed-notes). At a
//! `predict`/`evaluate` sink the model's training data and the test data
//! are compared:
//! - both carry the same `Fitted` tag → preprocessing leakage;
//! - both carry the same `Resampled` tag, or the training data holds the
//!   test side's rows (put back, or never split off) → overlap leakage;
//! - the same test split (or an equivalent one: same data, same
//!   `random_state`) evaluates a second model (or a model trained in a
//!   loop) → multi-test leakage.
//!
//! Cross-validation (`cross-validate` role, or a user function that folds,
//! fits and scores) on data with `Fitted`/`FittedSide`/`Resampled` tags
//! leaks too; a `Pipeline` fitted inside it does not.
//!
//! φ = pre(c) ≠ ∅ ∧ pre(c) ⊆ bound variables (seed sec. 4.2.1).
//!
//! One file per alarm kind holds its detector and its message
//! (`preprocessing.rs`, `overlap.rs`, `multi_test.rs`); [`alarms_along`] is
//! what `nbsight check` runs (an order of cell runs from a fresh kernel),
//! and the what-if engine runs [`Leak`] as one of its domains.
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-leakage`), the one place
//! they are written; each names the test that holds it, where one does.

mod along;
mod calls;
mod domain;
mod functions;
mod models;
mod multi_test;
mod overlap;
mod preprocessing;
mod row_filters;
mod splits;
mod syntax;
mod text;
mod value;

pub use along::{AlarmAlong, Along, alarms_along, run_along};
pub use domain::{Leak, LeakGrowth};
pub use nbsight_absint::{Alarm, AlarmKind};
pub use value::Val;
