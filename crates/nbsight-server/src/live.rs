//! Live staleness without a front end of nbsight's: when a kernel runs
//! nbsight for a notebook open here, it writes the notebook's history
//! (`.nbsight/<stem>.sqlite` beside it, `docs/history.md`). The server
//! re-reads it when its files change and shows each cell whose latest run
//! read a stale value as an information diagnostic ("reads stale `b` ...
//! re-run cell 1"), so editors without nbsight's JupyterLab extension (VS
//! Code) see the kernel's warnings too.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString, Range, Uri};
use nbsight_history::{History, HistoryError, StaleRead, beside_notebook, stale_reads};
use rustc_hash::FxHashMap;

use crate::diagnostics::SOURCE;
use crate::documents::Doc;
use crate::encoding::Encoding;

/// The code of the live diagnostics.
pub(crate) const CODE: &str = "kernel-stale";

/// What a notebook's history last said.
#[derive(Debug, Default)]
pub(crate) struct LiveState {
    /// The stale reads of the latest session, and the source each cell
    /// last ran.
    pub(crate) reads: Vec<StaleRead>,
    pub(crate) sources: FxHashMap<String, String>,
}

/// Watches one notebook's history.
#[derive(Debug)]
pub(crate) struct LiveWatch {
    notebook: PathBuf,
    db: PathBuf,
    stamp: Option<Stamp>,
    pub(crate) state: LiveState,
}

/// The modification times and sizes of the database and its WAL file.
type Stamp = [(Option<SystemTime>, u64); 2];

fn stamp(db: &Path) -> Option<Stamp> {
    let one = |path: &Path| {
        std::fs::metadata(path)
            .ok()
            .map_or((None, 0), |m| (m.modified().ok(), m.len()))
    };
    let wal = PathBuf::from(format!("{}-wal", db.display()));
    let stamp = [one(db), one(&wal)];
    stamp[0].0.is_some().then_some(stamp)
}

impl LiveWatch {
    pub(crate) fn new(notebook: &Path) -> LiveWatch {
        LiveWatch {
            notebook: notebook.to_path_buf(),
            db: beside_notebook(notebook),
            stamp: None,
            state: LiveState::default(),
        }
    }

    /// Reads the history again when its files changed; `true` when what
    /// it says changed.
    pub(crate) fn refresh(&mut self) -> bool {
        let now = stamp(&self.db);
        if now == self.stamp {
            return false;
        }
        self.stamp = now;
        let state = match now {
            None => LiveState::default(),
            // A history being written or of another version: keep what it
            // said before.
            Some(_) => match read(&self.db, &self.notebook) {
                Ok(state) => state,
                Err(_) => return false,
            },
        };
        let changed = state.reads != self.state.reads;
        self.state = state;
        changed
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The stale reads of the latest session of `notebook` in the history at
/// `db`.
fn read(db: &Path, notebook: &Path) -> Result<LiveState, HistoryError> {
    let history = History::open_existing(db)?;
    let sessions = history.sessions()?;
    let session = sessions.iter().rev().find(|s| {
        s.notebook
            .as_deref()
            .is_none_or(|n| same_file(Path::new(n), notebook))
    });
    let Some(session) = session else {
        return Ok(LiveState::default());
    };
    let rows = history.executions(session.id)?;
    let sources = rows
        .iter()
        .map(|r| (r.cell_id.clone(), r.source.clone()))
        .collect();
    Ok(LiveState {
        reads: stale_reads(&rows),
        sources,
    })
}

/// The editor cell the kernel called `id`: by the cell's URI (VS Code
/// sends it as the cell id) or its own id, else the one cell whose text is
/// the source that cell last ran.
fn find_cell(doc: &Doc, id: &str, source: Option<&str>) -> Option<usize> {
    if let Some(found) = doc
        .cells
        .iter()
        .position(|c| c.uri.as_str() == id || c.id.as_deref() == Some(id))
    {
        return Some(found);
    }
    let source = source?;
    let mut matching = doc
        .cells
        .iter()
        .enumerate()
        .filter(|(_, c)| c.text == source);
    match (matching.next(), matching.next()) {
        (Some((found, _)), None) => Some(found),
        _ => None,
    }
}

/// The range of the first whole-word `name` in `text`, or its first line.
fn name_range(text: &str, name: &str, encoding: Encoding) -> Range {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(at) = text[from..].find(name).map(|i| from + i) {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        if !before.is_some_and(is_word) && !after.is_some_and(is_word) {
            return Range::new(
                encoding.position(text, at),
                encoding.position(text, at + name.len()),
            );
        }
        from = at + name.len();
    }
    let end = encoding.position(text, crate::encoding::line_text(text).len());
    Range::new(lsp_types::Position::new(0, 0), end)
}

/// The information diagnostics of `state` for the cells of `doc`.
pub(crate) fn diagnostics(
    state: &LiveState,
    doc: &Doc,
    encoding: Encoding,
) -> FxHashMap<Uri, Vec<Diagnostic>> {
    let mut out: FxHashMap<Uri, Vec<Diagnostic>> = FxHashMap::default();
    if doc.script {
        return out;
    }
    let source = |id: &str| state.sources.get(id).map(String::as_str);
    for read in &state.reads {
        let Some(cell) = find_cell(doc, &read.cell_id, Some(&read.source)) else {
            continue;
        };
        let text = &doc.cells[cell].text;
        // A cell edited since it ran is judged on its new text by the
        // static rules.
        if *text != read.source {
            continue;
        }
        let place = |id: &str| {
            find_cell(doc, id, source(id))
                .map_or_else(|| format!("`{id}`"), |c| format!("cell {c}"))
        };
        let root = read.symbol.split(['.', '[']).next().unwrap_or(&read.symbol);
        let message = format!(
            "reads stale `{}`: it was computed from `{}`, which {} has set again since; re-run {} first (nbsight kernel)",
            read.symbol,
            read.changed,
            place(&read.changed_by),
            place(&read.set_by),
        );
        out.entry(doc.cells[cell].uri.clone())
            .or_default()
            .push(Diagnostic {
                range: name_range(text, root, encoding),
                severity: Some(DiagnosticSeverity::INFORMATION),
                code: Some(NumberOrString::String(CODE.to_string())),
                source: Some(SOURCE.to_string()),
                message,
                ..Diagnostic::default()
            });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_as_whole_words() {
        let text = "bb = 1\nprint(b)\n";
        let range = name_range(text, "b", Encoding::Utf16);
        assert_eq!(range.start, lsp_types::Position::new(1, 6));
        assert_eq!(range.end, lsp_types::Position::new(1, 7));
        let missing = name_range(text, "zz", Encoding::Utf16);
        assert_eq!(missing.start, lsp_types::Position::new(0, 0));
    }
}
