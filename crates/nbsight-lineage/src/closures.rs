//! Variables of an enclosing function that the functions nested in it
//! read or set (`nonlocal x; x = y`): each a symbol of its own,
//! `<closure x of foo>` (the enclosing function by its qualified name), so
//! that a call of `baz` that sets it makes what a call of `bar` returned
//! from it stale. The enclosing function sets it when it runs. Every call
//! of the enclosing function shares the one symbol (its closures are not
//! told apart).

use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, Stmt};
use rustc_hash::FxHashSet;

/// The symbol of the variable `name` of the function `function`.
pub(crate) fn closure_symbol(function: &str, name: &str) -> String {
    format!("<closure {name} of {}>", function.replace('.', ":"))
}

/// What one function's own code does with names (nested functions,
/// lambdas and class bodies left out).
#[derive(Default)]
struct Scope {
    locals: FxHashSet<String>,
    loads: FxHashSet<String>,
    nonlocals: FxHashSet<String>,
    globals: FxHashSet<String>,
}

impl<'a> Visitor<'a> for Scope {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(def) => {
                self.locals.insert(def.name.to_string());
                for d in &def.decorator_list {
                    self.visit_expr(&d.expression);
                }
            }
            Stmt::ClassDef(class) => {
                self.locals.insert(class.name.to_string());
            }
            Stmt::Nonlocal(n) => self.nonlocals.extend(n.names.iter().map(|i| i.to_string())),
            Stmt::Global(g) => self.globals.extend(g.names.iter().map(|i| i.to_string())),
            Stmt::Import(_) | Stmt::ImportFrom(_) => {
                for b in nbsight_dataflow::imports::bindings_of(stmt) {
                    self.locals.insert(b.name.to_string());
                }
            }
            _ => walk_stmt(self, stmt),
        }
    }
    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Lambda(_) => {}
            Expr::Name(name) if name.ctx.is_load() => {
                self.loads.insert(name.id.to_string());
            }
            Expr::Name(name) => {
                self.locals.insert(name.id.to_string());
            }
            _ => walk_expr(self, expr),
        }
    }
}

/// What a function does with names that are not its own locals.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Closure {
    /// Its qualified name (`foo.<locals>.bar`).
    pub function: String,
    /// The closure symbols it reads.
    pub reads: Vec<String>,
    /// The closure symbols it sets (its own variables that nested
    /// functions use, set when it runs; and those it declares `nonlocal`).
    pub sets: Vec<String>,
    /// The globals its own code loads (builtins left out): for a nested
    /// function, which the cell's summaries fold into the function around
    /// it, what calling it reads.
    pub globals: Vec<String>,
}

/// For each function of `body` (by qualified name) what it does with the
/// variables of the functions it is nested in, the variables of its own that
/// nested functions use, and the globals it loads.
pub(crate) fn closures(body: &[Stmt]) -> Vec<Closure> {
    let functions = crate::shapes::functions(body);
    let scopes: Vec<(String, Scope)> = functions
        .iter()
        .map(|(name, def)| {
            let mut scope = Scope::default();
            for p in def.parameters.iter() {
                scope.locals.insert(p.name().to_string());
            }
            for s in &def.body {
                scope.visit_stmt(s);
            }
            for n in scope.nonlocals.iter().chain(&scope.globals) {
                scope.locals.remove(n);
            }
            (name.clone(), scope)
        })
        .collect();
    // The nearest function enclosing `function` whose local `name` is.
    let owner = |function: &str, name: &str| -> Option<&str> {
        let mut at = function;
        while let Some((outer, _)) = at.rsplit_once(".<locals>.") {
            if let Some((owner, scope)) = scopes.iter().find(|(n, _)| n == outer)
                && scope.locals.contains(name)
            {
                return Some(owner.as_str());
            }
            at = outer;
        }
        None
    };
    let mut out: Vec<Closure> = scopes
        .iter()
        .map(|(function, _)| Closure {
            function: function.clone(),
            ..Closure::default()
        })
        .collect();
    let index = |function: &str| scopes.iter().position(|(n, _)| n == function);
    let push = |list: &mut Vec<String>, symbol: String| {
        if !list.contains(&symbol) {
            list.push(symbol);
        }
    };
    for (at, (function, scope)) in scopes.iter().enumerate() {
        let mut free: Vec<&String> = scope
            .loads
            .iter()
            .filter(|n| !scope.locals.contains(*n))
            .collect();
        free.sort_unstable();
        for name in free {
            match owner(function, name).filter(|_| !scope.globals.contains(name)) {
                Some(owner) => {
                    let symbol = closure_symbol(owner, name);
                    push(&mut out[at].reads, symbol.clone());
                    if let Some(o) = index(owner) {
                        push(&mut out[o].sets, symbol);
                    }
                }
                None if !nbsight_dataflow::builtins::is_builtin(name) => {
                    push(&mut out[at].globals, name.clone());
                }
                None => {}
            }
        }
        let mut nonlocals: Vec<&String> = scope.nonlocals.iter().collect();
        nonlocals.sort_unstable();
        for name in nonlocals {
            if let Some(owner) = owner(function, name) {
                let symbol = closure_symbol(owner, name);
                push(&mut out[at].sets, symbol.clone());
                if let Some(o) = index(owner) {
                    push(&mut out[o].sets, symbol);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_notebook::parse_python;

    #[test]
    fn a_nonlocal_write_and_a_closure_read_meet_in_one_symbol() {
        let source = "def foo():\n    x = 0\n    def bar():\n        return x + k\n    def baz(y):\n        nonlocal x\n        x = y\n    return bar, baz";
        let parsed = parse_python(source);
        let found = closures(&parsed.module.body);
        let x = closure_symbol("foo", "x");
        let of = |f: &str| {
            found
                .iter()
                .find(|c| c.function == f)
                .cloned()
                .expect("a function")
        };
        let bar = of("foo.<locals>.bar");
        assert_eq!(
            (bar.reads, bar.sets, bar.globals),
            (vec![x.clone()], vec![], vec!["k".to_string()])
        );
        let baz = of("foo.<locals>.baz");
        assert_eq!((baz.reads, baz.sets), (vec![], vec![x.clone()]));
        assert_eq!(of("foo").sets, vec![x]);
    }
}
