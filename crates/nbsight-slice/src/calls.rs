//! The calls of plain names a statement makes, with the names it passes:
//! `f(train, col='x')` (the model's [`NamedCall`]). A user function whose
//! body changes a parameter in place (`nbsight-dataflow`'s
//! `FunctionSummary::mutated_params`) changes the object passed there
//! ([`super::deps`]).
//!
//! Only the statement's own code is looked at: the header of a compound
//! statement (its nested statements are statements of their own), not the
//! body of a `def`, `class` or `lambda` (run later, if at all).

use nbsight_model::NamedCall;
use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, Stmt};

/// The calls of plain names in `stmt`'s own code.
pub(crate) fn calls_of(stmt: &Stmt) -> Vec<NamedCall> {
    let mut collector = Collector(Vec::new());
    match stmt {
        Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
        Stmt::If(s) => {
            collector.visit_expr(&s.test);
            for clause in &s.elif_else_clauses {
                if let Some(test) = &clause.test {
                    collector.visit_expr(test);
                }
            }
        }
        Stmt::For(s) => collector.visit_expr(&s.iter),
        Stmt::While(s) => collector.visit_expr(&s.test),
        Stmt::With(s) => {
            for item in &s.items {
                collector.visit_expr(&item.context_expr);
            }
        }
        Stmt::Match(s) => collector.visit_expr(&s.subject),
        Stmt::Try(_) => {}
        simple => walk_stmt(&mut collector, simple),
    }
    collector.0
}

struct Collector(Vec<NamedCall>);

impl<'a> Visitor<'a> for Collector {
    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Lambda(_) => {}
            Expr::Call(call) => {
                self.0.extend(NamedCall::of(call));
                walk_expr(self, expr);
            }
            _ => walk_expr(self, expr),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_notebook::parse_python;

    fn calls(src: &str) -> Vec<NamedCall> {
        parse_python(src)
            .module
            .body
            .iter()
            .flat_map(calls_of)
            .collect()
    }

    #[test]
    fn calls_with_the_names_passed() {
        let found = calls("x = f(train, df.a, g(y), *rest, z, col=c['k'], n=1)\n");
        let callees: Vec<&str> = found.iter().map(|c| c.callee.as_str()).collect();
        assert_eq!(callees, ["f", "g"]);
        assert_eq!(
            found[0].positional,
            [Some("train".into()), Some("df".into()), None]
        );
    }

    #[test]
    fn only_the_statements_own_code() {
        assert!(calls("def h():\n    f(a)\n").is_empty());
        assert!(calls("k = lambda: f(a)\n").is_empty());
        let found = calls("for v in f(a):\n    g(v)\n");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].callee, "f");
        assert!(calls("obj.m(a)\n").is_empty());
    }
}
