//! NBLyzer's what-if engine (seed 000): for an event (open, execute, edit,
//! insert, delete a cell) on a notebook in a given kernel state, which cells
//! it impacts, which problems some continuation reaches, the re-run plan and
//! the cells safe to run next; and the cell classes (isolated,
//! safe-to-edit, stale-risk).
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-whatif`), the one place
//! they are written; each names the test that holds it, where one does.

mod classes;
mod consequences;
pub mod engine;
mod event;
pub mod impact;
mod readers;
mod rerun;
mod session;
mod sinks;
pub mod state;

pub use classes::{CellClass, classify_cells, is_isolated};
pub use event::Event;
pub use nbsight_absint::{Alarm, AlarmKind};
pub use session::{
    EventReport, Impacted, MAX_VISITS, WhatIfError, WhatIfFinding, WhatIfOptions, WhatIfReport,
    WhatIfSession, what_if,
};
pub use state::{Executed, NotebookState};
