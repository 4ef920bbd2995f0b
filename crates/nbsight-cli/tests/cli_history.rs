//! End-to-end tests of the commands that read a live kernel's history
//! (`nbsight history`, `nbsight slice --history`, `nbsight provenance`) on
//! a file written as the kernel writes it (a real `Lineage` fed the runs,
//! each execution recorded with its provenance events): the reports
//! (snapshots, the temporary folder shown as `[DIR]`), answers equal to
//! the live lineage's, and errors naming the file.

use std::path::{Path, PathBuf};

use nbsight_history::History;
use nbsight_history::testing::ScriptedKernel;
use nbsight_lineage::ProvenanceEvent as Event;
use nbsight_lineage::provenance::testing::{SUM_UP_MULTIPLES, sum_up_multiples_events};
use serde_json::{Value, json};

mod common;
use common::nbsight_in as nbsight;

/// Writes `kernel`'s runs as a new session of the history at `path`.
fn write(kernel: &ScriptedKernel, path: &Path) {
    let mut history = History::open(path).expect("opens");
    let session = history
        .start_session(
            Some("/work/analysis.ipynb"),
            "3.13.1",
            "0.1.0",
            1_767_225_600.0,
        )
        .expect("a session");
    kernel.record(&mut history, session, 0, 0.125);
}

/// The events the recorder logs for `sumUpMultiples` over six numbers.
fn sum_up_events() -> Vec<Event> {
    sum_up_multiples_events("f", 6, 3)
}

/// A session: a value set, read, re-set; a failed run; `sumUpMultiples`
/// recorded; a run not recorded.
fn session() -> ScriptedKernel {
    let mut k = ScriptedKernel::default();
    k.run("a", "x = 1", false, None, &[]);
    k.run("b", "y = x + 1", false, None, &[]);
    k.run("a", "x = 2", false, None, &[]);
    k.run("c", "z = y + missing", true, None, &[]);
    k.run("d", "w = y * 2", false, None, &[]);
    k.run(
        "n",
        "numbers = [1, 2, 3, 4, 5, 6]",
        false,
        Some(Vec::new()),
        &[],
    );
    k.run("f", SUM_UP_MULTIPLES, false, Some(Vec::new()), &[]);
    let call = "factor = 3\ntotal = sumUpMultiples(numbers, factor)";
    k.run("t", call, false, Some(sum_up_events()), &[]);
    k.run("u", "u = total + 1", false, None, &[]);
    k
}

const CELLS: &[&str] = &["a", "b", "c", "d", "n", "f", "t", "u"];

/// A notebook folder with the session's history beside `analysis.ipynb`.
fn written() -> (tempfile::TempDir, ScriptedKernel) {
    let dir = tempfile::tempdir().expect("a folder");
    let kernel = session();
    write(&kernel, &dir.path().join(".nbsight/analysis.sqlite"));
    (dir, kernel)
}

/// Standard output with the folder shown as `[DIR]`.
fn stdout(dir: &Path, assert: &assert_cmd::assert::Assert) -> String {
    let text = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    text.replace(&dir.display().to_string(), "[DIR]")
}

