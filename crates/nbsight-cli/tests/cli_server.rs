//! End-to-end tests of `nbsight server`: an LSP client speaking to the real
//! binary over its stdio. Each behaviour the language server promises has
//! a test: capabilities, diagnostics per cell URI (pushed and pulled),
//! cells that become clean, inserted cells, quick fixes, hover and
//! navigation across cells, `nbsight/impact`, settings from
//! `pyproject.toml`, percent scripts, the live history's stale cells,
//! errors for bad input with the server still answering, and a clean
//! `shutdown`/`exit`. Waits are bounded only to fail instead of hanging.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use nbsight_history::History;
use nbsight_history::testing::ScriptedKernel;
use serde_json::{Value, json};

/// How long a test waits for a message before it fails.
const PATIENCE: Duration = Duration::from_secs(20);

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    /// Messages read while waiting for others.
    seen: Vec<Value>,
}

fn read_message(out: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    out.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    /// Starts `nbsight server` in `dir` and initializes it with
    /// `capabilities`.
    fn start(dir: &Path, capabilities: Value) -> (Client, Value) {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("nbsight"))
            .arg("server")
            .current_dir(dir)
            .env_remove("NBSIGHT_EFFECTS")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let stdin = child.stdin.take().expect("stdin");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            while let Some(message) = read_message(&mut stdout) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            messages,
            next_id: 0,
            seen: Vec::new(),
        };
        let root = format!("file://{}", dir.display());
        let result = client.request(
            "initialize",
            json!({"processId": null, "rootUri": root, "capabilities": capabilities}),
        );
        client.notify("initialized", json!({}));
        (client, result)
    }

    fn write_raw(&mut self, body: &[u8]) {
        let head = format!("Content-Length: {}\r\n\r\n", body.len());
        self.stdin.write_all(head.as_bytes()).expect("writes");
        self.stdin.write_all(body).expect("writes");
        self.stdin.flush().expect("flushes");
    }

    fn send(&mut self, message: Value) {
        let body = serde_json::to_vec(&message).expect("JSON");
        self.write_raw(&body);
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request; its id.
    fn ask(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The whole response to a request.
    fn response(&mut self, id: i64) -> Value {
        self.expect(|m| m["id"] == id && m.get("method").is_none())
    }

    /// The result of a request (panics on an error response).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.ask(method, params);
        let response = self.response(id);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    /// The next message matching `wanted`, read or already seen.
    fn expect(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(at) = self.seen.iter().position(&wanted) {
            return self.seen.remove(at);
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) if wanted(&message) => return message,
                Ok(message) => self.seen.push(message),
                Err(RecvTimeoutError::Timeout) => panic!("no such message; seen: {:#?}", self.seen),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the server stopped; seen: {:#?}", self.seen)
                }
            }
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let message = self.expect(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        message["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// `textDocument/didOpen` of a Python document.
    fn open_text(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}),
        );
    }

    /// `shutdown` then `exit`: the process's exit status.
    fn stop(self) -> i32 {
        self.stop_seeing().1
    }

    /// `shutdown` then `exit`: every message read and not yet expected
    /// before the answer to `shutdown`, and the process's exit status.
    fn stop_seeing(mut self) -> (Vec<Value>, i32) {
        self.request("shutdown", Value::Null);
        let seen = std::mem::take(&mut self.seen);
        self.notify("exit", Value::Null);
        (seen, wait(&mut self.child))
    }
}

/// A server started in a new temporary folder (the folder is removed
/// when it is dropped).
fn started(capabilities: Value) -> (tempfile::TempDir, Client) {
    let dir = tempfile::tempdir().expect("a folder");
    let (client, _) = Client::start(dir.path(), capabilities);
    (dir, client)
}

