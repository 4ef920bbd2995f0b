//! The JSON contract of `nbsight slice --format json`.

use nbsight_notebook::CellIndex;
use nbsight_slice::{Direction, Slice, StmtRef, TargetError};
use serde::Serialize;

/// The report: `statements` only with `--statements`, `target_error` only
/// when the target cell does not parse. Cells are 0-based positions, lines
/// and columns 1-based (each serialized as its number).
#[derive(Debug, Serialize)]
pub struct SliceReport<'a> {
    pub notebook: &'a str,
    pub cell: usize,
    pub direction: Direction,
    pub cells: &'a [CellIndex],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statements: Option<&'a [StmtRef]>,
    pub statements_in_slice: usize,
    pub statements_in_notebook: usize,
    pub ratio: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_error: Option<&'a TargetError>,
}

impl<'a> SliceReport<'a> {
    pub fn new(slice: &'a Slice, statements: bool) -> Self {
        SliceReport {
            notebook: &slice.notebook,
            cell: slice.cell.index(),
            direction: slice.direction,
            cells: &slice.cells,
            statements: statements.then_some(slice.statements.as_slice()),
            statements_in_slice: slice.statements_in_slice,
            statements_in_notebook: slice.statements_in_notebook,
            ratio: slice.ratio,
            target_error: slice.target_error.as_ref(),
        }
    }
}
