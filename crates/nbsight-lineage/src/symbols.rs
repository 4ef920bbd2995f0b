//! The symbol graph of a live kernel (nbsafety §3): every symbol the traced
//! runs touched (`x`, `obj.attr`, `lst[3]`, `d['k']`), nested in the symbol
//! that contains it, with the time it was last set, the symbols its value
//! was computed from (its parents) and the execution that set it.
//!
//! Element granularity: setting `lst[1]` changes `lst[1]` and, for a reader
//! of `lst` as a whole, `lst`; a reader of `lst[2]` sees only `lst[2]` and
//! the bindings of the paths above it (`lst` rebound). That is what
//! [`SymbolGraph::visible_ts`] computes.

use compact_str::CompactString;
use nbsight_dataflow::symbol::{Symbol, parent};
use rustc_hash::FxHashMap;

/// An execution counter: when something happened (0: before any traced run).
pub type Ts = u32;

/// The index of an execution in the session's log.
pub type ExecIdx = u32;

/// A symbol's id in its [`SymbolGraph`] (the live graph's; a static
/// cell's symbol table has its own, `nbsight_dataflow::symbol::SymId`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GraphSym(u32);

impl GraphSym {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// How a value was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Read {
    pub sym: GraphSym,
    /// The value as a whole (`lst`), not only its binding on the way to a
    /// nested path (`lst` in `lst[2]`).
    pub whole: bool,
    /// The reading statement also changed the object it read (`x =
    /// rng.integers(5)`, `a = next(it)`): it drew from its state, so later
    /// draws do not make what it computed stale; rebinding the name does.
    pub drawn: bool,
    /// Some of its elements, at indices known only at run time (`lst[i]`):
    /// elements added at the end (`append`) are not among them.
    pub elements: bool,
}

impl Read {
    pub fn new(sym: GraphSym, whole: bool) -> Read {
        Read {
            sym,
            whole,
            drawn: false,
            elements: false,
        }
    }
}

/// The free globals a user function reads and writes when called.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FunctionFacts {
    pub reads: Vec<Symbol>,
    pub writes: Vec<Symbol>,
    pub mutates: Vec<Symbol>,
    /// Those of `reads` its result is computed from (`returns.rs`); `None`:
    /// all of them.
    pub value_reads: Option<Vec<Symbol>>,
    /// `__init__`: each attribute it sets on the object with those of
    /// `reads` its value is computed from (`None`: not known attribute by
    /// attribute).
    pub attributes: Option<Vec<(String, Vec<Symbol>)>>,
    /// Its result is a display on every return (`return a, b`): those of
    /// `reads` each element is computed from.
    pub elements: Option<Vec<Vec<Symbol>>>,
}

impl FunctionFacts {
    /// The facts of a function the static analysis summarized (what it
    /// may change in place counts as a change).
    pub fn of_summary(summary: &nbsight_dataflow::FunctionSummary) -> FunctionFacts {
        let strings =
            |set: &nbsight_dataflow::SymbolSet| -> Vec<Symbol> { set.iter().cloned().collect() };
        let mut mutates = strings(&summary.mutates);
        mutates.extend(strings(&summary.may_mutate));
        FunctionFacts {
            reads: strings(&summary.reads),
            writes: strings(&summary.writes),
            mutates,
            ..FunctionFacts::default()
        }
    }
}

