//! Replays of the code-impact domain's cell runs. A run changes only the
//! variables the cell may write (its statements' targets and what the user
//! functions it calls bind), and what it makes of them depends only on which
//! of the variables it reads or writes were changed before: a [`RunMemo`]
//! keeps, per cell, a few runs keyed by that, and a run with the same key
//! is not interpreted again.

use std::cell::RefCell;
use std::sync::Arc;

use crate::model::{CellInfo, Compiled, NotebookModel};
use crate::vars::{self, VarSet};

/// Runs kept per cell.
const KEPT_PER_CELL: usize = 8;

/// Kept cell runs, shared by the states of a session.
#[derive(Default)]
pub struct RunMemo {
    cells: RefCell<Vec<Option<CellRuns>>>,
}

impl std::fmt::Debug for RunMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept: usize = self
            .cells
            .borrow()
            .iter()
            .flatten()
            .map(|c| c.runs.len())
            .sum();
        write!(f, "RunMemo({kept} runs)")
    }
}

/// The kept runs of one cell's program.
struct CellRuns {
    /// The program that ran (an edit gives the cell another one).
    program: Arc<Compiled>,
    /// Variables the run reads or may write: which of them were changed
    /// decides the run.
    frame: VarSet,
    /// Variables the run may write.
    writes: VarSet,
    /// (changed ∩ frame before, changed ∩ writes after), most recent last.
    runs: Vec<(VarSet, VarSet)>,
}

impl RunMemo {
    /// The changed variables among `cell`'s writes after a kept run from
    /// a state whose changed variables are `changed`, and the variables it
    /// may write, if such a run is kept.
    pub(super) fn replay(&self, changed: &VarSet, cell: &CellInfo) -> Option<(VarSet, VarSet)> {
        let program = cell.compiled.as_ref()?;
        let mut cells = self.cells.borrow_mut();
        let runs = cells.get_mut(cell.index)?.as_mut()?;
        if !Arc::ptr_eq(&runs.program, program) {
            return None;
        }
        let at = runs
            .runs
            .iter()
            .rposition(|(key, _)| vars::same_within(changed, &runs.frame, key))?;
        let found = runs.runs.remove(at);
        let out = found.1.clone();
        runs.runs.push(found);
        Some((out, runs.writes.clone()))
    }

    /// Keeps the run of `cell` from `before` to `after` (changed variables).
    pub(super) fn keep(
        &self,
        model: &NotebookModel,
        cell: &CellInfo,
        before: &VarSet,
        after: &VarSet,
    ) {
        let Some(program) = cell.compiled.as_ref() else {
            return;
        };
        let mut cells = self.cells.borrow_mut();
        if cells.len() <= cell.index {
            cells.resize_with(cell.index + 1, || None);
        }
        let slot = &mut cells[cell.index];
        if slot
            .as_ref()
            .is_none_or(|runs| !Arc::ptr_eq(&runs.program, program))
        {
            let mut writes = VarSet::new();
            for stmt in &program.program.stmts {
                for &(v, _) in &stmt.writes {
                    vars::insert(&mut writes, v);
                }
                for v in &stmt.reads {
                    if let Some(f) = model.functions.get(v) {
                        vars::union_with(&mut writes, &f.writes);
                    }
                }
            }
            let mut frame = cell.reads.clone();
            vars::union_with(&mut frame, &writes);
            *slot = Some(CellRuns {
                program: program.clone(),
                frame,
                writes,
                runs: Vec::new(),
            });
        }
        let Some(runs) = slot.as_mut() else {
            return;
        };
        let mut key = before.clone();
        key.intersect_with(&runs.frame);
        let mut out = after.clone();
        out.intersect_with(&runs.writes);
        if runs.runs.len() >= KEPT_PER_CELL {
            runs.runs.remove(0);
        }
        runs.runs.push((key, out));
    }
}

#[cfg(test)]
mod tests {
    use nbsight_dataflow::Effects;

    use super::super::Impact;
    use crate::domain::Domain;
    use crate::model::NotebookModel;
    use crate::test_support::notebook;
    use crate::transformer::run_cell;
    use crate::vars;

    /// Every cell run from every combination of changed names, twice (the
    /// second time replayed), ends as interpreting it does.
    #[test]
    fn replayed_runs_end_as_interpreted_ones() {
        let model = NotebookModel::new(
            &notebook(&[
                "def f():\n    global g\n    g = h",
                "if cond:\n    x = 1",
                "f()",
                "for i in items:\n    x = x + i",
                "y = x\ndel z",
                "items.append(h)",
            ]),
            &Effects::builtin(),
        );
        let names = ["g", "h", "x", "cond", "items", "y", "z"];
        let ids: Vec<_> = names.iter().filter_map(|n| model.vars.get(n)).collect();
        assert_eq!(ids.len(), names.len());
        let mut memo = Impact::default();
        memo.remember_runs();
        for _ in 0..2 {
            for cell in model.code_cells() {
                for mask in 0..1u32 << ids.len() {
                    let changed = vars::set_of(
                        ids.iter()
                            .enumerate()
                            .filter(|(i, _)| mask & (1 << i) != 0)
                            .map(|(_, &v)| v),
                    );
                    let plain = Impact::of(changed.clone());
                    let (expected, _) = run_cell(&plain, &model, cell, true);
                    let mut replaying = memo.clone();
                    replaying.changed = changed;
                    let (got, _) = replaying.run(&model, cell, None);
                    assert!(
                        vars::same(&got.changed, &expected.changed),
                        "cell {} from {:?}: {:?} vs {:?}",
                        cell.index,
                        model.vars.names_of(&plain.changed),
                        model.vars.names_of(&got.changed),
                        model.vars.names_of(&expected.changed)
                    );
                }
            }
        }
    }
}
