//! Converting raw `.ipynb` cells into draft cells, reporting per-cell problems.

use std::path::Path;

use crate::assemble::DraftCell;
use crate::cell::{CellKind, CellOrigin};
use crate::cell_index::CellIndex;
use crate::diagnostic::Diagnostic;

use super::lenient::Field;
use super::raw::{ExecutionCount, OutputCount, RawCell, RawCellMetadata, SourceText, Tags, Text};

pub(super) fn convert_cells(
    path: &Path,
    cells: Vec<Field<RawCell>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<DraftCell> {
    cells
        .into_iter()
        .enumerate()
        .map(|(index, cell)| {
            let mut report = |d: Diagnostic| diagnostics.push(d.in_cell(CellIndex::new(index)));
            match cell {
                Field::Ok(raw) => convert_cell(path, raw, &mut report),
                Field::Wrong(found) => {
                    report(Diagnostic::error(
                        path,
                        format!("cell is {found}, not an object; kept as an empty raw cell"),
                    ));
                    DraftCell::new(CellKind::Raw, String::new(), CellOrigin::Ipynb)
                }
            }
        })
        .collect()
}

fn convert_cell(path: &Path, raw: RawCell, report: &mut impl FnMut(Diagnostic)) -> DraftCell {
    let (kind, missing_cell_type) = match raw.cell_type {
        Some(Field::Ok(Text(t))) => match t.as_str() {
            "code" => (CellKind::Code, false),
            "markdown" => (CellKind::Markdown, false),
            "raw" => (CellKind::Raw, false),
            other => {
                report(Diagnostic::warning(
                    path,
                    format!("unknown cell_type \"{other}\"; treated as a raw cell"),
                ));
                (CellKind::Raw, false)
            }
        },
        Some(Field::Wrong(found)) => {
            report(Diagnostic::error(
                path,
                format!("`cell_type` is {found}, not a string; kept as an opaque code cell"),
            ));
            (CellKind::Code, true)
        }
        None => {
            report(Diagnostic::error(
                path,
                "cell has no `cell_type`; kept as an opaque code cell",
            ));
            (CellKind::Code, true)
        }
    };

    let source = match raw.source {
        Some(Field::Ok(SourceText(s))) => s,
        Some(Field::Wrong(found)) => {
            report(Diagnostic::error(
                path,
                format!("`source` is {found}, not a string or a list of strings; treated as empty"),
            ));
            String::new()
        }
        None => {
            report(Diagnostic::warning(
                path,
                "cell has no `source`; treated as empty",
            ));
            String::new()
        }
    };

    let file_id = match raw.id {
        Some(Field::Ok(Text(id))) if !id.is_empty() => Some(id),
        Some(Field::Ok(_)) => {
            report(Diagnostic::warning(
                path,
                "cell `id` is empty; using a generated id",
            ));
            None
        }
        Some(Field::Wrong(found)) => {
            report(Diagnostic::warning(
                path,
                format!("cell `id` is {found}, not a string; using a generated id"),
            ));
            None
        }
        None => None,
    };

    let is_code = kind == CellKind::Code && !missing_cell_type;
    let execution_count = match raw.execution_count {
        Some(Field::Ok(ExecutionCount(count))) => count,
        Some(Field::Wrong(found)) if is_code => {
            report(Diagnostic::warning(
                path,
                format!("`execution_count` is {found}, not an integer or null; ignored"),
            ));
            None
        }
        _ => None,
    };
    let output_count = match raw.outputs {
        Some(Field::Ok(OutputCount(n))) => n,
        Some(Field::Wrong(found)) if is_code => {
            report(Diagnostic::warning(
                path,
                format!("`outputs` is {found}, not an array; ignored"),
            ));
            0
        }
        _ => 0,
    };

    let tags = match raw.metadata {
        Some(Field::Ok(RawCellMetadata {
            tags: Some(Field::Ok(Tags(tags))),
        })) => tags,
        _ => Vec::new(),
    };

    DraftCell {
        kind,
        source,
        file_id,
        tags,
        execution_count: if kind == CellKind::Code {
            execution_count
        } else {
            None
        },
        output_count,
        origin: CellOrigin::Ipynb,
        missing_cell_type,
    }
}
