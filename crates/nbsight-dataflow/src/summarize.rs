//! Scope summaries: runs the builder and the solvers on a cell's module-level
//! code, a class body or a function body, and turns the results into the sets
//! the rest of nbsight reads (USE, DEF, DEAD, MUTATED, MAY_MUTATE, imports,
//! functions' free globals).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use ruff_python_ast::{Expr, Stmt};
use rustc_hash::FxHashSet;
use serde::Serialize;

use crate::access::AccessKind;
use crate::build::{Context, FunctionSummary, Param, ScopeBuilder, ScopeKind};
use crate::builtins::is_builtin;
use crate::cfg::{Cfg, Node};
use crate::index::IndexVec;
use crate::scope::ScopeChain;
use crate::solve::{
    Fact, MustWrite, ReachingRead, Scratch, live_at_entry, must_write_at_exit,
    reaching_definitions, single_block, solve_block,
};
use crate::symbol::{SymId, Symbol, SymbolTable, root};
use crate::symbol_set::SymbolSet;

/// What one code cell reads and writes (DESIGN.md, "Cell summary"). Symbols
/// are spelled `df`, `df.col`, `lst[3]`, `d['k']`, `lst[*]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CellSummary {
    /// Live at the cell's entry: read before any write on some path
    /// (builtins excluded).
    pub uses: SymbolSet,
    /// Builtin names the cell reads (not rebound in the cell first).
    pub builtins: SymbolSet,
    /// May be bound, rebound or deleted.
    pub defs: SymbolSet,
    /// Written on every path, independent of the old value.
    pub dead: SymbolSet,
    /// Bound, deleted or changed in place on every path, whatever the old
    /// value (`df = df.dropna()` is here, not in `dead`): the cell certainly
    /// leaves a new version of these.
    pub written: SymbolSet,
    /// Changed in place.
    pub mutated: SymbolSet,
    /// Receivers of calls whose effect is unknown (not also in `mutated`).
    pub may_mutate: SymbolSet,
    /// Modules and objects imported (`numpy`, `sklearn.metrics.accuracy_score`).
    pub imports: BTreeSet<String>,
    /// Functions (and methods, as `Class.method`, and named or anonymous
    /// lambdas) defined, with their free globals.
    pub functions: BTreeMap<String, FunctionSummary>,
    /// IPython magics and escapes used (`%matplotlib`, `!`).
    pub magics: BTreeSet<String>,
    /// The cell's code runs code nbsight cannot read (`eval(expr)`,
    /// `exec(expr)`) or reads the namespace as a dict (`globals()`,
    /// `locals()`): it may read any name.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reads_namespace: bool,
    /// Library calls that change library or interpreter state later cells
    /// rely on (`pandas.set_option`, `numpy.random.seed`,
    /// `warnings.filterwarnings`), qualified; see [`crate::global_state`].
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    pub global_changes: BTreeSet<String>,
}

/// The IR of a cell's module-level code with its summary.
#[derive(Debug, Clone)]
pub struct ModuleAnalysis {
    pub cfg: Cfg,
    pub table: SymbolTable,
    pub summary: CellSummary,
}

impl ModuleAnalysis {
    /// Reaching definitions of every read in the cell.
    pub fn reaching_definitions(&self) -> Vec<ReachingRead> {
        reaching_definitions(&self.cfg, &self.table)
    }
}

/// Analyses a cell's statements. `captured` names a variable bound when the
/// cell ends (`%%capture out`).
pub fn analyze_module(body: &[Stmt], ctx: Context<'_>, captured: Option<&str>) -> ModuleAnalysis {
    let mut builder =
        ScopeBuilder::new(ctx, ScopeKind::Module, ScopeChain::default(), String::new());
    builder.reserve(body);
    builder.visit_body(body);
    if let Some(name) = captured {
        builder.bind_at_end(name);
    }
    module_analysis(builder.finish())
}