/// One symbol.
#[derive(Debug, Clone)]
pub struct Node {
    pub path: Symbol,
    /// The symbol it is nested in (`lst` for `lst[3]`).
    pub container: Option<GraphSym>,
    pub children: Vec<GraphSym>,
    /// When it was last set (bound, or changed in place as a whole).
    pub ts: Ts,
    /// When it was last bound (not counting changes in place).
    pub bound_ts: Ts,
    /// When its object last grew or lost elements without the others
    /// changing (`append`, `pop()`): only a reader of it as a whole sees it.
    pub grown_ts: Ts,
    /// It was bound by a `def` or `class` statement: reading it reads the
    /// binding (what calling it reads comes from `function`), not the state
    /// of its attributes.
    pub definition: bool,
    /// When it was last computed again to the object it already had
    /// (`y = 7` run again): its lineage is as of then, its value unchanged.
    pub checked_ts: Ts,
    /// It was bound by an `import`: a call of one of its functions does not
    /// change the module.
    pub module: bool,
    /// It was bound to a display (`[x, y]`, `{'k': v}`) whose elements
    /// carry what they were computed from: its value is theirs.
    pub composite: bool,
    /// What its value was computed from.
    pub parents: Vec<Read>,
    /// The execution that last set it (bound it, or changed it in place as
    /// a whole).
    pub set_by: Option<ExecIdx>,
    /// The execution that last changed it (`grown_ts`).
    pub grown_by: Option<ExecIdx>,
    /// It is bound in the kernel (not deleted, not replaced with its
    /// container).
    pub exists: bool,
    /// It is bound to a user function: what calling it reads and writes.
    pub function: Option<FunctionFacts>,
    /// Its latest change, when an update of its own value (in place as a
    /// whole, `lst[1:2] = foo`, `lst += foo`, or bound to a value computed
    /// from the old one, `x = x[inds]`): the time of the change before it
    /// and the symbols it read. What one of those was computed from this
    /// object is not stale through that change (ipyflow's exemption for
    /// the update of one's own parent).
    pub update: Option<(Ts, Vec<GraphSym>)>,
    /// Bound to an instance of the class bound to this symbol (`foo =
    /// Foo()`): an attribute it has no symbol of its own for is read from
    /// the class.
    pub instance_of: Option<GraphSym>,
}

impl Node {
    /// The execution that last changed it, as a whole or in part.
    pub fn changed_by(&self) -> Option<ExecIdx> {
        // Whatever set it changed it too: `grown_by` is never older.
        self.grown_by.or(self.set_by)
    }

    /// When its value last changed, as a whole or in part, or was last
    /// computed again (what its parents are compared with).
    pub fn changed_ts(&self) -> Ts {
        self.ts.max(self.grown_ts).max(self.checked_ts)
    }
}

/// Every symbol of a session.
#[derive(Debug, Clone, Default)]
pub struct SymbolGraph {
    ids: FxHashMap<CompactString, GraphSym>,
    nodes: Vec<Node>,
    /// How a frame's column attributes are spelled (`df.col` is
    /// `df['col']`).
    pub(crate) frames: crate::columns::Frames,
    /// Paths nested in a container that hold the object a name is bound
    /// to (`holder['k']` after `holder = {'k': lst}`).
    shares: Vec<Share>,
}

/// `element` holds the object bound to `object`, as long as neither was
/// bound again since (nbsafety's alias registry, for paths inside
/// containers): a change of that object through either is a change of
/// both; or, for a `member`, `element` is a container that holds it among
/// others (`lst.append(x)`): a change of the object changes the container,
/// not the other way.
#[derive(Debug, Clone, Copy)]
struct Share {
    element: GraphSym,
    element_bound: Ts,
    object: GraphSym,
    object_bound: Ts,
    member: bool,
}

/// How many shares the graph keeps (the oldest go first).
const MAX_SHARES: usize = 4096;

