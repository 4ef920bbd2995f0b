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
//!   its object), and the cells between that change it in place.
//! - Running the event's cell again repeats what its old run did to the
//!   values it found ([`writes`]): those are rebuilt the same way.
//! - From the event's cell on, a cell runs again when it reads a changed
//!   value, or rebinds one (so later cells see its value again, as under Run
//!   All); the code-impact transfer then says what it changes.
//! - Cells that never ran in the history run too; cells whose inputs did
//!   not change do not.
//!
//! Which names share an object is the model's one may-alias analysis
//! ([`nbsight_model::aliases`], also the slicer's).

mod sharing;
mod writes;

use std::borrow::Cow;

use crate::impact::Impact;
use crate::session::Event;
use crate::transformer::run_cell;
use nbsight_model::vars::{Var, VarSet};
use nbsight_model::{CellInfo, NotebookModel};
use rustc_hash::{FxHashMap, FxHashSet};

use sharing::Sharing;
use writes::{ArgumentChanges, repeated_writes};

/// What the re-run plan reads off a notebook's cells once per session:
/// which names may share objects and which user functions change their
/// arguments.
#[derive(Debug)]
pub struct RerunFacts {
    sharing: Sharing,
    changes: ArgumentChanges,
    /// The arguments each cell of the session's model passes to functions
    /// that change them, by the cell's address (cells an event leaves
    /// unchanged are shared with the event's model).
    changed_by: FxHashMap<usize, Vec<String>>,
    /// What each cell of the session's model writes ([`written`]), by
    /// address, in the session model's variable ids.
    writes: FxHashMap<usize, Vec<Var>>,
}

impl RerunFacts {
    pub fn of(model: &NotebookModel) -> RerunFacts {
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
        let mut facts = RerunFacts {
            sharing: Sharing::of(modules()),
            changes,
            changed_by,
            writes: FxHashMap::default(),
        };
        facts.writes = model
            .cells
            .iter()
            .map(|c| (address(c), written(model, c, &facts)))
            .collect();
        facts
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

    /// `names` as the model's variables, with the variables that may share
    /// their objects.
    fn shared_vars<'a>(
        &self,
        model: &NotebookModel,
        names: impl Iterator<Item = &'a str>,
        out: &mut Vec<Var>,
    ) {
        for name in names {
            out.extend(model.vars.get(name));
            out.extend(
                self.sharing
                    .group(name)
                    .iter()
                    .filter_map(|g| model.vars.get(g)),
            );
        }
    }
}

