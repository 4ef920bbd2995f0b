//! The summaries of nested scopes, which building a scope needs: a
//! function's or lambda's free globals and effects, and what a class body
//! exports to the scope that defines it. Each builds the nested scope and
//! reads its sets (`scope_sets.rs`).

use std::collections::BTreeSet;

use ruff_python_ast::{Expr, Stmt};
use rustc_hash::FxHashSet;

use super::{Context, FunctionSummary, Param, ScopeBuilder, ScopeKind};
use crate::scope::ScopeChain;
use crate::scope_sets::{Dead, ScopeSets};
use crate::symbol::{Symbol, root};
use crate::symbol_set::SymbolSet;

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
            if builder.read_where_used.contains(name) {
                // Its reads are in `sets.live` already, where it is used.
                let mut rest = nested.clone();
                rest.reads = SymbolSet::new();
                summary.absorb(&rest);
            } else {
                summary.absorb(nested);
            }
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
