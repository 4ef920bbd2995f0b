//! End-to-end tests of `nbsight scan` (issue 35): every input kind gives a
//! status row per notebook and, per notebook, the findings `nbsight check`
//! gives on the notebook as a file; a scan killed (SIGKILL) at any point and
//! resumed ends with the rows of an uninterrupted one; the usage errors.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use assert_cmd::Command;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::properties::WriterProperties;
use serde_json::Value;

mod common;
use common::{nbsight_in as nbsight, repo};

/// The leakage suite and the precision fixtures: notebooks with findings
/// of most rules, `(name, text)`, sorted.
fn notebooks() -> Vec<(String, String)> {
    let mut found = Vec::new();
    for dir in [
        "crates/nbsight-check/tests/fixtures/leakage_suite",
        "tests/fixtures/precision",
    ] {
        for entry in std::fs::read_dir(repo().join(dir)).expect("fixtures") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "ipynb") {
                let name = path.file_name().unwrap().to_string_lossy().to_string();
                found.push((name, std::fs::read_to_string(&path).expect("read")));
            }
        }
    }
    found.sort();
    // One notebook per name (the files of both folders are written to one).
    found.dedup_by(|a, b| a.0 == b.0);
    assert!(found.len() > 60, "{} fixtures", found.len());
    found
}

/// A finding as compared: `(code, message, cell, line, column, path)`.
type Key = (String, String, i64, i64, i64, String);

fn key(v: &Value) -> Key {
    (
        v["code"].as_str().unwrap_or_default().to_string(),
        v["message"].as_str().unwrap_or_default().to_string(),
        v["cell"].as_i64().unwrap_or(-1),
        v["line"].as_i64().unwrap_or(-1),
        v["column"].as_i64().unwrap_or(-1),
        v["path"].to_string(),
    )
}

/// `nbsight check --output-format json` on each notebook written out as a
/// file, by name.
fn check_each(dir: &Path, notebooks: &[(String, String)]) -> BTreeMap<String, Vec<Key>> {
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    let mut by_name = BTreeMap::new();
    for (name, text) in notebooks {
        std::fs::write(files.join(name), text).unwrap();
        by_name.insert(name.clone(), Vec::new());
    }
    let out = Command::cargo_bin("nbsight")
        .unwrap()
        .current_dir(&files)
        .args(["check", ".", "--output-format", "json", "--exit-zero", "-q"])
        .output()
        .unwrap();
    let findings: Vec<Value> = serde_json::from_slice(&out.stdout).expect("check's JSON");
    for f in &findings {
        let name = f["file"]
            .as_str()
            .unwrap()
            .trim_start_matches("./")
            .to_string();
        by_name.get_mut(&name).expect("a known file").push(key(f));
    }
    for keys in by_name.values_mut() {
        keys.sort();
    }
    by_name
}

/// The rows of a JSON Lines table.
fn jsonl_rows(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON row"))
        .collect()
}

/// The rows of a Parquet table as JSON values.
fn parquet_rows(path: &Path) -> Vec<Value> {
    let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        let mut buf = Vec::new();
        let mut writer = arrow_json::LineDelimitedWriter::new(&mut buf);
        writer.write(&batch).unwrap();
        writer.finish().unwrap();
        drop(writer);
        rows.extend(
            String::from_utf8(buf)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap()),
        );
    }
    rows
}

/// Findings of a scan's findings rows, by id.
fn findings_by_id(rows: &[Value]) -> BTreeMap<String, Vec<Key>> {
    let mut by_id: BTreeMap<String, Vec<Key>> = BTreeMap::new();
    for row in rows {
        by_id
            .entry(row["id"].as_str().unwrap().to_string())
            .or_default()
            .push(key(row));
    }
    for keys in by_id.values_mut() {
        keys.sort();
    }
    by_id
}

