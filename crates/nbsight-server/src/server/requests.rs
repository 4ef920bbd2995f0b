//! The requests the server answers: diagnostics pulled, hover, definition,
//! references, code actions; everything else is `MethodNotFound`.

use super::*;

impl Server {
    pub(super) fn request(&mut self, request: Request) {
        let id = request.id.clone();
        if self.shut_down {
            return error(
                &self.out,
                id,
                ErrorCode::InvalidRequest,
                "the server is shut down",
            );
        }
        match request.method.as_str() {
            req::Shutdown::METHOD => {
                self.shut_down = true;
                send(&self.out, Response::new_ok(id, ()));
            }
            req::DocumentDiagnosticRequest::METHOD => self
                .answer(request, |s, p: DocumentDiagnosticParams| {
                    Some(s.pull(&p.text_document.uri))
                }),
            req::HoverRequest::METHOD => self.answer(request, |s, p: HoverParams| {
                let at = p.text_document_position_params;
                s.hover(&at.text_document.uri, at.position)
            }),
            req::GotoDefinition::METHOD => self.answer(request, |s, p: GotoDefinitionParams| {
                let at = p.text_document_position_params;
                let names = s.names_of(&at.text_document.uri)?;
                let occurrence = names.at(&at.text_document.uri, at.position)?;
                Some(GotoDefinitionResponse::Array(names.definitions(occurrence)))
            }),
            req::References::METHOD => self.answer(request, |s, p: ReferenceParams| {
                let at = p.text_document_position;
                let names = s.names_of(&at.text_document.uri)?;
                let occurrence = names.at(&at.text_document.uri, at.position)?;
                Some(names.references(occurrence, p.context.include_declaration))
            }),
            req::CodeActionRequest::METHOD => {
                self.answer(request, |s, p: CodeActionParams| Some(s.code_actions(&p)))
            }
            other => error(
                &self.out,
                id,
                ErrorCode::MethodNotFound,
                format!("nbsight server does not handle `{other}`"),
            ),
        }
    }

    /// Answers `request` with `handle` on its parameters (`None`: null).
    pub(super) fn answer<P: DeserializeOwned, R: Serialize>(
        &mut self,
        request: Request,
        handle: impl FnOnce(&mut Self, P) -> Option<R>,
    ) {
        match serde_json::from_value::<P>(request.params) {
            Ok(params) => {
                let result = handle(self, params);
                send(&self.out, Response::new_ok(request.id, result));
            }
            Err(e) => error(
                &self.out,
                request.id,
                ErrorCode::InvalidParams,
                format!("invalid parameters for `{}`: {e}", request.method),
            ),
        }
    }

    /// The analysis of the document holding `uri`, brought up to date.
    pub(super) fn analysis_of(&mut self, uri: &Uri) -> Option<(&Doc, &Analysis)> {
        let owner = self.docs.owner_of(uri)?.uri.clone();
        if self.dirty.contains(&owner) || !self.analyses.contains_key(&owner) {
            self.dirty.retain(|d| d != &owner);
            // A request sees the latest text; the edit's impact waits for
            // the end of the batch no more.
            self.refresh(&owner, false);
        }
        Some((self.docs.get(&owner)?, self.analyses.get(&owner)?))
    }

    pub(super) fn names_of(&mut self, uri: &Uri) -> Option<&Names> {
        let owner = self.docs.owner_of(uri)?.uri.clone();
        self.analysis_of(uri)?;
        if !self.names.contains_key(&owner) {
            let (doc, analysis) = (self.docs.get(&owner)?, self.analyses.get(&owner)?);
            let locate = Locator {
                doc,
                notebook: &analysis.notebook,
                places: &analysis.places,
                encoding: self.encoding,
            };
            let names = Names::build(&analysis.model, &locate);
            self.names.insert(owner.clone(), names);
        }
        self.names.get(&owner)
    }

    pub(super) fn hover(&mut self, uri: &Uri, position: lsp_types::Position) -> Option<Hover> {
        let names = self.names_of(uri)?;
        let occurrence = names.at(uri, position)?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: names.hover(occurrence),
            }),
            range: Some(occurrence.range),
        })
    }

    /// Everything shown for each document of the notebook (or script)
    /// `doc`: its findings and the kernel's stale reads, by cell URI.
    pub(super) fn shown(&self, doc: &Doc) -> FxHashMap<Uri, Vec<Diagnostic>> {
        let mut all = self
            .analyses
            .get(&doc.uri)
            .map(|a| a.diagnostics.clone())
            .unwrap_or_default();
        if let Some(watch) = self.live.get(&doc.uri) {
            for (uri, live) in live::diagnostics(&watch.state, doc, self.encoding) {
                all.entry(uri).or_default().extend(live);
            }
        }
        all
    }

    /// Everything shown for `uri`.
    pub(super) fn diagnostics_for(&self, uri: &Uri) -> Vec<Diagnostic> {
        let Some(doc) = self.docs.owner_of(uri) else {
            return Vec::new();
        };
        self.shown(doc).remove(uri).unwrap_or_default()
    }

    pub(super) fn pull(&mut self, uri: &Uri) -> DocumentDiagnosticReportResult {
        let _ = self.analysis_of(uri);
        let items = self.diagnostics_for(uri);
        let version = self
            .docs
            .owner_of(uri)
            .and_then(|d| d.cell_position(uri).map(|p| d.cells[p].version));
        self.published
            .insert(uri.clone(), (version.unwrap_or_default(), items.clone()));
        DocumentDiagnosticReportResult::Report(DocumentDiagnosticReport::Full(
            RelatedFullDocumentDiagnosticReport {
                related_documents: None,
                full_document_diagnostic_report: FullDocumentDiagnosticReport {
                    result_id: None,
                    items,
                },
            },
        ))
    }

    pub(super) fn code_actions(
        &mut self,
        params: &CodeActionParams,
    ) -> Vec<lsp_types::CodeActionOrCommand> {
        let uri = &params.text_document.uri;
        if self.analysis_of(uri).is_none() {
            return Vec::new();
        }
        let Some(doc) = self.docs.owner_of(uri) else {
            return Vec::new();
        };
        let only = params.context.only.as_deref();
        let Some(position) = doc.cell_position(uri) else {
            return Vec::new();
        };
        // Everything shown, once: this cell's fixes and the notebook's action.
        let mut shown = self.shown(doc);
        let diagnostics = shown.get(uri).cloned().unwrap_or_default();
        let text = doc.cells[position].text.as_str();
        let mut actions = quick_fixes(
            uri,
            text,
            !doc.script,
            params.range,
            &diagnostics,
            only,
            self.encoding,
        );
        let per_cell: Vec<(&Uri, &str, Vec<Diagnostic>)> = doc
            .cells
            .iter()
            .map(|c| {
                (
                    &c.uri,
                    c.text.as_str(),
                    shown.remove(&c.uri).unwrap_or_default(),
                )
            })
            .collect();
        actions.extend(add_noqa_everywhere(
            per_cell.iter().map(|(u, t, d)| (*u, *t, d.as_slice())),
            only,
            self.encoding,
        ));
        actions
    }
}
