//! What in a statement only decides which rows are kept: a subscript whose
//! index is a boolean mask (`data[mask]`, `df.loc[~mask & other, cols]`)
//! or a comparison (`df[df.x < high]`, `df[df.x.between(low, high)]`)
//! selects rows of the subscripted data; the values of the kept rows come
//! from that data, not from the thresholds or the mask. A statistic of all
//! rows used so (an outlier cut at a quantile) fills or rescales nothing.
//!
//! A name used directly as the index counts as a mask only when every
//! assignment binding it makes a boolean mask (a comparison, `~`, `&`, `|`
//! of masks, or `.between()`, `.isin()`, `.isna()`...): a list of column
//! names chosen by a statistic (`X[cols]`) still brings that statistic in.

use nbsight_model::NotebookModel;
use nbsight_model::program::WriteKind;
use nbsight_model::vars::Var;
use nbsight_notebook::{OneIndexed, ParsedCell};
use ruff_python_ast::visitor::{Visitor, walk_expr};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextSize};

use crate::syntax;

/// Methods whose result is a boolean mask of the rows.
const MASK_METHODS: &[&str] = &[
    "between",
    "isin",
    "isna",
    "isnull",
    "notna",
    "notnull",
    "duplicated",
    "str.contains",
    "str.startswith",
    "str.endswith",
];

/// What a statement reads only to select rows.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct RowSelection {
    /// Names read only in a comparison or a mask call inside a subscript's
    /// index (thresholds), or only as such an index (masks, to be checked
    /// against their bindings: [`binds_only_masks`]).
    pub thresholds: Vec<String>,
    pub masks: Vec<String>,
    /// Where the calls start whose results only select rows (mask calls
    /// in an index, calls inside a comparison there).
    pub calls: Vec<(OneIndexed, OneIndexed)>,
}

/// How a name occurs in a statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Its value flows into the statement's result.
    Value,
    /// Compared with, or passed to a mask call, inside an index.
    Threshold,
    /// The index itself (alone, negated or combined with `&`, `|`).
    Mask,
}

#[derive(Default)]
struct Occurrences {
    names: Vec<(String, Role)>,
    /// Where the calls that only select rows start.
    calls: Vec<TextSize>,
}

impl Occurrences {
    fn add(&mut self, name: &str, role: Role) {
        self.names.push((name.to_string(), role));
    }

    /// An index expression: the whole slice of a subscript, or its first
    /// element (`df.loc[mask, cols]`).
    fn index(&mut self, expr: &Expr) {
        match expr {
            Expr::Tuple(t) => {
                if let Some((first, rest)) = t.elts.split_first() {
                    self.index(first);
                    for e in rest {
                        self.visit_expr(e);
                    }
                }
            }
            Expr::Name(n) => self.add(n.id.as_str(), Role::Mask),
            Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOp::Invert | ast::UnaryOp::Not) => {
                self.index(&u.operand);
            }
            Expr::BinOp(b) if matches!(b.op, ast::Operator::BitAnd | ast::Operator::BitOr) => {
                self.index(&b.left);
                self.index(&b.right);
            }
            Expr::BoolOp(b) => {
                for v in &b.values {
                    self.index(v);
                }
            }
            Expr::Compare(c) => {
                self.thresholds(&c.left);
                for e in &c.comparators {
                    self.thresholds(e);
                }
            }
            // `(mask).any(axis=1)`: a mask of the rows from a mask.
            Expr::Call(call) if matches!(&*call.func, Expr::Attribute(a) if matches!(a.attr.as_str(), "any" | "all")) =>
            {
                if let Expr::Attribute(a) = &*call.func {
                    self.index(&a.value);
                }
                for arg in &call.arguments.args {
                    self.visit_expr(arg);
                }
            }
            Expr::Call(call) if is_mask_call(call) => {
                self.calls.push(expr.start());
                // The mask's subject is a column of the data (its rows).
                if let Expr::Attribute(a) = &*call.func {
                    self.visit_expr(&a.value);
                }
                for arg in &call.arguments.args {
                    self.thresholds(arg);
                }
                for kw in &call.arguments.keywords {
                    self.thresholds(&kw.value);
                }
            }
            _ => self.visit_expr(expr),
        }
    }

    /// A side of a comparison (or an argument of a mask call) in an index:
    /// its names are thresholds, its calls only select rows; the data a
    /// column of which is compared (`df` in `df.x < q`) is still read as
    /// the rows kept.
    fn thresholds(&mut self, expr: &Expr) {
        struct Inner<'a>(&'a mut Occurrences);
        impl<'x> Visitor<'x> for Inner<'_> {
            fn visit_expr(&mut self, expr: &'x Expr) {
                match expr {
                    Expr::Name(n) => self.0.add(n.id.as_str(), Role::Threshold),
                    Expr::Call(_) => {
                        self.0.calls.push(expr.start());
                        walk_expr(self, expr);
                    }
                    Expr::Subscript(s) => {
                        self.visit_expr(&s.value);
                        self.0.index(&s.slice);
                    }
                    _ => walk_expr(self, expr),
                }
            }
        }
        Inner(self).visit_expr(expr);
    }
}

