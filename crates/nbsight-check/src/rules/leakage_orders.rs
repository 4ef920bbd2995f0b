//! The driver the three leakage rules share (`preprocessing-leakage`,
//! `overlap-leakage`, `multi-test-leakage`): the leakage domain of
//! `nbsight-whatif` (`src/leakage/mod.rs`) run along the two orders a saved
//! notebook stands for, top to bottom (what Run All does) and the saved
//! execution order (unless saved counts repeat: several kernel sessions,
//! no one order). It runs once when any of the three rules is enabled and
//! turns every alarm into a finding of the alarm's rule ([`Rule::for_alarm`]);
//! `check_model` keeps the enabled rules' findings, one per rule and cell.
//! The messages are the domain's. Each finding's path lists the cells
//! involved, in the order they ran, each cell once.
//!
//! [`Rule::for_alarm`]: crate::Rule::for_alarm

use crate::check::from_alarm;
use crate::finding::Finding;
use crate::rules::Driver;
use crate::rules::stale_saved_output::saved_order_is_known;
use nbsight_model::NotebookModel;
use nbsight_whatif::leakage::Leak;
use nbsight_whatif::state::History;
use nbsight_whatif::transformer::run_cell;

pub(crate) const DRIVER: Driver = Driver::new("leakage_orders", along_orders);

/// The leakage domain's alarms along notebook order, then along the saved
/// execution order, as findings of their rules.
fn along_orders(model: &NotebookModel, findings: &mut Vec<Finding>) {
    let initial = Leak::new(model);
    if !initial.is_active() {
        return;
    }
    let notebook_order: Vec<usize> = model.code_cells().map(|c| c.index).collect();
    // Saved counts that repeat come from several kernel sessions: no order.
    let saved = if saved_order_is_known(model) {
        History::Saved.cells(model)
    } else {
        Vec::new()
    };
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
                // Each cell once, where it first appears.
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
