//! The abstract cell transformer F_c (NBLyzer sec. 3.2.1): runs a domain over
//! a cell's blocks to a fixpoint (one pass when the cell has no loop; with
//! widening at repeated visits otherwise), then a last pass that collects
//! alarms from the stable states.

use crate::alarm::{Alarm, Alarms};
use crate::domain::{Domain, StmtCtx};
use nbsight_model::program::Program;
use nbsight_model::{CellInfo, NotebookModel};

/// Visits of a block after which its state is widened.
const WIDEN_AFTER: u32 = 3;

/// The state after running `cell` on `input`, and the alarms raised.
pub fn run_cell<D: Domain>(
    input: &D,
    model: &NotebookModel,
    cell: &CellInfo,
    collect: bool,
) -> (D, Vec<Alarm>) {
    let Some(program) = cell.program() else {
        return (input.clone(), Vec::new());
    };
    let mut alarms = Alarms {
        on: collect && program.acyclic,
        list: Vec::new(),
    };
    let mut out: Vec<Option<D>> = vec![None; program.blocks.len()];
    let run = Run {
        input,
        model,
        cell,
        program,
    };
    if program.acyclic {
        run.pass(&mut out, &mut alarms, |_, new, slot| *slot = Some(new));
    } else {
        let mut visits = vec![0u32; program.blocks.len()];
        loop {
            let mut changed = false;
            run.pass(&mut out, &mut alarms, |b, mut new, slot| match slot {
                Some(old) if new.leq(old) => {}
                Some(old) => {
                    visits[b] += 1;
                    if visits[b] >= WIDEN_AFTER {
                        new.widen(old);
                    } else {
                        new.join(old);
                    }
                    *slot = Some(new);
                    changed = true;
                }
                None => {
                    *slot = Some(new);
                    changed = true;
                }
            });
            if !changed {
                break;
            }
        }
        if collect {
            // The states are stable: one more pass reports what they imply.
            alarms.on = true;
            let mut last = out.clone();
            run.pass(&mut last, &mut alarms, |_, new, slot| *slot = Some(new));
        }
    }
    let result = program
        .exit
        .and_then(|b| out[b as usize].clone())
        .or_else(|| program.raise.and_then(|b| out[b as usize].clone()))
        .unwrap_or_else(|| input.clone());
    (result, alarms.list)
}

/// What one cell run works on.
struct Run<'a, D> {
    input: &'a D,
    model: &'a NotebookModel,
    cell: &'a CellInfo,
    program: &'a Program,
}

impl<D: Domain> Run<'_, D> {
    /// One pass over the blocks in order; `store(block, state, slot)` decides
    /// what becomes of each block's output state.
    fn pass(
        &self,
        out: &mut [Option<D>],
        alarms: &mut Alarms,
        mut store: impl FnMut(usize, D, &mut Option<D>),
    ) {
        let Run {
            input,
            model,
            cell,
            program,
        } = *self;
        for (b, block) in program.blocks.iter().enumerate() {
            let mut state = if b == 0 {
                input.clone()
            } else {
                let mut preds = block.preds.iter().filter_map(|&p| out[p as usize].as_ref());
                let Some(first) = preds.next() else {
                    continue;
                };
                let mut state = first.clone();
                for other in preds {
                    state.join(other);
                }
                state
            };
            let ctx = StmtCtx {
                model,
                cell: cell.index,
                program,
                in_loop: block.in_loop,
            };
            for stmt in &program.stmts[block.stmts.start as usize..block.stmts.end as usize] {
                state.transfer(stmt, &ctx, alarms);
            }
            store(b, state, &mut out[b]);
        }
    }
}