fn write_parquet(path: &Path, ids: &[&str], contents: &[Option<&str>], row_group: usize) {
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Utf8, false),
        Field::new("content", DataType::Utf8, true),
    ]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(StringArray::from(ids.to_vec())) as ArrayRef,
            Arc::new(StringArray::from(contents.to_vec())),
        ],
    )
    .unwrap();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(row_group))
        .build();
    let mut writer =
        ArrowWriter::try_new(File::create(path).unwrap(), schema, Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
}

/// An input, its extra arguments, its bad rows, and the fixture name of
/// an id.
type Run<'a> = (&'a str, Vec<&'a str>, usize, &'a dyn Fn(&str) -> String);

#[test]
fn every_input_kind_gives_a_status_per_notebook_and_checks_findings() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let notebooks = notebooks();
    let expected = check_each(root, &notebooks);
    assert!(
        expected.values().any(|f| !f.is_empty()),
        "the fixtures have findings"
    );

    // A folder of notebooks: ids are paths relative to it.
    let folder = root.join("folder/sub");
    std::fs::create_dir_all(&folder).unwrap();
    for (name, text) in &notebooks {
        std::fs::write(folder.join(name), text).unwrap();
    }
    // JSON Lines: the notebook itself, and wrapped (as JSON text) with an
    // id; plus lines that are not notebooks.
    let mut plain = String::new();
    let mut wrapped = String::new();
    for (name, text) in &notebooks {
        let value: Value = serde_json::from_str(text).unwrap();
        plain.push_str(&serde_json::to_string(&value).unwrap());
        plain.push('\n');
        let row = serde_json::json!({"key": name, "nb": text});
        wrapped.push_str(&serde_json::to_string(&row).unwrap());
        wrapped.push('\n');
    }
    wrapped.push_str("{\"key\": \"broken\", \"nb\": \"{\\\"cells\\\": [\"}\n{not json\n\n");
    std::fs::write(root.join("plain.jsonl"), &plain).unwrap();
    std::fs::write(root.join("wrapped.jsonl"), &wrapped).unwrap();
    let mut gz = flate2::write::GzEncoder::new(
        File::create(root.join("wrapped.jsonl.gz")).unwrap(),
        flate2::Compression::default(),
    );
    gz.write_all(wrapped.as_bytes()).unwrap();
    gz.finish().unwrap();
    // Parquet: two files, several row groups, a null and a broken row.
    let tables = root.join("tables");
    std::fs::create_dir_all(&tables).unwrap();
    let (first, second) = notebooks.split_at(notebooks.len() / 2);
    for (file, part) in [("a.parquet", first), ("b.parquet", second)] {
        let mut ids: Vec<&str> = part.iter().map(|(n, _)| n.as_str()).collect();
        let mut contents: Vec<Option<&str>> = part.iter().map(|(_, t)| Some(t.as_str())).collect();
        if file == "b.parquet" {
            ids.extend(["null", "broken"]);
            contents.extend([None, Some("{\"cells\": [")]);
        }
        write_parquet(&tables.join(file), &ids, &contents, 7);
    }

    let runs: [Run<'_>; 4] = [
        ("folder", vec![], 0, &|id: &str| {
            id.trim_start_matches("sub/").to_string()
        }),
        ("plain.jsonl", vec![], 0, &|_: &str| String::new()),
        (
            "wrapped.jsonl.gz",
            vec!["--notebook-field", "nb", "--id-field", "key"],
            2,
            &|id: &str| id.to_string(),
        ),
        ("tables", vec![], 2, &|id: &str| id.to_string()),
    ];
    for (input, extra, bad, name_of) in runs {
        let out = root.join(format!("out-{input}"));
        let mut args = vec![
            "scan",
            input,
            "-o",
            out.to_str().unwrap(),
            "--format",
            "jsonl",
        ];
        args.extend(extra);
        nbsight(root, &args).success();
        let status = jsonl_rows(&out.join("status.jsonl"));
        assert_eq!(
            status.len(),
            notebooks.len() + bad,
            "{input}: a row per notebook"
        );
        let unreadable = status
            .iter()
            .filter(|r| r["status"] == "unreadable")
            .count();
        assert_eq!(unreadable, bad, "{input}: {status:?}");
        for row in &status {
            assert_eq!(row["message"].is_null(), row["status"] == "ok", "{row}");
            assert!(row["seconds"].as_f64().is_some_and(|s| s >= 0.0));
        }
        let got = findings_by_id(&jsonl_rows(&out.join("findings.jsonl")));
        if input == "plain.jsonl" {
            // Ids are FILE:LINE, in the notebooks' order.
            let mut all: Vec<Key> = got.values().flatten().cloned().collect();
            let mut want: Vec<Key> = expected.values().flatten().cloned().collect();
            all.sort();
            want.sort();
            assert_eq!(all, want, "{input}");
            assert!(status[0]["id"].as_str().unwrap().ends_with("plain.jsonl:1"));
            continue;
        }
        for (id, findings) in &got {
            let name = name_of(id);
            assert_eq!(Some(findings), expected.get(&name), "{input}: {id}");
        }
        let with_findings = expected.values().filter(|f| !f.is_empty()).count();
        assert_eq!(got.len(), with_findings, "{input}");
    }
}

