//! The re-run plan of a what-if query: the cells to run again, in notebook
//! order, so that every output, variable and file ends as Restart & Run All
//! would leave it.
//!
//! - In-place changes the old code made to a value defined above (editing
//!   `xs.append(7)`, or running it once more) are undone by re-running the
//!   cell that defines it and the cells between that change it too.
//! - From the event's cell on, a cell runs again when it reads a changed
//!   value, or rebinds one (so later cells see its value again, as under Run
//!   All); the code-impact transfer then says what it changes.
//! - Cells that never ran in the history run too; cells whose inputs did
//!   not change do not.

use crate::impact::Impact;
use crate::session::Event;
use crate::transformer::run_cell;
use nbsight_model::NotebookModel;
use nbsight_model::vars::VarSet;

/// The cells to re-run, in the event model's indices.
pub fn rerun_plan(
    model: &NotebookModel,
    history: &[usize],
    event: &Event,
    source: Option<usize>,
    seed: &VarSet,
    old_mutated: &VarSet,
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
    // 1. Undo in-place changes to values defined above.
    let repeated = match event {
        Event::Edit { .. } | Event::Delete(_) => old_mutated.clone(),
        Event::Execute(c) if ran[*c] => old_mutated.clone(),
        _ => VarSet::new(),
    };
    if let Some(anchor) = anchor {
        for m in repeated.iter() {
            let definer = (0..anchor).rev().find(|&j| {
                model.cells[j]
                    .compiled
                    .as_deref()
                    .is_some_and(|c| c.defs.contains(m))
            });
            if let Some(d) = definer {
                plan[d] = true;
                for (j, slot) in plan.iter_mut().enumerate().take(anchor).skip(d + 1) {
                    if model.cells[j].outputs.contains(m) {
                        *slot = true;
                    }
                }
                if let Event::Execute(c) = event {
                    plan[*c] = true;
                }
            }
        }
    }
    // 2. The event's own cell.
    if let (Event::Edit { .. } | Event::Insert { .. }, Some(c)) = (event, source) {
        plan[c] = true;
    }
    // 3. Forward, in notebook order.
    let mut impact = Impact::of(seed.clone());
    let start = match (event, anchor) {
        (Event::Delete(_), Some(a)) => a,
        (_, Some(a)) => a + 1,
        (_, None) => 0,
    };
    if let (Some(c), false) = (source, matches!(event, Event::Open)) {
        impact.changed.union_with(&model.cells[c].computed);
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
    plan.iter()
        .enumerate()
        .filter(|(_, p)| **p)
        .map(|(i, _)| i)
        .collect()
}
