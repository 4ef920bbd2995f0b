//! Subscripts whose index only the run knows (`lst[y]`, `s += lst[i]` in a
//! loop, `lst[x] += 1`): statically they read or change the whole
//! container (`lst[*]`); the tracer reads the index's value where the
//! statement runs, and the run's keys turn them into element paths
//! (`lst[2]`), so that a change of another element leaves them alone
//! (NBSlicer's run-time subscripts, seed 004 §3.1; nbsafety §3.2). The same
//! probes tell where `lst.remove(v)` removed and whether
//! `df.dropna(inplace=flag)` changed `df` (seed 004 §3.3).
//!
//! A probe is a line of the cell's module code and a global name: at each
//! line event of that line the tracer takes the name's value from the
//! namespace, before the line runs. That is the index's value when the
//! line does not bind the name itself, which `keyed_subscripts` checks (a
//! call earlier on the same line that rebinds it through `global` is not
//! seen).
//! Function bodies, lambdas and comprehensions keep `[*]` (their frames'
//! locals are not the namespace; a comprehension has no line event per
//! element).

use nbsight_dataflow::symbol::{Symbol, python_str_repr, static_path};
use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, ExprContext, Stmt};
use ruff_text_size::{Ranged, TextRange, TextSize};

/// Where the tracer reads an index: at line events of `line` of the cell's
/// module code, the value of the global `name` (or, with `search`, the
/// index of the first element of the list bound to the global `search`
/// equal to that value, or to the integer `name` spells: where
/// `search.remove(name)` removes).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Probe {
    pub line: u32,
    pub name: String,
    pub search: Option<String>,
}

/// What the tracer saw at one probe during a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeKeys {
    pub probe: Probe,
    /// The subscript keys the name held at the probe's line events, as
    /// paths spell them (`3`, `'k'`), in the order first seen; `None` when
    /// not all are known (a value that is not an `int` or `str`, or too
    /// many events).
    pub keys: Option<Vec<String>>,
}

/// The key a subscript path spells for an index value: an `int` as
/// written, a `str` as Python's `repr`.
pub fn int_key(value: i64) -> String {
    value.to_string()
}

/// The key of a `str` index (`'k'`).
pub fn str_key(value: &str) -> String {
    python_str_repr(value)
}

/// A subscript of the cell's module code whose index is a global name, or
/// a dict display's key that is one (`{k: v}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeyedSubscript {
    /// The subscript expression (`lst[i]`), or the display's key (`k`).
    pub range: TextRange,
    /// The container's path (`lst`); `None` for a display's key.
    pub container: Option<Symbol>,
    pub probe: Probe,
    pub kind: KeyKind,
}

/// What the key a probe reads stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyKind {
    /// The subscript's index, or the dict display's key.
    Index,
    /// A `lst.remove(v)` call (`range`): the index it removes.
    Removal,
    /// A method call's `inplace=flag` (`range`: the call): `1` when the
    /// flag was true (`0` false).
    Inplace,
}

