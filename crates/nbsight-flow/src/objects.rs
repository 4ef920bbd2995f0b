//! Objects shared between names, for the flow analysis: after `b = a`,
//! `items = [df]` or `for d in [train, test]`, a change made through one
//! name is a change of the others, and reading a name reads the containers
//! that hold its object and the objects a container holds (the convention of
//! the CRABS annotations: reading `train_df` after `combine = [train_df,
//! test_df]` reads `combine` too).
//!
//! A small abstract heap, updated statement by statement as the notebook runs
//! top to bottom once: each name points to abstract objects, each object may
//! hold others. Only assignments that cannot make a new object are followed:
//! `b = a`, displays of names (`[a, b]`, `{'k': a}`), items of a container
//! (`x = items[0]`, `for d in items`), pairwise unpacking and stores into a
//! container (`d['k'] = a`); any other value is a new object. Bindings in a
//! branch (`if`, `while`, `except`) add to what the name pointed to.
//!
//! A statement changes the object of `x` when it stores into a path under
//! `x` (`x['c'] = ...`, `x.loc[...] = ...`, `del x[0]`), or when it passes
//! `x` to a call (as receiver or argument) and the cell's summary says a
//! call changes `x` (the library-effects knowledge base decided).
//!
//! The syntactic facts (what a target binds, the elements of a display,
//! pairwise unpacking) are the model's `paths`, shared with slicing's
//! may-aliases, which resolve them flow-insensitively instead
//! (ARCHITECTURE.md, "Why two aliasing models").

use ruff_python_ast::visitor::{Visitor, walk_expr};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use nbsight_dataflow::imports::bindings_of;

use nbsight_model::paths::{
    display_elements, is_display, path_root, target_names, unpacked_pairwise,
};
use nbsight_model::vars::{Var, VarSet};
use nbsight_model::{CallChange, NotebookModel};

/// An abstract object.
type Obj = u32;

/// The owner of an object made inside a display.
const ANONYMOUS: Var = Var::from_u32(u32::MAX);

type Objs = SmallVec<[Obj; 2]>;

/// What sharing adds to one cell's reads and writes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct CellSharing {
    /// `(name, via)`: the cell reads `name`'s objects through `via`.
    pub reads: Vec<(Var, Var)>,
    /// The cell changes `name`'s objects through `via`.
    pub changes: Vec<Change>,
    /// `(name, via)`: `via` shares `name`'s objects and is passed to a call
    /// of unknown effect (an open question).
    pub maybe_changes: Vec<(Var, Var)>,
}

/// A change of a name's objects made through another name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Change {
    pub name: Var,
    pub via: Var,
    /// `name` is the one a changed object was made for: the change reads it
    /// too (a loop variable left from an earlier cell is only written).
    pub owner: bool,
    /// `via` is sure to be `name`'s object when the change happens (one
    /// object, or the variable of the loop over them); otherwise it may be
    /// another one (`if c: b = df else: b = other`).
    pub certain: bool,
}

/// The abstract heap of the notebook's top-level names.
#[derive(Debug, Clone, Default)]
pub(super) struct Objects {
    points: FxHashMap<Var, Objs>,
    /// The objects each object holds (only displays hold objects: the items
    /// of a data frame or an array are values, not the objects of names).
    holds: Vec<Objs>,
    /// Which objects a display made (`[a, b]`, `{'k': a}`).
    display: Vec<bool>,
    /// The name each object was first bound to (`train` for the frame
    /// `train = pd.read_csv(...)` made; not `d` of `for d in [train]`).
    owner: Vec<Option<Var>>,
    /// The statements that made names share objects, in notebook order.
    sites: Vec<AliasSite>,
    /// The objects of each element of a tuple or list display, by position
    /// (for unpacking: `a, b = pair`, `for name, df in [('a', a), ...]`).
    elements: FxHashMap<Obj, Vec<Objs>>,
}

/// A statement that made names share objects (`combine = [a, b]`, `b = a`,
/// `for d in combine:`), for the context of a question to an LLM.
#[derive(Debug, Clone)]
struct AliasSite {
    cell: usize,
    /// The statement's first line.
    text: String,
    names: Vec<Var>,
}

