//! Where a history is: the file a `DB_OR_NOTEBOOK` argument names, and the
//! default places a kernel writes to (`.nbsight/<stem>.sqlite` beside a
//! notebook, `.nbsight/history.sqlite` in a folder).

use std::io::Read;
use std::path::{Path, PathBuf};

/// The folder, beside a notebook or in a working directory, that holds
/// histories.
pub const FOLDER: &str = ".nbsight";

/// The history's file name in a folder without a notebook (a terminal
/// session writes `<cwd>/.nbsight/history.sqlite`).
pub const DEFAULT_FILE: &str = "history.sqlite";

/// The history of the notebook at `notebook`: `<dir>/.nbsight/<stem>.sqlite`.
pub fn beside_notebook(notebook: &Path) -> PathBuf {
    let dir = notebook.parent().unwrap_or(Path::new(""));
    let stem = notebook
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "history".to_string());
    dir.join(FOLDER).join(format!("{stem}.sqlite"))
}

/// The history of a session run in `dir` without a notebook:
/// `<dir>/.nbsight/history.sqlite`.
pub fn under_dir(dir: &Path) -> PathBuf {
    dir.join(FOLDER).join(DEFAULT_FILE)
}

/// The extensions that name a database, whatever the file holds.
const DATABASE_EXTENSIONS: &[&str] = &["sqlite", "sqlite3", "db"];

/// The history file a `DB_OR_NOTEBOOK` argument names: for a notebook (a
/// path ending in `.ipynb`, or an existing file that is not an SQLite
/// database and is not named as one (`.sqlite`, `.sqlite3`, `.db`), such as
/// a percent script) the history beside it; for a folder the one under it;
/// otherwise the path itself.
pub fn locate(arg: &Path) -> PathBuf {
    if arg.is_dir() {
        return under_dir(arg);
    }
    let extension = |names: &[&str]| {
        arg.extension()
            .is_some_and(|e| names.iter().any(|n| e.eq_ignore_ascii_case(n)))
    };
    let ipynb = extension(&["ipynb"]);
    let database = extension(DATABASE_EXTENSIONS);
    if ipynb || (arg.is_file() && !database && !looks_like_sqlite(arg)) {
        return beside_notebook(arg);
    }
    arg.to_path_buf()
}

/// Does the file start with SQLite's header (an empty file counts: SQLite
/// takes it as an empty database)?
fn looks_like_sqlite(path: &Path) -> bool {
    let mut header = [0u8; 16];
    let Ok(mut file) = std::fs::File::open(path) else {
        return true;
    };
    let mut read = 0;
    while read < header.len() {
        match file.read(&mut header[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(_) => return true,
        }
    }
    read == 0 || (read == header.len() && &header == b"SQLite format 3\0")
}