fn stderr(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

fn json_of(dir: &Path, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let assert = nbsight(dir, &all).code(0);
    serde_json::from_str(&stdout(dir, &assert)).expect("stdout is JSON")
}

fn notebook(dir: &Path) -> PathBuf {
    dir.join("analysis.ipynb")
}

#[test]
fn history_text_report() {
    let (dir, _) = written();
    let nb = notebook(dir.path());
    let assert = nbsight(dir.path(), &["history", nb.to_str().unwrap()]).code(0);
    insta::assert_snapshot!(stdout(dir.path(), &assert));
}

#[test]
fn history_json_report_is_the_log() {
    let (dir, kernel) = written();
    // The database itself, a notebook and a folder name the same file.
    let db = dir.path().join(".nbsight/analysis.sqlite");
    let rows = json_of(dir.path(), &["history", db.to_str().unwrap()]);
    let rows = rows.as_array().expect("a list");
    assert_eq!(rows.len(), kernel.lineage.executions().len());
    for (row, e) in rows.iter().zip(kernel.lineage.executions()) {
        assert_eq!(row["cell"], json!(e.cell_id));
        assert_eq!(row["counter"], json!(e.counter));
        assert_eq!(row["status"], json!(if e.failed { "error" } else { "ok" }));
        assert_eq!(row["source"], json!(e.source));
        let writes: Vec<String> = e.writes.iter().map(|s| s.to_string()).collect();
        assert_eq!(row["writes"], json!(writes));
    }
    assert_eq!(rows[1]["reads"], json!([{"symbol": "x", "whole": true}]));
    assert_eq!(rows[1]["depends_on"], json!([0]));
    assert_eq!(rows[1]["time"], json!("2026-01-01T00:00:10.000Z"));
}

#[test]
fn slices_from_the_history_are_the_live_ones() {
    let (dir, kernel) = written();
    let nb = notebook(dir.path());
    let nb = nb.to_str().unwrap();
    for cell in CELLS {
        for forward in [false, true] {
            let mut args = vec!["slice", "--history", nb, "--cell", cell];
            if forward {
                args.push("--forward");
            }
            let report = json_of(dir.path(), &args);
            let live = if forward {
                kernel.lineage.forward_slice(cell)
            } else {
                kernel.lineage.backward_slice(cell)
            };
            assert_eq!(report["cells"], json!(live.expect("ran")), "{args:?}");
        }
    }
    let assert = nbsight(dir.path(), &["slice", "--history", nb, "--cell", "d"]).code(0);
    insta::assert_snapshot!(stdout(dir.path(), &assert), @r"
    backward slice of cell d in session 1 of [DIR]/.nbsight/analysis.sqlite
    cells: b, d
    ");
}

#[test]
fn provenance_from_the_history_is_the_live_one() {
    let (dir, mut kernel) = written();
    let nb = notebook(dir.path());
    let nb = nb.to_str().unwrap();
    for symbol in ["total", "numbers", "numbers[2]", "u", "x", "w"] {
        let report = json_of(dir.path(), &["provenance", nb, symbol]);
        let live = kernel.lineage.provenance(symbol).expect("bound");
        let refs = |list: &[nbsight_lineage::InputRef]| -> Value {
            list.iter()
                .map(|i| json!({"cell": i.cell, "symbol": i.symbol}))
                .collect()
        };
        assert_eq!(report["where"], refs(&live.where_), "{symbol}");
        assert_eq!(report["why"], refs(&live.why), "{symbol}");
        assert_eq!(report["files"], json!(live.files), "{symbol}");
        assert_eq!(report["recorded"], json!(live.recorded), "{symbol}");
    }
    let total = json_of(dir.path(), &["provenance", nb, "total"]);
    assert_eq!(
        total["where"],
        json!([
            {"cell": "n", "symbol": "numbers[2]"},
            {"cell": "n", "symbol": "numbers[5]"}
        ])
    );
    assert_eq!(total["last_set"]["cell"], json!("t"));
    let assert = nbsight(dir.path(), &["provenance", nb, "total"]).code(0);
    insta::assert_snapshot!(stdout(dir.path(), &assert));
    let assert = nbsight(dir.path(), &["provenance", nb, "u"]).code(0);
    insta::assert_snapshot!(stdout(dir.path(), &assert), @r"
    provenance of `u` at the end of session 1 of [DIR]/.nbsight/analysis.sqlite, last set by cell u (run [9] at 2026-01-01 00:01:20 UTC)
      not recorded: the run that computed it was not recorded, it is its own input
      where: u (cell u)
      why:   (none)
      files: (none)
    ");
}

#[test]
fn a_notebook_without_history_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().expect("a folder");
    let nb = notebook(dir.path());
    for args in [
        vec!["history", nb.to_str().unwrap()],
        vec!["slice", "--history", nb.to_str().unwrap(), "--cell", "a"],
        vec!["provenance", nb.to_str().unwrap(), "x"],
    ] {
        let assert = nbsight(dir.path(), &args).code(2);
        let err = stderr(&assert);
        assert!(err.contains("no history for"), "{err}");
        assert!(err.contains(".nbsight/analysis.sqlite"), "{err}");
        assert!(err.lines().count() == 1, "{err}");
    }
    let missing = dir.path().join("gone.sqlite");
    let assert = nbsight(dir.path(), &["history", missing.to_str().unwrap()]).code(2);
    assert!(stderr(&assert).contains("gone.sqlite: no such file"));
    // Nothing was created by reading.
    assert!(!dir.path().join(".nbsight").exists());
}

#[test]
fn a_bad_database_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().expect("a folder");
    let text = dir.path().join("notes.sqlite");
    std::fs::write(
        &text,
        "this is not a database, but long enough to have a header",
    )
    .unwrap();
    let garbage = text.to_str().unwrap();
    for args in [
        vec!["history", garbage],
        vec!["slice", "--history", garbage, "--cell", "a"],
        vec!["provenance", garbage, "x"],
    ] {
        let assert = nbsight(dir.path(), &args).code(2);
        let err = stderr(&assert);
        assert!(err.contains("notes.sqlite"), "{err}");
        assert!(err.contains("is not an nbsight history"), "{err}");
    }
    // An SQLite database of another program.
    let other = dir.path().join("other.db");
    let conn = rusqlite::Connection::open(&other).unwrap();
    conn.execute_batch("CREATE TABLE t (a INTEGER)").unwrap();
    drop(conn);
    let assert = nbsight(dir.path(), &["history", other.to_str().unwrap()]).code(2);
    let err = stderr(&assert);
    assert!(err.contains("other.db is not an nbsight history"), "{err}");
    // A history a newer nbsight wrote.
    let newer = dir.path().join("newer.sqlite");
    drop(History::open(&newer).unwrap());
    let conn = rusqlite::Connection::open(&newer).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let assert = nbsight(dir.path(), &["history", newer.to_str().unwrap()]).code(2);
    let err = stderr(&assert);
    assert!(
        err.contains("newer.sqlite has history schema version 99"),
        "{err}"
    );
}

#[test]
fn unknown_cells_sessions_and_symbols_are_errors() {
    let (dir, _) = written();
    let nb = notebook(dir.path());
    let nb = nb.to_str().unwrap();
    let assert = nbsight(dir.path(), &["slice", "--history", nb, "--cell", "zz"]).code(2);
    assert!(stderr(&assert).contains("cell `zz` never ran in the history"));
    let assert = nbsight(dir.path(), &["history", nb, "--session", "4"]).code(2);
    assert!(stderr(&assert).contains("no session 4 in the history"));
    let assert = nbsight(dir.path(), &["provenance", nb, "nope"]).code(2);
    let err = stderr(&assert);
    assert!(
        err.contains("`nope` was not bound at the end of any session of the history"),
        "{err}"
    );
    assert!(err.contains("analysis.sqlite"), "{err}");
}