fn wait(child: &mut Child) -> i32 {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            return status.code().unwrap_or(-1);
        }
        assert!(Instant::now() < deadline, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn notebook_uri(dir: &Path, name: &str) -> String {
    format!("file://{}/{name}", dir.display())
}

fn cell_uri(dir: &Path, name: &str, cell: usize) -> String {
    format!("vscode-notebook-cell:{}/{name}#C{cell}", dir.display())
}

/// `notebookDocument/didOpen` of `cells` (code cells; `(text, order)`
/// with the execution order shown).
fn open(client: &mut Client, dir: &Path, name: &str, cells: &[(&str, Option<u32>)]) {
    let notebook_cells: Vec<Value> = cells
        .iter()
        .enumerate()
        .map(|(i, (_, order))| {
            let mut cell = json!({"kind": 2, "document": cell_uri(dir, name, i)});
            if let Some(order) = order {
                cell["executionSummary"] = json!({"executionOrder": order, "success": true});
            }
            cell
        })
        .collect();
    let texts: Vec<Value> = cells
        .iter()
        .enumerate()
        .map(|(i, (text, _))| {
            json!({"uri": cell_uri(dir, name, i), "languageId": "python", "version": 0, "text": text})
        })
        .collect();
    client.notify(
        "notebookDocument/didOpen",
        json!({
            "notebookDocument": {"uri": notebook_uri(dir, name), "notebookType": "jupyter-notebook", "version": 0, "cells": notebook_cells},
            "cellTextDocuments": texts,
        }),
    );
}

/// A text change of one cell: `range` (`[line, char, line, char]`) replaced
/// by `text`.
fn edit(
    client: &mut Client,
    dir: &Path,
    name: &str,
    version: i32,
    cell: usize,
    range: [u32; 4],
    text: &str,
) {
    client.notify(
        "notebookDocument/didChange",
        json!({
            "notebookDocument": {"uri": notebook_uri(dir, name), "version": version},
            "change": {"cells": {"textContent": [{
                "document": {"uri": cell_uri(dir, name, cell), "version": version},
                "changes": [{"range": {"start": {"line": range[0], "character": range[1]}, "end": {"line": range[2], "character": range[3]}}, "text": text}],
            }]}},
        }),
    );
}

fn codes(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

const THREE: &[(&str, Option<u32>)] = &[
    ("a = 1", None),
    ("print(a + missing)", None),
    ("b = a * 2", None),
];

#[test]
fn capabilities_name_notebook_sync_and_every_feature() {
    let dir = tempfile::tempdir().expect("a folder");
    let (client, result) = Client::start(dir.path(), json!({}));
    let caps = &result["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(
        caps["notebookDocumentSync"]["notebookSelector"][0]["cells"][0]["language"],
        "python"
    );
    assert_eq!(caps["textDocumentSync"]["change"], 2);
    assert_eq!(caps["diagnosticProvider"]["interFileDependencies"], true);
    assert_eq!(caps["hoverProvider"], true);
    assert_eq!(caps["definitionProvider"], true);
    assert_eq!(caps["referencesProvider"], true);
    let kinds = caps["codeActionProvider"]["codeActionKinds"].to_string();
    assert!(
        kinds.contains("quickfix") && kinds.contains("notebook.source"),
        "{kinds}"
    );
    assert_eq!(result["serverInfo"]["name"], "nbsight");
    assert_eq!(client.stop(), 0);
}

#[test]
fn utf8_is_chosen_when_offered() {
    let dir = tempfile::tempdir().expect("a folder");
    let caps = json!({"general": {"positionEncodings": ["utf-16", "utf-8"]}});
    let (client, result) = Client::start(dir.path(), caps);
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-8");
    assert_eq!(client.stop(), 0);
}

#[test]
fn diagnostics_follow_edits_insertions_and_quick_fixes() {
    let (dir, mut client) = started(json!({}));
    let d = dir.path();
    open(&mut client, d, "nb.ipynb", THREE);

    // One NBS001 on cell 2 (index 1), on the name's columns; none elsewhere.
    assert!(client.diagnostics(&cell_uri(d, "nb.ipynb", 0)).is_empty());
    let second = client.diagnostics(&cell_uri(d, "nb.ipynb", 1));
    assert!(client.diagnostics(&cell_uri(d, "nb.ipynb", 2)).is_empty());
    assert_eq!(codes(&second), ["NBS001"], "{second:#?}");
    let range = &second[0]["range"];
    assert_eq!(
        range,
        &json!({"start": {"line": 0, "character": 10}, "end": {"line": 0, "character": 17}})
    );
    assert_eq!(second[0]["source"], "nbsight");
    assert_eq!(second[0]["severity"], 1);
    let href = second[0]["codeDescription"]["href"]
        .as_str()
        .unwrap_or_default();
    assert!(
        href.starts_with("https://") && href.ends_with("docs/rules.md#nbs001-undefined-on-run-all"),
        "{href}"
    );
    assert!(
        second[0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("missing")
    );

    // Cell 1 defines the name: cell 2 becomes clean (an empty list).
    edit(
        &mut client,
        d,
        "nb.ipynb",
        1,
        0,
        [0, 5, 0, 5],
        "\nmissing = 2",
    );
    assert!(client.diagnostics(&cell_uri(d, "nb.ipynb", 1)).is_empty());

    // A cell inserted at the end with its own undefined read.
    let new_uri = format!("vscode-notebook-cell:{}/nb.ipynb#new", d.display());
    client.notify(
        "notebookDocument/didChange",
        json!({
            "notebookDocument": {"uri": notebook_uri(d, "nb.ipynb"), "version": 2},
            "change": {"cells": {"structure": {
                "array": {"start": 3, "deleteCount": 0, "cells": [{"kind": 2, "document": new_uri}]},
                "didOpen": [{"uri": new_uri, "languageId": "python", "version": 0, "text": "total = b + nowhere"}],
            }}},
        }),
    );
    let inserted = client.diagnostics(&new_uri);
    assert_eq!(codes(&inserted), ["NBS001"], "{inserted:#?}");
    assert!(
        inserted[0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("nowhere")
    );

    // Quick fixes for that cell: the line and the cell forms.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": new_uri},
            "range": inserted[0]["range"],
            "context": {"diagnostics": inserted},
        }),
    );
    let actions = actions.as_array().cloned().unwrap_or_default();
    let titles: Vec<&str> = actions.iter().filter_map(|a| a["title"].as_str()).collect();
    assert_eq!(
        titles,
        [
            "Disable NBS001 for this line",
            "Disable NBS001 for this cell"
        ]
    );
    assert_eq!(actions[0]["kind"], "quickfix");
    let change = &actions[0]["edit"]["changes"][&new_uri][0];
    assert_eq!(change["newText"], "  # noqa: NBS001");
    assert_eq!(
        change["range"]["start"],
        json!({"line": 0, "character": 19})
    );

    // Applying it silences the finding.
    let at = [0, 19, 0, 19];
    client.notify(
        "notebookDocument/didChange",
        json!({
            "notebookDocument": {"uri": notebook_uri(d, "nb.ipynb"), "version": 3},
            "change": {"cells": {"textContent": [{
                "document": {"uri": new_uri, "version": 1},
                "changes": [{"range": {"start": {"line": at[0], "character": at[1]}, "end": {"line": at[2], "character": at[3]}}, "text": "  # noqa: NBS001"}],
            }]}},
        }),
    );
    assert!(client.diagnostics(&new_uri).is_empty());

    // Deleting the cell: nothing left to clear (it was clean); closing the
    // notebook clears nothing either, and the server still answers.
    assert_eq!(client.stop(), 0);
}

#[test]
fn the_notebook_level_action_adds_noqa_everywhere_on_request() {
    let (dir, mut client) = started(json!({}));
    let d = dir.path();
    open(
        &mut client,
        d,
        "nb.ipynb",
        &[("print(x)", None), ("print(y)", None)],
    );
    let first = client.diagnostics(&cell_uri(d, "nb.ipynb", 0));
    assert_eq!(codes(&first), ["NBS001"]);
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": cell_uri(d, "nb.ipynb", 0)},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["notebook.source"]},
        }),
    );
    let action = &actions[0];
    assert_eq!(action["kind"], "notebook.source.addNoqa.nbsight");
    let changes = action["edit"]["changes"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    assert_eq!(changes.len(), 2, "{changes:#?}");
    assert_eq!(client.stop(), 0);
}

