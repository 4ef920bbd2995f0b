//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF
//! viewers.
//!
//! Hand-built with a few serde structs rather than the `serde-sarif` crate:
//! that crate generates the whole SARIF object model at build time (a build
//! script running `schemafy_lib`, `syn` and `prettyplease` over the schema)
//! and adds `strum` and `typed-builder`, for the dozen fields written here.
//!
//! A result's region is where the flagged source sits in the file as stored:
//! in a percent script the script's line and column, in an `.ipynb` file the
//! line of the JSON text holding the flagged source line and the column of
//! the flagged character on it (so code scanning shows the alert on that
//! line of the file); the cell, cell line and column are in the message
//! (`cell 5, line 3: ...`) and in the result's `properties` (`cell`,
//! `cellLine`, `cellColumn`, `cellId`, `path`). Addresses are relative to
//! `%SRCROOT%` (the directory the run started in, given in
//! `originalUriBaseIds`) when the file is under it. Rules carry their
//! documentation as help text. Inputs that could not be read and cells that
//! could not be parsed are `toolExecutionNotifications` of the run's
//! invocation, which is then not successful.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Component, Path};

use nbsight_check::Rule;
use nbsight_notebook::CellIndex;
use nbsight_notebook::Severity;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::report::{Located, Report};

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
pub const VERSION: &str = "2.1.0";

/// The workspace's `repository` when the package inherits it, else the
/// workspace's value written out.
const INFORMATION_URI: &str = if env!("CARGO_PKG_REPOSITORY").is_empty() {
    "https://example.invalid/nbsight"
} else {
    env!("CARGO_PKG_REPOSITORY")
};

/// The key of the fingerprint in `partialFingerprints`.
const FINGERPRINT_KEY: &str = "nbsightFindingHash/v2";

/// The base of relative artifact URIs.
const SRCROOT: &str = "%SRCROOT%";

#[derive(Debug, Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    original_uri_base_ids: BTreeMap<&'static str, BaseUri>,
    column_kind: &'static str,
    invocations: [Invocation; 1],
    results: Vec<SarifResult<'a>>,
}

