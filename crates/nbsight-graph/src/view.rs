//! The view model both renderers read (the JSON the page embeds and the
//! panel receives): cells, the flows between them, the transitive
//! dependencies, each cell's slices and, for `nbsight slice`, the slice
//! asked for. Field names are a contract with `jupyterlab/src/graph/`.

use serde::Serialize;

/// Where the graph comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// The notebook's code, run top to bottom once (`nbsight flow`).
    Static,
    /// The executions a live kernel ran.
    Kernel,
}

/// Which way a slice goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Backward,
    Forward,
}

/// One code cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GraphCell {
    /// The cell's id in this view: its position in the notebook's cell
    /// list (static) or the front end's cell id (kernel).
    pub id: String,
    /// What the drawing calls it (`cell 3`).
    pub label: String,
    pub code: String,
    /// The names it reads from earlier cells.
    pub inputs: Vec<String>,
    /// The names it sets for later cells.
    pub outputs: Vec<String>,
    /// `stale`, `fresh`, `refresher`, `never-run`, `syntax-error`: what the
    /// drawing marks.
    pub states: Vec<String>,
}

/// An arrow: `to` read what `from` set (`symbols`), or, in
/// [`GraphView::dependencies`], `to` needs `from` to have run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GraphEdge {
    pub from: String,
    pub to: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub symbols: Vec<String>,
    /// A kernel view's arrow from a run its cell has made again since:
    /// `to` read a value that cell no longer holds (drawn dashed, outside
    /// every slice).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub superseded: bool,
}

/// A cell's slices: the cells its result needs (backward, the cell
/// included) and the cells that depend on it (forward, the cell included).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Slices {
    pub backward: Vec<String>,
    pub forward: Vec<String>,
}

/// The slice `nbsight slice` was asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SliceView {
    pub cell: String,
    pub direction: Direction,
    pub cells: Vec<String>,
}

/// The whole drawing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GraphView {
    /// The notebook's path or name.
    pub title: String,
    pub origin: Origin,
    /// Code cells, in notebook order.
    pub cells: Vec<GraphCell>,
    /// One per pair of cells a name flows between, with every such name.
    pub flows: Vec<GraphEdge>,
    /// The cell dependency graph (transitive); empty in a kernel view,
    /// whose `slices` say the same (each cell needs its backward slice).
    pub dependencies: Vec<GraphEdge>,
    /// Each cell's slices, by cell id (cells without any left out).
    pub slices: std::collections::BTreeMap<String, Slices>,
    /// The slice to show first (`nbsight slice --format html`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slice: Option<SliceView>,
}

impl GraphView {
    /// The view as JSON (what the panel receives and the page embeds).
    pub fn to_json(&self) -> String {
        // Only strings, numbers and derived structs: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_string())
    }
}
