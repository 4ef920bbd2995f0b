//! NBLyzer's what-if engine (seed 000): for an event (open, execute, edit,
//! insert, delete a cell) on a notebook in a given kernel state, which cells
//! it impacts, which problems some continuation reaches, the re-run plan and
//! the cells safe to run next; and the cell classes (isolated,
//! safe-to-edit, stale-risk).
//!
//! Invariants: it stands on `nbsight-model` and below and knows no other
//! engine. It is deterministic and offline, does no I/O and never panics on
//! user input. Replaying a kept cell run answers exactly as interpreting the
//! cell would (`tests/replays.rs`). It raises alarms of the [`AlarmKind`]s it
//! knows; rule codes and names belong to `nbsight-check`.

mod classes;
mod consequences;
pub mod domain;
pub mod engine;
pub mod impact;
pub mod leakage;
mod memo;
mod rerun;
mod session;
mod sinks;
pub mod state;
pub mod transformer;

pub use classes::{CellClass, classify_cells, is_isolated};
pub use domain::{Alarm, AlarmKind};
pub use session::{
    Event, EventReport, Impacted, MAX_VISITS, WhatIfError, WhatIfFinding, WhatIfOptions,
    WhatIfReport, WhatIfSession, what_if,
};
pub use state::{History, NotebookState};
