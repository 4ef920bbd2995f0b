//! `--output-format json` (and `json-lines`, one object per line): one JSON list of every notebook's findings, each object
//! a [`FindingJson`] with the keys `file`, `code`, `name`, `message`, `cell`,
//! `line`, `column`, `path`, `severity` in this order, sorted by file, cell,
//! line, column and code. A contract other tools read; `nbsight whatif
//! --format json` writes its findings the same way.

use nbsight_check::Finding;
use nbsight_notebook::CellIndex;
use serde::Serialize;

use super::report::Report;

/// A finding as JSON. The keys and their order are the contract: `cell`
/// and `path` are 0-based cell positions, `line` and `column` 1-based.
#[derive(Debug, Serialize)]
pub struct FindingJson<'a> {
    file: &'a str,
    code: &'static str,
    name: &'static str,
    message: &'a str,
    cell: usize,
    line: usize,
    column: usize,
    /// Serialized as their 0-based numbers.
    path: &'a [CellIndex],
    severity: &'static str,
}

impl<'a> From<&'a Finding> for FindingJson<'a> {
    fn from(f: &'a Finding) -> Self {
        FindingJson {
            file: &f.file,
            code: f.code(),
            name: f.name(),
            message: &f.message,
            cell: f.cell.index(),
            line: f.line.get(),
            column: f.column.get(),
            path: &f.path,
            severity: f.severity().as_str(),
        }
    }
}

/// The findings as a pretty-printed JSON list.
pub fn render(report: &Report) -> serde_json::Result<String> {
    let findings: Vec<FindingJson<'_>> = report
        .findings
        .iter()
        .map(|l| FindingJson::from(&l.finding))
        .collect();
    serde_json::to_string_pretty(&findings)
}

/// `--output-format json-lines`: one finding per line, the same objects.
pub fn render_lines(report: &Report) -> serde_json::Result<String> {
    let mut out = String::new();
    for located in &report.findings {
        out.push_str(&serde_json::to_string(&FindingJson::from(
            &located.finding,
        ))?);
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::report::tests::{finding, located};
    use super::super::report::{Checked, Report};
    use super::*;

    #[test]
    fn a_list_of_findings_with_the_contract_keys() {
        let mut report = Report::default();
        report.add(Checked {
            findings: vec![
                located(finding("b.ipynb", 2, 1, 1, "NBS101"), "x"),
                located(finding("a.ipynb", 4, 7, 3, "NBS001"), "x"),
            ],
            problems: Vec::new(),
            suppressed: 0,
        });
        report.sort();
        let value: Value = serde_json::from_str(&render(&report).unwrap()).unwrap();
        assert_eq!(
            value[0],
            json!({
                "file": "a.ipynb",
                "code": "NBS001",
                "name": "undefined-on-run-all",
                "message": "undefined-on-run-all here",
                "cell": 4,
                "line": 7,
                "column": 3,
                "path": [0, 4],
                "severity": "error",
            })
        );
        assert_eq!(value[1]["file"], "b.ipynb");
        assert_eq!(value[1]["severity"], "warning");
        assert_eq!(render(&Report::default()).unwrap(), "[]");
        let lines = render_lines(&report).unwrap();
        assert_eq!(lines.lines().count(), 2);
        let first: Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
        assert_eq!(first, value[0]);
    }
}
