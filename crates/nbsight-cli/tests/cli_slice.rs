//! End-to-end tests of `nbsight slice` on the notebooks under
//! `tests/fixtures/slice/` (standard library only, runnable with python3):
//! the text and JSON reports (snapshots), usage and input errors, cells with
//! syntax errors, and gathered slices executed with python3, whose output
//! must be the target cell's output when the notebook runs top to bottom.

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use assert_cmd::Command;
use nbsight_dataflow::Effects;
use nbsight_slice::{GatherFormat, Slicer, gather};
use predicates::prelude::*;
use serde_json::Value;

mod common;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

/// `nbsight slice ARGS` run from the repository root.
fn slice(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("nbsight")
        .expect("binary built")
        .current_dir(repo())
        .env_remove("NBSIGHT_EFFECTS")
        .arg("slice")
        .args(args)
        .assert()
}

fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

fn stderr(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let assert = slice(&all).code(0);
    serde_json::from_str(&stdout(&assert)).expect("stdout is JSON")
}

const LST: &str = "tests/fixtures/slice/lst.ipynb";
const SHOP: &str = "tests/fixtures/slice/shop.ipynb";
const MUTATION: &str = "tests/fixtures/slice/mutation.ipynb";
const FUNCTIONS: &str = "tests/fixtures/slice/functions.ipynb";
const BROKEN: &str = "tests/fixtures/slice/broken.ipynb";

#[test]
fn lst_example_text_report() {
    let assert = slice(&[LST, "--cell", "3", "--statements"]).code(0);
    insta::assert_snapshot!(stdout(&assert));
}

#[test]
fn lst_example_json_report() {
    let report = json(&[LST, "--cell", "5", "--statements"]);
    assert_eq!(report["cells"], serde_json::json!([4, 5]));
    insta::assert_json_snapshot!(report);
}

#[test]
fn json_contract() {
    let report = json(&[SHOP, "--cell", "10"]);
    for key in [
        "notebook",
        "cell",
        "direction",
        "cells",
        "statements_in_slice",
        "statements_in_notebook",
        "ratio",
    ] {
        assert!(report.get(key).is_some(), "missing {key}");
    }
    assert_eq!(report["direction"], "backward");
    // Statements are listed only with --statements.
    assert!(report.get("statements").is_none());
    let report = json(&[SHOP, "--cell", "10", "--statements"]);
    let first = &report["statements"][0];
    for key in ["cell", "line", "end_line", "text"] {
        assert!(first.get(key).is_some(), "missing statements[].{key}");
    }
}

#[test]
fn shop_statements_text_report() {
    let assert = slice(&[SHOP, "--cell", "10", "--statements"]).code(0);
    insta::assert_snapshot!(stdout(&assert));
}

#[test]
fn forward_json_report() {
    let report = json(&[SHOP, "--cell", "2", "--forward"]);
    assert_eq!(report["direction"], "forward");
    insta::assert_json_snapshot!(report);
}

#[test]
fn slices_of_the_fixtures() {
    let cells = |args: &[&str]| json(args)["cells"].clone();
    use serde_json::json as j;
    assert_eq!(cells(&[LST, "--cell", "3"]), j!([1, 3]));
    assert_eq!(cells(&[LST, "--cell", "2", "--forward"]), j!([2]));
    // Free globals of `cost` (prices, discount), not the later discount.
    assert_eq!(cells(&[SHOP, "--cell", "10"]), j!([1, 2, 3, 4, 6, 7, 10]));
    assert_eq!(cells(&[SHOP, "--cell", "5"]), j!([2, 5]));
    assert_eq!(cells(&[SHOP, "--cell", "9", "--forward"]), j!([9]));
    // `g.append(0)` changes backup through the alias `groups`.
    assert_eq!(cells(&[MUTATION, "--cell", "7"]), j!([2, 3, 4, 6, 7]));
    assert_eq!(cells(&[MUTATION, "--cell", "8"]), j!([2, 3, 4, 5, 8]));
    // A call of `bump` binds `counter` (global) and changes `log`.
    assert_eq!(cells(&[FUNCTIONS, "--cell", "6"]), j!([1, 2, 3, 6]));
    assert_eq!(
        cells(&[FUNCTIONS, "--cell", "2", "--forward"]),
        j!([2, 3, 5, 6, 8, 9, 10])
    );
    // `record(log, 7)` changes `log` in place.
    assert_eq!(cells(&[FUNCTIONS, "--cell", "10"]), j!([1, 2, 3, 9, 10]));
}

