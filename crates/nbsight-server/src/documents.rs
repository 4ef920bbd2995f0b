//! The open documents as the editor holds them: notebooks (LSP 3.17's
//! notebook documents: cells, their text, kind and execution summary) and
//! percent scripts (text documents with `# %%` markers, one document whose
//! cells the notebook reader finds). Changes are applied as they arrive;
//! what a change did (one cell edited, inserted, deleted) is kept for the
//! what-if query.

use std::path::PathBuf;

use lsp_types::{
    DidChangeNotebookDocumentParams, NotebookCell, NotebookCellKind, NotebookDocument,
    TextDocumentContentChangeEvent, TextDocumentItem, Uri,
};
use nbsight_notebook::{CellKind, EditorCell, Notebook, from_editor, load_percent_str};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::encoding::Encoding;
use crate::uri::{display_path, file_path};

/// One cell of an open notebook (or the whole text of a percent script).
#[derive(Debug, Clone)]
pub(crate) struct CellDoc {
    pub(crate) uri: Uri,
    pub(crate) kind: CellKind,
    pub(crate) text: String,
    pub(crate) version: i32,
    /// The execution order the editor shows (`[4]`), when it ran.
    pub(crate) execution_order: Option<u32>,
    /// The cell's own id (`metadata.id`), when the editor sends it.
    pub(crate) id: Option<String>,
}

/// What the last changes did to a notebook, as one what-if event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Edit {
    /// Only the text of the cell at this position changed.
    Cell(usize),
    Inserted(usize),
    Deleted(usize),
    /// Several cells, or the order: no single event.
    Other,
}

impl Edit {
    /// The edit after `self` and then `next`.
    fn then(self, next: Edit) -> Edit {
        match (self, next) {
            (Edit::Cell(a), Edit::Cell(b)) if a == b => Edit::Cell(a),
            (Edit::Inserted(a), Edit::Cell(b)) if a == b => Edit::Inserted(a),
            _ => Edit::Other,
        }
    }
}

/// An open notebook or percent script.
#[derive(Debug, Clone)]
pub(crate) struct Doc {
    pub(crate) uri: Uri,
    pub(crate) version: i32,
    /// A text document (a percent script, or jupyterlab-lsp's virtual
    /// document of a notebook): `cells` holds one entry, the whole text.
    pub(crate) script: bool,
    /// jupyterlab-lsp's virtual document: a notebook's cells joined with
    /// two blank lines, without markers.
    pub(crate) joined: bool,
    pub(crate) cells: Vec<CellDoc>,
    /// What changed since the last analysis (`None`: nothing yet).
    pub(crate) pending: Option<Edit>,
    /// The sources of the cells the file on disk saves outputs for (LSP
    /// does not say which cells show outputs; NBS002 is about saved ones).
    pub(crate) saved_outputs: FxHashSet<String>,
}

impl Doc {
    pub(crate) fn path(&self) -> PathBuf {
        display_path(&self.uri)
    }

    /// The notebook the engines read.
    pub(crate) fn notebook(&self) -> Notebook {
        let path = self.path();
        if self.script {
            let text = self.cells.first().map_or("", |c| c.text.as_str());
            if self.joined {
                let cells = split_joined(text)
                    .into_iter()
                    .map(|(_, source)| EditorCell::new(CellKind::Code, source));
                return from_editor(&path, cells);
            }
            return load_percent_str(&path, text);
        }
        from_editor(
            &path,
            self.cells.iter().map(|cell| EditorCell {
                id: cell.id.clone(),
                execution_count: cell.execution_order.map(i64::from),
                has_outputs: cell.execution_order.is_some()
                    && self.saved_outputs.contains(&cell.text),
                ..EditorCell::new(cell.kind, cell.text.clone())
            }),
        )
    }

    pub(crate) fn cell_position(&self, uri: &Uri) -> Option<usize> {
        self.cells.iter().position(|c| &c.uri == uri)
    }