/// Analyses the body of a `%%timeit` cell: IPython runs it inside a
/// function, so it reads the namespace (and may change objects in place)
/// but binds nothing in it.
pub fn analyze_timed_module(body: &[Stmt], ctx: Context<'_>) -> ModuleAnalysis {
    let mut builder =
        ScopeBuilder::new(ctx, ScopeKind::Module, ScopeChain::default(), String::new());
    builder.reserve(body);
    builder.timed_code(body, true);
    module_analysis(builder.finish())
}

/// Solves a built module scope and makes its summary.
fn module_analysis(builder: ScopeBuilder<'_>) -> ModuleAnalysis {
    let sets = ScopeSets::of(&builder.cfg, &builder.table, Dead::Compute);

    let mut summary = CellSummary {
        imports: builder.imports,
        magics: builder.magics,
        reads_namespace: builder.reads_namespace,
        global_changes: builder.global_changes,
        ..CellSummary::default()
    };
    summary.uses = sets.live;
    summary.builtins = sets
        .builtins
        .iter()
        .map(|symbol| Symbol::from(root(symbol)))
        .collect();
    summary.defs = sets.defs;
    summary.dead = sets.dead;
    summary.written = sets.written;
    summary.mutated = sets.mutated;
    summary.may_mutate = sets.may_mutate;
    for (name, function) in builder.functions {
        match summary.functions.entry(name) {
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(function);
            }
            // Defined twice in the cell: either may be the one called.
            std::collections::btree_map::Entry::Occupied(mut e) => {
                let f = e.get_mut();
                f.absorb(&function);
                f.always_writes = f
                    .always_writes
                    .iter()
                    .filter(|s| function.always_writes.contains(s))
                    .cloned()
                    .collect();
            }
        }
    }
    ModuleAnalysis {
        cfg: builder.cfg,
        table: builder.table,
        summary,
    }
}

/// The free globals of a function (`body`) or lambda (`lambda_body`), whose
/// scope is the innermost of `chain`. Nested functions' effects are included.
pub(crate) fn function_summary(
    ctx: Context<'_>,
    chain: ScopeChain,
    params: Vec<Param>,
    body: &[Stmt],
    lambda_body: Option<&Expr>,
) -> FunctionSummary {
    function_summary_and_builtins(ctx, chain, params, body, lambda_body).0
}

/// [`function_summary`], with the builtin names the body reads (left out
/// of its `reads`).
pub(crate) fn function_summary_and_builtins(
    ctx: Context<'_>,
    chain: ScopeChain,
    params: Vec<Param>,
    body: &[Stmt],
    lambda_body: Option<&Expr>,
) -> (FunctionSummary, Vec<Symbol>) {
    let mut builder = ScopeBuilder::new(ctx, ScopeKind::Function, chain, String::new());
    builder.params = params;
    let builder = match lambda_body {
        Some(expr) => builder.build_expr(expr),
        None => builder.build(body),
    };
    let sets = ScopeSets::of(&builder.cfg, &builder.table, Dead::Skip);
    let (builtins, reads) = (sets.builtins, sets.live);
    let mut summary = FunctionSummary {
        reads,
        always_writes: sets
            .written
            .iter()
            .filter(|s| sets.defs.contains(s) || sets.mutated.contains(s))
            .cloned()
            .collect(),
        writes: sets.defs,
        mutates: sets.mutated,
        may_mutate: sets.may_mutate,
        mutated_params: Vec::new(),
        reads_namespace: builder.reads_namespace,
        builtins: builtins.iter().cloned().collect(),
    };
    // A nested function runs only when this one calls it (or hands it on):
    // its effects are this function's only if its name is used here.
    for (name, nested) in &builder.functions {
        if lambda_body.is_some() || name.starts_with('<') || references(body, root_name(name)) {
            summary.absorb(nested);
        }
    }
    // A nested function's parameters are not this function's.
    summary.mutated_params = builder
        .params
        .iter()
        .filter(|p| builder.mutated_params.contains(&p.name))
        .cloned()
        .collect();
    (summary, builtins)
}

