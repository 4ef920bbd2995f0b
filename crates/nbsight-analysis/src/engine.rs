//! Inter-cell propagation (NBLyzer Algorithm 3): from an event's source cell,
//! run the abstract cell transformer and propagate the resulting state to
//! every cell whose φ holds (a cell may be its own successor), breadth first
//! so each cell is first reached at its least depth. One map η from cell to
//! the join of the states computed there is shared by all paths: a cell whose
//! new state is subsumed by its η entry is not expanded again (fixpoint
//! pruning), which also makes unbounded K terminate on finite domains.

use std::collections::VecDeque;

use crate::domain::{Alarm, Domain};
use crate::model::{CellInfo, NotebookModel};
use crate::transformer::run_cell;
use crate::vars::VarSet;

/// One cell execution the exploration considered.
#[derive(Debug, Clone)]
pub struct Visit<D> {
    pub cell: usize,
    /// 0 for the source; n when reached over n propagation edges.
    pub depth: usize,
    /// The cells executed, in order, ending with `cell`.
    pub path: Vec<usize>,
    /// The state the cell ran on.
    pub before: D,
    /// Alarms raised while running it.
    pub alarms: Vec<Alarm>,
    /// Its state was subsumed by η: not expanded.
    pub pruned: bool,
}

/// Limits of an exploration.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bounds {
    /// Analyse cells up to this depth (inclusive); `None` is unbounded.
    pub k: Option<usize>,
}

/// Where an exploration starts.
#[derive(Debug, Clone, Copy)]
pub enum Start {
    /// Run this cell first (depth 0), then propagate.
    Cell(usize),
    /// Propagate from the given state directly (a deleted cell: nothing runs
    /// at depth 0).
    State,
}

/// Explores from `start` on `initial`; `extra` is what the event changes
/// besides the source's outputs (see [`Domain::seed`]). Edges follow the
/// domain's φ.
pub fn explore<D: Domain>(
    model: &NotebookModel,
    start: Start,
    initial: &D,
    extra: &VarSet,
    bounds: Bounds,
) -> Vec<Visit<D>> {
    explore_with(model, start, initial, extra, bounds, |state, cell| {
        state.phi(cell)
    })
}

/// [`explore`] with edges following `phi` instead of the domain's φ.
pub fn explore_with<D: Domain>(
    model: &NotebookModel,
    start: Start,
    initial: &D,
    extra: &VarSet,
    bounds: Bounds,
    phi: impl Fn(&D, &CellInfo) -> bool,
) -> Vec<Visit<D>> {
    let mut eta: Vec<Option<D>> = vec![None; model.cells.len()];
    let mut visits = Vec::new();
    let mut queue: VecDeque<(usize, usize, Vec<usize>, D)> = VecDeque::new();
    match start {
        Start::Cell(source) => queue.push_back((source, 0, vec![source], initial.clone())),
        Start::State => {
            let mut seeded = initial.clone();
            if let Some(any) = model.cells.first() {
                // Only `extra` is seeded: no cell ran.
                let empty = CellInfo {
                    outputs: VarSet::new(),
                    computed: VarSet::new(),
                    ..any.clone()
                };
                seeded.seed(&empty, extra);
            }
            for next in model.code_cells() {
                if phi(&seeded, next) && bounds.k.is_none_or(|k| k >= 1) {
                    queue.push_back((next.index, 1, vec![next.index], seeded.clone()));
                }
            }
        }
    }
    while let Some((cell, depth, path, before)) = queue.pop_front() {
        let info = &model.cells[cell];
        let (mut after, alarms) = run_cell(&before, model, info, true);
        if depth == 0 {
            after.seed(info, extra);
        }
        let pruned = eta[cell].as_ref().is_some_and(|e| after.leq(e));
        let expand = !pruned && bounds.k.is_none_or(|k| depth < k);
        if !pruned {
            match &mut eta[cell] {
                Some(e) => e.join(&after),
                slot => *slot = Some(after.clone()),
            }
        }
        visits.push(Visit {
            cell,
            depth,
            path: path.clone(),
            before,
            alarms,
            pruned,
        });
        if !expand {
            continue;
        }
        for next in model.code_cells() {
            if phi(&after, next) {
                let mut p = path.clone();
                p.push(next.index);
                queue.push_back((next.index, depth + 1, p, after.clone()));
            }
        }
    }
    visits
}
