//! The `whatif` analysis's rows: opening the notebook and executing each
//! of its code cells, from the state its saved history leaves (as `nbsight
//! whatif NOTEBOOK --open` / `--execute N` answer), one row per event.

use std::collections::BTreeSet;

use nbsight_check::Finding;
use nbsight_dataflow::Effects;
use nbsight_notebook::{CellIndex, CellKind, Notebook, SyntaxIssue};
use nbsight_whatif::{Event, Executed, WhatIfSession};

use crate::rows::EventRow;

/// Syntax errors with their cells.
type SyntaxErrors = Vec<(CellIndex, SyntaxIssue)>;

/// A row per event: `open`, then `execute` of each code cell; and the
/// syntax errors of the session's model.
pub(crate) fn rows(
    notebook: &Notebook,
    effects: &Effects,
) -> Result<(Vec<EventRow>, SyntaxErrors), String> {
    let session =
        WhatIfSession::new(notebook, effects, &Executed::Saved).map_err(|e| e.to_string())?;
    let code = notebook
        .cells
        .iter()
        .filter(|c| c.kind == CellKind::Code)
        .map(|c| Event::Execute(c.index));
    let mut rows = Vec::new();
    for event in std::iter::once(Event::Open).chain(code) {
        let cell = match event {
            Event::Execute(cell) => Some(cell),
            _ => None,
        };
        // A cell the engine cannot execute (an opaque cell) has no row.
        let Ok(report) = session.query(&event, None) else {
            continue;
        };
        let codes: BTreeSet<&'static str> = report
            .findings
            .iter()
            .map(|f| Finding::from_whatif(&report.notebook, f).code())
            .collect();
        rows.push(EventRow {
            event: event.kind(),
            cell,
            impacted: report.impacted.len(),
            findings: report.findings.len(),
            codes: codes.into_iter().collect(),
            rerun_plan: report.rerun_plan.len(),
            safe_next: report.safe_next.len(),
            visits: report.visits,
            truncated: report.truncated,
        });
    }
    Ok((rows, session.model().syntax_errors()))
}
