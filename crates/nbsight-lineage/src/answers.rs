//! What the lineage answers about symbols, as plain data: a stale read
//! explained (the cell that set it, the ancestor updated since, the cells
//! to re-run) and a symbol's lineage (its parents and children).

use crate::symbols::Ts;

/// An ancestor updated after the stale value was computed from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdatedAncestor {
    pub symbol: String,
    /// The cell that updated it (`None`: out of nbsight's sight).
    pub cell: Option<String>,
    /// When.
    pub counter: Ts,
}

/// A stale symbol a cell reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleRead {
    pub symbol: String,
    /// The cell that last set the stale value.
    pub set_by: Option<String>,
    pub ancestor: Option<UpdatedAncestor>,
    /// The cells to re-run, in order, to refresh it.
    pub rerun: Vec<String>,
}

/// A symbol as a lineage lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolRef {
    pub symbol: String,
    pub cell: Option<String>,
    pub timestamp: Ts,
}

/// A symbol's lineage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deps {
    pub symbol: String,
    /// The cell that last set it.
    pub cell: Option<String>,
    pub timestamp: Ts,
    pub stale: bool,
    /// The symbols its value was computed from.
    pub parents: Vec<SymbolRef>,
    /// The symbols computed from it.
    pub children: Vec<SymbolRef>,
}

impl crate::Lineage {
    /// A cell as the texts nbsight prints name it (see [`Self::named`]).
    pub fn cell_name(&self, id: &str) -> String {
        const LONG_ID: usize = 12;
        if id.parse::<u64>().is_ok() {
            return id.to_string();
        }
        let count = self
            .latest_execution(id)
            .and_then(|e| self.executions().get(e as usize))
            .and_then(|e| e.execution_count);
        match count {
            Some(count) if id.chars().count() > LONG_ID => format!("[{count}]"),
            Some(count) => format!("{id} [{count}]"),
            None => id.to_string(),
        }
    }

    /// `reads` with the cells named as a Jupyter user finds them, for the
    /// texts nbsight prints: a cell whose id is not a number (a front end's
    /// cell id) gets its latest execution count, `[5]`, as the notebook
    /// shows it beside the cell; a long id (JupyterLab's UUIDs, which nobody
    /// reads) is replaced by it, a short one kept before it (`c2 [5]`). Ids
    /// that are numbers (a terminal's execution counts) and cells that never
    /// ran keep their id alone.
    pub fn named(&self, reads: &[StaleRead]) -> Vec<StaleRead> {
        let name = |id: &String| self.cell_name(id);
        reads
            .iter()
            .map(|read| StaleRead {
                symbol: read.symbol.clone(),
                set_by: read.set_by.as_ref().map(name),
                ancestor: read.ancestor.as_ref().map(|a| UpdatedAncestor {
                    cell: a.cell.as_ref().map(name),
                    ..a.clone()
                }),
                rerun: read.rerun.iter().map(name).collect(),
            })
            .collect()
    }
}
