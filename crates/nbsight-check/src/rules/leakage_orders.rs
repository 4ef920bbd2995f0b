//! The driver the three leakage rules share (`preprocessing-leakage`,
//! `overlap-leakage`, `multi-test-leakage`): the leakage domain of
//! `nbsight-leakage` ([`alarms_along`]) run along the two orders a saved
//! notebook stands for, top to bottom (what Run All does) and the saved
//! execution order (unless saved counts repeat: several kernel sessions,
//! no one order). It runs once when any of the three rules is enabled and
//! turns every alarm into a finding of the alarm's rule ([`Rule::for_alarm`]);
//! `check_model` keeps the enabled rules' findings, one per rule and cell.
//! The messages are the domain's. Each finding's path lists the cells
//! involved, in the order they ran, each cell once.
//!
//! [`Rule::for_alarm`]: crate::Rule::for_alarm

use crate::driver::Driver;
use crate::finding::Finding;
use nbsight_leakage::alarms_along;
use nbsight_model::NotebookModel;

pub(crate) const DRIVER: Driver = Driver::new("leakage_orders", along_orders);

/// The leakage domain's alarms along notebook order, then along the saved
/// execution order, as findings of their rules.
fn along_orders(model: &NotebookModel, findings: &mut Vec<Finding>) {
    let notebook_order: Vec<usize> = model.code_cells().map(|c| c.index).collect();
    // Saved counts that repeat come from several kernel sessions: no order.
    let saved = if model.saved_order_is_known() {
        model.saved_order()
    } else {
        Vec::new()
    };
    for order in [notebook_order, saved] {
        for found in alarms_along(model, &order) {
            findings.push(Finding::from_alarm(
                model,
                found.cell,
                &found.alarm,
                found.path,
            ));
        }
    }
}
