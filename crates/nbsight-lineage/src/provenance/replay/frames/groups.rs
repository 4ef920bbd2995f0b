//! `df.groupby(by)` of a frame whose `by` column's values the replay
//! knows: each group is the rows with one value (`['red']`), and what a
//! reduction computes per group is made of that group's rows only.

use ruff_python_ast::{self as ast, Expr};

use super::super::super::value::{Deps, Known, ObjectKind, Value};
use super::super::{UnionWith, python_repr};
use super::{attribute_name, known_columns};

/// `frame.groupby(by)` (`method`; `by` a column name given as a literal)
/// of a frame with known columns whose `by` column's values the replay
/// knows: each other column grouped by them ([`ObjectKind::Groups`]), and
/// which group a row is in decided by the `by` column; `None` otherwise.
pub(in super::super) fn grouped(frame: &Value, method: &str, c: &ast::ExprCall) -> Option<Value> {
    if method != "groupby" {
        return None;
    }
    let by = match (c.arguments.args.as_ref(), c.arguments.keywords.as_ref()) {
        ([by], []) => by,
        ([], [k]) if k.arg.as_ref().is_some_and(|a| a.as_str() == "by") => &k.value,
        _ => return None,
    };
    let Expr::StringLiteral(by) = by else {
        return None;
    };
    let by = format!("[{}]", python_repr(by.value.to_str()));
    let (deps, parts) = known_columns(frame)?;
    let (keys, decided) = match parts.iter().find(|(k, _)| *k == by)?.1 {
        Value::Sequence(ref s) => {
            let s = s.borrow();
            let keys: Option<Vec<String>> = s.known.as_ref()?.iter().map(Known::repr).collect();
            let mut decided = s.structure.clone();
            for item in &s.items {
                decided.union(&item.deps());
            }
            (keys?, decided.as_why())
        }
        _ => return None,
    };
    // The groups, in the order their keys first come.
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (row, key) in keys.iter().enumerate() {
        match groups.iter_mut().find(|(k, _)| k == key) {
            Some((_, rows)) => rows.push(row),
            None => groups.push((key.clone(), vec![row])),
        }
    }
    let columns: Vec<(String, Value)> = parts
        .iter()
        .filter(|(k, _)| *k != by && k.starts_with('['))
        .filter_map(|(k, column)| {
            let items = column.elements()?;
            (items.len() == keys.len())
                .then(|| (k.clone(), groups_of(column, &items, &groups, &decided)))
        })
        .collect();
    let object = Value::object(deps.with_why(&decided), None);
    if let Value::Object(o) = &object {
        let mut o = o.borrow_mut();
        o.kind = ObjectKind::GroupedFrame;
        for (key, column) in columns {
            if let Some(name) = key
                .strip_prefix('[')
                .and_then(|k| k.strip_suffix(']'))
                .and_then(attribute_name)
            {
                o.parts.push((format!(".{name}"), column.clone()));
            }
            o.parts.push((key, column));
        }
    }
    Some(object)
}

/// The column `column` (its elements `items`) split into `groups` (each
/// key's rows), which `decided` decided.
fn groups_of(
    column: &Value,
    items: &[Value],
    groups: &[(String, Vec<usize>)],
    decided: &Deps,
) -> Value {
    let structure = column.structure().union_with(decided);
    let object = Value::object(column.deps().with_why(decided), None);
    if let Value::Object(o) = &object {
        let mut o = o.borrow_mut();
        o.kind = ObjectKind::Groups;
        o.parts = groups
            .iter()
            .map(|(key, rows)| {
                let group = rows.iter().map(|&r| items[r].clone()).collect();
                (
                    format!("[{key}]"),
                    Value::sequence(group, structure.clone()),
                )
            })
            .collect();
    }
    object
}

/// What `grouped.method()` computes per group, when `grouped` is a
/// `groupby`'s column ([`ObjectKind::Groups`]) or frame (each of its
/// columns so) and `method` one of pandas' reductions: per group (`['red']`)
/// a value made of that group's elements (`count`, `size`: decided by
/// them, none copied); `None` otherwise.
pub(in super::super) fn aggregated(grouped: &Value, method: &str) -> Option<Value> {
    let copies = match method {
        "sum" | "mean" | "median" | "min" | "max" | "std" | "var" | "prod" | "first" | "last" => {
            true
        }
        "count" | "size" | "nunique" => false,
        _ => return None,
    };
    let Value::Object(o) = grouped else {
        return None;
    };
    let (kind, deps, parts) = {
        let o = o.borrow();
        (o.kind, o.deps.clone(), o.parts.clone())
    };
    let reduce = |parts: &[(String, Value)]| {
        parts
            .iter()
            .map(|(key, group)| {
                let d = group.deps();
                (
                    key.clone(),
                    Value::scalar(if copies { d } else { d.as_why() }),
                )
            })
            .collect::<Vec<_>>()
    };
    let object = Value::object(if copies { deps } else { deps.as_why() }, None);
    let Value::Object(new) = &object else {
        return None;
    };
    match kind {
        ObjectKind::Groups => new.borrow_mut().parts = reduce(&parts),
        ObjectKind::GroupedFrame => {
            new.borrow_mut().parts = parts
                .iter()
                .filter_map(|(key, column)| {
                    let reduced = aggregated(column, method)?;
                    Some((key.clone(), reduced))
                })
                .collect();
        }
        ObjectKind::Plain | ObjectKind::Class | ObjectKind::Instance => return None,
    }
    Some(object)
}
