//! Non-fatal load problems, located by file, cell, line and column.
//!
//! Display follows ruff's notebook convention: `path:cell N:line:col: message`
//! (N is the 0-based cell index), or `path:line:col: message` for positions in the
//! file itself; parts that are unknown are omitted.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::OneIndexed;
use crate::cell_index::CellIndex;
use crate::severity::Severity;

/// A problem found while loading that did not stop the load.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub path: PathBuf,
    /// The cell, if the problem is in a cell.
    pub cell: Option<CellIndex>,
    /// The line (within the cell when `cell` is set, else within the file).
    pub line: Option<OneIndexed>,
    /// The character column.
    pub column: Option<OneIndexed>,
    pub severity: Severity,
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic about the whole document.
    pub fn new(path: &Path, severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            path: path.to_path_buf(),
            cell: None,
            line: None,
            column: None,
            severity,
            message: message.into(),
        }
    }

    /// An error about the whole document.
    pub fn error(path: &Path, message: impl Into<String>) -> Self {
        Self::new(path, Severity::Error, message)
    }

    /// A warning about the whole document.
    pub fn warning(path: &Path, message: impl Into<String>) -> Self {
        Self::new(path, Severity::Warning, message)
    }

    /// Attach the diagnostic to a cell.
    #[must_use]
    pub fn in_cell(mut self, cell: CellIndex) -> Self {
        self.cell = Some(cell);
        self
    }

    /// Attach a line and column.
    #[must_use]
    pub fn at(mut self, line: OneIndexed, column: OneIndexed) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(cell) = self.cell {
            write!(f, ":cell {cell}")?;
        }
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(column) = self.column {
            write!(f, ":{column}")?;
        }
        write!(f, ": {}", self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_omits_unknown_parts() {
        let p = Path::new("nb.ipynb");
        let cell = CellIndex::new(2);
        let n = |n| OneIndexed::new(n).unwrap();
        assert_eq!(Diagnostic::warning(p, "m").to_string(), "nb.ipynb: m");
        assert_eq!(
            Diagnostic::error(p, "m").in_cell(cell).to_string(),
            "nb.ipynb:cell 2: m"
        );
        assert_eq!(
            Diagnostic::error(p, "m")
                .in_cell(cell)
                .at(n(3), n(4))
                .to_string(),
            "nb.ipynb:cell 2:3:4: m"
        );
        assert_eq!(
            Diagnostic::error(p, "m").at(n(10), n(1)).to_string(),
            "nb.ipynb:10:1: m"
        );
    }
}