#[test]
fn magics_only_come_when_they_bind() {
    let report = json(&[SHOP, "--cell", "10", "--statements"]);
    let texts: Vec<&str> = report["statements"]
        .as_array()
        .expect("statements")
        .iter()
        .filter_map(|s| s["text"].as_str())
        .collect();
    assert!(!texts.iter().any(|t| t.contains("matplotlib")));
    assert!(texts.contains(&"%time totals = [cost(item, n) for item, n in orders]"));
    assert!(!texts.contains(&"import json"));
}

#[test]
fn usage_and_input_errors() {
    slice(&[LST, "--cell", "99"])
        .code(2)
        .stderr(predicate::str::contains(
            "lst.ipynb: there is no cell 99 (the notebook has 6 cells",
        ));
    slice(&[LST, "--cell", "0"])
        .code(2)
        .stderr(predicate::str::contains(
            "lst.ipynb: cell 0 is a markdown cell, not a code cell",
        ));
    slice(&["tests/fixtures/slice/missing.ipynb", "--cell", "0"])
        .code(2)
        .stderr(predicate::str::contains("missing.ipynb"));
    slice(&[LST, "--cell", "3", "--gather", "out.txt"])
        .code(2)
        .stderr(predicate::str::contains("must end in .py"));
    slice(&[LST, "--cell", "3", "--forward", "--gather", "out.py"])
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
    slice(&[LST])
        .code(2)
        .stderr(predicate::str::contains("--cell"));
    // The notebook itself is never overwritten.
    let dir = tempfile::tempdir().expect("temp dir");
    let copy = dir.path().join("copy.ipynb");
    std::fs::copy(repo().join(LST), &copy).expect("copy");
    let copy = copy.to_string_lossy().into_owned();
    slice(&[&copy, "--cell", "3", "--gather", &copy])
        .code(2)
        .stderr(predicate::str::contains(
            "that is the notebook being sliced",
        ));
    let unchanged = std::fs::read_to_string(&copy).expect("read");
    assert_eq!(
        unchanged,
        std::fs::read_to_string(repo().join(LST)).expect("read")
    );
}

#[test]
fn cells_with_syntax_errors_are_reported_and_left_out() {
    let assert = slice(&[BROKEN, "--cell", "2"]).code(0);
    assert!(
        stdout(&assert).contains("cells: 0, 2\n"),
        "{}",
        stdout(&assert)
    );
    let err = stderr(&assert);
    assert!(
        err.contains("tests/fixtures/slice/broken.ipynb:cell 1:1:6: syntax error"),
        "{err}"
    );
    assert!(err.contains("the cell is left out of slices"), "{err}");
    let assert = slice(&[BROKEN, "--cell", "1"]).code(0);
    let out = stdout(&assert);
    assert!(
        out.contains("cell 1 does not parse (line 1, column 6"),
        "{out}"
    );
    assert!(out.contains("cells: 1\n"), "{out}");
    assert!(stderr(&assert).contains("the slice is the cell alone"));
}

// ----- gathered slices, run with python3 -----------------------------------

/// `python3` when it is on PATH.
fn python() -> Option<&'static str> {
    let ok = Process::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some("python3")
}

/// Prints a marker at the start of each `# %% cell N` block, so the output
/// of each cell can be told apart.
fn with_markers(script: &str) -> String {
    let mut out = String::new();
    for line in script.lines() {
        out.push_str(line);
        out.push('\n');
        if let Some(cell) = line.strip_prefix("# %% cell ") {
            out.push_str(&format!("print('<<<cell {cell}>>>')\n"));
        }
    }
    out
}

/// Runs a script with python3; its standard output.
fn run_python(python: &str, dir: &Path, name: &str, script: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, script).expect("write script");
    let output = Process::new(python)
        .arg(&path)
        .current_dir(dir)
        .env("PYTHONHASHSEED", "0")
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{name} failed:\n{}\n--- script ---\n{script}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What cell `cell` printed, between its marker and the next one.
fn cell_output(stdout: &str, cell: usize) -> String {
    let marker = format!("<<<cell {cell}>>>\n");
    let start = stdout
        .find(&marker)
        .map(|i| i + marker.len())
        .unwrap_or_else(|| panic!("no output marker for cell {cell} in\n{stdout}"));
    let rest = &stdout[start..];
    let end = rest.find("<<<cell ").unwrap_or(rest.len());
    rest[..end].to_string()
}