impl<'a> Visitor<'a> for Occurrences {
    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Name(n) if n.ctx == ast::ExprContext::Load => {
                self.add(n.id.as_str(), Role::Value)
            }
            Expr::Name(_) => {}
            // A store's index says where the value goes, not which rows
            // are kept (`df.loc[df.x > high, "is_high"] = 1`).
            Expr::Subscript(s) if s.ctx != ast::ExprContext::Load => walk_expr(self, expr),
            Expr::Subscript(s) => {
                self.visit_expr(&s.value);
                self.index(&s.slice);
            }
            _ => walk_expr(self, expr),
        }
    }
    fn visit_stmt(&mut self, _: &'a Stmt) {}
}

fn is_mask_call(call: &ast::ExprCall) -> bool {
    let Expr::Attribute(a) = &*call.func else {
        return false;
    };
    let name = a.attr.as_str();
    let qualified = match &*a.value {
        Expr::Attribute(inner) if inner.attr.as_str() == "str" => format!("str.{name}"),
        _ => name.to_string(),
    };
    MASK_METHODS.contains(&qualified.as_str())
}

/// What the simple statement of `parsed` spanning `at` reads only to
/// select rows (empty when it has no subscript).
pub(crate) fn row_selection_at(parsed: &ParsedCell, at: (OneIndexed, OneIndexed)) -> RowSelection {
    let mut found = Occurrences::default();
    syntax::walk_simple_statement_at(parsed, at, &mut found);
    let (thresholds, masks) = selecting_names(&found.names);
    RowSelection {
        thresholds,
        masks,
        calls: found.calls.iter().map(|&c| parsed.line_column(c)).collect(),
    }
}

/// What `stmt` (a simple statement) reads only to select rows: the names
/// read only as thresholds, those read only as masks, and where the calls
/// that only select rows start; and every name it reads.
pub(crate) fn row_selection_of(
    stmt: &Stmt,
) -> (Vec<String>, Vec<String>, Vec<TextSize>, Vec<String>) {
    let mut found = Occurrences::default();
    ruff_python_ast::visitor::walk_stmt(&mut found, stmt);
    let (thresholds, masks) = selecting_names(&found.names);
    let mut read: Vec<String> = found.names.into_iter().map(|(n, _)| n).collect();
    read.sort();
    read.dedup();
    (thresholds, masks, found.calls, read)
}

