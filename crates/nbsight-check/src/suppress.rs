//! A finding can be silenced where it is reported, with ruff's comments plus
//! forms for cells and whole notebooks:
//!
//! - `# noqa` or `# noqa: NBS001, unused-definition` in a comment on a line
//!   silences all findings, or those of the rules named, on that line of the
//!   cell;
//! - a cell whose first line is only the comment `# noqa`, `# noqa: CODES`,
//!   `# nbsight: noqa` or `# nbsight: noqa: CODES` silences them in the whole
//!   cell;
//! - a cell tag `noqa`, `noqa:CODES`, `nbsight:noqa` or `nbsight:noqa:CODES`
//!   (codes separated by commas; in `metadata.tags` of an `.ipynb` cell, or
//!   `# %% tags=["noqa:NBS001"]` in a percent script) does the same;
//! - a line that is only the comment `# nbsight: noqa-file` (or
//!   `# nbsight: noqa-file: CODES`), in any cell, silences them in the whole
//!   notebook;
//! - in `pyproject.toml`, `per-file-ignores` turns rules off for the files
//!   matching a glob pattern (relative to the file's directory, or matching
//!   the file name):
//!
//! ```toml
//! [tool.nbsight.per-file-ignores]
//! "legacy/*.ipynb" = ["NBS001"]
//! "scratch_*.ipynb" = ["undefined-on-run-all", "NBS2"]
//! ```
//!
//! Rules are named by code or by name, interchangeably; `noqa` is matched
//! without regard to case; unknown codes are ignored (they silence nothing).
//! The comment is found in the line's text, so a `# noqa` inside a string
//! literal counts too. `nbsight check` says how many findings were
//! suppressed in its summary line.

use nbsight_notebook::Notebook;

use crate::finding::Finding;
use crate::registry::Rule;
use crate::selection::RuleSet;

/// What one directive suppresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    All,
    Rules(RuleSet),
}

impl Scope {
    fn covers(self, rule: Rule) -> bool {
        match self {
            Scope::All => true,
            Scope::Rules(set) => set.contains(rule),
        }
    }

    fn merge(a: Option<Scope>, b: Scope) -> Scope {
        match (a, b) {
            (Some(Scope::Rules(x)), Scope::Rules(y)) => {
                Scope::Rules(RuleSet::from_rules(x.iter().chain(y.iter())))
            }
            (Some(Scope::All), _) | (_, Scope::All) => Scope::All,
            (None, b) => b,
        }
    }
}

/// The suppression comments of one notebook.
#[derive(Debug, Clone, Default)]
pub struct Suppressions {
    file: Option<Scope>,
    /// Per cell (by position): the cell's own directive and its lines'
    /// (0-based line, directive).
    cells: Vec<CellSuppressions>,
}

/// A cell's own directive and its lines' (0-based line, directive).
type CellSuppressions = (Option<Scope>, Vec<(usize, Scope)>);

impl Suppressions {
    /// Reads the comments of every Python cell of `notebook`.
    pub fn of(notebook: &Notebook) -> Self {
        let mut suppressions = Suppressions {
            file: None,
            cells: vec![(None, Vec::new()); notebook.cells.len()],
        };
        for cell in &notebook.cells {
            let Some(source) = cell.python_source() else {
                continue;
            };
            let (cell_scope, lines) = &mut suppressions.cells[cell.index];
            for tag in &cell.tags {
                let tag = tag.trim();
                let tag = strip_prefix_ignore_case(tag, "nbsight:").unwrap_or(tag);
                if let Some(scope) = directive(tag.trim_start(), "noqa") {
                    *cell_scope = Some(Scope::merge(*cell_scope, scope));
                }
            }
            for (number, line) in source.lines().enumerate() {
                let comment_only = line.trim_start().starts_with('#');
                if comment_only {
                    let comment = line.trim_start()[1..].trim_start();
                    if let Some(rest) = strip_prefix_ignore_case(comment, "nbsight:") {
                        let rest = rest.trim_start();
                        if let Some(scope) = directive(rest, "noqa-file") {
                            suppressions.file = Some(Scope::merge(suppressions.file, scope));
                            continue;
                        }
                        if number == 0
                            && let Some(scope) = directive(rest, "noqa")
                        {
                            *cell_scope = Some(Scope::merge(*cell_scope, scope));
                            continue;
                        }
                    }
                    if number == 0
                        && let Some(scope) = directive(comment, "noqa")
                    {
                        *cell_scope = Some(Scope::merge(*cell_scope, scope));
                        continue;
                    }
                }
                if let Some(scope) = line_directive(line) {
                    lines.push((number, scope));
                }
            }
        }
        suppressions
    }

    /// Is `finding` suppressed by a comment?
    pub fn suppresses(&self, finding: &Finding) -> bool {
        let rule = finding.rule;
        if self.file.is_some_and(|s| s.covers(rule)) {
            return true;
        }
        let Some((cell, lines)) = self.cells.get(finding.cell.index()) else {
            return false;
        };
        if cell.is_some_and(|s| s.covers(rule)) {
            return true;
        }
        let line = finding.line.to_zero_indexed();
        lines
            .iter()
            .any(|&(at, scope)| at == line && scope.covers(rule))
    }

    /// Drops the suppressed findings; returns how many were dropped.
    pub fn retain(&self, findings: &mut Vec<Finding>) -> usize {
        let before = findings.len();
        findings.retain(|f| !self.suppresses(f));
        before - findings.len()
    }
}

