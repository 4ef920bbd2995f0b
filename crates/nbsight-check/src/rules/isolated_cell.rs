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
        if is_isolated(model, cell) && !hidden.connects(model, cell) {
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
