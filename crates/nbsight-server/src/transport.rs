//! LSP's base protocol on stdin and stdout: `Content-Length` framed JSON-RPC
//! messages. Unlike `lsp-server`'s own transport, a malformed frame or body
//! does not stop the server: it becomes [`Incoming::Malformed`], answered
//! with the JSON-RPC error it deserves.

use std::io::{self, BufRead, Write};
use std::thread;

use crossbeam_channel::{Receiver, Sender, unbounded};
use lsp_server::{ErrorCode, Message, RequestId};
use serde_json::Value;

/// What the client sent.
#[derive(Debug)]
pub enum Incoming {
    Message(Message),
    /// A frame that is not a JSON-RPC message: answered with `code`, to
    /// `id` when one could be read.
    Malformed {
        id: Option<RequestId>,
        code: ErrorCode,
        message: String,
    },
}

/// What the server sends.
#[derive(Debug)]
pub enum Outgoing {
    Message(Message),
    /// An error response without an id (JSON-RPC's `"id": null`).
    ErrorWithoutId {
        code: ErrorCode,
        message: String,
    },
}

/// The reader and writer threads.
pub struct IoThreads {
    reader: thread::JoinHandle<()>,
    writer: thread::JoinHandle<()>,
}

impl IoThreads {
    /// Waits for the writer to flush what the server sent. The reader may
    /// be blocked on a client that keeps stdin open: it is left behind.
    pub fn join(self) {
        let _ = self.writer.join();
        drop(self.reader);
    }
}

/// Frames on standard input become [`Incoming`]s; [`Outgoing`]s are
/// written to standard output.
pub fn stdio() -> (Receiver<Incoming>, Sender<Outgoing>, IoThreads) {
    let (in_tx, in_rx) = unbounded();
    let (out_tx, out_rx) = unbounded::<Outgoing>();
    let reader = thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        while let Some(incoming) = read_frame(&mut input) {
            if in_tx.send(incoming).is_err() {
                break;
            }
        }
    });
    let writer = thread::spawn(move || {
        let stdout = io::stdout();
        for message in out_rx {
            let mut out = stdout.lock();
            if write_frame(&mut out, message).is_err() {
                break;
            }
        }
    });
    (in_rx, out_tx, IoThreads { reader, writer })
}

/// The next frame, `None` at the end of the input.
pub(crate) fn read_frame(input: &mut impl BufRead) -> Option<Incoming> {
    let mut length: Option<usize> = None;
    let mut bad_header = None;
    let mut saw_header = false;
    loop {
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => return None,
            Ok(_) => {}
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if saw_header {
                break;
            }
            continue;
        }
        saw_header = true;
        match line.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                match value.trim().parse::<usize>() {
                    Ok(n) => length = Some(n),
                    Err(_) => bad_header = Some(format!("bad Content-Length `{}`", value.trim())),
                }
            }
            Some(_) => {}
            None => bad_header = Some(format!("malformed header `{line}`")),
        }
    }
    let Some(length) = length else {
        return Some(Incoming::Malformed {
            id: None,
            code: ErrorCode::InvalidRequest,
            message: bad_header.unwrap_or_else(|| "a frame without Content-Length".into()),
        });
    };
    let mut body = vec![0; length];
    input.read_exact(&mut body).ok()?;
    Some(parse_body(&body))
}

fn parse_body(body: &[u8]) -> Incoming {
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(error) => {
            return Incoming::Malformed {
                id: None,
                code: ErrorCode::ParseError,
                message: format!("not JSON: {error}"),
            };
        }
    };
    let id = value.get("id").and_then(|id| match id {
        Value::Number(n) => n
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .map(RequestId::from),
        Value::String(s) => Some(RequestId::from(s.clone())),
        _ => None,
    });
    let has = |key: &str| value.get(key).is_some();
    if !has("method") && !has("result") && !has("error") {
        return Incoming::Malformed {
            id,
            code: ErrorCode::InvalidRequest,
            message: "not a JSON-RPC message: no method, result or error".into(),
        };
    }
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Incoming::Message(message),
        Err(error) => Incoming::Malformed {
            id,
            code: ErrorCode::InvalidRequest,
            message: format!("not a JSON-RPC message: {error}"),
        },
    }
}

pub(crate) fn write_frame(out: &mut impl Write, message: Outgoing) -> io::Result<()> {
    match message {
        Outgoing::Message(message) => message.write(out),
        Outgoing::ErrorWithoutId { code, message } => {
            let text = serde_json::json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": {"code": code as i32, "message": message},
            })
            .to_string();
            write!(out, "Content-Length: {}\r\n\r\n{text}", text.len())?;
            out.flush()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn frames_are_read_and_bad_ones_answered() {
        let text = [
            frame(r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#),
            frame("{not json"),
            frame(r#"{"jsonrpc":"2.0","id":7,"nothing":true}"#),
            "Content-Type: x\r\n\r\n".to_string(),
            frame(r#"{"jsonrpc":"2.0","method":"exit"}"#),
        ]
        .concat();
        let mut input = io::Cursor::new(text.into_bytes());
        let mut got = Vec::new();
        while let Some(incoming) = read_frame(&mut input) {
            got.push(incoming);
        }
        assert_eq!(got.len(), 5, "{got:?}");
        assert!(
            matches!(&got[0], Incoming::Message(Message::Request(r)) if r.method == "shutdown")
        );
        assert!(matches!(
            &got[1],
            Incoming::Malformed {
                code: ErrorCode::ParseError,
                id: None,
                ..
            }
        ));
        assert!(matches!(
            &got[2],
            Incoming::Malformed {
                id: Some(_),
                code: ErrorCode::InvalidRequest,
                ..
            }
        ));
        assert!(matches!(&got[3], Incoming::Malformed { id: None, .. }));
        assert!(
            matches!(&got[4], Incoming::Message(Message::Notification(n)) if n.method == "exit")
        );
    }

    #[test]
    fn written_frames_carry_the_version_and_length() {
        let mut out = Vec::new();
        let response = lsp_server::Response::new_ok(RequestId::from(3), ());
        write_frame(&mut out, Outgoing::Message(response.into())).unwrap();
        let text = String::from_utf8(out).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert_eq!(head, format!("Content-Length: {}", body.len()));
        let value: Value = serde_json::from_str(body).unwrap();
        assert_eq!(value["jsonrpc"], "2.0");
        assert_eq!(value["id"], 3);
    }
}
