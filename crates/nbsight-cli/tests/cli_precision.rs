//! End to end, the classes of false findings and misses of issue 22 (a
//! precision audit on notebooks nbsight was not developed on): each fixture
//! under `tests/fixtures/precision/` holds positive and negative cases of one
//! class, and its manifest (`expected.json`) lists the rules to select and the
//! exact findings (code and cell) `nbsight check` must print for them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/precision")
        .canonicalize()
        .expect("fixture directory")
}

fn manifest() -> serde_json::Map<String, Value> {
    let text = std::fs::read_to_string(fixtures().join("expected.json")).expect("manifest");
    let manifest: Value = serde_json::from_str(&text).expect("manifest is JSON");
    manifest.as_object().expect("an object").clone()
}

/// `nbsight check --select RULES --format json FILE`: the findings' (code,
/// cell), and their messages.
fn check(file: &Path, rules: &str) -> (BTreeSet<(String, u64)>, Vec<String>) {
    let output = Command::cargo_bin("nbsight")
        .expect("binary built")
        .env_remove("NBSIGHT_EFFECTS")
        .args([
            "check",
            "--no-progress",
            "--format",
            "json",
            "--select",
            rules,
        ])
        .arg(file)
        .output()
        .expect("nbsight runs");
    let code = output.status.code().expect("exit code");
    assert!(code == 0 || code == 1, "{file:?}: exit {code}");
    let findings: Value = serde_json::from_slice(&output.stdout).expect("JSON findings");
    let findings = findings.as_array().expect("a list");
    let keys = findings
        .iter()
        .map(|f| {
            (
                f["code"].as_str().expect("code").to_string(),
                f["cell"].as_u64().expect("cell"),
            )
        })
        .collect();
    let messages = findings
        .iter()
        .map(|f| format!("cell {} {}: {}", f["cell"], f["code"], f["message"]))
        .collect();
    (keys, messages)
}

#[test]
fn every_precision_fixture_gives_exactly_the_expected_findings() {
    let entries = manifest();
    assert!(entries.len() >= 15, "the manifest lists the fixtures");
    let mut failures = Vec::new();
    for (file, entry) in &entries {
        let rules: Vec<&str> = entry["rules"]
            .as_array()
            .expect("rules")
            .iter()
            .map(|r| r.as_str().expect("a rule"))
            .collect();
        let want: BTreeSet<(String, u64)> = entry["expect"]
            .as_array()
            .expect("expect")
            .iter()
            .map(|e| {
                (
                    e["code"].as_str().expect("code").to_string(),
                    e["cell"].as_u64().expect("cell"),
                )
            })
            .collect();
        let (got, messages) = check(&fixtures().join(file), &rules.join(","));
        if got != want {
            failures.push(format!(
                "{file}: expected {want:?}, got {got:?}\n    {}",
                messages.join("\n    ")
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_fixture_has_a_positive_and_every_class_a_negative_case() {
    let entries = manifest();
    let on_disk: BTreeSet<String> = std::fs::read_dir(fixtures())
        .expect("fixture directory")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".ipynb"))
        .collect();
    let listed: BTreeSet<String> = entries.keys().cloned().collect();
    assert_eq!(on_disk, listed, "the manifest lists every fixture");
    // A fixture with no expected finding is a negative case; the others mix
    // positives with negatives in the same notebook.
    let negatives = entries
        .values()
        .filter(|e| e["expect"].as_array().is_some_and(|x| x.is_empty()))
        .count();
    assert!(negatives >= 5 && negatives < entries.len());
}

#[test]
fn first_defined_below_names_a_cell_that_defines_the_name() {
    let file = fixtures().join("undefined_first_defined_below.ipynb");
    let (_, messages) = check(&file, "undefined-on-run-all");
    // `rate` is changed in place by cell 2 (which reads it) and bound by
    // cell 3; `scale` is only deleted below, so no cell below defines it.
    let expected = [
        "cell 0 \"NBS001\": \"reads `rate`, first defined below in cell 3:",
        "cell 0 \"NBS001\": \"reads `scale`, which no cell defines",
        "cell 2 \"NBS001\": \"reads `rate`, first defined below in cell 3:",
    ];
    assert_eq!(messages.len(), expected.len(), "{messages:?}");
    for (message, start) in messages.iter().zip(expected) {
        assert!(
            message.starts_with(start),
            "{message} does not start with {start}"
        );
    }
}
