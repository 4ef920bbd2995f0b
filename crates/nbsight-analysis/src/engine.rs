//! Inter-cell propagation (NBLyzer Algorithm 3): from an event's source cell,
//! run the abstract cell transformer and propagate the resulting state to
//! every cell whose φ holds (a cell may be its own successor), breadth first
//! so each cell is first reached at its least depth. One map η from cell to
//! the join of the states computed there is shared by all paths: a cell whose
//! new state is subsumed by its η entry is not expanded again (fixpoint
//! pruning), which also makes unbounded K terminate on finite domains. By
//! monotonicity of the transformers the same holds one step earlier: a
//! successor whose incoming state is subsumed by the join of the states it was
//! already queued with is not queued again (it could only produce a subsumed
//! state), which keeps the queue from growing with every path.

use std::collections::VecDeque;
use std::rc::Rc;

use crate::domain::{Alarm, Domain};
use crate::model::{CellInfo, NotebookModel};
use crate::transformer::run_cell;
use crate::vars::{self, VarSet};

/// Times one exploration expands (propagates from) the same cell. Each
/// expansion follows a strictly larger state; on finite domains the number is
/// bounded anyway, but in ML notebooks with many models the leakage state
/// can grow by one fact at a time along hundreds of orders.
const EXPAND_LIMIT: u32 = 4;

/// One cell execution the exploration considered.
#[derive(Debug, Clone)]
pub struct Visit<D> {
    pub cell: usize,
    /// 0 for the source; n when reached over n propagation edges.
    pub depth: usize,
    /// The cells executed, in order, ending with `cell`.
    pub path: Vec<usize>,
    /// The state the cell ran on.
    pub before: Rc<D>,
    /// Alarms raised while running it.
    pub alarms: Vec<Alarm>,
}

/// Limits of an exploration.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bounds {
    /// Analyse cells up to this depth (inclusive); `None` is unbounded.
    pub k: Option<usize>,
    /// Stop after this many cell executions (`None`: no limit); the
    /// exploration then says it was truncated.
    pub max_visits: Option<usize>,
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
) -> Exploration<D> {
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
) -> Exploration<D> {
    let n = model.cells.len();
    let mut eta: Vec<Option<D>> = vec![None; n];
    let mut eta_in: Vec<Option<D>> = vec![None; n];
    let mut visits = Vec::new();
    let mut queue: VecDeque<Entry<D>> = VecDeque::new();
    // `pending[cell]`: the sequence number and depth of the cell's entry
    // still in the queue; entries are numbered as they are pushed, so the
    // front entry's number is `popped`.
    let mut pending: Vec<Option<(usize, usize)>> = vec![None; n];
    let mut pushed = 0usize;
    let mut popped = 0usize;
    // Queues `cell` with `state` unless a state it was queued with subsumes
    // it. A cell still waiting in the queue at the same depth runs once on
    // the join of the states it was queued with (chaotic iteration: it
    // would otherwise run once per path that reached it meanwhile); clones
    // only what is queued.
    let mut push = |queue: &mut VecDeque<Entry<D>>,
                    pushed: &mut usize,
                    popped: usize,
                    cell: usize,
                    depth: usize,
                    path: &[usize],
                    state: &D| {
        match &mut eta_in[cell] {
            Some(seen) if state.leq(seen) => return,
            Some(seen) => seen.widen_with(state),
            slot => *slot = Some(state.clone()),
        }
        // Inter-cell widening (NBLyzer sec. 3.2.3): a cell reached again
        // and again runs on everything seen there, so the next paths are
        // subsumed at once.
        let Some(seen) = eta_in[cell].as_ref() else {
            return;
        };
        if let Some((seq, at)) = pending[cell]
            && at == depth
            && seq >= popped
        {
            queue[seq - popped].state = Rc::new(seen.clone());
            return;
        }
        let mut path = path.to_vec();
        path.push(cell);
        pending[cell] = Some((*pushed, depth));
        *pushed += 1;
        queue.push_back(Entry {
            cell,
            depth,
            path,
            state: Rc::new(seen.clone()),
        });
    };
    match start {
        Start::Cell(source) => push(&mut queue, &mut pushed, popped, source, 0, &[], initial),
        Start::State => {
            // Nothing runs: only `extra` changed.
            let mut seeded = initial.clone();
            seeded.seed(extra);
            if bounds.k.is_none_or(|k| k >= 1) {
                for next in model.code_cells() {
                    if phi(&seeded, next) {
                        push(&mut queue, &mut pushed, popped, next.index, 1, &[], &seeded);
                    }
                }
            }
        }
    }
    let mut truncated = false;
    let mut expanded = vec![0u32; n];
    while let Some(Entry {
        cell,
        depth,
        path,
        state: before,
    }) = queue.pop_front()
    {
        popped += 1;
        if bounds.max_visits.is_some_and(|max| visits.len() >= max) {
            truncated = true;
            break;
        }
        let info = &model.cells[cell];
        let (mut after, alarms) = run_cell(&*before, model, info, true);
        if depth == 0 {
            let mut changed = info.computed.clone();
            vars::union_with(&mut changed, extra);
            after.seed(&changed);
        }
        let pruned = eta[cell].as_ref().is_some_and(|e| after.leq(e));
        let mut expand = !pruned && bounds.k.is_none_or(|k| depth < k);
        if expand {
            expanded[cell] += 1;
            if expanded[cell] > EXPAND_LIMIT {
                // Its state keeps growing along ever more orders: what it
                // leads to from here is not explored (and the report says so).
                expand = false;
                truncated = true;
            }
        }
        if !pruned {
            match &mut eta[cell] {
                Some(e) => e.join(&after),
                slot => *slot = Some(after.clone()),
            }
        }
        if expand {
            for next in model.code_cells() {
                if phi(&after, next) {
                    push(
                        &mut queue,
                        &mut pushed,
                        popped,
                        next.index,
                        depth + 1,
                        &path,
                        &after,
                    );
                }
            }
        }
        visits.push(Visit {
            cell,
            depth,
            path,
            before,
            alarms,
        });
    }
    Exploration { visits, truncated }
}

/// A queued cell execution.
struct Entry<D> {
    cell: usize,
    depth: usize,
    path: Vec<usize>,
    state: Rc<D>,
}

/// What an exploration visited.
#[derive(Debug, Clone)]
pub struct Exploration<D> {
    pub visits: Vec<Visit<D>>,
    /// The visit budget ran out before the exploration ended.
    pub truncated: bool,
}
