//! The loaded notebook document.

use std::path::PathBuf;

use serde::Serialize;

use crate::cell::{Cell, CellKind};
use crate::diagnostic::Diagnostic;
use crate::language::Language;
use crate::severity::Severity;

/// The document format a notebook was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum SourceFormat {
    /// Jupyter `.ipynb` JSON (nbformat 4).
    Ipynb,
    /// A percent script (`# %%` cell markers, as jupytext writes them).
    Percent,
}

/// A notebook: every cell in file order plus the non-fatal problems found loading it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Notebook {
    pub path: PathBuf,
    pub format: SourceFormat,
    /// `(major, minor)` for `.ipynb` files that declare it.
    pub nbformat: Option<(u32, u32)>,
    pub language: Language,
    /// Every cell, in file order: code, markdown, raw.
    pub cells: Vec<Cell>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Notebook {
    /// Code cells, in order.
    pub fn code_cells(&self) -> impl Iterator<Item = &Cell> {
        self.cells.iter().filter(|c| c.kind == CellKind::Code)
    }

    /// Code cells analysed as Python, in order.
    pub fn python_cells(&self) -> impl Iterator<Item = &Cell> {
        self.cells.iter().filter(|c| c.is_python())
    }

    /// The cell with this id.
    pub fn cell_by_id(&self, id: &str) -> Option<&Cell> {
        self.cells.iter().find(|c| c.id == id)
    }

    /// Does any load diagnostic have severity Error?
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}