/// The subscripts of `body`'s module code indexed by a name the line
/// they are on does not bind, each with its probe.
pub(crate) fn keyed_subscripts(
    body: &[Stmt],
    line_of: &dyn Fn(TextSize) -> u32,
) -> Vec<KeyedSubscript> {
    struct Finder<'l> {
        line_of: &'l dyn Fn(TextSize) -> u32,
        found: Vec<KeyedSubscript>,
        /// Names bound (stored) in the module code, with their lines.
        stores: Vec<(u32, String)>,
    }
    impl<'a> Visitor<'a> for Finder<'_> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                // Their bodies run in frames of their own; decorators,
                // defaults and bases run here.
                Stmt::FunctionDef(def) => {
                    for decorator in &def.decorator_list {
                        self.visit_expr(&decorator.expression);
                    }
                    self.stores
                        .push(((self.line_of)(def.start()), def.name.to_string()));
                }
                Stmt::ClassDef(class) => {
                    for decorator in &class.decorator_list {
                        self.visit_expr(&decorator.expression);
                    }
                    self.stores
                        .push(((self.line_of)(class.start()), class.name.to_string()));
                }
                _ => walk_stmt(self, stmt),
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::Lambda(_)
                | Expr::ListComp(_)
                | Expr::SetComp(_)
                | Expr::DictComp(_)
                | Expr::Generator(_) => {}
                Expr::Name(name) if name.ctx == ExprContext::Store => {
                    self.stores
                        .push(((self.line_of)(name.start()), name.id.to_string()));
                }
                Expr::Subscript(sub) => {
                    if let Expr::Name(index) = &*sub.slice
                        && let Some(container) = static_path(&sub.value)
                    {
                        self.found.push(KeyedSubscript {
                            range: sub.range(),
                            container: Some(container),
                            probe: Probe {
                                line: (self.line_of)(sub.start()),
                                name: index.id.to_string(),
                                search: None,
                            },
                            kind: KeyKind::Index,
                        });
                    }
                    walk_expr(self, expr);
                }
                // `lst.remove(v)`: where `v` is in `lst` when the line runs.
                Expr::Call(call)
                    if call.arguments.keywords.is_empty()
                        && let Expr::Attribute(method) = &*call.func
                        && method.attr.as_str() == "remove"
                        && let Expr::Name(list) = &*method.value
                        && let [value] = &*call.arguments.args =>
                {
                    let value = match value {
                        Expr::Name(name) => Some(name.id.to_string()),
                        // An integer constant (no name spells one).
                        _ => nbsight_dataflow::symbol::constant_index(value)
                            .filter(|k| k.parse::<i64>().is_ok()),
                    };
                    if let Some(value) = value {
                        self.found.push(KeyedSubscript {
                            range: call.range(),
                            container: Some(Symbol::from(list.id.as_str())),
                            probe: Probe {
                                line: (self.line_of)(call.start()),
                                name: value,
                                search: Some(list.id.to_string()),
                            },
                            kind: KeyKind::Removal,
                        });
                    }
                    walk_expr(self, expr);
                }
                // `df.dropna(inplace=flag)`: in place as the flag is.
                Expr::Call(call)
                    if let Expr::Attribute(method) = &*call.func
                        && let Some(receiver) = static_path(&method.value)
                        && let Some(flag) =
                            call.arguments.keywords.iter().find_map(|k| {
                                match (k.arg.as_deref(), &k.value) {
                                    (Some("inplace"), Expr::Name(flag)) => Some(flag),
                                    _ => None,
                                }
                            }) =>
                {
                    self.found.push(KeyedSubscript {
                        range: call.range(),
                        container: Some(receiver),
                        probe: Probe {
                            line: (self.line_of)(call.start()),
                            name: flag.id.to_string(),
                            search: None,
                        },
                        kind: KeyKind::Inplace,
                    });
                    walk_expr(self, expr);
                }
                Expr::Dict(dict) => {
                    for item in &dict.items {
                        if let Some(Expr::Name(key)) = &item.key {
                            self.found.push(KeyedSubscript {
                                range: key.range(),
                                container: None,
                                probe: Probe {
                                    line: (self.line_of)(key.start()),
                                    name: key.id.to_string(),
                                    search: None,
                                },
                                kind: KeyKind::Index,
                            });
                        }
                    }
                    walk_expr(self, expr);
                }
                _ => walk_expr(self, expr),
            }
        }
    }
    let mut finder = Finder {
        line_of,
        found: Vec::new(),
        stores: Vec::new(),
    };
    for stmt in body {
        finder.visit_stmt(stmt);
    }
    let Finder { found, stores, .. } = finder;
    found
        .into_iter()
        .filter(|k| {
            !stores.iter().any(|(line, name)| {
                *line == k.probe.line
                    && (*name == k.probe.name || Some(name) == k.probe.search.as_ref())
            })
        })
        .collect()
}

/// A subscript of the run whose keys are all known, with those keys.
#[derive(Debug, Clone)]
pub(crate) struct Resolved<'a> {
    pub range: TextRange,
    pub container: Option<&'a str>,
    pub keys: &'a [String],
    pub kind: KeyKind,
}

/// The keyed subscripts of `subscripts` whose probe saw every key in
/// `seen` (and at least one).
pub(crate) fn resolved<'a>(
    subscripts: &'a [KeyedSubscript],
    seen: &'a [ProbeKeys],
) -> Vec<Resolved<'a>> {
    subscripts
        .iter()
        .filter_map(|s| {
            let keys = seen
                .iter()
                .find(|p| p.probe == s.probe)?
                .keys
                .as_deref()
                .filter(|k| !k.is_empty())?;
            Some(Resolved {
                range: s.range,
                container: s.container.as_deref(),
                keys,
                kind: s.kind,
            })
        })
        .collect()
}

/// The paths an access to `path` (made by the expression at `at`) stands
/// for, given the run's keys: its first unknown subscript (`lst[*]`) made
/// a known key (`lst[2]`) for each key its probe saw; `None` when the run
/// did not resolve it.
pub(crate) fn expand(path: &str, at: TextRange, resolved: &[Resolved<'_>]) -> Option<Vec<String>> {
    let hole = path.find(nbsight_dataflow::symbol::ANY_INDEX)?;
    let (container, rest) = (&path[..hole], &path[hole + 3..]);
    let r = resolved.iter().find(|r| {
        r.kind == KeyKind::Index && r.container == Some(container) && at.contains_range(r.range)
    })?;
    Some(
        r.keys
            .iter()
            .map(|k| format!("{container}[{k}]{rest}"))
            .collect(),
    )
}

/// The index the `remove(v)` call in `stmt` removed from `container`,
/// when the run saw one only.
pub(crate) fn removed_index(
    container: &str,
    stmt: TextRange,
    resolved: &[Resolved<'_>],
) -> Option<i64> {
    let r = resolved.iter().find(|r| {
        r.kind == KeyKind::Removal && r.container == Some(container) && stmt.contains_range(r.range)
    })?;
    match r.keys {
        [key] => key.parse().ok(),
        _ => None,
    }
}

/// The receivers of the calls in `stmt` whose `inplace=flag` the run saw
/// hold one value only, each with that value.
pub(crate) fn inplace_flags<'a>(
    stmt: TextRange,
    resolved: &'a [Resolved<'_>],
) -> impl Iterator<Item = (&'a str, bool)> {
    resolved.iter().filter_map(move |r| {
        if r.kind != KeyKind::Inplace || !stmt.contains_range(r.range) {
            return None;
        }
        match (r.container, r.keys) {
            (Some(receiver), [key]) => Some((receiver, key != "0")),
            _ => None,
        }
    })
}

