//! The sets every scope summary is made of (live at entry, builtins read,
//! DEF, DEAD, written, mutated, may-mutate), solved from a scope's CFG and
//! symbol table: what a cell's, a function's and a class body's summaries
//! are read from.

use std::cell::RefCell;

use crate::access::AccessKind;
use crate::builtins::is_builtin;
use crate::cfg::{Cfg, Node};
use crate::index::IndexVec;
use crate::solve::{
    Fact, MustWrite, Scratch, live_at_entry, must_write_at_exit, single_block, solve_block,
};
use crate::symbol::{SymId, Symbol, SymbolTable};
use crate::symbol_set::SymbolSet;

/// Whether [`ScopeSets::of`] runs the DEAD analysis (function summaries do
/// not use it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dead {
    Compute,
    Skip,
}

/// The sets every scope summary is made of.
pub(crate) struct ScopeSets {
    /// Live at entry, builtin names left out (they are in `builtins`).
    pub(crate) live: SymbolSet,
    /// The live symbols whose root is a builtin name, in order.
    pub(crate) builtins: Vec<Symbol>,
    pub(crate) defs: SymbolSet,
    pub(crate) dead: SymbolSet,
    pub(crate) written: SymbolSet,
    pub(crate) mutated: SymbolSet,
    pub(crate) may_mutate: SymbolSet,
}

/// The first eight bytes of `name` as a number (zero-padded): ordering by
/// it, then by the names when it ties, is ordering by name (symbols hold no
/// NUL byte), and most comparisons are then one integer comparison.
pub(crate) fn sort_key(name: &str) -> u64 {
    let mut key = [0u8; 8];
    let n = name.len().min(8);
    key[..n].copy_from_slice(&name.as_bytes()[..n]);
    u64::from_be_bytes(key)
}

/// Moves the items of `buffer` into a vector of exactly their number,
/// leaving `buffer` empty with its capacity (an empty set allocates nothing).
fn take_exact<T>(buffer: &mut Vec<T>) -> Vec<T> {
    if buffer.is_empty() {
        return Vec::new();
    }
    let mut exact = Vec::with_capacity(buffer.len());
    exact.append(buffer);
    exact
}

/// Buffers [`ScopeSets::of`] reuses from one scope to the next.
#[derive(Default)]
struct SetsScratch {
    solve: Scratch,
    /// Per symbol, the sets it is in (`ScopeSets::LIVE`...).
    flags: IndexVec<SymId, u8>,
    /// The scope's symbols in any set, with their [`sort_key`], to be put
    /// in name order.
    by_name: Vec<(u64, SymId)>,
    /// Each set's symbols, collected before being moved into an exactly
    /// sized vector (the live builtins last).
    sets: [Vec<Symbol>; ScopeSets::SETS.len() + 1],
}

impl ScopeSets {
    const LIVE: u8 = 1;
    const DEAD: u8 = 2;
    const DEF: u8 = 4;
    const MUTATE: u8 = 8;
    const MAY_MUTATE: u8 = 16;
    const WRITTEN: u8 = 32;
    /// Memo of a root symbol: whether it is a builtin name is known, and is.
    const ROOT_KNOWN: u8 = 64;
    const BUILTIN: u8 = 128;
    /// The sets in the order they are filled: (flag wanted, flag excluded).
    const SETS: [(u8, u8); 6] = [
        (Self::LIVE, 0),
        (Self::DEAD, 0),
        (Self::DEF, 0),
        (Self::WRITTEN, 0),
        (Self::MUTATE, 0),
        (Self::MAY_MUTATE, Self::MUTATE),
    ];

    pub(crate) fn of(cfg: &Cfg, table: &SymbolTable, dead: Dead) -> Self {
        thread_local! {
            static SCRATCH: RefCell<SetsScratch> = RefCell::new(SetsScratch::default());
        }
        SCRATCH.with_borrow_mut(|scratch| Self::solve(cfg, table, dead, scratch))
    }

