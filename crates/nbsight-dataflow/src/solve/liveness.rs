//! Liveness (Algorithm 1 of nbsafety, on accesses): the symbols whose value at
//! the scope's entry may be read on some path before being rebound.

use fixedbitset::FixedBitSet;

use super::kill_sets;
use crate::cfg::{Cfg, NodeId};
use crate::symbol::SymbolTable;

/// The symbols live at the entry of `cfg`.
pub fn live_at_entry(cfg: &Cfg, table: &SymbolTable) -> FixedBitSet {
    let n = table.len();
    let kills = kill_sets(table);
    // gen/kill per node, from its accesses taken backwards.
    let transfer: Vec<(FixedBitSet, FixedBitSet)> = cfg
        .nodes
        .iter()
        .map(|node| {
            let mut gen_set = FixedBitSet::with_capacity(n);
            let mut kill = FixedBitSet::with_capacity(n);
            for access in node.accesses.iter().rev() {
                if access.kind.is_definite_write() {
                    let killed = &kills[access.symbol as usize];
                    kill.union_with(killed);
                    gen_set.difference_with(killed);
                }
                if access.kind.is_read() {
                    gen_set.insert(access.symbol as usize);
                }
            }
            (gen_set, kill)
        })
        .collect();

    let order: Vec<NodeId> = cfg.reverse_postorder().into_iter().rev().collect();
    let mut live_in = vec![FixedBitSet::with_capacity(n); cfg.len()];
    let mut out = FixedBitSet::with_capacity(n);
    let mut changed = true;
    while changed {
        changed = false;
        for &node in &order {
            out.clear();
            for &succ in &cfg.nodes[node].succ {
                out.union_with(&live_in[succ]);
            }
            let (gen_set, kill) = &transfer[node];
            out.difference_with(kill);
            out.union_with(gen_set);
            if out != live_in[node] {
                live_in[node].clone_from(&out);
                changed = true;
            }
        }
    }
    std::mem::take(&mut live_in[Cfg::ENTRY])
}
