//! The control-flow graph of one scope (a cell's module-level code, a class body
//! or a function body). Nodes are basic blocks: runs of simple statements, or
//! the header of a compound one, holding their accesses in evaluation order.

use ruff_text_size::TextRange;

use crate::call_site::CallSite;
use crate::index::IndexVec;
pub use crate::node::{Node, NodeId};

/// A control-flow graph with one entry, one normal exit and one exit for
/// exceptions (`raise`, or an error escaping the scope).
#[derive(Debug, Clone)]
pub struct Cfg {
    pub nodes: IndexVec<NodeId, Node>,
    /// Calls with an ML or I/O role, in evaluation order.
    pub calls: Vec<CallSite>,
    /// The `for` loops, for analyses that assume a loop runs at least once.
    pub loops: Vec<LoopEdges>,
    /// Ranges `[start, end)` of nodes that are extra copies of code walked
    /// more than once (a `finally` body, once per way out of its `try`):
    /// their accesses repeat the original's, at the same source ranges.
    pub copies: Vec<(NodeId, NodeId)>,
}

/// Where a `for` loop's zero-iteration path goes: from `entry` into `head`,
/// then straight to `exit` (the `else` clause or what follows the loop).
/// Every other path into `head` comes back from the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoopEdges {
    pub entry: NodeId,
    pub head: NodeId,
    /// The node the loop leaves to when the iterator is exhausted (its only
    /// predecessor is `head`).
    pub exit: NodeId,
}

impl Cfg {
    /// The entry node (no accesses).
    pub const ENTRY: NodeId = NodeId::from_u32(0);
    /// The normal exit (falling off the end, or `return`).
    pub const EXIT: NodeId = NodeId::from_u32(1);
    /// The exceptional exit.
    pub const RAISE: NodeId = NodeId::from_u32(2);

    /// A graph holding only the entry and the two exits.
    pub fn new() -> Self {
        // Room for the first block and a few more: most scopes are small.
        let mut nodes = Vec::with_capacity(8);
        nodes.extend(std::iter::repeat_with(Node::default).take(3));
        Cfg {
            nodes: IndexVec::from_raw(nodes),
            calls: Vec::new(),
            loops: Vec::new(),
            copies: Vec::new(),
        }
    }

    /// Is `node` in an extra copy of code ([`Cfg::copies`])?
    pub fn is_copy(&self, node: NodeId) -> bool {
        self.copies
            .iter()
            .any(|&(start, end)| (start..end).contains(&node))
    }

    /// Adds an empty node.
    pub fn add_node(&mut self, range: TextRange) -> NodeId {
        self.nodes.push(Node {
            range,
            ..Node::default()
        })
    }

    /// Adds the edge `from -> to` once.
    pub fn add_edge(&mut self, from: NodeId, to: NodeId) {
        if !self.nodes[from].succ.contains(&to) {
            self.nodes[from].succ.push(to);
            self.nodes[to].pred.push(from);
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// `true` when there are no nodes (never: entry and exits always exist).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

impl Default for Cfg {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_stay_small() {
        // Cells build thousands of nodes: keep them compact.
        assert!(
            std::mem::size_of::<Node>() <= 104,
            "{}",
            std::mem::size_of::<Node>()
        );
    }

    #[test]
    fn edges_are_added_once() {
        let mut cfg = Cfg::new();
        let a = cfg.add_node(TextRange::default());
        cfg.add_edge(Cfg::ENTRY, a);
        cfg.add_edge(Cfg::ENTRY, a);
        assert_eq!(cfg.nodes[Cfg::ENTRY].succ.as_slice(), &[a]);
        assert_eq!(cfg.nodes[a].pred.as_slice(), &[Cfg::ENTRY]);
    }
}
