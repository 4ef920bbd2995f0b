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

use super::super::value::{Deps, Value};
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
            let m = m.borrow();
            Some(m.items.iter().map(|(k, v)| (k.clone(), copy(v))).collect())
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
                records.push((r.items.clone(), r.structure.clone()));
            }
            let columns = keys
                .into_iter()
                .map(|key| {
                    let mut structure = s.structure.clone();
                    let items = records
                        .iter()
                        .map(|(items, record_structure)| {
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
                    (key, Value::sequence(items, structure))
                })
                .collect();
            Some(columns)
        }
        _ => None,
    }
}

/// A column's values, not shared with the container they came from.
fn copy(v: &Value) -> Value {
    match v {
        Value::Sequence(s) => {
            let s = s.borrow();
            Value::sequence(s.items.clone(), s.structure.clone())
        }
        other => other.clone(),
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
    if o.parts.is_empty() || o.origin.is_some() {
        return None;
    }
    Some((o.deps.clone(), o.parts.clone()))
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
