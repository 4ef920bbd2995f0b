//! The order of a frame's rows after a sort: known when the values sorted
//! by are known and all different, else any row at any position.

use ruff_python_ast::{self as ast, Expr};

use super::super::super::value::{Deps, Known, Value};
use super::super::{UnionWith, decided_by, known};

/// A column of rows in an order not known (`shuffled`: each position
/// may hold any of its elements), decided by `why`.
pub(super) fn any_order(v: &Value, shuffled: bool, why: &Deps) -> Value {
    match v.elements() {
        Some(items) if shuffled => {
            let mut all = Deps::default();
            for item in &items {
                all.union(&item.deps());
            }
            let any = Value::scalar(all).with_why(why);
            Value::sequence(vec![any; items.len()], v.structure().union_with(why))
        }
        _ => decided_by(v, why, 0),
    }
}

/// `ascending=` of a sort (`None` when it is not a literal bool).
pub(super) fn ascending(c: &ast::ExprCall) -> Option<bool> {
    match c.arguments.find_keyword("ascending").map(|k| &k.value) {
        None => Some(true),
        Some(Expr::BooleanLiteral(b)) => Some(b.value),
        Some(_) => None,
    }
}

/// The rows' order sorting by `column` makes, when its values are known
/// numbers, or known strs, and all different (pandas' default sort is not
/// stable: ties may go either way).
pub(super) fn known_order(column: &Value, ascending: bool) -> Option<Vec<usize>> {
    let Value::Sequence(s) = column else {
        return None;
    };
    let known = s.borrow().known.clone()?;
    let mut order: Vec<usize> = (0..known.len()).collect();
    if let Some(numbers) = known.iter().map(known::float).collect::<Option<Vec<f64>>>() {
        order.sort_by(|&a, &b| numbers[a].total_cmp(&numbers[b]));
        if order.windows(2).any(|w| numbers[w[0]] == numbers[w[1]]) {
            return None;
        }
    } else {
        let texts: Vec<&str> = known
            .iter()
            .map(|k| match k {
                Known::Repr(r) => r
                    .strip_prefix('\'')?
                    .strip_suffix('\'')
                    .filter(|t| !t.contains('\\')),
                _ => None,
            })
            .collect::<Option<_>>()?;
        order.sort_by(|&a, &b| texts[a].cmp(texts[b]));
        if order.windows(2).any(|w| texts[w[0]] == texts[w[1]]) {
            return None;
        }
    }
    if !ascending {
        order.reverse();
    }
    Some(order)
}