impl SymbolGraph {
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, sym: GraphSym) -> &Node {
        &self.nodes[sym.index()]
    }

    pub fn get(&self, path: &str) -> Option<GraphSym> {
        self.ids.get(&*self.frames.canonical(path)).copied()
    }

    pub fn ids(&self) -> impl Iterator<Item = GraphSym> + '_ {
        (0..self.nodes.len() as u32).map(GraphSym)
    }

    /// The id of `path`, creating it (and the paths it is nested in) when
    /// new.
    pub fn intern(&mut self, path: &str) -> GraphSym {
        if let Some(&id) = self.ids.get(path) {
            return id;
        }
        if let std::borrow::Cow::Owned(canonical) = self.frames.canonical(path) {
            return self.intern(&canonical);
        }
        let container = parent(path).map(|p| self.intern(p));
        let id = GraphSym(self.nodes.len() as u32);
        self.nodes.push(Node {
            path: Symbol::from(path),
            container,
            children: Vec::new(),
            ts: 0,
            bound_ts: 0,
            grown_ts: 0,
            checked_ts: 0,
            definition: false,
            module: false,
            composite: false,
            parents: Vec::new(),
            set_by: None,
            grown_by: None,
            exists: false,
            function: None,
            update: None,
            instance_of: None,
        });
        if let Some(c) = container {
            self.nodes[c.index()].children.push(id);
        }
        self.ids.insert(CompactString::from(path), id);
        id
    }

    /// `element` (a path inside a container, just bound) holds the object
    /// bound to `object` (`holder = {'k': lst}`).
    pub fn share(&mut self, element: GraphSym, object: GraphSym) {
        self.add_share(element, object, false);
    }

    /// The container at `container` holds the object bound to `member`
    /// (`lst.append(x)`, `for foo in lst`).
    pub fn hold(&mut self, container: GraphSym, member: GraphSym) {
        self.add_share(container, member, true);
    }

    fn add_share(&mut self, element: GraphSym, object: GraphSym, member: bool) {
        let bound = |s: GraphSym| self.nodes[s.index()].bound_ts;
        let share = Share {
            element,
            element_bound: bound(element),
            object,
            object_bound: bound(object),
            member,
        };
        let mut shares = std::mem::take(&mut self.shares);
        shares.retain(|s| {
            let replaced = if member {
                s.member && (s.element, s.object) == (element, object)
            } else {
                !s.member && s.element == element
            };
            !replaced && self.valid(s)
        });
        if shares.len() >= MAX_SHARES {
            shares.remove(0);
        }
        shares.push(share);
        self.shares = shares;
    }

    fn valid(&self, share: &Share) -> bool {
        let holds = |s: GraphSym, bound: Ts| {
            let node = &self.nodes[s.index()];
            node.exists && node.bound_ts == bound
        };
        holds(share.element, share.element_bound) && holds(share.object, share.object_bound)
    }

    /// What a change of the object at `sym` in place changes too: the other
    /// paths that hold it (a path inside a container sharing it, or the
    /// name it shares) and the containers it is a member of.
    /// Each with `true` for a container it is a member of.
    pub fn sharing(&self, sym: GraphSym) -> Vec<(GraphSym, bool)> {
        self.shares
            .iter()
            .filter(|s| self.valid(s))
            .filter_map(|s| {
                if s.object == sym {
                    Some((s.element, s.member))
                } else if s.element == sym && !s.member {
                    Some((s.object, false))
                } else {
                    None
                }
            })
            .collect()
    }

    /// `sym` was bound to an instance of the class bound to `class`.
    pub fn set_instance(&mut self, sym: GraphSym, class: GraphSym) {
        self.nodes[sym.index()].instance_of = Some(class);
    }

    /// The class attribute an attribute path of an instance reads when the
    /// object has no symbol of its own for it (`foo.shared` is
    /// `Foo.shared` after `foo = Foo()`, until `foo.shared` is set).
    pub fn class_attribute(&self, path: &str) -> Option<GraphSym> {
        let name = nbsight_dataflow::symbol::root(path);
        let rest = &path[name.len()..];
        if !rest.starts_with('.') || self.get(path).is_some_and(|s| self.nodes[s.index()].exists) {
            return None;
        }
        let class = self.nodes[self.get(name)?.index()].instance_of?;
        let class = &self.nodes[class.index()];
        if !class.exists {
            return None;
        }
        self.get(&format!("{}{rest}", class.path))
            .filter(|s| self.nodes[s.index()].exists)
    }

    /// The symbol of `path`, or of the nearest path above it that the graph
    /// knows.
    pub fn known_prefix(&self, path: &str) -> Option<GraphSym> {
        if let Some(sym) = self.class_attribute(path) {
            return Some(sym);
        }
        let mut at = Some(path);
        while let Some(p) = at {
            if let Some(sym) = self.get(p) {
                return Some(sym);
            }
            at = nbsight_dataflow::symbol::parent(p);
        }
        None
    }

    /// Does `sym` name a value now: it is bound, or a path it is nested in
    /// is (`df.x`, an attribute never set by a cell, of a bound `df`)?
    pub fn reachable(&self, sym: GraphSym) -> bool {
        self.prefixes(sym).any(|s| self.node(s).exists)
    }

    /// `sym` and the symbols it is nested in, innermost first.
    pub fn prefixes(&self, sym: GraphSym) -> impl Iterator<Item = GraphSym> + '_ {
        std::iter::successors(Some(sym), |s| self.nodes[s.index()].container)
    }

    /// The symbols nested in `sym`, at any depth (not `sym` itself).
    pub fn descendants(&self, sym: GraphSym) -> Vec<GraphSym> {
        let mut out = Vec::new();
        let mut stack: Vec<GraphSym> = self.nodes[sym.index()].children.clone();
        while let Some(s) = stack.pop() {
            out.push(s);
            stack.extend(self.nodes[s.index()].children.iter().copied());
        }
        out
    }

    /// Binds `sym` to a new value computed from `parents` at `ts`: what was
    /// nested in the old value is gone.
    pub fn set(&mut self, sym: GraphSym, ts: Ts, parents: Vec<Read>, by: ExecIdx) {
        for d in self.descendants(sym) {
            let node = &mut self.nodes[d.index()];
            node.exists = false;
            node.parents.clear();
            node.function = None;
        }
        self.mark_containers(sym);
        let node = &mut self.nodes[sym.index()];
        node.ts = ts;
        node.bound_ts = ts;
        node.grown_ts = ts;
        node.parents = parents;
        node.set_by = Some(by);
        node.grown_by = Some(by);
        node.exists = true;
        node.function = None;
        node.definition = false;
        node.composite = false;
        node.module = false;
        node.update = None;
        node.instance_of = None;
    }

    /// `sym` was bound by an `import`.
    pub fn set_module(&mut self, sym: GraphSym) {
        self.nodes[sym.index()].module = true;
    }

    /// `sym` was bound to a display whose elements have their own symbols.
    pub fn set_composite(&mut self, sym: GraphSym) {
        self.nodes[sym.index()].composite = true;
    }

    /// What the value of `sym` was computed from: its parents, and for a
    /// display, its elements' (a container made of them).
    pub fn lineage_parents(&self, sym: GraphSym) -> Vec<Read> {
        let node = self.node(sym);
        let mut parents = node.parents.clone();
        if node.composite {
            for &c in &node.children {
                if self.node(c).exists {
                    for p in &self.node(c).parents {
                        if !parents.iter().any(|q| q.sym == p.sym)
                            && !self.prefixes(p.sym).any(|x| x == sym)
                        {
                            parents.push(*p);
                        }
                    }
                }
            }
        }
        parents
    }

    /// `sym` was computed again at `ts` from `parents` and bound to the
    /// object it already had: its value did not change (what was computed
    /// from it stays valid), its lineage is the new one.
    pub fn recheck(&mut self, sym: GraphSym, ts: Ts, parents: Vec<Read>, by: ExecIdx) {
        let node = &mut self.nodes[sym.index()];
        node.checked_ts = ts;
        node.parents = parents;
        node.set_by = Some(by);
        // Its value is the one bound again here, unless it changed in
        // place after its binding.
        if node.grown_ts <= node.bound_ts {
            node.grown_by = Some(by);
        }
    }

    /// `sym` was bound by a `def` or `class` statement.
    pub fn set_definition(&mut self, sym: GraphSym) {
        self.nodes[sym.index()].definition = true;
    }

    /// Changes the object at `sym` in place at `ts`, with `parents` adding
    /// to what its value depends on: what is nested in it is part of the
    /// changed object and is set at `ts` too (a reader of an element
    /// computed before sees a newer value; the element itself is not stale
    /// by its container's change). Its own paths and those it is nested in
    /// never become its parents.
    pub fn mutate(&mut self, sym: GraphSym, ts: Ts, parents: &[Read], by: ExecIdx) {
        for d in self.descendants(sym) {
            let node = &mut self.nodes[d.index()];
            if node.exists {
                node.ts = ts;
                node.grown_ts = ts;
                node.grown_by = Some(by);
            }
        }
        let before = self.nodes[sym.index()].changed_ts();
        self.grow(sym, ts, parents, by);
        let node = &mut self.nodes[sym.index()];
        node.ts = ts;
        node.set_by = Some(by);
        node.update = Some((before, parents.iter().map(|p| p.sym).collect()));
    }

    /// `sym`, just bound, was computed from its own old value, last changed
    /// at `before`, and from `parents` (`x = x[inds]`): an update of its
    /// value, as a change in place is.
    pub fn set_update(&mut self, sym: GraphSym, before: Ts, parents: &[Read]) {
        self.nodes[sym.index()].update = Some((before, parents.iter().map(|p| p.sym).collect()));
    }

    /// Is what a reader of `read` sees newer than `since` only through an
    /// update of the read path's own value that read `sym` itself, with no
    /// other change since `since`?
    pub fn updated_using(&self, read: Read, sym: GraphSym, since: Ts) -> bool {
        let node = self.node(read.sym);
        node.ts == self.visible_ts(read)
            && node
                .update
                .as_ref()
                .is_some_and(|(before, used)| *before <= since && used.contains(&sym))
    }

    /// The object at `sym` gained or lost elements at `ts` while the others
    /// kept their values: a reader of it as a whole sees the change, a
    /// reader of one of its elements does not.
    pub fn grow(&mut self, sym: GraphSym, ts: Ts, parents: &[Read], by: ExecIdx) {
        self.mark_containers(sym);
        let own: Vec<GraphSym> = self.prefixes(sym).chain(self.descendants(sym)).collect();
        let node = &mut self.nodes[sym.index()];
        node.grown_ts = ts;
        for p in parents {
            if !own.contains(&p.sym) && !node.parents.iter().any(|q| q.sym == p.sym) {
                node.parents.push(*p);
            }
        }
        node.grown_by = Some(by);
        node.exists = true;
    }

    /// Elements of `sym` moved at `ts` (NBSlicer's list handlers, seed 004
    /// Fig. 3): `insert(i, v)` (`delta` 1) moves the elements from index
    /// `from` on up one place and makes a new one at `from`; `pop(i)` and
    /// `del lst[i]` (`delta` -1) drop the element at `from` and move the
    /// later ones down. A moved element keeps its symbol (its lineage goes
    /// with it) and is updated at `ts`: what was computed from it is stale,
    /// a reader of an index sees what is there now, and the elements before
    /// `from` are untouched. An unknown or negative index changes the object
    /// as a whole.
    pub fn shift(
        &mut self,
        sym: GraphSym,
        from: Option<i64>,
        delta: i64,
        ts: Ts,
        parents: &[Read],
        by: ExecIdx,
    ) {
        let Some(from) = from.filter(|&i| i >= 0) else {
            self.mutate(sym, ts, parents, by);
            return;
        };
        let path = self.nodes[sym.index()].path.clone();
        let index_of = |graph: &SymbolGraph, c: GraphSym| -> Option<i64> {
            graph.nodes[c.index()]
                .path
                .strip_prefix(path.as_str())?
                .strip_prefix('[')?
                .strip_suffix(']')?
                .parse::<i64>()
                .ok()
        };
        let mut elements: Vec<(i64, GraphSym)> = self.nodes[sym.index()]
            .children
            .iter()
            .filter_map(|&c| index_of(self, c).map(|i| (i, c)))
            .collect();
        // Negative indices count from the end: what they name changed.
        for &(i, c) in &elements {
            if i < 0 {
                self.touch_subtree(c, ts, by);
            }
        }
        elements.retain(|&(i, _)| i >= from);
        if delta < 0 {
            // The dropped element's symbol leaves the container.
            if let Some(&(_, dropped)) = elements.iter().find(|&&(i, _)| i == from) {
                self.detach(dropped);
            }
            elements.retain(|&(i, _)| i != from);
            elements.sort_unstable();
        } else {
            elements.sort_unstable_by(|a, b| b.cmp(a));
        }
        for (i, c) in elements {
            let new_path = Symbol::from(format!("{path}[{}]", i + delta));
            self.rename(c, &new_path);
            // A value computed from an element that moved is stale, as
            // ipyflow (NBSlicer's implementation) has it: re-running its
            // cell would read another element.
            self.touch_subtree(c, ts, by);
        }
        if delta > 0 {
            let inserted = self.intern(&format!("{path}[{from}]"));
            self.set(inserted, ts, parents.to_vec(), by);
        }
        self.grow(sym, ts, parents, by);
    }

    /// `sym` and what is nested in it changed at `ts`.
    fn touch_subtree(&mut self, sym: GraphSym, ts: Ts, by: ExecIdx) {
        for d in std::iter::once(sym).chain(self.descendants(sym)) {
            let node = &mut self.nodes[d.index()];
            if node.exists {
                node.ts = ts;
                node.grown_ts = ts;
                node.grown_by = Some(by);
            }
        }
    }

    /// Takes `sym` (and what is nested in it) out of its container: it is
    /// no longer bound and no path names it.
    fn detach(&mut self, sym: GraphSym) {
        self.delete(sym);
        for d in std::iter::once(sym).chain(self.descendants(sym)) {
            let path = self.nodes[d.index()].path.clone();
            if self.ids.get(path.as_str()) == Some(&d) {
                self.ids.remove(path.as_str());
            }
        }
        if let Some(c) = self.nodes[sym.index()].container {
            self.nodes[c.index()].children.retain(|&x| x != sym);
        }
    }

    /// Moves the symbol `sym` (and what is nested in it) to `new_path`, a
    /// sibling path: the symbol stays the same, only its name changes.
    fn rename(&mut self, sym: GraphSym, new_path: &str) {
        let old_path = self.nodes[sym.index()].path.clone();
        for d in std::iter::once(sym).chain(self.descendants(sym)) {
            let path = self.nodes[d.index()].path.clone();
            if self.ids.get(path.as_str()) == Some(&d) {
                self.ids.remove(path.as_str());
            }
            let renamed = Symbol::from(format!("{new_path}{}", &path[old_path.len()..]));
            self.nodes[d.index()].path = renamed.clone();
            // A symbol already at the new path (never bound, or moved
            // away) is left without a name.
            if let Some(&other) = self.ids.get(renamed.as_str())
                && let Some(c) = self.nodes[other.index()].container
            {
                self.nodes[c.index()].children.retain(|&x| x != other);
            }
            self.ids.insert(CompactString::from(renamed.as_str()), d);
        }
    }

    /// Unbinds `sym` and everything nested in it.
    pub fn delete(&mut self, sym: GraphSym) {
        for d in std::iter::once(sym).chain(self.descendants(sym)) {
            let node = &mut self.nodes[d.index()];
            node.exists = false;
            node.parents.clear();
            node.function = None;
        }
    }

    /// A path set inside a container means the container exists.
    fn mark_containers(&mut self, sym: GraphSym) {
        let mut c = self.nodes[sym.index()].container;
        while let Some(s) = c {
            self.nodes[s.index()].exists = true;
            c = self.nodes[s.index()].container;
        }
    }

    pub fn set_function(&mut self, sym: GraphSym, facts: FunctionFacts) {
        self.nodes[sym.index()].function = Some(facts);
    }

    /// The newest time a reader of `read` sees: the bindings of the paths
    /// it is nested in and its own; for a whole read, also the changes in
    /// place of those paths, its own growth and everything nested in it. A
    /// read that only goes through a path (`lst` in `lst[2] = v`), or one
    /// that drew from the object (`next(it)`), sees the bindings alone.
    pub fn visible_ts(&self, read: Read) -> Ts {
        if read.drawn || !read.whole {
            return self
                .prefixes(read.sym)
                .map(|s| self.node(s).bound_ts)
                .max()
                .unwrap_or(0);
        }
        let mut ts = self.prefixes(read.sym).map(|s| self.node(s).ts).max();
        if !read.elements {
            ts = ts.max(Some(self.node(read.sym).grown_ts));
        }
        ts = ts.max(
            self.descendants(read.sym)
                .iter()
                .map(|s| self.node(*s).ts.max(self.node(*s).grown_ts))
                .max(),
        );
        ts.unwrap_or(0)
    }

    /// The node whose time [`SymbolGraph::visible_ts`] reports (the newest).
    pub fn newest(&self, read: Read) -> GraphSym {
        let time = |s: GraphSym| {
            let node = self.node(s);
            if read.drawn || !read.whole {
                node.bound_ts
            } else if (s == read.sym && !read.elements) || !self.prefixes(read.sym).any(|p| p == s)
            {
                node.ts.max(node.grown_ts)
            } else {
                node.ts
            }
        };
        let mut best = read.sym;
        let mut candidates: Vec<GraphSym> = self.prefixes(read.sym).collect();
        if read.whole && !read.drawn {
            candidates.extend(self.descendants(read.sym));
        }
        for c in candidates {
            if time(c) > time(best) {
                best = c;
            }
        }
        best
    }
}

