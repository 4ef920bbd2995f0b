//! `nbsight scan`'s engine: nbsight's analyses over corpora of notebooks
//! stored as tables (Parquet files with a notebook column, JSON Lines) or
//! folders, on every core, with a status row for every input notebook,
//! resumable after being killed, in bounded memory.
//!
//! - [`source`]: the inputs and the notebooks in them, streamed;
//! - [`analysis`]: one notebook through one analysis (`check` runs exactly
//!   what `nbsight check` runs; `cells`, `flow`, `whatif` and `slice` give
//!   per-cell and per-event rows of those commands' answers);
//! - [`tables`]: the output tables' schemas and rows (a contract);
//! - [`run`]: the workers, the time budget, the input order;
//! - [`store`]: the output folder, its parts and resuming;
//! - [`batch`]: the same on Arrow data in memory (the Python API).
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-scan`), the one place
//! they are written; each names the test that holds it, where one does.

pub mod analysis;
pub mod batch;
mod cells;
mod column;
pub mod error;
mod events;
mod outcome;
pub mod rows;
pub mod run;
mod slices;
pub mod source;
pub mod store;
pub mod tables;

pub use analysis::{Analyser, Analysis};
pub use error::ScanError;
pub use outcome::{Done, DoneIds, Outcome, Sink, Status};
pub use run::{Counts, Options};
pub use source::{Fields, Item, Source};
pub use store::{Format, Store};
