//! Masks of known truths: `df['temp'] > 15` on a column whose values the
//! replay knows tells which rows pass, and `df[mask]` keeps those rows.

use ruff_python_ast as ast;

use super::super::super::value::{Known, Value};
use super::super::{UnionWith, known};
use super::known_columns;

/// `column op number` (`df['temp'] > 15`) for a frame's column whose
/// values the replay knows (numbers, the literals' own) and a number it
/// knows: a column of each row's truth, known, decided by the row's
/// element and the number; `None` otherwise.
pub(in super::super) fn mask(
    column: &Value,
    op: ast::CmpOp,
    number: Option<&Known>,
    number_value: &Value,
) -> Option<Value> {
    let Value::Sequence(s) = column else {
        return None;
    };
    let by = number_value.deps();
    let s = s.borrow();
    if !s.column {
        return None;
    }
    let bound = known::float(number?)?;
    let values: Option<Vec<f64>> = s.known.as_ref()?.iter().map(known::float).collect();
    let values = values?;
    let truths: Option<Vec<bool>> = values
        .iter()
        .map(|&x| match op {
            ast::CmpOp::Gt => Some(x > bound),
            ast::CmpOp::GtE => Some(x >= bound),
            ast::CmpOp::Lt => Some(x < bound),
            ast::CmpOp::LtE => Some(x <= bound),
            ast::CmpOp::Eq => Some(x == bound),
            ast::CmpOp::NotEq => Some(x != bound),
            _ => None,
        })
        .collect();
    let truths = truths?;
    if truths.len() != s.items.len() {
        return None;
    }
    let items = s
        .items
        .iter()
        .map(|item| {
            let mut d = item.deps();
            d.union(&by);
            Value::scalar(d.as_why())
        })
        .collect();
    let result = Value::sequence(items, s.structure.as_why());
    if let Value::Sequence(m) = &result {
        let mut m = m.borrow();
        m.column = true;
        m.known = Some(
            truths
                .iter()
                .map(|&t| Known::Repr(if t { "True" } else { "False" }.to_string()))
                .collect(),
        );
    }
    Some(result)
}

/// The rows of `frame` (with known columns) that `mask`, a column of known
/// truths as long ([`mask`]), keeps: each column holds those rows'
/// elements, which the mask decided; `None` otherwise.
pub(in super::super) fn masked(frame: &Value, mask: &Value) -> Option<Value> {
    let Value::Sequence(m) = mask else {
        return None;
    };
    // (Before the borrow below: `deps` borrows the mask too.)
    let decided = mask.deps().as_why();
    let keep = {
        let m = m.borrow();
        if !m.column {
            return None;
        }
        let keep: Option<Vec<bool>> = m
            .known
            .as_ref()?
            .iter()
            .map(|k| match k {
                Known::Repr(r) if r == "True" => Some(true),
                Known::Repr(r) if r == "False" => Some(false),
                _ => None,
            })
            .collect();
        keep?
    };
    let (deps, parts) = known_columns(frame)?;
    let mut columns = Vec::with_capacity(parts.len());
    for (key, column) in &parts {
        let Value::Sequence(c) = column else {
            return None;
        };
        let c = c.borrow();
        if c.items.len() != keep.len() {
            return None;
        }
        let items = c
            .items
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(item, _)| item.clone())
            .collect();
        let known = c.known.as_ref().map(|known| {
            known
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(v, _)| v.clone())
                .collect()
        });
        let kept = Value::sequence(items, c.structure.clone().union_with(&decided));
        if let Value::Sequence(k) = &kept {
            let mut k = k.borrow();
            k.known = known;
            k.column = true;
        }
        columns.push((key.clone(), kept));
    }
    let object = Value::object(deps.with_why(&decided), None);
    if let Value::Object(o) = &object {
        o.borrow_mut().parts = columns;
    }
    Some(object)
}
