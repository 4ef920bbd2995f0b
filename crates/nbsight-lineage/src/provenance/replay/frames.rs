//! Data frames built from data the replay holds. `pd.DataFrame({'a': xs,
//! 'b': ys})` and `pd.DataFrame([{'a': 1, 'b': 2}, ...])` are library
//! objects whose columns are known: `df['a']` (or `df.a`) is `xs` (a copy:
//! the frame does not share the list), so that `df['a'].mean()` depends on
//! `xs` alone. Selecting rows (`df[mask]`, `df[1:3]`) keeps the columns,
//! each also decided by the selection; which rows stay is not known, so a
//! column's every element stays possible. Sorting rows (`sort_values`)
//! keeps the columns too: each position may hold any of its column's
//! values, decided by the columns sorted by.

use ruff_python_ast::{self as ast, Expr};

use super::super::value::{Deps, Known, ObjectKind, Value};
use super::{UnionWith, decided_by, python_repr};

/// The frame `path(args, keywords)` makes, when it is a `pandas.DataFrame`
/// of a dict of columns or a list of records the replay holds (`deps`:
/// everything the call read).
pub(super) fn frame(
    path: &str,
    args: &[Value],
    keywords: &[(String, Value)],
    deps: &Deps,
) -> Option<Value> {
    if path != "pandas.DataFrame" {
        return None;
    }
    let data = match (args, keywords) {
        ([data], []) => data,
        ([], [(name, data)]) if name == "data" => data,
        _ => return None,
    };
    let columns = columns(data)?;
    let object = Value::object(deps.clone(), None);
    if let Value::Object(o) = &object {
        let mut o = o.borrow_mut();
        for (key, column) in columns {
            if let Some(name) = attribute_name(&key) {
                o.parts.push((format!(".{name}"), column.clone()));
            }
            o.parts.push((format!("[{key}]"), column));
        }
    }
    Some(object)
}

/// The columns of a frame made of `data`, by their keys' reprs.
fn columns(data: &Value) -> Option<Vec<(String, Value)>> {
    match data {
        Value::Mapping(m) => {
            // Which columns there are is the dict's keys.
            let m = m.borrow();
            let keys = m.structure.as_why();
            Some(
                m.items
                    .iter()
                    .map(|(k, v)| {
                        let column = copy(v);
                        if let Value::Sequence(c) = &column {
                            c.borrow().structure.union(&keys);
                        }
                        (k.clone(), column)
                    })
                    .collect(),
            )
        }
        Value::Sequence(s) => {
            let s = s.borrow();
            let mut keys: Vec<String> = Vec::new();
            let mut records = Vec::new();
            for record in &s.items {
                let Value::Mapping(r) = record else {
                    return None;
                };
                let r = r.borrow();
                for (k, _) in &r.items {
                    if !keys.contains(k) {
                        keys.push(k.clone());
                    }
                }
                records.push((r.items.clone(), r.structure.clone(), r.known.clone()));
            }
            let columns = keys
                .into_iter()
                .map(|key| {
                    let mut structure = s.structure.clone();
                    let items = records
                        .iter()
                        .map(|(items, record_structure, _)| {
                            // A record without the key gives NaN there:
                            // which records have it decided.
                            structure.union(&record_structure.as_why());
                            items
                                .iter()
                                .find(|(k, _)| *k == key)
                                .map(|(_, v)| v.clone())
                                .unwrap_or_else(Value::constant)
                        })
                        .collect();
                    // The column's values, when each record's literal gave
                    // one.
                    let known: Option<Vec<Known>> = records
                        .iter()
                        .map(|(_, _, known)| known.get(&key).cloned())
                        .collect();
                    let column = Value::sequence(items, structure);
                    if let Value::Sequence(c) = &column {
                        let mut c = c.borrow();
                        c.known = known;
                        c.column = true;
                    }
                    (key, column)
                })
                .collect();
            Some(columns)
        }
        _ => None,
    }
}

/// A column's values, not shared with the container they came from (what
/// the replay knows of them kept).
fn copy(v: &Value) -> Value {
    match v {
        Value::Sequence(s) => {
            let s = s.borrow();
            let column = Value::sequence(s.items.clone(), s.structure.clone());
            if let Value::Sequence(c) = &column {
                let mut c = c.borrow();
                c.known.clone_from(&s.known);
                c.column = true;
            }
            column
        }
        other => other.clone(),
    }
}

