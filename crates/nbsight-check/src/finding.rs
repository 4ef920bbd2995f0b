//! Findings: what the checks and the what-if engine report, one problem at one
//! place in one notebook, with the cells (in execution order) that lead to it.
//! A finding holds its [`Rule`]; its code, name and severity are the rule's.
//! Plain Rust: the JSON shape is `nbsight-cli`'s.

use nbsight_notebook::{CellIndex, OneIndexed, Severity};

use crate::registry::Rule;
use nbsight_leakage::Alarm;
use nbsight_model::NotebookModel;

/// One problem found in a notebook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The notebook's path as given.
    pub file: String,
    pub rule: Rule,
    pub message: String,
    pub cell: CellIndex,
    /// The line and column inside the cell.
    pub line: OneIndexed,
    pub column: OneIndexed,
    /// The cells, in execution order, that lead to the finding (ending with
    /// `cell`).
    pub path: Vec<CellIndex>,
    /// Other cells the finding concerns that are not on its path (the cell
    /// below that first defines a name read too early).
    pub related: Vec<CellIndex>,
}

impl Finding {
    /// A finding of `rule` at `cell`, reached along `path` (cells as positions
    /// in the model's cell list).
    pub(crate) fn new(
        model: &NotebookModel,
        rule: Rule,
        cell: usize,
        (line, column): (OneIndexed, OneIndexed),
        message: String,
        path: Vec<usize>,
    ) -> Finding {
        Finding {
            file: model.path.clone(),
            rule,
            message,
            cell: CellIndex::new(cell),
            line,
            column,
            path: path.into_iter().map(CellIndex::new).collect(),
            related: Vec::new(),
        }
    }

    /// A finding from a domain's alarm raised in `cell`.
    pub(crate) fn from_alarm(
        model: &NotebookModel,
        cell: usize,
        alarm: &Alarm,
        path: Vec<usize>,
    ) -> Finding {
        Finding::new(
            model,
            Rule::for_alarm(alarm.kind),
            cell,
            (alarm.line, alarm.column),
            alarm.message.clone(),
            path,
        )
    }

    /// A what-if finding of the notebook at `file`, as a finding of its
    /// alarm's rule.
    pub fn from_whatif(file: &str, finding: &nbsight_whatif::WhatIfFinding) -> Finding {
        Finding {
            file: file.to_string(),
            rule: Rule::for_alarm(finding.kind),
            message: finding.message.clone(),
            cell: finding.cell,
            line: finding.line,
            column: finding.column,
            path: finding.path.clone(),
            related: Vec::new(),
        }
    }

    /// The rule's stable code (`NBS101`).
    pub fn code(&self) -> &'static str {
        self.rule.code()
    }

    /// The rule's stable name (`preprocessing-leakage`).
    pub fn name(&self) -> &'static str {
        self.rule.name()
    }

    pub fn severity(&self) -> Severity {
        self.rule.severity()
    }
}
