//! NBLyzer's cell classes (sec. 4.1), from the code-impact domain:
//! **isolated** cells (no dependency on or from another cell, K = 1),
//! **safe-to-edit** cells (NBLyzer's "fresh": editing them cannot make another
//! cell stale — nothing is impacted at depth 2 or more) and **stale-risk**
//! cells (some other cell's edit can leave them reading a stale value: they
//! are impacted at depth 2 or more).

use crate::engine::{Bounds, Start, explore};
use crate::impact::Impact;
use nbsight_model::vars::VarSet;
use nbsight_model::{CellInfo, NotebookModel};
use nbsight_notebook::CellIndex;

/// The classes of one code cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CellClass {
    pub cell: CellIndex,
    pub isolated: bool,
    pub safe_to_edit: bool,
    pub stale_risk: bool,
}

/// No other cell reads what `cell` writes, and `cell` reads nothing another
/// cell writes.
pub fn is_isolated(model: &NotebookModel, cell: &CellInfo) -> bool {
    !model.code_cells().any(|other| {
        other.index != cell.index
            && (other.pre.intersects(&cell.outputs) || cell.pre.intersects(&other.outputs))
    })
}

/// The classes of every code cell that parsed, in notebook order.
pub fn classify_cells(model: &NotebookModel) -> Vec<CellClass> {
    let mut classes: Vec<CellClass> = model
        .code_cells()
        .map(|c| CellClass {
            cell: CellIndex::new(c.index),
            isolated: is_isolated(model, c),
            safe_to_edit: true,
            stale_risk: false,
        })
        .collect();
    let mut position = vec![usize::MAX; model.cells.len()];
    for (i, c) in classes.iter().enumerate() {
        position[c.cell.index()] = i;
    }
    let sources: Vec<usize> = classes.iter().map(|c| c.cell.index()).collect();
    for source in sources {
        let visits = explore(
            model,
            Start::Cell(source),
            &Impact::default(),
            &VarSet::new(),
            Bounds::default(),
        );
        let deep: Vec<usize> = visits
            .visits
            .iter()
            .filter(|v| v.depth >= 2 && v.cell != source)
            .map(|v| v.cell)
            .collect();
        if !deep.is_empty() {
            classes[position[source]].safe_to_edit = false;
        }
        for cell in deep {
            classes[position[cell]].stale_risk = true;
        }
    }
    classes
}
