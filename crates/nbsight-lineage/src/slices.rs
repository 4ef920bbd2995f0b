//! Dynamic slices over the real execution history (NBSlicer Definition 1 at
//! cell granularity): the backward slice of an execution is the transitive
//! closure over the executions that set what an execution in the slice
//! read; the forward slice, over the executions that read what one in the
//! slice set. Failed executions are never part of a slice (the one sliced
//! from excepted).

use std::sync::Arc;

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

    /// What `cell_id`'s latest execution depended on: each cell whose
    /// execution set what it read, with the symbols read (in the order of
    /// the dependences); empty for a cell that never ran.
    pub fn cell_dependences(&self, cell_id: &str) -> Vec<(String, Vec<String>)> {
        let Some(latest) = self.latest_execution(cell_id) else {
            return Vec::new();
        };
        let execution = &self.executions[latest as usize];
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for &d in &execution.depends_on {
            let Some(setter) = self.executions.get(d as usize) else {
                continue;
            };
            let symbols = execution
                .reads
                .iter()
                .filter(|(read, _)| setter.writes.contains(read))
                .map(|(read, _)| read.to_string());
            match out.iter_mut().find(|(cell, _)| *cell == setter.cell_id) {
                Some((_, names)) => names.extend(symbols),
                None => out.push((setter.cell_id.clone(), symbols.collect())),
            }
        }
        for (_, names) in &mut out {
            names.sort_unstable();
            names.dedup();
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
