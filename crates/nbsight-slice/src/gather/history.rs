//! Gathering a run history: the code a kernel really ran, one execution
//! after another (the executions of a dynamic slice, in execution order),
//! written as a script or notebook that reproduces the last one's result on
//! a fresh kernel. The executions are read as a notebook run top to bottom
//! once, and sliced statically by statements from the last: what the last
//! execution needs of the code that ran before it, no more.

use std::fmt::Write as _;
use std::path::PathBuf;

use nbsight_dataflow::Effects;
use nbsight_notebook::{Cell, CellIndex, Language, Notebook, SourceFormat};
use serde_json::{Value, json};

use super::emit::{Target, cell_code};
use super::{GatherError, GatherFormat, source_lines};
use crate::query::{Granularity, Slice, Slicer};

/// One execution of a history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryCell {
    /// The cell that ran (the front end's cell id).
    pub cell_id: String,
    /// The kernel's execution count of the run, when it stored history.
    pub execution_count: Option<u32>,
    /// The code that ran.
    pub source: String,
}

impl HistoryCell {
    fn label(&self) -> String {
        match self.execution_count {
            Some(count) => format!("cell {} [{count}]", self.cell_id),
            None => format!("cell {}", self.cell_id),
        }
    }
}

/// The program reproducing the last execution of `history` from the ones
/// before it (`None` for an empty history).
pub fn gather_history(
    history: &[HistoryCell],
    effects: &Effects,
    format: GatherFormat,
) -> Result<Option<String>, GatherError> {
    let Some(last) = history.len().checked_sub(1) else {
        return Ok(None);
    };
    let notebook = Notebook {
        path: PathBuf::from("history"),
        format: SourceFormat::Ipynb,
        nbformat: Some((4, 5)),
        language: Language::Python,
        cells: history
            .iter()
            .enumerate()
            .map(|(i, h)| Cell::new_code(i, &h.source, &Language::Python))
            .collect(),
        diagnostics: Vec::new(),
    };
    let Ok(slice) = Slicer::new(&notebook, effects).backward(last, Granularity::Statements) else {
        return Ok(None);
    };
    let target = match format {
        GatherFormat::Py => Target::Script,
        GatherFormat::Ipynb => Target::Notebook,
    };
    let codes: Vec<(&HistoryCell, String)> = slice
        .cells
        .iter()
        .map(|&cell| (&history[cell.index()], code(&slice, cell, last, target)))
        .collect();
    let last = &history[last];
    Ok(Some(match format {
        GatherFormat::Py => script(last, &slice, &codes),
        GatherFormat::Ipynb => as_notebook(last, &codes)?,
    }))
}

fn code(slice: &Slice, cell: CellIndex, last: usize, target: Target) -> String {
    match &slice.target_error {
        Some(error) if cell == slice.cell => format!(
            "# this code does not parse (line {}: {}): left out",
            error.line, error.message
        ),
        _ => cell_code(
            &slice.layout,
            cell.index(),
            &slice.units,
            target,
            cell.index() == last,
        ),
    }
}

fn script(last: &HistoryCell, slice: &Slice, codes: &[(&HistoryCell, String)]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# What {} needs of the code the kernel ran before it, gathered by nbsight",
        last.label()
    );
    let _ = writeln!(
        out,
        "# ({} executions; {} of {} statements). Run it with python3: the value it displayed is printed; lines only IPython runs are comments.",
        codes.len(),
        slice.statements_in_slice,
        slice.statements_in_notebook
    );
    for (cell, code) in codes {
        let _ = writeln!(out, "\n# %% {}", cell.label());
        if !code.is_empty() {
            let _ = writeln!(out, "{code}");
        }
    }
    out
}

fn as_notebook(
    last: &HistoryCell,
    codes: &[(&HistoryCell, String)],
) -> Result<String, GatherError> {
    let cells: Vec<Value> = codes
        .iter()
        .enumerate()
        .map(|(i, (cell, code))| {
            json!({
                "cell_type": "code",
                "execution_count": null,
                "id": format!("gathered-{i}"),
                "metadata": {"nbsight": {"cell_id": cell.cell_id, "execution_count": cell.execution_count}},
                "outputs": [],
                "source": source_lines(code),
            })
        })
        .collect();
    let doc = json!({
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "nbsight": {"gathered": {"cell_id": last.cell_id, "execution_count": last.execution_count}},
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

    fn cell(id: &str, count: u32, source: &str) -> HistoryCell {
        HistoryCell {
            cell_id: id.into(),
            execution_count: Some(count),
            source: source.into(),
        }
    }

    #[test]
    fn only_what_the_last_execution_needs() {
        let history = [
            cell("c1", 1, "import math\nlst = [1, 2, 3, 4, 5]\nunused = 0"),
            cell("c2", 2, "lst[3] = 42"),
            cell("c3", 3, "%matplotlib inline\ny = lst[2] + 7\ny"),
        ];
        let text = gather_history(&history, &Effects::builtin(), GatherFormat::Py)
            .expect("gathers")
            .expect("a history");
        insta::assert_snapshot!(text, @r"
        # What cell c3 [3] needs of the code the kernel ran before it, gathered by nbsight
        # (2 executions; 3 of 7 statements). Run it with python3: the value it displayed is printed; lines only IPython runs are comments.

        # %% cell c1 [1]
        lst = [1, 2, 3, 4, 5]

        # %% cell c3 [3]
        y = lst[2] + 7
        __nbsight_value = (y)
        if __nbsight_value is not None:
            print(repr(__nbsight_value))
        ");
    }
}
