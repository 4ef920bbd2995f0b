//! `nbsight check`: the findings of every enabled rule for a notebook as
//! saved. Each rule's driver lives in its file under `rules/` and is found
//! through `rules::driver`; the drivers share the notebook model.

use nbsight_dataflow::Effects;
use nbsight_notebook::{CellIndex, Notebook, SyntaxIssue};

use crate::finding::Finding;
use crate::rules::driver;
use crate::selection::RuleSet;
use crate::suppress::Suppressions;
use nbsight_model::NotebookModel;

/// What `nbsight check` reports for a notebook as saved: the findings of
/// the rules in `rules` with the notebook's suppression comments applied,
/// and the syntax errors of its cells (which the CLI prints as problems).
#[derive(Debug, Clone, Default)]
pub struct Checked {
    /// Sorted as [`check_model`] sorts them.
    pub findings: Vec<Finding>,
    /// Findings a suppression comment removed.
    pub suppressed: usize,
    /// Each syntax error with its cell, in cell order.
    pub syntax_errors: Vec<(CellIndex, SyntaxIssue)>,
}

/// Exactly what `nbsight check` runs on one loaded notebook (suppressions
/// included), for every front end that must agree with it (`nbsight scan`,
/// the Python batch API) and the benchmark.
pub fn check_notebook(notebook: &Notebook, effects: &Effects, rules: RuleSet) -> Checked {
    let model = NotebookModel::new(notebook, effects);
    check_notebook_model(notebook, &model, rules)
}

/// [`check_notebook`] on a model already built from `notebook`.
pub fn check_notebook_model(notebook: &Notebook, model: &NotebookModel, rules: RuleSet) -> Checked {
    let mut findings = check_model(model, rules);
    let suppressed = Suppressions::of(notebook).retain(&mut findings);
    Checked {
        findings,
        suppressed,
        syntax_errors: model.syntax_errors(),
    }
}

/// The findings of the rules in `rules` for `model`, sorted by cell, line,
/// column and code, before the notebook's suppression comments (which
/// [`check_notebook`] applies).
pub fn check_model(model: &NotebookModel, rules: RuleSet) -> Vec<Finding> {
    let mut findings = Vec::new();
    // Each enabled rule's driver, in registry order; a driver shared by
    // several rules runs once.
    let mut ran: Vec<&'static str> = Vec::new();
    for rule in rules.iter() {
        let Some(driver) = driver(rule) else {
            continue;
        };
        if !ran.contains(&driver.name()) {
            ran.push(driver.name());
            driver.run(model, rules, &mut findings);
        }
    }
    findings.retain(|f| rules.contains(f.rule));
    findings.sort_by(|a, b| {
        (a.cell, a.line, a.column, a.code(), &a.message).cmp(&(
            b.cell,
            b.line,
            b.column,
            b.code(),
            &b.message,
        ))
    });
    // One finding per rule and cell for rules whose several alarms in a cell
    // tell the same story (a leak seen by `predict` is seen by the metric),
    // the first in the cell; for the others, one per message and cell.
    // Other rules' findings may sit between two of them.
    let mut kept: Vec<&Finding> = Vec::with_capacity(findings.len());
    let mut keep = vec![true; findings.len()];
    for (i, f) in findings.iter().enumerate() {
        let repeats = kept
            .iter()
            .rev()
            .take_while(|k| k.cell == f.cell)
            .any(|k| k.rule == f.rule && (f.rule.one_per_cell() || k.message == f.message));
        if repeats {
            keep[i] = false;
        } else {
            kept.push(f);
        }
    }
    let mut keep = keep.into_iter();
    findings.retain(|_| keep.next().unwrap_or(true));
    findings
}
