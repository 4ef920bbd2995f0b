//! The re-run plan of a what-if query: the cells to run again, in notebook
//! order, so that every output, variable and file ends as Restart & Run All
//! would leave it.
//!
//! - A planned cell must find what it reads as Run All gives it. It does
//!   not when the value was last written, in the kernel the history left,
//!   by a cell at or after it in notebook order (a later cell rebound it,
//!   changed it in place directly or through a name sharing its object, or
//!   the cell itself computed it from its own old value: `t += 2`). The plan
//!   then rebuilds the value: the nearest cell above defining it (and, for a
//!   value that may be shared, the cells above that made the other names of
//!   its object), and the cells between that change it in place. Files are
//!   values too ([`files`]): a file a later cell appended to, renamed or
//!   wrote is rebuilt from the nearest cell above that writes or removes it.
//! - Running the event's cell again repeats what its old run did to the
//!   values it found ([`writes`]; for files, what it appended, made, renamed
//!   or removed, and the files its old code wrote that the new one does
//!   not): those are rebuilt the same way.
//! - From the event's cell on, field by field ([`effects`]): a cell runs
//!   again when it reads a changed value (`d['b']` is not changed by a
//!   change of `d['a']`) or file, or writes one (so later cells see its
//!   version again, as under Run All), or writes a file a planned cell
//!   above it wrote too (its version is then gone). What the edit changes
//!   is what its changed statements write; what its other statements, and
//!   the cells rebuilt above it, bind is Run All's value as a new object,
//!   which only the cells linking names to it or changing it run again for.
//! - Cells that never ran in the history run too; cells whose inputs did
//!   not change do not.
//!
//! Which names share an object is the model's one may-alias analysis
//! ([`nbsight_model::aliases`], also the slicer's).

mod effects;
mod fields;
mod files;
mod methods;
mod sharing;
mod writers;
mod writes;

use std::borrow::Cow;

use crate::event::Event;
use nbsight_model::vars::{Var, VarSet};
use nbsight_model::{CellInfo, NotebookModel};
use rustc_hash::{FxHashMap, FxHashSet};

use effects::{CellEffects, Changed, Context};
use fields::Path;
use files::{FileOp, FilePath, Literals};
use sharing::Sharing;
use writers::LastWriters;
use writes::{ArgumentChanges, repeated_writes};

/// What the re-run plan reads off a notebook's cells once per session:
/// which names may share objects, which user functions change their
/// arguments, and each cell's effects.
#[derive(Debug)]
pub(crate) struct RerunFacts {
    sharing: Sharing,
    changes: ArgumentChanges,
    /// The arguments each cell of the session's model passes to functions
    /// that change them, by the cell's address (cells an event leaves
    /// unchanged are shared with the event's model).
    changed_by: FxHashMap<usize, Vec<String>>,
    /// What each cell of the session's model writes ([`written`]), by
    /// address, in the session model's variable ids.
    writes: FxHashMap<usize, Vec<Var>>,
    /// Names bound to one string literal (file paths).
    literals: Literals,
    /// The keys (and attribute names, spelt as keys) the notebook stores
    /// into: reading another attribute reads its whole object.
    assigned: FxHashSet<String>,
    /// Names every top-level assignment of the notebook binds to a value
    /// that cannot change in place.
    immutable: FxHashSet<String>,
    /// What the methods of the notebook's classes change of their instance.
    methods: methods::Methods,
    /// What calling each user function does to files.
    function_files: FxHashMap<String, Vec<(FilePath, files::FileAccess, bool)>>,
    /// Each cell's effects, by address.
    effects: FxHashMap<usize, CellEffects>,
    /// What running each cell again changes from its own old values, by
    /// address.
    repeated: FxHashMap<usize, FxHashSet<String>>,
}

