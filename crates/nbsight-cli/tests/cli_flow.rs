//! End-to-end tests of `nbsight flow`: the JSON contract, the graph formats,
//! scoring against annotations, and `--resolve llm` refusing to run without
//! a configured endpoint (nothing is sent anywhere).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use common::embedded_view;
use serde_json::Value;

mod common;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn flow(args: &[&str]) -> (i32, String, String) {
    let output = Command::cargo_bin("nbsight")
        .expect("binary built")
        .current_dir(repo())
        .env_remove("NBSIGHT_EFFECTS")
        .env_remove("NBSIGHT_LLM_ENDPOINT")
        .env_remove("NBSIGHT_LLM_MODEL")
        .env_remove("OPENAI_BASE_URL")
        .arg("flow")
        .args(args)
        .output()
        .expect("runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn json_contract() {
    let (code, stdout, stderr) = flow(&[
        "crates/nbsight-flow/tests/fixtures/crabs_example.ipynb",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let json: Value = serde_json::from_str(&stdout).expect("json");
    let cell = &json["cells"][0];
    for key in [
        "index",
        "inputs",
        "outputs",
        "inputs_lower",
        "inputs_upper",
        "outputs_lower",
        "outputs_upper",
        "ambiguities",
    ] {
        assert!(cell.get(key).is_some(), "missing {key}: {cell}");
    }
    let flows = json["flows"].as_array().expect("flows");
    assert!(flows.iter().any(|f| f["symbol"] == "phone"));
    for f in flows {
        assert!(f.get("from").is_some() && f.get("to").is_some());
    }
    assert!(
        json["dependencies"]
            .as_array()
            .is_some_and(|d| !d.is_empty())
    );
}

#[test]
fn graph_formats() {
    let nb = "crates/nbsight-flow/tests/fixtures/crabs_example.ipynb";
    let (code, dot, _) = flow(&[nb, "--format", "dot"]);
    assert_eq!(code, 0);
    assert!(dot.starts_with("digraph flow {") && dot.contains("label=\"phone\""));
    let (code, mermaid, _) = flow(&[nb, "--format", "mermaid"]);
    assert_eq!(code, 0);
    assert!(mermaid.starts_with("flowchart TD") && mermaid.contains("|phone|"));
}

#[test]
fn scores_against_a_truth_directory() {
    let (code, stdout, stderr) = flow(&[
        "crates/nbsight-flow/tests/fixtures",
        "--truth-dir",
        "crates/nbsight-flow/tests/fixtures",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let json: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(json["notebooks"].as_array().map(Vec::len), Some(12));
    assert!(
        json["aggregate"]["macro_flows"]["f1"]
            .as_f64()
            .is_some_and(|f| f > 0.9)
    );
}

#[test]
fn llm_needs_an_endpoint() {
    let (code, _, stderr) = flow(&[
        "crates/nbsight-flow/tests/fixtures/loop_carried.ipynb",
        "--resolve",
        "llm",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("endpoint"), "{stderr}");
}

#[test]
fn many_notebooks_need_a_truth() {
    let (code, _, stderr) = flow(&["crates/nbsight-flow/tests/fixtures"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--truth"), "{stderr}");
}

/// A notebook whose one open question is whether the loop over unknown data
/// reads `count` before binding it.
fn open_question_notebook(dir: &Path) -> PathBuf {
    let notebook = dir.join("open.py");
    std::fs::write(
        &notebook,
        "# %%\ncount = 10\ndata = [3, 4]\n# %%\nfor i in data:\n    if i == 0:\n        count = 0\n    else:\n        count = count + 1\n",
    )
    .expect("write");
    notebook
}

/// A chat-completions server on 127.0.0.1 answering every request with
/// `answer`; returns its base URL and the number of requests it served.
fn answering_server(
    answer: &'static str,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/v1", listener.local_addr().expect("address"));
    let served = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&served);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            count.fetch_add(1, Ordering::SeqCst);
            let reply = serde_json::json!({
                "choices": [{"message": {"role": "assistant", "content": answer}}]
            })
            .to_string();
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    (url, served)
}

/// `--resolve llm` end to end: the one open question (does the loop over
/// unknown data read `count` first?) goes to the local server, its answer
/// decides the input, and a second run is served from the disk cache.
#[test]
fn llm_answers_resolve_open_questions_and_are_cached() {
    use std::sync::atomic::Ordering;
    let dir = tempfile::tempdir().expect("temp dir");
    let notebook = open_question_notebook(dir.path());
    let (url, served) = answering_server("Answer: Yes");
    let run = || {
        let output = Command::cargo_bin("nbsight")
            .expect("binary built")
            .env("XDG_CACHE_HOME", dir.path().join("cache"))
            .env_remove("NBSIGHT_LLM_API_KEY")
            .env_remove("OPENAI_API_KEY")
            .args(["flow", notebook.to_str().expect("path"), "--format", "json"])
            .args([
                "--resolve",
                "llm",
                "--llm-endpoint",
                &url,
                "--llm-model",
                "test-model",
            ])
            .output()
            .expect("runs");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice::<Value>(&output.stdout).expect("json")
    };
    let first = run();
    assert_eq!(served.load(Ordering::SeqCst), 1);
    let loop_cell = &first["cells"][1];
    assert_eq!(loop_cell["inputs"], serde_json::json!(["count", "data"]));
    let ambiguity = &loop_cell["ambiguities"][0];
    assert_eq!(ambiguity["symbol"], "count");
    assert_eq!(ambiguity["resolution"], true);
    assert_eq!(ambiguity["resolved_by"], "llm");
    assert!(
        first["flows"]
            .as_array()
            .expect("flows")
            .contains(&serde_json::json!({"from": 0, "to": 1, "symbol": "count"}))
    );
    // The same question again costs nothing.
    let second = run();
    assert_eq!(served.load(Ordering::SeqCst), 1);
    assert_eq!(second, first);
}

/// An unreachable endpoint gives a message and the static result.
#[test]
fn unreachable_llm_endpoint_keeps_the_static_result() {
    let dir = tempfile::tempdir().expect("temp dir");
    let notebook = open_question_notebook(dir.path());
    // A port nothing listens on: bind, then drop.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("address")
        .port();
    let output = Command::cargo_bin("nbsight")
        .expect("binary built")
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .args(["flow", notebook.to_str().expect("path"), "--format", "json"])
        .args(["--resolve", "llm", "--llm-model", "m", "--llm-endpoint"])
        .arg(format!("http://127.0.0.1:{port}/v1"))
        .output()
        .expect("runs");
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("unresolved"), "{stderr}");
    let stdout: Value = serde_json::from_slice(&output.stdout).expect("json");
    let ambiguity = &stdout["cells"][1]["ambiguities"][0];
    assert_eq!(ambiguity["symbol"], "count");
    assert_eq!(ambiguity["resolution"], Value::Null);
    assert_eq!(stdout["cells"][1]["inputs"], serde_json::json!(["data"]));
}

#[test]
fn html_page_is_self_contained_and_draws_every_code_cell_and_flow() {
    let nb = "crates/nbsight-flow/tests/fixtures/crabs_example.ipynb";
    let (code, html, stderr) = flow(&[nb, "--format", "html"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", &html[..80]);
    // Nothing is fetched: no external script, style sheet or image.
    for external in ["<script src", "<link", "<img", "@import"] {
        assert!(!html.contains(external), "the page has `{external}`");
    }
    assert!(html.contains("dagre"), "the layout library is inlined");
    let view = embedded_view(&html);
    let (_, json, _) = flow(&[nb, "--format", "json"]);
    let json: Value = serde_json::from_str(&json).expect("JSON report");
    let code_cells: Vec<String> = json["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .map(|c| c["index"].to_string())
        .collect();
    let drawn: Vec<String> = view["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .map(|c| c["id"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(drawn, code_cells);
    // One arrow per pair of cells, carrying every flow between them.
    let mut flows: Vec<(String, String, String)> = json["flows"]
        .as_array()
        .expect("flows")
        .iter()
        .map(|f| {
            (
                f["from"].to_string(),
                f["to"].to_string(),
                f["symbol"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    flows.sort();
    let mut carried: Vec<(String, String, String)> = view["flows"]
        .as_array()
        .expect("flows")
        .iter()
        .flat_map(|e| {
            let from = e["from"].as_str().unwrap_or_default().to_string();
            let to = e["to"].as_str().unwrap_or_default().to_string();
            e["symbols"].as_array().into_iter().flatten().map(move |s| {
                (
                    from.clone(),
                    to.clone(),
                    s.as_str().unwrap_or_default().to_string(),
                )
            })
        })
        .collect();
    carried.sort();
    assert_eq!(carried, flows);
    assert_eq!(
        view["dependencies"].as_array().map(Vec::len),
        json["dependencies"].as_array().map(Vec::len)
    );
    // A cell's code, inputs and outputs are there for the click.
    let second = &view["cells"][1];
    assert_eq!(second["inputs"], json["cells"][1]["inputs"]);
    assert_eq!(second["outputs"], json["cells"][1]["outputs"]);
    assert!(!second["code"].as_str().unwrap_or_default().is_empty());
}