fn status_parts(out: &Path) -> usize {
    std::fs::read_dir(out.join("parts"))
        .map(|d| {
            d.flatten()
                .filter(|e| {
                    let name = e.file_name().to_string_lossy().to_string();
                    name.starts_with("status-") && name.ends_with(".parquet")
                })
                .count()
        })
        .unwrap_or(0)
}

/// The rows of a scan's tables, as compared (status without `seconds`).
fn scan_rows(out: &Path) -> (Vec<String>, Vec<String>) {
    let status = parquet_rows(&out.join("status.parquet"))
        .into_iter()
        .map(|mut r| {
            r.as_object_mut().unwrap().remove("seconds");
            r.to_string()
        })
        .collect();
    let findings = parquet_rows(&out.join("findings.parquet"))
        .into_iter()
        .map(|r| r.to_string())
        .collect();
    (status, findings)
}

#[test]
fn a_killed_scan_resumes_to_the_rows_of_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // 4 copies of each fixture (ids repeat: each occurrence is a row).
    let notebooks = notebooks();
    let mut lines = String::new();
    for copy in 0..4 {
        for (name, text) in &notebooks {
            let id = if copy == 3 {
                name.clone()
            } else {
                format!("{copy}/{name}")
            };
            let row = serde_json::json!({"id": id, "notebook": text});
            lines.push_str(&row.to_string());
            lines.push('\n');
        }
    }
    std::fs::write(root.join("corpus.jsonl"), &lines).unwrap();
    let args = |out: &str| -> Vec<String> {
        [
            "scan",
            "corpus.jsonl",
            "-o",
            out,
            "--notebook-field",
            "notebook",
            "--commit-every",
            "3",
            "--threads",
            "2",
        ]
        .map(String::from)
        .to_vec()
    };
    nbsight(
        root,
        &args("whole").iter().map(String::as_str).collect::<Vec<_>>(),
    )
    .success();
    let whole = scan_rows(&root.join("whole"));
    assert_eq!(whole.0.len(), notebooks.len() * 4);

    // Killed after a few parts, after many, and twice in one scan.
    for (case, kills) in [("few", vec![2]), ("many", vec![40]), ("twice", vec![5, 30])] {
        let out = format!("resumed-{case}");
        for (i, at) in kills.iter().enumerate() {
            let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("nbsight"));
            cmd.current_dir(root).args(args(&out)).stderr(Stdio::null());
            if i > 0 {
                cmd.arg("--resume");
            }
            let mut child = cmd.spawn().unwrap();
            // Waits for the parts (no timing asserted: where the kill lands
            // must not matter).
            while status_parts(&root.join(&out)) < *at && child.try_wait().unwrap().is_none() {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            child.kill().unwrap();
            child.wait().unwrap();
        }
        let mut resume = args(&out);
        resume.push("--resume".to_string());
        nbsight(root, &resume.iter().map(String::as_str).collect::<Vec<_>>()).success();
        assert_eq!(scan_rows(&root.join(&out)), whole, "{case}");
        // Resuming a finished scan changes nothing.
        nbsight(root, &resume.iter().map(String::as_str).collect::<Vec<_>>())
            .success()
            .stderr(predicates::str::contains("scanned 0 notebooks"));
        assert_eq!(scan_rows(&root.join(&out)), whole, "{case}, again");
    }
}

