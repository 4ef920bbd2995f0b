//! Reading percent scripts as jupytext writes them.
//!
//! - A cell starts at a line `# %%` (or `#%%`) at column 0, optionally followed by a
//!   title, a cell type `[markdown]`, `[md]` or `[raw]`, and jupytext metadata
//!   (`key="value"`); of the metadata only `tags=[...]` is kept.
//! - Markdown and raw cell bodies are commented lines; each loses its leading `# `
//!   (or `#`).
//! - A jupytext YAML header (`# ---` ... `# ---`) at the top is metadata: it is
//!   skipped, and its `kernelspec.language` is honoured. Other non-blank text before
//!   the first marker is a code cell; a file with no marker is one code cell.
//! - Trailing blank lines of each cell are dropped; lines are joined with `\n`.
//! - Code keeps jupytext's commented magics (`# %matplotlib inline`) in
//!   [`crate::Cell::source`]; [`crate::Cell::python_source`] uncomments them.
//!
//! Percent cells have no execution counts or outputs, and content-derived ids.

mod header;
pub(crate) mod marker;

use std::path::Path;

use crate::OneIndexed;
use crate::assemble::{Draft, DraftCell, assemble};
use crate::cell::{CellKind, CellOrigin};
use crate::language::Language;
use crate::notebook::{Notebook, SourceFormat};

use header::split_header;
use marker::{marker_tags, parse_marker};

/// Read a percent script; `path` is used only in messages. Never fails.
pub fn load_percent_str(path: &Path, text: &str) -> Notebook {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    let (language, body_start) = split_header(&lines);
    let language = language.map_or(Language::Python, |l| Language::from_name(&l));

    let markers: Vec<(usize, CellKind)> = lines
        .iter()
        .enumerate()
        .skip(body_start)
        .filter_map(|(i, line)| parse_marker(line).map(|kind| (i, kind)))
        .collect();

    let mut cells = Vec::new();
    let preamble_end = markers.first().map_or(lines.len(), |(i, _)| *i);
    let preamble = &lines[body_start..preamble_end];
    if let Some(first) = preamble.iter().position(|l| !l.trim().is_empty()) {
        cells.push(make_cell(
            CellKind::Code,
            &preamble[first..],
            OneIndexed::from_zero_indexed(body_start + first),
        ));
    }
    for (n, (at, kind)) in markers.iter().enumerate() {
        let end = markers.get(n + 1).map_or(lines.len(), |(next, _)| *next);
        let mut cell = make_cell(
            *kind,
            &lines[at + 1..end],
            OneIndexed::from_zero_indexed(at + 1),
        );
        cell.tags = marker_tags(lines[*at]);
        cells.push(cell);
    }

    assemble(Draft {
        path,
        format: SourceFormat::Percent,
        nbformat: None,
        language,
        cells,
        diagnostics: Vec::new(),
    })
}

/// A cell from its body lines; `first_line` is the file line of `body[0]`.
fn make_cell(kind: CellKind, body: &[&str], first_line: OneIndexed) -> DraftCell {
    let end = body
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |i| i + 1);
    let body = &body[..end];
    let source = match kind {
        CellKind::Code => body.join("\n"),
        CellKind::Markdown | CellKind::Raw => body
            .iter()
            .map(|l| uncomment_text(l))
            .collect::<Vec<_>>()
            .join("\n"),
    };
    DraftCell::new(kind, source, CellOrigin::Percent { first_line })
}

/// A markdown/raw line without its leading `# ` (or `#`).
fn uncomment_text(line: &str) -> &str {
    line.strip_prefix("# ")
        .or_else(|| line.strip_prefix('#'))
        .unwrap_or(line)
}

#[cfg(test)]
mod tests;
