//! Objects that become members of a container, seen in the code: the
//! object a name is bound to put into a list or set (`lst.append(x)`,
//! `lst.insert(0, x)`, `s.add(x)`), and a loop variable bound to each
//! member in turn (`for foo in lst`). A change of such an object in place
//! (`x.inc()`, `foo.inc()`) changes the container that holds it: its
//! readers are fresh, not stale (ipyflow's and nbsafety's alias registry,
//! for objects inside containers). Elements with a known place
//! (`holder = {'k': lst}`) are parts of their statement instead
//! (`shapes.rs`).

use nbsight_dataflow::symbol::{Symbol, static_path};
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::{Ranged, TextSize};

/// A statement that makes the object at `member` a member of `container`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Member {
    /// Where the statement starts.
    pub start: TextSize,
    pub container: Symbol,
    pub member: Symbol,
}

/// The statements of `body` (at any depth, function and class bodies left
/// out) that make a name's object a member of a container.
pub(crate) fn members(body: &[Stmt]) -> Vec<Member> {
    let mut out = Vec::new();
    crate::shapes::each_statement(body, &mut |stmt| {
        let (container, member) = match stmt {
            Stmt::Expr(e) => match &*e.value {
                Expr::Call(call) if call.arguments.keywords.is_empty() => {
                    let Expr::Attribute(method) = &*call.func else {
                        return;
                    };
                    let args = &call.arguments.args;
                    let member = match (method.attr.as_str(), args.len()) {
                        ("append" | "add", 1) => args.first(),
                        ("insert", 2) => args.get(1),
                        _ => None,
                    };
                    (static_path(&method.value), member.and_then(static_path))
                }
                _ => return,
            },
            Stmt::For(s) => (static_path(&s.iter), static_path(&s.target)),
            _ => return,
        };
        if let (Some(container), Some(member)) = (container, member)
            && !member.contains(['.', '['])
        {
            out.push(Member {
                start: stmt.range().start(),
                container,
                member,
            });
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_notebook::parse_python;

    fn pairs(source: &str) -> Vec<(String, String)> {
        let parsed = parse_python(source);
        members(&parsed.module.body)
            .into_iter()
            .map(|m| (m.container.to_string(), m.member.to_string()))
            .collect()
    }

    #[test]
    fn appended_objects_and_loop_variables_are_members() {
        assert_eq!(
            pairs(
                "for i in range(3):\n    x = Foo()\n    lst.append(x)\nfor foo in lst:\n    foo.inc()"
            ),
            [("lst".into(), "x".into()), ("lst".into(), "foo".into())]
        );
        assert_eq!(
            pairs("s.add(v); lst.insert(0, w)"),
            [("s".into(), "v".into()), ("lst".into(), "w".into())]
        );
        // Not a name's object: no member.
        assert!(pairs("lst.append(x.y); lst.extend(xs); for a, b in pairs: pass").is_empty());
    }
}
