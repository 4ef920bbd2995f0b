//! Statements to CFG: simple statements become one node each; compound ones
//! (if, loops, try, with, match, def, class) build their structure.

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};
use rustc_hash::FxHashSet;

use super::nested::{class_exports, function_summary};
use super::{FinallyFrame, Jump, LoopTargets, ScopeBuilder, ScopeKind};
use crate::access::AccessKind;
use crate::cfg::{LoopEdges, NodeId};
use crate::imports::for_each_binding;
use crate::scope::{FunctionScope, pattern_bindings};
use crate::symbol::{Symbol, root};

impl ScopeBuilder<'_> {
    pub(crate) fn visit_body(&mut self, body: &[Stmt]) {
        for stmt in body {
            self.statement(stmt);
        }
    }

    fn statement(&mut self, stmt: &Stmt) {
        match stmt {
            Stmt::Expr(s) => {
                self.step(s.range);
                self.visit_expr(&s.value);
            }
            Stmt::Assign(s) => {
                self.step(s.range);
                if let ([Expr::Name(target)], Expr::Lambda(_)) = (s.targets.as_slice(), &*s.value) {
                    self.lambda_name = Some(target.id.to_string());
                }
                self.visit_expr(&s.value);
                self.lambda_name = None;
                for target in &s.targets {
                    self.store(target);
                }
            }
            Stmt::AugAssign(s) => {
                self.step(s.range);
                self.aug_target_load(&s.target);
                self.visit_expr(&s.value);
                self.store(&s.target);
            }
            Stmt::AnnAssign(s) => {
                self.step(s.range);
                if self.kind != ScopeKind::Function {
                    self.visit_annotation(&s.annotation);
                }
                match &s.value {
                    Some(value) => {
                        self.visit_expr(value);
                        self.store(&s.target);
                    }
                    // `obj.attr: int` still evaluates `obj`.
                    None if !s.target.is_name_expr() => {
                        self.path_base(&s.target, AccessKind::BaseRead);
                    }
                    None => {}
                }
            }
            Stmt::TypeAlias(s) => {
                self.step(s.range);
                self.store(&s.name);
            }
            Stmt::Delete(s) => {
                self.step(s.range);
                for target in &s.targets {
                    self.delete(target);
                }
            }
            Stmt::Return(s) => {
                self.step(s.range);
                if let Some(value) = &s.value {
                    self.visit_expr(value);
                }
                self.jump(Jump::Return);
                self.unreachable();
            }
            Stmt::Raise(s) => {
                self.step(s.range);
                if let Some(exc) = &s.exc {
                    self.visit_expr(exc);
                }
                if let Some(cause) = &s.cause {
                    self.visit_expr(cause);
                }
                let (current, target) = (self.current, self.raise_target());
                self.cfg.add_edge(current, target);
                self.unreachable();
            }
            Stmt::Assert(s) => {
                self.step(s.range);
                self.visit_expr(&s.test);
                if let Some(msg) = &s.msg {
                    self.conditional += 1;
                    self.visit_expr(msg);
                    self.conditional -= 1;
                }
            }
            Stmt::Import(_) | Stmt::ImportFrom(_) => {
                self.step(stmt.range());
                let kind = self.write_kind();
                for_each_binding(stmt, |binding| {
                    if !self.imports.contains(binding.imported()) {
                        self.imports.insert(binding.imported().to_owned());
                    }
                    if binding.name != "*" && self.tracks(binding.name) {
                        self.emit_name(binding.name, kind, stmt.range());
                    }
                });
            }
            Stmt::Global(_) | Stmt::Nonlocal(_) | Stmt::Pass(_) => {}
            Stmt::Break(s) => {
                self.begin(s.range);
                self.jump(Jump::Break);
                self.unreachable();
            }
            Stmt::Continue(s) => {
                self.begin(s.range);
                self.jump(Jump::Continue);
                self.unreachable();
            }
            Stmt::If(s) => self.if_statement(s),
            Stmt::While(s) => self.while_statement(s),
            Stmt::For(s) => self.for_statement(s),
            Stmt::With(s) => {
                self.begin(s.range);
                for item in &s.items {
                    self.visit_expr(&item.context_expr);
                    if let Some(vars) = &item.optional_vars {
                        self.store(vars);
                    }
                }
                self.visit_body(&s.body);
            }
            Stmt::Try(s) => self.try_statement(s),
            Stmt::Match(s) => self.match_statement(s),
            Stmt::FunctionDef(def) => self.function_def(def),
            Stmt::ClassDef(class) => self.class_def(class),
            Stmt::IpyEscapeCommand(s) => {
                self.step(s.range);
                self.escape_statement(s);
            }
        }
    }

    fn if_statement(&mut self, s: &ast::StmtIf) {
        self.begin(s.test.range());
        self.visit_expr(&s.test);
        let mut ends = Vec::new();
        let mut test_node = self.current;
        self.visit_body(&s.body);
        ends.push(self.current);
        let mut has_else = false;
        for clause in &s.elif_else_clauses {
            self.current = test_node;
            match &clause.test {
                Some(test) => {
                    self.begin(test.range());
                    self.visit_expr(test);
                    test_node = self.current;
                }
                None => {
                    has_else = true;
                    let node = self.join(&[test_node]);
                    self.enter(node);
                }
            }
            self.visit_body(&clause.body);
            ends.push(self.current);
        }
        if !has_else {
            ends.push(test_node);
        }
        self.current = self.join(&ends);
    }

    fn while_statement(&mut self, s: &ast::StmtWhile) {
        let head = self.begin(s.test.range());
        self.visit_expr(&s.test);
        let exit = self.cfg.add_node(TextRange::default());
        self.loop_body(head, exit, &s.body);
        if !is_always_true(&s.test) {
            self.loop_else(head, exit, &s.orelse);
        }
        self.current = exit;
    }

    fn for_statement(&mut self, s: &ast::StmtFor) {
        self.begin(s.iter.range());
        self.visit_expr(&s.iter);
        let entry = self.current;
        let head = self.join(&[entry]);
        let exit = self.cfg.add_node(TextRange::default());
        self.current = head;
        self.begin(s.target.range());
        self.store(&s.target);
        self.loop_body(head, exit, &s.body);
        let exhausted = self.loop_else(head, exit, &s.orelse);
        if !is_empty_range(&s.iter) {
            self.cfg.loops.push(LoopEdges {
                entry,
                head,
                exit: exhausted,
            });
        }
        self.current = exit;
    }

    /// A loop body from the current node, looping back to `head`; `break`
    /// goes to `exit`, `continue` to `head`.
    fn loop_body(&mut self, head: NodeId, exit: NodeId, body: &[Stmt]) {
        self.loops.push(LoopTargets { head, exit });
        self.visit_body(body);
        let body_end = self.current;
        self.cfg.add_edge(body_end, head);
        self.loops.pop();
    }

    /// A loop's `else`, run when the loop ends without `break`; returns the
    /// node it starts at.
    fn loop_else(&mut self, head: NodeId, exit: NodeId, orelse: &[Stmt]) -> NodeId {
        let else_start = self.join(&[head]);
        self.enter(else_start);
        self.visit_body(orelse);
        let current = self.current;
        self.cfg.add_edge(current, exit);
        else_start
    }

    /// `try`: every statement of the body may raise into the handlers; the
    /// `finally` body runs on every way out, so it is walked once per way
    /// (as CPython compiles it): after normal completion (then the code
    /// carries on), after an exception that escapes (then it is re-raised),
    /// and before each kind of `return`, `break` or `continue` that leaves
    /// the statement (then the jump goes on). A name written on every path
    /// that ends normally is thus written at the normal exit even though an
    /// exception may leave from the middle.
    fn try_statement(&mut self, s: &ast::StmtTry) {
        let outer_target = self.raise_target();
        let has_finally = !s.finalbody.is_empty();
        // Where an exception escaping the try (or a handler) goes first.
        let finally_raise = has_finally.then(|| self.cfg.add_node(TextRange::default()));
        if has_finally {
            self.finallies.push(FinallyFrame {
                loops_depth: self.loops.len(),
                ..FinallyFrame::default()
            });
        }
        let dispatch = self.cfg.add_node(TextRange::default());
        let current = self.current;
        self.cfg.add_edge(current, dispatch);

        self.raise_targets.push(dispatch);
        self.visit_body(&s.body);
        self.raise_targets.pop();

        // Exceptions escaping the handlers (or not caught) go through finally.
        let escape = finally_raise.unwrap_or(outer_target);
        if let Some(finally) = finally_raise {
            self.raise_targets.push(finally);
        }
        self.visit_body(&s.orelse);
        let mut ends = vec![self.current];

        let catches_all = s.handlers.iter().any(|h| {
            let ast::ExceptHandler::ExceptHandler(h) = h;
            h.type_.is_none()
        });
        if !catches_all {
            self.cfg.add_edge(dispatch, escape);
        }
        for handler in &s.handlers {
            let ast::ExceptHandler::ExceptHandler(handler) = handler;
            self.current = dispatch;
            self.begin(handler.range);
            if let Some(type_) = &handler.type_ {
                self.visit_expr(type_);
            }
            if let Some(name) = &handler.name
                && self.tracks(name.as_str())
            {
                let kind = self.write_kind();
                self.emit_name(name.as_str(), kind, name.range);
            }
            self.visit_body(&handler.body);
            ends.push(self.current);
        }
        let Some(raise_entry) = finally_raise else {
            self.current = self.join(&ends);
            return;
        };
        self.raise_targets.pop();
        let frame = self.finallies.pop().unwrap_or_default();

        // After normal completion: the code carries on after the copy.
        let normal = self.join(&ends);
        self.enter(normal);
        self.visit_body(&s.finalbody);
        let after = self.current;

        // After an exception: re-raised at the end.
        self.finally_copy(raise_entry, &s.finalbody, |builder| {
            let end = builder.current;
            builder.cfg.add_edge(end, outer_target);
        });
        // Before a jump out of the statement: the jump goes on.
        for (entry, jump) in [
            (frame.returns, Jump::Return),
            (frame.breaks, Jump::Break),
            (frame.continues, Jump::Continue),
        ] {
            if let Some(entry) = entry {
                self.finally_copy(entry, &s.finalbody, |builder| builder.jump(jump));
            }
        }
        self.current = after;
    }

    /// Walks a copy of a `finally` body from `entry`, then `leave`s it; its
    /// nodes are marked as a copy ([`crate::cfg::Cfg::copies`]).
    fn finally_copy(&mut self, entry: NodeId, finalbody: &[Stmt], leave: impl FnOnce(&mut Self)) {
        let first = self.cfg.nodes.next_index();
        self.enter(entry);
        self.visit_body(finalbody);
        leave(self);
        self.unreachable();
        let end = self.cfg.nodes.next_index();
        self.cfg.copies.push((first, end));
        self.cfg
            .copies
            .push((entry, NodeId::from_u32(entry.as_u32() + 1)));
    }

    fn match_statement(&mut self, s: &ast::StmtMatch) {
        self.begin(s.subject.range());
        self.visit_expr(&s.subject);
        // `failed`: where control goes when a case does not match.
        let mut failed = vec![self.current];
        let mut ends = Vec::new();
        let mut exhaustive = false;
        for case in &s.cases {
            self.current = self.join(&failed);
            // The values and classes the pattern compares with...
            let test = self.begin(case.pattern.range());
            self.pattern(&case.pattern, PatternPart::Reads);
            // ...then, on a match, its captures and the guard.
            self.begin(case.pattern.range());
            self.pattern(&case.pattern, PatternPart::Captures);
            failed = vec![test];
            if let Some(guard) = &case.guard {
                self.visit_expr(guard);
                failed.push(self.current);
            }
            self.visit_body(&case.body);
            ends.push(self.current);
            if case.guard.is_none() && case.pattern.is_irrefutable() {
                exhaustive = true;
                break;
            }
        }
        if !exhaustive {
            ends.extend(failed);
        }
        self.current = self.join(&ends);
    }

    /// Reads the values a pattern compares with, or binds its captures.
    fn pattern(&mut self, pattern: &ast::Pattern, part: PatternPart) {
        struct PatternWalker<'b, 'c> {
            builder: &'b mut ScopeBuilder<'c>,
            part: PatternPart,
        }
        impl<'a> Visitor<'a> for PatternWalker<'_, '_> {
            fn visit_expr(&mut self, expr: &'a Expr) {
                if self.part == PatternPart::Reads {
                    self.builder.visit_expr(expr);
                }
            }
            fn visit_pattern(&mut self, pattern: &'a ast::Pattern) {
                if self.part == PatternPart::Captures {
                    for name in pattern_bindings(pattern) {
                        if self.builder.tracks(name) {
                            let kind = self.builder.write_kind();
                            self.builder.emit(name, kind, pattern.range());
                        }
                    }
                }
                ruff_python_ast::visitor::walk_pattern(self, pattern);
            }
        }
        PatternWalker {
            builder: self,
            part,
        }
        .visit_pattern(pattern);
    }

    fn function_def(&mut self, def: &ast::StmtFunctionDef) {
        self.step(def.range);
        let type_params = type_param_names(def.type_params.as_deref());
        self.type_params.push(type_params.clone());
        for decorator in &def.decorator_list {
            self.visit_expr(&decorator.expression);
        }
        for parameter in def.parameters.iter() {
            if let Some(default) = parameter.default() {
                self.visit_expr(default);
            }
            if let Some(annotation) = parameter.annotation() {
                self.visit_annotation(annotation);
            }
        }
        if let Some(returns) = &def.returns {
            self.visit_annotation(returns);
        }
        self.type_params.pop();
        let mut scope = FunctionScope::of_function(Some(&def.parameters), &def.body);
        scope.locals.extend(type_params);
        if matches!(self.kind, ScopeKind::Class { .. }) {
            // Methods get the implicit `__class__` cell, not a global.
            scope.locals.insert("__class__".to_string());
        }
        let chain = self.chain.push(scope);
        let params = super::Param::all_of(&def.parameters);
        let summary = function_summary(self.ctx, chain, params, &def.body, None);
        self.define_function(def.name.as_str(), summary, def.range);
    }

    /// Binds a function's name and files its summary: at module level or in a
    /// class it is listed; inside a function its effects become the parent's.
    pub(crate) fn define_function(
        &mut self,
        name: &str,
        summary: super::FunctionSummary,
        range: TextRange,
    ) {
        if self.tracks(name) {
            let kind = self.write_kind();
            self.emit_name(name, kind, range);
        }
        self.add_function(name, summary);
    }

    fn class_def(&mut self, class: &ast::StmtClassDef) {
        self.step(class.range);
        let type_params = type_param_names(class.type_params.as_deref());
        for decorator in &class.decorator_list {
            self.visit_expr(&decorator.expression);
        }
        if let Some(arguments) = &class.arguments {
            self.visit_arguments(arguments);
        }
        let bound = class_bindings(&class.body);
        let qualname = format!("{}{}.", self.qualname, class.name);
        let exports = class_exports(
            self.ctx,
            self.chain.clone(),
            bound.clone(),
            type_params,
            qualname,
            &class.body,
        );
        for symbol in &exports.reads {
            let name = root(symbol);
            if let ScopeKind::Class { bound: outer } = &self.kind
                && outer.contains(name)
            {
                // A class body does not see the names of the class body it
                // is nested in: the read goes to the module's globals.
                self.escaping_reads.insert(Symbol::from(symbol.as_str()));
            } else if bound.contains(name) {
                // A class attribute read before the class binds it is looked
                // up in the module's globals, whatever the enclosing scopes.
                self.emit(symbol, AccessKind::Read, class.range);
            } else {
                self.read_symbol(symbol, class.range);
            }
        }
        for (symbol, definite) in &exports.writes {
            if self.tracks(root(symbol)) {
                let kind = if *definite && self.conditional == 0 {
                    AccessKind::Write
                } else {
                    AccessKind::MayWrite
                };
                self.emit(symbol, kind, class.range);
            }
        }
        for symbol in &exports.mutates {
            self.emit_mutation(symbol, AccessKind::Mutate, class.range);
        }
        for symbol in &exports.may_mutate {
            self.emit_mutation(symbol, AccessKind::MayMutate, class.range);
        }
        self.functions.extend(exports.functions);
        self.imports.extend(exports.imports);
        self.magics.extend(exports.magics);
        if self.tracks(class.name.as_str()) {
            let kind = self.write_kind();
            self.emit_name(class.name.as_str(), kind, class.range);
        }
    }

    /// Reads a symbol given as text (from a nested scope's summary), keeping it
    /// only if its root resolves to this scope's graph.
    pub(crate) fn read_symbol(&mut self, symbol: &str, range: TextRange) {
        if self.tracks(crate::symbol::root(symbol)) {
            self.emit(symbol, AccessKind::Read, range);
        }
    }
}

