//! Quick fixes that silence a finding with the comments `nbsight check`
//! honours (`crates/nbsight-check/src/suppress.rs`): `# noqa: CODE` on the
//! flagged line, `# noqa: CODE` as the first line of the cell, and, as the
//! notebook-level source action `notebook.source.addNoqa.nbsight`, a line
//! comment for every finding of the notebook. A comment that already names
//! codes gets the new one appended; a bare `# noqa` already silences all.

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Diagnostic, Position, Range, TextEdit, Uri,
    WorkspaceEdit,
};
use rustc_hash::FxHashMap;

use crate::diagnostics::rule_code;
use crate::encoding::{Encoding, nth_line};

/// The kind of the notebook-level action.
pub(crate) const ADD_NOQA_KIND: &str = "notebook.source.addNoqa.nbsight";

/// Where `# noqa` stands in `line`: its byte offset and the codes it names
/// (`None`: a bare `# noqa`, which silences every rule).
fn noqa_in(line: &str) -> Option<(usize, Option<Vec<String>>)> {
    let lower = line.to_ascii_lowercase();
    let at = lower.find("# noqa").or_else(|| lower.find("#noqa"))?;
    let rest = &line[at..];
    let after = rest.trim_start_matches('#').trim_start();
    let after = &after["noqa".len().min(after.len())..];
    let codes = after.strip_prefix(':').map(|codes| {
        codes
            .split([',', ' '])
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_string)
            .collect()
    });
    Some((at, codes))
}

/// The edit that makes line `row` of `text` silence `code`, `None` when
/// it already does.
fn line_edit(text: &str, row: usize, code: &str, encoding: Encoding) -> Option<TextEdit> {
    let line = nth_line(text, row);
    let end = encoding.at_char(text, row, line.chars().count());
    match noqa_in(line) {
        Some((_, None)) => None,
        Some((_, Some(codes))) if codes.iter().any(|c| c.eq_ignore_ascii_case(code)) => None,
        Some((_, Some(codes))) if !codes.is_empty() => {
            Some(TextEdit::new(Range::new(end, end), format!(", {code}")))
        }
        _ => {
            let gap = if line.trim().is_empty() { "" } else { "  " };
            Some(TextEdit::new(
                Range::new(end, end),
                format!("{gap}# noqa: {code}"),
            ))
        }
    }
}

/// The edit that makes the cell whose text is `text` (a cell document)
/// silence `code` throughout.
fn cell_edit(text: &str, code: &str, encoding: Encoding) -> Option<TextEdit> {
    let first = nth_line(text, 0);
    let is_directive = first.trim_start().starts_with('#')
        && noqa_in(first).is_some_and(|(at, _)| first[..at].trim().is_empty());
    if is_directive {
        return line_edit(text, 0, code, encoding);
    }
    let start = Position::new(0, 0);
    Some(TextEdit::new(
        Range::new(start, start),
        format!("# noqa: {code}\n"),
    ))
}

fn action(
    title: String,
    kind: CodeActionKind,
    uri: &Uri,
    edits: Vec<TextEdit>,
    diagnostics: Vec<Diagnostic>,
) -> CodeActionOrCommand {
    let mut changes = std::collections::HashMap::new();
    changes.insert(uri.clone(), edits);
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(kind),
        diagnostics: (!diagnostics.is_empty()).then_some(diagnostics),
        edit: Some(WorkspaceEdit {
            changes: Some(changes),
            ..WorkspaceEdit::default()
        }),
        ..CodeAction::default()
    })
}

/// Whether actions of `kind` were asked for (`only`, by prefix).
fn wanted(only: Option<&[CodeActionKind]>, kind: &str) -> bool {
    only.is_none_or(|only| {
        only.iter().any(|o| {
            let o = o.as_str();
            kind == o
                || kind
                    .strip_prefix(o)
                    .is_some_and(|rest| rest.starts_with('.'))
        })
    })
}