/// The output of cell `cell` when the notebook runs top to bottom: the cells
/// up to it, whole, gathered the same way.
fn expected_output(python: &str, dir: &Path, notebook: &str, cell: usize) -> String {
    let notebook = nbsight_notebook::load_path(&repo().join(notebook)).expect("fixture loads");
    let prefix = Slicer::new(&notebook, &Effects::builtin())
        .prefix(cell)
        .expect("a code cell");
    let script = gather(&prefix, GatherFormat::Py).expect("gathers");
    let stdout = run_python(python, dir, "whole.py", &with_markers(&script));
    cell_output(&stdout, cell)
}

#[test]
fn gathered_slices_reproduce_the_cells_output() {
    let Some(python) = python() else {
        eprintln!("python3 not on PATH: gathered slices not executed (skipped)");
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let targets = [
        (LST, 3, "10\n"),
        (LST, 5, "15\n"),
        (SHOP, 5, "short\n"),
        (SHOP, 8, "'{\"apple\": 1, \"fig\": 1, \"pear\": 1}'\n"),
        (SHOP, 10, "9.6\n"),
        (MUTATION, 7, "[5, 3, 8, 0]\n"),
        (MUTATION, 8, "[6, 10, 16]\n"),
        (MUTATION, 9, "10.666666666666666\n"),
        (FUNCTIONS, 5, "1.0\n"),
        (FUNCTIONS, 6, "'5 [2, 3]'\n"),
        (FUNCTIONS, 8, "'1.00'\n"),
        (FUNCTIONS, 10, "3\n"),
    ];
    for (notebook, cell, shown) in targets {
        let expected = expected_output(python, dir.path(), notebook, cell);
        assert_eq!(expected, shown, "{notebook} cell {cell} run top to bottom");
        let cell_arg = cell.to_string();
        for by in [None, Some("--statements")] {
            let out = dir.path().join("slice.py");
            let out_arg = out.to_string_lossy().into_owned();
            let mut args = vec![notebook, "--cell", &cell_arg, "--gather", &out_arg];
            args.extend(by);
            slice(&args)
                .code(0)
                .stderr(predicate::str::contains(format!(
                    "wrote the backward slice of cell {cell}"
                )));
            let script = std::fs::read_to_string(&out).expect("gathered script");
            let stdout = run_python(python, dir.path(), "sliced.py", &with_markers(&script));
            assert_eq!(
                cell_output(&stdout, cell),
                expected,
                "{notebook} cell {cell} {by:?}:\n{script}"
            );
        }
    }
}

#[test]
fn gathered_script_snapshot() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("shop_10.py");
    let out_arg = out.to_string_lossy().into_owned();
    slice(&[SHOP, "--cell", "10", "--statements", "--gather", &out_arg]).code(0);
    insta::assert_snapshot!(std::fs::read_to_string(&out).expect("gathered"));
}

#[test]
fn gathered_notebook_snapshot() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("mutation_8.ipynb");
    let out_arg = out.to_string_lossy().into_owned();
    slice(&[MUTATION, "--cell", "8", "--gather", &out_arg]).code(0);
    let text = std::fs::read_to_string(&out).expect("gathered");
    let doc: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(doc["nbformat"], 4);
    assert_eq!(doc["metadata"]["kernelspec"]["name"], "python3");
    // It loads as a notebook with one code cell per cell of the slice.
    let reloaded = nbsight_notebook::load_ipynb_str(&out, &text).expect("loads");
    assert_eq!(reloaded.cells.len(), 5);
    insta::assert_json_snapshot!(doc);
}

#[test]
fn html_page_highlights_the_slice_asked_for() {
    let assert = slice(&[SHOP, "--cell", "10", "--format", "html"]).code(0);
    let view = common::embedded_view(&stdout(&assert));
    let report = json(&[SHOP, "--cell", "10"]);
    let cells: Vec<String> = report["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(view["slice"]["cell"], "10");
    assert_eq!(view["slice"]["direction"], "backward");
    assert_eq!(view["slice"]["cells"], serde_json::json!(cells));
    // Every cell's slices are there for clicks, the one asked for the same.
    assert_eq!(view["slices"]["10"]["backward"], view["slice"]["cells"]);
}

#[test]
fn html_needs_a_notebook_not_a_history() {
    let assert = slice(&[
        "--history",
        "nowhere.sqlite",
        "--cell",
        "x",
        "--format",
        "html",
    ])
    .code(2);
    assert!(
        stderr(&assert).contains("--format html"),
        "{}",
        stderr(&assert)
    );
}
