//! `nbsight check`: the findings of every enabled rule for a notebook as
//! saved. Each rule lives in `checks/`; they share the notebook model.

use nbsight_dataflow::Effects;
use nbsight_notebook::Notebook;

use crate::checks;
use crate::finding::Finding;
use crate::rules::{Rule, RuleSet};
use nbsight_model::NotebookModel;
use nbsight_whatif::domain::Alarm;

/// The findings of the rules in `rules` for `notebook`, sorted by cell, line,
/// column and code.
pub fn check_notebook(notebook: &Notebook, effects: &Effects, rules: RuleSet) -> Vec<Finding> {
    let model = NotebookModel::new(notebook, effects);
    check_model(&model, rules)
}

/// [`check_notebook`] on a model already built.
pub fn check_model(model: &NotebookModel, rules: RuleSet) -> Vec<Finding> {
    let mut findings = Vec::new();
    if rules.contains(Rule::UndefinedOnRunAll) {
        checks::run_all::undefined_names(model, &mut findings);
    }
    if rules.contains(Rule::StaleSavedOutput) {
        checks::saved_state::stale_outputs(model, &mut findings);
    }
    if [
        Rule::PreprocessingLeakage,
        Rule::OverlapLeakage,
        Rule::MultiTestLeakage,
    ]
    .into_iter()
    .any(|r| rules.contains(r))
    {
        checks::leakage::along_orders(model, &mut findings);
    }
    if rules.contains(Rule::IsolatedCell) {
        checks::informational::isolated_cells(model, &mut findings);
    }
    if rules.contains(Rule::UnusedDefinition) {
        checks::informational::unused_definitions(model, &mut findings);
    }
    findings.retain(|f| f.rule().is_some_and(|r| rules.contains(r)));
    findings.sort_by(|a, b| {
        (a.cell, a.line, a.column, a.code, &a.message)
            .cmp(&(b.cell, b.line, b.column, b.code, &b.message))
    });
    // One finding per rule and cell for rules whose several alarms in a cell
    // tell the same story (a leak seen by `predict` is seen by the metric).
    findings.dedup_by(|b, a| {
        a.cell == b.cell
            && a.code == b.code
            && (a.message == b.message || b.rule().is_some_and(Rule::one_per_cell))
    });
    findings
}

/// A finding of `rule` at `cell`.
pub(crate) fn finding(
    model: &NotebookModel,
    rule: Rule,
    cell: usize,
    (line, column): (u32, u32),
    message: String,
    path: Vec<usize>,
) -> Finding {
    Finding {
        file: model.path.clone(),
        code: rule.code(),
        name: rule.name(),
        message,
        cell,
        line,
        column,
        path,
        severity: rule.severity(),
    }
}

/// A finding from a domain's alarm raised in `cell`.
pub(crate) fn from_alarm(
    model: &NotebookModel,
    cell: usize,
    alarm: &Alarm,
    path: Vec<usize>,
) -> Finding {
    finding(
        model,
        Rule::for_alarm(alarm.kind),
        cell,
        (alarm.line, alarm.column),
        alarm.message.clone(),
        path,
    )
}
