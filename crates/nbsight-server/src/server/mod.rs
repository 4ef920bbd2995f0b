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

mod notifications;
mod publish;
mod requests;
#[cfg(test)]
mod tests;
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
                // LSP names it `workspace.diagnostics`; lsp-types reads
                // `workspace.diagnostic`: either says the client refreshes.
                let refresh = ["diagnostics", "diagnostic"].iter().any(|key| {
                    request.params["capabilities"]["workspace"][key]["refreshSupport"] == true
                });
                match serde_json::from_value::<InitializeParams>(request.params) {
                    Ok(params) => {
                        let mut server = Server::new(out.clone(), &params);
                        server.refresh = refresh;
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
    errors_shown: FxHashSet<String>,
    live: FxHashMap<Uri, LiveWatch>,
    /// Where settings are looked for when no configuration is above a
    /// notebook (the workspace's root).
    root: std::path::PathBuf,
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
            refresh: false,
            docs: Documents::default(),
            analyses: FxHashMap::default(),
            baseline: FxHashMap::default(),
            names: FxHashMap::default(),
            published: FxHashMap::default(),
            resolver: None,
            errors_shown: FxHashSet::default(),
            live: FxHashMap::default(),
            root: root.clone(),
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
