//! Run-time lineage of a live kernel (nbsafety, seed 001; trace-once, seed
//! 004 §3.3): symbols (`x`, `obj.attr`, `lst[3]`, `d['k']`) with the time
//! each was last set and the symbols it was computed from; which are stale;
//! which cells are stale, fresh or refreshers; why; and the warning before a
//! cell reads a stale value.
//!
//! A tracer (the Python module) reports each run as plain data
//! ([`RunFacts`]: which lines of the cell ran, which user functions its
//! calls reached, where an exception left it, which names are bound to which
//! objects afterwards). Everything else comes from the same per-statement
//! summaries and library-effects knowledge base the static analyses use
//! (`nbsight-dataflow`): nothing is modelled twice.
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-lineage`), the one place
//! they are written; each names the test that holds it, where one does.

mod answers;
mod cells;
mod closures;
mod columns;
mod elements;
mod explain;
mod highlights;
mod keys;
mod members;
pub mod provenance;
mod random;
mod reactive;
pub mod report;
mod returns;
mod run;
mod session;
mod shapes;
mod slices;
mod symbols;

pub use answers::{Deps, StaleRead, SymbolRef, UpdatedAncestor};
pub use elements::{ElementIdentity, ElementKey, WatchedElement};
pub use keys::{Probe, ProbeKeys, int_key, str_key};
pub use provenance::{
    Event as ProvenanceEvent, InputRef, ProvenanceReport, What as ProvenanceWhat, code_key,
};
pub use run::{CallFact, FunctionRef, RunFacts};
pub use session::{Execution, Lineage, PreRun, Status};
pub use slices::{CellDependence, slice_history};
pub use symbols::{ExecIdx, Ts};
