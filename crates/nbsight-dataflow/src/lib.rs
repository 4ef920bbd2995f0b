//! Per-cell dataflow.
