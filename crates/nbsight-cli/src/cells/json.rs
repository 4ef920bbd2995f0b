//! The JSON shape of `nbsight cells` (a contract other tools read):
//! `{"notebook", "cells": [{"index", "id", "kind", "execution_count", "uses",
//! "defs", "dead", "mutated", "may_mutate", "imports", "functions": {NAME:
//! {"reads", "writes"}}, "errors": [{"line", "column", "message"}]}]}`, plus
//! extra fields (`builtins`, `magics`, `has_outputs`, `opaque_reason`, ...).

use nbsight_dataflow::{CellSummary, NotebookAnalysis};
use nbsight_notebook::{CellKind, CodeForm, Notebook};
use serde::Serialize;

/// The whole report.
#[derive(Debug, Serialize)]
pub struct CellsReport {
    pub notebook: String,
    pub format: &'static str,
    pub language: String,
    pub cells: Vec<CellReport>,
    pub diagnostics: Vec<DiagnosticReport>,
}

/// One cell.
#[derive(Debug, Serialize)]
pub struct CellReport {
    pub index: usize,
    pub id: String,
    pub kind: &'static str,
    pub execution_count: Option<i64>,
    /// `uses`, `defs`, `dead`, `mutated`, `may_mutate`, `imports`,
    /// `functions`, `builtins`, `magics` (empty for cells not analysed).
    #[serde(flatten)]
    pub summary: CellSummary,
    pub errors: Vec<ErrorReport>,
    pub has_outputs: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell_magic: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opaque_reason: Option<String>,
}

/// A syntax error in a cell (1-based line and column within the cell).
#[derive(Debug, Serialize)]
pub struct ErrorReport {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// A problem found while reading the notebook.
#[derive(Debug, Serialize)]
pub struct DiagnosticReport {
    pub severity: &'static str,
    pub cell: Option<usize>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl CellsReport {
    pub fn new(notebook: &Notebook, analysis: &NotebookAnalysis) -> Self {
        let cells = notebook
            .cells
            .iter()
            .zip(&analysis.cells)
            .map(|(cell, analysed)| {
                let summary = analysed
                    .module
                    .as_ref()
                    .map(|m| m.summary.clone())
                    .unwrap_or_default();
                let (kind, opaque_reason, cell_magic) = match (&cell.kind, &cell.form) {
                    (CellKind::Markdown, _) => ("markdown", None, None),
                    (CellKind::Raw, _) => ("raw", None, None),
                    (CellKind::Code, CodeForm::Opaque { reason }) => {
                        ("opaque", Some(reason.to_string()), None)
                    }
                    (CellKind::Code, form) => (
                        "code",
                        None,
                        form.cell_magic().map(|m| format!("%%{}", m.name)),
                    ),
                };
                CellReport {
                    index: cell.index,
                    id: cell.id.clone(),
                    kind,
                    execution_count: cell.execution_count,
                    summary,
                    errors: analysed
                        .errors
                        .iter()
                        .map(|e| ErrorReport {
                            line: e.line.get(),
                            column: e.column.get(),
                            message: e.message.clone(),
                        })
                        .collect(),
                    has_outputs: cell.has_outputs(),
                    cell_magic,
                    opaque_reason,
                }
            })
            .collect();
        CellsReport {
            notebook: notebook.path.display().to_string(),
            format: match notebook.format {
                nbsight_notebook::SourceFormat::Ipynb => "ipynb",
                nbsight_notebook::SourceFormat::Percent => "percent",
            },
            language: notebook.language.name().to_string(),
            cells,
            diagnostics: notebook
                .diagnostics
                .iter()
                .map(|d| DiagnosticReport {
                    severity: d.severity.as_str(),
                    cell: d.cell.map(|c| c.index()),
                    line: d.line.map(|l| l.get()),
                    column: d.column.map(|c| c.get()),
                    message: d.message.clone(),
                })
                .collect(),
        }
    }
}