/// The function or class a nested definition's qualified name starts with
/// (`K` for the method `K.m`).
fn root_name(qualified: &str) -> &str {
    qualified.split('.').next().unwrap_or(qualified)
}

/// Does `body` read `name` outside the definition of a function of that
/// name (its own recursive calls do not count)?
fn references(body: &[Stmt], name: &str) -> bool {
    use ruff_python_ast::visitor::{self, Visitor};
    struct Finder<'n> {
        name: &'n str,
        found: bool,
    }
    impl<'a> Visitor<'a> for Finder<'_> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            if self.found {
                return;
            }
            match stmt {
                Stmt::FunctionDef(def) if def.name.as_str() == self.name => {
                    for decorator in &def.decorator_list {
                        self.visit_decorator(decorator);
                    }
                }
                _ => visitor::walk_stmt(self, stmt),
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::Name(n) if n.id.as_str() == self.name && n.ctx.is_load() => {
                    self.found = true;
                }
                _ if !self.found => visitor::walk_expr(self, expr),
                _ => {}
            }
        }
    }
    let mut finder = Finder { name, found: false };
    finder.visit_body(body);
    finder.found
}

/// What a class body exports to the scope that defines it.
#[derive(Debug, Default)]
pub(crate) struct ClassExports {
    /// Symbols read at definition time from the enclosing scope.
    pub reads: SymbolSet,
    /// Globals the body binds (declared `global`), and whether on every path.
    pub writes: Vec<(Symbol, bool)>,
    /// Outside objects the body changes in place.
    pub mutates: SymbolSet,
    pub may_mutate: SymbolSet,
    /// Its methods, as `Class.method`.
    pub functions: Vec<(String, FunctionSummary)>,
    pub imports: BTreeSet<String>,
    pub magics: BTreeSet<String>,
}

/// Runs a class body (it runs when the class is defined).
pub(crate) fn class_exports(
    ctx: Context<'_>,
    chain: ScopeChain,
    bound: FxHashSet<String>,
    type_params: FxHashSet<String>,
    qualname: String,
    body: &[Stmt],
) -> ClassExports {
    let kind = ScopeKind::Class {
        bound: bound.clone(),
    };
    let mut builder = ScopeBuilder::new(ctx, kind, chain, qualname);
    builder.type_params.push(type_params);
    let builder = builder.build(body);
    let sets = ScopeSets::of(&builder.cfg, &builder.table, Dead::Compute);
    let outside = |s: &Symbol| !bound.contains(root(s));
    let mut reads = sets.live;
    reads.extend(sets.builtins);
    reads.extend(builder.escaping_reads);
    let writes = sets
        .defs
        .iter()
        .filter(|s| outside(s))
        .map(|s| (s.clone(), sets.dead.contains(s)))
        .collect();
    ClassExports {
        reads,
        writes,
        mutates: sets.mutated.into_iter().filter(outside).collect(),
        may_mutate: sets.may_mutate.into_iter().filter(outside).collect(),
        functions: builder.functions,
        imports: builder.imports,
        magics: builder.magics,
    }
}

/// Whether [`ScopeSets::of`] runs the DEAD analysis (function summaries do
/// not use it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dead {
    Compute,
    Skip,
}

/// The sets every scope summary is made of.
struct ScopeSets {
    /// Live at entry, builtin names left out (they are in `builtins`).
    live: SymbolSet,
    /// The live symbols whose root is a builtin name, in order.
    builtins: Vec<Symbol>,
    defs: SymbolSet,
    dead: SymbolSet,
    written: SymbolSet,
    mutated: SymbolSet,
    may_mutate: SymbolSet,
}

/// The first eight bytes of `name` as a number (zero-padded): ordering by
/// it, then by the names when it ties, is ordering by name (symbols hold no
/// NUL byte), and most comparisons are then one integer comparison.
fn sort_key(name: &str) -> u64 {
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

    fn of(cfg: &Cfg, table: &SymbolTable, dead: Dead) -> Self {
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

#[cfg(test)]
#[path = "summarize_tests.rs"]
mod tests;
