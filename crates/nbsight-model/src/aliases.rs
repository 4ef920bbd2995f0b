//! May-aliases between notebook variables, so that a change made through
//! one name is seen through the others: after `full_data = [train, test]`
//! and `for dataset in full_data: dataset['Title'] = ...`, `train['Title']`
//! has changed.
//!
//! Flow-insensitive facts, by root name, from module-level assignments and
//! `for` loops (no call is assumed to return an existing object):
//! - *same object*: `b = a`; `a, b = x, y` pairwise; a `for` target and the
//!   names of its iterable's display (`for d in [train, test]`), or of the
//!   display a name was assigned (`full = [train, test]`, `for d in full`);
//! - *contains*: `full = [train, test]` (full contains train), `v = df.values`
//!   and `row = rows[0]` (df contains v, rows contains row), a `for` target
//!   and its iterable, `d['k'] = lst` and `obj.x = lst`.
//!
//! A change through one name ([`Aliases`], used by the slicer's
//! dependences and the what-if re-run plan) is the
//! same change (same path) of the names of the same object, a perhaps-change
//! of every container holding it, and, when the change is inside an item of
//! a container (`full[0]['x'] = 1`, `rows[0].append(1)`), a perhaps-change
//! of the objects the container holds. Rebinding a name changes no object.
//!
//! The syntactic facts (what a target binds, the elements of a display,
//! pairwise unpacking) are the model's `paths`, shared with the flow
//! analysis's shared objects, which resolve them flow-sensitively instead
//! (ARCHITECTURE.md, "Why two aliasing models").

use nbsight_dataflow::index::IndexVec;
use nbsight_dataflow::symbol::SymId;

use crate::paths::{display_elements, is_display, path_root, target_names, unpacked_pairwise};
use ruff_python_ast::{Expr, Stmt};
use rustc_hash::FxHashMap;

/// One aliasing fact, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    /// May be the same object.
    Same(String, String),
    /// `container` may hold `item` (or a part of it, or be a part of it).
    Contains { container: String, item: String },
    /// `container` was assigned a display of these names.
    Elements {
        container: String,
        items: Vec<String>,
    },
    /// `for target in iterable` (a name).
    Loop { target: String, iterable: String },
}

/// The aliasing facts of a module-level statement.
pub fn alias_facts(stmt: &Stmt) -> Vec<Fact> {
    let mut facts = Vec::new();
    match stmt {
        Stmt::Assign(s) => {
            for target in &s.targets {
                assign(target, &s.value, &mut facts);
            }
        }
        Stmt::AnnAssign(s) => {
            if let Some(value) = &s.value {
                assign(&s.target, value, &mut facts);
            }
        }
        Stmt::For(s) => {
            let mut targets = Vec::new();
            target_names(&s.target, &mut targets);
            for target in targets {
                iterate(&target, &s.iter, &mut facts);
            }
        }
        _ => {}
    }
    facts
}

/// `target = value`.
fn assign(target: &Expr, value: &Expr, facts: &mut Vec<Fact>) {
    if let Some((targets, values)) = unpacked_pairwise(target, value) {
        targets
            .iter()
            .zip(values)
            .for_each(|(t, v)| assign(t, v, facts));
        return;
    }
    match (target, value) {
        (Expr::Tuple(_) | Expr::List(_) | Expr::Starred(_), _) => {
            // Unpacking: each name is an item of the value.
            let mut names = Vec::new();
            target_names(target, &mut names);
            let mut sources = Vec::new();
            referred(value, &mut sources);
            for name in &names {
                for (source, _) in &sources {
                    contains(source, name, facts);
                }
            }
        }
        (Expr::Name(name), _) => {
            let name = name.id.as_str();
            let mut sources = Vec::new();
            referred(value, &mut sources);
            let display = is_display(value);
            for (source, plain) in &sources {
                match (display, plain) {
                    (false, true) => same(name, source, facts),
                    (false, false) => contains(source, name, facts),
                    (true, _) => contains(name, source, facts),
                }
            }
            if display {
                let items: Vec<String> = sources
                    .iter()
                    .filter(|(_, plain)| *plain)
                    .map(|(s, _)| s.clone())
                    .collect();
                if !items.is_empty() {
                    facts.push(Fact::Elements {
                        container: name.to_string(),
                        items,
                    });
                }
            }
        }
        (Expr::Attribute(_) | Expr::Subscript(_), _) => {
            // Storing into a container.
            let Some(container) = path_root(target) else {
                return;
            };
            let mut sources = Vec::new();
            referred(value, &mut sources);
            for (source, _) in &sources {
                contains(container, source, facts);
            }
        }
        _ => {}
    }
}