impl RerunFacts {
    pub(crate) fn of(model: &NotebookModel) -> RerunFacts {
        let modules = || {
            model
                .cells
                .iter()
                .filter_map(|c| c.parsed.as_deref().map(|p| &p.module))
        };
        let changes = ArgumentChanges::of(modules());
        let changed_by = model
            .cells
            .iter()
            .filter_map(|c| {
                let parsed = c.parsed.as_deref()?;
                let changed: Vec<String> = changes.changed_by(&parsed.module).into_iter().collect();
                Some((address(c), changed))
            })
            .collect();
        let mut assigned = FxHashSet::default();
        for compiled in model.cells.iter().filter_map(|c| c.compiled.as_deref()) {
            let summary = &compiled.summary;
            // Bound fields (not the paths a binding changes in place:
            // `df.loc` in `df.loc[0, 'a'] = 1`).
            for symbol in summary.defs.iter() {
                if let Some(key) = Path::parse(symbol).last_key() {
                    assigned.insert(key.to_string());
                }
            }
        }
        let methods = methods::Methods::of(modules());
        for attr in &methods.attributes {
            assigned.insert(nbsight_dataflow::symbol::python_str_repr(attr));
        }
        let literals = Literals::of(modules());
        let function_files = files::function_files(modules(), &literals);
        let mut facts = RerunFacts {
            sharing: Sharing::of(modules()),
            changes,
            changed_by,
            writes: FxHashMap::default(),
            literals,
            methods,
            function_files,
            assigned,
            immutable: sharing::immutable_names(modules()),
            effects: FxHashMap::default(),
            repeated: FxHashMap::default(),
        };
        facts.writes = model
            .cells
            .iter()
            .map(|c| (address(c), written(model, c, &facts)))
            .collect();
        facts.effects = model
            .cells
            .iter()
            .map(|c| (address(c), facts.compute_effects(c)))
            .collect();
        facts.repeated = model
            .cells
            .iter()
            .map(|c| (address(c), repeated_writes(model, c, None, &facts.changes)))
            .collect();
        facts
    }

    fn compute_effects(&self, cell: &CellInfo) -> CellEffects {
        let notebook = effects::Notebook {
            literals: &self.literals,
            assigned: &|key| self.assigned.contains(key),
            immutable: &|name| self.immutable.contains(name),
            changes: &self.changes,
            methods: &self.methods,
            function_files: &self.function_files,
            sharing: &self.sharing,
        };
        CellEffects::of(cell, &notebook)
    }

    /// What running `cell` (unchanged) again changes from its own old
    /// values ([`repeated_writes`]): kept for the session's cells.
    fn repeated_of(&self, model: &NotebookModel, cell: &CellInfo) -> Cow<'_, FxHashSet<String>> {
        match self.repeated.get(&address(cell)) {
            Some(kept) => Cow::Borrowed(kept),
            None => Cow::Owned(repeated_writes(model, cell, None, &self.changes)),
        }
    }

    /// What `cell` writes: kept when the cell is the session's and the
    /// event's model numbers variables as the session's does.
    fn writes_of<'s>(
        &'s self,
        model: &NotebookModel,
        cell: &CellInfo,
        same_vars: bool,
    ) -> Cow<'s, [Var]> {
        match self.writes.get(&address(cell)) {
            Some(kept) if same_vars => Cow::Borrowed(kept),
            _ => Cow::Owned(written(model, cell, self)),
        }
    }

    /// The roots of the arguments `cell` passes to user functions that
    /// change them.
    fn arguments_changed(&self, cell: &CellInfo) -> Vec<String> {
        if let Some(known) = self.changed_by.get(&address(cell)) {
            return known.clone();
        }
        cell.parsed
            .as_deref()
            .map(|p| self.changes.changed_by(&p.module).into_iter().collect())
            .unwrap_or_default()
    }
}

