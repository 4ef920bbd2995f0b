//! Data frames built from data the replay holds. `pd.DataFrame({'a': xs,
//! 'b': ys})` and `pd.DataFrame([{'a': 1, 'b': 2}, ...])` are library
//! objects whose columns are known: `df['a']` (or `df.a`) is `xs` (a copy:
//! the frame does not share the list), so that `df['a'].mean()` depends on
//! `xs` alone, and `df.iloc[k]` is the row's elements. A column also keeps
//! the values its literals gave (`Sequence::known`): they tell which rows
//! a mask keeps (`masks.rs`), which rows a `groupby` puts together
//! (`groups.rs`), and in which order a sort leaves them (`order.rs`);
//! arithmetic on columns is element-wise (`elementwise.rs`). Where the
//! values are not known, selecting rows (`df[mask]`, `df[1:3]`) keeps the
//! columns, each also decided by the selection, every element possible,
//! and sorting leaves each position any of its column's values, decided by
//! the columns sorted by.

mod elementwise;
mod groups;
mod masks;
mod order;

use ruff_python_ast::{self as ast, Expr};

use super::super::value::{Deps, Known, ObjectKind, Value};
use super::{UnionWith, decided_by, python_repr};

pub(super) use elementwise::elementwise;
pub(super) use groups::{aggregated, grouped};
pub(super) use masks::{mask, masked};
use order::{any_order, ascending, known_order};

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

/// `value` changed in place by code the replay does not see into (a
/// library function shuffling a list, a frame sorted in place): a list's or
/// a known frame's columns' elements may each be anywhere now, decided by
/// `why`; what was known of their values is forgotten.
pub(in super::super) fn shuffled_in_place(value: &Value, why: &Deps) {
    let why = why.as_why();
    match value {
        Value::Sequence(s) => {
            let shuffled = any_order(value, true, &why);
            let items = match &shuffled {
                Value::Sequence(t) => t.borrow().items.clone(),
                _ => return,
            };
            let mut s = s.borrow_mut();
            s.items = items;
            s.structure.union(&why);
        }
        Value::Object(o) if o.borrow().kind == ObjectKind::Plain => {
            let parts = o.borrow().parts.clone();
            let parts = parts
                .iter()
                .map(|(k, v)| match v {
                    Value::Sequence(_) => (k.clone(), any_order(v, true, &why)),
                    _ => (k.clone(), v.clone()),
                })
                .collect();
            o.borrow_mut().parts = parts;
        }
        _ => {}
    }
}