/// `for target in iterable`.
fn iterate(target: &str, iterable: &Expr, facts: &mut Vec<Fact>) {
    match iterable {
        Expr::Name(name) => facts.push(Fact::Loop {
            target: target.to_string(),
            iterable: name.id.to_string(),
        }),
        Expr::List(_) | Expr::Tuple(_) | Expr::Set(_) => {
            let mut sources = Vec::new();
            referred(iterable, &mut sources);
            for (source, plain) in &sources {
                if *plain {
                    same(target, source, facts);
                } else {
                    contains(source, target, facts);
                }
            }
        }
        Expr::Attribute(_) | Expr::Subscript(_) => {
            if let Some(root) = path_root(iterable) {
                contains(root, target, facts);
            }
        }
        // `for k, v in d.items()`, `for i, x in enumerate(xs)`: the
        // targets are items of the container iterated.
        Expr::Call(_) => {
            let mut sources = Vec::new();
            referred(iterable, &mut sources);
            for (source, _) in &sources {
                contains(source, target, facts);
            }
        }
        _ => {}
    }
}

/// Calls whose value holds the objects its argument (or receiver) holds:
/// shallow copies and views (`list(xs)`, `copy.copy(d)`, `d.items()`,
/// `enumerate(xs)`). Not `x.copy()`: pandas and numpy copy deeply, and a
/// copy made to be changed apart is the common case.
fn shares_items(call: &ruff_python_ast::ExprCall) -> Option<&Expr> {
    const FUNCTIONS: &[&str] = &[
        "list",
        "tuple",
        "set",
        "frozenset",
        "dict",
        "sorted",
        "reversed",
        "iter",
        "enumerate",
        "zip",
        "copy",
    ];
    const METHODS: &[&str] = &["items", "values", "keys"];
    match &*call.func {
        Expr::Name(f) if FUNCTIONS.contains(&f.id.as_str()) => call.arguments.args.first(),
        Expr::Attribute(a)
            if a.attr.as_str() == "copy"
                && matches!(&*a.value, Expr::Name(m) if m.id.as_str() == "copy") =>
        {
            call.arguments.args.first()
        }
        Expr::Attribute(a) if METHODS.contains(&a.attr.as_str()) => Some(&a.value),
        _ => None,
    }
}

fn same(a: &str, b: &str, facts: &mut Vec<Fact>) {
    if a != b {
        facts.push(Fact::Same(a.to_string(), b.to_string()));
    }
}

fn contains(container: &str, item: &str, facts: &mut Vec<Fact>) {
    if container != item {
        facts.push(Fact::Contains {
            container: container.to_string(),
            item: item.to_string(),
        });
    }
}

/// The names whose objects `expr`'s value may be (`plain`: the name itself)
/// or hold (a path under the name, or an item of a display).
fn referred(expr: &Expr, out: &mut Vec<(String, bool)>) {
    if let Some(elements) = display_elements(expr) {
        for (element, _) in elements {
            referred(element, out);
        }
        return;
    }
    match expr {
        Expr::Name(name) => out.push((name.id.to_string(), true)),
        Expr::Attribute(_) | Expr::Subscript(_) => {
            if let Some(root) = path_root(expr) {
                out.push((root.to_string(), false));
            }
        }
        Expr::Starred(e) => referred(&e.value, out),
        Expr::If(e) => {
            referred(&e.body, out);
            referred(&e.orelse, out);
        }
        Expr::Named(e) => referred(&e.value, out),
        Expr::Call(call) => {
            if let Some(source) = shares_items(call) {
                let mut inner = Vec::new();
                referred(source, &mut inner);
                // A copy is another object holding the same items.
                out.extend(inner.into_iter().map(|(name, _)| (name, false)));
            }
        }
        _ => {}
    }
}

