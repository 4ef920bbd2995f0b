//! Splits made by slicing: `X_train, X_test = X[:n], X[n:]` (also
//! `df.iloc[:n]`, `X[:n] / 255.`) binds the two complementary parts of the
//! same data, as `train_test_split` does. The compiled statement gets a call
//! with the `split` role, so that the leakage domain sees a split.

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextSize};

/// A statement binding the head and the tail of the same data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SliceSplit {
    /// The root names of the data sliced, in order of first appearance.
    pub bases: Vec<String>,
    /// For each sliced base, the names bound to its training and held-out
    /// parts.
    pub pairs: Vec<(String, String)>,
    /// Where the first slice starts (the split's position in messages).
    pub at: TextSize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Head,
    Tail,
}

/// The slicing split made by the assignment of `body` (searched through
/// compound statements) whose range contains `offset`, if it is one.
pub fn slice_split_at(body: &[Stmt], offset: TextSize) -> Option<SliceSplit> {
    let stmt = body.iter().find(|s| s.range().contains_inclusive(offset))?;
    match stmt {
        Stmt::Assign(assign) => split_of(assign),
        Stmt::If(s) => slice_split_at(&s.body, offset).or_else(|| {
            s.elif_else_clauses
                .iter()
                .find_map(|c| slice_split_at(&c.body, offset))
        }),
        Stmt::For(s) => slice_split_at(&s.body, offset),
        Stmt::While(s) => slice_split_at(&s.body, offset),
        Stmt::With(s) => slice_split_at(&s.body, offset),
        Stmt::Try(s) => slice_split_at(&s.body, offset),
        _ => None,
    }
}

fn split_of(assign: &ast::StmtAssign) -> Option<SliceSplit> {
    let [target] = assign.targets.as_slice() else {
        return None;
    };
    let names: Vec<&str> = match target {
        Expr::Tuple(t) => t.elts.iter().map(name_of).collect::<Option<_>>()?,
        Expr::List(l) => l.elts.iter().map(name_of).collect::<Option<_>>()?,
        _ => return None,
    };
    let values: &[Expr] = match &*assign.value {
        Expr::Tuple(t) => &t.elts,
        Expr::List(l) => &l.elts,
        _ => return None,
    };
    if names.len() != values.len() || names.len() < 2 {
        return None;
    }
    let parts: Vec<(String, Part)> = values.iter().map(part_of).collect::<Option<_>>()?;
    let mut bases: Vec<String> = Vec::new();
    let mut pairs = Vec::new();
    for (i, (base, _)) in parts.iter().enumerate() {
        if bases.contains(base) {
            continue;
        }
        let of_base: Vec<usize> = (i..parts.len()).filter(|&j| parts[j].0 == *base).collect();
        let [a, b] = of_base.as_slice() else {
            return None;
        };
        let (head, tail) = match (parts[*a].1, parts[*b].1) {
            (Part::Head, Part::Tail) => (*a, *b),
            (Part::Tail, Part::Head) => (*b, *a),
            _ => return None,
        };
        // The held-out part is the one named so; otherwise the tail.
        let (train, test) = if names_held_out(names[head]) && !names_held_out(names[tail]) {
            (tail, head)
        } else {
            (head, tail)
        };
        bases.push(base.clone());
        pairs.push((names[train].to_string(), names[test].to_string()));
    }
    Some(SliceSplit {
        bases,
        pairs,
        at: values[0].start(),
    })
}

fn name_of(expr: &Expr) -> Option<&str> {
    match expr {
        Expr::Name(n) => Some(n.id.as_str()),
        _ => None,
    }
}

/// `X[:n]` (head), `X[n:]` (tail), through `.iloc`/`.loc` and arithmetic
/// on the slice (`X[:n] / 255.`).
fn part_of(expr: &Expr) -> Option<(String, Part)> {
    match expr {
        Expr::BinOp(b) => part_of(&b.left),
        Expr::Subscript(s) => {
            let Expr::Slice(slice) = &*s.slice else {
                return None;
            };
            if slice.step.is_some() {
                return None;
            }
            let part = match (&slice.lower, &slice.upper) {
                (None, Some(_)) => Part::Head,
                (Some(_), None) => Part::Tail,
                _ => return None,
            };
            let base = match &*s.value {
                Expr::Name(n) => n.id.to_string(),
                Expr::Attribute(a) if matches!(a.attr.as_str(), "iloc" | "loc" | "values") => {
                    name_of(&a.value)?.to_string()
                }
                _ => return None,
            };
            Some((base, part))
        }
        _ => None,
    }
}

/// `X_test`, `y_val`, `X_valid`, `X_dev`, `X_holdout`.
fn names_held_out(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["test", "val", "dev", "hold"]
        .iter()
        .any(|part| lower.contains(part))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(source: &str) -> Option<SliceSplit> {
        let parsed = nbsight_notebook::parse_python(source);
        let offset = TextSize::from(source.find('=').map_or(0, |i| i as u32 + 2));
        slice_split_at(&parsed.module.body, offset)
    }

    #[test]
    fn complementary_slices_are_a_split() {
        let s = split("X_train, X_test, y_train, y_test = X[:600], X[600:], y[:600], y[600:]")
            .expect("a split");
        assert_eq!(s.bases, ["X", "y"]);
        assert_eq!(
            s.pairs,
            [
                ("X_train".to_string(), "X_test".to_string()),
                ("y_train".to_string(), "y_test".to_string())
            ]
        );
        let s = split("X_valid, X_train = X_full[:5000] / 255., X_full[5000:] / 255.")
            .expect("a split");
        assert_eq!(s.pairs, [("X_train".to_string(), "X_valid".to_string())]);
        let s = split("train, test = df.iloc[:n], df.iloc[n:]").expect("a split");
        assert_eq!(s.bases, ["df"]);
    }

    #[test]
    fn other_slices_are_not() {
        assert_eq!(split("a, b = X[:10], Y[10:]"), None);
        assert_eq!(split("a, b = X[:10], X[:20]"), None);
        assert_eq!(split("a, b = X[::2], X[1::2]"), None);
        assert_eq!(split("a = X[:10]"), None);
        assert_eq!(split("a, b = f(X), X[10:]"), None);
    }
}
