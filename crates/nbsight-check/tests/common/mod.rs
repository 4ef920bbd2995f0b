//! What the fixture tests share: a manifest entry's expected findings and
//! the findings a check gave, both as (rule name, cell) pairs, and the
//! findings spelt out for a failure message.

use std::collections::BTreeSet;

use nbsight_check::Finding;
use serde_json::Value;

/// The `expect` list of a manifest entry (`[{"name", "cell"}]`).
pub(crate) fn expected(entry: &Value) -> BTreeSet<(String, usize)> {
    entry["expect"]
        .as_array()
        .expect("expect is a list")
        .iter()
        .map(|e| {
            (
                e["name"].as_str().expect("name").to_string(),
                e["cell"].as_u64().expect("cell") as usize,
            )
        })
        .collect()
}

/// The (rule name, cell) of each finding.
pub(crate) fn found(findings: &[Finding]) -> BTreeSet<(String, usize)> {
    findings
        .iter()
        .map(|f| (f.name().to_string(), f.cell.index()))
        .collect()
}

/// The findings, one per line, for a failure message.
pub(crate) fn describe(findings: &[Finding]) -> String {
    findings
        .iter()
        .map(|f| format!("    cell {} {}: {}", f.cell, f.name(), f.message))
        .collect::<Vec<_>>()
        .join("\n")
}