/// Which half of a `case` pattern is walked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PatternPart {
    Reads,
    Captures,
}

/// `true` for `while True:` / `while 1:`.
fn is_always_true(test: &Expr) -> bool {
    match test {
        Expr::BooleanLiteral(b) => b.value,
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => i.as_u64() != Some(0),
            _ => false,
        },
        _ => false,
    }
}

/// The names a PEP 695 type-parameter list introduces.
fn type_param_names(params: Option<&ast::TypeParams>) -> FxHashSet<String> {
    params
        .map(|p| p.iter().map(|tp| tp.name().to_string()).collect())
        .unwrap_or_default()
}

/// The names a class body binds (its attributes), without entering methods.
fn class_bindings(body: &[Stmt]) -> FxHashSet<String> {
    FunctionScope::of_function(None, body).locals
}

/// `range(...)` of integer literals that yields nothing (`range(0)`,
/// `range(3, 0)`): the loop surely does not run.
fn is_empty_range(iter: &Expr) -> bool {
    let Expr::Call(call) = iter else {
        return false;
    };
    if !matches!(&*call.func, Expr::Name(f) if f.id.as_str() == "range")
        || !call.arguments.keywords.is_empty()
    {
        return false;
    }
    let int = |e: &Expr| -> Option<i64> {
        match e {
            Expr::NumberLiteral(n) => match &n.value {
                ast::Number::Int(i) => i.as_i64(),
                _ => None,
            },
            Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => {
                if let Expr::NumberLiteral(n) = &*u.operand
                    && let ast::Number::Int(i) = &n.value
                {
                    i.as_i64().map(|v| -v)
                } else {
                    None
                }
            }
            _ => None,
        }
    };
    let args: Option<Vec<i64>> = call.arguments.args.iter().map(int).collect();
    match args.as_deref() {
        Some([stop]) => *stop <= 0,
        Some([start, stop]) => start >= stop,
        Some([start, stop, step]) if *step > 0 => start >= stop,
        Some([start, stop, step]) if *step < 0 => start <= stop,
        _ => false,
    }
}
