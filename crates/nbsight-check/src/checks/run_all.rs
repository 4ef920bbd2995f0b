//! `undefined-on-run-all`: Restart & Run All runs the cells top to bottom;
//! a cell reading a name no earlier cell defines (defined only below, or
//! nowhere) fails there with a NameError. Reads through user functions count
//! (calling `f` reads its free globals). After a cell that may bind names
//! nbsight cannot see (`from m import *`, `%run`, `exec`) or one that does
//! not parse, nothing more is reported.

use crate::check::finding;
use crate::finding::Finding;
use crate::rules::Rule;
use nbsight_model::vars::{self, Var, VarSet};
use nbsight_model::{CellStatus, NotebookModel};

pub fn undefined_names(model: &NotebookModel, findings: &mut Vec<Finding>) {
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
        for v in cell.pre.ones().map(|v| v as Var) {
            if vars::contains(&defined, v) || model.is_plain_builtin(model.vars.name(v)) {
                continue;
            }
            // Read directly: only when no binding in the cell may reach it.
            if vars::contains(&compiled.uses, v) && !vars::contains(&compiled.unbound_reads, v) {
                continue;
            }
            let name = model.vars.name(v);
            // Read directly, or through a user function the cell references.
            let via = if vars::contains(&compiled.uses, v) {
                None
            } else {
                compiled.uses.ones().map(|f| f as Var).find(|f| {
                    model
                        .functions
                        .get(f)
                        .is_some_and(|info| vars::contains(&info.reads, v))
                })
            };
            let location = program
                .first_read(&vars::set_of([via.unwrap_or(v)]))
                .unwrap_or((1, 1));
            let later = model
                .cells
                .iter()
                .skip(cell.index + 1)
                .find(|c| vars::contains(&c.outputs, v));
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
        vars::union_with(&mut defined, &cell.outputs);
    }
}