/// Which symbols are stale, computed once per state of the graph
/// (nbsafety Definition 3, at element granularity): a symbol is stale when
/// a value it was computed from was set after it, or is stale itself.
#[derive(Debug, Clone)]
pub(crate) struct Staleness {
    /// Per node: 0 unknown, 1 in progress, 2 fresh, 3 stale.
    state: Vec<u8>,
    /// Per node: something nested in it (not itself) is stale: 0 unknown,
    /// 1 in progress, 2 no, 3 yes.
    nested: Vec<u8>,
}

impl Staleness {
    pub(crate) fn compute(graph: &SymbolGraph) -> Staleness {
        let n = graph.len();
        let mut s = Staleness {
            state: vec![0; n],
            nested: vec![0; n],
        };
        for id in graph.ids() {
            s.node_stale(graph, id);
        }
        for id in graph.ids() {
            s.nested_stale(graph, id);
        }
        s
    }

    /// Is the node itself stale?
    pub(crate) fn is_stale(&self, sym: GraphSym) -> bool {
        self.state.get(sym.index()) == Some(&3)
    }

    /// Is the value at `sym` stale, as people are told: the node itself,
    /// or, for a display, one of its elements.
    pub(crate) fn value_is_stale(&self, graph: &SymbolGraph, sym: GraphSym) -> bool {
        self.is_stale(sym)
            || (graph.node(sym).composite && self.nested.get(sym.index()) == Some(&3))
    }

