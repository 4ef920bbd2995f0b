//! Syntactic facts about assignment targets, access paths and displays,
//! shared by the analyses that read the AST to follow aliasing (slicing's
//! may-aliases, the flow analysis's shared objects): what a target binds,
//! the name a path starts with, the elements of a display, and which
//! targets and values an unpacking pairs by position. What the analyses
//! conclude from them differs (see ARCHITECTURE.md, "Why two aliasing
//! models").

use ruff_python_ast::Expr;
use smallvec::SmallVec;

pub use nbsight_dataflow::symbol::target_names;

/// The name a path of attributes and subscripts starts with (`df` for
/// `df.loc[0, 'a']`).
pub fn path_root(expr: &Expr) -> Option<&str> {
    match expr {
        Expr::Name(name) => Some(name.id.as_str()),
        Expr::Attribute(attr) => path_root(&attr.value),
        Expr::Subscript(sub) => path_root(&sub.value),
        _ => None,
    }
}

/// A display: a list, tuple, set or dict written out (`[a, b]`,
/// `{'k': v}`), whose value holds the objects of its elements.
pub fn is_display(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::List(_) | Expr::Tuple(_) | Expr::Set(_) | Expr::Dict(_)
    )
}

/// The elements of a display (a dict's values), each with whether it is
/// unpacked into the display (`*b` in `[a, *b]`, `**d` in `{'k': v, **d}`:
/// then the display holds its items); `None` when `expr` is no display.
pub fn display_elements(expr: &Expr) -> Option<SmallVec<[(&Expr, bool); 4]>> {
    fn unstar(e: &Expr) -> (&Expr, bool) {
        match e {
            Expr::Starred(s) => (&s.value, true),
            e => (e, false),
        }
    }
    Some(match expr {
        Expr::List(e) => e.elts.iter().map(unstar).collect(),
        Expr::Tuple(e) => e.elts.iter().map(unstar).collect(),
        Expr::Set(e) => e.elts.iter().map(unstar).collect(),
        Expr::Dict(e) => e
            .items
            .iter()
            .map(|i| (&i.value, i.key.is_none()))
            .collect(),
        _ => return None,
    })
}

/// `a, b = x, y` (or `[a, b] = [x, y]`): a tuple or list target against a
/// display of the same kind and as many elements, which Python binds
/// element by element; the targets' and values' elements.
pub fn unpacked_pairwise<'a>(
    target: &'a Expr,
    value: &'a Expr,
) -> Option<(&'a [Expr], &'a [Expr])> {
    let (targets, values) = match (target, value) {
        (Expr::Tuple(t), Expr::Tuple(v)) => (&t.elts, &v.elts),
        (Expr::List(t), Expr::List(v)) => (&t.elts, &v.elts),
        _ => return None,
    };
    (targets.len() == values.len()).then_some((targets.as_slice(), values.as_slice()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_notebook::parse_python;
    use ruff_python_ast::Stmt;

    /// The target and value of the assignment `src`.
    fn assignment(src: &str) -> (Expr, Expr) {
        let parsed = parse_python(src);
        let Some(Stmt::Assign(a)) = parsed.module.body.first() else {
            panic!("{src} is not an assignment");
        };
        (a.targets[0].clone(), (*a.value).clone())
    }

    fn names(exprs: &[Expr]) -> Vec<&str> {
        exprs.iter().filter_map(path_root).collect()
    }

    #[test]
    fn targets_and_paths() {
        let (target, value) = assignment("a, (b, *c) = df.loc[0, 'a']");
        let mut bound = Vec::new();
        target_names(&target, &mut bound);
        assert_eq!(bound, ["a", "b", "c"]);
        assert_eq!(path_root(&value), Some("df"));
    }

    #[test]
    fn displays_and_their_elements() {
        let (_, value) = assignment("x = [a, *b, c.d]");
        let elements: Vec<(Option<&str>, bool)> = display_elements(&value)
            .expect("a display")
            .into_iter()
            .map(|(e, unpacked)| (path_root(e), unpacked))
            .collect();
        assert_eq!(
            elements,
            [(Some("a"), false), (Some("b"), true), (Some("c"), false)]
        );
        let (_, value) = assignment("x = {'k': v, **d}");
        assert!(is_display(&value));
        let unpacked: Vec<bool> = display_elements(&value)
            .expect("a display")
            .iter()
            .map(|(_, u)| *u)
            .collect();
        assert_eq!(unpacked, [false, true]);
        let (_, value) = assignment("x = f(a)");
        assert!(!is_display(&value) && display_elements(&value).is_none());
    }

    #[test]
    fn unpacking_pairs_elements_of_same_shaped_displays() {
        let (target, value) = assignment("a, b = x, y");
        let (t, v) = unpacked_pairwise(&target, &value).expect("pairwise");
        assert_eq!((names(t), names(v)), (vec!["a", "b"], vec!["x", "y"]));
        for src in ["a, b = x, y, z", "a, b = [x, y]", "a, b = pair"] {
            let (target, value) = assignment(src);
            assert!(unpacked_pairwise(&target, &value).is_none(), "{src}");
        }
    }
}