#[test]
fn hover_definition_and_references_cross_cells() {
    let (dir, mut client) = started(json!({}));
    let d = dir.path();
    open(
        &mut client,
        d,
        "nb.ipynb",
        &[
            ("a = 1", None),
            ("b = a + 1", None),
            ("def f():\n    return b\nprint(f(), b)", None),
        ],
    );
    let third = cell_uri(d, "nb.ipynb", 2);
    let at = |line: u32, character: u32| json!({"textDocument": {"uri": third}, "position": {"line": line, "character": character}});
    let hover = client.request("textDocument/hover", at(1, 11));
    let text = hover["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        text.contains("bound in cell 1") && text.contains("computed from `a`"),
        "{text}"
    );
    assert!(text.contains("read in cell 2"), "{text}");

    let definition = client.request("textDocument/definition", at(2, 11));
    assert_eq!(definition.as_array().map(Vec::len), Some(1), "{definition}");
    assert_eq!(definition[0]["uri"], cell_uri(d, "nb.ipynb", 1));
    assert_eq!(
        definition[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );

    let mut params = at(2, 11);
    params["context"] = json!({"includeDeclaration": true});
    let references = client.request("textDocument/references", params);
    let uris: Vec<&str> = references
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l["uri"].as_str())
        .collect();
    assert_eq!(uris.len(), 3, "{references}");
    assert_eq!(uris[0], cell_uri(d, "nb.ipynb", 1));

    // Nothing at a blank place: null.
    assert_eq!(client.request("textDocument/hover", at(0, 0)), json!(null));
    assert_eq!(client.stop(), 0);
}