/// The cells to re-run, in the event model's indices. `old` is the event
/// cell as it ran in the history (`None`: it never ran, or was inserted);
/// `replaced` the session's cell an edit made in place replaces.
#[allow(clippy::too_many_arguments)]
pub(crate) fn rerun_plan(
    model: &NotebookModel,
    history: &[usize],
    event: &Event,
    source: Option<usize>,
    seed: &VarSet,
    old: Option<&CellInfo>,
    replaced: Option<&CellInfo>,
    facts: &RerunFacts,
    same_vars: bool,
) -> Vec<usize> {
    let n = model.cells.len();
    let mut ran = vec![false; n];
    for &h in history {
        if h < n {
            ran[h] = true;
        }
    }
    // Where the event happens: the source cell, or the cell after a deleted one.
    let anchor = match event {
        Event::Open => None,
        Event::Delete(d) => Some(*d),
        _ => source,
    };
    let new_cell = source.map(|s| &*model.cells[s]);
    let old = match event {
        Event::Open | Event::Insert { .. } => None,
        _ => old,
    };
    // What the event cell's old run did to the values it found: the kept
    // set when the same program runs again in a model numbering variables
    // as the session's (an execution, or an edit that kept the program:
    // `repeated_writes` of a cell and itself is that of the cell alone).
    let repeated: Cow<'_, FxHashSet<String>> = match (old, new_cell) {
        (None, _) => Cow::Owned(FxHashSet::default()),
        (Some(old), Some(new)) if same_vars && same_program(old, new) => {
            facts.repeated_of(model, old)
        }
        (Some(old), _) => Cow::Owned(repeated_writes(model, old, new_cell, &facts.changes)),
    };
    let effects = QueryEffects::new(facts, model.cells.iter().map(|c| &**c).chain(old), replaced);
    let old_effects = old.map(|o| effects.of(o));
    let new_effects = new_cell.map(|c| effects.of(c));
    let repeated_files = match &old_effects {
        Some(o) => repeated_files(&o.files.ops, new_effects.as_ref().map(|e| &e.files.ops[..])),
        None => Vec::new(),
    };
    // Who last wrote each variable and file in the kernel the history left
    // (notebook positions); the event cell's old run counts at its position.
    let mut kernel = LastWriters::default();
    let mut kernel_files: Vec<(FilePath, usize)> = Vec::new();
    for &h in history {
        if h >= n {
            continue;
        }
        let cell = match (Some(h) == source, old) {
            (true, Some(old)) => old,
            _ => &*model.cells[h],
        };
        for &v in facts.writes_of(model, cell, same_vars).iter() {
            kernel.insert(v, h);
        }
        kernel_files.extend(file_writes(&effects.of(cell).files.ops).map(|p| (p, h)));
    }
    if let (Event::Delete(d), Some(old)) = (event, old) {
        // The deleted cell's run is in the kernel, at the position of the
        // cell that now follows it.
        for &v in facts.writes_of(model, old, same_vars).iter() {
            kernel.insert(v, *d);
        }
        kernel_files.extend(file_writes(&effects.of(old).files.ops).map(|p| (p, *d)));
    }
    let planner = Planner {
        model,
        ran,
        anchor,
        source,
        repeated,
        repeated_files,
        kernel,
        kernel_files,
        same_vars,
        facts,
        effects: &effects,
    };
    let seed = planner.seed(
        event,
        seed,
        old,
        old_effects.as_deref(),
        new_effects.as_deref(),
    );
    let mut plan = vec![false; n];
    if let (Event::Edit { .. } | Event::Insert { .. }, Some(c)) = (event, source) {
        plan[c] = true;
    }
    let mut first = true;
    loop {
        let before = plan.clone();
        planner.undo(&mut plan);
        if let (Event::Execute(c), Some(_)) = (event, old)
            && plan.iter().take(*c).any(|p| *p)
        {
            plan[*c] = true;
        }
        if !first && plan == before {
            break;
        }
        first = false;
        let before = plan.clone();
        planner.forward(&mut plan, &seed);
        if plan == before {
            break;
        }
    }
    plan.iter()
        .enumerate()
        .filter(|(_, p)| **p)
        .map(|(i, _)| i)
        .collect()
}