    /// The flags of a scope of any shape, by the fixpoint solvers.
    fn solve_general(
        cfg: &Cfg,
        table: &SymbolTable,
        dead: Dead,
        solve: &mut Scratch,
        flags: &mut IndexVec<SymId, u8>,
    ) {
        solve.order.compute(cfg);
        live_at_entry(cfg, table, solve, |id| flags[id] |= Self::LIVE);
        // Without a binding or deletion anywhere nothing is DEAD (the most
        // common cells only read and show): the solve is skipped.
        let binds = || {
            cfg.nodes
                .iter()
                .any(|node| node.accesses.iter().any(|a| a.kind.is_definite_write()))
        };
        if dead == Dead::Compute && binds() {
            must_write_at_exit(cfg, table, solve, MustWrite::Dead, |id| {
                flags[id] |= Self::DEAD
            });
        }
        let reachable = cfg
            .nodes
            .iter()
            .zip(&solve.order.reachable)
            .filter_map(|(node, &r)| r.then_some(node));
        // A function that binds or changes no global writes nothing.
        if Self::mark_accesses(flags, reachable) {
            must_write_at_exit(cfg, table, solve, MustWrite::Written, |id| {
                flags[id] |= Self::WRITTEN
            });
        }
    }

    /// Flags what the accesses of `nodes` (the reachable ones) bind or
    /// change; `true` when some access binds or changes in place.
    fn mark_accesses<'n>(
        flags: &mut IndexVec<SymId, u8>,
        nodes: impl IntoIterator<Item = &'n Node>,
    ) -> bool {
        let mut writes = false;
        for node in nodes {
            for access in &node.accesses {
                let flag = &mut flags[access.symbol];
                match access.kind {
                    k if k.is_def() => *flag |= Self::DEF,
                    AccessKind::Mutate => *flag |= Self::MUTATE,
                    AccessKind::MayMutate => *flag |= Self::MAY_MUTATE,
                    _ => {}
                }
                writes |= access.kind.is_def() || access.kind == AccessKind::Mutate;
            }
        }
        writes
    }

    fn solve(cfg: &Cfg, table: &SymbolTable, dead: Dead, scratch: &mut SetsScratch) -> Self {
        let SetsScratch {
            solve,
            flags,
            by_name,
            sets,
        } = scratch;
        flags.clear();
        flags.resize(table.len(), 0);
        match single_block(cfg) {
            // Most scopes are one block: one pass, no fixpoint.
            Some(block) => {
                let modes: &[MustWrite] = match dead {
                    Dead::Compute => &[MustWrite::Dead, MustWrite::Written],
                    Dead::Skip => &[MustWrite::Written],
                };
                solve_block(cfg, table, solve, block, modes, |id, fact| {
                    flags[id] |= match fact {
                        Fact::Live => Self::LIVE,
                        Fact::Must(MustWrite::Dead) => Self::DEAD,
                        Fact::Must(MustWrite::Written) => Self::WRITTEN,
                    }
                });
                Self::mark_accesses(flags, [&cfg.nodes[block.0]]);
            }
            None => Self::solve_general(cfg, table, dead, solve, flags),
        }
        // Sort the scope's symbols by name once; every set is then filled in
        // that order, in one pass.
        by_name.clear();
        by_name.extend(
            table
                .ids()
                .filter(|&i| flags[i] != 0)
                .map(|i| (sort_key(table.name(i)), i)),
        );
        by_name.sort_unstable_by(|&(ka, a), &(kb, b)| {
            ka.cmp(&kb).then_with(|| table.name(a).cmp(table.name(b)))
        });
        for &(_, i) in by_name.iter() {
            let f = flags[i];
            for (k, (wanted, unless)) in Self::SETS.into_iter().enumerate() {
                if f & wanted != 0 && f & unless == 0 {
                    // Live builtin names go to the extra, last buffer.
                    let k = if k == 0 && Self::is_builtin_root(table, flags, i) {
                        Self::SETS.len()
                    } else {
                        k
                    };
                    sets[k].push(table.symbol(i));
                }
            }
        }
        let [live, dead, defs, written, mutated, may_mutate, builtins] =
            std::array::from_fn(|k| take_exact(&mut sets[k]));
        let [live, dead, defs, written, mutated, may_mutate] =
            [live, dead, defs, written, mutated, may_mutate].map(SymbolSet::from_sorted);
        ScopeSets {
            live,
            builtins,
            defs,
            dead,
            written,
            mutated,
            may_mutate,
        }
    }

    /// Is the root of symbol `id` a builtin name? Memoized in the root's
    /// flags.
    fn is_builtin_root(table: &SymbolTable, flags: &mut IndexVec<SymId, u8>, id: SymId) -> bool {
        let mut root = id;
        while let Some(parent) = table.parent(root) {
            root = parent;
        }
        if flags[root] & Self::ROOT_KNOWN == 0 {
            let builtin = is_builtin(table.name(root));
            flags[root] |= Self::ROOT_KNOWN | if builtin { Self::BUILTIN } else { 0 };
        }
        flags[root] & Self::BUILTIN != 0
    }
}
