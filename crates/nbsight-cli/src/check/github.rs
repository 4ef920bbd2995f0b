//! `--output-format github`: GitHub Actions workflow commands
//! (`::error file=F,line=L,col=C,title=T::message`), which annotate the
//! pull request's diff. The line and column are the file's: in an `.ipynb`
//! file, the line of the JSON text holding the flagged source line. Syntax
//! errors and load problems are annotated too (`title=nbsight`).

use std::fmt::Write;
use std::path::{Component, Path};

use nbsight_notebook::Severity;

use super::report::Report;

/// One workflow command per finding; paths are relative to `base` (the
/// current directory, the repository's root in a workflow).
pub fn render(report: &Report, base: Option<&Path>) -> String {
    let mut out = String::new();
    for located in &report.findings {
        let f = &located.finding;
        let command = match f.severity() {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let line = located.file_line.map_or(1, |l| l.get());
        let column = located.file_column.map_or(1, |c| c.get());
        let _ = writeln!(
            out,
            "::{command} title={},file={},line={line},col={column}::{}",
            property(&format!("nbsight ({})", f.code())),
            property(&relative(&f.file, base)),
            data(&format!(
                "cell {}:{}:{}: {} {}",
                f.cell,
                f.line,
                f.column,
                f.code(),
                f.message
            ))
        );
    }
    for problem in &report.problems {
        let d = &problem.diagnostic;
        let command = if problem.is_error() {
            "error"
        } else {
            "warning"
        };
        let line = problem.file_line.map_or(1, |l| l.get());
        let column = problem.file_column.map_or(1, |c| c.get());
        let _ = writeln!(
            out,
            "::{command} title=nbsight,file={},line={line},col={column}::{}",
            property(&relative(&d.path.to_string_lossy(), base)),
            data(&problem.to_string())
        );
    }
    out
}

/// `file` relative to `base` with `/` separators (as given when it is
/// outside `base`).
fn relative(file: &str, base: Option<&Path>) -> String {
    let path = Path::new(file);
    let path = match base {
        Some(base) if path.is_absolute() => path.strip_prefix(base).unwrap_or(path),
        _ => path,
    };
    let parts: Vec<String> = path
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .map(|c| match c {
            Component::RootDir => String::new(),
            other => other.as_os_str().to_string_lossy().into_owned(),
        })
        .collect();
    parts.join("/")
}

/// Escapes a workflow command's message.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::super::report::tests::{finding, located, one};
    use super::super::report::{Checked, Report};
    use super::*;

    #[test]
    fn workflow_commands() {
        let mut l = located(finding("a,b.ipynb", 2, 3, 4, "NBS001"), "x");
        l.file_line = Some(one(40));
        l.file_column = Some(one(9));
        let mut report = Report::default();
        report.add(Checked {
            findings: vec![l, located(finding("c.ipynb", 0, 1, 1, "NBS201"), "x")],
            ..Checked::default()
        });
        report.sort();
        assert_eq!(relative("./nbs/a.ipynb", None), "nbs/a.ipynb");
        assert_eq!(
            relative("/repo/nbs/a.ipynb", Some(Path::new("/repo"))),
            "nbs/a.ipynb"
        );
        assert_eq!(
            relative("/elsewhere/a.ipynb", Some(Path::new("/repo"))),
            "/elsewhere/a.ipynb"
        );
        assert_eq!(
            render(&report, None),
            "::error title=nbsight (NBS001),file=a%2Cb.ipynb,line=40,col=9::cell 2:3:4: NBS001 undefined-on-run-all here\n\
             ::notice title=nbsight (NBS201),file=c.ipynb,line=1,col=1::cell 0:1:1: NBS201 isolated-cell here\n"
        );
    }

    #[test]
    fn problems_are_annotated_where_they_are() {
        use nbsight_notebook::{CellIndex, Diagnostic};
        let mut problem = super::super::report::Problem::new(
            Diagnostic::error(Path::new("b.ipynb"), "syntax error: oops")
                .in_cell(CellIndex::new(2))
                .at(one(1), one(5)),
        );
        problem.file_line = Some(one(31));
        problem.file_column = Some(one(17));
        let mut report = Report::default();
        report.add(Checked {
            problems: vec![problem],
            ..Checked::default()
        });
        assert_eq!(
            render(&report, None),
            "::error title=nbsight,file=b.ipynb,line=31,col=17::b.ipynb:cell 2:1:5: syntax error: oops\n"
        );
    }
}
