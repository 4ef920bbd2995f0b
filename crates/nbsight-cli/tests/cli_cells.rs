//! End-to-end tests of `nbsight cells` on the notebooks under `tests/fixtures/`
//! and `examples/`: reports are snapshot-tested, bad input is checked for its
//! message and exit code.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `nbsight ARGS` run from the repository root.
fn nbsight(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("nbsight")
        .expect("binary built")
        .current_dir(repo())
        .env_remove("NBSIGHT_EFFECTS")
        .args(args)
        .assert()
}

fn json_of(path: &str) -> Value {
    let output = nbsight(&["cells", path, "--format", "json"])
        .get_output()
        .clone();
    serde_json::from_slice(&output.stdout).expect("stdout is JSON")
}

fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().expect("a string"))
        .collect()
}

#[test]
fn example_text_report() {
    let assert = nbsight(&["cells", "examples/passengers.ipynb"]).code(1);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    insta::assert_snapshot!(stdout);
    assert.stderr(predicate::str::contains(
        "examples/passengers.ipynb:cell 8:1:7: syntax error",
    ));
}

#[test]
fn example_json_report() {
    insta::assert_json_snapshot!(json_of("examples/passengers.ipynb"));
}

#[test]
fn nblyzer_figure_1_json_report() {
    let report = json_of("examples/nblyzer_figure1.ipynb");
    let cells = report["cells"].as_array().expect("cells");
    assert_eq!(strings(&cells[2]["uses"]), ["d"]);
    assert_eq!(strings(&cells[2]["defs"]), ["MinMaxScaler", "x"]);
    assert_eq!(
        strings(&cells[4]["defs"]),
        ["train_test_split", "x_test", "x_train", "y_test", "y_train"]
    );
    assert_eq!(
        strings(&cells[5]["uses"]),
        ["x_test", "x_train", "y_test", "y_train"]
    );
    insta::assert_json_snapshot!(report);
}

#[test]
fn json_contract_has_every_key() {
    let report = json_of("examples/nblyzer_figure1.ipynb");
    assert!(report["notebook"].is_string());
    for cell in report["cells"].as_array().expect("cells") {
        for key in [
            "index",
            "id",
            "kind",
            "execution_count",
            "uses",
            "defs",
            "dead",
            "mutated",
            "may_mutate",
            "imports",
            "functions",
            "errors",
        ] {
            assert!(cell.get(key).is_some(), "missing {key} in {cell}");
        }
        let kind = cell["kind"].as_str().expect("kind");
        assert!(["code", "markdown", "raw", "opaque"].contains(&kind));
    }
}

#[test]
fn functions_report_reads_and_writes() {
    let report = json_of("examples/passengers.ipynb");
    let functions = &report["cells"][3]["functions"];
    assert_eq!(strings(&functions["age_group"]["reads"]), ["threshold"]);
    assert_eq!(strings(&functions["summarize"]["writes"]), ["n_summaries"]);
}

#[test]
fn syntax_error_cell_does_not_stop_the_others() {
    let output = nbsight(&[
        "cells",
        "tests/fixtures/syntax_error.ipynb",
        "--format",
        "json",
    ])
    .code(1)
    .stderr(predicate::str::contains(
        "syntax_error.ipynb:cell 1:2:7: syntax error",
    ))
    .get_output()
    .clone();
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let cells = report["cells"].as_array().expect("cells");
    assert_eq!(cells[1]["errors"][0]["line"], 2);
    assert_eq!(cells[1]["errors"][0]["column"], 7);
    assert!(!strings(&cells[2]["defs"]).is_empty() || !strings(&cells[2]["uses"]).is_empty());
}

#[test]
fn magics_and_opaque_cells() {
    let report = json_of("tests/fixtures/magics.ipynb");
    let cells = report["cells"].as_array().expect("cells");
    let kinds: Vec<&str> = cells
        .iter()
        .map(|c| c["kind"].as_str().expect("kind"))
        .collect();
    assert!(kinds.contains(&"opaque"));
    let x_from_shell = cells
        .iter()
        .find(|c| c["source"].is_null() && strings(&c["defs"]).contains(&"x"));
    assert!(x_from_shell.is_some(), "`x = !ls` defines x");
    let captured = cells.iter().any(|c| strings(&c["defs"]).contains(&"out"));
    assert!(captured, "`%%capture out` defines out");
    for cell in cells.iter().filter(|c| c["kind"] == "opaque") {
        assert!(
            cell["opaque_reason"]
                .as_str()
                .expect("reason")
                .contains("%%")
        );
    }
}

#[test]
fn percent_scripts_are_notebooks_too() {
    let report = json_of("tests/fixtures/percent.py");
    assert_eq!(report["format"], "percent");
    let kinds: Vec<&str> = report["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .map(|c| c["kind"].as_str().expect("kind"))
        .collect();
    assert!(kinds.contains(&"markdown") && kinds.contains(&"code"));
}

#[test]
fn invalid_json_names_the_position() {
    nbsight(&["cells", "tests/fixtures/bad_json.ipynb"])
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("bad_json.ipynb:13:"))
        .stderr(predicate::str::contains("invalid JSON"));
}

