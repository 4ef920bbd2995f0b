//! The calls of plain names a statement makes, with the names it passes:
//! `f(train, col='x')`. A user function whose body changes a parameter in
//! place (`nbsight-dataflow`'s `FunctionSummary::mutated_params`) changes the
//! object passed there ([`super::deps`]).
//!
//! Only the statement's own code is looked at: the header of a compound
//! statement (its nested statements are statements of their own), not the
//! body of a `def`, `class` or `lambda` (run later, if at all).

use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{self as ast, Expr, Stmt};

/// A call `callee(...)` and the names its arguments are paths under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NamedCall {
    pub callee: String,
    /// By position, until the first `*args`.
    pub positional: Vec<Option<String>>,
    pub keywords: Vec<(String, Option<String>)>,
}

impl NamedCall {
    /// The name passed as parameter `position` (when passed by position)
    /// or `name` (by keyword), if the argument is a path under a name.
    pub fn argument(&self, position: Option<usize>, name: &str) -> Option<&str> {
        if let Some(arg) = position.and_then(|p| self.positional.get(p)) {
            return arg.as_deref();
        }
        self.keywords
            .iter()
            .find(|(k, _)| k == name)
            .and_then(|(_, v)| v.as_deref())
    }
}

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
                if let Expr::Name(callee) = &*call.func {
                    self.0.push(named_call(callee.id.as_str(), &call.arguments));
                }
                walk_expr(self, expr);
            }
            _ => walk_expr(self, expr),
        }
    }
}

fn named_call(callee: &str, arguments: &ast::Arguments) -> NamedCall {
    let positional = arguments
        .args
        .iter()
        .take_while(|a| !a.is_starred_expr())
        .map(|a| path_root(a).map(str::to_string))
        .collect();
    let keywords = arguments
        .keywords
        .iter()
        .filter_map(|k| {
            let name = k.arg.as_ref()?;
            Some((name.to_string(), path_root(&k.value).map(str::to_string)))
        })
        .collect();
    NamedCall {
        callee: callee.to_string(),
        positional,
        keywords,
    }
}

/// The name a path of attributes and subscripts starts with.
fn path_root(expr: &Expr) -> Option<&str> {
    match expr {
        Expr::Name(name) => Some(name.id.as_str()),
        Expr::Attribute(attr) => path_root(&attr.value),
        Expr::Subscript(sub) => path_root(&sub.value),
        _ => None,
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
        assert_eq!(found.len(), 2);
        let f = &found[0];
        assert_eq!(f.callee, "f");
        assert_eq!(
            f.positional,
            [Some("train".into()), Some("df".into()), None]
        );
        assert_eq!(f.argument(Some(0), "data"), Some("train"));
        assert_eq!(f.argument(Some(4), "col"), Some("c"));
        assert_eq!(f.argument(None, "n"), None);
        assert_eq!(found[1].callee, "g");
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
