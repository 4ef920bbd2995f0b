//! Python's scoping rules for function bodies (what `symtable` computes): which
//! names a function binds locally, which it declares `global` or `nonlocal`, and
//! how a name read inside nested functions resolves.

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, ExprContext, Pattern, Stmt};
use std::rc::Rc;

use rustc_hash::FxHashSet;

/// The bindings of one function (or lambda) scope.
#[derive(Debug, Default, Clone)]
pub struct FunctionScope {
    /// Names bound in the scope and not declared global or nonlocal
    /// (parameters included).
    pub locals: FxHashSet<String>,
    /// Names declared `global`.
    pub globals: FxHashSet<String>,
    /// Names declared `nonlocal`.
    pub nonlocals: FxHashSet<String>,
}

impl FunctionScope {
    /// The scope of a `def` or `lambda` with these parameters and this body.
    pub fn of_function(parameters: Option<&ast::Parameters>, body: &[Stmt]) -> Self {
        let mut collector = Collector::default();
        if let Some(parameters) = parameters {
            for parameter in parameters.iter() {
                collector.bind(parameter.name().as_str());
            }
        }
        for stmt in body {
            collector.visit_stmt(stmt);
        }
        collector.finish()
    }

    /// The scope of a lambda.
    pub fn of_lambda(parameters: Option<&ast::Parameters>, body: &Expr) -> Self {
        let mut collector = Collector::default();
        if let Some(parameters) = parameters {
            for parameter in parameters.iter() {
                collector.bind(parameter.name().as_str());
            }
        }
        collector.visit_expr(body);
        collector.finish()
    }
}

/// Where a name read in some scope finds its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    /// The notebook's global namespace (module level of the cell).
    Global,
    /// A local of the current function or of an enclosing one.
    Local,
}

/// The chain of function scopes enclosing the code being analysed, innermost
/// first. Class scopes are not in the chain: nested functions do not see them.
/// Pushing shares the enclosing links instead of copying them.
#[derive(Debug, Default, Clone)]
pub struct ScopeChain {
    innermost: Option<Rc<Link>>,
}

#[derive(Debug)]
struct Link {
    scope: FunctionScope,
    outer: Option<Rc<Link>>,
}

impl ScopeChain {
    /// A chain with one more function scope inside.
    pub fn push(&self, scope: FunctionScope) -> ScopeChain {
        ScopeChain {
            innermost: Some(Rc::new(Link {
                scope,
                outer: self.innermost.clone(),
            })),
        }
    }

    /// Resolves a name as Python does for code in the innermost scope.
    pub fn resolve(&self, name: &str) -> Resolution {
        let mut link = self.innermost.as_deref();
        while let Some(current) = link {
            let scope = &current.scope;
            if scope.globals.contains(name) {
                return Resolution::Global;
            }
            if scope.locals.contains(name) || scope.nonlocals.contains(name) {
                return Resolution::Local;
            }
            link = current.outer.as_deref();
        }
        Resolution::Global
    }
}

/// Collects the bindings of one scope without entering nested scopes.
#[derive(Default)]
struct Collector {
    bound: FxHashSet<String>,
    globals: FxHashSet<String>,
    nonlocals: FxHashSet<String>,
    /// Depth of comprehensions being visited: their targets are their own.
    comprehension_depth: usize,
}

impl Collector {
    fn bind(&mut self, name: &str) {
        self.bound.insert(name.to_string());
    }

    fn finish(self) -> FunctionScope {
        let Collector {
            bound,
            globals,
            nonlocals,
            ..
        } = self;
        let locals = bound
            .into_iter()
            .filter(|name| !globals.contains(name) && !nonlocals.contains(name))
            .collect();
        FunctionScope {
            locals,
            globals,
            nonlocals,
        }
    }

    fn visit_comprehensions(&mut self, generators: &[ast::Comprehension], elts: &[&Expr]) {
        self.comprehension_depth += 1;
        for generator in generators {
            self.visit_expr(&generator.iter);
            for cond in &generator.ifs {
                self.visit_expr(cond);
            }
        }
        for elt in elts {
            self.visit_expr(elt);
        }
        self.comprehension_depth -= 1;
    }
}