#[test]
fn an_edit_reports_what_it_impacts() {
    let (dir, mut client) = started(json!({}));
    let d = dir.path();
    let cells = [
        ("a = 1", Some(1)),
        ("b = a + 1", Some(2)),
        ("c = b * 2", Some(3)),
        ("print('unrelated')", Some(4)),
    ];
    open(&mut client, d, "nb.ipynb", &cells);
    edit(&mut client, d, "nb.ipynb", 1, 0, [0, 4, 0, 5], "2");
    let impact = client.expect(|m| m["method"] == "nbsight/impact");
    let params = &impact["params"];
    assert_eq!(params["notebook"], notebook_uri(d, "nb.ipynb"));
    assert_eq!(
        params["event"],
        json!({"kind": "edit", "cell": 0, "uri": cell_uri(d, "nb.ipynb", 0)})
    );
    let impacted: Vec<(u64, u64)> = params["impactedCells"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            (
                c["cell"].as_u64().unwrap_or(99),
                c["depth"].as_u64().unwrap_or(99),
            )
        })
        .collect();
    assert_eq!(impacted, [(1, 1), (2, 2)], "{params:#}");
    let risky: Vec<u64> = params["staleRiskCells"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["cell"].as_u64())
        .collect();
    assert_eq!(risky, [1, 2]);
    assert_eq!(client.stop(), 0);
}

#[test]
fn pulling_clients_pull_and_nothing_is_pushed() {
    let dir = tempfile::tempdir().expect("a folder");
    let d = dir.path();
    let caps = json!({"textDocument": {"diagnostic": {"dynamicRegistration": false}}});
    let (mut client, _) = Client::start(d, caps);
    open(&mut client, d, "nb.ipynb", THREE);
    let report = client.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": cell_uri(d, "nb.ipynb", 1)}}),
    );
    assert_eq!(report["kind"], "full");
    assert_eq!(
        codes(
            report["items"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
        ),
        ["NBS001"]
    );
    let clean = client.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": cell_uri(d, "nb.ipynb", 0)}}),
    );
    assert_eq!(clean["items"], json!([]));
    // An unknown document: an empty report.
    let unknown = client.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": "file:///nowhere.py"}}),
    );
    assert_eq!(unknown["items"], json!([]));
    let (seen, status) = client.stop_seeing();
    let pushed = |m: &&Value| m["method"] == "textDocument/publishDiagnostics";
    assert!(!seen.iter().any(|m| pushed(&m)), "{seen:#?}");
    assert_eq!(status, 0);
}

