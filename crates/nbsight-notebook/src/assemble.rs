//! Turning format-specific draft cells into a [`Notebook`]: ids, code forms and the
//! non-Python-kernel warning, shared by the `.ipynb` and percent readers.

use std::path::Path;

use crate::cell::{Cell, CellKind, CellOrigin};
use crate::cell_index::CellIndex;
use crate::diagnostic::Diagnostic;
use crate::form::classify;
use crate::ids::assign_ids;
use crate::language::Language;
use crate::magic::uncomment_percent_magics;
use crate::notebook::{Notebook, SourceFormat};

/// A cell as read from the document, before ids and forms are decided.
#[derive(Debug, Clone)]
pub(crate) struct DraftCell {
    pub kind: CellKind,
    pub source: String,
    pub file_id: Option<String>,
    /// `metadata.tags` of an `.ipynb` cell, `tags=[...]` of a percent marker.
    pub tags: Vec<String>,
    pub execution_count: Option<i64>,
    pub output_count: usize,
    pub origin: CellOrigin,
    pub missing_cell_type: bool,
}

impl DraftCell {
    pub(crate) fn new(kind: CellKind, source: String, origin: CellOrigin) -> Self {
        DraftCell {
            kind,
            source,
            file_id: None,
            tags: Vec::new(),
            execution_count: None,
            output_count: 0,
            origin,
            missing_cell_type: false,
        }
    }
}

/// Everything a reader found, ready to assemble.
pub(crate) struct Draft<'a> {
    pub path: &'a Path,
    pub format: SourceFormat,
    pub nbformat: Option<(u32, u32)>,
    pub language: Language,
    pub cells: Vec<DraftCell>,
    pub diagnostics: Vec<Diagnostic>,
}

pub(crate) fn assemble(draft: Draft<'_>) -> Notebook {
    let Draft {
        path,
        format,
        nbformat,
        language,
        cells,
        mut diagnostics,
    } = draft;

    if let Language::Other(lang) = &language
        && cells.iter().any(|c| c.kind == CellKind::Code)
    {
        diagnostics.insert(
            0,
            Diagnostic::warning(
                path,
                format!("kernel language is {lang}; code cells are not analysed"),
            ),
        );
    }

    let ids = assign_ids(
        cells
            .iter()
            .map(|c| (c.kind, c.source.as_str(), c.file_id.as_deref())),
    );
    let mut out = Vec::with_capacity(cells.len());
    for (index, (draft, assigned)) in cells.into_iter().zip(ids).enumerate() {
        if let Some(original) = &assigned.renamed_from {
            diagnostics.push(
                Diagnostic::warning(
                    path,
                    format!(
                        "duplicate cell id \"{original}\"; using \"{}\" for this cell",
                        assigned.id
                    ),
                )
                .in_cell(CellIndex::new(index)),
            );
        }
        let form = {
            let text = match draft.origin {
                CellOrigin::Percent { .. } => uncomment_percent_magics(&draft.source),
                CellOrigin::Ipynb => draft.source.as_str().into(),
            };
            classify(draft.kind, &text, &language, draft.missing_cell_type)
        };
        out.push(Cell {
            index,
            id: assigned.id,
            id_from_file: assigned.from_file,
            kind: draft.kind,
            source: draft.source,
            tags: draft.tags,
            execution_count: draft.execution_count,
            output_count: draft.output_count,
            form,
            origin: draft.origin,
        });
    }
    // Whole-document diagnostics (`None`) first, then by cell.
    diagnostics.sort_by_key(|d| d.cell);

    Notebook {
        path: path.to_path_buf(),
        format,
        nbformat,
        language,
        cells: out,
        diagnostics,
    }
}
