//! The notifications that keep the documents as the editor holds them
//! (notebooks, cells, scripts opened, changed, saved, closed) and the
//! settings in force.

use super::*;

impl Server {
    pub(super) fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            notif::DidOpenNotebookDocument::METHOD => {
                if let Some(p) = self.params::<DidOpenNotebookDocumentParams>(n) {
                    let uri = p.notebook_document.uri.clone();
                    self.docs
                        .open_notebook(p.notebook_document, p.cell_text_documents);
                    self.opened(uri);
                }
            }
            notif::DidChangeNotebookDocument::METHOD => {
                if let Some(p) = self.params::<DidChangeNotebookDocumentParams>(n) {
                    let uri = p.notebook_document.uri.clone();
                    if let Some(removed) = self.docs.change_notebook(p, self.encoding) {
                        for cell in removed {
                            self.clear(&cell);
                        }
                        self.mark(uri);
                    }
                }
            }
            notif::DidSaveNotebookDocument::METHOD => {
                if let Some(p) = self.params::<lsp_types::DidSaveNotebookDocumentParams>(n)
                    && self.docs.saved(&p.notebook_document.uri)
                {
                    self.mark(p.notebook_document.uri);
                }
            }
            notif::DidCloseNotebookDocument::METHOD => {
                if let Some(p) = self.params::<DidCloseNotebookDocumentParams>(n) {
                    self.closed(&p.notebook_document.uri);
                }
            }
            notif::DidOpenTextDocument::METHOD => {
                if let Some(p) = self.params::<DidOpenTextDocumentParams>(n) {
                    let uri = p.text_document.uri.clone();
                    if self.docs.open_text(p.text_document) {
                        self.opened(uri);
                    }
                }
            }
            notif::DidChangeTextDocument::METHOD => {
                if let Some(p) = self.params::<DidChangeTextDocumentParams>(n) {
                    let uri = p.text_document.uri;
                    if self.docs.change_text(
                        &uri,
                        p.text_document.version,
                        &p.content_changes,
                        self.encoding,
                    ) && let Some(owner) = self.docs.owner_of(&uri).map(|d| d.uri.clone())
                    {
                        self.mark(owner);
                    }
                }
            }
            notif::DidCloseTextDocument::METHOD => {
                if let Some(p) = self.params::<DidCloseTextDocumentParams>(n) {
                    // Cells are closed with their notebook.
                    if self
                        .docs
                        .get(&p.text_document.uri)
                        .is_some_and(|d| d.script)
                    {
                        self.closed(&p.text_document.uri);
                    }
                }
            }
            notif::DidChangeConfiguration::METHOD
            | notif::DidChangeWatchedFiles::METHOD
            | notif::DidSaveTextDocument::METHOD => self.reload_settings(),
            _ => {}
        }
    }

    pub(super) fn params<P: DeserializeOwned>(&self, n: Notification) -> Option<P> {
        match serde_json::from_value::<P>(n.params) {
            Ok(p) => Some(p),
            Err(e) => {
                self.log(format!("ignored `{}`: invalid parameters: {e}", n.method));
                None
            }
        }
    }

    pub(super) fn opened(&mut self, uri: Uri) {
        if let Some(doc) = self.docs.get(&uri) {
            self.baseline.insert(uri.clone(), doc.notebook());
        }
        if let Some(path) = file_path(&uri)
            && !self.docs.get(&uri).is_some_and(|d| d.script)
        {
            let mut watch = LiveWatch::new(&path);
            watch.refresh();
            self.live.insert(uri.clone(), watch);
        }
        self.mark(uri);
    }

    pub(super) fn closed(&mut self, uri: &Uri) {
        for cell in self.docs.close(uri) {
            self.clear(&cell);
        }
        self.clear(uri);
        self.analyses.remove(uri);
        self.baseline.remove(uri);
        self.names.remove(uri);
        self.live.remove(uri);
        self.dirty.retain(|d| d != uri);
    }

    pub(super) fn mark(&mut self, uri: Uri) {
        self.names.remove(&uri);
        if !self.dirty.contains(&uri) {
            self.dirty.push(uri);
        }
    }

    /// Empties what the client shows for `uri` (a cell that is gone).
    pub(super) fn clear(&mut self, uri: &Uri) {
        if self
            .published
            .remove(uri)
            .is_some_and(|(_, d)| !d.is_empty())
            && self.push
        {
            self.send_diagnostics(uri.clone(), Vec::new(), None);
        }
    }

    pub(super) fn reload_settings(&mut self) {
        self.errors_shown.clear();
        self.resolver = match Resolver::new(CommandLine::default(), None, &self.root) {
            Ok(resolver) => Some(resolver),
            Err(e) => {
                self.show_error(e.to_string());
                None
            }
        };
        let all: Vec<Uri> = self.docs.uris().cloned().collect();
        for uri in all {
            self.mark(uri);
        }
    }

    pub(super) fn rules_for(&mut self, path: &Path) -> RuleSet {
        let Some(resolver) = &self.resolver else {
            return RuleSet::default();
        };
        match resolver.for_file(path) {
            Ok(settings) => settings.rules_for(path),
            Err(e) => {
                self.show_error(e.to_string());
                RuleSet::default()
            }
        }
    }
}
