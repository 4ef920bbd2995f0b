//! The `cells` analysis's rows: each cell's summary as `nbsight cells`
//! reports it (uses, defs, dead, mutated, imports), one row per cell.

use nbsight_dataflow::{NotebookAnalysis, SymbolSet};
use nbsight_notebook::{CellKind, CodeForm, Notebook};

use crate::rows::CellRow;

fn names(set: &SymbolSet) -> Vec<String> {
    set.into_iter().map(ToString::to_string).collect()
}

/// A row per cell of `notebook`.
pub(crate) fn rows(notebook: &Notebook, analysis: &NotebookAnalysis) -> Vec<CellRow> {
    notebook
        .cells
        .iter()
        .zip(&analysis.cells)
        .map(|(cell, analysed)| {
            let summary = analysed.module.as_ref().map(|m| &m.summary);
            let of = |pick: fn(&nbsight_dataflow::CellSummary) -> &SymbolSet| {
                summary.map(|s| names(pick(s))).unwrap_or_default()
            };
            CellRow {
                cell: cell.index,
                cell_id: cell.id.clone(),
                kind: match (&cell.kind, &cell.form) {
                    (CellKind::Markdown, _) => "markdown",
                    (CellKind::Raw, _) => "raw",
                    (CellKind::Code, CodeForm::Opaque { .. }) => "opaque",
                    (CellKind::Code, _) => "code",
                },
                execution_count: cell.execution_count,
                uses: of(|s| &s.uses),
                defs: of(|s| &s.defs),
                dead: of(|s| &s.dead),
                mutated: of(|s| &s.mutated),
                imports: summary
                    .map(|s| s.imports.iter().cloned().collect())
                    .unwrap_or_default(),
                syntax_errors: analysed.errors.len(),
            }
        })
        .collect()
}