#[test]
fn the_configuration_of_the_notebooks_folder_applies() {
    let dir = tempfile::tempdir().expect("a folder");
    let d = dir.path();
    std::fs::create_dir_all(d.join("quiet")).expect("a folder");
    std::fs::write(
        d.join("quiet/pyproject.toml"),
        "[tool.nbsight]\nignore = [\"NBS001\"]\n",
    )
    .expect("writes");
    let (mut client, _) = Client::start(d, json!({}));
    open(&mut client, d, "quiet/nb.ipynb", THREE);
    open(
        &mut client,
        d,
        "loud.ipynb",
        &[("# noqa: NBS001\nprint(x)", None), ("print(y)", None)],
    );
    assert!(
        client
            .diagnostics(&cell_uri(d, "quiet/nb.ipynb", 1))
            .is_empty()
    );
    assert!(
        client.diagnostics(&cell_uri(d, "loud.ipynb", 0)).is_empty(),
        "the cell's noqa"
    );
    assert_eq!(
        codes(&client.diagnostics(&cell_uri(d, "loud.ipynb", 1))),
        ["NBS001"]
    );
    assert_eq!(client.stop(), 0);
}

#[test]
fn percent_scripts_are_notebooks_too() {
    let (dir, mut client) = started(json!({}));
    let d = dir.path();
    let uri = format!("file://{}/analysis.py", d.display());
    let text = "# %%\nimport math\n\n# %%\nprint(math.pi, radius)\n";
    client.open_text(&uri, text);
    let found = client.diagnostics(&uri);
    assert_eq!(codes(&found), ["NBS001"]);
    assert_eq!(
        found[0]["range"]["start"],
        json!({"line": 4, "character": 15})
    );
    // An edit of the script: defining `radius` clears it.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{
            "range": {"start": {"line": 1, "character": 11}, "end": {"line": 1, "character": 11}},
            "text": "\nradius = 2",
        }]}),
    );
    assert!(client.diagnostics(&uri).is_empty());
    // A Python file without cell markers is not a notebook: no diagnostics.
    let plain = format!("file://{}/plain.py", d.display());
    client.open_text(&plain, "print(nothing)\n");
    let (seen, status) = client.stop_seeing();
    assert!(!seen.iter().any(|m| m["params"]["uri"] == plain));
    assert_eq!(status, 0);
}

/// A kernel's session of `live.ipynb` in `d` written to its history:
/// `a = 1` / `b = a + 1` / `print(b)`, then the first cell edited and
/// re-run; the kernel, its session and the history's path.
fn stale_session(
    d: &Path,
) -> (
    ScriptedKernel,
    nbsight_history::SessionId,
    std::path::PathBuf,
) {
    let notebook = d.join("live.ipynb");
    std::fs::write(&notebook, "{}").expect("writes");
    let mut kernel = ScriptedKernel::default();
    kernel.run("c1", "a = 1", false, None, &[]);
    kernel.run("c2", "b = a + 1", false, None, &[]);
    kernel.run("c3", "print(b)", false, None, &[]);
    kernel.run("c1", "a = 2", false, None, &[]);
    let db = nbsight_history::beside_notebook(&notebook);
    let mut history = History::open(&db).expect("opens");
    let notebook_text = notebook.display().to_string();
    let session = history
        .start_session(Some(&notebook_text), "3.13.1", "0.1.0", 1_767_225_600.0)
        .expect("a session");
    kernel.record(&mut history, session, 0, 0.1);
    (kernel, session, db)
}