    /// Would reading `read` read a stale value: is a path it is nested in,
    /// itself, or (for a whole read) something nested in it stale?
    pub(crate) fn read_is_stale(&self, graph: &SymbolGraph, read: Read) -> bool {
        graph.prefixes(read.sym).any(|s| self.is_stale(s))
            || (read.whole && self.nested.get(read.sym.index()) == Some(&3))
    }

    fn node_stale(&mut self, graph: &SymbolGraph, sym: GraphSym) -> bool {
        match self.state[sym.index()] {
            2 => return false,
            3 => return true,
            1 => return false,
            _ => {}
        }
        self.state[sym.index()] = 1;
        let node = graph.node(sym);
        let mut stale = false;
        if node.exists {
            for &p in &node.parents {
                if p.sym == sym || !graph.reachable(p.sym) {
                    continue;
                }
                if graph.visible_ts(p) > node.changed_ts()
                    && !graph.updated_using(p, sym, node.changed_ts())
                {
                    stale = true;
                    break;
                }
                // A parent made stale only by this symbol's own later
                // change (`b = f(a)`, then `a` changed in place) does not
                // make it stale.
                if self.read_stale_now(graph, p) && !self.stale_only_through(graph, p, sym) {
                    stale = true;
                    break;
                }
            }
        }
        self.state[sym.index()] = if stale { 3 } else { 2 };
        stale
    }

