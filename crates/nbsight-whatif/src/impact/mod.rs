//! The code-impact domain (NBLyzer sec. 4.1): the set of variables whose
//! value changed because of the event. A statement reading a changed variable
//! (directly or through a user function's free globals) changes what it
//! writes; a plain rebinding from unchanged values clears a variable.
//! φ = state ∩ pre(c) ≠ ∅.

pub mod replay;

use std::rc::Rc;

use nbsight_absint::{Alarm, Alarms, Domain, StmtCtx};
use nbsight_model::program::{Stmt, WriteKind};
use nbsight_model::vars::VarSet;
use nbsight_model::{CellInfo, NotebookModel};

/// Changed variables.
#[derive(Debug, Clone, Default)]
pub struct Impact {
    pub changed: VarSet,
    /// Cell runs to replay (a session's; not part of the lattice element).
    memo: Option<Rc<replay::RunMemo>>,
}

impl Impact {
    /// The state where the variables of `changed` changed.
    pub fn of(changed: VarSet) -> Self {
        Impact {
            changed,
            memo: None,
        }
    }

    /// Keeps this state's cell runs, and those of the states computed from
    /// it, in a new memo, to replay runs on states that agree with them.
    pub fn remember_runs(&mut self) {
        self.memo = Some(Rc::default());
    }

    /// Stops replaying cell runs (the model no longer matches them).
    pub fn forget_runs(&mut self) {
        self.memo = None;
    }

    /// Interprets `cell`, or replays a kept run (keeping the new ones).
    fn interpret(&self, model: &NotebookModel, cell: &CellInfo) -> Self {
        let Some(memo) = &self.memo else {
            return nbsight_absint::run_cell(self, model, cell, true).0;
        };
        if let Some((run, shape)) = memo.replay(&self.changed, cell) {
            return Impact {
                changed: run.apply(&shape, &self.changed),
                memo: self.memo.clone(),
            };
        }
        let (after, _) = nbsight_absint::run_cell(self, model, cell, true);
        memo.keep(model, cell, &self.changed, &after.changed);
        after
    }

    /// The program of `cell` when it reads no changed variable and deletes
    /// none: running it changes nothing, it only clears what it binds on
    /// every path.
    fn untouched<'c>(&self, cell: &'c CellInfo) -> Option<&'c nbsight_model::program::Program> {
        cell.program()
            .filter(|p| !p.deletes && !self.changed.intersects(&cell.reads))
    }
}

impl Domain for Impact {
    type Growth = VarSet;

    fn leq(&self, other: &Self) -> bool {
        self.changed.is_subset(&other.changed)
    }

    fn join(&mut self, other: &Self) {
        self.changed.union_with(&other.changed);
        if self.memo.is_none() {
            self.memo.clone_from(&other.memo);
        }
    }

    fn transfer(&mut self, stmt: &Stmt, ctx: &StmtCtx<'_>, _alarms: &mut Alarms) {
        let functions = &ctx.model.functions;
        let mut tainted = false;
        for &v in &stmt.reads {
            if self.changed.contains(v) {
                tainted = true;
                break;
            }
            if let Some(f) = functions.get(&v)
                && f.reads.intersects(&self.changed)
            {
                tainted = true;
                break;
            }
        }
        if tainted {
            for &(v, _) in &stmt.writes {
                self.changed.insert(v);
            }
            for &v in &stmt.reads {
                if let Some(f) = functions.get(&v) {
                    self.changed.union_with(&f.writes);
                }
            }
        } else {
            for &(v, kind) in &stmt.writes {
                match kind {
                    WriteKind::Strong => self.changed.remove(v),
                    WriteKind::Delete => self.changed.insert(v),
                    WriteKind::Weak => {}
                }
            }
        }
    }

    fn phi(&self, cell: &CellInfo) -> bool {
        self.changed.intersects(&cell.pre)
    }

    fn seed(&mut self, changed: &VarSet) {
        self.changed.union_with(changed);
    }

    fn growth(&self, old: &Self, into: &mut VarSet) {
        for v in self.changed.iter() {
            if !old.changed.contains(v) {
                into.insert(v);
            }
        }
    }

    /// A cell that reads no changed variable (and deletes none) changes
    /// nothing: it only clears what it binds on every path.
    fn run(
        &self,
        model: &NotebookModel,
        cell: &CellInfo,
        _grown: Option<&VarSet>,
    ) -> (Self, Vec<Alarm>) {
        if let Some(program) = self.untouched(cell) {
            let mut changed = self.changed.clone();
            changed.difference_with(&program.rebound);
            return (
                Impact {
                    changed,
                    memo: self.memo.clone(),
                },
                Vec::new(),
            );
        }
        (self.interpret(model, cell), Vec::new())
    }

    /// The short way of [`Impact::run`] only clears variables: nothing to
    /// join.
    fn run_join(
        &self,
        model: &NotebookModel,
        cell: &CellInfo,
        _grown: Option<&VarSet>,
        into: &mut Self,
        added: &mut VarSet,
    ) -> Vec<Alarm> {
        if self.untouched(cell).is_some() {
            return Vec::new();
        }
        let after = self.interpret(model, cell);
        nbsight_absint::join_result(self, &after, into, added);
        Vec::new()
    }

    fn affects(&self, grown: &VarSet, cell: &CellInfo) -> bool {
        grown.intersects(&cell.reads)
    }
}

#[cfg(test)]
mod tests {
    use nbsight_dataflow::Effects;

    use super::*;
    use nbsight_absint::run_cell;
    use nbsight_model::testing::notebook;

    /// A cell reading no changed variable takes the short way; it must end
    /// where interpreting it does, whatever its control flow.
    #[test]
    fn untouched_cells_clear_what_they_bind_on_every_path() {
        let model = NotebookModel::new(
            &notebook(&[
                "a = 1\nb = 2",
                "if cond:\n    a = 3\nelse:\n    a = 4\n    b = 5",
                "for i in items:\n    a = i\nb = 0",
                "while cond:\n    a = 1\n    if stop:\n        break\nelse:\n    b = 2",
                "try:\n    a = load()\nexcept ValueError:\n    raise\nb = 1",
                "a.append(1)\nb = 2\nb += 1",
                "def f():\n    return g\nc = f()",
            ]),
            &Effects::builtin(),
        );
        let names = ["a", "b", "c", "g", "i", "x"];
        let ids: Vec<_> = names.iter().filter_map(|n| model.vars.get(n)).collect();
        for cell in model.code_cells() {
            // Every subset of the names the cell does not read.
            let free: Vec<_> = ids
                .iter()
                .copied()
                .filter(|&v| !cell.reads.contains(v))
                .collect();
            for mask in 0..1u32 << free.len() {
                let changed = VarSet::from_iter(
                    free.iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (1 << i) != 0)
                        .map(|(_, &v)| v),
                );
                let state = Impact::of(changed);
                let (short, _) = state.run(&model, cell, None);
                let (full, _) = run_cell(&state, &model, cell, true);
                assert!(
                    short.changed.same(&full.changed),
                    "cell {}: {:?} vs {:?}",
                    cell.index,
                    model.vars.names_of(&short.changed),
                    model.vars.names_of(&full.changed)
                );
            }
        }
    }
}