/// The kernel re-runs the second cell: nothing is stale any more.
fn rerun_second_cell(kernel: &mut ScriptedKernel, session: nbsight_history::SessionId, db: &Path) {
    kernel.run("c2", "b = a + 1", false, None, &[]);
    let mut history = History::open(db).expect("opens");
    kernel.record(&mut history, session, 4, 0.1);
}

/// The editor's view of `live.ipynb` after that session.
const LIVE_CELLS: [(&str, Option<u32>); 3] = [
    ("a = 2", Some(4)),
    ("b = a + 1", Some(2)),
    ("print(b)", Some(3)),
];

fn kernel_stale(diagnostics: &[Value]) -> Vec<&Value> {
    diagnostics
        .iter()
        .filter(|x| x["code"] == "kernel-stale")
        .collect()
}

#[test]
fn the_kernels_history_shows_stale_cells() {
    let dir = tempfile::tempdir().expect("a folder");
    let d = dir.path();
    let (mut kernel, session, db) = stale_session(d);
    let (mut client, _) = Client::start(d, json!({}));
    open(&mut client, d, "live.ipynb", &LIVE_CELLS);
    let third = client.diagnostics(&cell_uri(d, "live.ipynb", 2));
    let live = kernel_stale(&third);
    assert_eq!(live.len(), 1, "{third:#?}");
    assert_eq!(live[0]["severity"], 3);
    let message = live[0]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("reads stale `b`") && message.contains("re-run cell 1"),
        "{message}"
    );
    assert_eq!(
        live[0]["range"]["start"],
        json!({"line": 0, "character": 6})
    );

    // The server sees the history change and clears the third cell.
    rerun_second_cell(&mut kernel, session, &db);
    let cleared = client.diagnostics(&cell_uri(d, "live.ipynb", 2));
    assert!(kernel_stale(&cleared).is_empty(), "{cleared:#?}");
    assert_eq!(client.stop(), 0);
}

#[test]
fn a_pulling_client_is_asked_to_pull_again_when_the_history_changes() {
    let dir = tempfile::tempdir().expect("a folder");
    let d = dir.path();
    let (mut kernel, session, db) = stale_session(d);
    let caps = json!({
        "textDocument": {"diagnostic": {}},
        "workspace": {"diagnostics": {"refreshSupport": true}},
    });
    let (mut client, _) = Client::start(d, caps);
    open(&mut client, d, "live.ipynb", &LIVE_CELLS);
    let third = json!({"textDocument": {"uri": cell_uri(d, "live.ipynb", 2)}});
    let report = client.request("textDocument/diagnostic", third.clone());
    let items = report["items"].as_array().cloned().unwrap_or_default();
    assert_eq!(kernel_stale(&items).len(), 1, "{report:#}");

    rerun_second_cell(&mut kernel, session, &db);
    let refresh = client.expect(|m| m["method"] == "workspace/diagnostic/refresh");
    client.send(json!({"jsonrpc": "2.0", "id": refresh["id"], "result": null}));
    let report = client.request("textDocument/diagnostic", third);
    let items = report["items"].as_array().cloned().unwrap_or_default();
    assert!(kernel_stale(&items).is_empty(), "{report:#}");
    assert_eq!(client.stop(), 0);
}

