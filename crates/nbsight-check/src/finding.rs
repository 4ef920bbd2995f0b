//! Findings: what the checks and the what-if engine report, one problem at one
//! place in one notebook, with the cells (in execution order) that lead to it.

use serde::Serialize;

use crate::rules::Rule;

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Informational (isolated cells, unused definitions).
    Info,
    /// Likely wrong results (staleness, leakage).
    Warning,
    /// Run All would fail.
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One problem found in a notebook. The JSON keys are a contract (issue 8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The notebook's path as given.
    pub file: String,
    /// The rule's stable code (`NBS101`).
    pub code: &'static str,
    /// The rule's stable name (`preprocessing-leakage`).
    pub name: &'static str,
    pub message: String,
    /// 0-based index of the cell in the notebook's cell list.
    pub cell: usize,
    /// 1-based line and column inside the cell.
    pub line: u32,
    pub column: u32,
    /// The cells, in execution order, that lead to the finding (ending with
    /// `cell`).
    pub path: Vec<usize>,
    pub severity: Severity,
}

impl Finding {
    /// A what-if finding of the notebook at `file`, as a finding of its
    /// alarm's rule.
    pub fn from_whatif(file: &str, finding: &nbsight_whatif::WhatIfFinding) -> Finding {
        let rule = Rule::for_alarm(finding.kind);
        Finding {
            file: file.to_string(),
            code: rule.code(),
            name: rule.name(),
            message: finding.message.clone(),
            cell: finding.cell,
            line: finding.line,
            column: finding.column,
            path: finding.path.clone(),
            severity: rule.severity(),
        }
    }

    /// The rule this finding belongs to.
    pub fn rule(&self) -> Option<Rule> {
        Rule::from_name(self.name)
    }
}
