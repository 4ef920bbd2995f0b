//! Straight-line scopes: a CFG whose code is one block between the entry and
//! the exits (most cells and many function bodies). There the three equations
//! need no fixpoint: liveness at the entry is the block's upward-exposed
//! reads, and what is written on every path to the exit is what the block
//! writes. A forward pass over the block finds the live symbols, a pass per
//! must-write mode what it writes, without the visiting order or the bit
//! matrix per node the general solvers use; they give the same sets as [`super::live_at_entry`] and
//! [`super::must_write_at_exit`] (`tests/straight_line.rs` checks it on
//! hand-written cells, the fixtures and the corpus).

use super::Scratch;
use super::bits;
use super::initialized::{MustWrite, generated};
use crate::cfg::{Cfg, NodeId};
use crate::symbol::{SymId, SymbolTable};

/// The one block of a straight-line `cfg`, and whether it falls into the
/// normal exit; `None` for any other graph.
pub fn single_block(cfg: &Cfg) -> Option<(NodeId, bool)> {
    let block = NodeId::from_u32(3);
    if cfg.len() != 4 {
        return None;
    }
    let entry = &cfg.nodes[Cfg::ENTRY];
    let straight = entry.succ.as_slice() == [block]
        && cfg.nodes[block].pred.as_slice() == [Cfg::ENTRY]
        && [Cfg::ENTRY, Cfg::EXIT, Cfg::RAISE]
            .iter()
            .all(|&n| cfg.nodes[n].accesses.is_empty());
    straight.then(|| (block, cfg.nodes[block].succ.contains(&Cfg::EXIT)))
}

/// What [`solve_block`] reports for a symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    /// Live at the entry (read before any binding of it or of a path it is
    /// nested in).
    Live,
    /// Written on every path to the normal exit, as [`MustWrite`] says.
    Must(MustWrite),
}

/// Reports the facts of the straight-line `cfg` whose block is `block`
/// ([`single_block`]): each live symbol once, in id order, then, when
/// `exits` (the block falls into the normal exit), the symbols each mode of
/// `modes` generates (possibly more than once).
pub fn solve_block(
    cfg: &Cfg,
    table: &SymbolTable,
    scratch: &mut Scratch,
    (block, exits): (NodeId, bool),
    modes: &[MustWrite],
    mut found: impl FnMut(SymId, Fact),
) {
    let accesses = cfg.nodes[block].accesses.as_slice();
    let words = table.len().div_ceil(64);
    // Symbols definitely bound so far, and those found live.
    let Scratch { row: bound, .. } = scratch;
    bound.clear();
    bound.resize(2 * words, 0);
    let (bound, live) = bound.split_at_mut(words);
    // Bound when it or a path it is nested in was bound.
    let is_bound = |bound: &[u64], symbol: SymId| {
        std::iter::successors(Some(symbol), |&s| table.parent(s)).any(|s| bits::contains(bound, s))
    };
    for access in accesses {
        if access.kind.is_read() && !is_bound(bound, access.symbol) {
            bits::insert(live, access.symbol);
        }
        if access.kind.is_definite_write() {
            bits::insert(bound, access.symbol);
        }
    }
    for symbol in bits::ones(live, table.len()) {
        found(symbol, Fact::Live);
    }
    if exits {
        for &mode in modes {
            generated(accesses, table, mode, |symbol| {
                found(symbol, Fact::Must(mode))
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use ruff_python_parser::{Mode, parse_unchecked};

    use super::*;
    use crate::build::Context;
    use crate::effects::Effects;
    use crate::imports::ImportEnv;
    use crate::summarize::analyze_module;

    fn module_cfg(source: &str) -> Cfg {
        let parsed = parse_unchecked(source, Mode::Ipython.into());
        let module = parsed.syntax().as_module().expect("a module");
        let effects = Effects::builtin();
        let imports = ImportEnv::default();
        let ctx = Context {
            effects: &effects,
            imports: &imports,
            source,
        };
        analyze_module(&module.body, ctx, None).cfg
    }

    #[test]
    fn only_one_block_between_entry_and_exits_is_straight() {
        let branching = [
            "if c:\n    x = 1",
            "for i in r:\n    s += i",
            "try:\n    x\nexcept E:\n    pass",
            // What follows a `raise` is a block of its own, unreachable.
            "raise ValueError(x)",
        ];
        for source in branching {
            assert_eq!(single_block(&module_cfg(source)), None, "{source:?}");
        }
        for source in ["x = 1\nprint(x)", "y = a if b else c", ""] {
            let cfg = module_cfg(source);
            assert_eq!(
                single_block(&cfg),
                Some((NodeId::from_u32(3), true)),
                "{source:?}"
            );
        }
    }
}
