//! Dynamic slices over the real execution history (NBSlicer Definition 1 at
//! cell granularity): the backward slice of an execution is the transitive
//! closure over the executions that set what an execution in the slice
//! read; the forward slice, over the executions that read what one in the
//! slice set. Failed executions are never part of a slice (the one sliced
//! from excepted).

use std::sync::Arc;

use nbsight_dataflow::symbol::root;
use rustc_hash::FxHashMap;

use crate::session::Execution;
use crate::symbols::{ExecIdx, Ts};

impl Execution {
    /// An execution as a history stores it (`nbsight-history`): the given
    /// fields, nothing read, written or depended on yet (set the public
    /// fields), and no static facts (a rebuilt log answers slices, not
    /// `before_run`).
    pub fn new(cell_id: String, counter: Ts, source: String) -> Execution {
        Execution {
            cell_id,
            counter,
            execution_count: None,
            source,
            failed: false,
            reads: Vec::new(),
            writes: Vec::new(),
            depends_on: Vec::new(),
            facts: Arc::default(),
        }
    }
}

/// A cell a latest execution read from ([`crate::Lineage::cell_dependences`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellDependence {
    pub cell: String,
    /// The names read (roots of the symbols).
    pub names: Vec<String>,
    /// The execution read from is still its cell's latest.
    pub current: bool,
}

/// The cells in the backward (or, with `forward`, the forward) slice of
/// `cell_id`'s latest execution in `executions` (a log, as
/// [`crate::Lineage::executions`] keeps it), in `order` (the notebook's
/// cell ids); `None` when the cell never ran. What
/// [`crate::Lineage::backward_slice`] answers, over a stored log.
pub fn slice_history(
    executions: &[Execution],
    cell_id: &str,
    forward: bool,
    order: &[String],
) -> Option<Vec<String>> {
    let start = executions.iter().rposition(|e| e.cell_id == cell_id)? as ExecIdx;
    let slice = if forward {
        self::forward(executions, start)
    } else {
        backward(executions, start)
    };
    Some(cells_of(executions, &slice, order))
}

/// The executions in the backward slice of `start`, in execution order.
pub(crate) fn backward(executions: &[Execution], start: ExecIdx) -> Vec<ExecIdx> {
    let mut seen = vec![false; executions.len()];
    let mut stack = vec![start];
    seen[start as usize] = true;
    while let Some(e) = stack.pop() {
        for &d in &executions[e as usize].depends_on {
            let di = d as usize;
            if di < executions.len() && !seen[di] && !executions[di].failed {
                seen[di] = true;
                stack.push(d);
            }
        }
    }
    (0..executions.len() as ExecIdx)
        .filter(|&e| seen[e as usize])
        .collect()
}

/// The executions in the forward slice of `start` (those that depend on it,
/// transitively), in execution order.
pub(crate) fn forward(executions: &[Execution], start: ExecIdx) -> Vec<ExecIdx> {
    let mut seen = vec![false; executions.len()];
    seen[start as usize] = true;
    // Dependences only point back in time: one pass in order.
    for (i, e) in executions.iter().enumerate().skip(start as usize + 1) {
        if !e.failed
            && e.depends_on
                .iter()
                .any(|&d| seen.get(d as usize) == Some(&true))
        {
            seen[i] = true;
        }
    }
    (0..executions.len() as ExecIdx)
        .filter(|&e| seen[e as usize])
        .collect()
}

/// The cells whose latest executions are among `slice`, in `order` (the
/// notebook's cell ids).
pub(crate) fn cells_of(
    executions: &[Execution],
    slice: &[ExecIdx],
    order: &[String],
) -> Vec<String> {
    let latest = |cell: &str| {
        executions
            .iter()
            .rposition(|e| e.cell_id == cell)
            .map(|i| i as ExecIdx)
    };
    order
        .iter()
        .filter(|cell| latest(cell).is_some_and(|l| slice.contains(&l)))
        .cloned()
        .collect()
}

impl crate::session::Lineage {
    /// The latest execution of `cell_id`.
    pub fn latest_execution(&self, cell_id: &str) -> Option<ExecIdx> {
        self.executions
            .iter()
            .rposition(|e| e.cell_id == cell_id)
            .map(|i| i as ExecIdx)
    }

    fn cell_order(&self) -> Vec<String> {
        self.cells().into_iter().map(|(id, _)| id).collect()
    }

