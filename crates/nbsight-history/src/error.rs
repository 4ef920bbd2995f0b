//! What can go wrong with a history file, each error naming the file.

use std::path::{Path, PathBuf};

/// A history that cannot be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// No file where the history should be.
    #[error("no history at {}", path.display())]
    Missing { path: PathBuf },
    /// The folder that should hold it cannot be made.
    #[error("cannot create the folder {}: {source}", path.display())]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file, but not one nbsight wrote.
    #[error("{} is not an nbsight history: {reason}", path.display())]
    NotHistory { path: PathBuf, reason: String },
    /// Written by a newer nbsight, with a schema this one does not know.
    #[error(
        "{} has history schema version {found}, newer than the version {supported} this nbsight knows: upgrade nbsight to read it",
        path.display()
    )]
    Newer {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    /// A value in the file that the schema does not allow.
    #[error("{}: {what} (the file is damaged or was changed by another program)", path.display())]
    Corrupt { path: PathBuf, what: String },
    /// SQLite's own error (a locked, read-only or unreadable file...).
    #[error("{}: {source}", path.display())]
    Sqlite {
        path: PathBuf,
        source: rusqlite::Error,
    },
}

impl HistoryError {
    pub(crate) fn sqlite(path: &Path, source: rusqlite::Error) -> HistoryError {
        // SQLite says "file is not a database" for a file of another kind.
        if let rusqlite::Error::SqliteFailure(e, _) = &source
            && e.code == rusqlite::ErrorCode::NotADatabase
        {
            return HistoryError::NotHistory {
                path: path.to_path_buf(),
                reason: "it is not an SQLite database".to_string(),
            };
        }
        HistoryError::Sqlite {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn corrupt(path: &Path, what: impl Into<String>) -> HistoryError {
        HistoryError::Corrupt {
            path: path.to_path_buf(),
            what: what.into(),
        }
    }
}
