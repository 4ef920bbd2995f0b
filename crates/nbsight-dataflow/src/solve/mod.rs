//! Dataflow solvers over a scope's CFG, on bit sets indexed by symbol id:
//! liveness (USE), initialized variables / DEAD (Algorithm 2 of nbsafety) and
//! reaching definitions. Hierarchical symbols: binding `x` also ends the old
//! values of `x.a` and `x[0]`.

mod initialized;
mod liveness;
mod reaching;

pub use initialized::dead_at_exit;
pub use liveness::live_at_entry;
pub use reaching::{DefSite, ReachingRead, reaching_definitions};

use fixedbitset::FixedBitSet;

use crate::cfg::{Cfg, NodeId};
use crate::symbol::{SymId, SymbolTable, is_prefix_or_equal};

/// For each symbol, the set of symbols a definite write of it ends: itself
/// and every path nested in it.
pub(crate) fn kill_sets(table: &SymbolTable) -> Vec<FixedBitSet> {
    let n = table.len();
    (0..n as SymId)
        .map(|w| {
            let mut set = FixedBitSet::with_capacity(n);
            let name = table.name(w);
            for s in 0..n as SymId {
                if is_prefix_or_equal(name, table.name(s)) {
                    set.insert(s as usize);
                }
            }
            set
        })
        .collect()
}

/// Which nodes the entry reaches.
pub fn reachable(cfg: &Cfg) -> Vec<bool> {
    let mut seen = vec![false; cfg.len()];
    let mut stack: Vec<NodeId> = vec![Cfg::ENTRY];
    seen[Cfg::ENTRY] = true;
    while let Some(node) = stack.pop() {
        for &succ in &cfg.nodes[node].succ {
            if !seen[succ] {
                seen[succ] = true;
                stack.push(succ);
            }
        }
    }
    seen
}