/// The names every occurrence of which is a threshold, and those every
/// occurrence of which is a mask.
fn selecting_names(names: &[(String, Role)]) -> (Vec<String>, Vec<String>) {
    let (mut thresholds, mut masks): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    for (name, _) in names {
        if thresholds.contains(name) || masks.contains(name) {
            continue;
        }
        let roles = || names.iter().filter(|(n, _)| n == name).map(|(_, r)| *r);
        if roles().all(|r| r == Role::Threshold) {
            thresholds.push(name.clone());
        } else if roles().all(|r| r == Role::Mask) {
            masks.push(name.clone());
        }
    }
    (thresholds, masks)
}

/// Every assignment binding `v` (a plain `name = ...`) makes a boolean mask.
pub(crate) fn binds_only_masks(model: &NotebookModel, v: Var) -> bool {
    let mut any = false;
    for cell in model.code_cells() {
        let (Some(program), Some(parsed)) = (cell.program(), cell.parsed.as_deref()) else {
            continue;
        };
        for stmt in &program.stmts {
            if !stmt.writes.iter().any(|&(w, _)| w == v) {
                continue;
            }
            if stmt
                .writes
                .iter()
                .any(|&(w, k)| w == v && k != WriteKind::Strong)
            {
                return false;
            }
            match syntax::assigned_value_at(parsed, (stmt.line, stmt.column)) {
                Some(value) if is_mask(value) => any = true,
                _ => return false,
            }
        }
    }
    any
}

/// The expression makes a boolean mask.
pub(crate) fn is_mask(expr: &Expr) -> bool {
    match expr {
        Expr::Compare(_) => true,
        Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOp::Invert | ast::UnaryOp::Not) => {
            is_mask(&u.operand)
        }
        Expr::BinOp(b) if matches!(b.op, ast::Operator::BitAnd | ast::Operator::BitOr) => {
            is_mask(&b.left) || is_mask(&b.right)
        }
        Expr::BoolOp(b) => b.values.iter().any(is_mask),
        Expr::Call(call) => is_mask_call(call),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_dataflow::Effects;
    use nbsight_model::testing::notebook;

    fn selection(source: &str) -> RowSelection {
        let nb = notebook(&[source]);
        let model = NotebookModel::new(&nb, &Effects::builtin());
        let parsed = model.cells[0].parsed.as_deref().expect("parses");
        row_selection_at(parsed, (OneIndexed::MIN, OneIndexed::MIN))
    }

    #[test]
    fn thresholds_and_masks_in_an_index_select_rows() {
        let s = selection("data = data[data.x.between(low, high)]");
        assert_eq!(s.thresholds, ["low", "high"]);
        assert_eq!(s.calls.len(), 1);
        let s = selection("df = df.loc[(df.x < q) & ~keep, ['a', 'b']]");
        assert_eq!(s.thresholds, ["q"]);
        assert_eq!(s.masks, ["keep"]);
        let s = selection("data = data[mask]");
        assert_eq!(s.masks, ["mask"]);
        // Read as a value too: it brings its facts in.
        let s = selection("df = df[df.x < q] / q");
        assert!(s.thresholds.is_empty());
        // Stored as a value, not a selection.
        let s = selection("df['above'] = df.x > q");
        assert!(s.thresholds.is_empty() && s.masks.is_empty());
        // A store's index says where the value goes.
        let s = selection("df.loc[df.x > high, 'is_high'] = 1");
        assert!(s.thresholds.is_empty() && s.masks.is_empty() && s.calls.is_empty());
    }

    #[test]
    fn a_mask_is_a_name_every_assignment_of_which_makes_one() {
        let nb = notebook(&[
            "mask = df.x.between(lo, hi)\nkeep = ~df.y.isna() & (df.z > 0)\ncols = corr[corr > 0.5].index",
        ]);
        let model = NotebookModel::new(&nb, &Effects::builtin());
        let var = |n: &str| model.vars.get(n).expect(n);
        assert!(binds_only_masks(&model, var("mask")));
        assert!(binds_only_masks(&model, var("keep")));
        assert!(!binds_only_masks(&model, var("cols")));
    }
}
