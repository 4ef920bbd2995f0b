//! Notebooks as an editor holds them: the cells a language client sent
//! (kind, text, id when it has one, the execution order it last showed),
//! turned into a [`Notebook`] the engines read like a loaded file.

use std::path::Path;

use crate::assemble::{Draft, DraftCell, assemble};
use crate::cell::{CellKind, CellOrigin};
use crate::language::Language;
use crate::notebook::{Notebook, SourceFormat};

/// One cell of an open notebook, as the editor shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditorCell {
    pub kind: CellKind,
    pub source: String,
    /// The cell's own id (an `.ipynb` cell's `id`), when the editor sent one.
    pub id: Option<String>,
    /// The execution order the editor last showed (`[4]`).
    pub execution_count: Option<i64>,
    /// Whether the editor shows outputs under the cell.
    pub has_outputs: bool,
    pub tags: Vec<String>,
}

impl EditorCell {
    /// A cell with only its kind and text.
    pub fn new(kind: CellKind, source: impl Into<String>) -> Self {
        EditorCell {
            kind,
            source: source.into(),
            id: None,
            execution_count: None,
            has_outputs: false,
            tags: Vec::new(),
        }
    }
}

/// The notebook at `path` (used in messages and for its settings) as an
/// editor holds it: its cells in order, in a Python kernel. Never fails;
/// cells are parsed as an `.ipynb` file's would be.
pub fn from_editor(path: &Path, cells: impl IntoIterator<Item = EditorCell>) -> Notebook {
    let cells = cells
        .into_iter()
        .map(|cell| DraftCell {
            file_id: cell.id,
            tags: cell.tags,
            execution_count: cell.execution_count,
            output_count: usize::from(cell.has_outputs),
            ..DraftCell::new(cell.kind, cell.source, CellOrigin::Ipynb)
        })
        .collect();
    assemble(Draft {
        path,
        format: SourceFormat::Ipynb,
        nbformat: Some((4, 5)),
        language: Language::Python,
        cells,
        diagnostics: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_keep_their_order_ids_and_counts() {
        let mut first = EditorCell::new(CellKind::Code, "a = 1");
        first.id = Some("one".into());
        first.execution_count = Some(3);
        let cells = [
            first,
            EditorCell::new(CellKind::Markdown, "# title"),
            EditorCell::new(CellKind::Code, "print(a)"),
        ];
        let notebook = from_editor(Path::new("nb.ipynb"), cells);
        assert_eq!(notebook.cells.len(), 3);
        assert_eq!(notebook.cells[0].id, "one");
        assert_eq!(notebook.cells[0].execution_count, Some(3));
        assert_eq!(notebook.cells[1].kind, CellKind::Markdown);
        assert!(notebook.cells[2].is_python());
        assert!(!notebook.cells[2].id.is_empty());
    }

    #[test]
    fn duplicate_ids_stay_unique() {
        let mut a = EditorCell::new(CellKind::Code, "x = 1");
        a.id = Some("same".into());
        let b = a.clone();
        let notebook = from_editor(Path::new("nb.ipynb"), [a, b]);
        assert_ne!(notebook.cells[0].id, notebook.cells[1].id);
    }
}
