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
//!   and its iterable, `d['k'] = lst` and `obj.x = lst`;
//! - *copy*: `b = list(a)`, `b = copy.copy(a)` (a shallow copy: another
//!   object holding `a`'s items). It counts as `a` containing `b` (a change
//!   inside `b`'s items is a change inside `a`'s), but `a` does not hold
//!   `b`'s object: appending to `b` leaves `a` alone ([`Aliases::holders`]);
//! - *slice*: `b = a[1:]`, a part of `a` here (of an array or a frame it is
//!   a view); a user that knows `a` is a list may read it as a copy.
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
    /// `copy` is a shallow copy of `source`: another object holding the
    /// same items.
    Copy { copy: String, source: String },
    /// `part = source[i:j]`: a shallow copy of a list, a view of an array
    /// or a frame (which the facts cannot tell apart); resolved as a part.
    Slice { part: String, source: String },
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
            let copied = !display && shallow_copy(value);
            let sliced = matches!(value, Expr::Subscript(s) if matches!(&*s.slice, Expr::Slice(_)));
            for (source, plain) in &sources {
                match (display, plain) {
                    (false, true) => same(name, source, facts),
                    (false, false) if copied && name != source => facts.push(Fact::Copy {
                        copy: name.to_string(),
                        source: source.clone(),
                    }),
                    (false, false) if sliced && name != source => facts.push(Fact::Slice {
                        part: name.to_string(),
                        source: source.clone(),
                    }),
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

/// Builtins (and `copy.copy`) making a new container of their argument's
/// items.
const COPIES: &[&str] = &[
    "list",
    "tuple",
    "set",
    "frozenset",
    "dict",
    "sorted",
    "copy",
];

/// Calls whose value holds the objects its argument (or receiver) holds:
/// shallow copies and views (`list(xs)`, `copy.copy(d)`, `d.items()`,
/// `enumerate(xs)`). Not `x.copy()`: pandas and numpy copy deeply, and a
/// copy made to be changed apart is the common case.
fn shares_items(call: &ruff_python_ast::ExprCall) -> Option<&Expr> {
    /// Builtins making a view or an iterator of their argument's items.
    const VIEWS: &[&str] = &["reversed", "iter", "enumerate", "zip"];
    const METHODS: &[&str] = &["items", "values", "keys"];
    match &*call.func {
        Expr::Name(f) if COPIES.contains(&f.id.as_str()) || VIEWS.contains(&f.id.as_str()) => {
            call.arguments.args.first()
        }
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

/// A call making a new container of its argument's items (`list(xs)`,
/// `copy.copy(d)`, `sorted(xs)`), not a view or an iterator of them.
fn shallow_copy(value: &Expr) -> bool {
    let Expr::Call(call) = value else {
        return false;
    };
    shares_items(call).is_some()
        && match &*call.func {
            Expr::Name(f) => COPIES.contains(&f.id.as_str()),
            Expr::Attribute(a) => a.attr.as_str() == "copy",
            _ => false,
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
    /// Containers holding its object itself (transitively, not through a
    /// shallow copy's source).
    holders: IndexVec<SymId, Vec<SymId>>,
}

impl Aliases {
    /// Resolves the facts; `intern` gives a name's symbol.
    pub fn build(facts: &[Fact], mut intern: impl FnMut(&str) -> SymId) -> Aliases {
        let mut parent: IndexVec<SymId, SymId> = IndexVec::new();
        let mut elements: FxHashMap<SymId, Vec<SymId>> = FxHashMap::default();
        let mut same_pairs = Vec::new();
        let mut contains = Vec::new();
        let mut copies = Vec::new();
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
                Fact::Slice { part, source } => {
                    contains.push((intern(source), intern(part)));
                }
                Fact::Copy { copy, source } => {
                    let (c, s) = (intern(copy), intern(source));
                    contains.push((s, c));
                    copies.push((s, c));
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
        let (mut holds, mut held_by, mut held_itself) = (empty(), empty(), empty());
        for &(c, i) in &contains {
            let (c, i) = (classes[c], classes[i]);
            if c != i {
                holds[c].push(i);
                held_by[i].push(c);
            }
        }
        for &(c, i) in &contains {
            let (c, i) = (classes[c], classes[i]);
            let copy = copies
                .iter()
                .any(|&(s, k)| classes[s] == c && classes[k] == i);
            if c != i && !copy {
                held_itself[i].push(c);
            }
        }
        // Every class reached from `from` by a first step along `first`,
        // then along `edges`.
        let reach = |edges: &IndexVec<SymId, Vec<SymId>>, from: SymId, first: &[SymId]| {
            let mut seen: IndexVec<SymId, bool> = IndexVec::from_elem_n(false, n);
            let mut stack = Vec::new();
            let mut out = Vec::new();
            let mut visit = |y: SymId, stack: &mut Vec<SymId>, out: &mut Vec<SymId>| {
                if y != from && !seen[y] {
                    seen[y] = true;
                    stack.push(y);
                    out.extend(members[y].iter().copied());
                }
            };
            for &y in first {
                visit(y, &mut stack, &mut out);
            }
            while let Some(x) = stack.pop() {
                for &y in &edges[x] {
                    visit(y, &mut stack, &mut out);
                }
            }
            out
        };
        let mut aliases = Aliases {
            same: empty(),
            up: empty(),
            down: empty(),
            holders: empty(),
        };
        for (x, &class) in classes.iter_enumerated() {
            aliases.same[x] = members[class].iter().copied().filter(|&y| y != x).collect();
            if !holds[class].is_empty() {
                aliases.down[x] = reach(&holds, class, &holds[class]);
            }
            if !held_by[class].is_empty() {
                aliases.up[x] = reach(&held_by, class, &held_by[class]);
            }
            if !held_itself[class].is_empty() {
                aliases.holders[x] = reach(&held_by, class, &held_itself[class]);
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

    /// Containers that may hold `root`'s object itself: its
    /// [`containers`](Aliases::containers) but the sources it is a shallow
    /// copy of (which hold its items, not it).
    pub fn holders(&self, root: SymId) -> &[SymId] {
        Self::get(&self.holders, root)
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

    /// The aliases of `src`'s facts, with the names interned in order.
    struct Built {
        aliases: Aliases,
        names: Vec<String>,
    }

    impl Built {
        fn of(src: &str) -> Built {
            let mut names: Vec<String> = Vec::new();
            let aliases = Aliases::build(&facts(src), |name| {
                match names.iter().position(|n| n == name) {
                    Some(i) => SymId::from_usize(i),
                    None => {
                        names.push(name.to_string());
                        SymId::from_usize(names.len() - 1)
                    }
                }
            });
            Built { aliases, names }
        }

        fn id(&self, name: &str) -> SymId {
            SymId::from_usize(self.names.iter().position(|n| n == name).expect("interned"))
        }

        /// The names of `ids`, sorted.
        fn named(&self, ids: &[SymId]) -> Vec<&str> {
            let mut v: Vec<&str> = ids
                .iter()
                .map(|&i| self.names[i.index()].as_str())
                .collect();
            v.sort_unstable();
            v
        }
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
        // Shallow copies hold the same items; views are parts.
        let copy = |c: &str, s: &str| Fact::Copy {
            copy: c.into(),
            source: s.into(),
        };
        assert_eq!(facts("b = list(a)"), [copy("b", "a")]);
        assert_eq!(facts("import copy\nb = copy.copy(a)"), [copy("b", "a")]);
        assert_eq!(facts("it = d.items()"), [holds("d", "it")]);
        assert_eq!(
            facts("b = a[1:]"),
            [Fact::Slice {
                part: "b".into(),
                source: "a".into()
            }]
        );
    }

    #[test]
    fn resolution() {
        let built = Built::of("full = [train, test]\nfor d in full:\n    pass\nv = train.values\n");
        let (aliases, named, id) = (&built.aliases, |ids| built.named(ids), |n| built.id(n));
        assert_eq!(named(aliases.same(id("d"))), ["test", "train"]);
        assert_eq!(named(aliases.containers(id("d"))), ["full"]);
        assert_eq!(
            named(aliases.contents(id("full"))),
            ["d", "test", "train", "v"]
        );
        assert_eq!(named(aliases.contents(id("train"))), ["v"]);
        assert!(aliases.same(id("full")).is_empty());
        assert_eq!(named(aliases.holders(id("d"))), ["full"]);
    }

    #[test]
    fn a_shallow_copy_holds_the_items_not_the_object() {
        let built = Built::of("b = list(a)\nrow = b[0]\n");
        let (aliases, named, id) = (&built.aliases, |ids| built.named(ids), |n| built.id(n));
        assert_eq!(named(aliases.containers(id("b"))), ["a"]);
        assert!(aliases.holders(id("b")).is_empty());
        // `a` holds `b`'s items: `row` too.
        assert_eq!(named(aliases.holders(id("row"))), ["a", "b"]);
        assert_eq!(named(aliases.containers(id("row"))), ["a", "b"]);
    }
}
