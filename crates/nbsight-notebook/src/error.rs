//! Fatal load errors: the document could not be read as a notebook at all.
//!
//! Every message names the file. Problems confined to one cell are not errors but
//! [`crate::Diagnostic`]s on the loaded notebook.

use std::path::PathBuf;

/// Why a notebook could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: cannot read file: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file is empty or holds only whitespace.
    #[error("{path}: file is empty")]
    Empty { path: PathBuf },
    /// The file is not valid JSON; `line` and `column` are 1-based.
    #[error("{path}:{line}:{column}: invalid JSON: {message}")]
    InvalidJson {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// The file is JSON but not a notebook (top level not an object, no `cells` array).
    #[error("{path}: not a Jupyter notebook: {reason}")]
    NotANotebook { path: PathBuf, reason: String },
    /// The notebook's `nbformat` major version is not 4.
    #[error("{path}: unsupported nbformat {major}: {hint}")]
    UnsupportedVersion {
        path: PathBuf,
        major: u64,
        hint: String,
    },
    /// A text document (percent script) is not valid UTF-8.
    #[error("{path}: not UTF-8 text (invalid byte at offset {offset})")]
    NotUtf8 { path: PathBuf, offset: usize },
}

impl LoadError {
    /// The file the error is about.
    pub fn path(&self) -> &std::path::Path {
        match self {
            LoadError::Io { path, .. }
            | LoadError::Empty { path }
            | LoadError::InvalidJson { path, .. }
            | LoadError::NotANotebook { path, .. }
            | LoadError::UnsupportedVersion { path, .. }
            | LoadError::NotUtf8 { path, .. } => path,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_file() {
        let e = LoadError::InvalidJson {
            path: PathBuf::from("a/b.ipynb"),
            line: 3,
            column: 7,
            message: "expected `,`".into(),
        };
        assert_eq!(e.to_string(), "a/b.ipynb:3:7: invalid JSON: expected `,`");
        assert_eq!(e.path(), std::path::Path::new("a/b.ipynb"));
        let e = LoadError::Empty {
            path: PathBuf::from("e.ipynb"),
        };
        assert_eq!(e.to_string(), "e.ipynb: file is empty");
    }
}
