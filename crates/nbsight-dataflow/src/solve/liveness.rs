//! Liveness (Algorithm 1 of nbsafety, on accesses): the symbols whose value at
//! the scope's entry may be read on some path before being rebound.

use super::Scratch;
use super::bits;
use crate::cfg::Cfg;
use crate::symbol::{SymId, SymbolTable};

/// Calls `live` with each symbol live at the entry of `cfg`, in id order.
/// `scratch.order` must be the order of `cfg`.
pub fn live_at_entry(
    cfg: &Cfg,
    table: &SymbolTable,
    scratch: &mut Scratch,
    mut live: impl FnMut(SymId),
) {
    let n = table.len();
    let rows = cfg.len();
    scratch.compute_descendants(table);
    let Scratch {
        order,
        gen_sets,
        kills,
        states: live_in,
        row: out,
        nested,
    } = scratch;
    // gen/kill per node, from its accesses taken backwards.
    gen_sets.reset(rows, n, false);
    kills.reset(rows, n, false);
    for (id, node) in cfg.nodes.iter_enumerated() {
        for access in node.accesses.iter().rev() {
            if access.kind.is_definite_write() {
                let written = access.symbol;
                for &s in std::iter::once(&written).chain(&nested[written]) {
                    bits::insert(kills.row_mut(id), s);
                    bits::remove(gen_sets.row_mut(id), s);
                }
            }
            if access.kind.is_read() {
                bits::insert(gen_sets.row_mut(id), access.symbol);
            }
        }
    }

    live_in.reset(rows, n, false);
    out.clear();
    out.resize(live_in.words(), 0);
    loop {
        let mut changed = false;
        for &node in order.rpo.iter().rev() {
            out.fill(0);
            for &succ in &cfg.nodes[node].succ {
                bits::union_with(out, live_in.row(succ));
            }
            bits::transfer(out, kills.row(node), gen_sets.row(node));
            // Without loops one pass is exact: no need to look for changes.
            if order.acyclic || *out != live_in.row(node) {
                live_in.row_mut(node).copy_from_slice(out);
                changed = true;
            }
        }
        if order.acyclic || !changed {
            break;
        }
    }
    for symbol in bits::ones(live_in.row(Cfg::ENTRY), n) {
        live(symbol);
    }
}