#[test]
fn nbformat_3_is_refused_with_a_hint() {
    nbsight(&["cells", "tests/fixtures/nbformat3.ipynb"])
        .code(2)
        .stderr(predicate::str::contains("nbformat 3"))
        .stderr(predicate::str::contains("nbconvert"));
}

#[test]
fn empty_and_missing_files() {
    nbsight(&["cells", "tests/fixtures/empty.ipynb"])
        .code(2)
        .stderr(predicate::str::contains("empty.ipynb"))
        .stderr(predicate::str::contains("empty"));
    nbsight(&["cells", "tests/fixtures/no_such_notebook.ipynb"])
        .code(2)
        .stderr(predicate::str::contains("no_such_notebook.ipynb"));
}

#[test]
fn non_python_kernel_is_reported_not_analysed() {
    let output = nbsight(&["cells", "tests/fixtures/r_kernel.ipynb", "--format", "json"])
        .code(0)
        .stderr(predicate::str::contains("kernel language is R"))
        .get_output()
        .clone();
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let code_kinds: Vec<&Value> = report["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .map(|c| &c["kind"])
        .filter(|k| *k != "markdown")
        .collect();
    assert!(code_kinds.iter().all(|k| *k == "opaque"));
}

#[test]
fn missing_fields_are_diagnosed_per_cell() {
    nbsight(&["cells", "tests/fixtures/missing_fields.ipynb"])
        .code(1)
        .stderr(predicate::str::contains("missing_fields.ipynb:cell "));
}

#[test]
fn usage_errors_exit_2() {
    nbsight(&["cells"]).code(2);
    nbsight(&["cells", "examples/passengers.ipynb", "--format", "yaml"]).code(2);
    nbsight(&["frobnicate"]).code(2);
}

#[test]
fn user_effects_file_is_merged() {
    let dir = tempfile::tempdir().expect("tempdir");
    let nb = dir.path().join("nb.py");
    std::fs::write(&nb, "# %%\nwidget.frobnicate()\ngadget.polish()\n").expect("write");
    let effects = dir.path().join("mine.toml");
    std::fs::write(
        &effects,
        "[methods]\nfrobnicate = { mutates = [\"self\"] }\n",
    )
    .expect("write");
    let nb = nb.to_string_lossy().into_owned();
    let output = nbsight(&["cells", &nb, "--format", "json"])
        .code(0)
        .get_output()
        .clone();
    let before: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        strings(&before["cells"][0]["may_mutate"]),
        ["gadget", "widget"]
    );
    let effects = effects.to_string_lossy().into_owned();
    let output = nbsight(&["cells", &nb, "--format", "json", "--effects", &effects])
        .code(0)
        .get_output()
        .clone();
    let after: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(strings(&after["cells"][0]["mutated"]), ["widget"]);
    assert_eq!(strings(&after["cells"][0]["may_mutate"]), ["gadget"]);

    std::fs::write(
        dir.path().join("bad.toml"),
        "[methods]\nx = { mutates = [\"nowhere\"] }\n",
    )
    .expect("write");
    let bad = dir.path().join("bad.toml").to_string_lossy().into_owned();
    nbsight(&["cells", &nb, "--effects", &bad])
        .code(2)
        .stderr(predicate::str::contains("bad.toml"));
}

/// `tests/fixtures/real_runs.ipynb`: constructs whose summaries were checked
/// against what IPython really does (docs/dynamic-truth.md).
#[test]
fn summaries_match_real_runs() {
    let report = json_of("tests/fixtures/real_runs.ipynb");
    let cells = report["cells"].as_array().expect("cells");
    let cell = |i: usize, key: &str| strings(&cells[i][key]);
    // `%timeit` / `%%timeit` read the namespace and bind nothing.
    assert_eq!((cell(2, "uses"), cell(2, "defs")), (vec!["x"], vec![]));
    assert_eq!(cell(2, "builtins"), ["sum"]);
    assert_eq!(
        (cell(3, "uses"), cell(3, "defs")),
        (vec!["log", "x"], vec![])
    );
    assert_eq!(cell(3, "mutated"), ["log"]);
    // `%time` / `%%time` bind.
    assert_eq!(cell(4, "defs"), ["w"]);
    assert_eq!(cell(5, "defs"), ["v"]);
    // Indented cells and pasted prompts run: no syntax error.
    for cell in &cells[6..=8] {
        assert!(
            cell["errors"].as_array().expect("errors").is_empty(),
            "{cell}"
        );
    }
    assert_eq!(cell(6, "dead"), ["a", "b"]);
    assert_eq!(
        (cell(7, "uses"), cell(7, "defs")),
        (vec!["b", "x"], vec!["c", "i"])
    );
    assert_eq!(
        (cell(8, "uses"), cell(8, "dead")),
        (vec!["c"], vec!["e", "f"])
    );
    // `finally` runs on every way out; names bound on every normal path are DEAD.
    assert_eq!(cell(9, "dead"), ["g"]);
    assert_eq!(cell(10, "dead"), ["done", "g2", "g3"]);
    assert_eq!(cell(11, "dead"), ["k"]);
    // A class body in a class body reads the global `p`.
    assert_eq!(cell(12, "uses"), ["p"]);
    // `outer` does not call `inner`: it writes no global.
    let outer = &cells[13]["functions"]["outer"];
    assert!(strings(&outer["writes"]).is_empty(), "{outer}");
    insta::assert_json_snapshot!(report);
}
