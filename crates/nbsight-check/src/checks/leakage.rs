//! Leakage rules in `nbsight check`: the leakage domain run along the two
//! orders a saved notebook stands for, top to bottom (Run All) and the saved
//! execution order. Each finding's path lists the cells involved, in the
//! order they ran.

use crate::check::from_alarm;
use crate::finding::Finding;
use nbsight_model::NotebookModel;
use nbsight_whatif::leakage::Leak;
use nbsight_whatif::state::History;
use nbsight_whatif::transformer::run_cell;

pub fn along_orders(model: &NotebookModel, findings: &mut Vec<Finding>) {
    let initial = Leak::new(model);
    if !initial.is_active() {
        return;
    }
    let notebook_order: Vec<usize> = model.code_cells().map(|c| c.index).collect();
    let saved = History::Saved.cells(model);
    for order in [notebook_order, saved] {
        let mut state = initial.clone();
        for (position, &c) in order.iter().enumerate() {
            let cell = &model.cells[c];
            let (after, alarms) = run_cell(&state, model, cell, true);
            for alarm in &alarms {
                let mut path: Vec<usize> = order[..=position]
                    .iter()
                    .copied()
                    .filter(|i| alarm.involved.contains(i) || *i == c)
                    .collect();
                // Keep the last run of each cell.
                let mut seen = Vec::new();
                path.retain(|i| {
                    let first = !seen.contains(i);
                    seen.push(*i);
                    first
                });
                findings.push(from_alarm(model, c, alarm, path));
            }
            state = after;
        }
    }
}
