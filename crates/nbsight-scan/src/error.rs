//! The errors of a scan as a whole (an input that cannot be opened, an
//! output folder that cannot be written): a bad *notebook* is never an
//! error, it is a status row.

use std::path::PathBuf;

/// Why a scan could not start or go on.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    /// An input cannot be read as a whole (missing, unknown kind, a
    /// Parquet file without the notebook column...).
    #[error("{}: {message}", path.display())]
    Input { path: PathBuf, message: String },
    /// The output folder cannot be written or read back.
    #[error("{}: {message}", path.display())]
    Output { path: PathBuf, message: String },
    /// Options that do not fit together.
    #[error("{0}")]
    Usage(String),
}

impl ScanError {
    pub(crate) fn input(path: impl Into<PathBuf>, message: impl ToString) -> Self {
        ScanError::Input {
            path: path.into(),
            message: message.to_string(),
        }
    }

    pub(crate) fn output(path: impl Into<PathBuf>, message: impl ToString) -> Self {
        ScanError::Output {
            path: path.into(),
            message: message.to_string(),
        }
    }
}