impl Objects {
    fn fresh(&mut self) -> Obj {
        self.holds.push(Objs::new());
        self.display.push(false);
        self.owner.push(None);
        (self.holds.len() - 1) as Obj
    }

    /// A new display holding `items`.
    fn display(&mut self, items: Objs) -> Obj {
        let o = self.fresh();
        self.holds[o as usize] = items;
        self.display[o as usize] = true;
        o
    }

    /// The displays holding one of `objs` directly (`combine` for
    /// `train_df` after `combine = [train_df, test_df]`, not a list of
    /// tuples holding it).
    fn holders(&self, objs: &[Obj]) -> Vec<Obj> {
        (0..self.holds.len() as Obj)
            .filter(|c| self.holds[*c as usize].iter().any(|o| objs.contains(o)))
            .collect()
    }

    /// The objects `v` points to (a new one, made for `v`, when it was bound
    /// in a way the heap did not follow).
    fn of(&mut self, v: Var) -> Objs {
        if let Some(objs) = self.points.get(&v) {
            return objs.clone();
        }
        let o = self.fresh();
        self.owner[o as usize] = Some(v);
        let objs: Objs = SmallVec::from_slice(&[o]);
        self.points.insert(v, objs.clone());
        objs
    }

    /// Objects reachable from `objs` (themselves and what they hold).
    fn reach(&self, objs: &[Obj]) -> Vec<Obj> {
        let mut seen: Vec<Obj> = Vec::new();
        let mut stack: Vec<Obj> = objs.to_vec();
        while let Some(o) = stack.pop() {
            if seen.contains(&o) {
                continue;
            }
            seen.push(o);
            stack.extend(self.holds[o as usize].iter().copied());
        }
        seen
    }

    /// The names whose reach includes one of `targets`, except `but`.
    fn names_reaching(&self, targets: &[Obj], but: Var) -> Vec<Var> {
        // The objects whose reach includes a target: the targets, then the
        // objects holding one of those, to a fixpoint (most hold nothing).
        let mut reaches = vec![false; self.holds.len()];
        for &t in targets {
            reaches[t as usize] = true;
        }
        let mut changed = true;
        while changed {
            changed = false;
            for (o, held) in self.holds.iter().enumerate() {
                if !reaches[o] && held.iter().any(|&h| reaches[h as usize]) {
                    reaches[o] = true;
                    changed = true;
                }
            }
        }
        let mut names: Vec<Var> = self
            .points
            .iter()
            .filter(|(v, objs)| **v != but && objs.iter().any(|&o| reaches[o as usize]))
            .map(|(v, _)| *v)
            .collect();
        names.sort_unstable();
        names
    }