/// The paths a dict display's entry bound to `target` (`d[*]`) stands for,
/// given the run's keys of its key at `key`; `None` when not resolved.
pub(crate) fn display_entry(
    target: &str,
    key: TextRange,
    resolved: &[Resolved<'_>],
) -> Option<Vec<String>> {
    let container = target.strip_suffix(nbsight_dataflow::symbol::ANY_INDEX)?;
    let r = resolved
        .iter()
        .find(|r| r.kind == KeyKind::Index && r.container.is_none() && r.range == key)?;
    Some(r.keys.iter().map(|k| format!("{container}[{k}]")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_notebook::parse_python;

    fn subscripts(source: &str) -> Vec<(u32, String, String)> {
        let parsed = parse_python(source);
        let line_of = |at: TextSize| parsed.line_column(at).0.get() as u32;
        keyed_subscripts(&parsed.module.body, &line_of)
            .into_iter()
            .map(|k| {
                let container = k.container.map(|c| c.to_string()).unwrap_or_default();
                (k.probe.line, k.probe.name, container)
            })
            .collect()
    }

    #[test]
    fn a_name_index_is_probed_on_its_line() {
        assert_eq!(
            subscripts("x = lst[y]\nfor i in range(3):\n    s += d.v[i]"),
            vec![(1, "y".into(), "lst".into()), (3, "i".into(), "d.v".into())]
        );
    }

    #[test]
    fn a_line_that_binds_the_index_is_not_probed() {
        assert!(subscripts("i = 2; x = lst[i]").is_empty());
        assert!(subscripts("for i in lst[i]: pass").is_empty());
    }

    #[test]
    fn constants_calls_and_bodies_are_not_probed() {
        assert!(subscripts("x = lst[0] + lst[f()] + lst[i + 1]").is_empty());
        assert!(subscripts("def f(i):\n    return lst[i]").is_empty());
        assert!(subscripts("ys = [lst[i] for i in range(3)]").is_empty());
        assert!(subscripts("g = lambda i: lst[i]").is_empty());
    }

    #[test]
    fn a_removed_value_is_searched_in_its_list() {
        let parsed =
            parse_python("lst.remove(v)\nlst.remove(-3)\nv = 2; lst.remove(v)\nlst.remove(f())");
        let line_of = |at: TextSize| parsed.line_column(at).0.get() as u32;
        let found = keyed_subscripts(&parsed.module.body, &line_of);
        let probes: Vec<&Probe> = found.iter().map(|k| &k.probe).collect();
        let probe = |line: u32, name: &str| Probe {
            line,
            name: name.into(),
            search: Some("lst".into()),
        };
        assert_eq!(probes, [&probe(1, "v"), &probe(2, "-3")]);
        assert!(found.iter().all(|k| k.kind == KeyKind::Removal));
    }

    #[test]
    fn an_inplace_flag_is_probed_at_its_call() {
        let parsed = parse_python("df.dropna(inplace=flag)\ndf.dropna(inplace=True)");
        let line_of = |at: TextSize| parsed.line_column(at).0.get() as u32;
        let found = keyed_subscripts(&parsed.module.body, &line_of);
        let [found] = found.as_slice() else {
            panic!("{found:?}")
        };
        assert_eq!(
            (
                found.kind,
                found.probe.name.as_str(),
                found.container.as_deref()
            ),
            (KeyKind::Inplace, "flag", Some("df"))
        );
    }

    #[test]
    fn a_dict_displays_name_key_is_probed() {
        assert_eq!(
            subscripts("d = {k: v, 'pi': 3}"),
            vec![(1, "k".into(), String::new())]
        );
    }

    #[test]
    fn expanding_replaces_the_first_unknown_index() {
        let keys = vec!["0".to_string(), "'k'".to_string()];
        let at = TextRange::new(TextSize::new(4), TextSize::new(10));
        let resolved = [Resolved {
            range: at,
            container: Some("lst"),
            keys: &keys,
            kind: KeyKind::Index,
        }];
        assert_eq!(
            expand(
                "lst[*].a",
                TextRange::new(TextSize::new(4), TextSize::new(12)),
                &resolved
            ),
            Some(vec!["lst[0].a".to_string(), "lst['k'].a".to_string()])
        );
        assert_eq!(expand("lst", at, &resolved), None);
        assert_eq!(expand("other[*]", at, &resolved), None);
    }
}
