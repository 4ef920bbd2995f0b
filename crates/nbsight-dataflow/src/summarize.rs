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
use crate::cfg::Cfg;
use crate::index::IndexVec;
use crate::scope::ScopeChain;
use crate::solve::{
    MustWrite, ReachingRead, Scratch, live_at_entry, must_write_at_exit, reaching_definitions,
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
    let (builtins, uses) = split_builtins(sets.live);
    summary.uses = SymbolSet::from_sorted(uses);
    summary.builtins = builtins
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

/// Splits symbols read into builtin names and the others, in order.
fn split_builtins(live: SymbolSet) -> (Vec<Symbol>, Vec<Symbol>) {
    let mut builtins = Vec::new();
    let mut others = Vec::with_capacity(live.len());
    for symbol in live {
        if is_builtin(root(&symbol)) {
            builtins.push(symbol);
        } else {
            others.push(symbol);
        }
    }
    (builtins, others)
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
    let (builtins, reads) = split_builtins(sets.live);
    let mut summary = FunctionSummary {
        reads: SymbolSet::from_sorted(reads),
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
    live: SymbolSet,
    defs: SymbolSet,
    dead: SymbolSet,
    written: SymbolSet,
    mutated: SymbolSet,
    may_mutate: SymbolSet,
}

impl ScopeSets {
    fn of(cfg: &Cfg, table: &SymbolTable, dead: Dead) -> Self {
        thread_local! {
            static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
        }
        let n = table.len();
        const LIVE: u8 = 1;
        const DEAD: u8 = 2;
        const DEF: u8 = 4;
        const MUTATE: u8 = 8;
        const MAY_MUTATE: u8 = 16;
        const WRITTEN: u8 = 32;
        let mut flags: IndexVec<SymId, u8> = IndexVec::from_elem_n(0, n);
        SCRATCH.with_borrow_mut(|scratch| {
            scratch.order.compute(cfg);
            live_at_entry(cfg, table, scratch, |id| flags[id] |= LIVE);
            if dead == Dead::Compute {
                must_write_at_exit(cfg, table, scratch, MustWrite::Dead, |id| flags[id] |= DEAD);
            }
            let reachable = &scratch.order.reachable;
            let mut writes = false;
            for (node, _) in cfg.nodes.iter().zip(reachable).filter(|(_, r)| **r) {
                for access in &node.accesses {
                    let flag = &mut flags[access.symbol];
                    match access.kind {
                        k if k.is_def() => *flag |= DEF,
                        AccessKind::Mutate => *flag |= MUTATE,
                        AccessKind::MayMutate => *flag |= MAY_MUTATE,
                        _ => {}
                    }
                    writes |= access.kind.is_def() || access.kind == AccessKind::Mutate;
                }
            }
            // A function that binds or changes no global writes nothing.
            if writes {
                must_write_at_exit(cfg, table, scratch, MustWrite::Written, |id| {
                    flags[id] |= WRITTEN
                });
            }
        });
        // Sort the scope's symbols by name once; every set is then filled in
        // that order, in one pass.
        let mut by_name: Vec<SymId> = table.ids().filter(|&i| flags[i] != 0).collect();
        by_name.sort_unstable_by(|&a, &b| table.name(a).cmp(table.name(b)));
        const SETS: [(u8, u8); 6] = [
            (LIVE, 0),
            (DEAD, 0),
            (DEF, 0),
            (WRITTEN, 0),
            (MUTATE, 0),
            (MAY_MUTATE, MUTATE),
        ];
        let mut sets: [Vec<Symbol>; 6] = Default::default();
        for &i in &by_name {
            let f = flags[i];
            for (out, (wanted, unless)) in sets.iter_mut().zip(SETS) {
                if f & wanted != 0 && f & unless == 0 {
                    out.push(table.symbol(i));
                }
            }
        }
        let [live, dead, defs, written, mutated, may_mutate] = sets.map(SymbolSet::from_sorted);
        ScopeSets {
            live,
            defs,
            dead,
            written,
            mutated,
            may_mutate,
        }
    }
}

#[cfg(test)]
#[path = "summarize_tests.rs"]
mod tests;
