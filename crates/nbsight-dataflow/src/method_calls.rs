//! The calls `name.method(...)` a piece of code makes on plain names,
//! outside the functions and classes it defines: which objects' methods it
//! runs (what it may change in place, when the methods are known). Read by
//! the what-if engine's re-run plans and by the provenance replay.

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

#[cfg(test)]
mod tests {
    use super::method_calls;

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