#[test]
fn bad_input_is_answered_and_the_server_keeps_going() {
    let (dir, mut client) = started(json!({}));
    let d = dir.path();
    let unknown = client.ask("nbsight/noSuchMethod", json!({}));
    assert_eq!(client.response(unknown)["error"]["code"], -32601);
    let bad = client.ask("textDocument/hover", json!({"textDocument": 3}));
    assert_eq!(client.response(bad)["error"]["code"], -32602);
    client.write_raw(b"{this is not json");
    let parse = client.expect(|m| m["id"].is_null() && m.get("error").is_some());
    assert_eq!(parse["error"]["code"], -32700);
    client.send(json!({"jsonrpc": "2.0", "id": 99}));
    assert_eq!(client.response(99)["error"]["code"], -32600);
    // A notification with bad parameters is logged, not fatal.
    client.notify("notebookDocument/didOpen", json!({"notebook": 1}));
    let log = client.expect(|m| m["method"] == "window/logMessage");
    assert!(
        log["params"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("didOpen")
    );
    // Still answering.
    open(&mut client, d, "nb.ipynb", THREE);
    assert_eq!(
        codes(&client.diagnostics(&cell_uri(d, "nb.ipynb", 1))),
        ["NBS001"]
    );
    assert_eq!(client.stop(), 0);
}

#[test]
fn requests_before_initialize_and_after_shutdown_are_refused() {
    let dir = tempfile::tempdir().expect("a folder");
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("nbsight"))
        .args(["server", "--stdio"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut send = |value: Value| {
        let body = value.to_string();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("writes");
        stdin.flush().expect("flushes");
    };
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {}}));
    let refused = read_message(&mut stdout).expect("an answer");
    assert_eq!(refused["error"]["code"], -32002);
    send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"capabilities": {}}}),
    );
    assert!(read_message(&mut stdout).expect("an answer")["result"]["capabilities"].is_object());
    send(json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}));
    assert_eq!(read_message(&mut stdout).expect("an answer")["id"], 3);
    send(json!({"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", "params": {}}));
    assert_eq!(
        read_message(&mut stdout).expect("an answer")["error"]["code"],
        -32600
    );
    send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(wait(&mut child), 0);
}

#[test]
fn exit_without_shutdown_is_status_one() {
    let dir = tempfile::tempdir().expect("a folder");
    let (mut client, _) = Client::start(dir.path(), json!({}));
    client.notify("exit", Value::Null);
    assert_eq!(wait(&mut client.child), 1);
}

#[test]
fn jupyterlab_lsp_virtual_documents_are_split_into_cells() {
    let (dir, mut client) = started(json!({}));
    let d = dir.path();
    let uri = format!("file://{}/.virtual_documents/nb.ipynb", d.display());
    let text = "import math\n\n\nprint(math.pi * radius)\n\n\nradius = 2\n";
    client.open_text(&uri, text);
    let found = client.diagnostics(&uri);
    assert_eq!(codes(&found), ["NBS001"], "{found:#?}");
    assert_eq!(
        found[0]["range"]["start"],
        json!({"line": 3, "character": 16})
    );
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("first defined below in cell 2")
    );
    // The definer below is related information, at its cell's first line.
    let related = &found[0]["relatedInformation"][0]["location"];
    assert_eq!(related["uri"], uri);
    assert_eq!(
        related["range"]["start"],
        json!({"line": 6, "character": 0})
    );
    assert_eq!(client.stop(), 0);
}

/// The notebooks of the repository's fixtures and of the shared corpus
/// (when it is beside the repository).
fn notebooks() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut found = Vec::new();
    let mut dirs = vec![root.join("crates"), root.join("../shared/corpus")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() && !path.ends_with("target") {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "ipynb") {
                found.push(path.canonicalize().unwrap_or(path));
            }
        }
    }
    found.sort();
    found
}

