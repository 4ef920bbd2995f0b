//! The abstract interpreter NBLyzer's analyses run on (seed 000, sec. 3.2):
//! the [`Domain`] trait (a lattice with join and widening, a transfer
//! function per statement, the propagation condition φ), products of
//! domains, the cell transformer that runs a domain over a cell's blocks to
//! a fixpoint, the [`Alarm`]s domains raise, and the per-cell memo of runs
//! that domains replay.
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-absint`), the one place
//! they are written; each names the test that holds it, where one does.

mod alarm;
mod domain;
mod memo;
mod transformer;

pub use alarm::{Alarm, AlarmKind, Alarms, Joins};
pub use domain::{Domain, Growth, StmtCtx, join_result};
pub use memo::CellMemo;
pub use transformer::run_cell;
