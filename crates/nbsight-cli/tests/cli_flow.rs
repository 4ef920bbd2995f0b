//! End-to-end tests of `nbsight flow`: the JSON contract, the graph formats,
//! scoring against annotations, and `--resolve llm` refusing to run without
//! a configured endpoint (nothing is sent anywhere).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

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
        "tests/fixtures/flow/crabs_example.ipynb",
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
    let nb = "tests/fixtures/flow/crabs_example.ipynb";
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
        "tests/fixtures/flow",
        "--truth-dir",
        "tests/fixtures/flow",
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
    let (code, _, stderr) = flow(&["tests/fixtures/flow/loop_carried.ipynb", "--resolve", "llm"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("endpoint"), "{stderr}");
}

#[test]
fn many_notebooks_need_a_truth() {
    let (code, _, stderr) = flow(&["tests/fixtures/flow"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--truth"), "{stderr}");
}