/// The files `ops` change.
fn file_writes(ops: &[FileOp]) -> impl Iterator<Item = FilePath> + '_ {
    ops.iter()
        .filter(|o| o.access.writes())
        .map(|o| o.path.clone())
}

/// The files running the event cell again finds as its old run left them:
/// what the old code appended to, made, renamed or removed, and what it
/// wrote that the new code (`None`: the same) does not write again.
fn repeated_files(old: &[FileOp], new: Option<&[FileOp]>) -> Vec<FilePath> {
    let new = new.unwrap_or(old);
    old.iter()
        .filter(|o| o.access.writes())
        .filter(|o| {
            o.access == files::FileAccess::Update
                || !new
                    .iter()
                    .any(|n| n.access.writes() && o.path.within(&n.path))
        })
        .map(|o| o.path.clone())
        .collect()
}

/// The variables a run of `cell` writes, and those sharing the objects it
/// changes in place (for a change of the object itself, its other names
/// and the containers holding it; for a change inside it, also what holds
/// its items and what it holds).
fn written(model: &NotebookModel, cell: &CellInfo, facts: &RerunFacts) -> Vec<Var> {
    let mut out: Vec<Var> = cell.outputs.iter().collect();
    if let Some(compiled) = cell.compiled.as_deref() {
        let summary = &compiled.summary;
        // A field bound changes its parent's object.
        let changes = summary
            .mutated
            .iter()
            .chain(summary.may_mutate.iter())
            .map(|m| {
                let path = Path::parse(m);
                let depth = path.depth();
                (path, depth)
            })
            .chain(summary.defs.iter().filter_map(|d| {
                let path = Path::parse(d);
                let depth = path.depth().checked_sub(1)?;
                Some((path, depth))
            }));
        for (path, depth) in changes {
            for name in facts.sharing.changed_with(&path.root, depth) {
                out.extend(model.vars.get(name));
            }
        }
    }
    for name in facts.arguments_changed(cell) {
        out.extend(model.vars.get(&name));
        for other in facts.sharing.group(&name) {
            out.extend(model.vars.get(other));
        }
    }
    out
}

/// A cell's identity for [`RerunFacts`]' cache.
fn address(cell: &CellInfo) -> usize {
    std::ptr::from_ref(cell) as usize
}

/// Each cell's effects for one query: the session's cells', kept in the
/// facts, and those of the cells the event made (the edited or inserted
/// cell), computed once per query instead of at every look.
struct QueryEffects<'a> {
    facts: &'a RerunFacts,
    made: FxHashMap<usize, CellEffects>,
    /// An edited cell (by address) whose effects are the kept ones of the
    /// session's cell it replaces (by address).
    same_as: Option<(usize, usize)>,
}

impl<'a> QueryEffects<'a> {
    /// `replaced`: the session's cell an edited cell replaces.
    fn new<'c>(
        facts: &'a RerunFacts,
        cells: impl IntoIterator<Item = &'c CellInfo>,
        replaced: Option<&CellInfo>,
    ) -> Self {
        let mut same_as = None;
        let made = cells
            .into_iter()
            .filter(|c| c.is_code() && !facts.effects.contains_key(&address(c)))
            .filter(|c| match replaced {
                Some(old)
                    if old.index == c.index
                        && same_effects(old, c)
                        && facts.effects.contains_key(&address(old)) =>
                {
                    same_as = Some((address(c), address(old)));
                    false
                }
                _ => true,
            })
            .map(|c| (address(c), facts.compute_effects(c)))
            .collect();
        QueryEffects {
            facts,
            made,
            same_as,
        }
    }

    fn of(&self, cell: &CellInfo) -> Cow<'_, CellEffects> {
        let mut at = address(cell);
        if let Some((edited, old)) = self.same_as
            && edited == at
        {
            at = old;
        }
        match self.facts.effects.get(&at).or_else(|| self.made.get(&at)) {
            Some(kept) => Cow::Borrowed(kept),
            None => Cow::Owned(self.facts.compute_effects(cell)),
        }
    }
}