/// `l op r` when one side is a frame's column and the other a column as
/// long or a scalar: pandas computes it element by element (a column, each
/// element made of the elements at its row); `None` otherwise (a list's
/// `+` and `*` are not element-wise).
pub(super) fn elementwise(l: &Value, r: &Value) -> Option<Value> {
    let column = |v: &Value| match v {
        Value::Sequence(s) if s.borrow().column => {
            let s = s.borrow();
            Some((s.items.clone(), s.structure.clone()))
        }
        _ => None,
    };
    let (items, structure) = match (column(l), column(r)) {
        (Some((a, sa)), Some((b, sb))) if a.len() == b.len() => {
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
        (Some((a, sa)), None) | (None, Some((a, sa)))
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
        s.borrow().column = true;
    }
    Some(result)
}

/// `name` for a key `'name'` that can be an attribute.
fn attribute_name(key: &str) -> Option<&str> {
    let name = key.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut chars = name.chars();
    let first = chars.next()?;
    ((first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_'))
    .then_some(name)
}

/// What a frame built from data the replay holds depends on, and its
/// columns (`None` for any other value: a frame read from a file is named
/// by its parts as they are read, not by known columns).
fn known_columns(frame: &Value) -> Option<(Deps, Vec<(String, Value)>)> {
    let Value::Object(o) = frame else {
        return None;
    };
    let o = o.borrow();
    if o.parts.is_empty() || o.origin.is_some() || o.kind != ObjectKind::Plain {
        return None;
    }
    Some((o.deps.clone(), o.parts.clone()))
}

/// `frame.groupby(by)` (`method`; `by` a column name given as a literal)
/// of a frame with known columns whose `by` column's values the replay
/// knows: each other column grouped by them ([`ObjectKind::Groups`]), and
/// which group a row is in decided by the `by` column; `None` otherwise.
pub(super) fn grouped(frame: &Value, method: &str, c: &ast::ExprCall) -> Option<Value> {
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
pub(super) fn aggregated(grouped: &Value, method: &str) -> Option<Value> {
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
        ObjectKind::Plain => return None,
    }
    Some(object)
}

/// Does `frame` have known columns (a frame built from data the replay
/// holds)?
pub(super) fn has_known_columns(frame: &Value) -> bool {
    known_columns(frame).is_some()
}

/// `column op number` (`df['temp'] > 15`) for a frame's column whose
/// values the replay knows (numbers, the literals' own) and a number it
/// knows: a column of each row's truth, known, decided by the row's
/// element and the number; `None` otherwise.
pub(super) fn mask(
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
    let bound = as_number(number?)?;
    let values: Option<Vec<f64>> = s.known.as_ref()?.iter().map(as_number).collect();
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

/// A number the replay knows (an int, or a float literal's text).
fn as_number(known: &Known) -> Option<f64> {
    match known {
        #[allow(clippy::cast_precision_loss)]
        Known::Int(i) => Some(*i as f64),
        Known::Float(bits) => Some(f64::from_bits(*bits)).filter(|x| x.is_finite()),
        _ => None,
    }
}

/// The rows of `frame` (with known columns) that `mask`, a column of known
/// truths as long ([`mask`]), keeps: each column holds those rows'
/// elements, which the mask decided; `None` otherwise.
pub(super) fn masked(frame: &Value, mask: &Value) -> Option<Value> {
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

/// Rows of the frame `frame` selected by a key that depends on `why`: a
/// frame with the same columns, each also decided by `why`; `None` when
/// `frame` has no known columns.
pub(super) fn rows(frame: &Value, why: &Deps) -> Option<Value> {
    let (deps, parts) = known_columns(frame)?;
    let why = why.as_why();
    let object = Value::object(deps.with_why(&why), None);
    if let Value::Object(new) = &object {
        new.borrow_mut().parts = parts
            .iter()
            .map(|(k, v)| (k.clone(), decided_by(v, &why, 0)))
            .collect();
    }
    Some(object)
}

/// The frame `frame.method(args)` makes when it only reorders or selects
/// rows of a frame with known columns (`sort_values`, `sort_index`,
/// `head`, `tail`, `copy`, `reset_index(drop=True)`): the same columns,
/// each element any of its column's, decided by the sort's columns (its
/// `by`, or every column when they are not literal names) and the
/// arguments; `None` for any other method.
pub(super) fn reordered(
    frame: &Value,
    method: &str,
    c: &ast::ExprCall,
    args: &[Value],
) -> Option<Value> {
    let (deps, parts) = known_columns(frame)?;
    let mut why = Deps::default();
    for a in args {
        why.union(&a.deps().as_why());
    }
    let shuffled = match method {
        "sort_values" => {
            let by = c
                .arguments
                .args
                .first()
                .or_else(|| c.arguments.find_keyword("by").map(|k| &k.value));
            let names: Option<Vec<String>> = match by {
                Some(Expr::StringLiteral(s)) => Some(vec![python_repr(s.value.to_str())]),
                Some(Expr::List(l)) => l
                    .elts
                    .iter()
                    .map(|e| match e {
                        Expr::StringLiteral(s) => Some(python_repr(s.value.to_str())),
                        _ => None,
                    })
                    .collect(),
                _ => None,
            };
            let sorted_by: Option<Vec<&Value>> = names.and_then(|names| {
                names
                    .iter()
                    .map(|n| {
                        let key = format!("[{n}]");
                        parts.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
                    })
                    .collect()
            });
            match sorted_by {
                Some(columns) => columns.iter().for_each(|v| why.union(&v.deps().as_why())),
                None => why.union(&deps.as_why()),
            }
            true
        }
        "sort_index" => true,
        "head" | "tail" | "copy" => false,
        "reset_index" if c.arguments.find_keyword("drop").is_some() => false,
        _ => return None,
    };
    let column = |v: &Value| match v.elements() {
        Some(items) if shuffled => {
            let mut all = Deps::default();
            for item in &items {
                all.union(&item.deps());
            }
            let any = Value::scalar(all).with_why(&why);
            Value::sequence(vec![any; items.len()], v.structure().union_with(&why))
        }
        _ => decided_by(v, &why, 0),
    };
    let object = Value::object(deps.with_why(&why), None);
    if let Value::Object(new) = &object {
        new.borrow_mut().parts = parts.iter().map(|(k, v)| (k.clone(), column(v))).collect();
    }
    Some(object)
}

#[cfg(test)]
mod tests {
    use super::attribute_name;

    #[test]
    fn a_key_names_an_attribute_when_it_is_an_identifier() {
        assert_eq!(attribute_name("'temp'"), Some("temp"));
        assert_eq!(attribute_name("'_x1'"), Some("_x1"));
        assert_eq!(attribute_name("'max temp'"), None);
        assert_eq!(attribute_name("'1a'"), None);
        assert_eq!(attribute_name("3"), None);
    }
}
