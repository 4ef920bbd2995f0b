//! `--output-format concise`: one line per finding,
//! `file:cell N:line:col: CODE [*] message`, as ruff's concise output, then
//! the summary line.

use std::fmt::Write;

use super::report::Report;
use super::text::summary;

/// Every finding on one line, then the summary (unless `quiet`).
pub fn render(report: &Report, quiet: bool) -> String {
    let mut out = String::new();
    for located in &report.findings {
        let f = &located.finding;
        let _ = writeln!(
            out,
            "{}:cell {}:{}:{}: {} {}",
            f.file,
            f.cell,
            f.line,
            f.column,
            f.code(),
            f.message
        );
    }
    if !quiet {
        out.push_str(&summary(report));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::report::tests::{finding, located};
    use super::super::report::{Checked, Report};
    use super::*;

    #[test]
    fn one_line_per_finding() {
        let mut report = Report::default();
        report.add(Checked {
            findings: vec![located(finding("a.ipynb", 2, 3, 4, "NBS001"), "x")],
            ..Checked::default()
        });
        assert_eq!(
            render(&report, true),
            "a.ipynb:cell 2:3:4: NBS001 undefined-on-run-all here\n"
        );
        assert!(render(&report, false).ends_with("(1 checked).\n"));
    }
}
