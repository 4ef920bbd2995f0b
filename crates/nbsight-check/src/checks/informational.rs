//! Informational rules (off by default): `isolated-cell`, a cell with no
//! dependency on or from another cell (NBLyzer's isolated cells, K = 1), and
//! `unused-definition`, a name a cell defines that neither the cell itself
//! afterwards nor any later cell reads (directly or through a function).

use crate::check::finding;
use crate::finding::Finding;
use crate::rules::Rule;
use nbsight_model::NotebookModel;
use nbsight_model::vars::{self, Var};
use nbsight_whatif::is_isolated;

pub fn isolated_cells(model: &NotebookModel, findings: &mut Vec<Finding>) {
    for cell in model.code_cells() {
        if !cell.compiled.as_deref().is_some_and(|c| c.has_python) {
            continue;
        }
        if is_isolated(model, cell) {
            findings.push(finding(
                model,
                Rule::IsolatedCell,
                cell.index,
                (1, 1),
                "neither reads nor defines anything another cell uses: a leftover of exploration? (safe to remove or move out of the notebook)".into(),
                vec![cell.index],
            ));
        }
    }
}

pub fn unused_definitions(model: &NotebookModel, findings: &mut Vec<Finding>) {
    let cells: Vec<_> = model.code_cells().collect();
    for (position, cell) in cells.iter().enumerate() {
        let Some(compiled) = cell.compiled.as_deref() else {
            continue;
        };
        for v in compiled.defs.ones().map(|v| v as Var) {
            let name = model.vars.name(v);
            if name.starts_with('_') || model.functions.contains_key(&v) {
                continue;
            }
            let read_here = compiled.program.stmts.iter().any(|s| s.reads.contains(&v));
            let read_later = cells[position + 1..]
                .iter()
                .any(|later| vars::contains(&later.pre, v));
            let read_by_function = model
                .functions
                .values()
                .any(|f| vars::contains(&f.reads, v));
            if read_here || read_later || read_by_function {
                continue;
            }
            let location = compiled.program.first_write(v).unwrap_or((1, 1));
            findings.push(finding(
                model,
                Rule::UnusedDefinition,
                cell.index,
                location,
                format!("`{name}` is defined here but never read afterwards"),
                vec![cell.index],
            ));
        }
    }
}
