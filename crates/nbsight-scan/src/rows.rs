//! The rows of the output tables, one type per table (`tables.rs` turns
//! them into record batches of the table's schema, docs/scale.md lists the
//! columns), and [`Rows`], what an analysis gave for one notebook.

use nbsight_check::Finding;
use serde::Serialize;

/// The rows an analysis gave for one notebook.
#[derive(Debug, Clone, PartialEq)]
pub enum Rows {
    /// None (the notebook could not be analysed).
    None,
    Findings(Vec<FindingRow>),
    Cells(Vec<CellRow>),
    Flows(Vec<FlowRow>),
    Events(Vec<EventRow>),
    Slices(Vec<SliceRow>),
}

/// A finding, with the keys of `nbsight check --output-format json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FindingRow {
    pub file: String,
    pub code: &'static str,
    pub name: &'static str,
    pub message: String,
    pub cell: usize,
    pub line: usize,
    pub column: usize,
    pub path: Vec<usize>,
    pub severity: &'static str,
}

impl From<&Finding> for FindingRow {
    fn from(f: &Finding) -> Self {
        FindingRow {
            file: f.file.clone(),
            code: f.code(),
            name: f.name(),
            message: f.message.clone(),
            cell: f.cell.index(),
            line: f.line.get(),
            column: f.column.get(),
            path: f.path.iter().map(|c| c.index()).collect(),
            severity: f.severity().as_str(),
        }
    }
}

/// A cell, as `nbsight cells --format json` describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CellRow {
    pub cell: usize,
    pub cell_id: String,
    /// `code`, `markdown`, `raw` or `opaque`.
    pub kind: &'static str,
    pub execution_count: Option<i64>,
    pub uses: Vec<String>,
    pub defs: Vec<String>,
    pub dead: Vec<String>,
    pub mutated: Vec<String>,
    pub imports: Vec<String>,
    pub syntax_errors: usize,
}

/// A flow of `symbol` from cell `from` to cell `to` (`nbsight flow`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FlowRow {
    pub from: usize,
    pub to: usize,
    pub symbol: String,
}

/// A what-if event answered from the saved history (`nbsight whatif`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventRow {
    /// `open` or `execute`.
    pub event: &'static str,
    pub cell: Option<usize>,
    pub impacted: usize,
    pub findings: usize,
    /// The codes of the findings, sorted, each once.
    pub codes: Vec<&'static str>,
    pub rerun_plan: usize,
    pub safe_next: usize,
    pub visits: usize,
    pub truncated: bool,
}

/// The backward and forward slices of a code cell (`nbsight slice`):
/// cells and statements, and the share of the notebook's statements.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SliceRow {
    pub cell: usize,
    pub backward_cells: usize,
    pub backward_statements: usize,
    pub backward_ratio: f64,
    pub forward_cells: usize,
    pub forward_statements: usize,
    pub forward_ratio: f64,
    pub statements: usize,
}
