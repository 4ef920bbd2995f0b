//! The calls `name.method(...)` a piece of code makes on plain names, and
//! the attributes of one name it changes (`self.items.append(x)` changes
//! `items`), outside the functions and classes it defines: what it may
//! change in place of an object. Read by the what-if engine's re-run plans
//! and by the provenance replay.

use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, Stmt};

/// `(name, method)` of each call `name.method(...)` in `stmts`, in order
/// (a `def` or `class` among them, and any nested in them, not looked in).
pub fn method_calls<'a>(stmts: impl IntoIterator<Item = &'a Stmt>) -> Vec<(String, String)> {
    let mut calls = MethodCalls(Vec::new());
    for stmt in stmts {
        calls.visit_stmt(stmt);
    }
    calls.0
}

struct MethodCalls(Vec<(String, String)>);

impl<'a> Visitor<'a> for MethodCalls {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if !matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
            walk_stmt(self, stmt);
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(c) = expr
            && let Expr::Attribute(a) = &*c.func
            && let Expr::Name(n) = &*a.value
        {
            self.0.push((n.id.to_string(), a.attr.to_string()));
        }
        walk_expr(self, expr);
    }
}

/// What a piece of code changes of the object a name holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AttributeChanges {
    /// The attributes it stores into or changes in place (`x` for
    /// `me.x = ...`, `me.x[0] = ...`, `me.x.append(...)`, `del me.x`).
    pub attrs: Vec<String>,
    /// The methods it calls on the name itself (`me.reset()`): they may
    /// change anything of it, as their code says.
    pub own_methods: Vec<String>,
    /// It passes the object on (`f(me)`): anything of it may change.
    pub passed_on: bool,
}

impl AttributeChanges {
    /// Every change is among `attrs`.
    pub fn known(&self) -> bool {
        self.own_methods.is_empty() && !self.passed_on
    }
}

/// What `stmts` change of the object `me` holds.
pub fn attribute_changes(stmts: &[Stmt], me: &str) -> AttributeChanges {
    let mut scan = SelfChanges {
        me,
        changes: AttributeChanges::default(),
    };
    for stmt in stmts {
        scan.visit_stmt(stmt);
    }
    scan.changes
}

struct SelfChanges<'m> {
    me: &'m str,
    changes: AttributeChanges,
}

impl SelfChanges<'_> {
    /// `me.x...` as a changed target: `x`.
    fn target(&mut self, target: &Expr) {
        if let Expr::Tuple(t) = target {
            t.elts.iter().for_each(|e| self.target(e));
            return;
        }
        if let Some(attr) = first_attribute(target, self.me) {
            self.changed(attr);
        }
    }

    fn changed(&mut self, attr: &str) {
        if !self.changes.attrs.iter().any(|a| a == attr) {
            self.changes.attrs.push(attr.to_string());
        }
    }
}

/// `x` in `me.x.y[0]`.
fn first_attribute<'e>(expr: &'e Expr, me: &str) -> Option<&'e str> {
    match expr {
        Expr::Attribute(a) => match &*a.value {
            Expr::Name(n) if n.id.as_str() == me => Some(a.attr.as_str()),
            inner => first_attribute(inner, me),
        },
        Expr::Subscript(s) => first_attribute(&s.value, me),
        _ => None,
    }
}

impl<'a> Visitor<'a> for SelfChanges<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return,
            Stmt::Assign(a) => a.targets.iter().for_each(|t| self.target(t)),
            Stmt::AugAssign(a) => self.target(&a.target),
            Stmt::AnnAssign(a) => self.target(&a.target),
            Stmt::Delete(d) => d.targets.iter().for_each(|t| self.target(t)),
            _ => {}
        }
        walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(c) = expr {
            // `me.items.append(x)` changes `items`; `me.reset()` is what
            // `reset` does; `f(me)` may change anything.
            if let Expr::Attribute(a) = &*c.func {
                match first_attribute(&a.value, self.me) {
                    Some(attr) => self.changed(attr),
                    None if matches!(&*a.value, Expr::Name(n) if n.id.as_str() == self.me) => {
                        self.changes.own_methods.push(a.attr.to_string());
                    }
                    None => {}
                }
            }
            self.changes.passed_on |= c
                .arguments
                .args
                .iter()
                .chain(c.arguments.keywords.iter().map(|k| &k.value))
                .any(|e| matches!(e, Expr::Name(n) if n.id.as_str() == self.me));
        }
        walk_expr(self, expr);
    }
}

#[cfg(test)]
mod tests {
    use super::{AttributeChanges, attribute_changes, method_calls};

    #[test]
    fn what_a_method_changes_of_self() {
        let parsed = nbsight_notebook::parse_python(
            "self.a = 1\nself.b[0] = 2\nself.c.append(3)\nx, self.d = 4, 5\nself.reset()\nif f(self):\n    pass",
        );
        assert_eq!(
            attribute_changes(&parsed.module.body, "self"),
            AttributeChanges {
                attrs: ["a", "b", "c", "d"].map(String::from).to_vec(),
                own_methods: vec!["reset".to_string()],
                passed_on: true,
            }
        );
    }

    #[test]
    fn calls_on_names_outside_definitions() {
        let parsed = nbsight_notebook::parse_python(
            "acct.deposit(x)\nif ok:\n    log.append(acct.total())\ndef f():\n    other.run()",
        );
        assert_eq!(
            method_calls(&parsed.module.body),
            [
                ("acct".to_string(), "deposit".to_string()),
                ("log".to_string(), "append".to_string()),
                ("acct".to_string(), "total".to_string()),
            ]
        );
    }
}