    /// The names `targets` were first bound to that still point to them,
    /// except `but`.
    fn owners(&self, targets: &[Obj], but: Var) -> Vec<Var> {
        let mut names: Vec<Var> = targets
            .iter()
            .filter_map(|o| {
                let v = self.owner[*o as usize]?;
                (v != but && self.points.get(&v)?.contains(o)).then_some(v)
            })
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    fn bind(&mut self, v: Var, objs: Objs, strong: bool) {
        for o in &objs {
            self.owner[*o as usize].get_or_insert(v);
        }
        if strong {
            self.points.insert(v, objs);
        } else {
            let entry = self.points.entry(v).or_default();
            for o in objs {
                if !entry.contains(&o) {
                    entry.push(o);
                }
            }
        }
    }

    /// The statements of cells before `cell` that made `v` share objects
    /// with another name, as `cell N: text` (cells 0-based).
    pub(super) fn alias_context(&self, v: Var, cell: usize) -> Vec<String> {
        self.sites
            .iter()
            .filter(|s| s.cell < cell && s.names.contains(&v))
            .map(|s| format!("cell {}: {}", s.cell, s.text))
            .collect()
    }

    /// Runs code cell `index` of `model` on the heap; `reads` are the names
    /// it reads from the state before it, `rebinds` the names it binds
    /// without reading their old values, `more_changes` changes its calls
    /// make besides those the dataflow summary recorded.
    pub(super) fn cell(
        &mut self,
        model: &NotebookModel,
        index: usize,
        reads: &VarSet,
        rebinds: &VarSet,
        more_changes: &[CallChange],
    ) -> CellSharing {
        let mut sharing = CellSharing::default();
        let info = &model.cells[index];
        let (Some(parsed), Some(compiled)) = (info.parsed.as_deref(), info.compiled.as_deref())
        else {
            return sharing;
        };
        if self.display.iter().any(|d| *d) {
            // Reading a name reads the displays holding its objects and the
            // objects its displays hold, as named where they were made (not
            // a loop variable left from an earlier cell).
            for x in reads.iter() {
                let Some(objs) = self.points.get(&x) else {
                    continue;
                };
                let mut related = self.holders(objs);
                related.extend(self.reach(objs));
                related.retain(|o| !objs.contains(o));
                if related.is_empty() {
                    continue;
                }
                for y in self.owners(&related, x) {
                    if !reads.contains(y)
                        && !rebinds.contains(y)
                        && !sharing.reads.iter().any(|(n, _)| *n == y)
                    {
                        sharing.reads.push((y, x));
                    }
                }
            }
        }
        let mut walk = Walk {
            model,
            cell: index,
            source: parsed.source(),
            heap: self,
            call_changes: compiled
                .call_changes
                .iter()
                .chain(more_changes)
                .cloned()
                .collect(),
            loop_targets: Vec::new(),
            sharing: &mut sharing,
        };
        walk.body(&parsed.module.body, true);
        let CellSharing {
            changes,
            maybe_changes,
            ..
        } = &mut sharing;
        maybe_changes.retain(|(y, _)| !changes.iter().any(|c| c.name == *y));
        sharing
    }
}

/// One cell's statements run on the heap.
struct Walk<'a> {
    model: &'a NotebookModel,
    cell: usize,
    source: &'a str,
    heap: &'a mut Objects,
    /// The in-place changes the cell's calls make, with where.
    call_changes: Vec<CallChange>,
    /// The variables of the `for` loops being walked.
    loop_targets: Vec<Var>,
    sharing: &'a mut CellSharing,
}

