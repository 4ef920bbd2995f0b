//! What the rules read from a cell's syntax beyond its program: what makes
//! an order of cell runs fail before it can leak (a name bound to a tuple,
//! then used as a table), for `leakage-with-cells-skipped`; and a cell whose
//! output is only the estimator it fits, for `stale-saved-output`.

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

/// `cell` shows only the estimator its last line fits (`model.fit(X, y)`,
/// displayed as `LinearRegression()`) or a model's structure
/// (`model.summary()`, `model.get_params()`), which fitting does not
/// change: the last statement is such a call and nothing else in the cell
/// prints, displays or plots.
pub(crate) fn shows_only_a_fitted_estimator(cell: &CellInfo) -> bool {
    let Some(parsed) = cell.parsed.as_deref() else {
        return false;
    };
    let Some((Stmt::Expr(last), before)) = parsed.module.body.split_last() else {
        return false;
    };
    // `print(model.summary())` shows the same.
    let mut shown = &*last.value;
    if let Expr::Call(print) = shown
        && matches!(&*print.func, Expr::Name(n) if n.id.as_str() == "print")
        && let [only] = &print.arguments.args[..]
    {
        shown = only;
    }
    let Expr::Call(call) = shown else {
        return false;
    };
    let structural = matches!(&*call.func, Expr::Attribute(a)
        if matches!(a.attr.as_str(), "fit" | "summary" | "get_params" | "get_config" | "count_params"));
    let source = parsed.source();
    let shows = [
        "print(",
        "display(",
        "plot",
        "show(",
        "imshow(",
        "head(",
        "describe(",
    ];
    structural
        && before.iter().all(|s| {
            let text = source
                .get(usize::from(s.start())..usize::from(s.end()))
                .unwrap_or_default();
            !matches!(s, Stmt::Expr(_)) && !shows.iter().any(|w| text.contains(w))
        })
}
