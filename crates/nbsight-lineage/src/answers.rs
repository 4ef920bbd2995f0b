//! What the lineage answers about symbols, as plain data: a stale read
//! explained (the cell that set it, the ancestor updated since, the cells
//! to re-run) and a symbol's lineage (its parents and children).

use crate::symbols::Ts;

/// An ancestor updated after the stale value was computed from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdatedAncestor {
    pub symbol: String,
    /// The cell that updated it (`None`: out of nbsight's sight).
    pub cell: Option<String>,
    /// When.
    pub counter: Ts,
}

/// A stale symbol a cell reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleRead {
    pub symbol: String,
    /// The cell that last set the stale value.
    pub set_by: Option<String>,
    pub ancestor: Option<UpdatedAncestor>,
    /// The cells to re-run, in order, to refresh it.
    pub rerun: Vec<String>,
}

/// A symbol as a lineage lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolRef {
    pub symbol: String,
    pub cell: Option<String>,
    pub timestamp: Ts,
}

/// A symbol's lineage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deps {
    pub symbol: String,
    /// The cell that last set it.
    pub cell: Option<String>,
    pub timestamp: Ts,
    pub stale: bool,
    /// The symbols its value was computed from.
    pub parents: Vec<SymbolRef>,
    /// The symbols computed from it.
    pub children: Vec<SymbolRef>,
}
