//! What a run of `nbsight check` produced, before formatting: the findings
//! (each with the bit of its notebook the formats need), the problems found
//! while reading the notebooks, and the inputs that could not be read.
//! Everything is kept in a deterministic order whatever the parallelism.

use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::fmt;

use nbsight_check::Finding;
use nbsight_notebook::{
    CellIndex, Diagnostic, IpynbPositions, Notebook, OneIndexed, Severity, SyntaxIssue,
};

/// A finding with the context the output formats need from its notebook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    pub finding: Finding,
    /// The id of the finding's cell (empty when the cell is unknown).
    pub cell_id: String,
    /// The cell's source line the finding points at, without its line ending.
    pub source_line: Option<String>,
    /// The line of the file holding that source line: in a percent script
    /// the script's line, in an `.ipynb` file the line of the JSON text that
    /// holds it (`None` when it cannot be found).
    pub file_line: Option<OneIndexed>,
    /// The column of the finding on [`Self::file_line`] (code points).
    pub file_column: Option<OneIndexed>,
}

impl Located {
    /// `positions` locates the finding in an `.ipynb` file's text.
    pub fn new(finding: Finding, notebook: &Notebook, positions: Option<&IpynbPositions>) -> Self {
        let cell = notebook.cells.get(finding.cell.index());
        let line = finding.line;
        let source_line = cell.and_then(|cell| {
            let text = cell
                .python_source()
                .unwrap_or(std::borrow::Cow::Borrowed(cell.source.as_str()));
            text.lines()
                .nth(line.to_zero_indexed())
                .map(|l| l.trim_end_matches(['\r', '\n']).to_string())
        });
        let (file_line, file_column) = match positions {
            Some(positions) => match positions.locate(finding.cell.index(), line, finding.column) {
                Some((l, c)) => (Some(l), Some(c)),
                None => (None, None),
            },
            None => {
                let file_line = cell.and_then(|c| c.file_line(line));
                (file_line, file_line.map(|_| finding.column))
            }
        };
        Located {
            cell_id: cell.map(|c| c.id.clone()).unwrap_or_default(),
            file_line,
            file_column,
            source_line,
            finding,
        }
    }

    /// The order of the reports: file, cell, line, column, code (then message
    /// so that equal positions stay deterministic).
    fn order(&self, other: &Self) -> Ordering {
        let (a, b) = (&self.finding, &other.finding);
        (&a.file, a.cell, a.line, a.column, a.code(), &a.message).cmp(&(
            &b.file,
            b.cell,
            b.line,
            b.column,
            b.code(),
            &b.message,
        ))
    }
}

/// A problem met while reading a notebook (a load diagnostic or a syntax
/// error), printed as `file:cell N:line:col: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub diagnostic: Diagnostic,
    /// The line of the file the problem is on (for a problem in a cell: the
    /// line of the file holding that cell line, as for [`Located`]).
    pub file_line: Option<OneIndexed>,
    /// The column on [`Self::file_line`].
    pub file_column: Option<OneIndexed>,
}

impl Problem {
    /// A problem at the diagnostic's own position in the file, if it has one.
    pub fn new(diagnostic: Diagnostic) -> Self {
        let (file_line, file_column) = match diagnostic.cell {
            None => (diagnostic.line, diagnostic.line.and(diagnostic.column)),
            Some(_) => (None, None),
        };
        Problem {
            diagnostic,
            file_line,
            file_column,
        }
    }

    /// `diagnostic` located in its file: a cell's line through `positions`
    /// (an `.ipynb` file's text) or the cell's place in a percent script.
    fn located(
        diagnostic: Diagnostic,
        notebook: &Notebook,
        positions: Option<&IpynbPositions>,
    ) -> Self {
        let mut problem = Problem::new(diagnostic);
        let d = &problem.diagnostic;
        if let (Some(cell), Some(line)) = (d.cell, d.line) {
            let column = d.column.unwrap_or(OneIndexed::MIN);
            let at = match positions {
                Some(positions) => positions.locate(cell.index(), line, column),
                None => notebook
                    .cells
                    .get(cell.index())
                    .and_then(|c| c.file_line(line))
                    .map(|l| (l, column)),
            };
            if let Some((l, c)) = at {
                problem.file_line = Some(l);
                problem.file_column = Some(c);
            }
        }
        problem
    }

