//! The message loop. Messages are taken in batches: everything the client
//! sent while the server was busy is applied first (changes coalesce, a
//! request cancelled while waiting is answered as cancelled), then each
//! changed document is analysed once, at its latest version, and its
//! diagnostics published; the what-if impact of an edit is computed only
//! when nothing newer is waiting. Outdated work is thus never started.
//! Every request is answered: unknown methods with `MethodNotFound`, bad
//! parameters with `InvalidParams`; nothing the client sends stops the
//! server but `exit`.

use std::path::Path;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability, Diagnostic,
    DiagnosticOptions, DiagnosticServerCapabilities, DidChangeNotebookDocumentParams,
    DidChangeTextDocumentParams, DidCloseNotebookDocumentParams, DidCloseTextDocumentParams,
    DidOpenNotebookDocumentParams, DidOpenTextDocumentParams, DocumentDiagnosticParams,
    DocumentDiagnosticReport, DocumentDiagnosticReportResult, FullDocumentDiagnosticReport,
    GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents, HoverParams,
    HoverProviderCapability, InitializeParams, InitializeResult, MarkupContent, MarkupKind,
    MessageType, NotebookCellSelector, NotebookDocumentSyncOptions, NotebookSelector, OneOf,
    PublishDiagnosticsParams, ReferenceParams, RelatedFullDocumentDiagnosticReport,
    ServerCapabilities, ServerInfo, ShowMessageParams, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, Uri,
};
use nbsight_check::RuleSet;
use nbsight_check::config::{CommandLine, Resolver};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::analysis::{Analysis, Locator, analyse};
use crate::code_actions::{ADD_NOQA_KIND, add_noqa_everywhere, quick_fixes};
use crate::documents::{Doc, Documents, Edit};
use crate::encoding::Encoding;
use crate::impact::{ImpactNotification, Job, Worker};
use crate::live::{self, LiveWatch};
use crate::navigation::Names;
use crate::transport::{Incoming, Outgoing};
use crate::uri::file_path;

/// How the session ended: `exit` after `shutdown` is clean (status 0),
/// anything else is not (status 1), as LSP says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Clean,
    Unclean,
}

impl Outcome {
    pub fn exit_code(self) -> i32 {
        match self {
            Outcome::Clean => 0,
            Outcome::Unclean => 1,
        }
    }
}

/// How often histories are looked at when the client is quiet.
const POLL: Duration = Duration::from_millis(500);

/// Serves one client: the initialize handshake, then the loop, until
/// `exit` or the end of the input.
pub fn serve(incoming: Receiver<Incoming>, outgoing: Sender<Outgoing>) -> Outcome {
    let Some(mut server) = initialize(&incoming, &outgoing) else {
        return Outcome::Unclean;
    };
    server.run(&incoming)
}

fn send(out: &Sender<Outgoing>, message: impl Into<Message>) {
    let _ = out.send(Outgoing::Message(message.into()));
}

fn error(out: &Sender<Outgoing>, id: RequestId, code: ErrorCode, message: impl Into<String>) {
    send(out, Response::new_err(id, code as i32, message.into()));
}

fn answer_malformed(
    out: &Sender<Outgoing>,
    id: Option<RequestId>,
    code: ErrorCode,
    message: String,
) {
    match id {
        Some(id) => error(out, id, code, message),
        None => {
            let _ = out.send(Outgoing::ErrorWithoutId { code, message });
        }
    }
}

