//! Expressions to accesses: reads of names and of attribute/subscript paths
//! (each prefix is read, as Python evaluates them), stores and deletions,
//! conditional evaluation (`and`/`or`, `x if c else y`), comprehensions (their
//! own scope) and lambdas (deferred bodies, summarised like functions).

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::{Ranged, TextRange};
use rustc_hash::FxHashSet;

use super::call::is_namespace_call;
use super::nested::function_summary;
use super::{ScopeBuilder, ScopeKind};
use crate::access::AccessKind;
use crate::scope::{FunctionScope, for_each_target_name};
use crate::symbol::{ANY_INDEX, Lineage, MAX_PATH_DEPTH, SymId, Symbol, constant_index, depth};

impl<'a> Visitor<'a> for ScopeBuilder<'_> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Name(_) | Expr::Attribute(_) | Expr::Subscript(_) => {
                self.path(expr, AccessKind::Read);
            }
            Expr::Call(call) => self.call(call),
            Expr::Named(named) => {
                self.visit_expr(&named.value);
                self.store(&named.target);
            }
            Expr::BoolOp(op) => {
                let mut values = op.values.iter();
                if let Some(first) = values.next() {
                    self.visit_expr(first);
                }
                self.conditional += 1;
                for value in values {
                    self.visit_expr(value);
                }
                self.conditional -= 1;
            }
            Expr::If(e) => {
                self.visit_expr(&e.test);
                self.conditional += 1;
                self.visit_expr(&e.body);
                self.visit_expr(&e.orelse);
                self.conditional -= 1;
            }
            Expr::ListComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::SetComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::Generator(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::DictComp(c) => match &c.key {
                Some(key) => self.comprehension(&c.generators, &[key, &c.value]),
                None => self.comprehension(&c.generators, &[&c.value]),
            },
            Expr::Lambda(lambda) => self.lambda(lambda),
            Expr::IpyEscapeCommand(e) => self.escape_expression(e),
            _ => visitor::walk_expr(self, expr),
        }
    }
}