    /// A syntax error in cell `cell`.
    fn syntax_error(notebook: &Notebook, cell: CellIndex, issue: &SyntaxIssue) -> Diagnostic {
        Diagnostic::error(&notebook.path, format!("syntax error: {}", issue.message))
            .in_cell(cell)
            .at(issue.line, issue.column)
    }

    pub fn is_error(&self) -> bool {
        self.diagnostic.severity == Severity::Error
    }

    fn order(&self, other: &Self) -> Ordering {
        let key = |p: &Problem| {
            let d = &p.diagnostic;
            (d.path.clone(), d.cell, d.line, d.column, d.message.clone())
        };
        key(self).cmp(&key(other))
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.diagnostic.fmt(f)
    }
}

/// The problems of a loaded notebook: its load diagnostics and the syntax
/// errors of its Python cells (`syntax_errors`, from the check's own
/// parses: each cell is parsed once per check), not yet located in the file.
pub fn diagnostics_of(
    notebook: &Notebook,
    syntax_errors: &[(CellIndex, SyntaxIssue)],
) -> Vec<Diagnostic> {
    let mut diagnostics = notebook.diagnostics.clone();
    diagnostics.extend(
        syntax_errors
            .iter()
            .map(|(cell, issue)| Problem::syntax_error(notebook, *cell, issue)),
    );
    diagnostics
}

/// `diagnostics` of `notebook` as problems located in its file through
/// `positions` (an `.ipynb` file's text) when given.
pub fn problems_of(
    diagnostics: Vec<Diagnostic>,
    notebook: &Notebook,
    positions: Option<&IpynbPositions>,
) -> Vec<Problem> {
    diagnostics
        .into_iter()
        .map(|d| Problem::located(d, notebook, positions))
        .collect()
}

/// The result of checking one notebook.
#[derive(Debug, Clone, Default)]
pub struct Checked {
    pub findings: Vec<Located>,
    pub problems: Vec<Problem>,
    /// Findings dropped by suppression comments.
    pub suppressed: usize,
}

/// Everything a run found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// How many notebooks were loaded and checked.
    pub notebooks: usize,
    /// Sorted by file, cell, line, column, code.
    pub findings: Vec<Located>,
    /// Sorted by file, cell, line, column.
    pub problems: Vec<Problem>,
    /// Inputs that could not be read, as messages naming the path.
    pub unreadable: Vec<String>,
    /// Findings dropped by suppression comments.
    pub suppressed: usize,
}

impl Report {
    /// Adds a checked notebook.
    pub fn add(&mut self, checked: Checked) {
        self.notebooks += 1;
        self.suppressed += checked.suppressed;
        self.findings.extend(checked.findings);
        self.problems.extend(checked.problems);
    }

    /// Puts findings and problems in their output order.
    pub fn sort(&mut self) {
        self.findings.sort_by(Located::order);
        self.problems.sort_by(Problem::order);
    }

    /// Problems that fail the run (error severity).
    pub fn errors(&self) -> usize {
        self.problems.iter().filter(|p| p.is_error()).count()
    }

    /// How many distinct notebooks have an error-severity problem.
    pub fn notebooks_with_errors(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.is_error())
            .map(|p| &p.diagnostic.path)
            .collect::<BTreeSet<_>>()
            .len()
    }

    /// How many distinct notebooks have findings.
    pub fn notebooks_with_findings(&self) -> usize {
        self.findings
            .iter()
            .map(|l| &l.finding.file)
            .collect::<BTreeSet<_>>()
            .len()
    }

    /// Anything worth failing a CI job for (findings or errors)?
    pub fn has_problems(&self) -> bool {
        !self.findings.is_empty() || self.errors() > 0
    }
}

#[cfg(test)]
pub mod tests {
    use std::path::Path;

    use nbsight_dataflow::Effects;

    use super::*;

