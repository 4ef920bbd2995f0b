//! Dataflow solvers over a scope's CFG, on bit rows indexed by symbol id:
//! liveness (USE), initialized variables / DEAD (Algorithm 2 of nbsafety) and
//! reaching definitions. Hierarchical symbols: binding `x` also ends the old
//! values of `x.a` and `x[0]`. Each solver visits nodes in the order computed
//! once by [`Order`]; on a graph without loops one pass is exact. Buffers live
//! in a [`Scratch`] reused from scope to scope.

mod bits;
mod initialized;
mod liveness;
mod reaching;

pub use initialized::{MustWrite, must_write_at_exit};
pub use liveness::live_at_entry;
pub use reaching::{DefSite, ReachingRead, reaching_definitions};

use bits::BitMatrix;

use crate::cfg::{Cfg, NodeId};
use crate::symbol::{SymId, SymbolTable};

/// A visiting order for the solvers.
#[derive(Debug, Clone, Default)]
pub struct Order {
    /// Reverse post-order from the entry, then the unreachable nodes.
    pub rpo: Vec<NodeId>,
    /// Which nodes the entry reaches.
    pub reachable: Vec<bool>,
    /// `true` when no reachable cycle exists (one pass suffices).
    pub acyclic: bool,
    /// Depth-first search stack, kept for reuse.
    stack: Vec<(NodeId, usize)>,
    /// 0 = unseen, 1 = on the stack, 2 = done; kept for reuse.
    state: Vec<u8>,
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
        self.acyclic = true;
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
                    1 => self.acyclic = false,
                    _ => {}
                }
            } else {
                self.state[node] = 2;
                self.rpo.push(node);
            }
        }
        self.rpo.reverse();
        self.reachable.clear();
        self.reachable.extend(self.state.iter().map(|&s| s != 0));
        let unreachable = (0..n).filter(|&i| self.state[i] == 0);
        self.rpo.extend(unreachable);
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
    nested: Vec<Vec<SymId>>,
}

impl Scratch {
    /// For each symbol, the symbols nested in it (not itself): a definite
    /// write of the symbol ends their values too.
    fn compute_descendants(&mut self, table: &SymbolTable) {
        for list in &mut self.nested {
            list.clear();
        }
        if self.nested.len() < table.len() {
            self.nested.resize_with(table.len(), Vec::new);
        }
        for id in 0..table.len() as SymId {
            let mut ancestor = table.parent(id);
            while let Some(a) = ancestor {
                self.nested[a as usize].push(id);
                ancestor = table.parent(a);
            }
        }
    }
}
