//! Gathering a slice into a program that runs on its own: a Python script
//! (`.py`, percent format: one `# %% cell N` block per cell of the slice) or
//! a notebook (`.ipynb`, nbformat 4.5, one code cell per cell of the slice,
//! no outputs, python3 kernelspec). Statements keep their notebook order and
//! their original text ([`emit`]).

mod emit;
mod history;

pub use history::{HistoryCell, gather_history};

use std::fmt::Write as _;
use std::path::Path;

use nbsight_notebook::CellIndex;
use serde_json::{Value, json};
use thiserror::Error;

use super::query::{Direction, Granularity, Slice};
use emit::{Target, cell_code};

/// What a slice is gathered into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GatherFormat {
    /// A Python script.
    Py,
    /// A Jupyter notebook.
    Ipynb,
}

impl GatherFormat {
    /// The format a file name asks for (`.py` or `.ipynb`).
    pub fn from_path(path: &Path) -> Option<GatherFormat> {
        match path.extension()?.to_str()? {
            "py" => Some(GatherFormat::Py),
            "ipynb" => Some(GatherFormat::Ipynb),
            _ => None,
        }
    }
}

/// Why a slice could not be gathered.
#[derive(Debug, Error)]
pub enum GatherError {
    #[error("cannot write the notebook as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// The text of the program gathered from `slice`. In a script, the value the
/// target cell of a backward slice displays is printed.
pub fn gather(slice: &Slice, format: GatherFormat) -> Result<String, GatherError> {
    match format {
        GatherFormat::Py => Ok(script(slice)),
        GatherFormat::Ipynb => notebook(slice),
    }
}

fn direction(slice: &Slice) -> &'static str {
    match slice.direction {
        Direction::Backward => "backward",
        Direction::Forward => "forward",
    }
}

fn granularity(slice: &Slice) -> &'static str {
    match slice.granularity {
        Granularity::Cells => "cells",
        Granularity::Statements => "statements",
    }
}

/// The cells of the slice with their code.
fn cells(slice: &Slice, target: Target) -> Vec<(CellIndex, String)> {
    let show = slice.direction == Direction::Backward;
    slice
        .cells
        .iter()
        .map(|&cell| {
            let code = match &slice.target_error {
                Some(error) if cell == slice.cell => format!(
                    "# cell {cell} does not parse (line {}: {}): left out",
                    error.line, error.message
                ),
                _ => cell_code(
                    &slice.layout,
                    cell.index(),
                    &slice.units,
                    target,
                    show && cell == slice.cell,
                ),
            };
            (cell, code)
        })
        .collect()
}

fn script(slice: &Slice) -> String {
    let mut out = String::new();
    let cells_list: Vec<String> = slice.cells.iter().map(|c| c.to_string()).collect();
    let _ = writeln!(
        out,
        "# The {} slice of cell {} of {}, gathered by nbsight",
        direction(slice),
        slice.cell,
        slice.notebook
    );
    let _ = writeln!(
        out,
        "# ({}): cells {}; {} of {} statements.",
        granularity(slice),
        cells_list.join(", "),
        slice.statements_in_slice,
        slice.statements_in_notebook
    );
    if slice.direction == Direction::Backward {
        let _ = writeln!(
            out,
            "# Run it with python3: the value cell {} displays is printed; lines only IPython runs are comments.",
            slice.cell
        );
    }
    for (cell, code) in cells(slice, Target::Script) {
        let _ = writeln!(out, "\n# %% cell {cell}");
        if !code.is_empty() {
            let _ = writeln!(out, "{code}");
        }
    }
    out
}

/// An nbformat cell id: the cell's own when valid, else `cell-N`.
fn cell_id(id: &str, cell: CellIndex) -> String {
    let valid = (1..=64).contains(&id.len())
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if valid {
        id.to_string()
    } else {
        format!("cell-{cell}")
    }
}

/// nbformat's multi-line string: lines keeping their `\n`, the last without.
fn source_lines(code: &str) -> Value {
    Value::Array(
        code.split_inclusive('\n')
            .map(|l| Value::String(l.to_string()))
            .collect(),
    )
}

fn notebook(slice: &Slice) -> Result<String, GatherError> {
    let cells: Vec<Value> = cells(slice, Target::Notebook)
        .into_iter()
        .map(|(cell, code)| {
            json!({
                "cell_type": "code",
                "execution_count": null,
                "id": cell_id(&slice.layout.cells[cell.index()].id, cell),
                "metadata": {"nbsight": {"cell": cell}},
                "outputs": [],
                "source": source_lines(&code),
            })
        })
        .collect();
    let doc = json!({
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "nbsight": {
                "slice": {
                    "notebook": slice.notebook,
                    "cell": slice.cell,
                    "direction": direction(slice),
                    "granularity": granularity(slice),
                    "cells": slice.cells,
                }
            }
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    });
    let mut text = serde_json::to_string_pretty(&doc)?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_from_extensions() {
        assert_eq!(
            GatherFormat::from_path(Path::new("a/b.py")),
            Some(GatherFormat::Py)
        );
        assert_eq!(
            GatherFormat::from_path(Path::new("b.ipynb")),
            Some(GatherFormat::Ipynb)
        );
        assert_eq!(GatherFormat::from_path(Path::new("b.txt")), None);
        assert_eq!(GatherFormat::from_path(Path::new("py")), None);
    }

    #[test]
    fn ids_and_lines() {
        let cell = CellIndex::new;
        assert_eq!(cell_id("h0123abcd", cell(3)), "h0123abcd");
        assert_eq!(cell_id("has space", cell(3)), "cell-3");
        assert_eq!(cell_id("", cell(0)), "cell-0");
        assert_eq!(source_lines("a\nb"), json!(["a\n", "b"]));
        assert_eq!(source_lines(""), json!([]));
    }
}