    /// A hand-built finding for the format tests (0-based `cell`, 1-based
    /// `line` and `column`).
    pub fn finding(
        file: &str,
        cell: usize,
        line: usize,
        column: usize,
        code: &'static str,
    ) -> Finding {
        let rule = nbsight_check::Rule::from_code(code).expect("a known code");
        Finding {
            file: file.to_string(),
            rule,
            message: format!("{} here", rule.name()),
            cell: CellIndex::new(cell),
            line: one(line),
            column: one(column),
            path: cells(&[0, cell]),
            related: Vec::new(),
        }
    }

    /// A 1-based number.
    pub fn one(n: usize) -> OneIndexed {
        OneIndexed::new(n).expect("counts from 1")
    }

    /// Cells by position.
    pub fn cells(cells: &[usize]) -> Vec<CellIndex> {
        cells.iter().map(|&c| CellIndex::new(c)).collect()
    }

    /// A located finding with a source line and no file line.
    pub fn located(finding: Finding, source_line: &str) -> Located {
        Located {
            cell_id: format!("cell-{}", finding.cell),
            source_line: Some(source_line.to_string()),
            file_line: None,
            file_column: None,
            finding,
        }
    }

    #[test]
    fn located_takes_the_line_and_the_file_line() {
        let notebook = nbsight_notebook::load_percent_str(
            Path::new("nb.py"),
            "# %%\nimport x\n\n# %%\na = 1\nb = undefined_name\n",
        );
        let cell = notebook.cells.iter().rposition(|c| c.is_python()).unwrap();
        let mut finding = finding("nb.py", cell, 2, 5, "NBS001");
        let located = Located::new(finding.clone(), &notebook, None);
        assert_eq!(located.source_line.as_deref(), Some("b = undefined_name"));
        assert_eq!(located.file_line, Some(one(6)));
        assert_eq!(located.cell_id, notebook.cells[cell].id);
        finding.line = one(40);
        assert_eq!(Located::new(finding, &notebook, None).source_line, None);
    }

    #[test]
    fn report_sorts_and_counts() {
        let mut report = Report::default();
        report.add(Checked {
            findings: vec![
                located(finding("b.ipynb", 1, 1, 1, "NBS101"), ""),
                located(finding("b.ipynb", 0, 2, 1, "NBS001"), ""),
            ],
            problems: Vec::new(),
            suppressed: 0,
        });
        report.add(Checked {
            findings: vec![
                located(finding("a.ipynb", 3, 1, 4, "NBS002"), ""),
                located(finding("a.ipynb", 3, 1, 4, "NBS001"), ""),
            ],
            problems: vec![Problem::new(Diagnostic::warning(Path::new("a.ipynb"), "w"))],
            suppressed: 0,
        });
        report.sort();
        let order: Vec<_> = report
            .findings
            .iter()
            .map(|l| {
                let f = &l.finding;
                (f.file.as_str(), f.cell.index(), f.code())
            })
            .collect();
        assert_eq!(
            order,
            [
                ("a.ipynb", 3, "NBS001"),
                ("a.ipynb", 3, "NBS002"),
                ("b.ipynb", 0, "NBS001"),
                ("b.ipynb", 1, "NBS101"),
            ]
        );
        assert_eq!(report.notebooks, 2);
        assert_eq!(report.errors(), 0);
        assert!(report.has_problems());
        assert_eq!(report.findings[3].finding.severity(), Severity::Warning);
    }

    #[test]
    fn syntax_errors_are_problems() {
        let notebook =
            nbsight_notebook::load_percent_str(Path::new("nb.py"), "# %%\nx = (\n# %%\ny = 1\n");
        let checked = nbsight_check::check_notebook(
            &notebook,
            &Effects::builtin(),
            nbsight_check::RuleSet::default(),
        );
        let problems = problems_of(
            diagnostics_of(&notebook, &checked.syntax_errors),
            &notebook,
            None,
        );
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].is_error());
        // Located at the script's line of the broken cell line.
        let d = &problems[0].diagnostic;
        assert_eq!(
            problems[0].file_line,
            notebook.cells[0].file_line(d.line.unwrap())
        );
        assert!(problems[0].file_line.is_some());
        let text = problems[0].to_string();
        assert!(text.starts_with("nb.py:cell 0:"), "{text}");
        assert!(text.contains("syntax error"), "{text}");
    }
}