#[derive(Debug, Serialize)]
struct BaseUri {
    uri: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Notification {
    level: &'static str,
    message: Text,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    locations: Vec<Location>,
}

#[derive(Debug, Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    information_uri: &'static str,
    version: &'static str,
    rules: Vec<RuleDescriptor>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleDescriptor {
    id: &'static str,
    name: &'static str,
    short_description: Text,
    full_description: Text,
    help: Help,
    default_configuration: Configuration,
}

#[derive(Debug, Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Debug, Serialize)]
struct Configuration {
    level: &'static str,
    enabled: bool,
}

#[derive(Debug, Serialize)]
struct Text {
    text: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: Text,
    locations: [Location; 1],
    partial_fingerprints: BTreeMap<&'static str, String>,
    properties: Properties<'a>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Properties<'a> {
    /// The 0-based cell position; 1-based line and column in the cell.
    cell: usize,
    cell_line: usize,
    cell_column: usize,
    cell_id: &'a str,
    /// Serialized as their 0-based numbers.
    path: &'a [CellIndex],
}

/// SARIF's `level` for a severity.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The rules `nbsight check` runs, in `ruleIndex` order.
fn check_rules() -> Vec<Rule> {
    Rule::ALL
        .into_iter()
        .filter(|r| r.is_check_rule())
        .collect()
}

/// The SARIF log of `report`; URIs are relative to `base` (the current
/// directory, `%SRCROOT%`).
pub fn render(report: &Report, base: Option<&Path>) -> serde_json::Result<String> {
    let rules = check_rules()
        .iter()
        .map(|rule| {
            let doc = rule.doc();
            RuleDescriptor {
                id: rule.code(),
                name: rule.name(),
                short_description: Text {
                    text: rule.summary().to_string(),
                },
                full_description: Text {
                    text: rule.summary().to_string(),
                },
                help: Help {
                    text: doc.clone(),
                    markdown: doc,
                },
                default_configuration: Configuration {
                    level: level(rule.severity()),
                    enabled: rule.enabled_by_default(),
                },
            }
        })
        .collect();
    let results = report
        .findings
        .iter()
        .map(|located| result(located, base))
        .collect();
    let mut notifications: Vec<Notification> = report
        .unreadable
        .iter()
        .map(|message| Notification {
            level: "error",
            message: Text {
                text: message.clone(),
            },
            locations: Vec::new(),
        })
        .collect();
    notifications.extend(report.problems.iter().map(|problem| {
        let d = &problem.diagnostic;
        Notification {
            level: if problem.is_error() {
                "error"
            } else {
                "warning"
            },
            message: Text {
                text: problem.to_string(),
            },
            locations: vec![Location {
                physical_location: PhysicalLocation {
                    artifact_location: artifact_location(&d.path.to_string_lossy(), base),
                    region: Region {
                        start_line: problem.file_line.map_or(1, |l| l.get()),
                        start_column: problem.file_column.map_or(1, |c| c.get()),
                    },
                },
            }],
        }
    }));
    let original_uri_base_ids = base
        .map(|base| {
            BTreeMap::from([(
                SRCROOT,
                BaseUri {
                    uri: directory_uri(base),
                },
            )])
        })
        .unwrap_or_default();
    let log = Log {
        schema: SCHEMA,
        version: VERSION,
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "nbsight",
                    information_uri: INFORMATION_URI,
                    version: env!("CARGO_PKG_VERSION"),
                    rules,
                },
            },
            original_uri_base_ids,
            column_kind: "unicodeCodePoints",
            invocations: [Invocation {
                execution_successful: report.unreadable.is_empty(),
                tool_execution_notifications: notifications,
            }],
            results,
        }],
    };
    serde_json::to_string_pretty(&log)
}

fn result<'a>(located: &'a Located, base: Option<&Path>) -> SarifResult<'a> {
    let f = &located.finding;
    let rule_index = check_rules().iter().position(|rule| *rule == f.rule);
    let start_line = located.file_line.map_or(1, |l| l.get());
    let start_column = located.file_column.map_or(1, |c| c.get());
    SarifResult {
        rule_id: f.code(),
        rule_index,
        level: level(f.severity()),
        message: Text {
            text: format!("cell {}, line {}: {}", f.cell, f.line, f.message),
        },
        locations: [Location {
            physical_location: PhysicalLocation {
                artifact_location: artifact_location(&f.file, base),
                region: Region {
                    start_line,
                    start_column,
                },
            },
        }],
        partial_fingerprints: BTreeMap::from([(
            FINGERPRINT_KEY,
            finding_fingerprint(located, base),
        )]),
        properties: Properties {
            cell: f.cell.index(),
            cell_line: f.line.get(),
            cell_column: f.column.get(),
            cell_id: &located.cell_id,
            path: &f.path,
        },
    }
}

/// A finding's fingerprint: its rule, file, cell (by id), line and column in
/// the cell, and message, so that distinct findings differ and a finding
/// keeps its fingerprint when other cells change.
pub fn finding_fingerprint(located: &Located, base: Option<&Path>) -> String {
    let f = &located.finding;
    fingerprint(&[
        f.code(),
        &artifact_uri(&f.file, base),
        &located.cell_id,
        &f.cell.index().to_string(),
        &f.line.to_string(),
        &f.column.to_string(),
        &f.message,
    ])
}

/// An artifact location: relative to `%SRCROOT%` when it can be.
fn artifact_location(file: &str, base: Option<&Path>) -> ArtifactLocation {
    let uri = artifact_uri(file, base);
    let uri_base_id = (base.is_some() && !uri.starts_with("file:")).then_some(SRCROOT);
    ArtifactLocation { uri, uri_base_id }
}

