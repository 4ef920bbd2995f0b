//! Straight-line scopes: a CFG whose code is one block between the entry and
//! the exits (most cells and many function bodies). There the three equations
//! need no fixpoint: liveness at the entry is the block's upward-exposed
//! reads, and what is written on every path to the exit is what the block
//! writes. One forward pass over the block answers all three, without the
//! visiting order or the bit matrix per node the general solvers use; it
//! gives the same sets as [`super::live_at_entry`] and
//! [`super::must_write_at_exit`] (checked by the tests below).

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
    let is_bound = |bound: &[u64], mut symbol: SymId| loop {
        let bit = symbol.index();
        if bound[bit / 64] & (1 << (bit % 64)) != 0 {
            return true;
        }
        match table.parent(symbol) {
            Some(parent) => symbol = parent,
            None => return false,
        }
    };
    for access in accesses {
        // An access that reads and binds reads first.
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
    use crate::solve::{Order, live_at_entry, must_write_at_exit};
    use crate::summarize::analyze_module;

    /// The facts of `cfg` by the general solvers and by the straight-line
    /// pass, as sorted lists of (fact, symbol name).
    fn both(cfg: &Cfg, table: &SymbolTable) -> (Vec<String>, Vec<String>) {
        let modes = [MustWrite::Dead, MustWrite::Written];
        let mut scratch = Scratch {
            order: Order::of(cfg),
            ..Scratch::default()
        };
        let mut general = Vec::new();
        live_at_entry(cfg, table, &mut scratch, |s| {
            general.push(format!("live {}", table.name(s)))
        });
        for mode in modes {
            must_write_at_exit(cfg, table, &mut scratch, mode, |s| {
                general.push(format!("{mode:?} {}", table.name(s)))
            });
        }
        let mut straight = Vec::new();
        let block = single_block(cfg).expect("a straight-line scope");
        solve_block(cfg, table, &mut scratch, block, &modes, |s, fact| {
            straight.push(match fact {
                Fact::Live => format!("live {}", table.name(s)),
                Fact::Must(mode) => format!("{mode:?} {}", table.name(s)),
            })
        });
        general.sort();
        straight.sort();
        straight.dedup();
        (general, straight)
    }

    fn module_cfg(source: &str) -> (Cfg, SymbolTable) {
        let parsed = parse_unchecked(source, Mode::Ipython.into());
        let module = parsed.syntax().as_module().expect("a module");
        let effects = Effects::builtin();
        let imports = ImportEnv::default();
        let ctx = Context {
            effects: &effects,
            imports: &imports,
            source,
        };
        let analysis = analyze_module(&module.body, ctx, None);
        (analysis.cfg, analysis.table)
    }

    #[test]
    fn straight_line_facts_are_the_general_solvers_facts() {
        let cells = [
            "x = 1\ny = x + z\nprint(y)",
            "df = df.dropna()\ndf['a'] = df.b * 2\nm = df.a.mean()",
            "lst.append(3)\nlst = [1]\nlst[0] = 2\ndel q",
            "a.b.c = a.b.c + 1\nt += 2\nu = u\nv.w = 1\nprint(v, v.w, v.k)",
            "d['k'] = 1\nd = {}\nd['j'] = d['k']",
            "x = y if c else z\nw = p and q",
            "model.fit(X, y)\nscore = model.score(X_test, y_test)",
            "",
        ];
        for source in cells {
            let (cfg, table) = module_cfg(source);
            let (general, straight) = both(&cfg, &table);
            assert_eq!(general, straight, "{source:?}");
        }
    }

    #[test]
    fn graphs_with_branches_are_not_straight() {
        for source in [
            "if c:\n    x = 1",
            "for i in r:\n    s += i",
            "try:\n    x\nexcept E:\n    pass",
        ] {
            let (cfg, _) = module_cfg(source);
            assert_eq!(single_block(&cfg), None, "{source:?}");
        }
        let (cfg, _) = module_cfg("x = 1\nprint(x)");
        assert_eq!(single_block(&cfg), Some((NodeId::from_u32(3), true)));
    }
}