/// The `# noqa` directive in a comment of `line`, if any.
fn line_directive(line: &str) -> Option<Scope> {
    let mut found = None;
    let mut rest = line;
    while let Some(at) = rest.find('#') {
        rest = &rest[at + 1..];
        if let Some(scope) = directive(rest.trim_start(), "noqa") {
            found = Some(Scope::merge(found, scope));
        }
    }
    found
}

/// `text` (a comment's text after `#`) as the directive `word` (`noqa` or
/// `noqa-file`), optionally followed by `: CODES`.
fn directive(text: &str, word: &str) -> Option<Scope> {
    let rest = strip_prefix_ignore_case(text, word)?;
    let Some(codes) = rest.strip_prefix(':') else {
        // `# noqa`, `# noqa  more words`, but not `# noqa-file` for `noqa`
        // or `# noqaxyz`.
        return (rest.is_empty() || rest.starts_with(char::is_whitespace)).then_some(Scope::All);
    };
    let rules = codes
        .split(|c: char| c == ',' || c.is_whitespace())
        .take_while(|part| !part.starts_with('#'))
        .filter(|part| !part.is_empty())
        .filter_map(|part| {
            Rule::from_code(&part.to_ascii_uppercase()).or_else(|| Rule::from_name(part))
        });
    Some(Scope::Rules(RuleSet::from_rules(rules)))
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use nbsight_notebook::{CellIndex, OneIndexed, load_percent_str};

    use super::*;

    fn finding(cell: usize, line: usize, rule: Rule) -> Finding {
        Finding {
            file: "nb.py".into(),
            rule,
            message: String::new(),
            cell: CellIndex::new(cell),
            line: OneIndexed::new(line).unwrap(),
            column: OneIndexed::MIN,
            path: Vec::new(),
            related: Vec::new(),
        }
    }

    fn suppressions(script: &str) -> Suppressions {
        Suppressions::of(&load_percent_str(Path::new("nb.py"), script))
    }

    #[test]
    fn directives() {
        assert_eq!(directive("noqa", "noqa"), Some(Scope::All));
        assert_eq!(directive("NOQA  because", "noqa"), Some(Scope::All));
        assert_eq!(directive("noqa-file", "noqa"), None);
        assert_eq!(directive("noqaxyz", "noqa"), None);
        assert_eq!(
            directive("noqa: NBS001, unused-definition # why", "noqa"),
            Some(Scope::Rules(RuleSet::from_rules([
                Rule::UndefinedOnRunAll,
                Rule::UnusedDefinition
            ])))
        );
        assert_eq!(
            directive("noqa:nbs101 E501", "noqa"),
            Some(Scope::Rules(RuleSet::from_rules([
                Rule::PreprocessingLeakage
            ])))
        );
        assert_eq!(line_directive("x = 1"), None);
        assert_eq!(line_directive("x = y  # noqa"), Some(Scope::All));
        assert_eq!(line_directive("x = y  # see #3 # noqa"), Some(Scope::All));
    }

    #[test]
    fn lines_cells_and_files() {
        let s = suppressions(
            "# %%\nprint(a)  # noqa: NBS001\nprint(b)\n\n# %%\n# noqa\nprint(c)\n\n# %%\nprint(d)  # noqa: NBS002\n",
        );
        let cell = |i| {
            let first_code = [0, 1, 2];
            first_code[i]
        };
        assert!(s.suppresses(&finding(cell(0), 1, Rule::UndefinedOnRunAll)));
        assert!(!s.suppresses(&finding(cell(0), 1, Rule::StaleSavedOutput)));
        assert!(!s.suppresses(&finding(cell(0), 2, Rule::UndefinedOnRunAll)));
        assert!(s.suppresses(&finding(cell(1), 2, Rule::UndefinedOnRunAll)));
        assert!(!s.suppresses(&finding(cell(2), 1, Rule::UndefinedOnRunAll)));

        let s = suppressions(
            "# %%\nx = 1\n\n# %%\n# nbsight: noqa-file: undefined-on-run-all\nprint(y)\n",
        );
        assert!(s.suppresses(&finding(0, 1, Rule::UndefinedOnRunAll)));
        assert!(!s.suppresses(&finding(0, 1, Rule::UnusedDefinition)));

        let s = suppressions("# %%\n# nbsight: noqa: NBS202\nx = 1\n");
        assert!(s.suppresses(&finding(0, 2, Rule::UnusedDefinition)));
        assert!(!s.suppresses(&finding(0, 2, Rule::UndefinedOnRunAll)));
        // Not on the first line: not a cell directive.
        let s = suppressions("# %%\nx = 1\n# nbsight: noqa\n");
        assert!(!s.suppresses(&finding(0, 1, Rule::UnusedDefinition)));
    }

    #[test]
    fn cell_tags() {
        let s = suppressions(
            "# %% tags=[\"noqa:NBS001,unused-definition\"]\nprint(a)\n\n# %% tags=[\"nbsight:noqa\"]\nprint(b)\n\n# %% tags=[\"parameters\"]\nprint(c)\n",
        );
        assert!(s.suppresses(&finding(0, 1, Rule::UndefinedOnRunAll)));
        assert!(s.suppresses(&finding(0, 1, Rule::UnusedDefinition)));
        assert!(!s.suppresses(&finding(0, 1, Rule::StaleSavedOutput)));
        assert!(s.suppresses(&finding(1, 1, Rule::StaleSavedOutput)));
        assert!(!s.suppresses(&finding(2, 1, Rule::UndefinedOnRunAll)));
    }
}
