//! Functions the replay does not run (decorated, `async`, recursive
//! generators): each
//! is an object of the cell that defined it, and what a call of it may do to
//! the globals is read from its code once, at its definition
//! ([`GlobalEffects`]). A global it rebinds (`global x`) is changed unseen:
//! the cell is not followed. A global it adds to in place (`log.append(x)`,
//! `d[k] = v`) gets an element made of the call's arguments and the other
//! globals the function reads; one it otherwise changes in place
//! (`xs.sort()`) is decided by them; a method that only reads (`d.get(k)`)
//! changes nothing.

use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{self as ast, Expr, Stmt};

use super::super::value::{Deps, Value};

/// What a call of a function may do to the globals.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct GlobalEffects {
    /// Declared `global`: rebound, unseen.
    pub rebound: Vec<String>,
    /// Added to in place (`append`, `extend`, `insert`, `add`, `update`,
    /// `setdefault`, a subscript or attribute stored).
    pub added_to: Vec<String>,
    /// Changed in place otherwise (any other method but a reader's).
    pub changed: Vec<String>,
    /// The names it reads that it does not bind (globals, at the call).
    pub reads: Vec<String>,
}

/// Methods that add what they are given to their object.
const ADDING: &[&str] = &["append", "extend", "insert", "add", "update", "setdefault"];

/// Methods of lists, dicts, sets and strs that change nothing.
const READING: &[&str] = &[
    "get",
    "keys",
    "values",
    "items",
    "count",
    "index",
    "copy",
    "startswith",
    "endswith",
    "format",
    "join",
    "split",
    "strip",
    "lower",
    "upper",
    "replace",
    "find",
];

/// What `f` may do to the globals.
pub(super) fn global_effects(f: &ast::StmtFunctionDef) -> GlobalEffects {
    #[derive(Default)]
    struct Effects {
        declared: Vec<String>,
        added: Vec<String>,
        changed: Vec<String>,
        read: Vec<String>,
        local: rustc_hash::FxHashSet<String>,
    }
    impl<'a> Visitor<'a> for Effects {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::Global(g) => self.declared.extend(g.names.iter().map(|n| n.to_string())),
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
                _ => walk_stmt(self, stmt),
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::Name(n) if n.ctx.is_store() => {
                    self.local.insert(n.id.to_string());
                }
                Expr::Name(n) => self.read.push(n.id.to_string()),
                Expr::Call(ast::ExprCall { func, .. }) => {
                    if let Expr::Attribute(a) = &**func
                        && let Expr::Name(n) = &*a.value
                    {
                        let method = a.attr.as_str();
                        if ADDING.contains(&method) {
                            self.added.push(n.id.to_string());
                        } else if !READING.contains(&method) {
                            self.changed.push(n.id.to_string());
                        }
                    }
                }
                Expr::Subscript(ast::ExprSubscript { value, ctx, .. })
                | Expr::Attribute(ast::ExprAttribute { value, ctx, .. })
                    if ctx.is_store() =>
                {
                    if let Expr::Name(n) = &**value {
                        self.added.push(n.id.to_string());
                    }
                }
                _ => {}
            }
            walk_expr(self, expr);
        }
    }
    let mut e = Effects::default();
    for stmt in &f.body {
        e.visit_stmt(stmt);
    }
    let params: Vec<&str> = f.parameters.iter().map(|p| p.name().as_str()).collect();
    let outside = |names: Vec<String>| {
        let mut names: Vec<String> = names
            .into_iter()
            .filter(|n| !e.local.contains(n) && !params.contains(&n.as_str()))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    };
    let mut rebound = e.declared.clone();
    rebound.sort_unstable();
    rebound.dedup();
    let not_rebound = |names: Vec<String>| -> Vec<String> {
        outside(names)
            .into_iter()
            .filter(|n| !rebound.contains(n))
            .collect()
    };
    let added_to = not_rebound(e.added.clone());
    let changed: Vec<String> = not_rebound(e.changed.clone())
        .into_iter()
        .filter(|n| !added_to.contains(n))
        .collect();
    let reads = outside(e.read.clone());
    GlobalEffects {
        rebound,
        added_to,
        changed,
        reads,
    }
}

/// A call's effect on the global `value` that it adds to (`added`) or
/// otherwise changes in place, with what went in (`deps`).
pub(super) fn apply(value: &Value, added: bool, deps: &Deps) {
    let why = deps.as_why();
    match value {
        Value::Sequence(s) => {
            let mut s = s.borrow_mut();
            if added {
                s.items.push(Value::scalar(deps.clone()));
            }
            s.structure.union(&why);
        }
        Value::Mapping(m) => {
            let mut m = m.borrow_mut();
            if added {
                m.items.push(("?".to_string(), Value::scalar(deps.clone())));
            }
            m.structure.union(&why);
        }
        Value::Object(o) => o.borrow_mut().deps.union(deps),
        _ => {}
    }
}

/// `body` (a function's) has a `yield` or `await` of its own (not in a
/// nested function or class).
pub(super) fn yields(body: &[Stmt]) -> bool {
    struct Finds(bool);
    impl<'a> Visitor<'a> for Finds {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            if !matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
                walk_stmt(self, stmt);
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::Yield(_) | Expr::YieldFrom(_) | Expr::Await(_) => self.0 = true,
                Expr::Lambda(_) => {}
                _ => walk_expr(self, expr),
            }
        }
    }
    let mut finds = Finds(false);
    for stmt in body {
        finds.visit_stmt(stmt);
    }
    finds.0
}

/// `body` reads the name `name` (a function that calls itself: a
/// recursive generator, whose runs' events the log does not tell apart).
pub(super) fn names(body: &[Stmt], name: &str) -> bool {
    struct Finds<'n>(&'n str, bool);
    impl<'a> Visitor<'a> for Finds<'_> {
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::Name(n) if n.id.as_str() == self.0 => self.1 = true,
                _ => walk_expr(self, expr),
            }
        }
    }
    let mut finds = Finds(name, false);
    for stmt in body {
        finds.visit_stmt(stmt);
    }
    finds.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_notebook::parse_python;

    fn effects(source: &str) -> GlobalEffects {
        let parsed = parse_python(source);
        let Some(Stmt::FunctionDef(f)) = parsed.module.body.first() else {
            panic!("a def");
        };
        global_effects(f)
    }

    #[test]
    fn adding_changing_reading_and_rebinding_are_told_apart() {
        let e = effects(
            "def f(name):\n    global total\n    log.append(prefix + name)\n    seen[name] = 1\n    \
             order.sort()\n    x = cfg.get('k')\n    total = x\n    yield",
        );
        assert_eq!(e.rebound, ["total"]);
        assert_eq!(e.added_to, ["log", "seen"]);
        assert_eq!(e.changed, ["order"]);
        assert!(e.reads.contains(&"prefix".to_string()) && e.reads.contains(&"cfg".to_string()));
        assert!(!e.reads.contains(&"name".to_string()) && !e.reads.contains(&"x".to_string()));
    }
}