impl<'a> Visitor<'a> for Collector {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(def) => {
                self.bind(def.name.as_str());
                for decorator in &def.decorator_list {
                    self.visit_decorator(decorator);
                }
                for parameter in def.parameters.iter() {
                    if let Some(default) = parameter.default() {
                        self.visit_expr(default);
                    }
                }
            }
            Stmt::ClassDef(class) => {
                self.bind(class.name.as_str());
                for decorator in &class.decorator_list {
                    self.visit_decorator(decorator);
                }
                if let Some(arguments) = &class.arguments {
                    self.visit_arguments(arguments);
                }
            }
            Stmt::Global(global) => {
                for name in &global.names {
                    self.globals.insert(name.to_string());
                }
            }
            Stmt::Nonlocal(nonlocal) => {
                for name in &nonlocal.names {
                    self.nonlocals.insert(name.to_string());
                }
            }
            Stmt::Import(import) => {
                for alias in &import.names {
                    let bound = match &alias.asname {
                        Some(asname) => asname.as_str(),
                        None => alias.name.as_str().split('.').next().unwrap_or_default(),
                    };
                    self.bind(bound);
                }
            }
            Stmt::ImportFrom(import) => {
                for alias in &import.names {
                    let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                    if bound.as_str() != "*" {
                        self.bind(bound.as_str());
                    }
                }
            }
            Stmt::Try(ast::StmtTry { handlers, .. }) => {
                for handler in handlers {
                    let ast::ExceptHandler::ExceptHandler(handler) = handler;
                    if let Some(name) = &handler.name {
                        self.bind(name.as_str());
                    }
                }
                visitor::walk_stmt(self, stmt);
            }
            _ => visitor::walk_stmt(self, stmt),
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Name(name) => {
                if matches!(name.ctx, ExprContext::Store | ExprContext::Del)
                    && self.comprehension_depth == 0
                {
                    self.bind(name.id.as_str());
                }
            }
            Expr::Named(named) => {
                if let Expr::Name(target) = named.target.as_ref() {
                    // A walrus binds in the enclosing function even inside a
                    // comprehension.
                    self.bind(target.id.as_str());
                }
                self.visit_expr(&named.value);
            }
            Expr::Lambda(lambda) => {
                if let Some(parameters) = &lambda.parameters {
                    for parameter in parameters.iter() {
                        if let Some(default) = parameter.default() {
                            self.visit_expr(default);
                        }
                    }
                }
            }
            Expr::ListComp(comp) => self.visit_comprehensions(&comp.generators, &[&comp.elt]),
            Expr::SetComp(comp) => self.visit_comprehensions(&comp.generators, &[&comp.elt]),
            Expr::Generator(comp) => self.visit_comprehensions(&comp.generators, &[&comp.elt]),
            Expr::DictComp(comp) => {
                let mut elts: Vec<&Expr> = vec![&comp.value];
                if let Some(key) = &comp.key {
                    elts.push(key);
                }
                self.visit_comprehensions(&comp.generators, &elts);
            }
            _ => visitor::walk_expr(self, expr),
        }
    }

    fn visit_pattern(&mut self, pattern: &'a Pattern) {
        for name in pattern_bindings(pattern) {
            self.bind(name);
        }
        visitor::walk_pattern(self, pattern);
    }
}

/// Calls `f` with every name an assignment target binds (`a, (b, *c)` gives
/// `a`, `b`, `c`); attributes and subscripts bind no name.
pub fn for_each_target_name(target: &Expr, f: &mut impl FnMut(&ruff_python_ast::name::Name)) {
    match target {
        Expr::Name(name) if name.ctx == ExprContext::Store => f(&name.id),
        Expr::Tuple(t) => t.elts.iter().for_each(|e| for_each_target_name(e, f)),
        Expr::List(l) => l.elts.iter().for_each(|e| for_each_target_name(e, f)),
        Expr::Starred(s) => for_each_target_name(&s.value, f),
        _ => {}
    }
}

/// The names a `match` pattern binds (its own level only; sub-patterns are
/// reported when they are visited).
pub fn pattern_bindings(pattern: &Pattern) -> Vec<&str> {
    match pattern {
        Pattern::MatchAs(p) => p.name.iter().map(|n| n.as_str()).collect(),
        Pattern::MatchStar(p) => p.name.iter().map(|n| n.as_str()).collect(),
        Pattern::MatchMapping(p) => p.rest.iter().map(|n| n.as_str()).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ruff_python_parser::parse_module;

    fn scope_of(src: &str) -> FunctionScope {
        let parsed = parse_module(src).expect("test source parses");
        let Some(Stmt::FunctionDef(def)) = parsed.syntax().body.first() else {
            panic!("expected a def");
        };
        FunctionScope::of_function(Some(&def.parameters), &def.body)
    }

    #[test]
    fn locals_globals_and_comprehensions() {
        let scope = scope_of(
            "def f(a, *b, c=d, **e):\n    global g\n    g = 1\n    x = [i for i in a if (j := i)]\n    import os.path\n    from m import k as kk\n    for t in a: pass\n    def inner(): pass\n    class K: pass\n    try: pass\n    except E as err: pass\n    return y\n",
        );
        for name in [
            "a", "b", "c", "e", "x", "j", "os", "kk", "t", "inner", "K", "err",
        ] {
            assert!(scope.locals.contains(name), "{name} should be local");
        }
        for name in ["i", "g", "y", "d"] {
            assert!(!scope.locals.contains(name), "{name} should not be local");
        }
        assert!(scope.globals.contains("g"));
    }

    #[test]
    fn resolution_through_the_chain() {
        let outer = scope_of("def f():\n    x = 1\n");
        let inner = scope_of("def g():\n    nonlocal_unused = 1\n");
        let chain = ScopeChain::default().push(outer).push(inner);
        assert_eq!(chain.resolve("x"), Resolution::Local);
        assert_eq!(chain.resolve("nonlocal_unused"), Resolution::Local);
        assert_eq!(chain.resolve("print"), Resolution::Global);
        assert_eq!(ScopeChain::default().resolve("x"), Resolution::Global);
    }
}