/// The aliases of each root symbol.
#[derive(Debug, Clone, Default)]
pub struct Aliases {
    /// Other names of the same object.
    same: IndexVec<SymId, Vec<SymId>>,
    /// Containers holding it (transitively).
    up: IndexVec<SymId, Vec<SymId>>,
    /// Objects it holds (transitively).
    down: IndexVec<SymId, Vec<SymId>>,
}

impl Aliases {
    /// Resolves the facts; `intern` gives a name's symbol.
    pub fn build(facts: &[Fact], mut intern: impl FnMut(&str) -> SymId) -> Aliases {
        let mut parent: IndexVec<SymId, SymId> = IndexVec::new();
        let mut elements: FxHashMap<SymId, Vec<SymId>> = FxHashMap::default();
        let mut same_pairs = Vec::new();
        let mut contains = Vec::new();
        for fact in facts {
            match fact {
                Fact::Same(a, b) => same_pairs.push((intern(a), intern(b))),
                Fact::Contains { container, item } => {
                    contains.push((intern(container), intern(item)));
                }
                Fact::Elements { container, items } => {
                    let c = intern(container);
                    let items: Vec<SymId> = items.iter().map(|i| intern(i)).collect();
                    elements.entry(c).or_default().extend(items);
                }
                Fact::Loop { target, iterable } => {
                    contains.push((intern(iterable), intern(target)));
                }
            }
        }
        for fact in facts {
            if let Fact::Loop { target, iterable } = fact
                && let Some(items) = elements.get(&intern(iterable))
            {
                let t = intern(target);
                same_pairs.extend(items.iter().map(|&i| (t, i)));
            }
        }
        for &(a, b) in &same_pairs {
            union(&mut parent, a, b);
        }
        for &(c, i) in &contains {
            find(&mut parent, c);
            find(&mut parent, i);
        }
        let n = parent.len();
        // The class of each symbol: the least symbol of its class.
        let classes: IndexVec<SymId, SymId> =
            parent.indices().map(|x| find(&mut parent, x)).collect();
        let empty = || IndexVec::<SymId, Vec<SymId>>::from_elem_n(Vec::new(), n);
        let mut members = empty();
        for (x, &class) in classes.iter_enumerated() {
            members[class].push(x);
        }
        // Containment between classes, closed transitively.
        let (mut holds, mut held_by) = (empty(), empty());
        for &(c, i) in &contains {
            let (c, i) = (classes[c], classes[i]);
            if c != i {
                holds[c].push(i);
                held_by[i].push(c);
            }
        }
        let reach = |edges: &IndexVec<SymId, Vec<SymId>>, from: SymId| -> Vec<SymId> {
            let mut seen: IndexVec<SymId, bool> = IndexVec::from_elem_n(false, n);
            let mut stack = vec![from];
            let mut out = Vec::new();
            while let Some(x) = stack.pop() {
                for &y in &edges[x] {
                    if y != from && !seen[y] {
                        seen[y] = true;
                        stack.push(y);
                        out.extend(members[y].iter().copied());
                    }
                }
            }
            out
        };
        let mut aliases = Aliases {
            same: empty(),
            up: empty(),
            down: empty(),
        };
        for (x, &class) in classes.iter_enumerated() {
            aliases.same[x] = members[class].iter().copied().filter(|&y| y != x).collect();
            if !holds[class].is_empty() {
                aliases.down[x] = reach(&holds, class);
            }
            if !held_by[class].is_empty() {
                aliases.up[x] = reach(&held_by, class);
            }
        }
        aliases
    }

    fn get(list: &IndexVec<SymId, Vec<SymId>>, root: SymId) -> &[SymId] {
        list.get(root).map_or(&[], |v| v.as_slice())
    }

