//! Information flows between the cells of a notebook run top to bottom once
//! (issue 9, `nbsight flow`): the CRABS ground-truth format and the metrics
//! that score a predicted flow graph against it.
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-flow`), the one place
//! they are written; each names the test that holds it, where one does.

pub use analysis::{
    Ambiguity, AmbiguityKind, Answer, CellEdge, CellFlow, Dependency, FlowGraph, FlowOptions,
    ResolvedBy, analyze_flows, analyze_flows_with,
};

pub mod analysis;
mod dependencies;
pub mod metrics;
mod objects;
pub mod truth;
