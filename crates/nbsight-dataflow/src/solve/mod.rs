//! Dataflow solvers over a scope's CFG, on bit sets indexed by symbol id:
//! liveness (USE), initialized variables / DEAD (Algorithm 2 of nbsafety) and
//! reaching definitions. Hierarchical symbols: binding `x` also ends the old
//! values of `x.a` and `x[0]`. Each solver visits nodes in the order computed
//! once by [`Order`]; on a graph without loops one pass is exact.

mod bits;
mod initialized;
mod liveness;
mod reaching;

pub use initialized::dead_at_exit;
pub use liveness::live_at_entry;
pub use reaching::{DefSite, ReachingRead, reaching_definitions};

use crate::cfg::{Cfg, NodeId};
use crate::symbol::{SymId, SymbolTable};

/// A visiting order for the solvers.
#[derive(Debug, Clone)]
pub struct Order {
    /// Reverse post-order from the entry, then the unreachable nodes.
    pub rpo: Vec<NodeId>,
    /// Which nodes the entry reaches.
    pub reachable: Vec<bool>,
    /// `true` when no reachable cycle exists (one pass suffices).
    pub acyclic: bool,
}

impl Order {
    /// Computes the order of `cfg` with one depth-first search.
    pub fn of(cfg: &Cfg) -> Order {
        let n = cfg.len();
        // 0 = unseen, 1 = on the stack, 2 = done.
        let mut state = vec![0u8; n];
        let mut post = Vec::with_capacity(n);
        let mut acyclic = true;
        let mut stack: Vec<(NodeId, usize)> = vec![(Cfg::ENTRY, 0)];
        state[Cfg::ENTRY] = 1;
        while let Some((node, next)) = stack.pop() {
            if let Some(&succ) = cfg.nodes[node].succ.get(next) {
                stack.push((node, next + 1));
                match state[succ] {
                    0 => {
                        state[succ] = 1;
                        stack.push((succ, 0));
                    }
                    1 => acyclic = false,
                    _ => {}
                }
            } else {
                state[node] = 2;
                post.push(node);
            }
        }
        post.reverse();
        let reachable: Vec<bool> = state.iter().map(|&s| s != 0).collect();
        post.extend((0..n).filter(|&i| !reachable[i]));
        Order {
            rpo: post,
            reachable,
            acyclic,
        }
    }
}

/// For each symbol, the symbols nested in it (not itself): a definite write
/// of the symbol ends their values too.
pub(crate) fn descendants(table: &SymbolTable) -> Vec<Vec<SymId>> {
    let mut out = vec![Vec::new(); table.len()];
    for id in 0..table.len() as SymId {
        let mut ancestor = table.parent(id);
        while let Some(a) = ancestor {
            out[a as usize].push(id);
            ancestor = table.parent(a);
        }
    }
    out
}
