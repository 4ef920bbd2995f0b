//! The default, compiler-like output of `nbsight check`: for each finding a
//! `file:cell N:line:col: CODE message` header, the offending line of the cell
//! with a caret under the column, and the cells that lead to it; then a
//! summary line. Styled with ANSI escapes, which the caller's `anstream`
//! writer strips when stdout is not a terminal.

use std::fmt::Write;

use anstyle::{AnsiColor, Style};
use nbsight_notebook::Severity;
use unicode_width::UnicodeWidthChar;

use super::report::{Located, Report};

/// Columns a tab takes in an excerpt.
const TAB_WIDTH: usize = 4;

const BOLD: Style = Style::new().bold();
const GUTTER: Style = AnsiColor::Blue.on_default().bold();

fn severity_style(severity: Severity) -> Style {
    match severity {
        Severity::Error => AnsiColor::Red.on_default().bold(),
        Severity::Warning => AnsiColor::Yellow.on_default().bold(),
        Severity::Info => AnsiColor::Cyan.on_default().bold(),
    }
}

/// Every finding followed by the summary line.
pub fn render(report: &Report) -> String {
    let mut out = render_findings(report);
    out.push_str(&summary(report));
    out.push('\n');
    out
}

/// Every finding, each followed by an empty line (`--quiet`: no summary).
pub fn render_findings(report: &Report) -> String {
    let mut out = String::new();
    for located in &report.findings {
        render_finding(&mut out, located);
        out.push('\n');
    }
    out
}

/// One finding: header, excerpt with caret, path note.
pub fn render_finding(out: &mut String, located: &Located) {
    let f = &located.finding;
    let style = severity_style(f.severity());
    let _ = writeln!(
        out,
        "{BOLD}{}:cell {}:{}:{}:{BOLD:#} {style}{}{style:#} {}",
        f.file,
        f.cell,
        f.line,
        f.column,
        f.code(),
        f.message
    );
    let gutter = " ".repeat(f.line.to_string().len());
    if let Some(source) = &located.source_line {
        let (shown, caret_at) = expand(source, f.column.get());
        let _ = writeln!(out, "{GUTTER}{gutter} |{GUTTER:#}");
        let _ = writeln!(out, "{GUTTER}{} |{GUTTER:#} {shown}", f.line);
        let _ = writeln!(
            out,
            "{GUTTER}{gutter} |{GUTTER:#} {}{style}^ {}{style:#}",
            " ".repeat(caret_at),
            f.name()
        );
    }
    if f.path.len() > 1 {
        let cells: Vec<String> = f.path.iter().map(ToString::to_string).collect();
        let _ = writeln!(
            out,
            "{GUTTER}{gutter} ={GUTTER:#} cells: {}",
            cells.join(" -> ")
        );
    }
}

/// The line with tabs expanded, and the display column (0-based) of the
/// 1-based character column `column`.
fn expand(line: &str, column: usize) -> (String, usize) {
    let mut shown = String::with_capacity(line.len());
    let mut caret_at = None;
    for (index, c) in line.chars().enumerate() {
        if index + 1 == column {
            caret_at = Some(display_width(&shown));
        }
        if c == '\t' {
            shown.extend(std::iter::repeat_n(' ', TAB_WIDTH));
        } else {
            shown.push(c);
        }
    }
    let width = display_width(&shown);
    // A column past the end (the end of the line) points just after it.
    let caret_at = caret_at.unwrap_or(width + column.saturating_sub(line.chars().count() + 1));
    (shown, caret_at)
}

