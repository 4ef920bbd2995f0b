//! The human-readable what-if report.

use std::fmt::Write;

use nbsight_notebook::{CellIndex, Notebook};
use nbsight_whatif::WhatIfReport;

fn list(cells: &[CellIndex]) -> String {
    if cells.is_empty() {
        return "(none)".into();
    }
    cells
        .iter()
        .map(CellIndex::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn render(report: &WhatIfReport, notebook: &Notebook) -> String {
    let mut out = String::new();
    let event = match report.event.cell {
        Some(cell) => format!("{} cell {cell}", report.event.kind),
        None => report.event.kind.to_string(),
    };
    let history = if report.history.is_empty() {
        "a fresh kernel".to_string()
    } else {
        format!("after running {}", list(&report.history))
    };
    let depth = match report.k {
        Some(k) => format!("K = {k}"),
        None => "K unbounded".into(),
    };
    let _ = writeln!(
        out,
        "What if: {event} in {} ({history}; {depth})",
        notebook.path.display()
    );
    let _ = writeln!(out, "\nImpacted cells:");
    if report.impacted.is_empty() {
        let _ = writeln!(out, "  (none)");
    }
    for i in &report.impacted {
        let _ = writeln!(
            out,
            "  cell {:<4} depth {:<3} reads {}",
            i.cell,
            i.depth,
            i.symbols.join(", ")
        );
    }
    let _ = writeln!(out, "\nFindings:");
    if report.findings.is_empty() {
        let _ = writeln!(out, "  (none)");
    }
    for f in &super::json::findings(report) {
        let _ = writeln!(
            out,
            "  {}:cell {}:{}:{}: {} [{}] {}",
            f.file,
            f.cell,
            f.line,
            f.column,
            f.code(),
            f.name(),
            f.message
        );
        let path: Vec<String> = f.path.iter().map(CellIndex::to_string).collect();
        let _ = writeln!(out, "      cells: {}", path.join(" -> "));
    }
    let _ = writeln!(
        out,
        "\nRe-run plan (notebook order): {}",
        list(&report.rerun_plan)
    );
    let _ = writeln!(out, "Safe to run next: {}", list(&report.safe_next));
    if !report.broken_cells.is_empty() {
        let _ = writeln!(
            out,
            "Cells with syntax errors (paths through them stop): {}",
            list(&report.broken_cells)
        );
    }
    out
}
