//! Dataflow solvers over a scope's CFG, on bit rows indexed by symbol id:
//! liveness (USE), initialized variables / DEAD (Algorithm 2 of nbsafety) and
//! reaching definitions. Hierarchical symbols: binding `x` also ends the old
//! values of `x.a` and `x[0]`. Each solver visits nodes in the order computed
//! once by [`Order`]; on a graph without loops one pass is exact. Buffers live
//! in a [`Scratch`] reused from scope to scope. [`Order`] is the crate's one
//! reverse post-order walk: the model's compiled programs lay their blocks
//! out in it too.

mod bits;
mod initialized;
mod liveness;
mod reaching;
mod straight;

pub use initialized::{MustWrite, must_write_at_exit};
pub use liveness::live_at_entry;
pub use reaching::{DefSite, ReachingRead, reaching_definitions};
pub use straight::{Fact, single_block, solve_block};

use bits::BitMatrix;

use crate::cfg::{Cfg, NodeId};
use crate::index::IndexVec;
use crate::symbol::{SymId, SymbolTable};

/// A visiting order for the solvers.
#[derive(Debug, Clone, Default)]
pub struct Order {
    /// Reverse post-order from the entry, then the unreachable nodes.
    pub rpo: Vec<NodeId>,
    /// Which nodes the entry reaches.
    pub reachable: IndexVec<NodeId, bool>,
    /// `true` when no reachable cycle exists (one pass suffices).
    pub acyclic: bool,
    /// The back edges `from -> to` of the depth-first search (`to` was on
    /// its stack), in the order the search met them: one per loop entered.
    pub back_edges: Vec<(NodeId, NodeId)>,
    /// How many nodes the entry reaches: the first ones of `rpo`.
    reached: usize,
    /// Depth-first search stack, kept for reuse.
    stack: Vec<(NodeId, usize)>,
    /// 0 = unseen, 1 = on the stack, 2 = done; kept for reuse.
    state: IndexVec<NodeId, u8>,
}

impl Order {
    /// Computes the order of `cfg` with one depth-first search.
    pub fn of(cfg: &Cfg) -> Order {
        let mut order = Order::default();
        order.compute(cfg);
        order
    }

    /// Recomputes the order for `cfg`, reusing this value's buffers.
    pub fn compute(&mut self, cfg: &Cfg) {
        let n = cfg.len();
        self.state.clear();
        self.state.resize(n, 0);
        self.rpo.clear();
        self.stack.clear();
        self.back_edges.clear();
        self.stack.push((Cfg::ENTRY, 0));
        self.state[Cfg::ENTRY] = 1;
        while let Some((node, next)) = self.stack.pop() {
            if let Some(&succ) = cfg.nodes[node].succ.get(next) {
                self.stack.push((node, next + 1));
                match self.state[succ] {
                    0 => {
                        self.state[succ] = 1;
                        self.stack.push((succ, 0));
                    }
                    1 => self.back_edges.push((node, succ)),
                    _ => {}
                }
            } else {
                self.state[node] = 2;
                self.rpo.push(node);
            }
        }
        self.rpo.reverse();
        self.acyclic = self.back_edges.is_empty();
        self.reached = self.rpo.len();
        self.reachable.clear();
        self.reachable.extend(self.state.iter().map(|&s| s != 0));
        let unreachable = self.state.indices().filter(|&i| self.state[i] == 0);
        self.rpo.extend(unreachable);
    }

    /// The nodes the entry reaches, in reverse post-order (the entry first).
    pub fn reachable_rpo(&self) -> &[NodeId] {
        &self.rpo[..self.reached]
    }
}

/// Buffers the solvers reuse from one scope to the next.
#[derive(Debug, Default)]
pub struct Scratch {
    pub order: Order,
    gen_sets: BitMatrix,
    kills: BitMatrix,
    states: BitMatrix,
    row: Vec<u64>,
    nested: IndexVec<SymId, Vec<SymId>>,
}

impl Scratch {
    /// For each symbol, the symbols nested in it (not itself): a definite
    /// write of the symbol ends their values too.
    fn compute_descendants(&mut self, table: &SymbolTable) {
        if self.nested.len() < table.len() {
            self.nested.resize_with(table.len(), Vec::new);
        }
        // Only this scope's ids are read: the lists past them (left from a
        // larger scope) are cleared when a scope uses them.
        for list in self.nested.iter_mut().take(table.len()) {
            list.clear();
        }
        for id in table.ids() {
            let mut ancestor = table.parent(id);
            while let Some(a) = ancestor {
                self.nested[a].push(id);
                ancestor = table.parent(a);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use ruff_text_size::TextRange;

    use super::*;

    #[test]
    fn order_lists_reachable_nodes_then_the_others_and_the_back_edges() {
        // entry -> head -> body -> head, head -> exit; `dead` unreachable.
        let mut cfg = Cfg::new();
        let head = cfg.add_node(TextRange::default());
        let body = cfg.add_node(TextRange::default());
        let dead = cfg.add_node(TextRange::default());
        cfg.add_edge(Cfg::ENTRY, head);
        cfg.add_edge(head, body);
        cfg.add_edge(body, head);
        cfg.add_edge(head, Cfg::EXIT);
        cfg.add_edge(dead, Cfg::EXIT);
        let order = Order::of(&cfg);
        assert_eq!(order.reachable_rpo(), [Cfg::ENTRY, head, Cfg::EXIT, body]);
        assert_eq!(
            order.rpo,
            [Cfg::ENTRY, head, Cfg::EXIT, body, Cfg::RAISE, dead]
        );
        assert_eq!(order.back_edges, [(body, head)]);
        assert!(!order.acyclic);
        assert!(order.reachable[body] && !order.reachable[dead]);
    }
}
