//! The labeled leakage suite (`tests/fixtures/leakage_suite/`, written by
//! its `generate.py`): small notebooks of each leakage class, positive and
//! negative (the recommended practice), each with the exact findings
//! (rule, cell) the three leakage rules must give. Every case must hold;
//! the per-rule table of true and false positives, misses, precision and
//! recall is printed (`cargo test -p nbsight-check --test leakage_suite --
//! --nocapture`).

#![allow(clippy::print_stdout, clippy::print_stderr)] // a test says what it compared or skipped

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use nbsight_check::{Rule, RuleSet, check_notebook};
use nbsight_dataflow::Effects;
use nbsight_notebook::load_path;
use serde_json::Value;

const RULES: [&str; 3] = [
    "preprocessing-leakage",
    "overlap-leakage",
    "multi-test-leakage",
];

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/leakage_suite")
}

#[derive(Default)]
struct Counts {
    tp: usize,
    fp: usize,
    fn_: usize,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 1.0 } else { a as f64 / b as f64 }
}

#[test]
fn every_leakage_case_gives_exactly_its_findings() {
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(suite().join("expected.json")).expect("manifest exists"),
    )
    .expect("manifest is JSON");
    let cases = manifest.as_object().expect("manifest is an object");
    assert!(cases.len() >= 40, "the suite lists its cases");
    let rules = RuleSet::from_rules(
        RULES
            .iter()
            .map(|n| Rule::from_name(n).expect("known rule")),
    );
    let effects = Effects::builtin();
    let mut counts: BTreeMap<&str, Counts> =
        RULES.iter().map(|r| (*r, Counts::default())).collect();
    let mut failures = Vec::new();
    for (file, case) in cases {
        let notebook = load_path(&suite().join(file)).expect("case loads");
        let findings = check_notebook(&notebook, &effects, rules).findings;
        let got = common::found(&findings);
        // One finding per rule and cell, whatever other findings sit
        // between two alarms of a rule in a cell.
        if got.len() != findings.len() {
            failures.push(format!(
                "{file}: more than one finding of a rule in a cell\n{}",
                common::describe(&findings)
            ));
        }
        let want = common::expected(case);
        for rule in RULES {
            let c = counts.get_mut(rule).expect("rule counted");
            let of = |s: &BTreeSet<(String, usize)>| -> BTreeSet<usize> {
                s.iter()
                    .filter(|(r, _)| r == rule)
                    .map(|(_, c)| *c)
                    .collect()
            };
            let (g, w) = (of(&got), of(&want));
            c.tp += g.intersection(&w).count();
            c.fp += g.difference(&w).count();
            c.fn_ += w.difference(&g).count();
        }
        // Cells an expected finding must name in its path.
        for e in case["expect"].as_array().into_iter().flatten() {
            let Some(names) = e["names"].as_array() else {
                continue;
            };
            let (name, cell) = (e["name"].as_str(), e["cell"].as_u64());
            let path = findings
                .iter()
                .find(|f| Some(f.name()) == name && Some(f.cell.index() as u64) == cell)
                .map(|f| f.path.iter().map(|c| c.index() as u64).collect::<Vec<_>>());
            let missing: Vec<_> = names
                .iter()
                .filter_map(Value::as_u64)
                .filter(|n| !path.as_ref().is_some_and(|p| p.contains(n)))
                .collect();
            if !missing.is_empty() {
                failures.push(format!(
                    "{file}: the finding of {name:?} at cell {cell:?} does not name cells {missing:?} (path {path:?})"
                ));
            }
        }
        if got != want {
            failures.push(format!(
                "{file}: expected {want:?}, got {got:?} ({})\n{}",
                case["why"].as_str().unwrap_or(""),
                common::describe(&findings)
            ));
        }
    }
    println!(
        "\n{:<24} {:>4} {:>4} {:>4} {:>9} {:>7}",
        "rule", "TP", "FP", "FN", "precision", "recall"
    );
    for (rule, c) in &counts {
        println!(
            "{rule:<24} {:>4} {:>4} {:>4} {:>9.2} {:>7.2}",
            c.tp,
            c.fp,
            c.fn_,
            ratio(c.tp, c.tp + c.fp),
            ratio(c.tp, c.tp + c.fn_)
        );
    }
    println!("{} cases, {} failing", cases.len(), failures.len());
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
