//! ## What it reports
//! A cell that reads a name no earlier cell defines. Restart & Run All runs
//! the cells top to bottom, so it fails there with `NameError`: the name is
//! defined only in a cell below (the notebook was run out of order) or
//! nowhere (a deleted cell, a typo, Python 2's `xrange`). Reads through user
//! functions count: calling `report()` reads the globals `report` reads.
//!
//! ## Why it matters
//! The saved notebook only worked in the kernel it was written in. Whoever
//! re-runs it (a colleague, CI, you next month) gets an error, or has to
//! guess the order the cells were really run in.
//!
//! ## Example
//! ```python
//! # %%
//! import pandas as pd
//!
//! # %%
//! sales = pd.read_csv("sales.csv")
//! sales["net"] = sales["price"] * rate
//!
//! # %%
//! rate = 0.8
//! ```
//!
//! `nbsight check` reports:
//! ```text
//! cell 1:2:16: NBS001 reads `rate`, first defined below in cell 2: Restart & Run All fails here with NameError
//! ```
//!
//! Move the cell that defines `rate` above the cell that reads it.
//!
//! ## Not reported
//! - Names an earlier cell may define, also conditionally (inside an `if`).
//! - Names the cell itself may bind before the read on some path (a loop
//!   that assigns before a later read).
//! - Builtins.
//! - Anything after a cell that can bind names nbsight cannot see
//!   (`from m import *`, `%run`, `%store -r`, `exec`,
//!   `globals()[...] = ...`) or a cell that does not parse, that cell
//!   included.

use crate::check::finding;
use crate::finding::Finding;
use crate::rules::{Driver, Rule};
use nbsight_model::vars::VarSet;
use nbsight_model::{CellStatus, NotebookModel};
use nbsight_notebook::OneIndexed;

pub(crate) const DRIVER: Driver = Driver::new("undefined_on_run_all", undefined_names);

/// Replays Run All: the names defined so far, cell after cell, and every
/// read of a name not among them.
fn undefined_names(model: &NotebookModel, findings: &mut Vec<Finding>) {
    let mut defined = VarSet::new();
    for cell in &model.cells {
        if matches!(cell.status, CellStatus::Broken { .. }) {
            return;
        }
        let Some(compiled) = cell.compiled.as_deref() else {
            continue;
        };
        if compiled.unknown_defs {
            return;
        }
        let program = &compiled.program;
        for v in cell.pre.iter() {
            if defined.contains(v) || model.is_plain_builtin(model.vars.name(v)) {
                continue;
            }
            // Read directly: only when no binding in the cell may reach it.
            if compiled.uses.contains(v) && !compiled.unbound_reads.contains(v) {
                continue;
            }
            let name = model.vars.name(v);
            // Read directly, or through a user function the cell references.
            let via = if compiled.uses.contains(v) {
                None
            } else {
                compiled.uses.iter().find(|f| {
                    model
                        .functions
                        .get(f)
                        .is_some_and(|info| info.reads.contains(v))
                })
            };
            let location = program
                .first_read(&VarSet::from_iter([via.unwrap_or(v)]))
                .unwrap_or((OneIndexed::MIN, OneIndexed::MIN));
            let later = model
                .cells
                .iter()
                .skip(cell.index + 1)
                .find(|c| c.outputs.contains(v));
            let reading = match via {
                Some(f) => format!("calls `{}`, which reads `{name}`", model.vars.name(f)),
                None => format!("reads `{name}`"),
            };
            let (message, path) = match later {
                Some(d) => (
                    format!(
                        "{reading}, first defined below in cell {}: Restart & Run All fails here with NameError",
                        d.index
                    ),
                    vec![cell.index],
                ),
                None => (
                    format!(
                        "{reading}, which no cell defines (and is not a builtin): Restart & Run All fails here with NameError"
                    ),
                    vec![cell.index],
                ),
            };
            findings.push(finding(
                model,
                Rule::UndefinedOnRunAll,
                cell.index,
                location,
                message,
                path,
            ));
        }
        defined.union_with(&cell.outputs);
    }
}