/// Waits for `initialize`; `None` when the client leaves first.
fn initialize(incoming: &Receiver<Incoming>, out: &Sender<Outgoing>) -> Option<Server> {
    loop {
        match incoming.recv().ok()? {
            Incoming::Malformed { id, code, message } => answer_malformed(out, id, code, message),
            Incoming::Message(Message::Request(request))
                if request.method == req::Initialize::METHOD =>
            {
                match serde_json::from_value::<InitializeParams>(request.params) {
                    Ok(params) => {
                        let server = Server::new(out.clone(), &params);
                        send(
                            out,
                            Response::new_ok(request.id, server.initialize_result()),
                        );
                        return Some(server);
                    }
                    Err(e) => error(out, request.id, ErrorCode::InvalidParams, e.to_string()),
                }
            }
            Incoming::Message(Message::Request(request)) => error(
                out,
                request.id,
                ErrorCode::ServerNotInitialized,
                "the server is not initialized: send `initialize` first",
            ),
            Incoming::Message(Message::Notification(n)) if n.method == notif::Exit::METHOD => {
                return None;
            }
            Incoming::Message(_) => {}
        }
    }
}

struct Server {
    out: Sender<Outgoing>,
    encoding: Encoding,
    /// Diagnostics are pushed unless the client pulls them (as ruff does:
    /// a client that can pull would otherwise show them twice).
    push: bool,
    /// The client re-pulls when asked (`workspace/diagnostic/refresh`).
    refresh: bool,
    docs: Documents,
    analyses: FxHashMap<Uri, Analysis>,
    /// Each document as last analysed (as opened, before its first
    /// analysis): what the next edit's what-if query starts from.
    baseline: FxHashMap<Uri, nbsight_notebook::Notebook>,
    names: FxHashMap<Uri, Names>,
    /// What each URI's client last received (push) or would receive, and
    /// for which version of the document.
    published: FxHashMap<Uri, (i32, Vec<Diagnostic>)>,
    resolver: Option<Resolver>,
    /// Configuration errors already shown.
    shown: FxHashSet<String>,
    live: FxHashMap<Uri, LiveWatch>,
    dirty: Vec<Uri>,
    impacts: Worker,
    shut_down: bool,
    last_poll: Instant,
    next_request: i32,
}