/// Do cells `old` and `new` have the same [`CellEffects`]? They are read
/// from the cell's program and its statements (and the session's facts):
/// the same program and the same statements at the same offsets (an edit
/// that only added a comment) give the same effects.
fn same_effects(old: &CellInfo, new: &CellInfo) -> bool {
    same_program(old, new)
        && match (old.parsed.as_deref(), new.parsed.as_deref()) {
            (Some(a), Some(b)) => a.module.body == b.module.body,
            _ => false,
        }
}

/// Do cells `old` and `new` share one compiled program?
fn same_program(old: &CellInfo, new: &CellInfo) -> bool {
    match (&old.compiled, &new.compiled) {
        (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
        _ => false,
    }
}

/// One query's plan in the making.
struct Planner<'a> {
    model: &'a NotebookModel,
    ran: Vec<bool>,
    anchor: Option<usize>,
    source: Option<usize>,
    /// The roots the event cell's old run changed from their old values.
    repeated: Cow<'a, FxHashSet<String>>,
    /// The files it changed so (see [`repeated_files`]).
    repeated_files: Vec<FilePath>,
    /// The last writer of each variable in the kernel the history left.
    kernel: LastWriters,
    /// The files written in the kernel, by whom, in the order written.
    kernel_files: Vec<(FilePath, usize)>,
    same_vars: bool,
    facts: &'a RerunFacts,
    effects: &'a QueryEffects<'a>,
}

