//! The human-readable table of `nbsight cells`: one block per cell, only the
//! rows that have something to say.

use std::fmt::Write;

use super::json::{CellReport, CellsReport};

pub fn render(report: &CellsReport) -> String {
    let mut out = String::new();
    let code = report.cells.iter().filter(|c| c.kind == "code").count();
    let opaque = report.cells.iter().filter(|c| c.kind == "opaque").count();
    let _ = writeln!(
        out,
        "{}: {} cells ({} code, {} opaque, {} other), {}",
        report.notebook,
        report.cells.len(),
        code,
        opaque,
        report.cells.len() - code - opaque,
        report.language
    );
    for cell in &report.cells {
        render_cell(&mut out, cell);
    }
    out
}

fn render_cell(out: &mut String, cell: &CellReport) {
    let count = cell
        .execution_count
        .map(|n| format!(" [{n}]"))
        .unwrap_or_default();
    let _ = write!(out, "\ncell {} {}{}", cell.index, cell.kind, count);
    if let Some(magic) = &cell.cell_magic {
        let _ = write!(out, " {magic}");
    }
    if let Some(reason) = &cell.opaque_reason {
        let _ = write!(out, " ({reason})");
    }
    out.push('\n');
    if cell.kind != "code" {
        return;
    }
    for error in &cell.errors {
        let _ = writeln!(
            out,
            "  error       {}:{}: {}",
            error.line, error.column, error.message
        );
    }
    row(out, "uses", &cell.summary.uses);
    row(out, "defs", &cell.summary.defs);
    row(out, "dead", &cell.summary.dead);
    row(out, "mutated", &cell.summary.mutated);
    row(out, "may mutate", &cell.summary.may_mutate);
    row(out, "imports", &cell.summary.imports);
    row(out, "magics", &cell.summary.magics);
    for (name, function) in &cell.summary.functions {
        let mut parts = Vec::new();
        for (label, set) in [
            ("reads", &function.reads),
            ("writes", &function.writes),
            ("mutates", &function.mutates),
        ] {
            if !set.is_empty() {
                parts.push(format!("{label} {}", join(set)));
            }
        }
        let detail = if parts.is_empty() {
            "no globals".to_string()
        } else {
            parts.join("; ")
        };
        let _ = writeln!(out, "  def {name}: {detail}");
    }
}

fn row<'a, S: AsRef<str> + 'a>(
    out: &mut String,
    label: &str,
    set: impl IntoIterator<Item = &'a S>,
) {
    let text = join(set);
    if !text.is_empty() {
        let _ = writeln!(out, "  {label:<11} {text}");
    }
}

fn join<'a, S: AsRef<str> + 'a>(set: impl IntoIterator<Item = &'a S>) -> String {
    set.into_iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(", ")
}