/// The cells to re-run, in the event model's indices. `old` is the event
/// cell as it ran in the history (`None`: it never ran, or was inserted).
#[allow(clippy::too_many_arguments)]
pub fn rerun_plan(
    model: &NotebookModel,
    history: &[usize],
    event: &Event,
    source: Option<usize>,
    seed: &VarSet,
    old: Option<&CellInfo>,
    facts: &RerunFacts,
    same_vars: bool,
) -> Vec<usize> {
    let n = model.cells.len();
    let mut plan = vec![false; n];
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
    // What the event cell's old run did to the values it found.
    let repeated: FxHashSet<String> = match (event, old) {
        (Event::Open | Event::Insert { .. }, _) | (_, None) => FxHashSet::default(),
        (_, Some(old)) => repeated_writes(old, new_cell, &facts.changes),
    };
    // Who last wrote each variable in the kernel the history left (notebook
    // positions); the event cell's old run counts at its position.
    let mut kernel: FxHashMap<Var, usize> = FxHashMap::default();
    for &h in history {
        if h >= n {
            continue;
        }
        let vars = match (Some(h) == source, old) {
            (true, Some(old)) => facts.writes_of(model, old, same_vars),
            _ => facts.writes_of(model, &model.cells[h], same_vars),
        };
        for &v in vars.iter() {
            kernel.insert(v, h);
        }
    }
    if let (Event::Delete(d), Some(old)) = (event, old) {
        // The deleted cell's run is in the kernel, at the position of the
        // cell that now follows it.
        for &v in facts.writes_of(model, old, same_vars).iter() {
            kernel.insert(v, *d);
        }
    }
    if let (Event::Edit { .. } | Event::Insert { .. }, Some(c)) = (event, source) {
        plan[c] = true;
    }
    let mut first = true;
    loop {
        let before = plan.clone();
        undo(
            model, &mut plan, &ran, anchor, &repeated, &kernel, same_vars, facts,
        );
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
        forward(model, &mut plan, &ran, event, anchor, source, seed);
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

/// The variables a run of `cell` writes, and those sharing the objects it
/// changes in place.
fn written(model: &NotebookModel, cell: &CellInfo, facts: &RerunFacts) -> Vec<Var> {
    let mut out: Vec<Var> = cell.outputs.iter().collect();
    let in_place = cell.compiled.as_deref().map(|c| &c.mutated);
    if let Some(mutated) = in_place {
        let names: Vec<&str> = mutated.iter().map(|v| model.vars.name(v)).collect();
        facts.shared_vars(model, names.into_iter(), &mut out);
    }
    let changed = facts.arguments_changed(cell);
    facts.shared_vars(model, changed.iter().map(String::as_str), &mut out);
    out
}

/// A cell's identity for [`RerunFacts`]' cache.
fn address(cell: &CellInfo) -> usize {
    std::ptr::from_ref(cell) as usize
}

/// Adds the cells that rebuild what planned cells (and the event cell's
/// repeated writes) would otherwise find as Run All does not give it.
#[allow(clippy::too_many_arguments)]
fn undo(
    model: &NotebookModel,
    plan: &mut [bool],
    ran: &[bool],
    anchor: Option<usize>,
    repeated: &FxHashSet<String>,
    kernel: &FxHashMap<Var, usize>,
    same_vars: bool,
    facts: &RerunFacts,
) {
    let n = model.cells.len();
    // The last writer of each variable as the plan runs, in notebook order.
    let mut last = kernel.clone();
    for j in 0..n {
        let mut needs: Vec<String> = Vec::new();
        if Some(j) == anchor {
            needs.extend(repeated.iter().cloned());
        }
        if plan[j] {
            // A value the cell itself wrote last is wrong for it only when
            // its run reads what it wrote (the repeated writes above, for
            // the event cell).
            let mut own: Option<FxHashSet<String>> = None;
            for v in model.cells[j].pre.iter() {
                let stale = match last.get(&v) {
                    Some(&k) if k > j => true,
                    Some(&k) if k == j => {
                        let own = own.get_or_insert_with(|| {
                            if Some(j) == anchor {
                                repeated.clone()
                            } else {
                                repeated_writes(&model.cells[j], None, &facts.changes)
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
        }
        for name in needs {
            rebuild(model, plan, ran, j, &name, &facts.sharing);
        }
        if plan[j] {
            for &v in facts.writes_of(model, &model.cells[j], same_vars).iter() {
                last.insert(v, j);
            }
        }
    }
}

/// Plans the cells above `j` that give `name` (and the names that may share
/// its object, unless it holds an immutable value) the value Run All gives
/// it at `j`.
fn rebuild(
    model: &NotebookModel,
    plan: &mut [bool],
    ran: &[bool],
    j: usize,
    name: &str,
    sharing: &Sharing,
) {
    let defines = |c: usize, v: &str| {
        model.vars.get(v).is_some_and(|var| {
            model.cells[c]
                .compiled
                .as_deref()
                .is_some_and(|compiled| compiled.defs.contains(var))
        })
    };
    let definer = (0..j).rev().find(|&c| defines(c, name));
    let mut names = vec![name.to_string()];
    if definer.is_none_or(|d| !sharing.immutable_in(&model.cells[d], name)) {
        names.extend(sharing.group(name).iter().cloned());
    }
    for v in &names {
        let Some(d) = (0..j).rev().find(|&c| defines(c, v)) else {
            continue;
        };
        plan[d] = true;
        let Some(var) = model.vars.get(v) else {
            continue;
        };
        for (c, slot) in plan.iter_mut().enumerate().take(j).skip(d + 1) {
            if ran[c] && model.cells[c].outputs.contains(var) {
                *slot = true;
            }
        }
    }
}

/// From the event's cell on, in notebook order: the cells that read a
/// changed value, rebind one, or never ran.
fn forward(
    model: &NotebookModel,
    plan: &mut [bool],
    ran: &[bool],
    event: &Event,
    anchor: Option<usize>,
    source: Option<usize>,
    seed: &VarSet,
) {
    let n = model.cells.len();
    let mut impact = Impact::of(seed.clone());
    let start = match (event, anchor) {
        (Event::Delete(_), Some(a)) => a,
        (_, Some(a)) => a + 1,
        (_, None) => 0,
    };
    if let (Some(c), false) = (source, matches!(event, Event::Open)) {
        impact.changed.union_with(&model.cells[c].computed);
    }
    // What the cells rebuilt above the anchor compute is new too.
    for (c, cell) in model.cells.iter().enumerate().take(start) {
        if plan[c] {
            impact.changed.union_with(&cell.computed);
        }
    }
    for j in start..n {
        let cell = &model.cells[j];
        if !cell.is_code() {
            continue;
        }
        let never_ran = !ran[j] && Some(j) != source;
        let affected =
            cell.pre.intersects(&impact.changed) || cell.outputs.intersects(&impact.changed);
        if plan[j] || affected || never_ran {
            plan[j] = true;
            let (after, _) = run_cell(&impact, model, cell, false);
            impact = after;
            if never_ran {
                impact.changed.union_with(&cell.computed);
            }
        }
    }
}