#[test]
fn usage_errors_name_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_parquet(&root.join("t.parquet"), &["a"], &[Some("{}")], 10);
    nbsight(root, &["scan", "t.parquet", "-o", "out", "--column", "nb"])
        .code(2)
        .stderr(predicates::str::contains("no column `nb`"))
        .stderr(predicates::str::contains("content (Utf8)"));
    nbsight(root, &["scan", "missing.jsonl", "-o", "out"])
        .code(2)
        .stderr(predicates::str::contains("missing.jsonl: no such file"));
    nbsight(root, &["scan", "t.parquet", "-o", "out"]).success();
    nbsight(root, &["scan", "t.parquet", "-o", "out"])
        .code(2)
        .stderr(predicates::str::contains("--resume"));
    nbsight(
        root,
        &[
            "scan",
            "t.parquet",
            "-o",
            "out",
            "--resume",
            "--select",
            "NBS001",
        ],
    )
    .code(2)
    .stderr(predicates::str::contains("different scan"));
    let status = parquet_rows(&root.join("out/status.parquet"));
    assert_eq!(status.len(), 1);
    assert_eq!(status[0]["status"], "unreadable");
    let first = status[0]["message"].as_str().unwrap();
    assert!(first.contains("not a Jupyter notebook"), "{first}");
}

