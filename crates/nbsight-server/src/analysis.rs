//! One analysis of an open document: the notebook the engines read, its
//! model, `nbsight check`'s findings under the settings in force for its
//! path, and where each finding is in the editor's documents (cell URIs, or
//! the script's lines), in the client's position encoding.

use std::borrow::Cow;

use lsp_types::{Diagnostic, Position, Range, Uri};
use nbsight_check::{RuleSet, check_notebook_model};
use nbsight_dataflow::Effects;
use nbsight_model::NotebookModel;
use nbsight_notebook::{Notebook, OneIndexed};
use rustc_hash::FxHashMap;

use crate::diagnostics::{finding_diagnostic, syntax_diagnostic};
use crate::documents::{Doc, split_joined};
use crate::encoding::{Encoding, nth_line};

/// A document analysed at one version.
#[derive(Debug)]
pub(crate) struct Analysis {
    pub(crate) notebook: Notebook,
    pub(crate) model: NotebookModel,
    /// The static diagnostics of every cell URI (the script's URI for a
    /// script), empty lists included.
    pub(crate) diagnostics: FxHashMap<Uri, Vec<Diagnostic>>,
    /// Where each notebook cell is in the editor.
    pub(crate) places: Vec<CellPlace>,
}

/// Where a notebook cell is: the document holding it and its first line
/// there (0 for a cell document; the line after the marker in a script).
#[derive(Debug, Clone)]
pub(crate) struct CellPlace {
    pub(crate) uri: Uri,
    pub(crate) first_line: usize,
}

/// Analyses `doc` with the rules in `rules`; `previous` is the model of
/// its last analysis, whose cells that did not change are not parsed or
/// compiled again.
pub(crate) fn analyse(
    doc: &Doc,
    previous: Option<&NotebookModel>,
    rules: RuleSet,
    encoding: Encoding,
) -> Analysis {
    let notebook = doc.notebook();
    let effects = Effects::shared_builtin();
    let model = match previous {
        Some(previous) => {
            let mut model = previous.with_cells(&notebook.cells, effects);
            model.forget_other_sources();
            model
        }
        None => NotebookModel::new(&notebook, effects),
    };
    let checked = check_notebook_model(&notebook, &model, rules);
    let joined: Vec<usize> = match doc.joined {
        true => split_joined(doc.cells.first().map_or("", |c| c.text.as_str()))
            .into_iter()
            .map(|(line, _)| line)
            .collect(),
        false => Vec::new(),
    };
    let places: Vec<CellPlace> = notebook
        .cells
        .iter()
        .enumerate()
        .map(|(index, cell)| match doc.script {
            true => CellPlace {
                uri: doc.uri.clone(),
                first_line: joined.get(index).copied().unwrap_or_else(|| {
                    cell.file_line(OneIndexed::MIN)
                        .map_or(0, OneIndexed::to_zero_indexed)
                }),
            },
            false => CellPlace {
                uri: doc
                    .cells
                    .get(index)
                    .map_or(doc.uri.clone(), |c| c.uri.clone()),
                first_line: 0,
            },
        })
        .collect();
    let mut diagnostics: FxHashMap<Uri, Vec<Diagnostic>> = doc
        .cells
        .iter()
        .map(|c| (c.uri.clone(), Vec::new()))
        .collect();
    let locate = Locator {
        doc,
        notebook: &notebook,
        places: &places,
        encoding,
    };
    for (cell, issue) in &checked.syntax_errors {
        if let Some((uri, range)) = locate.at(cell.index(), issue.line, issue.column) {
            diagnostics
                .entry(uri)
                .or_default()
                .push(syntax_diagnostic(range, issue));
        }
    }
    for finding in &checked.findings {
        if let Some((uri, range)) = locate.at(finding.cell.index(), finding.line, finding.column) {
            let diagnostic = finding_diagnostic(finding, range, |cell| locate.cell_start(cell));
            diagnostics.entry(uri).or_default().push(diagnostic);
        }
    }
    Analysis {
        notebook,
        model,
        diagnostics,
        places,
    }
}

/// Finds the editor position of cell positions.
pub(crate) struct Locator<'a> {
    pub(crate) doc: &'a Doc,
    pub(crate) notebook: &'a Notebook,
    pub(crate) places: &'a [CellPlace],
    pub(crate) encoding: Encoding,
}

impl Locator<'_> {
    /// The editor text holding notebook cell `cell`.
    fn text(&self, cell: usize) -> &str {
        match self.doc.script {
            true => self.doc.cells.first().map_or("", |c| c.text.as_str()),
            false => self.doc.cells.get(cell).map_or("", |c| c.text.as_str()),
        }
    }

    /// The URI and range of the name (or the character) at 1-based `line`
    /// and character `column` of cell `cell`'s parsed text.
    pub(crate) fn at(
        &self,
        cell: usize,
        line: OneIndexed,
        column: OneIndexed,
    ) -> Option<(Uri, Range)> {
        let parsed: Cow<'_, str> = self
            .notebook
            .cells
            .get(cell)?
            .python_source()
            .unwrap_or_default();
        self.at_in(cell, &parsed, line, column)
    }

    /// [`Self::at`] given the cell's parsed text.
    pub(crate) fn at_in(
        &self,
        cell: usize,
        parsed: &str,
        line: OneIndexed,
        column: OneIndexed,
    ) -> Option<(Uri, Range)> {
        let place = self.places.get(cell)?;
        let text = self.text(cell);
        let row = place.first_line + line.to_zero_indexed();
        let raw = nth_line(text, row);
        let parsed_line = nth_line(parsed, line.to_zero_indexed());
        // IPython's clean-up (common indentation, prompts) removes a prefix.
        let shift = match raw.ends_with(parsed_line) && !parsed_line.is_empty() {
            true => raw.chars().count() - parsed_line.chars().count(),
            false => 0,
        };
        let start = column.to_zero_indexed() + shift;
        let (start, end) = word_at(raw, start);
        let range = Range::new(
            self.encoding.at_char(text, row, start),
            self.encoding.at_char(text, row, end),
        );
        Some((place.uri.clone(), range))
    }

    /// The URI and first line of notebook cell `cell`.
    pub(crate) fn cell_start(&self, cell: usize) -> Option<(Uri, Range)> {
        let place = self.places.get(cell)?;
        let start = Position::new(place.first_line as u32, 0);
        Some((place.uri.clone(), Range::new(start, start)))
    }
}

/// The identifier starting at character `start` of `line` (as characters),
/// or the one character there; clamped to the line.
pub(crate) fn word_at(line: &str, start: usize) -> (usize, usize) {
    let chars: Vec<char> = line.chars().collect();
    let start = start.min(chars.len());
    let mut end = start;
    while end < chars.len() && (chars[end].is_alphanumeric() || chars[end] == '_') {
        end += 1;
    }
    if end == start && start < chars.len() {
        end += 1;
    }
    (start, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_cover_the_identifier_or_one_character() {
        assert_eq!(word_at("print(undefined_x)", 6), (6, 17));
        assert_eq!(word_at("a + b", 2), (2, 3));
        assert_eq!(word_at("x", 5), (1, 1));
    }
}