    /// Reads which cells the saved file has outputs for (nothing when it
    /// is not a readable `.ipynb` file).
    pub(crate) fn read_saved_outputs(&mut self) {
        self.saved_outputs = file_path(&self.uri)
            .filter(|p| nbsight_notebook::is_ipynb(p))
            .and_then(|p| nbsight_notebook::load_path(&p).ok())
            .map(|saved| {
                saved
                    .cells
                    .into_iter()
                    .filter(|c| c.has_outputs())
                    .map(|c| c.source)
                    .collect()
            })
            .unwrap_or_default();
    }

    fn record(&mut self, edit: Edit) {
        self.pending = Some(match self.pending.take() {
            None => edit,
            Some(before) => before.then(edit),
        });
    }
}

/// Every open document, and which document each cell belongs to.
#[derive(Debug, Default)]
pub(crate) struct Documents {
    docs: FxHashMap<Uri, Doc>,
    owner: FxHashMap<Uri, Uri>,
}

fn cell_kind(kind: NotebookCellKind, language: Option<&str>) -> CellKind {
    match kind {
        NotebookCellKind::Markup => CellKind::Markdown,
        NotebookCellKind::Code => match language {
            Some(l) if !is_python(l) => CellKind::Raw,
            _ => CellKind::Code,
        },
    }
}

fn is_python(language: &str) -> bool {
    let l = language.to_ascii_lowercase();
    l.starts_with("python") || l.starts_with("ipython") || l == "jupyter"
}

fn cell_id(cell: &NotebookCell) -> Option<String> {
    let id = cell.metadata.as_ref()?.get("id")?;
    id.as_str().map(str::to_string)
}

fn new_cell(cell: &NotebookCell, texts: &FxHashMap<Uri, &TextDocumentItem>) -> CellDoc {
    let item = texts.get(&cell.document);
    CellDoc {
        uri: cell.document.clone(),
        kind: cell_kind(cell.kind.clone(), item.map(|i| i.language_id.as_str())),
        text: item.map(|i| i.text.clone()).unwrap_or_default(),
        version: item.map_or(0, |i| i.version),
        execution_order: cell.execution_summary.as_ref().map(|s| s.execution_order),
        id: cell_id(cell),
    }
}

impl Documents {
    pub(crate) fn get(&self, uri: &Uri) -> Option<&Doc> {
        self.docs.get(uri)
    }

    pub(crate) fn uris(&self) -> impl Iterator<Item = &Uri> {
        self.docs.keys()
    }

    /// The document holding `uri`: a notebook for a cell URI, the script
    /// itself for a script.
    pub(crate) fn owner_of(&self, uri: &Uri) -> Option<&Doc> {
        match self.owner.get(uri) {
            Some(notebook) => self.docs.get(notebook),
            None => self.docs.get(uri),
        }
    }

    pub(crate) fn open_notebook(
        &mut self,
        notebook: NotebookDocument,
        texts: Vec<TextDocumentItem>,
    ) {
        let texts: FxHashMap<Uri, &TextDocumentItem> =
            texts.iter().map(|t| (t.uri.clone(), t)).collect();
        let cells: Vec<CellDoc> = notebook.cells.iter().map(|c| new_cell(c, &texts)).collect();
        for cell in &cells {
            self.owner.insert(cell.uri.clone(), notebook.uri.clone());
        }
        let mut doc = Doc {
            uri: notebook.uri.clone(),
            version: notebook.version,
            script: false,
            joined: false,
            cells,
            pending: None,
            saved_outputs: FxHashSet::default(),
        };
        doc.read_saved_outputs();
        self.docs.insert(notebook.uri, doc);
    }

