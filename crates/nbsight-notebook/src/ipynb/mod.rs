//! Reading `.ipynb` documents (nbformat 4, any minor).
//!
//! The JSON is decoded in one streaming pass into the lenient raw model (`raw`):
//! outputs are counted and skipped, never materialised, so notebooks that are mostly
//! base64 images load quickly. Document-level problems are [`LoadError`]s; problems
//! in one cell are [`crate::Diagnostic`]s and the cell is kept.

mod cells;
mod lenient;
mod positions;
mod raw;

pub use positions::IpynbPositions;

use std::path::Path;

use crate::assemble::{Draft, assemble};
use crate::diagnostic::Diagnostic;
use crate::error::LoadError;
use crate::language::Language;
use crate::notebook::{Notebook, SourceFormat};

use lenient::Field;
use raw::{RawNotebook, Version};

/// Load an `.ipynb` document from text; `path` is used only in messages.
pub fn load_ipynb_str(path: &Path, text: &str) -> Result<Notebook, LoadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    check_not_empty(path, text.as_bytes())?;
    // Text is UTF-8 already: its strings are not checked again.
    convert_json(path, serde_json::from_str(text))
}

/// Load an `.ipynb` document from bytes (UTF-8, optional BOM); `path` is used only
/// in messages.
pub fn load_ipynb_bytes(path: &Path, bytes: &[u8]) -> Result<Notebook, LoadError> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    check_not_empty(path, bytes)?;
    convert_json(path, serde_json::from_slice(bytes))
}

fn check_not_empty(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(LoadError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// The notebook of a decoded document.
fn convert_json(
    path: &Path,
    raw: Result<Field<RawNotebook>, serde_json::Error>,
) -> Result<Notebook, LoadError> {
    match raw.map_err(|e| invalid_json(path, &e))? {
        Field::Ok(raw) => convert(path, raw),
        Field::Wrong(found) => Err(not_a_notebook(
            path,
            format!("the top level is {found}, not an object"),
        )),
    }
}

fn invalid_json(path: &Path, e: &serde_json::Error) -> LoadError {
    let mut message = e.to_string();
    if let Some(at) = message.rfind(" at line ") {
        message.truncate(at);
    }
    LoadError::InvalidJson {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        message,
    }
}

fn not_a_notebook(path: &Path, reason: String) -> LoadError {
    LoadError::NotANotebook {
        path: path.to_path_buf(),
        reason,
    }
}

fn convert(path: &Path, raw: RawNotebook) -> Result<Notebook, LoadError> {
    let mut diagnostics = Vec::new();
    let major = match raw.nbformat {
        Some(Field::Ok(Version(major))) => Some(major),
        Some(Field::Wrong(found)) => {
            diagnostics.push(Diagnostic::warning(
                path,
                format!("`nbformat` is {found}, not a number; assuming nbformat 4"),
            ));
            None
        }
        None => None,
    };
    match major {
        Some(major @ 0..=3) => {
            return Err(LoadError::UnsupportedVersion {
                path: path.to_path_buf(),
                major,
                hint: format!(
                    "nbsight reads nbformat 4; convert it with \
                     `jupyter nbconvert --to notebook --nbformat 4 {}`",
                    path.display()
                ),
            });
        }
        Some(major @ 5..) => {
            return Err(LoadError::UnsupportedVersion {
                path: path.to_path_buf(),
                major,
                hint: "nbsight reads nbformat 4 only".to_string(),
            });
        }
        _ => {}
    }
    let cells = match raw.cells {
        Some(Field::Ok(cells)) => cells.0,
        Some(Field::Wrong(found)) => {
            return Err(not_a_notebook(
                path,
                format!("`cells` is {found}, not an array"),
            ));
        }
        None => return Err(not_a_notebook(path, "no `cells` array".to_string())),
    };
    if raw.nbformat.is_none() {
        diagnostics.push(Diagnostic::warning(
            path,
            "no `nbformat` field; assuming nbformat 4",
        ));
    }
    let nbformat = major.map(|major| {
        let minor = match raw.nbformat_minor {
            Some(Field::Ok(Version(minor))) => minor,
            _ => 0,
        };
        (
            u32::try_from(major).unwrap_or(u32::MAX),
            u32::try_from(minor).unwrap_or(u32::MAX),
        )
    });
    let language = match &raw.metadata {
        Some(Field::Ok(metadata)) => metadata
            .language()
            .map_or(Language::Python, Language::from_name),
        Some(Field::Wrong(found)) => {
            diagnostics.push(Diagnostic::warning(
                path,
                format!("notebook `metadata` is {found}, not an object; ignored"),
            ));
            Language::Python
        }
        None => Language::Python,
    };
    let cells = cells::convert_cells(path, cells, &mut diagnostics);
    Ok(assemble(Draft {
        path,
        format: SourceFormat::Ipynb,
        nbformat,
        language,
        cells,
        diagnostics,
    }))
}

#[cfg(test)]
mod tests;
