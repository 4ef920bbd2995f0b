//! `nbsight server`: a language server (LSP 3.17) on stdio for notebooks
//! and percent scripts. It keeps each open notebook as the editor holds it
//! (cells, text, execution summaries), answers every change with the
//! findings of `nbsight check` per cell (pushed or pulled), quick fixes that
//! silence them, hover, definitions and references across cells, what the
//! edit impacts (`nbsight/impact`, NBLyzer's IDE mode) and, when a kernel
//! runs nbsight beside the notebook, the cells that read stale values.
//!
//! The protocol's scaffold is rust-analyzer's `lsp-server` (synchronous,
//! channels; the message loop decides what is outdated) over our own stdio
//! transport, which answers malformed input instead of stopping.
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-server`), the one place
//! they are written; each names the test that holds it, where one does.

// `lsp_types::Uri` keys maps: it hashes and compares its text, which never
// changes (the cells fluent-uri fills lazily do not take part).
#![allow(clippy::mutable_key_type)]

mod analysis;
mod code_actions;
mod diagnostics;
mod documents;
mod encoding;
mod impact;
mod live;
mod navigation;
mod server;
mod transport;
mod uri;

pub use server::{Outcome, serve};
pub use transport::{Incoming, Outgoing, stdio};

/// Serves the client on standard input and output until it exits; the
/// process's exit status follows LSP (0 after `shutdown` then `exit`).
pub fn run_stdio() -> Outcome {
    let (incoming, outgoing, threads) = stdio();
    let outcome = serve(incoming, outgoing);
    threads.join();
    outcome
}
