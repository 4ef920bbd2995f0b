//! The loop on channels filled before it starts: what waits together is
//! one batch, deterministically.

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
