//! Liveness (Algorithm 1 of nbsafety, on accesses): the symbols whose value at
//! the scope's entry may be read on some path before being rebound.

use super::bits::{self, BitMatrix};
use super::{Order, descendants};
use crate::cfg::Cfg;
use crate::symbol::{SymId, SymbolTable};

/// The symbols live at the entry of `cfg`, in id order.
pub fn live_at_entry(cfg: &Cfg, table: &SymbolTable, order: &Order) -> Vec<SymId> {
    let n = table.len();
    let nested = descendants(table);
    let rows = cfg.len();
    // gen/kill per node, from its accesses taken backwards.
    let mut gen_sets = BitMatrix::new(rows, n, false);
    let mut kills = BitMatrix::new(rows, n, false);
    for (id, node) in cfg.nodes.iter().enumerate() {
        for access in node.accesses.iter().rev() {
            if access.kind.is_definite_write() {
                let written = access.symbol as usize;
                for &s in std::iter::once(&access.symbol).chain(&nested[written]) {
                    bits::insert(kills.row_mut(id), s as usize);
                    bits::remove(gen_sets.row_mut(id), s as usize);
                }
            }
            if access.kind.is_read() {
                bits::insert(gen_sets.row_mut(id), access.symbol as usize);
            }
        }
    }

    let mut live_in = BitMatrix::new(rows, n, false);
    let mut out = vec![0u64; live_in.words()];
    loop {
        let mut changed = false;
        for &node in order.rpo.iter().rev() {
            out.fill(0);
            for &succ in &cfg.nodes[node].succ {
                bits::union_with(&mut out, live_in.row(succ));
            }
            bits::transfer(&mut out, kills.row(node), gen_sets.row(node));
            if out != live_in.row(node) {
                live_in.row_mut(node).copy_from_slice(&out);
                changed = true;
            }
        }
        if order.acyclic || !changed {
            break;
        }
    }
    bits::ones(live_in.row(Cfg::ENTRY), n)
        .map(|i| i as SymId)
        .collect()
}