impl Planner<'_> {
    /// What the event changes before the cells after it run: everything the
    /// event cell (old and new code) binds or changes, field by field, and
    /// the files its changed statements write.
    fn seed(
        &self,
        event: &Event,
        seed: &VarSet,
        old: Option<&CellInfo>,
        old_effects: Option<&CellEffects>,
        new_effects: Option<&CellEffects>,
    ) -> Changed {
        let model = self.model;
        let sharing = &self.facts.sharing;
        let mut out = Changed::default();
        let new_cell = self.source.map(|s| &*model.cells[s]);
        match (event, new_cell, new_effects) {
            (Event::Open, _, _) => {}
            // The cell is run again because its values should change (its
            // code may be newer than its run): all it computes.
            (Event::Execute(_), Some(cell), _) => {
                for v in cell.computed.iter() {
                    out.add(Path::whole(model.vars.name(v)));
                }
            }
            (Event::Edit { .. }, Some(cell), Some(new)) if old.is_some() => {
                let Some(old_effects) = old_effects else {
                    return out;
                };
                let (new_text, old_text) = (
                    cell.parsed.as_deref().map_or("", |p| p.source()),
                    old.and_then(|o| o.parsed.as_deref())
                        .map_or("", |p| p.source()),
                );
                let (new_units, old_units) = (new.texts(new_text), old_effects.texts(old_text));
                let new_changed = CellEffects::unmatched(&new_units, &old_units);
                let old_changed = CellEffects::unmatched(&old_units, &new_units);
                // The changed statements, and what they change through the
                // new cell's other statements.
                let all = Context::new(model, sharing, None);
                let mut diff = Changed::default();
                new.run(&mut diff, &all, Some(&new_changed));
                old_effects.writes_of(&old_changed, &all, &mut diff, true);
                // Names imported differently.
                if let Some(compiled) = cell.compiled.as_deref() {
                    for (v, _) in &compiled.imports {
                        if seed.contains(*v) {
                            out.add(Path::whole(model.vars.name(*v)));
                        }
                    }
                }
                // What the other statements bind is a new object.
                let computed = Context::new(model, sharing, Some(&cell.computed));
                let mut fresh = Changed::default();
                new.writes_of(&vec![true; new.len()], &computed, &mut fresh, false);
                for p in diff.paths.iter() {
                    out.add(p.clone());
                }
                for p in diff.fresh.iter().chain(fresh.paths.iter()) {
                    out.add_fresh(p.clone());
                }
                for f in diff.files {
                    out.add_file(f);
                }
            }
            (_, Some(cell), Some(new)) => {
                let ctx = Context::new(model, sharing, Some(&cell.computed));
                new.writes_of(&vec![true; new.len()], &ctx, &mut out, true);
            }
            _ => {}
        }
        if let (Event::Delete(_), Some(old)) = (event, old_effects) {
            let ctx = Context::new(model, sharing, Some(seed));
            old.writes_of(&vec![true; old.len()], &ctx, &mut out, true);
        }
        out
    }

    /// Adds the cells that rebuild what planned cells (and the event cell's
    /// repeated writes) would otherwise find as Run All does not give it.
    fn undo(&self, plan: &mut [bool]) {
        let (model, facts) = (self.model, self.facts);
        let n = model.cells.len();
        // The last writer of each variable and file as the plan runs, in
        // notebook order.
        let mut last = self.kernel.clone();
        let mut last_files = self.kernel_files.clone();
        for j in 0..n {
            let mut needs: Vec<String> = Vec::new();
            let mut file_needs: Vec<FilePath> = Vec::new();
            if Some(j) == self.anchor {
                needs.extend(self.repeated.iter().cloned());
                file_needs.extend(self.repeated_files.iter().cloned());
            }
            if plan[j] {
                // A value the cell itself wrote last is wrong for it only when
                // its run reads what it wrote (the repeated writes above, for
                // the event cell).
                let mut own: Option<Cow<'_, FxHashSet<String>>> = None;
                for v in model.cells[j].pre.iter() {
                    let stale = match last.get(v) {
                        Some(k) if k > j => true,
                        Some(k) if k == j => {
                            let own = own.get_or_insert_with(|| {
                                if Some(j) == self.anchor {
                                    Cow::Borrowed(&*self.repeated)
                                } else {
                                    facts.repeated_of(model, &model.cells[j])
                                }
                            });
                            let name = model.vars.name(v);
                            own.contains(name)
                                || facts.sharing.group(name).iter().any(|g| own.contains(g))
                        }
                        _ => false,
                    };
                    if stale {
                        needs.push(model.vars.name(v).to_string());
                    }
                }
                let effects = self.effects.of(&model.cells[j]);
                for op in effects.files.ops.iter().filter(|o| o.access.reads()) {
                    let writer = last_files
                        .iter()
                        .rev()
                        .find(|(p, _)| p.overlaps(&op.path))
                        .map(|(_, k)| *k);
                    let stale = match writer {
                        Some(k) if k > j => true,
                        Some(k) if k == j => op.access == files::FileAccess::Update,
                        _ => false,
                    };
                    if stale {
                        file_needs.push(op.path.clone());
                    }
                }
            }
            for name in needs {
                self.rebuild(plan, j, &name);
            }
            for file in file_needs {
                self.rebuild_file(plan, j, &file);
            }
            if plan[j] {
                for &v in facts
                    .writes_of(model, &model.cells[j], self.same_vars)
                    .iter()
                {
                    last.insert(v, j);
                }
                let effects = self.effects.of(&model.cells[j]);
                last_files.extend(file_writes(&effects.files.ops).map(|p| (p, j)));
            }
        }
    }

    /// Plans the cells above `j` that give `name` (and the names that may
    /// share its object, unless it holds an immutable value) the value Run
    /// All gives it at `j`.
    fn rebuild(&self, plan: &mut [bool], j: usize, name: &str) {
        let model = self.model;
        let sharing = &self.facts.sharing;
        let defines = |c: usize, var: Var| {
            model.cells[c]
                .compiled
                .as_deref()
                .is_some_and(|compiled| compiled.defs.contains(var))
        };
        let definer = model
            .vars
            .get(name)
            .and_then(|var| (0..j).rev().find(|&c| defines(c, var)));
        let mut names = vec![name.to_string()];
        match definer {
            Some(d) if sharing.immutable_in(&model.cells[d], name) => {}
            // Its copies and parts hold values no run makes anew.
            Some(d) if sharing.items_immutable_in(&model.cells[d], name) => {
                names.extend(
                    sharing
                        .same(name)
                        .iter()
                        .chain(sharing.holders(name))
                        .cloned(),
                );
            }
            _ => names.extend(sharing.rebuilt_with(name).cloned()),
        }
        for v in &names {
            let Some(var) = model.vars.get(v) else {
                continue;
            };
            let Some(d) = (0..j).rev().find(|&c| defines(c, var)) else {
                continue;
            };
            plan[d] = true;
            for (c, slot) in plan.iter_mut().enumerate().take(j).skip(d + 1) {
                if self.ran[c] && model.cells[c].outputs.contains(var) {
                    *slot = true;
                }
            }
        }
    }

    /// Plans the cells above `j` that give `file` what Run All has there at
    /// `j`: the nearest that writes or removes it (or a folder holding it),
    /// and the cells between that change it.
    fn rebuild_file(&self, plan: &mut [bool], j: usize, file: &FilePath) {
        let cells = &self.model.cells;
        let definer = (0..j).rev().find(|&c| {
            self.effects
                .of(&cells[c])
                .files
                .ops
                .iter()
                .any(|o| o.resets && file.within(&o.path))
        });
        let Some(d) = definer else {
            return;
        };
        plan[d] = true;
        for (c, slot) in plan.iter_mut().enumerate().take(j).skip(d + 1) {
            if self.ran[c]
                && file_writes(&self.effects.of(&cells[c]).files.ops).any(|p| p.overlaps(file))
            {
                *slot = true;
            }
        }
    }

    /// From the event's cell on, in notebook order: the cells that read a
    /// changed value or file, write one, write a file a planned cell above
    /// wrote, or never ran.
    fn forward(&self, plan: &mut [bool], seed: &Changed) {
        let model = self.model;
        let facts = self.facts;
        let start = match self.anchor {
            Some(a) if self.source.is_none() => a,
            Some(a) => a + 1,
            None => 0,
        };
        let ctx = Context::new(model, &facts.sharing, None);
        let mut state = seed.clone();
        // Files the planned cells so far wrote.
        let mut written: Vec<FilePath> = Vec::new();
        for (j, cell) in model.cells.iter().enumerate() {
            if !cell.is_code() {
                continue;
            }
            let effects = self.effects.of(cell);
            let clobbered = self.ran[j]
                && file_writes(&effects.files.ops).any(|p| written.iter().any(|w| w.overlaps(&p)));
            if j < start {
                plan[j] |= clobbered;
                if plan[j] {
                    // What the cells rebuilt above the anchor compute is new.
                    if Some(j) != self.source {
                        for v in cell.computed.iter() {
                            state.add_fresh(Path::whole(model.vars.name(v)));
                        }
                    }
                    written.extend(file_writes(&effects.files.ops));
                }
                continue;
            }
            let never_ran = !self.ran[j] && Some(j) != self.source;
            let runs = plan[j] || never_ran || clobbered;
            if !runs && !effects.may_touch(&state, &ctx) {
                continue;
            }
            let affected = if runs {
                effects.run(&mut state, &ctx, None)
            } else {
                let mut after = state.clone();
                let affected = effects.run(&mut after, &ctx, None);
                if affected {
                    state = after;
                }
                affected
            };
            if runs || affected {
                plan[j] = true;
                if never_ran {
                    for v in cell.computed.iter() {
                        state.add(Path::whole(model.vars.name(v)));
                    }
                    for f in file_writes(&effects.files.ops) {
                        state.add_file(f);
                    }
                }
                written.extend(file_writes(&effects.files.ops));
            }
        }
    }
}