    /// The cells whose latest executions are in the backward slice of
    /// `cell_id`'s latest execution (the cell included), in notebook order;
    /// `None` for a cell that never ran.
    pub fn backward_slice(&self, cell_id: &str) -> Option<Vec<String>> {
        let start = self.latest_execution(cell_id)?;
        let slice = backward(&self.executions, start);
        Some(cells_of(&self.executions, &slice, &self.cell_order()))
    }

    /// The cells whose latest executions depend on `cell_id`'s latest
    /// execution, transitively (the cell included), in notebook order.
    pub fn forward_slice(&self, cell_id: &str) -> Option<Vec<String>> {
        let start = self.latest_execution(cell_id)?;
        let slice = forward(&self.executions, start);
        Some(cells_of(&self.executions, &slice, &self.cell_order()))
    }

    /// The cells of the notebook with their current sources: the front
    /// end's view when it sent one, else the cells run, in the order they
    /// first ran.
    pub fn notebook_cells(&self) -> Vec<(String, String)> {
        self.cells()
    }

    /// Every cell's backward and forward slices (what [`Self::backward_slice`]
    /// and [`Self::forward_slice`] answer), for the cells of
    /// [`Self::notebook_cells`] that ran, in that order: the latest
    /// executions are found once, not once per cell and slice.
    pub fn cell_slices(&self) -> Vec<(String, Vec<String>, Vec<String>)> {
        let order = self.cell_order();
        let mut latest: FxHashMap<&str, ExecIdx> = FxHashMap::default();
        for (i, e) in self.executions.iter().enumerate() {
            latest.insert(e.cell_id.as_str(), i as ExecIdx);
        }
        let placed: Vec<(&String, ExecIdx)> = order
            .iter()
            .filter_map(|cell| latest.get(cell.as_str()).map(|&e| (cell, e)))
            .collect();
        let cells_in = |slice: Vec<ExecIdx>| -> Vec<String> {
            let mut member = vec![false; self.executions.len()];
            for e in slice {
                member[e as usize] = true;
            }
            placed
                .iter()
                .filter(|(_, e)| member[*e as usize])
                .map(|(cell, _)| (*cell).clone())
                .collect()
        };
        placed
            .iter()
            .map(|&(cell, start)| {
                (
                    cell.clone(),
                    cells_in(backward(&self.executions, start)),
                    cells_in(forward(&self.executions, start)),
                )
            })
            .collect()
    }

    /// What `cell_id`'s latest execution depended on: each cell whose
    /// execution set what it read, with the names read (the roots of the
    /// symbols: `lst` for `lst[2]`) and whether that execution is still the
    /// cell's latest (`false`: the cell ran again since, so the value read
    /// is from a superseded run), in the order of the dependences. Failed
    /// executions are left out, as slices leave them out; empty for a cell
    /// that never ran.
    pub fn cell_dependences(&self, cell_id: &str) -> Vec<CellDependence> {
        let Some(latest) = self.latest_execution(cell_id) else {
            return Vec::new();
        };
        let execution = &self.executions[latest as usize];
        let mut out: Vec<CellDependence> = Vec::new();
        for &d in &execution.depends_on {
            let Some(setter) = self.executions.get(d as usize) else {
                continue;
            };
            if setter.failed {
                continue;
            }
            let current = self.latest_execution(&setter.cell_id) == Some(d);
            let set: Vec<&str> = setter.writes.iter().map(|w| root(w)).collect();
            let names = execution
                .reads
                .iter()
                .map(|(read, _)| root(read))
                .filter(|read| set.contains(read))
                .map(str::to_string);
            match out
                .iter_mut()
                .find(|o| o.cell == setter.cell_id && o.current == current)
            {
                Some(o) => o.names.extend(names),
                None => out.push(CellDependence {
                    cell: setter.cell_id.clone(),
                    names: names.collect(),
                    current,
                }),
            }
        }
        for o in &mut out {
            o.names.sort_unstable();
            o.names.dedup();
        }
        out
    }

    /// The executions in the backward slice of `cell_id`'s latest
    /// execution, in execution order.
    pub fn backward_executions(&self, cell_id: &str) -> Option<Vec<ExecIdx>> {
        let start = self.latest_execution(cell_id)?;
        Some(backward(&self.executions, start))
    }
}
