//! Arithmetic on a frame's columns: pandas computes `df['a'] * df['b']`
//! and `df['a'] * 2` row by row (a list's `+` and `*` are not element-wise:
//! only a column, `Sequence::column`, is).

use ruff_python_ast as ast;

use super::super::super::value::{Deps, Known, Value};
use super::super::{UnionWith, known};

/// A column's elements, structure and known values.
type Column = (Vec<Value>, Deps, Option<Vec<Known>>);

/// `l op r` when one side is a frame's column and the other a column as
/// long or a scalar: pandas computes it element by element (a column, each
/// element made of the elements at its row); `None` otherwise (a list's
/// `+` and `*` are not element-wise).
/// `lk`/`rk`: what the replay knows of a scalar side; the column's known
/// values and it give the result's.
pub(in super::super) fn elementwise(
    l: &Value,
    r: &Value,
    op: ast::Operator,
    lk: Option<Known>,
    rk: Option<Known>,
) -> Option<Value> {
    let column = |v: &Value| match v {
        Value::Sequence(s) if s.borrow().column => {
            let s = s.borrow();
            Some((s.items.clone(), s.structure.clone(), s.known.clone()))
        }
        _ => None,
    };
    let (lc, rc) = (column(l), column(r));
    // Each row's known value, from the columns' or the scalar's.
    let known_at = |c: &Option<Column>, k: &Option<Known>, i: usize| match c {
        Some((_, _, known)) => known.as_ref().and_then(|known| known.get(i).cloned()),
        None => k.clone(),
    };
    let rows = lc.as_ref().or(rc.as_ref()).map_or(0, |c| c.0.len());
    let known: Option<Vec<Known>> = (0..rows)
        .map(|i| known::apply(op, known_at(&lc, &lk, i)?, known_at(&rc, &rk, i)?))
        .collect();
    let (items, structure) = match (lc, rc) {
        (Some((a, sa, _)), Some((b, sb, _))) if a.len() == b.len() => {
            let items = a
                .iter()
                .zip(&b)
                .map(|(x, y)| {
                    let mut d = x.deps();
                    d.union(&y.deps());
                    Value::scalar(d)
                })
                .collect();
            (items, sa.union_with(&sb))
        }
        (Some((a, sa, _)), None) | (None, Some((a, sa, _)))
            if matches!((l, r), (Value::Scalar(_), _) | (_, Value::Scalar(_))) =>
        {
            let scalar = if matches!(l, Value::Scalar(_)) { l } else { r }.deps();
            let items = a
                .iter()
                .map(|x| {
                    let mut d = x.deps();
                    d.union(&scalar);
                    Value::scalar(d)
                })
                .collect();
            (items, sa)
        }
        _ => return None,
    };
    let result = Value::sequence(items, structure);
    if let Value::Sequence(s) = &result {
        let mut s = s.borrow();
        s.column = true;
        s.known = known;
    }
    Some(result)
}
