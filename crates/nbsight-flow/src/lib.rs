//! Information flows between the cells of a notebook run top to bottom once
//! (issue 9, `nbsight flow`): the CRABS ground-truth format and the metrics
//! that score a predicted flow graph against it.
//!
//! Invariants: stands on `nbsight-model` and below and knows no other engine;
//! deterministic and offline (an LLM's answers come in as data through
//! `analyze_flows_with`, never from `nbsight-llm`); no I/O: truth files are
//! parsed from text the caller read; never panics on user input.

pub use analysis::{
    Ambiguity, AmbiguityKind, Answer, CellEdge, CellFlow, Dependency, FlowGraph, FlowOptions,
    ResolvedBy, analyze_flows, analyze_flows_with,
};

pub mod analysis;
pub mod metrics;
mod objects;
pub mod truth;
