//! `nbsight whatif --format json`: the report as one JSON object with the
//! keys `notebook`, `event` (`kind`, `cell`), `history`, `impacted` (`cell`,
//! `depth`, `symbols`), `findings` (each a finding as `nbsight check --format
//! json` writes it), `rerun_plan`, `safe_next`, `k`, `broken_cells`, `visits`
//! and `truncated`. The first seven keys are a contract other tools read.

use nbsight_check::Finding;
use nbsight_notebook::CellIndex;
use nbsight_whatif::WhatIfReport;
use serde::Serialize;

use crate::check::json::FindingJson;

/// Cells are 0-based positions (lists of [`CellIndex`] serialize as the
/// numbers).
#[derive(Serialize)]
struct Report<'a> {
    notebook: &'a str,
    event: Event<'a>,
    history: &'a [CellIndex],
    impacted: Vec<Impacted<'a>>,
    findings: Vec<FindingJson<'a>>,
    rerun_plan: &'a [CellIndex],
    safe_next: &'a [CellIndex],
    k: Option<usize>,
    broken_cells: &'a [CellIndex],
    visits: usize,
    truncated: bool,
}

#[derive(Serialize)]
struct Event<'a> {
    kind: &'a str,
    cell: Option<usize>,
}

#[derive(Serialize)]
struct Impacted<'a> {
    cell: usize,
    depth: usize,
    symbols: &'a [String],
}

/// The report's findings as `nbsight check` reports findings.
pub fn findings(report: &WhatIfReport) -> Vec<Finding> {
    report
        .findings
        .iter()
        .map(|f| Finding::from_whatif(&report.notebook, f))
        .collect()
}

/// The report as pretty-printed JSON.
pub fn render(report: &WhatIfReport) -> serde_json::Result<String> {
    let findings = findings(report);
    serde_json::to_string_pretty(&Report {
        notebook: &report.notebook,
        event: Event {
            kind: report.event.kind,
            cell: report.event.cell.map(CellIndex::index),
        },
        history: &report.history,
        impacted: report
            .impacted
            .iter()
            .map(|i| Impacted {
                cell: i.cell.index(),
                depth: i.depth,
                symbols: &i.symbols,
            })
            .collect(),
        findings: findings.iter().map(FindingJson::from).collect(),
        rerun_plan: &report.rerun_plan,
        safe_next: &report.safe_next,
        k: report.k,
        broken_cells: &report.broken_cells,
        visits: report.visits,
        truncated: report.truncated,
    })
}