    /// Is `read` stale only because `through` was set after the values it
    /// reads were computed from it?
    fn stale_only_through(&mut self, graph: &SymbolGraph, read: Read, through: GraphSym) -> bool {
        let prefixes: Vec<GraphSym> = graph.prefixes(read.sym).collect();
        let mut nodes = prefixes;
        if read.whole {
            nodes.extend(graph.descendants(read.sym));
        }
        for n in nodes {
            if !self.is_stale(n) {
                continue;
            }
            let node = graph.node(n);
            for &q in &node.parents {
                if q.sym == n || !graph.reachable(q.sym) {
                    continue;
                }
                let via_through = graph.prefixes(q.sym).any(|s| s == through);
                if via_through {
                    continue;
                }
                if graph.visible_ts(q) > node.changed_ts() || self.read_stale_now(graph, q) {
                    return false;
                }
            }
        }
        true
    }

    fn read_stale_now(&mut self, graph: &SymbolGraph, read: Read) -> bool {
        let prefixes: Vec<GraphSym> = graph.prefixes(read.sym).collect();
        if prefixes.into_iter().any(|s| self.node_stale(graph, s)) {
            return true;
        }
        read.whole && self.nested_stale(graph, read.sym)
    }

    fn nested_stale(&mut self, graph: &SymbolGraph, sym: GraphSym) -> bool {
        match self.nested[sym.index()] {
            2 | 1 => return false,
            3 => return true,
            _ => {}
        }
        self.nested[sym.index()] = 1;
        let children = graph.node(sym).children.clone();
        let stale = children.into_iter().any(|c| {
            graph.node(c).exists && (self.node_stale(graph, c) || self.nested_stale(graph, c))
        });
        self.nested[sym.index()] = if stale { 3 } else { 2 };
        stale
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(sym: GraphSym) -> Read {
        Read::new(sym, true)
    }

    #[test]
    fn a_parent_set_later_makes_a_symbol_stale_transitively() {
        let mut g = SymbolGraph::default();
        let (a, b, c) = (g.intern("a"), g.intern("b"), g.intern("c"));
        g.set(a, 1, vec![], 0);
        g.set(b, 2, vec![whole(a)], 1);
        g.set(c, 3, vec![whole(b)], 2);
        assert!(!Staleness::compute(&g).is_stale(c));
        g.set(a, 4, vec![], 3);
        let s = Staleness::compute(&g);
        assert!(s.is_stale(b) && s.is_stale(c) && !s.is_stale(a));
        g.set(b, 5, vec![whole(a)], 4);
        let s = Staleness::compute(&g);
        assert!(
            !s.is_stale(b) && s.is_stale(c),
            "c was computed from the old b"
        );
    }

    #[test]
    fn elements_are_separate_but_whole_reads_see_them() {
        let mut g = SymbolGraph::default();
        let lst = g.intern("lst");
        g.set(lst, 1, vec![], 0);
        let (e2, e3) = (g.intern("lst[2]"), g.intern("lst[3]"));
        let (x, y) = (g.intern("x"), g.intern("y"));
        g.set(x, 2, vec![whole(e2), Read::new(lst, false)], 1);
        g.set(y, 2, vec![whole(lst)], 1);
        g.set(e3, 3, vec![], 2);
        let s = Staleness::compute(&g);
        assert!(!s.is_stale(x), "lst[3] does not touch lst[2]");
        assert!(s.is_stale(y), "y read lst as a whole");
        // Rebinding lst stales readers of its elements.
        g.set(lst, 4, vec![], 3);
        let s = Staleness::compute(&g);
        assert!(s.is_stale(x));
        assert!(!g.node(e3).exists);
    }

    #[test]
    fn stale_nested_values_make_whole_reads_stale() {
        let mut g = SymbolGraph::default();
        let (a, d, k) = (g.intern("a"), g.intern("d"), g.intern("d['k']"));
        g.set(a, 1, vec![], 0);
        g.set(d, 1, vec![], 0);
        g.set(k, 2, vec![whole(a)], 1);
        g.set(a, 3, vec![], 2);
        let s = Staleness::compute(&g);
        assert!(s.is_stale(k) && !s.is_stale(d));
        assert!(s.read_is_stale(&g, whole(d)));
        assert!(!s.read_is_stale(&g, Read::new(d, false)));
        assert_eq!(g.newest(whole(d)), k);
    }

    #[test]
    fn self_updates_and_cycles_are_not_stale() {
        let mut g = SymbolGraph::default();
        let (a, b) = (g.intern("a"), g.intern("b"));
        g.set(a, 1, vec![whole(b)], 0);
        g.set(b, 1, vec![whole(a)], 0);
        g.mutate(a, 2, &[whole(a)], 1);
        let s = Staleness::compute(&g);
        assert!(!s.is_stale(a));
        assert!(s.is_stale(b), "b was computed from the a of time 1");
    }
}
