//! ## What it reports
//! A code cell that neither reads anything another cell defines nor defines
//! anything another cell reads (NBLyzer's isolated cells): it could be
//! deleted or moved anywhere without changing what the other cells compute.
//! Off by default.
//!
//! ## Why it matters
//! Such cells are often leftovers of exploration (a `print`, a quick
//! `df.head()` on data no longer loaded) that make the notebook longer to
//! read and to run.
//!
//! ## Example
//! ```python
//! # %%
//! import pandas as pd
//!
//! # %%
//! orders = pd.read_csv("orders.csv")
//!
//! # %%
//! print("hello")
//!
//! # %%
//! orders["amount"].sum()
//! ```
//!
//! `nbsight check --select isolated-cell` reports:
//! ```text
//! cell 2:1:1: NBS201 neither reads nor defines anything another cell uses: a leftover of exploration? (safe to remove or move out of the notebook)
//! ```
//!
//! ## Not reported
//! - Cells holding only IPython magics (`%matplotlib inline`), markdown and
//!   cells that are not Python.
//! - A cell that only reads what another cell defines (`orders.describe()`):
//!   it depends on that cell.
//! - A cell that writes or deletes files (`to_csv`, `savefig`, `os.remove`,
//!   `open(path, "w")`): a later cell may read them by their path.
//! - Links out of sight: a `%run script.py` or `from module import *` cell
//!   whose names later cells read (and those readers); a cell whose names a
//!   cell that does not parse writes (it may read or bind them there); a
//!   cell whose definitions a function or method body of another cell reads
//!   (a class used only inside another class's method), or whose functions
//!   and methods read what another cell defines.

use crate::check::finding;
use crate::finding::Finding;
use crate::hidden::OutOfSight;
use crate::rules::{Driver, Rule};
use nbsight_dataflow::effects::Role;
use nbsight_model::NotebookModel;
use nbsight_notebook::OneIndexed;
use nbsight_whatif::is_isolated;

pub(crate) const DRIVER: Driver = Driver::new("isolated_cell", isolated_cells);

/// Every code cell with Python statements that no other code cell depends
/// on and that depends on none.
fn isolated_cells(model: &NotebookModel, findings: &mut Vec<Finding>) {
    let hidden = OutOfSight::of(model);
    for cell in model.code_cells() {
        if !cell.compiled.as_deref().is_some_and(|c| c.has_python) {
            continue;
        }
        if is_isolated(model, cell) && !hidden.connects(model, cell) && !writes_files(cell) {
            findings.push(finding(
                model,
                Rule::IsolatedCell,
                cell.index,
                (OneIndexed::MIN, OneIndexed::MIN),
                "neither reads nor defines anything another cell uses: a leftover of exploration? (safe to remove or move out of the notebook)".into(),
                vec![cell.index],
            ));
        }
    }
}

/// The cell writes or deletes files (`to_csv`, `savefig`, `os.remove`,
/// `open(path, "w")`): a later cell, or whoever runs the notebook, may read
/// them, so the cell is no leftover even when no variable links it.
fn writes_files(cell: &nbsight_model::CellInfo) -> bool {
    let by_role = cell.program().is_some_and(|p| {
        p.calls
            .iter()
            .any(|c| c.has(Role::WriteFile) || c.has(Role::DeleteFile))
    });
    by_role
        || cell
            .parsed
            .as_deref()
            .is_some_and(|parsed| opens_for_writing(parsed.source()))
}

/// `open(...)` (also `codecs.open`, `path.open`) with a mode that writes:
/// a string literal of mode letters with `w`, `a`, `x` or `+`.
fn opens_for_writing(source: &str) -> bool {
    source.match_indices("open(").any(|(at, _)| {
        let mut depth = 0usize;
        let args = &source[at + "open(".len()..];
        let end = args
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' if depth == 0 => return true,
                    ')' | ']' | '}' => depth -= 1,
                    _ => {}
                }
                false
            })
            .map_or(args.len(), |(i, _)| i);
        let args = &args[..end];
        // String literals that follow a `,` or `=`: not the path.
        let mut rest = args;
        while let Some(open) = rest.find(['\'', '"']) {
            let quote = rest.as_bytes()[open] as char;
            let preceding = &rest[..open];
            let Some(close) = rest[open + 1..].find(quote) else {
                return false;
            };
            let literal = &rest[open + 1..open + 1 + close];
            let after_comma = preceding.trim_end().ends_with([',', '=']);
            if after_comma
                && !literal.is_empty()
                && literal.chars().all(|c| "rwabxt+U".contains(c))
                && literal.contains(['w', 'a', 'x', '+'])
            {
                return true;
            }
            rest = &rest[open + close + 2..];
        }
        false
    })
}

#[cfg(test)]
mod tests {
    use super::opens_for_writing;

    #[test]
    fn write_modes_are_seen() {
        assert!(opens_for_writing(
            "with open(path, 'w') as f:\n    f.write('x')"
        ));
        assert!(opens_for_writing(
            "f = codecs.open(\"out.txt\", mode=\"a\", encoding=\"utf-8\")"
        ));
        assert!(opens_for_writing("open(os.path.join(d, 'x'), 'wb')"));
        assert!(!opens_for_writing(
            "with open('data.txt') as f:\n    print(f.read())"
        ));
        assert!(!opens_for_writing("open('a.txt', 'r')"));
        assert!(!opens_for_writing("open('wax')"));
    }
}
