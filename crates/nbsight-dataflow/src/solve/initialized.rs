//! Initialized-variable analysis (Algorithm 2 of nbsafety, "inverse
//! liveness"): the symbols written on every path to the normal exit by a
//! statement that does not read them, so their value at the end does not depend
//! on their value at the start (DEAD); and, with the same must-analysis, the
//! symbols bound, deleted or changed in place on every path whatever they
//! read (WRITTEN: the cell certainly produces a new version of them).

use super::Scratch;
use super::bits;
use crate::access::{Access, AccessKind};
use crate::cfg::{Cfg, LoopEdges, NodeId};
use crate::symbol::{SymId, SymbolTable};

/// Which statements generate the must-analysis's facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MustWrite {
    /// Bindings and deletions by a statement that does not read the symbol
    /// (its old value is dead).
    Dead,
    /// Bindings, deletions and in-place changes, reads or not, assuming
    /// every `for` loop runs at least once (a notebook run top to bottom
    /// once iterates over its data; a loop that never runs does no work).
    Written,
}

/// Calls `found` with each symbol `mode` says is written on every path to
/// the normal exit of `cfg`, in id order (none when the exit is never reached
/// normally). `scratch.order` must be the order of `cfg`.
pub fn must_write_at_exit(
    cfg: &Cfg,
    table: &SymbolTable,
    scratch: &mut Scratch,
    mode: MustWrite,
    mut found: impl FnMut(SymId),
) {
    let n = table.len();
    let Scratch {
        order,
        gen_sets,
        states: dead_out,
        row: dead_in,
        ..
    } = scratch;
    if !order.reachable[Cfg::EXIT] {
        return;
    }
    let rows = cfg.len();
    // DEF[s] - USE[s] of each node.
    gen_sets.reset(rows, n, false);
    for (id, node) in cfg.nodes.iter_enumerated() {
        let row = gen_sets.row_mut(id);
        generated(&node.accesses, table, mode, |symbol| {
            bits::insert(row, symbol)
        });
    }

    dead_out.reset(rows, n, true);
    dead_out.row_mut(Cfg::ENTRY).fill(0);
    dead_in.clear();
    dead_in.resize(dead_out.words(), 0);
    loop {
        let mut changed = false;
        for &node in &order.rpo {
            if node == Cfg::ENTRY {
                continue;
            }
            dead_in.fill(u64::MAX);
            match loop_exit(cfg, mode, node) {
                // Leaving a loop after at least one iteration: only the paths
                // back from the body count.
                Some(edges) => {
                    for &pred in &cfg.nodes[edges.head].pred {
                        if pred != edges.entry {
                            bits::intersect_with(dead_in, dead_out.row(pred));
                        }
                    }
                }
                None => {
                    for &pred in &cfg.nodes[node].pred {
                        bits::intersect_with(dead_in, dead_out.row(pred));
                    }
                }
            }
            bits::union_with(dead_in, gen_sets.row(node));
            if order.acyclic || *dead_in != dead_out.row(node) {
                dead_out.row_mut(node).copy_from_slice(dead_in);
                changed = true;
            }
        }
        if order.acyclic || !changed {
            break;
        }
    }
    for symbol in bits::ones(dead_out.row(Cfg::EXIT), n) {
        found(symbol);
    }
}

/// Calls `found` with each symbol `accesses` (a block, in evaluation order)
/// generates as a fact of `mode`, statement by statement: the composition of
/// `x -> (DEF - USE) | x` over a block is the union of the statements'
/// DEF - USE. A symbol may be reported more than once.
pub(super) fn generated(
    accesses: &[Access],
    table: &SymbolTable,
    mode: MustWrite,
    mut found: impl FnMut(SymId),
) {
    let mut start = 0;
    while start < accesses.len() {
        let end = accesses[start + 1..]
            .iter()
            .position(|a| a.starts_statement)
            .map_or(accesses.len(), |p| start + 1 + p);
        let statement = &accesses[start..end];
        for access in statement {
            let counts = match mode {
                MustWrite::Dead => access.kind.is_definite_write(),
                MustWrite::Written => {
                    access.kind.is_definite_write() || access.kind == AccessKind::Mutate
                }
            };
            if !counts {
                continue;
            }
            let read = mode == MustWrite::Dead
                && statement.iter().any(|other| {
                    other.kind == AccessKind::Read && table.related(other.symbol, access.symbol)
                });
            if !read {
                found(access.symbol);
            }
        }
        start = end;
    }
}

/// The loop `node` is the exhausted-iterator exit of, when `mode` assumes
/// loops run and some path comes back from the body.
fn loop_exit(cfg: &Cfg, mode: MustWrite, node: NodeId) -> Option<LoopEdges> {
    if mode != MustWrite::Written {
        return None;
    }
    cfg.loops
        .iter()
        .find(|l| l.exit == node)
        .copied()
        .filter(|l| cfg.nodes[l.head].pred.iter().any(|&p| p != l.entry))
}
