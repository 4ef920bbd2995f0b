//! `--output-format gitlab`: a GitLab code quality report (a JSON list of
//! issues with `description`, `check_name`, `fingerprint`, `severity` and
//! `location.path` / `location.lines.begin`), the line being the file's.

use serde::Serialize;

use nbsight_notebook::Severity;

use super::report::Report;
use super::sarif::{artifact_uri, finding_fingerprint};

#[derive(Debug, Serialize)]
struct Issue {
    description: String,
    check_name: &'static str,
    fingerprint: String,
    severity: &'static str,
    location: Location,
}

#[derive(Debug, Serialize)]
struct Location {
    path: String,
    lines: Lines,
}

#[derive(Debug, Serialize)]
struct Lines {
    begin: usize,
}

/// The report as a code quality JSON list.
pub fn render(report: &Report, base: Option<&std::path::Path>) -> serde_json::Result<String> {
    let issues: Vec<Issue> = report
        .findings
        .iter()
        .map(|located| {
            let f = &located.finding;
            Issue {
                description: format!("cell {}:{}:{}: {}", f.cell, f.line, f.column, f.message),
                check_name: f.code(),
                fingerprint: finding_fingerprint(located, base),
                severity: match f.severity() {
                    Severity::Error => "major",
                    Severity::Warning => "minor",
                    Severity::Info => "info",
                },
                location: Location {
                    path: artifact_uri(&f.file, base),
                    lines: Lines {
                        begin: located.file_line.map_or(1, |l| l.get()),
                    },
                },
            }
        })
        .collect();
    serde_json::to_string_pretty(&issues)
}
