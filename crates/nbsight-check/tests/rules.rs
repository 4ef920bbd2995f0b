//! One test per rule on small notebooks (`tests/fixtures/`): the
//! manifest `expected.json` lists, for each notebook, the rules to enable and
//! the exact findings (rule name and cell) they must produce. The manifest is
//! checked against the registry: every rule it names exists, and every rule
//! of `nbsight check` has a fixture it reports.

mod common;

use std::path::{Path, PathBuf};

use nbsight_check::{Rule, RuleSet, check_notebook};
use nbsight_dataflow::Effects;
use nbsight_notebook::load_path;
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn manifest() -> serde_json::Map<String, Value> {
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("expected.json")).expect("manifest exists"),
    )
    .expect("manifest is JSON");
    manifest.as_object().expect("manifest is an object").clone()
}

fn rules_of(entry: &Value) -> RuleSet {
    let names: Vec<&str> = entry["rules"]
        .as_array()
        .expect("rules is a list")
        .iter()
        .map(|r| r.as_str().expect("rule names are strings"))
        .collect();
    if names == ["ALL-DEFAULT"] {
        return RuleSet::default();
    }
    RuleSet::from_rules(
        names
            .iter()
            .map(|n| Rule::from_name(n).expect("known rule")),
    )
}

#[test]
fn every_fixture_gives_exactly_the_expected_findings() {
    let entries = manifest();
    let effects = Effects::builtin();
    let mut failures = Vec::new();
    assert!(entries.len() >= 25, "the manifest lists the fixtures");
    for (file, entry) in &entries {
        let notebook = load_path(&fixtures().join(file)).expect("fixture loads");
        let findings = check_notebook(&notebook, &effects, rules_of(entry)).findings;
        let got = common::found(&findings);
        let want = common::expected(entry);
        if got != want {
            failures.push(format!(
                "{file}: expected {want:?}, got {got:?}\n{}",
                common::describe(&findings)
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn the_manifest_agrees_with_the_registry() {
    let entries = manifest();
    let mut failures = Vec::new();
    for (file, entry) in &entries {
        let named = entry["rules"]
            .as_array()
            .expect("rules is a list")
            .iter()
            .chain(entry["expect"].as_array().expect("expect is a list"))
            .map(|r| {
                r.as_str()
                    .or_else(|| r["name"].as_str())
                    .expect("a rule name")
            });
        for name in named {
            let known = name == "ALL-DEFAULT" || Rule::from_name(name).is_some();
            if !known {
                failures.push(format!("{file}: unknown rule `{name}`"));
            }
        }
        if !fixtures().join(file).is_file() {
            failures.push(format!("{file}: no such fixture"));
        }
    }
    for rule in Rule::ALL.into_iter().filter(|r| r.is_check_rule()) {
        let reported = entries.values().any(|entry| {
            entry["expect"]
                .as_array()
                .is_some_and(|e| e.iter().any(|f| f["name"] == rule.name()))
        });
        if !reported {
            failures.push(format!(
                "{} has no fixture in expected.json that reports it",
                rule.name()
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