fn display_width(text: &str) -> usize {
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// `All checks passed.`, or `Found N findings in M notebooks (K checked).`
/// (M counts the notebooks with findings), plus how many notebooks have
/// errors such as syntax errors and how many inputs could not be read, when
/// some do. A run with unreadable inputs never says all checks passed.
pub fn summary(report: &Report) -> String {
    let unreadable = report.unreadable.len();
    if !report.has_problems() && unreadable == 0 {
        return "All checks passed.".to_string();
    }
    let mut line = format!(
        "Found {} in {} ({} checked).",
        plural(report.findings.len(), "finding", "findings"),
        plural(report.notebooks_with_findings(), "notebook", "notebooks"),
        report.notebooks
    );
    let broken = report.notebooks_with_errors();
    if broken > 0 {
        let verb = if broken == 1 { "has" } else { "have" };
        let _ = write!(
            line,
            " {} {verb} errors (listed on stderr).",
            plural(broken, "notebook", "notebooks")
        );
    }
    if unreadable > 0 {
        let _ = write!(
            line,
            " {} could not be read (listed on stderr).",
            plural(unreadable, "input", "inputs")
        );
    }
    if report.suppressed > 0 {
        let _ = write!(
            line,
            " {} suppressed.",
            plural(report.suppressed, "finding", "findings")
        );
    }
    line
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use nbsight_notebook::{CellIndex, Diagnostic};

    use super::super::report::tests::{cells, finding, located};
    use super::super::report::{Checked, Problem};
    use super::*;

    fn plain(text: &str) -> String {
        anstream::adapter::strip_str(text).to_string()
    }

    fn report(findings: Vec<Located>) -> Report {
        let mut report = Report::default();
        report.add(Checked {
            findings,
            problems: Vec::new(),
            suppressed: 0,
        });
        report.sort();
        report
    }

    #[test]
    fn finding_with_excerpt_and_caret() {
        let mut f = finding("nb.ipynb", 5, 3, 5, "NBS101");
        f.path = cells(&[2, 4, 5]);
        let text = render(&report(vec![located(f, "X = scaler.fit_transform(data)")]));
        assert_eq!(
            plain(&text),
            "nb.ipynb:cell 5:3:5: NBS101 preprocessing-leakage here\n\
             \x20 |\n\
             3 | X = scaler.fit_transform(data)\n\
             \x20 |     ^ preprocessing-leakage\n\
             \x20 = cells: 2 -> 4 -> 5\n\
             \n\
             Found 1 finding in 1 notebook (1 checked).\n"
        );
        assert!(text.contains("\u{1b}["), "styled before stripping");
    }

    #[test]
    fn tabs_wide_characters_and_line_ends() {
        assert_eq!(expand("\tx = 1", 2), ("    x = 1".to_string(), 4));
        assert_eq!(expand("é = '日本'; y", 11).1, 12);
        assert_eq!(expand("ab", 3), ("ab".to_string(), 2));
        assert_eq!(expand("", 1), (String::new(), 0));
    }

    #[test]
    fn wide_gutter_and_no_excerpt() {
        let mut f = finding("a.py", 0, 120, 1, "NBS001");
        f.path = cells(&[0]);
        let mut without = located(f.clone(), "");
        without.source_line = None;
        let text = plain(&render(&report(vec![located(f, "print(y)"), without])));
        assert!(
            text.starts_with(
                "a.py:cell 0:120:1: NBS001 undefined-on-run-all here\n    |\n120 | print(y)\n    | ^ undefined-on-run-all\n\n"
            ),
            "{text}"
        );
        assert!(text.contains(
            "\n\na.py:cell 0:120:1: NBS001 undefined-on-run-all here\n\nFound 2 findings"
        ));
    }

    #[test]
    fn summaries() {
        let mut clean = Report::default();
        clean.add(Checked::default());
        assert_eq!(summary(&clean), "All checks passed.");
        let mut broken = clean.clone();
        broken.add(Checked {
            findings: Vec::new(),
            problems: vec![Problem::new(
                Diagnostic::error(Path::new("x.ipynb"), "bad").in_cell(CellIndex::new(1)),
            )],
            suppressed: 0,
        });
        assert_eq!(
            summary(&broken),
            "Found 0 findings in 0 notebooks (2 checked). 1 notebook has errors (listed on stderr)."
        );
        let mut two = report(vec![
            located(finding("a.ipynb", 0, 1, 1, "NBS001"), "x"),
            located(finding("a.ipynb", 1, 1, 1, "NBS001"), "x"),
        ]);
        two.add(Checked::default());
        assert_eq!(summary(&two), "Found 2 findings in 1 notebook (2 checked).");
        let mut unreadable = clean.clone();
        unreadable
            .unreadable
            .push("x.ipynb: cannot read file".into());
        assert_eq!(
            summary(&unreadable),
            "Found 0 findings in 0 notebooks (1 checked). 1 input could not be read (listed on stderr)."
        );
    }
}