    /// Applies a notebook change; the URIs of cells it removed (their
    /// diagnostics are to be cleared). `None` when the notebook is not open.
    pub(crate) fn change_notebook(
        &mut self,
        params: DidChangeNotebookDocumentParams,
        encoding: Encoding,
    ) -> Option<Vec<Uri>> {
        let uri = params.notebook_document.uri;
        let doc = self.docs.get_mut(&uri)?;
        doc.version = params.notebook_document.version;
        let mut removed = Vec::new();
        let Some(cells) = params.change.cells else {
            return Some(removed);
        };
        if let Some(structure) = cells.structure {
            let opened = structure.did_open.unwrap_or_default();
            let texts: FxHashMap<Uri, &TextDocumentItem> =
                opened.iter().map(|t| (t.uri.clone(), t)).collect();
            let start = (structure.array.start as usize).min(doc.cells.len());
            let end = (start + structure.array.delete_count as usize).min(doc.cells.len());
            let new: Vec<CellDoc> = structure
                .array
                .cells
                .unwrap_or_default()
                .iter()
                .map(|c| {
                    // A moved cell keeps its text (it is not reopened).
                    match doc.cells.iter().find(|old| old.uri == c.document) {
                        Some(old) if !texts.contains_key(&c.document) => old.clone(),
                        _ => new_cell(c, &texts),
                    }
                })
                .collect();
            let edit = match (end - start, new.len()) {
                (0, 1) => Edit::Inserted(start),
                (1, 0) => Edit::Deleted(start),
                _ => Edit::Other,
            };
            let gone: Vec<CellDoc> = doc.cells.splice(start..end, new).collect();
            for cell in gone {
                if !doc.cells.iter().any(|c| c.uri == cell.uri) {
                    removed.push(cell.uri);
                }
            }
            doc.record(edit);
        }
        if let Some(data) = cells.data {
            for changed in data {
                if let Some(cell) = doc.cells.iter_mut().find(|c| c.uri == changed.document) {
                    cell.execution_order = changed
                        .execution_summary
                        .as_ref()
                        .map(|s| s.execution_order);
                    cell.id = cell_id(&changed).or(cell.id.take());
                }
            }
            doc.record(Edit::Other);
        }
        for content in cells.text_content.unwrap_or_default() {
            let Some(position) = doc.cell_position(&content.document.uri) else {
                continue;
            };
            let cell = &mut doc.cells[position];
            cell.version = content.document.version;
            for change in &content.changes {
                apply(&mut cell.text, change, encoding);
            }
            doc.record(Edit::Cell(position));
        }
        for gone in &removed {
            self.owner.remove(gone);
        }
        let doc = self.docs.get(&uri)?;
        for cell in &doc.cells {
            self.owner.insert(cell.uri.clone(), uri.clone());
        }
        Some(removed)
    }

    /// The file of `uri` was saved: its outputs may have changed.
    pub(crate) fn saved(&mut self, uri: &Uri) -> bool {
        match self.docs.get_mut(uri) {
            Some(doc) if !doc.script => {
                doc.read_saved_outputs();
                true
            }
            _ => false,
        }
    }

    /// What changed in `uri` since it was last analysed (and forgets it).
    pub(crate) fn take_pending(&mut self, uri: &Uri) -> Option<Edit> {
        self.docs.get_mut(uri)?.pending.take()
    }

    /// Closes a notebook; the URIs of its cells.
    pub(crate) fn close(&mut self, uri: &Uri) -> Vec<Uri> {
        let Some(doc) = self.docs.remove(uri) else {
            return Vec::new();
        };
        let cells: Vec<Uri> = doc.cells.into_iter().map(|c| c.uri).collect();
        for cell in &cells {
            self.owner.remove(cell);
        }
        cells
    }

    /// Opens a text document when it is a percent script (a Python file
    /// with `# %%` cell markers) or jupyterlab-lsp's virtual document of a
    /// notebook (a Python document whose name ends in `.ipynb`); `false`
    /// for any other document.
    pub(crate) fn open_text(&mut self, item: TextDocumentItem) -> bool {
        // A notebook cell sent as a text document (its URI names the
        // notebook, with the cell in the fragment) is its notebook's.
        if item.uri.fragment().is_some()
            || item
                .uri
                .scheme()
                .is_some_and(|s| s.as_str().starts_with("vscode-notebook"))
        {
            return false;
        }
        let joined = item.uri.path().as_str().ends_with(".ipynb");
        if self.owner.contains_key(&item.uri)
            || !is_python(&item.language_id)
            || !(joined || nbsight_notebook::has_percent_marker(&item.text))
        {
            return false;
        }
        let uri = item.uri.clone();
        self.docs.insert(
            uri.clone(),
            Doc {
                uri: uri.clone(),
                version: item.version,
                script: true,
                joined,
                cells: vec![CellDoc {
                    uri,
                    kind: CellKind::Code,
                    text: item.text,
                    version: item.version,
                    execution_order: None,
                    id: None,
                }],
                pending: None,
                saved_outputs: FxHashSet::default(),
            },
        );
        true
    }

