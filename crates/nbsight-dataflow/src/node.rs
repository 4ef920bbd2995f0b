//! A node of a control-flow graph: a basic block (a run of simple
//! statements, or the header of a compound one) holding its accesses in
//! evaluation order, with its edges; and [`NodeId`], its index in the graph.

use ruff_text_size::TextRange;
use smallvec::SmallVec;

use crate::access::Access;

crate::newtype_index! {
    /// Index of a node in a [`Cfg`].
    pub struct NodeId;
}

/// A basic block: one or more statements evaluated in sequence (or the
/// header of a compound statement, or an empty join point).
#[derive(Debug, Clone, Default)]
pub struct Node {
    pub accesses: SmallVec<[Access; 2]>,
    pub succ: SmallVec<[NodeId; 2]>,
    pub pred: SmallVec<[NodeId; 2]>,
    /// The source range of the (first) statement of the node.
    pub range: TextRange,
    /// More simple statements may be appended to this node: nothing but
    /// its predecessor edge leads into it, now or later.
    pub open: bool,
}
