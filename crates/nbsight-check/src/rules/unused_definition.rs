//! ## What it reports
//! A name a code cell binds that nothing reads afterwards: not the cell
//! itself, not a later cell, not a user function. Off by default.
//!
//! ## Why it matters
//! An unused result is dead code, or a sign that a later cell reads a
//! different name than intended (a typo, a renamed variable).
//!
//! ## Example
//! ```python
//! # %%
//! import pandas as pd
//!
//! # %%
//! orders = pd.read_csv("orders.csv")
//! raw_count = len(orders)
//!
//! # %%
//! orders = orders.dropna()
//! orders["amount"].mean()
//! ```
//!
//! `nbsight check --select unused-definition` reports:
//! ```text
//! cell 1:2:13: NBS202 `raw_count` is defined here but never read afterwards
//! ```
//!
//! ## Not reported
//! - Names starting with `_`.
//! - Function definitions.
//! - `from __future__ import ...`: a compiler directive, never read.
//! - A name the cell itself reads anywhere, also in the statement that
//!   binds it (`total = total + x`), or that the body of a user function,
//!   method or lambda reads (a class read only inside another class's
//!   method).
//! - A name a later cell that does not parse writes (it may read it there),
//!   and anything defined before a cell that runs code nbsight cannot see
//!   (`%run`, `exec`).

use crate::check::finding;
use crate::finding::Finding;
use crate::hidden::OutOfSight;
use crate::rules::{Driver, Rule};
use nbsight_model::NotebookModel;
use nbsight_notebook::OneIndexed;

pub(crate) const DRIVER: Driver = Driver::new("unused_definition", unused_definitions);

/// Every name a code cell binds that nothing afterwards reads.
fn unused_definitions(model: &NotebookModel, findings: &mut Vec<Finding>) {
    let cells: Vec<_> = model.code_cells().collect();
    let hidden = OutOfSight::of(model);
    for (position, cell) in cells.iter().enumerate() {
        let Some(compiled) = cell.compiled.as_deref() else {
            continue;
        };
        for v in compiled.defs.iter() {
            let name = model.vars.name(v);
            if name.starts_with('_') || model.functions.contains_key(&v) {
                continue;
            }
            // `from __future__ import division` is a compiler directive,
            // not a name to read.
            let future = compiled
                .imports
                .iter()
                .any(|(x, qualified)| *x == v && qualified.starts_with("__future__."));
            if future {
                continue;
            }
            let read_here = compiled.program.stmts.iter().any(|s| s.reads.contains(&v));
            let read_later = cells[position + 1..]
                .iter()
                .any(|later| later.pre.contains(v));
            // Any function, method or lambda body; a cell that does not parse
            // and writes the name; code run out of sight (`%run`, `exec`).
            let read_out_of_sight = hidden.body_reads.contains(v)
                || hidden.broken_after_mentions(cell.index, v)
                || hidden.hidden_code_after(model, cell.index);
            if read_here || read_later || read_out_of_sight {
                continue;
            }
            let location = compiled
                .program
                .first_write(v)
                .unwrap_or((OneIndexed::MIN, OneIndexed::MIN));
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