/// The `file://` URI of a directory, ending in `/`.
fn directory_uri(dir: &Path) -> String {
    let slashed = dir.to_string_lossy().replace('\\', "/");
    let rooted = if slashed.starts_with('/') {
        slashed
    } else {
        format!("/{slashed}")
    };
    let mut uri = format!("file://{}", encode(&rooted));
    if !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

/// A stable hash of the parts (hex SHA-256, truncated to 128 bits).
fn fingerprint(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    let digest = hasher.finalize();
    let mut hex = String::with_capacity(32);
    for byte in &digest[..16] {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// The artifact URI of a notebook path: relative with `/` separators (as
/// GitHub wants, relative to the repository root the run starts in), or a
/// `file://` URI for an absolute path outside `base`. Percent-encoded.
pub fn artifact_uri(file: &str, base: Option<&Path>) -> String {
    let path = Path::new(file);
    let relative = if path.is_absolute() {
        base.and_then(|base| path.strip_prefix(base).ok())
    } else {
        Some(path)
    };
    match relative {
        Some(relative) => {
            let parts: Vec<String> = relative
                .components()
                .filter_map(|c| match c {
                    Component::Normal(part) => Some(encode(&part.to_string_lossy())),
                    Component::ParentDir => Some("..".to_string()),
                    _ => None,
                })
                .collect();
            parts.join("/")
        }
        None => {
            let slashed = file.replace('\\', "/");
            let rooted = if slashed.starts_with('/') {
                slashed
            } else {
                format!("/{slashed}")
            };
            format!("file://{}", encode(&rooted))
        }
    }
}

/// Percent-encodes everything but RFC 3986's unreserved characters, `/` and
/// `:` (drive letters).
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/:".contains(&byte) {
            out.push(byte as char);
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::super::report::tests::{finding, located};
    use super::super::report::{Checked, Report};
    use super::*;

    fn report() -> Report {
        let mut percent = located(finding("nbs/b.py", 3, 2, 5, "NBS001"), "print(y)");
        percent.file_line = nbsight_notebook::OneIndexed::new(14);
        percent.file_column = nbsight_notebook::OneIndexed::new(5);
        let mut report = Report::default();
        report.add(Checked {
            findings: vec![
                percent,
                located(finding("nbs/my nb.ipynb", 5, 3, 1, "NBS201"), "x = 1"),
            ],
            problems: Vec::new(),
            suppressed: 0,
        });
        report.sort();
        report
    }

    fn sarif(report: &Report) -> Value {
        serde_json::from_str(&render(report, None).unwrap()).unwrap()
    }

    /// What GitHub code scanning requires of an upload.
    fn assert_github_shape(log: &Value) {
        assert_eq!(log["$schema"], SCHEMA);
        assert_eq!(log["version"], "2.1.0");
        let runs = log["runs"].as_array().expect("runs");
        assert_eq!(runs.len(), 1);
        let driver = &runs[0]["tool"]["driver"];
        assert_eq!(driver["name"], "nbsight");
        assert!(driver["version"].is_string());
        let rules = driver["rules"].as_array().expect("rules");
        for result in runs[0]["results"].as_array().expect("results") {
            assert!(result["message"]["text"].is_string());
            let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
            assert_eq!(rules[index]["id"], result["ruleId"]);
            assert!(["error", "warning", "note"].contains(&result["level"].as_str().unwrap()));
            for location in result["locations"].as_array().expect("locations") {
                let physical = &location["physicalLocation"];
                assert!(physical["artifactLocation"]["uri"].is_string());
                assert!(physical["region"]["startLine"].as_u64().expect("startLine") >= 1);
                assert!(
                    physical["region"]["startColumn"]
                        .as_u64()
                        .expect("startColumn")
                        >= 1
                );
            }
            let fingerprints = result["partialFingerprints"]
                .as_object()
                .expect("fingerprints");
            assert!(!fingerprints.is_empty());
        }
    }

    #[test]
    fn driver_lists_every_rule() {
        let log = sarif(&Report::default());
        assert_github_shape(&log);
        let rules = log["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap();
        assert_eq!(rules.len(), check_rules().len());
        let leakage = &rules[2];
        assert_eq!(leakage["id"], "NBS101");
        assert_eq!(leakage["name"], "preprocessing-leakage");
        assert_eq!(
            leakage["shortDescription"]["text"],
            Rule::PreprocessingLeakage.summary()
        );
        assert_eq!(leakage["defaultConfiguration"]["level"], "warning");
        // isolated-cell, after the four leakage rules.
        assert_eq!(rules[6]["id"], "NBS201");
        assert_eq!(rules[6]["defaultConfiguration"]["level"], "note");
        assert_eq!(rules[6]["defaultConfiguration"]["enabled"], false);
        assert_eq!(log["runs"][0]["results"], Value::Array(Vec::new()));
    }

    #[test]
    fn results_locate_cells() {
        let log = sarif(&report());
        assert_github_shape(&log);
        let results = log["runs"][0]["results"].as_array().unwrap();
        let percent = &results[0];
        assert_eq!(percent["ruleId"], "NBS001");
        assert_eq!(percent["ruleIndex"], 0);
        assert_eq!(percent["level"], "error");
        assert_eq!(
            percent["message"]["text"],
            "cell 3, line 2: undefined-on-run-all here"
        );
        let physical = &percent["locations"][0]["physicalLocation"];
        assert_eq!(physical["artifactLocation"]["uri"], "nbs/b.py");
        assert_eq!(physical["region"]["startLine"], 14);
        assert_eq!(physical["region"]["startColumn"], 5);
        assert_eq!(percent["properties"]["cell"], 3);
        assert_eq!(percent["properties"]["cellLine"], 2);
        assert_eq!(percent["properties"]["path"], serde_json::json!([0, 3]));

        let ipynb = &results[1];
        assert_eq!(ipynb["level"], "note");
        assert_eq!(ipynb["ruleIndex"], 6);
        let physical = &ipynb["locations"][0]["physicalLocation"];
        assert_eq!(physical["artifactLocation"]["uri"], "nbs/my%20nb.ipynb");
        assert_eq!(physical["region"]["startLine"], 1, "no file position known");
        assert_eq!(
            ipynb["message"]["text"],
            "cell 5, line 3: isolated-cell here"
        );
    }

    #[test]
    fn fingerprints_are_stable_and_distinct() {
        let mut twice = report();
        let mut again = twice.findings[0].clone();
        again.finding.line = nbsight_notebook::OneIndexed::new(3).unwrap();
        twice.findings.push(again);
        let log = sarif(&twice);
        assert_ne!(
            log["runs"][0]["results"][0]["partialFingerprints"],
            log["runs"][0]["results"][2]["partialFingerprints"],
            "the same message on another line"
        );
        let a = sarif(&report());
        let b = sarif(&report());
        let key = |log: &Value, i: usize| {
            log["runs"][0]["results"][i]["partialFingerprints"][FINGERPRINT_KEY].clone()
        };
        assert_eq!(key(&a, 0), key(&b, 0));
        assert_ne!(key(&a, 0), key(&a, 1));
        assert_eq!(key(&a, 0).as_str().unwrap().len(), 32);
    }

    #[test]
    fn uris() {
        assert_eq!(artifact_uri("./a/b.ipynb", None), "a/b.ipynb");
        assert_eq!(artifact_uri("../x/é.ipynb", None), "../x/%C3%A9.ipynb");
        let base = Path::new("/repo");
        assert_eq!(artifact_uri("/repo/nbs/a.ipynb", Some(base)), "nbs/a.ipynb");
        assert_eq!(
            artifact_uri("/elsewhere/a b.ipynb", Some(base)),
            "file:///elsewhere/a%20b.ipynb"
        );
    }
}