/// The other name of a frame's column: `.a` for `['a']`, `['a']` for `.a`.
pub(super) fn twin(part: &str) -> Option<String> {
    match part.strip_prefix('.') {
        Some(name) => Some(format!("[{}]", python_repr(name))),
        None => {
            let key = part.strip_prefix('[')?.strip_suffix(']')?;
            attribute_name(key).map(|name| format!(".{name}"))
        }
    }
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

/// The count `head(n)`/`tail(n)` take (5 by default), when literal.
fn head_or_tail(method: &str, c: &ast::ExprCall) -> Option<i64> {
    let n = c
        .arguments
        .args
        .first()
        .or_else(|| c.arguments.find_keyword("n").map(|k| &k.value));
    match n {
        None => Some(5),
        Some(e) => super::literal_index(e),
    }
    .filter(|_| matches!(method, "head" | "tail"))
}

/// The rows `head(n)` or `tail(n)` keep of `len` (a negative `n` leaves
/// that many out at the other end).
fn taken(method: &str, len: usize, n: i64) -> Vec<usize> {
    let len_i = i64::try_from(len).unwrap_or(i64::MAX);
    let (start, end) = match (method, n >= 0) {
        ("head", true) => (0, n.min(len_i)),
        ("head", false) => (0, (len_i + n).max(0)),
        (_, true) => ((len_i - n).max(0), len_i),
        (_, false) => ((-n).min(len_i), len_i),
    };
    let to = |i: i64| usize::try_from(i).unwrap_or(0);
    (to(start)..to(end)).collect()
}

/// `frame.iloc[k]` for a frame with known columns (its row `k`: the
/// columns' elements there, by column), or for one of its columns (its
/// element there); `None` otherwise.
pub(super) fn row(frame: &Value, k: i64) -> Option<Value> {
    let at = |column: &Value| {
        let Value::Sequence(s) = column else {
            return None;
        };
        let s = s.borrow();
        let len = i64::try_from(s.items.len()).ok()?;
        let i = usize::try_from(if k < 0 { k + len } else { k }).ok()?;
        Some(decided_by(s.items.get(i)?, &s.structure.as_why(), 0))
    };
    if let Value::Sequence(s) = frame {
        if !s.borrow().column {
            return None;
        }
        return at(frame);
    }
    let (_, parts) = known_columns(frame)?;
    let cells: Option<Vec<(String, Value)>> = parts
        .iter()
        .map(|(key, column)| Some((key.clone(), at(column)?)))
        .collect();
    let cells = cells?;
    let mut deps = Deps::default();
    for (_, v) in &cells {
        deps.union(&v.deps());
    }
    let object = Value::object(deps, None);
    if let Value::Object(o) = &object {
        o.borrow_mut().parts = cells;
    }
    Some(object)
}

/// Does `frame` have known columns (a frame built from data the replay
/// holds)?
pub(super) fn has_known_columns(frame: &Value) -> bool {
    known_columns(frame).is_some()
}

/// Rows of the frame `frame` selected by a key that depends on `why`: a
/// frame with the same columns, each also decided by `why`; `None` when
/// `frame` has no known columns.
pub(super) fn rows(frame: &Value, why: &Deps) -> Option<Value> {
    let (deps, parts) = known_columns(frame)?;
    let why = why.as_why();
    let object = Value::object(deps.with_why(&why), None);
    if let Value::Object(new) = &object {
        // Which rows stay, and so which row is at a position, is not known.
        new.borrow_mut().parts = parts
            .iter()
            .map(|(k, v)| (k.clone(), any_order(v, true, &why)))
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
    // (Sorting in place returns nothing: the frame itself changes.)
    if c.arguments.find_keyword("inplace").is_some() {
        return None;
    }
    let (deps, parts) = known_columns(frame)?;
    let mut why = Deps::default();
    for a in args {
        why.union(&a.deps().as_why());
    }
    let rows = parts.iter().find_map(|(_, v)| match v {
        Value::Sequence(s) => Some(s.borrow().items.len()),
        _ => None,
    });
    // The rows kept, in their new order, when known (the values sorted
    // by, the count `head`/`tail` take).
    let mut order: Option<Vec<usize>> = None;
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
            // (Another keyword, `key=`, `na_position=`, may sort otherwise.)
            let plain = c.arguments.keywords.iter().all(|k| {
                k.arg
                    .as_ref()
                    .is_some_and(|a| matches!(a.as_str(), "by" | "ascending"))
            });
            if let Some([column]) = sorted_by.as_deref()
                && plain
                && let Some(ascending) = ascending(c)
            {
                order = known_order(column, ascending);
            }
            match sorted_by {
                Some(columns) => columns.iter().for_each(|v| why.union(&v.deps().as_why())),
                None => why.union(&deps.as_why()),
            }
            true
        }
        "sort_index" => true,
        "head" | "tail" => {
            order = rows
                .zip(head_or_tail(method, c))
                .map(|(len, n)| taken(method, len, n));
            order.is_none()
        }
        "copy" => false,
        "reset_index" if c.arguments.find_keyword("drop").is_some() => false,
        _ => return None,
    };
    let column = |v: &Value| match (v, &order) {
        (Value::Sequence(s), Some(order)) if order.iter().all(|&i| i < s.borrow().items.len()) => {
            let s = s.borrow();
            let items = order
                .iter()
                .map(|&i| decided_by(&s.items[i], &why, 0))
                .collect();
            let known = s
                .known
                .as_ref()
                .map(|known| order.iter().map(|&i| known[i].clone()).collect());
            let sorted = Value::sequence(items, s.structure.clone().union_with(&why));
            if let Value::Sequence(t) = &sorted {
                let mut t = t.borrow();
                t.known = known;
                t.column = s.column;
            }
            sorted
        }
        _ => any_order(v, shuffled, &why),
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
