//! The nbformat cell type (`code`, `markdown`, `raw`).

use serde::Serialize;

/// The nbformat cell type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum CellKind {
    Code,
    Markdown,
    Raw,
}

impl CellKind {
    /// The nbformat spelling: `code`, `markdown`, `raw`.
    pub fn as_str(self) -> &'static str {
        match self {
            CellKind::Code => "code",
            CellKind::Markdown => "markdown",
            CellKind::Raw => "raw",
        }
    }
}
