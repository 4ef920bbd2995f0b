//! The live mode's history in SQLite (`docs/history.md`): every execution a
//! kernel recorded (cell, counter, time, status, source, the symbols it read
//! and wrote, the executions it depended on, the provenance events it
//! recorded), the notebook order the front end showed, in a file that
//! outlives the kernel; and the answers read back from it (sessions,
//! executions, dynamic slices, value provenance replayed as the kernel did)
//! for the command line.
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-history`), the one place
//! they are written; each names the test that holds it, where one does.

mod error;
mod events;
mod locate;
mod read;
mod schema;
mod stale;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
mod write;
mod writer;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

pub use error::HistoryError;
pub use events::RecordedEvents;
pub use locate::{DEFAULT_FILE, FOLDER, beside_notebook, locate, under_dir};
/// The provenance answer, as the lineage gives it.
pub use nbsight_lineage::{InputRef, ProvenanceReport};
pub use read::{ExecutionRow, RunStatus, SessionProvenance, SessionRow, View};
pub use schema::SCHEMA_VERSION;
pub use stale::{StaleRead, stale_reads};
pub use write::RunProvenance;
pub use writer::{HistoryWriter, Kernel, failure_line};

/// A session: one kernel's run, from the history's opening to its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SessionId(pub i64);

impl std::fmt::Display for SessionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// An open history database.
#[derive(Debug)]
pub struct History {
    conn: Connection,
    path: PathBuf,
}

/// nbsight's own folder (`.nbsight`, [`locate::FOLDER`]) holds a
/// `.gitignore` of `*` (as ruff's cache does), so that it never shows in
/// `git status`; written when missing, a failure only loses that comfort.
fn ignore_in_git(folder: &Path) {
    let ignore = folder.join(".gitignore");
    if folder.file_name().is_some_and(|n| n == locate::FOLDER) && !ignore.exists() {
        let _ = std::fs::write(
            ignore,
            "# Written by nbsight: its live histories stay out of git.\n*\n",
        );
    }
}

/// How long a write waits for another kernel writing the same file.
const BUSY_TIMEOUT: Duration = Duration::from_secs(2);

impl History {
    /// Opens the history at `path` for writing, creating its folder, the
    /// file and the schema when they do not exist, and migrating an older
    /// schema. WAL journal, `synchronous=NORMAL`: a commit survives the
    /// process being killed (not a power loss before the next checkpoint).
    pub fn open(path: &Path) -> Result<History, HistoryError> {
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(|source| HistoryError::Folder {
                path: folder.to_path_buf(),
                source,
            })?;
            ignore_in_git(folder);
        }
        let conn = Connection::open(path).map_err(|e| HistoryError::sqlite(path, e))?;
        let mut history = History::on(conn, path)?;
        // A foreign or newer file is refused before anything is changed
        // (switching to WAL would change it).
        schema::check(&history.conn, path)?;
        history.configure()?;
        schema::prepare(&mut history.conn, path, true, true)?;
        Ok(history)
    }

    /// The history on an open connection, waiting up to [`BUSY_TIMEOUT`]
    /// for a writer in another process.
    fn on(conn: Connection, path: &Path) -> Result<History, HistoryError> {
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| HistoryError::sqlite(path, e))?;
        Ok(History {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// Opens an existing history to read it (the command line): an error
    /// when there is no file at `path`; never creates one. An older schema
    /// is migrated when the file can be written.
    pub fn open_existing(path: &Path) -> Result<History, HistoryError> {
        if !path.is_file() {
            return Err(HistoryError::Missing {
                path: path.to_path_buf(),
            });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let (conn, writable) = match Connection::open_with_flags(path, flags) {
            Ok(conn) => (conn, true),
            Err(_) => {
                let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
                let conn = Connection::open_with_flags(path, flags)
                    .map_err(|e| HistoryError::sqlite(path, e))?;
                (conn, false)
            }
        };
        let mut history = History::on(conn, path)?;
        schema::prepare(&mut history.conn, path, writable, false)?;
        Ok(history)
    }

    fn configure(&mut self) -> Result<(), HistoryError> {
        let conn = &self.conn;
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| HistoryError::sqlite(&self.path, e))?;
        let mode: String = conn
            .query_row("PRAGMA journal_mode=WAL", [], |row| row.get(0))
            .map_err(|e| HistoryError::sqlite(&self.path, e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(HistoryError::NotHistory {
                path: self.path.clone(),
                reason: format!("its journal cannot be switched to WAL (it stays `{mode}`)"),
            });
        }
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(|e| HistoryError::sqlite(&self.path, e))?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(|e| HistoryError::sqlite(&self.path, e))?;
        Ok(())
    }

    /// The file this history is in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn error(&self, e: rusqlite::Error) -> HistoryError {
        HistoryError::sqlite(&self.path, e)
    }
}