/// The quick fixes for the findings among `diagnostics` that touch
/// `range` in the document `uri` with text `text`; `cell` is true for a
/// notebook cell (which has the cell-level form).
pub(crate) fn quick_fixes(
    uri: &Uri,
    text: &str,
    cell: bool,
    range: Range,
    diagnostics: &[Diagnostic],
    only: Option<&[CodeActionKind]>,
    encoding: Encoding,
) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    if !wanted(only, CodeActionKind::QUICKFIX.as_str()) {
        return out;
    }
    let touches = |d: &Diagnostic| {
        d.range.start.line <= range.end.line && d.range.end.line >= range.start.line
    };
    let mut seen_cell: Vec<&str> = Vec::new();
    for diagnostic in diagnostics.iter().filter(|d| touches(d)) {
        let Some(code) = rule_code(diagnostic) else {
            continue;
        };
        if let Some(edit) = line_edit(text, diagnostic.range.start.line as usize, code, encoding) {
            out.push(action(
                format!("Disable {code} for this line"),
                CodeActionKind::QUICKFIX,
                uri,
                vec![edit],
                vec![diagnostic.clone()],
            ));
        }
        if cell && !seen_cell.contains(&code) {
            seen_cell.push(code);
            if let Some(edit) = cell_edit(text, code, encoding) {
                out.push(action(
                    format!("Disable {code} for this cell"),
                    CodeActionKind::QUICKFIX,
                    uri,
                    vec![edit],
                    vec![diagnostic.clone()],
                ));
            }
        }
    }
    out
}

/// The notebook-level action: a `# noqa: CODES` comment on every line with
/// a finding, in every cell (`cells`: each cell's URI, text, diagnostics).
pub(crate) fn add_noqa_everywhere<'a>(
    cells: impl Iterator<Item = (&'a Uri, &'a str, &'a [Diagnostic])>,
    only: Option<&[CodeActionKind]>,
    encoding: Encoding,
) -> Option<CodeActionOrCommand> {
    if only.is_none() || !wanted(only, ADD_NOQA_KIND) {
        // Only on request: a source action, not a quick fix at the cursor.
        return None;
    }
    let mut changes: FxHashMap<Uri, Vec<TextEdit>> = FxHashMap::default();
    for (uri, text, diagnostics) in cells {
        let mut by_line: Vec<(usize, Vec<&str>)> = Vec::new();
        for d in diagnostics {
            if let Some(code) = rule_code(d) {
                let row = d.range.start.line as usize;
                match by_line.iter_mut().find(|(r, _)| *r == row) {
                    Some((_, codes)) if !codes.contains(&code) => codes.push(code),
                    Some(_) => {}
                    None => by_line.push((row, vec![code])),
                }
            }
        }
        for (row, codes) in by_line {
            if let Some(edit) = line_edit(text, row, &codes.join(", "), encoding) {
                changes.entry(uri.clone()).or_default().push(edit);
            }
        }
    }
    if changes.is_empty() {
        return None;
    }
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: "Disable every nbsight finding with # noqa comments".into(),
        kind: Some(CodeActionKind::from(ADD_NOQA_KIND)),
        edit: Some(WorkspaceEdit {
            changes: Some(changes.into_iter().collect()),
            ..WorkspaceEdit::default()
        }),
        ..CodeAction::default()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(text: &str, edit: &TextEdit) -> String {
        let mut text = text.to_string();
        let change = lsp_types::TextDocumentContentChangeEvent {
            range: Some(edit.range),
            range_length: None,
            text: edit.new_text.clone(),
        };
        crate::documents::apply(&mut text, &change, Encoding::Utf16);
        text
    }

    #[test]
    fn line_comments_are_added_or_extended() {
        let e = line_edit("print(x)\n", 0, "NBS001", Encoding::Utf16).unwrap();
        assert_eq!(apply("print(x)\n", &e), "print(x)  # noqa: NBS001\n");
        let text = "print(x)  # noqa: NBS002\n";
        let e = line_edit(text, 0, "NBS001", Encoding::Utf16).unwrap();
        assert_eq!(apply(text, &e), "print(x)  # noqa: NBS002, NBS001\n");
        assert!(line_edit("print(x)  # noqa\n", 0, "NBS001", Encoding::Utf16).is_none());
        assert!(line_edit("print(x)  # noqa: NBS001\n", 0, "NBS001", Encoding::Utf16).is_none());
    }

    #[test]
    fn cell_directives_go_first() {
        let e = cell_edit("print(x)", "NBS001", Encoding::Utf16).unwrap();
        assert_eq!(apply("print(x)", &e), "# noqa: NBS001\nprint(x)");
        let text = "# noqa: NBS002\nprint(x)";
        let e = cell_edit(text, "NBS001", Encoding::Utf16).unwrap();
        assert_eq!(apply(text, &e), "# noqa: NBS002, NBS001\nprint(x)");
    }

    #[test]
    fn kinds_match_by_prefix() {
        let only = [CodeActionKind::from("notebook.source")];
        assert!(wanted(Some(&only), ADD_NOQA_KIND));
        assert!(!wanted(Some(&only), "quickfix"));
        assert!(wanted(None, "quickfix"));
    }
}
