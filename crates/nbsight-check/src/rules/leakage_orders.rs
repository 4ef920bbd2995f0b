//! The driver the four leakage rules share (`preprocessing-leakage`,
//! `overlap-leakage`, `multi-test-leakage`, `leakage-with-cells-skipped`):
//! the leakage domain of `nbsight-leakage` ([`run_along`]) run along the two
//! orders a saved notebook stands for, top to bottom (what Run All does) and
//! the saved execution order (unless saved counts repeat: several kernel
//! sessions, no one order). It runs once when any of the four rules is
//! enabled and turns every alarm into a finding of the alarm's rule
//! ([`Rule::for_alarm`]); when `leakage-with-cells-skipped` is enabled, its
//! search over orders with cells skipped starts from these two runs;
//! `check_model` keeps the enabled rules' findings, one per rule and cell.
//! The messages are the domain's. Each finding's path lists the cells
//! involved, in the order they ran, each cell once.
//!
//! [`Rule::for_alarm`]: crate::Rule::for_alarm

use crate::driver::Driver;
use crate::finding::Finding;
use crate::registry::Rule;
use crate::rules::leakage_with_cells_skipped;
use crate::selection::RuleSet;
use nbsight_leakage::{Along, run_along};
use nbsight_model::NotebookModel;

pub(crate) const DRIVER: Driver = Driver::told_rules("leakage_orders", along_orders);

/// The leakage domain's alarms along notebook order, then along the saved
/// execution order, as findings of their rules; then, when enabled, the
/// leaks of notebook order with cells skipped.
fn along_orders(model: &NotebookModel, rules: RuleSet, findings: &mut Vec<Finding>) {
    let notebook_order: Vec<usize> = model.code_cells().map(|c| c.index).collect();
    // Saved counts that repeat come from several kernel sessions: no order.
    let saved_order = if model.saved_order_is_known() {
        model.saved_order()
    } else {
        Vec::new()
    };
    let notebook = run_along(model, &notebook_order);
    // A notebook run top to bottom once saved notebook order: no second run.
    let saved = if saved_order == notebook_order {
        Along::default()
    } else {
        run_along(model, &saved_order)
    };
    for found in notebook.alarms.iter().chain(&saved.alarms) {
        findings.push(Finding::from_alarm(
            model,
            found.cell,
            &found.alarm,
            found.path.clone(),
        ));
    }
    if rules.contains(Rule::LeakageWithCellsSkipped) {
        leakage_with_cells_skipped::search(model, notebook_order, notebook, &saved, findings);
    }
}