impl ScopeBuilder<'_> {
    /// A function scope uses the name of a function defined in it (calls it
    /// or hands it on, `helper()`, `map(helper, xs)`): the globals that
    /// function reads are read here, where it can run, so that a global
    /// this scope binds before (`global E; E = ''; helper()`) is not read
    /// from outside. Its other effects are the scope's wherever it is used
    /// (`nested.rs`).
    fn nested_function_used(&mut self, name: &str, range: TextRange) {
        if !matches!(self.kind, ScopeKind::Function) {
            return;
        }
        let mut reads = Vec::new();
        for (qualified, summary) in &self.functions {
            if qualified.split('.').next() == Some(name) {
                reads.extend(summary.reads.iter().cloned());
                self.read_where_used.insert(qualified.clone());
            }
        }
        for symbol in &reads {
            self.read_symbol(symbol, range);
        }
    }

    /// Evaluates `expr` as a path and records `kind` for it (and `BaseRead`
    /// for the paths it is nested in). Returns the symbol when `expr` is a path
    /// this scope tracks; anything else is evaluated as a plain expression.
    pub(crate) fn path(&mut self, expr: &Expr, kind: AccessKind) -> Option<Symbol> {
        self.path_id(expr, kind).map(|(symbol, _)| symbol)
    }

    /// [`ScopeBuilder::path`], with the id of the symbol recorded.
    fn path_id(&mut self, expr: &Expr, kind: AccessKind) -> Option<(Symbol, SymId)> {
        // The paths `expr` is nested in are read only to get to it.
        let (symbol, lineage) = self.path_base(expr, AccessKind::BaseRead)?;
        let id = self.emit_in(&symbol, lineage, kind, expr.range());
        Some((symbol, id))
    }

    /// The symbol `expr` names (and where it sits among the paths),
    /// evaluating (and reading with `base_kind`) the paths it is nested in but
    /// not recording an access for `expr` itself. A path deeper than
    /// [`MAX_PATH_DEPTH`] is its prefix of that depth (and `path_cut` is set).
    pub(crate) fn path_base(
        &mut self,
        expr: &Expr,
        base_kind: AccessKind,
    ) -> Option<(Symbol, Lineage)> {
        match expr {
            Expr::Name(name) => {
                let id = name.id.as_str();
                if !self.tracks(id) {
                    self.nested_function_used(id, name.range);
                    return None;
                }
                if let ScopeKind::Class { bound } = &self.kind
                    && !self.comprehension_locals.is_empty()
                    && bound.contains(id)
                {
                    self.escaping_reads.insert(Symbol::from(id));
                    return None;
                }
                Some((Symbol::from(id), Lineage::Root))
            }
            Expr::Attribute(attr) => {
                let (mut path, base) = self.path_id(&attr.value, base_kind)?;
                if self.at_depth_limit(&path) {
                    return Some((path, Lineage::Unknown));
                }
                path.push('.');
                path.push_str(attr.attr.as_str());
                Some((path, Lineage::Child(base)))
            }
            Expr::Subscript(sub) if is_namespace_call(&sub.value) => {
                // `globals()['name']` reads `name`; a key nbsight cannot read
                // may be any name. Storing or deleting binds out of sight.
                if let Expr::Call(call) = &*sub.value {
                    // The builtin `globals` itself is read.
                    self.visit_expr(&call.func);
                }
                match (&*sub.slice, sub.ctx.is_load()) {
                    (Expr::StringLiteral(key), true) => {
                        let name = key.value.to_str();
                        let identifier = name.starts_with(|c: char| c.is_alphabetic() || c == '_')
                            && name.chars().all(|c| c.is_alphanumeric() || c == '_');
                        if identifier && self.tracks(name) {
                            self.emit_name(name, AccessKind::Read, sub.range);
                        }
                    }
                    (slice, load) => {
                        self.reads_namespace |= load;
                        self.visit_expr(slice);
                    }
                }
                None
            }
            Expr::Subscript(sub) => {
                let base = self.path_id(&sub.value, base_kind);
                let index = constant_index(&sub.slice);
                if index.is_none() {
                    self.visit_expr(&sub.slice);
                }
                let (mut path, base) = base?;
                if self.at_depth_limit(&path) {
                    return Some((path, Lineage::Unknown));
                }
                match index {
                    Some(index) => {
                        path.push('[');
                        path.push_str(&index);
                        path.push(']');
                    }
                    None => path.push_str(ANY_INDEX),
                }
                Some((path, Lineage::Child(base)))
            }
            _ => {
                self.visit_expr(expr);
                None
            }
        }
    }

    /// `true` (and `path_cut` set) when `path` cannot be extended.
    fn at_depth_limit(&mut self, path: &str) -> bool {
        // Each component after the first takes at least two bytes (`.a`,
        // `[0]`): a shorter text cannot have reached the limit, and most
        // paths are short, so their components are not counted.
        let full = path.len() >= 2 * MAX_PATH_DEPTH - 1 && depth(path) >= MAX_PATH_DEPTH;
        self.path_cut |= full;
        full
    }

    /// Binds an assignment target (`x`, `a.b`, `d['k']`, tuples, starred).
    pub(crate) fn store(&mut self, target: &Expr) {
        let kind = self.write_kind();
        self.bind_target(target, kind);
    }

    /// `del target`.
    pub(crate) fn delete(&mut self, target: &Expr) {
        self.bind_target(target, AccessKind::Delete);
    }

    /// Binds (`Write`/`MayWrite`) or unbinds (`Delete`) an assignment or `del`
    /// target. Storing into `a.b` or `a[k]` also changes `a` in place; a
    /// non-constant subscript only may bind.
    fn bind_target(&mut self, target: &Expr, kind: AccessKind) {
        match target {
            Expr::Name(name) => {
                if self.tracks(name.id.as_str()) {
                    self.emit_name(name.id.as_str(), kind, name.range);
                }
            }
            Expr::Attribute(_) | Expr::Subscript(_) => {
                self.path_cut = false;
                let Some((symbol, lineage)) = self.path_base(target, AccessKind::BaseRead) else {
                    self.note_param_change(target);
                    return;
                };
                // Binding past the depth limit changes the prefix in place.
                let kind = if std::mem::take(&mut self.path_cut) {
                    match kind {
                        AccessKind::MayWrite => AccessKind::MayMutate,
                        _ => AccessKind::Mutate,
                    }
                } else if symbol.ends_with(ANY_INDEX) {
                    AccessKind::MayWrite
                } else {
                    kind
                };
                let id = self.emit_in(&symbol, lineage, kind, target.range());
                self.emit_parent_mutations(id, AccessKind::Mutate, target.range());
            }
            Expr::Tuple(t) => t.elts.iter().for_each(|e| self.bind_target(e, kind)),
            Expr::List(l) => l.elts.iter().for_each(|e| self.bind_target(e, kind)),
            Expr::Starred(s) => self.bind_target(&s.value, kind),
            other => self.visit_expr(other),
        }
    }

    /// The read half of `target += value`.
    pub(crate) fn aug_target_load(&mut self, target: &Expr) {
        match target {
            Expr::Name(_) => {
                self.path(target, AccessKind::Read);
            }
            Expr::Attribute(_) | Expr::Subscript(_) => {
                if let Some((symbol, lineage)) = self.path_base(target, AccessKind::BaseRead) {
                    self.emit_in(&symbol, lineage, AccessKind::Read, target.range());
                }
            }
            other => self.visit_expr(other),
        }
    }

    /// A comprehension: the first iterable is evaluated here; targets are the
    /// comprehension's own; the rest may run any number of times.
    fn comprehension(&mut self, generators: &[ast::Comprehension], elts: &[&Expr]) {
        let mut locals = FxHashSet::default();
        for generator in generators {
            for_each_target_name(&generator.target, &mut |name| {
                locals.insert(name.to_string());
            });
        }
        let mut generators = generators.iter();
        let Some(first) = generators.next() else {
            return;
        };
        self.visit_expr(&first.iter);
        self.comprehension_locals.push(locals);
        self.conditional += 1;
        for cond in &first.ifs {
            self.visit_expr(cond);
        }
        for generator in generators {
            self.visit_expr(&generator.iter);
            for cond in &generator.ifs {
                self.visit_expr(cond);
            }
        }
        for elt in elts {
            self.visit_expr(elt);
        }
        self.conditional -= 1;
        self.comprehension_locals.pop();
    }

    /// A lambda: defaults are evaluated now; the body is summarised as a
    /// function named after the variable it is assigned to, or
    /// `<lambda@LINE:COLUMN>` (1-based, within the cell) when anonymous.
    fn lambda(&mut self, lambda: &ast::ExprLambda) {
        let name = self.lambda_name.take().unwrap_or_else(|| {
            let range = self.range_override.unwrap_or(lambda.range);
            let (line, column) = line_column(self.ctx.source, range.start().to_usize());
            format!("<lambda@{line}:{column}>")
        });
        if let Some(parameters) = &lambda.parameters {
            for parameter in parameters.iter() {
                if let Some(default) = parameter.default() {
                    self.visit_expr(default);
                }
            }
        }
        let scope = FunctionScope::of_lambda(lambda.parameters.as_deref(), &lambda.body);
        // Enclosing comprehensions are scopes too: their variables are the
        // lambda's free variables, not globals.
        let comprehension_vars: rustc_hash::FxHashSet<String> = self
            .comprehension_locals
            .iter()
            .flatten()
            .cloned()
            .collect();
        let chain = if comprehension_vars.is_empty() {
            self.chain.push(scope)
        } else {
            self.chain
                .push(FunctionScope {
                    locals: comprehension_vars,
                    ..FunctionScope::default()
                })
                .push(scope)
        };
        let params = lambda
            .parameters
            .as_deref()
            .map(super::Param::all_of)
            .unwrap_or_default();
        let summary = function_summary(self.ctx, chain, params, &[], Some(&lambda.body));
        self.add_function(&name, summary);
    }
}

/// 1-based line and character column of a byte offset.
fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &source[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    (line, before[line_start..].chars().count() + 1)
}