impl Walk<'_> {
    fn var(&self, name: &str) -> Option<Var> {
        self.model.vars.get(name)
    }

    fn body(&mut self, stmts: &[Stmt], strong: bool) {
        for stmt in stmts {
            self.stmt(stmt, strong);
        }
    }

    fn stmt(&mut self, stmt: &Stmt, strong: bool) {
        match stmt {
            Stmt::Assign(s) => {
                self.calls_in(&s.value);
                if s.targets.len() > 1 {
                    // `a = b = value`: one value, several names.
                    let objs = self
                        .value_of(&s.value)
                        .unwrap_or_else(|| SmallVec::from_slice(&[self.heap.fresh()]));
                    for target in &s.targets {
                        match target {
                            Expr::Name(_) => self.bind_target(target, Some(objs.clone()), strong),
                            target => self.assign(target, &s.value, strong),
                        }
                    }
                } else {
                    for target in &s.targets {
                        self.assign(target, &s.value, strong);
                    }
                }
                if makes_alias(&s.value) {
                    self.site(stmt, s.targets.iter().chain([&*s.value]));
                }
            }
            Stmt::AnnAssign(s) => {
                if let Some(value) = &s.value {
                    self.calls_in(value);
                    self.assign(&s.target, value, strong);
                }
            }
            Stmt::AugAssign(s) => {
                self.calls_in(&s.value);
                match &*s.target {
                    // `b += [2]` extends a list in place (and rebinds `b` to
                    // the same object); on numbers nothing is shared.
                    Expr::Name(name) => {
                        if let Some(v) = self.var(&name.id)
                            && self.heap.points.get(&v).is_some_and(|objs| {
                                objs.iter().any(|o| self.heap.display[*o as usize])
                            })
                        {
                            self.change(v, false);
                        }
                    }
                    target => self.store_into(target),
                }
            }
            Stmt::Delete(s) => {
                for target in &s.targets {
                    match target {
                        Expr::Name(name) => {
                            if let Some(v) = self.var(&name.id) {
                                self.heap.points.remove(&v);
                            }
                        }
                        target => self.store_into(target),
                    }
                }
            }
            Stmt::For(s) => {
                self.calls_in(&s.iter);
                self.loop_target(&s.target, &s.iter, strong);
                let mut targets = Vec::new();
                target_names(&s.target, &mut targets);
                let targets: Vec<Var> = targets.iter().filter_map(|n| self.var(n)).collect();
                let outer = self.loop_targets.len();
                self.loop_targets.extend(targets);
                if matches!(
                    &*s.iter,
                    Expr::Name(_) | Expr::List(_) | Expr::Tuple(_) | Expr::Set(_) | Expr::Call(_)
                ) {
                    self.site(stmt, [&*s.target, &*s.iter]);
                }
                self.body(&s.body, strong);
                self.loop_targets.truncate(outer);
                self.body(&s.orelse, false);
            }
            Stmt::While(s) => {
                self.calls_in(&s.test);
                self.body(&s.body, false);
                self.body(&s.orelse, false);
            }
            Stmt::If(s) => {
                self.calls_in(&s.test);
                self.body(&s.body, false);
                for clause in &s.elif_else_clauses {
                    if let Some(test) = &clause.test {
                        self.calls_in(test);
                    }
                    self.body(&clause.body, false);
                }
            }
            Stmt::With(s) => {
                for item in &s.items {
                    self.calls_in(&item.context_expr);
                    if let Some(target) = &item.optional_vars {
                        self.bind_target(target, None, strong);
                    }
                }
                self.body(&s.body, strong);
            }
            Stmt::Try(s) => {
                self.body(&s.body, strong);
                for handler in &s.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = handler;
                    self.body(&h.body, false);
                }
                self.body(&s.orelse, false);
                self.body(&s.finalbody, strong);
            }
            Stmt::Match(s) => {
                self.calls_in(&s.subject);
                for case in &s.cases {
                    self.body(&case.body, false);
                }
            }
            Stmt::Expr(s) => self.calls_in(&s.value),
            Stmt::Return(s) => {
                if let Some(value) = &s.value {
                    self.calls_in(value);
                }
            }
            Stmt::FunctionDef(s) => self.rebind(&s.name, strong),
            Stmt::ClassDef(s) => self.rebind(&s.name, strong),
            Stmt::Import(_) | Stmt::ImportFrom(_) => {
                for binding in bindings_of(stmt) {
                    self.rebind(&binding.name, strong);
                }
            }
            _ => {}
        }
    }

    /// Records `stmt` as an alias site over the names in `exprs`.
    fn site<'e>(&mut self, stmt: &Stmt, exprs: impl IntoIterator<Item = &'e Expr>) {
        let mut names = Vec::new();
        for expr in exprs {
            let mut finder = Names::default();
            finder.visit_expr(expr);
            names.extend(finder.0.into_iter().filter_map(|n| self.var(n)));
        }
        names.sort_unstable();
        names.dedup();
        if names.len() < 2 {
            return;
        }
        let range = stmt.range();
        let text = self
            .source
            .get(range.start().to_usize()..range.end().to_usize())
            .and_then(|t| t.lines().next())
            .unwrap_or_default()
            .trim_end()
            .to_string();
        self.heap.sites.push(AliasSite {
            cell: self.cell,
            text,
            names,
        });
    }

    /// Binds `name` to a new object.
    fn rebind(&mut self, name: &str, strong: bool) {
        if let Some(v) = self.var(name) {
            let o = self.heap.fresh();
            self.heap.bind(v, SmallVec::from_slice(&[o]), strong);
        }
    }

    /// `target = value`.
    fn assign(&mut self, target: &Expr, value: &Expr, strong: bool) {
        if let Some((t, v)) = unpacked_pairwise(target, value)
            && !t.iter().chain(v).any(Expr::is_starred_expr)
        {
            // Every value first (`x, y = y, x` swaps).
            let values: Vec<Option<Objs>> = v.iter().map(|v| self.value_of(v)).collect();
            for ((t, v), objs) in t.iter().zip(v).zip(values) {
                match t {
                    Expr::Name(_) => self.bind_target(t, objs, strong),
                    t => self.assign(t, v, strong),
                }
            }
            return;
        }
        match (target, value) {
            (Expr::Name(_) | Expr::Tuple(_) | Expr::List(_) | Expr::Starred(_), _) => {
                if !matches!(target, Expr::Name(_))
                    && let Some(objs) = self.value_of(value)
                    && self.bind_positions(target, &objs, strong)
                {
                    // `a, b = pair` with `pair = (x, y)`.
                    return;
                }
                let objs = match target {
                    Expr::Name(_) => self.value_of(value),
                    // Unpacking: each name is one of the value's items.
                    _ => self.items_of(value),
                };
                self.bind_target(target, objs, strong);
                // `first, *rest = items`: `rest` is a new list.
                let starred: Vec<&Expr> = match target {
                    Expr::Tuple(t) => t.elts.iter().collect(),
                    Expr::List(l) => l.elts.iter().collect(),
                    _ => Vec::new(),
                };
                for e in starred {
                    if let Expr::Starred(s) = e {
                        self.bind_target(&s.value, None, strong);
                    }
                }
            }
            (Expr::Attribute(_) | Expr::Subscript(_), _) => self.store_into(target),
            _ => {}
        }
    }

    /// Binds the names of `target` to `objs` (each to a new object when
    /// `None`).
    fn bind_target(&mut self, target: &Expr, objs: Option<Objs>, strong: bool) {
        let mut names = Vec::new();
        target_names(target, &mut names);
        for name in names {
            let Some(v) = self.var(&name) else { continue };
            let objs = match &objs {
                Some(objs) => objs.clone(),
                None => SmallVec::from_slice(&[self.heap.fresh()]),
            };
            self.heap.bind(v, objs, strong);
        }
        // Stores into paths of the target (`for d['k'] in ...`) change them.
        if matches!(target, Expr::Attribute(_) | Expr::Subscript(_)) {
            self.store_into(target);
        }
    }

    /// A store into a path under a name: the name's object changes. What
    /// is stored is not followed (`index[word] = coefs` in a loop stores a
    /// different value each time; the name `coefs` keeps only the last).
    fn store_into(&mut self, target: &Expr) {
        let Some(v) = path_root(target).and_then(|n| self.var(n)) else {
            return;
        };
        self.heap.of(v);
        // `items[0] = x` replaces an item (the list changes);
        // `items[0]['c'] = x` changes the item.
        self.change(v, path_depth(target) >= 2);
    }

    /// The objects `value` evaluates to, when it makes no new object.
    fn value_of(&mut self, value: &Expr) -> Option<Objs> {
        match value {
            Expr::Name(name) => self.var(&name.id).map(|v| self.heap.of(v)),
            Expr::List(ast::ExprList { elts, .. }) | Expr::Tuple(ast::ExprTuple { elts, .. })
                if !elts.iter().any(Expr::is_starred_expr) =>
            {
                let mut positions = Vec::with_capacity(elts.len());
                let mut held = Objs::new();
                for e in elts {
                    let objs = self.value_of(e).unwrap_or_default();
                    for &o in &objs {
                        if !matches!(e, Expr::Name(_)) {
                            self.heap.owner[o as usize].get_or_insert(ANONYMOUS);
                        }
                        if !held.contains(&o) {
                            held.push(o);
                        }
                    }
                    positions.push(objs);
                }
                let d = self.heap.display(held);
                self.heap.elements.insert(d, positions);
                Some(SmallVec::from_slice(&[d]))
            }
            value if is_display(value) => {
                let held = self.display_items(value);
                Some(SmallVec::from_slice(&[self.heap.display(held)]))
            }
            // `items[:]` is a copy; `items[0]` one of the items.
            Expr::Subscript(s) if !matches!(&*s.slice, Expr::Slice(_)) => self.items_of(&s.value),
            Expr::Named(n) => self.value_of(&n.value),
            _ => None,
        }
    }

    /// The objects a display holds.
    fn display_items(&mut self, display: &Expr) -> Objs {
        // (element, unpacked: `*a` / `**a` contributes a's items).
        let elements = display_elements(display).unwrap_or_default();
        let mut held = Objs::new();
        for (e, unpacked) in elements {
            let named = matches!(e, Expr::Name(_)) && !unpacked;
            let objs = if unpacked {
                self.items_of(e)
            } else {
                self.value_of(e)
            };
            for o in objs.unwrap_or_default() {
                if !named {
                    // A display made inside another one belongs to no name
                    // (`models = [('a', m)]`; not the loop variable that
                    // later goes through it).
                    self.heap.owner[o as usize].get_or_insert(ANONYMOUS);
                }
                if !held.contains(&o) {
                    held.push(o);
                }
            }
        }
        held
    }

    /// The objects of each of `n` positions when every one of `objs` is a
    /// display of `n` elements.
    fn unpack(&self, objs: &[Obj], n: usize) -> Option<Vec<Objs>> {
        let mut out: Vec<Objs> = vec![Objs::new(); n];
        for o in objs {
            let positions = self.heap.elements.get(o).filter(|p| p.len() == n)?;
            for (slot, objs) in out.iter_mut().zip(positions) {
                for &x in objs {
                    if !slot.contains(&x) {
                        slot.push(x);
                    }
                }
            }
        }
        (!objs.is_empty()).then_some(out)
    }

    /// Binds the names of a flat tuple target position by position, when
    /// `objs` are displays of as many elements; `false` otherwise.
    fn bind_positions(&mut self, target: &Expr, objs: &[Obj], strong: bool) -> bool {
        let elts = match target {
            Expr::Tuple(t) => &t.elts,
            Expr::List(l) => &l.elts,
            _ => return false,
        };
        if elts.iter().any(|e| !matches!(e, Expr::Name(_))) {
            return false;
        }
        let Some(positions) = self.unpack(objs, elts.len()) else {
            return false;
        };
        for (e, objs) in elts.iter().zip(positions) {
            let objs = (!objs.is_empty()).then_some(objs);
            self.bind_target(e, objs, strong);
        }
        true
    }

    /// `for target in iterable`: `for a, b in zip(xs, ys)` binds `a` to the
    /// items of `xs` and `b` to those of `ys`, `for i, x in enumerate(xs)`
    /// binds `x` to the items of `xs`.
    fn loop_target(&mut self, target: &Expr, iterable: &Expr, strong: bool) {
        if let (Expr::Tuple(t), Expr::Call(call)) = (target, iterable)
            && call.arguments.keywords.is_empty()
            && let Expr::Name(f) = &*call.func
        {
            let args = &call.arguments.args;
            let pairs: Vec<(&Expr, Option<&Expr>)> = match f.id.as_str() {
                "zip" if args.len() == t.elts.len() => {
                    t.elts.iter().zip(args.iter().map(Some)).collect()
                }
                "enumerate" if args.len() == 1 && t.elts.len() == 2 => {
                    vec![(&t.elts[0], None), (&t.elts[1], Some(&args[0]))]
                }
                _ => Vec::new(),
            };
            if !pairs.is_empty() {
                for (target, iterable) in pairs {
                    let items = iterable.and_then(|i| self.items_of(i));
                    self.bind_target(target, items, strong);
                }
                return;
            }
        }
        // `for k, v in d.items()`: `v` is one of the values.
        if let (Expr::Tuple(t), Expr::Call(call)) = (target, iterable)
            && t.elts.len() == 2
            && call.arguments.is_empty()
            && let Expr::Attribute(a) = &*call.func
            && a.attr.as_str() == "items"
        {
            let values = self.items_of(&a.value);
            self.bind_target(&t.elts[0], None, strong);
            self.bind_target(&t.elts[1], values, strong);
            return;
        }
        let items = self.items_of(iterable);
        // `for name, df in [('a', a), ('b', b)]`: position by position.
        if let Some(items) = &items
            && self.bind_positions(target, items, strong)
        {
            return;
        }
        self.bind_target(target, items, strong);
    }

    /// The objects iterating over `iterable` (or unpacking it) yields, when
    /// known.
    fn items_of(&mut self, iterable: &Expr) -> Option<Objs> {
        match iterable {
            // `d.values()`: the dict's values.
            Expr::Call(call)
                if call.arguments.is_empty()
                    && matches!(&*call.func, Expr::Attribute(a) if a.attr.as_str() == "values") =>
            {
                let Expr::Attribute(a) = &*call.func else {
                    return None;
                };
                self.items_of(&a.value)
            }
            Expr::List(_) | Expr::Tuple(_) | Expr::Set(_) => {
                let held = self.display_items(iterable);
                (!held.is_empty()).then_some(held)
            }
            Expr::Name(name) => {
                let v = self.var(&name.id)?;
                let mut items = Objs::new();
                for c in self.heap.points.get(&v)? {
                    for &o in &self.heap.holds[*c as usize] {
                        if !items.contains(&o) {
                            items.push(o);
                        }
                    }
                }
                (!items.is_empty()).then_some(items)
            }
            _ => None,
        }
    }

    /// Records a change of `v`'s objects (through one of its items when
    /// `through_item`, which may change any object a display holds): every
    /// other name reaching them changes too.
    fn change(&mut self, v: Var, through_item: bool) {
        let Some(objs) = self.heap.points.get(&v) else {
            return;
        };
        let changed = self.heap.reach(objs);
        // The objects that change: through an item of a display, one of
        // the objects it holds.
        let objs: Objs = if through_item && objs.iter().any(|o| self.heap.display[*o as usize]) {
            let items: Objs = changed
                .iter()
                .copied()
                .filter(|o| !objs.contains(o))
                .collect();
            if items.is_empty() {
                objs.clone()
            } else {
                items
            }
        } else {
            objs.clone()
        };
        let owners = self.heap.owners(&changed, v);
        let every = objs.len() == 1 || self.loop_targets.contains(&v);
        for y in self.heap.names_reaching(&objs, v) {
            if self.sharing.changes.iter().any(|c| c.name == y) {
                continue;
            }
            let certain = every
                || self
                    .heap
                    .points
                    .get(&y)
                    .is_some_and(|mine| objs.iter().all(|o| self.heap.reach(mine).contains(o)));
            self.sharing.changes.push(Change {
                name: y,
                via: v,
                owner: owners.contains(&y),
                certain,
            });
        }
    }

    /// The changes the calls in `expr` make, as the dataflow summary
    /// recorded them at each call (the library-effects knowledge base,
    /// user functions changing their parameters; calls of unknown effect
    /// are open questions).
    fn calls_in(&mut self, expr: &Expr) {
        let range = expr.range();
        let changes: Vec<CallChange> = self
            .call_changes
            .iter()
            .filter(|c| range.contains_range(c.range))
            .cloned()
            .collect();
        for c in changes {
            if c.definite {
                self.change(c.var, c.depth >= 1);
            } else if let Some(objs) = self.heap.points.get(&c.var) {
                for y in self.heap.names_reaching(objs, c.var) {
                    if !self.sharing.maybe_changes.iter().any(|(n, _)| *n == y) {
                        self.sharing.maybe_changes.push((y, c.var));
                    }
                }
            }
        }
    }
}

/// A value that may make a name share objects: a name, an item of one, a
/// display holding names.
fn makes_alias(value: &Expr) -> bool {
    if let Some(elements) = display_elements(value) {
        return elements.iter().any(|(e, _)| makes_alias(e));
    }
    match value {
        Expr::Name(_) | Expr::Subscript(_) => true,
        Expr::Starred(e) => makes_alias(&e.value),
        _ => false,
    }
}

/// The names an expression loads or stores.
#[derive(Default)]
struct Names<'a>(Vec<&'a str>);

impl<'a> Visitor<'a> for Names<'a> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Name(n) = expr {
            self.0.push(n.id.as_str());
        }
        walk_expr(self, expr);
    }
}

/// How many attributes and subscripts a path has (`df['a'].b`: 2).
fn path_depth(expr: &Expr) -> u32 {
    match expr {
        Expr::Attribute(a) => 1 + path_depth(&a.value),
        Expr::Subscript(s) => 1 + path_depth(&s.value),
        _ => 0,
    }
}
