//! The view of a notebook's code, run top to bottom once: its cells, the
//! information flows between them (`nbsight flow`), the transitive
//! dependencies and each cell's backward and forward slices (`nbsight
//! slice`, by cells).

use std::collections::BTreeMap;

use nbsight_dataflow::Effects;
use nbsight_flow::{FlowGraph, FlowOptions, analyze_flows};
use nbsight_model::{CellStatus, NotebookModel};
use nbsight_notebook::{CellIndex, CellKind, Notebook};
use nbsight_slice::{Granularity, Slice, Slicer};

use crate::view::{Direction, GraphCell, GraphEdge, GraphView, Origin, SliceView, Slices};

/// The view of `notebook`, its flows estimated with the default options
/// (what `nbsight flow` prints without options).
pub fn notebook_view(title: &str, notebook: &Notebook, effects: &Effects) -> GraphView {
    let model = NotebookModel::new(notebook, effects);
    let flows = analyze_flows(&model, FlowOptions::default());
    static_view(
        title,
        notebook,
        &model,
        &Slicer::from_model(&model),
        &flows,
        None,
    )
}

/// The view of `notebook` (whose model is `model`, slicer `slicer` and
/// flows `flows`), titled `title`; `slice` is shown first when given.
pub fn static_view(
    title: &str,
    notebook: &Notebook,
    model: &NotebookModel,
    slicer: &Slicer,
    flows: &FlowGraph,
    slice: Option<&Slice>,
) -> GraphView {
    let id = |index: CellIndex| index.index().to_string();
    let by_index: BTreeMap<usize, &nbsight_flow::CellFlow> =
        flows.cells.iter().map(|c| (c.index.index(), c)).collect();
    let flow_of = |index: usize| by_index.get(&index).copied();
    let cells = notebook
        .cells
        .iter()
        .filter(|c| c.kind == CellKind::Code)
        .map(|cell| {
            let flow = flow_of(cell.index);
            let mut states = Vec::new();
            if let Some(m) = model.cells.get(cell.index) {
                match &m.status {
                    CellStatus::Broken { .. } => states.push("syntax-error".to_string()),
                    CellStatus::Opaque(_) => states.push("opaque".to_string()),
                    CellStatus::Code | CellStatus::NotCode(_) => {}
                }
            }
            GraphCell {
                id: cell.index.to_string(),
                label: format!("cell {}", cell.index),
                code: cell.source.clone(),
                inputs: flow.map(|f| f.inputs.clone()).unwrap_or_default(),
                outputs: flow.map(|f| f.outputs.clone()).unwrap_or_default(),
                states,
            }
        })
        .collect();

    // One arrow per pair of cells, with every name that flows along it.
    let mut pairs: BTreeMap<(CellIndex, CellIndex), Vec<String>> = BTreeMap::new();
    for f in &flows.flows {
        pairs
            .entry((f.from, f.to))
            .or_default()
            .push(f.symbol.clone());
    }
    let flows_out = pairs
        .into_iter()
        .map(|((from, to), mut symbols)| {
            symbols.sort_unstable();
            symbols.dedup();
            GraphEdge {
                from: id(from),
                to: id(to),
                symbols,
                superseded: false,
            }
        })
        .collect();
    let dependencies = flows
        .dependencies
        .iter()
        .map(|d| GraphEdge {
            from: id(d.from),
            to: id(d.to),
            symbols: Vec::new(),
            superseded: false,
        })
        .collect();

    let cells_of = |s: Result<Slice, _>| -> Vec<String> {
        s.map(|s| s.cells.iter().map(|&c| id(c)).collect())
            .unwrap_or_default()
    };
    let slices = slicer
        .code_cells()
        .map(|cell| {
            let slices = Slices {
                backward: cells_of(slicer.backward(cell, Granularity::Cells)),
                forward: cells_of(slicer.forward(cell, Granularity::Cells)),
            };
            (cell.to_string(), slices)
        })
        .collect();

    GraphView {
        title: title.to_string(),
        origin: Origin::Static,
        cells,
        flows: flows_out,
        dependencies,
        slices,
        slice: slice.map(|s| SliceView {
            cell: id(s.cell),
            direction: match s.direction {
                nbsight_slice::Direction::Backward => Direction::Backward,
                nbsight_slice::Direction::Forward => Direction::Forward,
            },
            cells: s.cells.iter().map(|&c| id(c)).collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use nbsight_model::testing::notebook;

    use super::*;

    fn view(sources: &[&str]) -> GraphView {
        notebook_view("t.ipynb", &notebook(sources), &Effects::builtin())
    }

    #[test]
    fn one_node_per_code_cell_and_one_arrow_per_pair_of_cells() {
        let v = view(&["a = 1\nb = 2", "c = a + b", "print(c)", "x ="]);
        let ids: Vec<&str> = v.cells.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["0", "1", "2", "3"]);
        let flows: Vec<(&str, &str, Vec<&str>)> = v
            .flows
            .iter()
            .map(|e| {
                let symbols = e.symbols.iter().map(String::as_str).collect();
                (e.from.as_str(), e.to.as_str(), symbols)
            })
            .collect();
        assert_eq!(flows, [("0", "1", vec!["a", "b"]), ("1", "2", vec!["c"])]);
        assert_eq!(v.cells[1].inputs, ["a", "b"]);
        assert_eq!(v.cells[1].outputs, ["c"]);
        assert_eq!(v.cells[3].states, ["syntax-error"]);
        let deps: Vec<(&str, &str)> = v
            .dependencies
            .iter()
            .map(|e| (e.from.as_str(), e.to.as_str()))
            .collect();
        assert!(deps.contains(&("0", "2")), "{deps:?}");
        assert_eq!(v.slices["2"].backward, ["0", "1", "2"]);
        assert_eq!(v.slices["0"].forward, ["0", "1", "2"]);
    }

    #[test]
    fn the_json_names_what_the_renderer_reads() {
        let v = view(&["a = 1", "b = a"]);
        let json: serde_json::Value = serde_json::from_str(&v.to_json()).unwrap_or_default();
        assert_eq!(json["origin"], "static");
        assert_eq!(json["flows"][0]["symbols"][0], "a");
        assert_eq!(json["cells"][1]["code"], "b = a");
        assert!(json.get("slice").is_none());
    }
}
