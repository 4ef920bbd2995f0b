//! Scope summaries: runs the builder and the solvers on a cell's module-level
//! code, a class body or a function body, and turns the results into the sets
//! the rest of nbsight reads (USE, DEF, DEAD, MUTATED, MAY_MUTATE, imports,
//! functions' free globals).

use std::collections::{BTreeMap, BTreeSet};

use ruff_python_ast::Stmt;
use serde::Serialize;

use crate::build::{Context, FunctionSummary, ScopeBuilder, ScopeKind};
use crate::cfg::Cfg;
use crate::scope::ScopeChain;
use crate::scope_sets::{Dead, ScopeSets};
use crate::solve::{ReachingRead, reaching_definitions};
use crate::symbol::{Symbol, SymbolTable, root};
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

#[cfg(test)]
#[path = "summarize_tests.rs"]
mod tests;
