//! Initialized-variable analysis (Algorithm 2 of nbsafety, "inverse
//! liveness"): the symbols written on every path to the normal exit by a
//! statement that does not read them, so their value at the end does not depend
//! on their value at the start.

use fixedbitset::FixedBitSet;

use crate::access::AccessKind;
use crate::cfg::{Cfg, NodeId};
use crate::symbol::{SymbolTable, related};

/// The symbols dead at the normal exit of `cfg` (empty when it is never
/// reached normally).
pub fn dead_at_exit(cfg: &Cfg, table: &SymbolTable) -> FixedBitSet {
    let n = table.len();
    // DEF[s] - USE[s] of each node.
    let gen_sets: Vec<FixedBitSet> = cfg
        .nodes
        .iter()
        .map(|node| {
            let mut set = FixedBitSet::with_capacity(n);
            for access in &node.accesses {
                if !access.kind.is_definite_write() {
                    continue;
                }
                let written = table.name(access.symbol);
                let read = node.accesses.iter().any(|other| {
                    other.kind == AccessKind::Read && related(table.name(other.symbol), written)
                });
                if !read {
                    set.insert(access.symbol as usize);
                }
            }
            set
        })
        .collect();

    let order: Vec<NodeId> = cfg.reverse_postorder();
    let mut full = FixedBitSet::with_capacity(n);
    full.insert_range(..);
    let mut dead_out = vec![full.clone(); cfg.len()];
    dead_out[Cfg::ENTRY].clear();
    let mut dead_in = FixedBitSet::with_capacity(n);
    let mut changed = true;
    while changed {
        changed = false;
        for &node in &order {
            if node == Cfg::ENTRY {
                continue;
            }
            dead_in.clone_from(&full);
            for &pred in &cfg.nodes[node].pred {
                dead_in.intersect_with(&dead_out[pred]);
            }
            dead_in.union_with(&gen_sets[node]);
            if dead_in != dead_out[node] {
                dead_out[node].clone_from(&dead_in);
                changed = true;
            }
        }
    }
    if !super::reachable(cfg)[Cfg::EXIT] {
        return FixedBitSet::with_capacity(n);
    }
    std::mem::take(&mut dead_out[Cfg::EXIT])
}
