//! Replays of the code-impact domain's cell runs. A run changes only the
//! variables the cell may write (its statements' targets and what the user
//! functions it calls bind), and what it makes of them depends only on which
//! of the variables it reads or writes were changed before: a [`RunMemo`]
//! keeps, per cell, a few runs keyed by that, and a run with the same key
//! is not interpreted again.

use std::rc::Rc;

use nbsight_absint::CellMemo;
use nbsight_model::vars::VarSet;
use nbsight_model::{CellInfo, NotebookModel};

/// Kept code-impact runs of a session's cells.
#[derive(Debug, Default)]
pub struct RunMemo(CellMemo<Shape, Run>);

/// What any run of a program reads and writes.
pub struct Shape {
    /// Variables the run reads or may write: which of them were changed
    /// decides the run.
    frame: VarSet,
    /// Variables the run may write.
    writes: VarSet,
}

/// One kept run: the changed variables of the frame before it, and of the
/// writes after it.
pub struct Run {
    before: VarSet,
    after: VarSet,
}

impl RunMemo {
    /// A kept run of `cell` from a state whose changed variables agree
    /// with `changed` on what the cell reads or writes, with the shape of
    /// the cell's program.
    pub(super) fn replay(&self, changed: &VarSet, cell: &CellInfo) -> Option<(Rc<Run>, Rc<Shape>)> {
        self.0.find(cell, |shape, run| {
            changed.same_within(&shape.frame, &run.before)
        })
    }

    /// Keeps the run of `cell` from `before` to `after` (changed variables).
    pub(super) fn keep(
        &self,
        model: &NotebookModel,
        cell: &CellInfo,
        before: &VarSet,
        after: &VarSet,
    ) {
        self.0.keep(
            cell,
            |program| {
                let mut writes = VarSet::new();
                for stmt in &program.program.stmts {
                    for &(v, _) in &stmt.writes {
                        writes.insert(v);
                    }
                    for v in &stmt.reads {
                        if let Some(f) = model.functions.get(v) {
                            writes.union_with(&f.writes);
                        }
                    }
                }
                let mut frame = cell.reads.clone();
                frame.union_with(&writes);
                Shape { frame, writes }
            },
            |shape| {
                let mut kept = before.clone();
                kept.intersect_with(&shape.frame);
                let mut out = after.clone();
                out.intersect_with(&shape.writes);
                Run {
                    before: kept,
                    after: out,
                }
            },
        );
    }
}

impl Run {
    /// The changed variables after this run, from `changed` before it.
    pub(super) fn apply(&self, shape: &Shape, changed: &VarSet) -> VarSet {
        let mut out = changed.clone();
        out.difference_with(&shape.writes);
        out.union_with(&self.after);
        out
    }
}

#[cfg(test)]
mod tests {
    use nbsight_dataflow::Effects;

    use super::super::Impact;
    use nbsight_absint::Domain;
    use nbsight_absint::run_cell;
    use nbsight_model::NotebookModel;
    use nbsight_model::testing::notebook;
    use nbsight_model::vars::VarSet;

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
                    let changed = VarSet::from_iter(
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
                        got.changed.same(&expected.changed),
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
