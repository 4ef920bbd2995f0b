//! Parsing Python cell text with ruff's parser in IPython mode.
//!
//! Parsing never fails: syntax errors are collected as [`SyntaxIssue`]s (with 1-based
//! line and character column within the parsed text) next to a best-effort AST.
//! The target version is the newest Python ruff knows, so modern syntax is not
//! flagged.

use ruff_python_ast::{ModModule, PythonVersion};
use ruff_python_parser::{Mode, ParseOptions, parse_unchecked};
use ruff_source_file::{LineIndex, OneIndexed};
use ruff_text_size::{TextRange, TextSize};

use crate::nesting::{MAX_NESTING, nesting_within};

/// A syntax error in a cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxIssue {
    /// Line within the parsed text.
    pub line: OneIndexed,
    /// Character column.
    pub column: OneIndexed,
    pub message: String,
    /// Byte range within the parsed text.
    pub range: TextRange,
}

/// The result of parsing one cell's Python text.
#[derive(Debug, Clone)]
pub struct ParsedCell {
    pub module: ModModule,
    pub errors: Vec<SyntaxIssue>,
    source: String,
    index: LineIndex,
}

impl ParsedCell {
    /// The text that was parsed (offsets in `module` point into it).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Line and character column of a byte offset into [`Self::source`].
    /// Offsets past the end are clamped.
    pub fn line_column(&self, offset: TextSize) -> (OneIndexed, OneIndexed) {
        let mut offset = offset.to_usize().min(self.source.len());
        while !self.source.is_char_boundary(offset) {
            offset -= 1;
        }
        let offset = TextSize::try_from(offset).unwrap_or_default();
        let lc = self.index.line_column(offset, &self.source);
        (lc.line, lc.column)
    }

    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }
}

/// Parse Python text (with IPython escapes: `%magic`, `!cmd`, `x = !ls`, `obj?`).
///
/// Text nested deeper than [`MAX_NESTING`] levels is not parsed: the result
/// is an empty module with one issue at its first line saying so (see
/// `nesting.rs`).
pub fn parse_python(source: &str) -> ParsedCell {
    let mut cell = ParsedCell {
        module: ModModule {
            node_index: Default::default(),
            range: TextRange::default(),
            body: Default::default(),
        },
        errors: Vec::new(),
        source: source.to_string(),
        index: LineIndex::from_source_text(source),
    };
    if nesting_within(source, MAX_NESTING).is_none() {
        cell.errors.push(SyntaxIssue {
            line: OneIndexed::MIN,
            column: OneIndexed::MIN,
            message: format!(
                "nested too deeply to analyse (more than {MAX_NESTING} levels of brackets, \
                 operators or blocks; CPython's own limits are lower)"
            ),
            range: TextRange::default(),
        });
        return cell;
    }
    let options = ParseOptions::from(Mode::Ipython).with_target_version(PythonVersion::latest());
    // Ruff's parser has inputs it panics on (IPython mode: `{) \n,` reaches
    // an `unreachable!`); such a cell is a syntax issue, not a crash.
    let parsed = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        parse_unchecked(source, options)
    })) {
        Ok(parsed) => parsed,
        Err(_) => {
            cell.errors.push(SyntaxIssue {
                line: OneIndexed::MIN,
                column: OneIndexed::MIN,
                message: "cannot be parsed (the Python parser failed on this cell)".to_string(),
                range: TextRange::default(),
            });
            return cell;
        }
    };
    let mut issues: Vec<(TextRange, String)> = parsed
        .errors()
        .iter()
        .map(|e| (e.location, e.error.to_string()))
        .collect();
    issues.extend(
        parsed
            .unsupported_syntax_errors()
            .iter()
            .map(|e| (e.range, e.to_string())),
    );
    match parsed.try_into_module() {
        Some(module) => cell.module = module.into_syntax(),
        None => issues.push((
            TextRange::default(),
            "internal error: the parser did not return a module".to_string(),
        )),
    }
    issues.sort_by_key(|(range, _)| range.start());
    cell.errors = issues
        .into_iter()
        .map(|(range, message)| {
            let (line, column) = cell.line_column(range.start());
            SyntaxIssue {
                line,
                column,
                message,
                range,
            }
        })
        .collect();
    cell
}

#[cfg(test)]
mod tests {
    use super::*;
    use ruff_python_ast::{Expr, Stmt};

    #[test]
    fn parses_ipython_escapes() {
        let p = parse_python("%matplotlib inline\n!pip install x\nx = !ls\ndf?\n");
        assert!(!p.has_errors(), "{:?}", p.errors);
        assert_eq!(p.module.body.len(), 4);
        assert!(matches!(p.module.body[0], Stmt::IpyEscapeCommand(_)));
        match &p.module.body[2] {
            Stmt::Assign(a) => assert!(matches!(*a.value, Expr::IpyEscapeCommand(_))),
            other => panic!("expected assignment, got {other:?}"),
        }
    }

    #[test]
    fn reports_syntax_errors_with_positions() {
        let p = parse_python("x = 1\nprint \"hi\"\n");
        assert!(p.has_errors());
        let first = &p.errors[0];
        assert_eq!(first.line.get(), 2);
        assert!(!first.message.is_empty());
    }

    #[test]
    fn modern_syntax_is_not_flagged() {
        let p = parse_python("match x:\n    case 1:\n        pass\ntype T = int\n");
        assert!(!p.has_errors(), "{:?}", p.errors);
    }

    #[test]
    fn line_column_counts_characters_and_clamps() {
        let p = parse_python("é = 1\nab = 2\n");
        let at = |offset| {
            let (line, column) = p.line_column(TextSize::new(offset));
            (line.get(), column.get())
        };
        assert_eq!(at(0), (1, 1));
        assert_eq!(at(2), (1, 2));
        assert_eq!(at(1), (1, 1));
        assert_eq!(at(8), (2, 2));
        assert_eq!(at(10_000).0, 3);
        assert_eq!(p.source(), "é = 1\nab = 2\n");
    }

    #[test]
    fn too_deep_is_an_issue_not_a_crash() {
        let panicking = parse_python("{) \n,");
        assert_eq!(panicking.errors.len(), 1, "{:?}", panicking.errors);
        assert!(panicking.errors[0].message.contains("cannot be parsed"));
        let deep = format!("x = {}1\n", "lambda: ".repeat(MAX_NESTING + 1));
        let p = parse_python(&deep);
        assert!(p.module.body.is_empty());
        assert_eq!(p.errors.len(), 1);
        assert!(
            p.errors[0].message.contains("nested too deeply"),
            "{:?}",
            p.errors
        );
        assert_eq!((p.errors[0].line.get(), p.errors[0].column.get()), (1, 1));
        let fine = format!("x = {}1\n", "lambda: ".repeat(1_000));
        assert!(!parse_python(&fine).has_errors());
    }

    #[test]
    fn empty_source() {
        let p = parse_python("");
        assert!(!p.has_errors());
        assert!(p.module.body.is_empty());
    }
}
