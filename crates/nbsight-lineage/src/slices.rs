//! Dynamic slices over the real execution history (NBSlicer Definition 1 at
//! cell granularity): the backward slice of an execution is the transitive
//! closure over the executions that set what an execution in the slice
//! read; the forward slice, over the executions that read what one in the
//! slice set. Failed executions are never part of a slice (the one sliced
//! from excepted).

use crate::session::Execution;
use crate::symbols::ExecIdx;

/// The executions in the backward slice of `start`, in execution order.
pub fn backward(executions: &[Execution], start: ExecIdx) -> Vec<ExecIdx> {
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
pub fn forward(executions: &[Execution], start: ExecIdx) -> Vec<ExecIdx> {
    let mut seen = vec![false; executions.len()];
    seen[start as usize] = true;
    // Dependences only point back in time: one pass in order.
    for (i, e) in executions.iter().enumerate().skip(start as usize + 1) {
        if !e.failed && e.depends_on.iter().any(|&d| seen.get(d as usize) == Some(&true)) {
            seen[i] = true;
        }
    }
    (0..executions.len() as ExecIdx)
        .filter(|&e| seen[e as usize])
        .collect()
}

/// The cells whose latest executions are among `slice`, in `order` (the
/// notebook's cell ids).
pub fn cells_of(executions: &[Execution], slice: &[ExecIdx], order: &[String]) -> Vec<String> {
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