    /// Other names of the same object as `root`.
    pub fn same(&self, root: SymId) -> &[SymId] {
        Self::get(&self.same, root)
    }

    /// Containers that may hold `root`'s object.
    pub fn containers(&self, root: SymId) -> &[SymId] {
        Self::get(&self.up, root)
    }

    /// Objects `root`'s object may hold.
    pub fn contents(&self, root: SymId) -> &[SymId] {
        Self::get(&self.down, root)
    }
}

/// The representative of `x`'s class in the union-find `parent` (every
/// symbol up to `x` starting as its own class).
fn find(parent: &mut IndexVec<SymId, SymId>, x: SymId) -> SymId {
    while parent.len() <= x.index() {
        let next = parent.next_index();
        parent.push(next);
    }
    let mut root = x;
    while parent[root] != root {
        root = parent[root];
    }
    let mut x = x;
    while parent[x] != root {
        let next = parent[x];
        parent[x] = root;
        x = next;
    }
    root
}

fn union(parent: &mut IndexVec<SymId, SymId>, a: SymId, b: SymId) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb)] = ra.min(rb);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_notebook::parse_python;

    fn facts(src: &str) -> Vec<Fact> {
        let parsed = parse_python(src);
        parsed.module.body.iter().flat_map(alias_facts).collect()
    }

    fn same(a: &str, b: &str) -> Fact {
        Fact::Same(a.into(), b.into())
    }

    fn holds(c: &str, i: &str) -> Fact {
        Fact::Contains {
            container: c.into(),
            item: i.into(),
        }
    }

    #[test]
    fn facts_of_statements() {
        assert_eq!(facts("b = a"), [same("b", "a")]);
        assert_eq!(facts("a, b = x, y"), [same("a", "x"), same("b", "y")]);
        assert_eq!(
            facts("full = [train, test]"),
            [
                holds("full", "train"),
                holds("full", "test"),
                Fact::Elements {
                    container: "full".into(),
                    items: vec!["train".into(), "test".into()]
                }
            ]
        );
        assert_eq!(
            facts("for d in full:\n    pass"),
            [Fact::Loop {
                target: "d".into(),
                iterable: "full".into()
            }]
        );
        assert_eq!(
            facts("for d in [a, b.c]:\n    pass"),
            [same("d", "a"), holds("b", "d")]
        );
        assert_eq!(facts("v = df.values"), [holds("df", "v")]);
        assert_eq!(facts("cfg['data'] = lst"), [holds("cfg", "lst")]);
        assert_eq!(facts("x = a if c else b"), [same("x", "a"), same("x", "b")]);
        assert_eq!(
            facts("k, v = pair"),
            [holds("pair", "k"), holds("pair", "v")]
        );
        // Calls make new objects; constants refer to none.
        assert!(facts("c = a.copy()\nn = 1\nb = f(a)").is_empty());
    }

    #[test]
    fn resolution() {
        let facts = facts("full = [train, test]\nfor d in full:\n    pass\nv = train.values\n");
        let mut names: Vec<String> = Vec::new();
        let aliases = Aliases::build(&facts, |name| match names.iter().position(|n| n == name) {
            Some(i) => SymId::from_usize(i),
            None => {
                names.push(name.to_string());
                SymId::from_usize(names.len() - 1)
            }
        });
        let named = |ids: &[SymId]| -> Vec<&str> {
            let mut v: Vec<&str> = ids.iter().map(|&i| names[i.index()].as_str()).collect();
            v.sort_unstable();
            v
        };
        let id =
            |name: &str| SymId::from_usize(names.iter().position(|n| n == name).expect("interned"));
        assert_eq!(named(aliases.same(id("d"))), ["test", "train"]);
        assert_eq!(named(aliases.containers(id("d"))), ["full"]);
        assert_eq!(
            named(aliases.contents(id("full"))),
            ["d", "test", "train", "v"]
        );
        assert_eq!(named(aliases.contents(id("train"))), ["v"]);
        assert!(aliases.same(id("full")).is_empty());
    }
}