    /// Applies changes to an open percent script (or a cell sent as a
    /// text document); `false` when the document is not open here.
    pub(crate) fn change_text(
        &mut self,
        uri: &Uri,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
    ) -> bool {
        let notebook = self.owner.get(uri).cloned().unwrap_or_else(|| uri.clone());
        let Some(doc) = self.docs.get_mut(&notebook) else {
            return false;
        };
        let Some(position) = doc.cell_position(uri) else {
            return false;
        };
        let cell = &mut doc.cells[position];
        cell.version = version;
        for change in changes {
            apply(&mut cell.text, change, encoding);
        }
        if doc.script {
            doc.version = version;
        }
        doc.record(Edit::Cell(position));
        true
    }
}

/// The cells of a virtual document as jupyterlab-lsp joins them (two blank
/// lines between cells): each cell's first line and text. Two blank lines
/// inside a cell (between functions, as PEP 8 has them) split it too, which
/// changes no finding of code that runs top to bottom.
pub(crate) fn split_joined(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut cells = Vec::new();
    let mut start: Option<usize> = None;
    let mut blank_run = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            blank_run += 1;
            continue;
        }
        match start {
            Some(first) if blank_run >= 2 => {
                cells.push((first, lines[first..i].join("\n").trim_end().to_string()));
                start = Some(i);
            }
            Some(_) => {}
            None => start = Some(i),
        }
        blank_run = 0;
    }
    if let Some(first) = start {
        cells.push((first, lines[first..].join("\n").trim_end().to_string()));
    }
    cells
}

/// Applies one content change (a range replaced, or the whole text).
pub(crate) fn apply(
    text: &mut String,
    change: &TextDocumentContentChangeEvent,
    encoding: Encoding,
) {
    match change.range {
        None => *text = change.text.clone(),
        Some(range) => {
            let start = encoding.offset(text, range.start);
            let end = encoding.offset(text, range.end).max(start);
            text.replace_range(start..end, &change.text);
        }
    }
}

#[cfg(test)]
mod tests {
    use lsp_types::{Position, Range};

    use super::*;

    #[test]
    fn incremental_changes_replace_ranges() {
        let mut text = "a = 1\nb = a\n".to_string();
        let change = TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(1, 4), Position::new(1, 5))),
            range_length: None,
            text: "a + 1".into(),
        };
        apply(&mut text, &change, Encoding::Utf16);
        assert_eq!(text, "a = 1\nb = a + 1\n");
        let whole = TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "x".into(),
        };
        apply(&mut text, &whole, Encoding::Utf16);
        assert_eq!(text, "x");
    }

    #[test]
    fn joined_documents_split_at_two_blank_lines() {
        let text = "import math\n\n\nx = 1\n\ny = x\n\n\n\nprint(y)\n";
        let cells = split_joined(text);
        assert_eq!(
            cells,
            [
                (0, "import math".to_string()),
                (3, "x = 1\n\ny = x".to_string()),
                (9, "print(y)".to_string())
            ]
        );
    }

    #[test]
    fn edits_combine_into_one_event_or_none() {
        assert_eq!(Edit::Cell(2).then(Edit::Cell(2)), Edit::Cell(2));
        assert_eq!(Edit::Inserted(1).then(Edit::Cell(1)), Edit::Inserted(1));
        assert_eq!(Edit::Cell(1).then(Edit::Cell(2)), Edit::Other);
        assert_eq!(Edit::Deleted(0).then(Edit::Cell(0)), Edit::Other);
    }
}
