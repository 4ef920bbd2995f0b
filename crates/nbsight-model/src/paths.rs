//! Small syntactic helpers over assignment targets and access paths, shared
//! by the analyses that read the AST (slicing's aliases, the flow analysis's
//! shared objects).

use ruff_python_ast::Expr;

/// The names an assignment target binds (`a`, `a, (b, *c)`), in order.
pub fn target_names(target: &Expr, out: &mut Vec<String>) {
    match target {
        Expr::Name(name) => out.push(name.id.to_string()),
        Expr::Tuple(t) => t.elts.iter().for_each(|e| target_names(e, out)),
        Expr::List(l) => l.elts.iter().for_each(|e| target_names(e, out)),
        Expr::Starred(s) => target_names(&s.value, out),
        _ => {}
    }
}

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
