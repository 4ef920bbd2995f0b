//! What makes an order of cell runs fail before it can leak, for
//! `leakage-with-cells-skipped`, read from the cells' syntax: a value of the
//! wrong kind (a name bound to a tuple, then used as a table).

use nbsight_model::CellInfo;
use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

/// Statement `stmt` of `cell`'s program binds one name to a tuple display
/// (`df = X_scaled, y`).
pub(crate) fn binds_tuple(cell: &CellInfo, stmt: usize) -> bool {
    let (Some(parsed), Some(program)) = (cell.parsed.as_deref(), cell.program()) else {
        return false;
    };
    let Some(at) = program.stmts.get(stmt).map(|s| (s.line, s.column)) else {
        return false;
    };
    let mut found = false;
    let mut each = |s: &Stmt| {
        if let Stmt::Assign(a) = s
            && let [Expr::Name(_)] = a.targets.as_slice()
            && matches!(&*a.value, Expr::Tuple(_))
            && parsed.line_column(a.start()) <= at
            && at < parsed.line_column(a.end())
        {
            found = true;
        }
    };
    struct Statements<'f, F: FnMut(&Stmt)>(&'f mut F);
    impl<'a, F: FnMut(&Stmt)> Visitor<'a> for Statements<'_, F> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            (self.0)(stmt);
            if !matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
                walk_stmt(self, stmt);
            }
        }
    }
    let mut visitor = Statements(&mut each);
    for s in &parsed.module.body {
        visitor.visit_stmt(s);
    }
    found
}

/// `cell` uses `name` as a table or an array, which a tuple is not: an
/// attribute a tuple lacks (`df.head()`, `df.shape`) or a string subscript
/// (`df["target"]`).
pub(crate) fn uses_as_table(cell: &CellInfo, name: &str) -> bool {
    struct Uses<'n> {
        name: &'n str,
        found: bool,
    }
    impl<'a> Visitor<'a> for Uses<'_> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            if !matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
                walk_stmt(self, stmt);
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            let named = |e: &Expr| matches!(e, Expr::Name(n) if n.id.as_str() == self.name);
            match expr {
                Expr::Attribute(a)
                    if named(&a.value) && !matches!(a.attr.as_str(), "count" | "index") =>
                {
                    self.found = true;
                }
                Expr::Subscript(s)
                    if named(&s.value) && matches!(&*s.slice, Expr::StringLiteral(_)) =>
                {
                    self.found = true;
                }
                _ => walk_expr(self, expr),
            }
        }
    }
    let Some(parsed) = cell.parsed.as_deref() else {
        return false;
    };
    let mut uses = Uses { name, found: false };
    for s in &parsed.module.body {
        uses.visit_stmt(s);
    }
    uses.found
}