/// A path as a URI's path: percent-encoded but for `/` and unreserved
/// characters.
fn encode(path: &str) -> String {
    let mut out = String::new();
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// `(cell, code, line, message)` of each finding.
type Seen = std::collections::BTreeSet<(u64, String, u64, String)>;

#[test]
fn diagnostics_are_what_nbsight_check_reports() {
    let dir = tempfile::tempdir().expect("a folder");
    let d = dir.path();
    let paths = notebooks();
    assert!(paths.len() > 100, "the fixtures are found");
    // What `nbsight check` reports, in the same folder (the same settings).
    let out = Command::new(assert_cmd::cargo::cargo_bin("nbsight"))
        .args(["check", "--output-format", "json"])
        .args(&paths)
        .current_dir(d)
        .env_remove("NBSIGHT_EFFECTS")
        .output()
        .expect("check runs");
    let reported: Vec<Value> = serde_json::from_slice(&out.stdout).expect("check's JSON");
    let mut expected: std::collections::BTreeMap<String, Seen> = Default::default();
    for f in &reported {
        expected
            .entry(f["file"].as_str().unwrap_or_default().to_string())
            .or_default()
            .insert((
                f["cell"].as_u64().unwrap_or_default(),
                f["code"].as_str().unwrap_or_default().to_string(),
                f["line"].as_u64().unwrap_or_default(),
                f["message"].as_str().unwrap_or_default().to_string(),
            ));
    }

    let (mut client, _) = Client::start(d, json!({}));
    let mut compared = 0;
    for path in &paths {
        let Ok(notebook) = nbsight_notebook::load_path(path) else {
            continue;
        };
        if !notebook.language.is_python() {
            continue;
        }
        let encoded = encode(&path.display().to_string());
        let uri = format!("file://{encoded}");
        let cell = |i: usize| format!("vscode-notebook-cell:{encoded}#C{i}");
        let mut cells = Vec::new();
        let mut texts = Vec::new();
        for (i, c) in notebook.cells.iter().enumerate() {
            let (kind, language) = match c.kind {
                nbsight_notebook::CellKind::Code => (2, "python"),
                nbsight_notebook::CellKind::Markdown => (1, "markdown"),
                nbsight_notebook::CellKind::Raw => (2, "raw"),
            };
            let mut entry = json!({"kind": kind, "document": cell(i)});
            if let Some(count) = c.execution_count {
                entry["executionSummary"] = json!({"executionOrder": count, "success": true});
            }
            if c.id_from_file {
                entry["metadata"] = json!({"id": c.id});
            }
            cells.push(entry);
            texts.push(
                json!({"uri": cell(i), "languageId": language, "version": 0, "text": c.source}),
            );
        }
        client.notify(
            "notebookDocument/didOpen",
            json!({"notebookDocument": {"uri": uri, "notebookType": "jupyter-notebook", "version": 0, "cells": cells}, "cellTextDocuments": texts}),
        );
        let mut got = Seen::new();
        for i in 0..notebook.cells.len() {
            for diagnostic in client.diagnostics(&cell(i)) {
                let Some(code) = diagnostic["code"].as_str() else {
                    continue; // a syntax error
                };
                got.insert((
                    i as u64,
                    code.to_string(),
                    diagnostic["range"]["start"]["line"]
                        .as_u64()
                        .unwrap_or_default()
                        + 1,
                    diagnostic["message"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                ));
            }
        }
        let want = expected
            .remove(&path.display().to_string())
            .unwrap_or_default();
        assert_eq!(got, want, "{}", path.display());
        compared += 1;
        client.notify(
            "notebookDocument/didClose",
            json!({"notebookDocument": {"uri": uri}, "cellTextDocuments": []}),
        );
    }
    assert!(compared > 100);
    assert_eq!(client.stop(), 0);
}

#[test]
fn cells_sent_as_text_documents_too_stay_cells() {
    let (dir, mut client) = started(json!({}));
    let d = dir.path();
    // Some clients open each cell as a text document as well, even first.
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": cell_uri(d, "nb.ipynb", 1), "languageId": "python", "version": 0, "text": "print(a)"}}),
    );
    open(
        &mut client,
        d,
        "nb.ipynb",
        &[("a = 1", None), ("print(a)", None)],
    );
    assert!(client.diagnostics(&cell_uri(d, "nb.ipynb", 1)).is_empty());
    let second = cell_uri(d, "nb.ipynb", 1);
    let (seen, status) = client.stop_seeing();
    assert!(
        !seen.iter().any(|m| m["params"]["uri"] == second),
        "{seen:#?}"
    );
    assert_eq!(status, 0);
}