impl Server {
    fn new(out: Sender<Outgoing>, params: &InitializeParams) -> Server {
        let capabilities = &params.capabilities;
        let pull = capabilities
            .text_document
            .as_ref()
            .is_some_and(|t| t.diagnostic.is_some());
        let refresh = capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.diagnostic.as_ref())
            .and_then(|d| d.refresh_support)
            .unwrap_or(false);
        #[allow(deprecated)]
        let root = params
            .workspace_folders
            .as_ref()
            .and_then(|f| f.first())
            .and_then(|f| file_path(&f.uri))
            .or_else(|| params.root_uri.as_ref().and_then(file_path))
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        let mut server = Server {
            out,
            encoding: Encoding::negotiate(capabilities),
            push: !pull,
            refresh,
            docs: Documents::default(),
            analyses: FxHashMap::default(),
            baseline: FxHashMap::default(),
            names: FxHashMap::default(),
            published: FxHashMap::default(),
            resolver: None,
            shown: FxHashSet::default(),
            live: FxHashMap::default(),
            dirty: Vec::new(),
            impacts: Worker::start(),
            shut_down: false,
            last_poll: Instant::now(),
            next_request: 0,
        };
        server.resolver = match Resolver::new(CommandLine::default(), None, &root) {
            Ok(resolver) => Some(resolver),
            Err(e) => {
                server.show_error(e.to_string());
                None
            }
        };
        server
    }

    fn initialize_result(&self) -> InitializeResult {
        let python = |language: &str| NotebookCellSelector {
            language: language.to_string(),
        };
        InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(self.encoding.kind()),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        ..TextDocumentSyncOptions::default()
                    },
                )),
                notebook_document_sync: Some(OneOf::Left(NotebookDocumentSyncOptions {
                    notebook_selector: vec![NotebookSelector::ByCells {
                        notebook: None,
                        cells: vec![python("python"), python("markdown")],
                    }],
                    save: Some(true),
                })),
                diagnostic_provider: Some(DiagnosticServerCapabilities::Options(
                    DiagnosticOptions {
                        identifier: Some("nbsight".into()),
                        // A cell's findings depend on the other cells.
                        inter_file_dependencies: true,
                        workspace_diagnostics: false,
                        ..DiagnosticOptions::default()
                    },
                )),
                code_action_provider: Some(CodeActionProviderCapability::Options(
                    CodeActionOptions {
                        code_action_kinds: Some(vec![
                            CodeActionKind::QUICKFIX,
                            CodeActionKind::from(ADD_NOQA_KIND),
                        ]),
                        resolve_provider: Some(false),
                        ..CodeActionOptions::default()
                    },
                )),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                ..ServerCapabilities::default()
            },
            server_info: Some(ServerInfo {
                name: "nbsight".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        }
    }

    fn run(&mut self, incoming: &Receiver<Incoming>) -> Outcome {
        loop {
            let first = crossbeam_channel::select! {
                recv(incoming) -> first => match first {
                    Ok(first) => Some(first),
                    Err(_) => return Outcome::Unclean,
                },
                recv(self.impacts.answers) -> answer => {
                    if let Ok(answer) = answer {
                        self.send_impact(answer);
                    }
                    continue;
                },
                default(POLL) => None,
            };
            let batch: Vec<Incoming> = first.into_iter().chain(incoming.try_iter()).collect();
            let cancelled = cancelled_ids(&batch);
            for item in batch {
                match item {
                    Incoming::Malformed { id, code, message } => {
                        answer_malformed(&self.out, id, code, message)
                    }
                    Incoming::Message(Message::Request(request)) => {
                        if cancelled.contains(&request.id) {
                            error(
                                &self.out,
                                request.id,
                                ErrorCode::RequestCanceled,
                                "cancelled",
                            );
                        } else {
                            self.request(request);
                        }
                    }
                    Incoming::Message(Message::Notification(n)) => {
                        if n.method == notif::Exit::METHOD {
                            return match self.shut_down {
                                true => Outcome::Clean,
                                false => Outcome::Unclean,
                            };
                        }
                        self.notification(n);
                    }
                    Incoming::Message(Message::Response(_)) => {}
                }
            }
            self.flush(incoming);
            if self.last_poll.elapsed() >= POLL {
                self.last_poll = Instant::now();
                self.poll_live();
            }
        }
    }

    // ---- requests ----

    fn request(&mut self, request: Request) {
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
    fn answer<P: DeserializeOwned, R: Serialize>(
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
    fn analysis_of(&mut self, uri: &Uri) -> Option<(&Doc, &Analysis)> {
        let owner = self.docs.owner_of(uri)?.uri.clone();
        if self.dirty.contains(&owner) || !self.analyses.contains_key(&owner) {
            self.dirty.retain(|d| d != &owner);
            // A request sees the latest text; the edit's impact waits for
            // the end of the batch no more.
            self.refresh(&owner, false);
        }
        Some((self.docs.get(&owner)?, self.analyses.get(&owner)?))
    }

    fn names_of(&mut self, uri: &Uri) -> Option<&Names> {
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

    fn hover(&mut self, uri: &Uri, position: lsp_types::Position) -> Option<Hover> {
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

    /// Everything shown for `uri`: the findings and the live stale reads.
    fn diagnostics_for(&self, uri: &Uri) -> Vec<Diagnostic> {
        let Some(doc) = self.docs.owner_of(uri) else {
            return Vec::new();
        };
        let mut all = self
            .analyses
            .get(&doc.uri)
            .and_then(|a| a.diagnostics.get(uri))
            .cloned()
            .unwrap_or_default();
        if let Some(watch) = self.live.get(&doc.uri) {
            let live = live::diagnostics(&watch.state, doc, self.encoding);
            all.extend(live.get(uri).cloned().unwrap_or_default());
        }
        all
    }

    fn pull(&mut self, uri: &Uri) -> DocumentDiagnosticReportResult {
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

    fn code_actions(&mut self, params: &CodeActionParams) -> Vec<lsp_types::CodeActionOrCommand> {
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
        let diagnostics = self.diagnostics_for(uri);
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
        let per_cell: Vec<(Uri, String, Vec<Diagnostic>)> = doc
            .cells
            .iter()
            .map(|c| (c.uri.clone(), c.text.clone(), self.diagnostics_for(&c.uri)))
            .collect();
        actions.extend(add_noqa_everywhere(
            per_cell
                .iter()
                .map(|(u, t, d)| (u, t.as_str(), d.as_slice())),
            only,
            self.encoding,
        ));
        actions
    }

    // ---- notifications ----

    fn notification(&mut self, n: Notification) {
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

    fn params<P: DeserializeOwned>(&self, n: Notification) -> Option<P> {
        match serde_json::from_value::<P>(n.params) {
            Ok(p) => Some(p),
            Err(e) => {
                self.log(format!("ignored `{}`: invalid parameters: {e}", n.method));
                None
            }
        }
    }

    fn opened(&mut self, uri: Uri) {
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

    fn closed(&mut self, uri: &Uri) {
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

    fn mark(&mut self, uri: Uri) {
        self.names.remove(&uri);
        if !self.dirty.contains(&uri) {
            self.dirty.push(uri);
        }
    }

    /// Empties what the client shows for `uri` (a cell that is gone).
    fn clear(&mut self, uri: &Uri) {
        if self
            .published
            .remove(uri)
            .is_some_and(|(_, d)| !d.is_empty())
            && self.push
        {
            self.send_diagnostics(uri.clone(), Vec::new(), None);
        }
    }

    fn reload_settings(&mut self) {
        let root = std::env::current_dir().unwrap_or_default();
        self.shown.clear();
        self.resolver = match Resolver::new(CommandLine::default(), None, &root) {
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

    fn rules_for(&mut self, path: &Path) -> RuleSet {
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

    // ---- analysis and publication ----

    fn analyse(&mut self, uri: &Uri) {
        let Some(doc) = self.docs.get(uri) else {
            return;
        };
        let path = doc.path();
        let rules = self.rules_for(&path);
        let Some(doc) = self.docs.get(uri) else {
            return;
        };
        let previous = self.analyses.get(uri).map(|a| &a.model);
        let analysis = analyse(doc, previous, rules, self.encoding);
        self.names.remove(uri);
        self.analyses.insert(uri.clone(), analysis);
    }

    /// Analyses what changed and publishes; then, when nothing newer waits,
    /// what the edit impacts.
    fn flush(&mut self, incoming: &Receiver<Incoming>) {
        let dirty = std::mem::take(&mut self.dirty);
        for uri in dirty {
            self.refresh(&uri, incoming.is_empty());
        }
    }

    /// Analyses `uri` at its latest version and publishes what changed;
    /// with `impact`, sends what the edit since the last analysis impacts.
    fn refresh(&mut self, uri: &Uri, impact: bool) {
        let before = self.baseline.remove(uri);
        let edit = self.docs.take_pending(uri);
        self.analyse(uri);
        if let Some(analysis) = self.analyses.get(uri) {
            self.baseline.insert(uri.clone(), analysis.notebook.clone());
        }
        self.publish(uri);
        if let (true, Some(before), Some(edit), Some(doc)) =
            (impact, before, edit, self.docs.get(uri))
            && !doc.script
            && edit != Edit::Other
        {
            self.impacts.submit(Job {
                before,
                edit,
                doc: doc.clone(),
            });
        }
    }

    /// Sends an impact the worker found, unless the notebook changed since.
    fn send_impact(&mut self, params: crate::impact::ImpactParams) {
        let current = self
            .docs
            .get(&params.notebook)
            .is_some_and(|d| d.version == params.version && !self.dirty.contains(&d.uri));
        if current {
            send(
                &self.out,
                Notification::new(ImpactNotification::METHOD.to_string(), params),
            );
        }
    }

    /// Sends every cell of `uri` whose diagnostics or version changed (all
    /// at the first analysis), or asks a pulling client to pull again.
    fn publish(&mut self, uri: &Uri) {
        let Some(doc) = self.docs.get(uri) else {
            return;
        };
        let targets: Vec<(Uri, i32)> = doc
            .cells
            .iter()
            .map(|c| (c.uri.clone(), c.version))
            .collect();
        let mut changed = false;
        for (target, version) in targets {
            let diagnostics = self.diagnostics_for(&target);
            // A document edited since gets its diagnostics again, for its
            // new version, even when they did not change.
            let same = self
                .published
                .get(&target)
                .is_some_and(|(v, d)| *v == version && *d == diagnostics);
            if same {
                continue;
            }
            changed = true;
            self.published
                .insert(target.clone(), (version, diagnostics.clone()));
            if self.push {
                self.send_diagnostics(target, diagnostics, Some(version));
            }
        }
        if changed && !self.push && self.refresh {
            self.next_request += 1;
            let request = Request::new(
                RequestId::from(format!("nbsight-refresh-{}", self.next_request)),
                req::WorkspaceDiagnosticRefresh::METHOD.to_string(),
                (),
            );
            send(&self.out, request);
        }
    }

    fn send_diagnostics(&self, uri: Uri, diagnostics: Vec<Diagnostic>, version: Option<i32>) {
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        send(
            &self.out,
            Notification::new(notif::PublishDiagnostics::METHOD.to_string(), params),
        );
    }

    fn poll_live(&mut self) {
        let mut changed = Vec::new();
        for (uri, watch) in &mut self.live {
            if watch.refresh() {
                changed.push(uri.clone());
            }
        }
        for uri in changed {
            if self.analyses.contains_key(&uri) {
                self.publish(&uri);
            }
        }
    }

    // ---- messages to the user ----

    fn show_error(&mut self, message: String) {
        if !self.shown.insert(message.clone()) {
            return;
        }
        let params = ShowMessageParams {
            typ: MessageType::ERROR,
            message: format!("nbsight: {message}"),
        };
        send(
            &self.out,
            Notification::new(notif::ShowMessage::METHOD.to_string(), params),
        );
    }

    fn log(&self, message: String) {
        let params = lsp_types::LogMessageParams {
            typ: MessageType::WARNING,
            message: format!("nbsight: {message}"),
        };
        send(
            &self.out,
            Notification::new(notif::LogMessage::METHOD.to_string(), params),
        );
    }
}

/// The ids of the requests `$/cancelRequest` cancels in `batch`.
fn cancelled_ids(batch: &[Incoming]) -> FxHashSet<RequestId> {
    batch
        .iter()
        .filter_map(|item| match item {
            Incoming::Message(Message::Notification(n)) if n.method == notif::Cancel::METHOD => {
                serde_json::from_value::<lsp_types::CancelParams>(n.params.clone()).ok()
            }
            _ => None,
        })
        .map(|p| match p.id {
            lsp_types::NumberOrString::Number(n) => RequestId::from(n),
            lsp_types::NumberOrString::String(s) => RequestId::from(s),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crossbeam_channel::unbounded;
    use serde_json::{Value, json};

    use super::*;

    fn request(id: i32, method: &str, params: Value) -> Incoming {
        Incoming::Message(Message::Request(Request::new(
            RequestId::from(id),
            method.into(),
            params,
        )))
    }

    fn notification(method: &str, params: Value) -> Incoming {
        Incoming::Message(Message::Notification(Notification::new(
            method.into(),
            params,
        )))
    }

    const NB: &str = "untitled:nb.ipynb";

    fn cell(i: usize) -> String {
        format!("vscode-notebook-cell:nb.ipynb#C{i}")
    }

    fn open(texts: &[&str]) -> Incoming {
        let cells: Vec<Value> = (0..texts.len())
            .map(|i| json!({"kind": 2, "document": cell(i)}))
            .collect();
        let docs: Vec<Value> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| json!({"uri": cell(i), "languageId": "python", "version": 0, "text": t}))
            .collect();
        notification(
            "notebookDocument/didOpen",
            json!({"notebookDocument": {"uri": NB, "notebookType": "jupyter-notebook", "version": 0, "cells": cells}, "cellTextDocuments": docs}),
        )
    }

    fn type_at_end(version: i32, character: u32, text: &str) -> Incoming {
        notification(
            "notebookDocument/didChange",
            json!({"notebookDocument": {"uri": NB, "version": version}, "change": {"cells": {"textContent": [{
                "document": {"uri": cell(0), "version": version},
                "changes": [{"range": {"start": {"line": 0, "character": character}, "end": {"line": 0, "character": character}}, "text": text}],
            }]}}}),
        )
    }

    fn message(out: &Outgoing) -> Value {
        match out {
            Outgoing::Message(m) => serde_json::to_value(m).unwrap_or_default(),
            Outgoing::ErrorWithoutId { .. } => Value::Null,
        }
    }

    /// Runs the server on `first` (all waiting before it starts), then
    /// reads its messages until `done` says so, then shuts it down.
    fn session(first: Vec<Incoming>, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let (to_server, incoming) = unbounded();
        let (outgoing, from_server) = unbounded();
        to_server
            .send(request(1, "initialize", json!({"capabilities": {}})))
            .unwrap();
        for item in first {
            to_server.send(item).unwrap();
        }
        let server = std::thread::spawn(move || serve(incoming, outgoing));
        let mut seen = Vec::new();
        while !done(&seen) {
            match from_server.recv_timeout(Duration::from_secs(30)) {
                Ok(out) => seen.push(message(&out)),
                Err(_) => panic!("no more messages: {seen:#?}"),
            }
        }
        to_server
            .send(request(90, "shutdown", Value::Null))
            .unwrap();
        to_server.send(notification("exit", Value::Null)).unwrap();
        assert_eq!(server.join().unwrap(), Outcome::Clean);
        seen
    }

    fn published(seen: &[Value]) -> Vec<&Value> {
        seen.iter()
            .filter(|m| m["method"] == "textDocument/publishDiagnostics")
            .collect()
    }

    #[test]
    fn changes_waiting_together_are_analysed_once() {
        // Five keystrokes arrive while the server is busy: one analysis of
        // the last text, one publication per cell, one impact.
        let mut first = vec![open(&["x = 1", "print(x)", "y = 2"])];
        for (i, c) in "value".chars().enumerate() {
            first.push(type_at_end(i as i32 + 1, 5 + i as u32, &c.to_string()));
        }
        let seen = session(first, |seen| {
            published(seen).len() >= 3 && seen.iter().any(|m| m["method"] == "nbsight/impact")
        });
        let published = published(&seen);
        assert_eq!(published.len(), 3, "{seen:#?}");
        assert_eq!(published[0]["params"]["version"], 5);
        let impacts: Vec<&Value> = seen
            .iter()
            .filter(|m| m["method"] == "nbsight/impact")
            .collect();
        assert_eq!(impacts.len(), 1);
        assert_eq!(impacts[0]["params"]["version"], 5);
    }

    #[test]
    fn a_request_cancelled_while_waiting_is_answered_as_cancelled() {
        let first = vec![
            open(&["x = 1"]),
            request(
                2,
                "textDocument/hover",
                json!({"textDocument": {"uri": cell(0)}, "position": {"line": 0, "character": 0}}),
            ),
            notification("$/cancelRequest", json!({"id": 2})),
            request(
                3,
                "textDocument/hover",
                json!({"textDocument": {"uri": cell(0)}, "position": {"line": 0, "character": 0}}),
            ),
        ];
        let seen = session(first, |seen| seen.iter().any(|m| m["id"] == 3));
        let cancelled = seen
            .iter()
            .find(|m| m["id"] == 2)
            .cloned()
            .unwrap_or_default();
        assert_eq!(
            cancelled["error"]["code"],
            ErrorCode::RequestCanceled as i32
        );
        let answered = seen
            .iter()
            .find(|m| m["id"] == 3)
            .cloned()
            .unwrap_or_default();
        assert!(
            answered["result"]["contents"]["value"]
                .as_str()
                .is_some_and(|v| v.contains("`x`"))
        );
    }
}
