//! Initialized-variable analysis (Algorithm 2 of nbsafety, "inverse
//! liveness"): the symbols written on every path to the normal exit by a
//! statement that does not read them, so their value at the end does not depend
//! on their value at the start.

use super::Order;
use super::bits::{self, BitMatrix};
use crate::access::AccessKind;
use crate::cfg::Cfg;
use crate::symbol::{SymId, SymbolTable};

/// The symbols dead at the normal exit of `cfg`, in id order (none when the
/// exit is never reached normally).
pub fn dead_at_exit(cfg: &Cfg, table: &SymbolTable, order: &Order) -> Vec<SymId> {
    let n = table.len();
    if !order.reachable[Cfg::EXIT] {
        return Vec::new();
    }
    let rows = cfg.len();
    // DEF[s] - USE[s] of each node.
    let mut gen_sets = BitMatrix::new(rows, n, false);
    for (id, node) in cfg.nodes.iter().enumerate() {
        for access in &node.accesses {
            if !access.kind.is_definite_write() {
                continue;
            }
            let read = node.accesses.iter().any(|other| {
                other.kind == AccessKind::Read && table.related(other.symbol, access.symbol)
            });
            if !read {
                bits::insert(gen_sets.row_mut(id), access.symbol as usize);
            }
        }
    }

    let mut dead_out = BitMatrix::new(rows, n, true);
    dead_out.row_mut(Cfg::ENTRY).fill(0);
    let mut dead_in = vec![0u64; dead_out.words()];
    loop {
        let mut changed = false;
        for &node in &order.rpo {
            if node == Cfg::ENTRY {
                continue;
            }
            dead_in.fill(u64::MAX);
            for &pred in &cfg.nodes[node].pred {
                bits::intersect_with(&mut dead_in, dead_out.row(pred));
            }
            bits::union_with(&mut dead_in, gen_sets.row(node));
            if dead_in != dead_out.row(node) {
                dead_out.row_mut(node).copy_from_slice(&dead_in);
                changed = true;
            }
        }
        if order.acyclic || !changed {
            break;
        }
    }
    bits::ones(dead_out.row(Cfg::EXIT), n)
        .map(|i| i as SymId)
        .collect()
}
