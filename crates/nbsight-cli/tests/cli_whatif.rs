//! End-to-end tests of `nbsight whatif` on NBLyzer's Figure 1 notebook
//! (`examples/nblyzer_figure1.ipynb`): the JSON contract and the answers the
//! paper states (see `../shared/seed-notes.md`).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn whatif(args: &[&str]) -> (i32, Value, String) {
    let output = Command::cargo_bin("nbsight")
        .expect("binary built")
        .current_dir(repo())
        .env_remove("NBSIGHT_EFFECTS")
        .arg("whatif")
        .args(args)
        .output()
        .expect("runs");
    let code = output.status.code().unwrap_or(-1);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (
        code,
        json,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn execute_reports_the_contract_keys_and_the_papers_answers() {
    let (code, report, _) = whatif(&[
        "examples/nblyzer_figure1.ipynb",
        "--execute",
        "1",
        "--executed",
        "none",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    // `--history`, the option's former name, still means the same.
    let (_, former, _) = whatif(&[
        "examples/nblyzer_figure1.ipynb",
        "--execute",
        "1",
        "--history",
        "none",
        "--format",
        "json",
    ]);
    assert_eq!(former, report);
    for key in [
        "notebook",
        "event",
        "history",
        "impacted",
        "findings",
        "rerun_plan",
        "safe_next",
    ] {
        assert!(report.get(key).is_some(), "missing {key}");
    }
    assert_eq!(report["event"]["kind"], "execute");
    assert_eq!(report["event"]["cell"], 1);
    assert_eq!(report["safe_next"], serde_json::json!([3]));
    let leak = report["findings"]
        .as_array()
        .expect("list")
        .iter()
        .find(|f| f["name"] == "preprocessing-leakage")
        .expect("the leak at cell 5");
    assert_eq!(leak["cell"], 5);
    assert_eq!(leak["path"], serde_json::json!([1, 2, 4, 5]));
}

#[test]
fn edit_with_k_2_impacts_cells_2_and_4() {
    let source = repo().join("target/whatif-edit-source.py");
    std::fs::create_dir_all(source.parent().expect("parent")).expect("target dir");
    std::fs::write(
        &source,
        "import pandas as pd\nd = pd.read_csv(\"other.csv\")\n",
    )
    .expect("write source");
    let (code, report, _) = whatif(&[
        "examples/nblyzer_figure1.ipynb",
        "--edit",
        "1",
        "--source",
        source.to_str().expect("utf-8"),
        "--executed",
        "none",
        "--k",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        report["impacted"],
        serde_json::json!([
            {"cell": 2, "depth": 1, "symbols": ["d"]},
            {"cell": 4, "depth": 2, "symbols": ["x"]}
        ])
    );
}

#[test]
fn text_output_and_usage_errors() {
    let (code, _, _) = whatif(&["examples/nblyzer_figure1.ipynb", "--execute", "1"]);
    assert_eq!(code, 0);
    let (code, _, stderr) = whatif(&["examples/nblyzer_figure1.ipynb"]);
    assert_eq!(code, 2, "no event is a usage error: {stderr}");
    let (code, _, stderr) = whatif(&["examples/nblyzer_figure1.ipynb", "--execute", "99"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cell 99 does not exist"), "{stderr}");
    let (code, _, stderr) = whatif(&[
        "examples/nblyzer_figure1.ipynb",
        "--execute",
        "1",
        "--executed",
        "1,x",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not a cell number"), "{stderr}");
    let (code, _, _) = whatif(&["examples/nblyzer_figure1.ipynb", "--edit", "1"]);
    assert_eq!(code, 2, "--edit needs --source");
}
