//! Why a slice cannot be computed for a cell.

use thiserror::Error;

/// A slicing query that cannot be answered.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SliceError {
    /// The cell index is past the end of the notebook.
    #[error("{path}: there is no cell {cell} (the notebook has {count} cells, numbered from 0)")]
    NoSuchCell {
        path: String,
        cell: usize,
        count: usize,
    },
    /// A markdown or raw cell.
    #[error("{path}: cell {cell} is a {kind} cell, not a code cell")]
    NotCode {
        path: String,
        cell: usize,
        kind: &'static str,
    },
    /// A code cell nbsight does not analyse as Python (`%%bash`, another
    /// kernel language).
    #[error("{path}: cell {cell} is not Python ({reason}): it has no slice")]
    NotPython {
        path: String,
        cell: usize,
        reason: String,
    },
}
