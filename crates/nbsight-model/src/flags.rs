//! Switches a notebook turns off: names bound, wherever the notebook binds
//! them (every cell, function bodies included), only to a false constant
//! (`DEBUG = False`, `USE_AUX = 0`, `CFG = None`). The body of `if DEBUG:`
//! never runs on Restart & Run All, so the names it reads cannot fail
//! there ([`crate::reads::name_reads_given`]).

use std::collections::HashMap;

use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{self as ast, Expr, ExprContext, Stmt};

use crate::{CellStatus, NotebookModel};

/// Names bound only to false constants.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FalseFlags(Vec<String>);

impl FalseFlags {
    /// The switches of `model`'s notebook (code cells that parse).
    pub fn of(model: &NotebookModel) -> FalseFlags {
        let mut bindings = Bindings::default();
        for cell in model.code_cells() {
            if let Some(parsed) = cell.parsed.as_deref() {
                for stmt in &parsed.module.body {
                    bindings.visit_stmt(stmt);
                }
            }
        }
        // A cell that does not parse may bind any name written in it.
        for cell in &model.cells {
            if let (CellStatus::Broken { .. }, Some(parsed)) =
                (&cell.status, cell.parsed.as_deref())
            {
                for word in parsed
                    .source()
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .filter(|w| !w.is_empty())
                {
                    bindings.0.insert(word.to_string(), false);
                }
            }
        }
        let mut names: Vec<String> = bindings
            .0
            .into_iter()
            .filter_map(|(name, all_false)| all_false.then_some(name))
            .collect();
        names.sort();
        FalseFlags(names)
    }

    /// `test` is always false: a false constant, or a switch.
    pub fn is_false(&self, test: &Expr) -> bool {
        match test {
            Expr::Name(n) => self
                .0
                .binary_search_by(|x| x.as_str().cmp(n.id.as_str()))
                .is_ok(),
            e => is_false_constant(e),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn is_false_constant(expr: &Expr) -> bool {
    match expr {
        Expr::BooleanLiteral(b) => !b.value,
        Expr::NoneLiteral(_) => true,
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => i.as_u8() == Some(0),
            _ => false,
        },
        _ => false,
    }
}

/// Every name bound in the code, with whether all its bindings are
/// `name = <false constant>`.
#[derive(Default)]
struct Bindings(HashMap<String, bool>);

impl Bindings {
    fn bind(&mut self, name: &str, to_false: bool) {
        let all = self.0.entry(name.to_string()).or_insert(true);
        *all &= to_false;
    }
}

impl<'a> Visitor<'a> for Bindings {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::Assign(a) => {
                let to_false = is_false_constant(&a.value);
                for target in &a.targets {
                    match target {
                        Expr::Name(n) => self.bind(n.id.as_str(), to_false),
                        other => self.visit_expr(other),
                    }
                }
                self.visit_expr(&a.value);
                return;
            }
            Stmt::FunctionDef(f) => self.bind(f.name.as_str(), false),
            Stmt::ClassDef(c) => self.bind(c.name.as_str(), false),
            Stmt::Import(i) => {
                for alias in &i.names {
                    let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                    let first = bound.as_str().split('.').next().unwrap_or_default();
                    self.bind(first, false);
                }
            }
            Stmt::ImportFrom(i) => {
                for alias in &i.names {
                    self.bind(alias.asname.as_ref().unwrap_or(&alias.name).as_str(), false);
                }
            }
            Stmt::Global(g) => {
                for name in &g.names {
                    self.bind(name.as_str(), false);
                }
            }
            _ => {}
        }
        walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        // Any other binding of a name (augmented assignment, loop or `with`
        // target, walrus, unpacking, `del`) is not to a false constant.
        if let Expr::Name(n) = expr
            && matches!(n.ctx, ExprContext::Store | ExprContext::Del)
        {
            self.0.insert(n.id.to_string(), false);
        }
        walk_expr(self, expr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::notebook;
    use nbsight_dataflow::Effects;
    use nbsight_notebook::parse_python;

    fn flags(sources: &[&str]) -> FalseFlags {
        FalseFlags::of(&NotebookModel::new(&notebook(sources), &Effects::builtin()))
    }

    fn test_of(src: &str) -> Expr {
        let parsed = parse_python(src);
        match &parsed.module.body[0] {
            Stmt::If(i) => (*i.test).clone(),
            _ => unreachable!("an if"),
        }
    }

    #[test]
    fn switches_are_names_bound_only_to_false_constants() {
        let f = flags(&[
            "DEBUG = False\nUSE_AUX = 0\nFAST = False\nN = None",
            "FAST = True\ndef f():\n    global N\n    N = 1",
            "for FLAG in [0]:\n    pass\nFLAG = False",
        ]);
        assert!(f.is_false(&test_of("if DEBUG:\n    pass")));
        assert!(f.is_false(&test_of("if USE_AUX:\n    pass")));
        assert!(f.is_false(&test_of("if False:\n    pass")));
        assert!(!f.is_false(&test_of("if FAST:\n    pass")));
        assert!(!f.is_false(&test_of("if N:\n    pass")));
        assert!(!f.is_false(&test_of("if FLAG:\n    pass")));
        assert!(!f.is_false(&test_of("if not DEBUG:\n    pass")));
        // A cell that does not parse may set the switch.
        let broken = flags(&[
            "DEBUG = False",
            "DEBUG = True\nx = (",
            "if DEBUG:\n    print(y)",
        ]);
        assert!(!broken.is_false(&test_of("if DEBUG:\n    pass")));
    }
}