/// `nbsight ARGS` run in `dir`, its stdout as JSON.
fn json_of(dir: &Path, args: &[&str]) -> Value {
    let out = Command::cargo_bin("nbsight")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn the_other_analyses_give_the_answers_of_their_commands() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let corpus = root.join("nbs");
    std::fs::create_dir_all(&corpus).unwrap();
    let names = [
        "examples/passengers.ipynb",
        "examples/churn_leak.ipynb",
        "examples/nblyzer_figure1.ipynb",
    ];
    for name in names {
        std::fs::copy(
            repo().join(name),
            corpus.join(Path::new(name).file_name().unwrap()),
        )
        .unwrap();
    }
    let table = |analysis: &str, name: &str| -> Vec<Value> {
        let out = format!("out-{analysis}");
        nbsight(
            root,
            &[
                "scan",
                "nbs",
                "-o",
                &out,
                "--analysis",
                analysis,
                "--format",
                "jsonl",
            ],
        )
        .success();
        let status = jsonl_rows(&root.join(&out).join("status.jsonl"));
        assert_eq!(status.len(), names.len(), "{analysis}");
        jsonl_rows(&root.join(&out).join(format!("{name}.jsonl")))
    };
    let cells = table("cells", "cells");
    let flows = table("flow", "flows");
    let events = table("whatif", "events");
    let slices = table("slice", "slices");
    for name in names {
        let file = Path::new(name).file_name().unwrap().to_str().unwrap();
        let path = format!("nbs/{file}");
        let of = |rows: &[Value]| -> Vec<Value> {
            rows.iter().filter(|r| r["id"] == file).cloned().collect()
        };
        let expected = json_of(root, &["cells", &path, "--format", "json"]);
        let got = of(&cells);
        let want = expected["cells"].as_array().unwrap();
        assert_eq!(got.len(), want.len(), "{file}: a row per cell");
        for (g, w) in got.iter().zip(want) {
            for key in ["uses", "defs", "dead", "mutated"] {
                assert_eq!(g[key], w[key], "{file}: cell {}: {key}", w["index"]);
            }
            assert_eq!(g["cell"], w["index"]);
        }
        let expected = json_of(root, &["flow", &path, "--format", "json"]);
        let mut want: Vec<String> = expected["flows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| format!("{} {} {}", f["from"], f["to"], f["symbol"]))
            .collect();
        let mut got: Vec<String> = of(&flows)
            .iter()
            .map(|f| format!("{} {} {}", f["from"], f["to"], f["symbol"]))
            .collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{file}: flows");
        for row in of(&events) {
            let event = match row["cell"].as_u64() {
                Some(cell) => vec!["--execute".to_string(), cell.to_string()],
                None => vec!["--open".to_string()],
            };
            let mut args = vec!["whatif", &path, "--format", "json"];
            args.extend(event.iter().map(String::as_str));
            let want = json_of(root, &args);
            for key in ["impacted", "findings", "rerun_plan", "safe_next"] {
                let n = want[key].as_array().unwrap().len();
                assert_eq!(row[key], n, "{file}: {event:?}: {key}");
            }
        }
        for row in of(&slices) {
            let cell = row["cell"].to_string();
            for (direction, prefix) in [(None, "backward"), (Some("--forward"), "forward")] {
                let mut args = vec![
                    "slice",
                    &path,
                    "--cell",
                    &cell,
                    "--statements",
                    "--format",
                    "json",
                ];
                args.extend(direction);
                let want = json_of(root, &args);
                assert_eq!(
                    row[format!("{prefix}_statements")],
                    want["statements_in_slice"],
                    "{file}: cell {cell} {prefix}"
                );
                assert_eq!(row[format!("{prefix}_ratio")], want["ratio"]);
            }
        }
    }
    assert!(!events.is_empty() && !slices.is_empty() && !flows.is_empty());
}

#[test]
fn damaged_files_still_give_a_row_per_notebook_they_can_tell_apart() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let notebooks: Vec<(String, String)> = notebooks().into_iter().take(21).collect();
    let ids: Vec<&str> = notebooks.iter().map(|(n, _)| n.as_str()).collect();
    let texts: Vec<Option<&str>> = notebooks.iter().map(|(_, t)| Some(t.as_str())).collect();
    let path = root.join("damaged.parquet");
    write_parquet(&path, &ids, &texts, 7);
    // Bytes in the middle of the data (the footer stays whole).
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    for b in &mut bytes[middle..middle + 64] {
        *b = 0xff;
    }
    std::fs::write(&path, bytes).unwrap();
    nbsight(
        root,
        &["scan", "damaged.parquet", "-o", "out", "--format", "jsonl"],
    )
    .success();
    let status = jsonl_rows(&root.join("out/status.jsonl"));
    assert_eq!(status.len(), 21, "{status:?}");
    assert!(status.iter().any(|r| r["status"] == "ok"));
    assert!(
        status.iter().any(|r| r["status"] == "unreadable"),
        "{status:?}"
    );

    // A gzip stream cut short: the lines before the cut, then one row
    // saying the rest could not be read.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    for (_, text) in &notebooks {
        let value: Value = serde_json::from_str(text).unwrap();
        writeln!(gz, "{}", serde_json::to_string(&value).unwrap()).unwrap();
    }
    let mut bytes = gz.finish().unwrap();
    bytes.truncate(bytes.len() * 2 / 3);
    std::fs::write(root.join("cut.jsonl.gz"), bytes).unwrap();
    nbsight(
        root,
        &["scan", "cut.jsonl.gz", "-o", "cut", "--format", "jsonl"],
    )
    .success();
    let status = jsonl_rows(&root.join("cut/status.jsonl"));
    let last = status.last().unwrap();
    assert_eq!(last["status"], "unreadable");
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .contains("the rest of the file was not scanned")
    );
    assert!(status.len() > 1 && status.len() < 21, "{}", status.len());
}
