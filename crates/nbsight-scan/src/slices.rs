//! The `slice` analysis's rows: the backward and forward slices of each
//! code cell by statements (`nbsight slice --statements`), their sizes and
//! their share of the notebook's statements, one row per code cell.

use nbsight_slice::{Granularity, Slicer};

use crate::rows::SliceRow;

/// A row per code cell the slicer knows.
pub(crate) fn rows(slicer: &Slicer) -> Result<Vec<SliceRow>, String> {
    slicer
        .code_cells()
        .map(|cell| {
            let backward = slicer
                .backward(cell, Granularity::Statements)
                .map_err(|e| e.to_string())?;
            let forward = slicer
                .forward(cell, Granularity::Statements)
                .map_err(|e| e.to_string())?;
            Ok(SliceRow {
                cell,
                backward_cells: backward.cells.len(),
                backward_statements: backward.statements_in_slice,
                backward_ratio: backward.ratio,
                forward_cells: forward.cells.len(),
                forward_statements: forward.statements_in_slice,
                forward_ratio: forward.ratio,
                statements: slicer.statement_count(),
            })
        })
        .collect()
}
