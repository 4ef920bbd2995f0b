//! What kind of code a cell holds: plain Python, or opaque (and why).

use std::fmt;

use serde::Serialize;

use crate::cell_kind::CellKind;
use crate::language::Language;
use crate::magic::{CellMagic, find_cell_magic, is_python_cell_magic};

/// Why a code cell is not analysed as Python.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub enum OpaqueReason {
    /// A cell magic whose body is not Python (`%%bash`, `%%sql`, `%%writefile x`).
    CellMagic(CellMagic),
    /// The notebook's kernel language (e.g. `"R"`).
    NonPythonKernel(String),
    /// The `.ipynb` cell has no (usable) `cell_type`.
    MissingCellType,
}

impl fmt::Display for OpaqueReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpaqueReason::CellMagic(m) => write!(f, "cell magic %%{}", m.name),
            OpaqueReason::NonPythonKernel(lang) => write!(f, "kernel language is {lang}"),
            OpaqueReason::MissingCellType => f.write_str("cell has no cell_type"),
        }
    }
}

/// The form of a cell's code.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub enum CodeForm {
    /// Markdown and raw cells.
    NotCode,
    /// Python (with IPython line magics and shell escapes), possibly under a Python
    /// cell magic such as `%%time` or `%%capture out`.
    Python { cell_magic: Option<CellMagic> },
    /// Code nbsight does not analyse; kept and reported, never dropped.
    Opaque { reason: OpaqueReason },
}

impl CodeForm {
    pub fn is_python(&self) -> bool {
        matches!(self, CodeForm::Python { .. })
    }

    pub fn is_opaque(&self) -> bool {
        matches!(self, CodeForm::Opaque { .. })
    }

    /// The cell magic of the cell, whether Python (`%%time`) or opaque (`%%bash`).
    pub fn cell_magic(&self) -> Option<&CellMagic> {
        match self {
            CodeForm::Python { cell_magic } => cell_magic.as_ref(),
            CodeForm::Opaque {
                reason: OpaqueReason::CellMagic(m),
            } => Some(m),
            _ => None,
        }
    }
}

/// Decide a cell's form. `python_text` is the text IPython would see (for percent
/// scripts, with commented magics already uncommented).
pub(crate) fn classify(
    kind: CellKind,
    python_text: &str,
    language: &Language,
    missing_cell_type: bool,
) -> CodeForm {
    if missing_cell_type {
        return CodeForm::Opaque {
            reason: OpaqueReason::MissingCellType,
        };
    }
    if kind != CellKind::Code {
        return CodeForm::NotCode;
    }
    if let Language::Other(lang) = language {
        return CodeForm::Opaque {
            reason: OpaqueReason::NonPythonKernel(lang.clone()),
        };
    }
    match find_cell_magic(python_text) {
        None => CodeForm::Python { cell_magic: None },
        Some((magic, _)) if is_python_cell_magic(&magic.name) => CodeForm::Python {
            cell_magic: Some(magic),
        },
        Some((magic, _)) => CodeForm::Opaque {
            reason: OpaqueReason::CellMagic(magic),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies() {
        let py = Language::Python;
        assert_eq!(
            classify(CellKind::Markdown, "%%bash", &py, false),
            CodeForm::NotCode
        );
        assert_eq!(
            classify(CellKind::Code, "x = 1", &py, false),
            CodeForm::Python { cell_magic: None }
        );
        let f = classify(CellKind::Code, "%%time\nx = 1", &py, false);
        assert!(f.is_python());
        assert_eq!(f.cell_magic().map(|m| m.name.as_str()), Some("time"));
        let f = classify(CellKind::Code, "%%writefile a.txt\nhi", &py, false);
        assert!(f.is_opaque());
        assert_eq!(f.cell_magic().map(|m| m.args.as_str()), Some("a.txt"));
        let r = Language::Other("R".into());
        assert_eq!(
            classify(CellKind::Code, "x <- 1", &r, false),
            CodeForm::Opaque {
                reason: OpaqueReason::NonPythonKernel("R".into())
            }
        );
        assert_eq!(
            classify(CellKind::Code, "x", &py, true),
            CodeForm::Opaque {
                reason: OpaqueReason::MissingCellType
            }
        );
    }

    #[test]
    fn reasons_display() {
        let m = CellMagic {
            name: "bash".into(),
            args: String::new(),
        };
        assert_eq!(OpaqueReason::CellMagic(m).to_string(), "cell magic %%bash");
        assert_eq!(
            OpaqueReason::NonPythonKernel("R".into()).to_string(),
            "kernel language is R"
        );
    }
}
