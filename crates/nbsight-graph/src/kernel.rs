//! The view of what a live kernel ran: the notebook's cells as the front
//! end last synced them (else the cells run), an arrow from each cell whose
//! execution set what a cell's latest execution read, and the dynamic
//! slices `nbsight.backward_slice` / `forward_slice` answer (which are also
//! the cell dependency graph: `dependencies` stays empty).

use std::collections::{BTreeMap, HashMap};

use nbsight_lineage::Lineage;

use crate::view::{GraphCell, GraphEdge, GraphView, Origin, Slices};

/// The view of `lineage`'s session, titled `title`.
pub fn kernel_view(title: &str, lineage: &mut Lineage) -> GraphView {
    let status = lineage.status();
    let cells = lineage.notebook_cells();
    let has = |list: &[String], id: &str| list.iter().any(|c| c == id);
    let mut flows = Vec::new();
    let slices: BTreeMap<String, Slices> = lineage
        .cell_slices()
        .into_iter()
        .map(|(id, backward, forward)| (id, Slices { backward, forward }))
        .collect();
    let mut graph_cells = Vec::with_capacity(cells.len());
    for (position, (id, source)) in cells.iter().enumerate() {
        let dependences = lineage.cell_dependences(id);
        let ran = lineage.latest_execution(id).is_some();
        let mut inputs: Vec<String> = dependences
            .iter()
            .flat_map(|d| d.names.iter().cloned())
            .collect();
        inputs.sort_unstable();
        inputs.dedup();
        for d in dependences {
            // An arrow from a cell no longer in the view is not drawn.
            flows.push(GraphEdge {
                from: d.cell,
                to: id.clone(),
                symbols: d.names,
                superseded: !d.current,
            });
        }
        let mut states: Vec<String> = [
            ("stale", &status.stale_cells),
            ("fresh", &status.fresh_cells),
            ("refresher", &status.refresher_cells),
        ]
        .into_iter()
        .filter(|(_, list)| has(list, id))
        .map(|(name, _)| name.to_string())
        .collect();
        if !ran {
            states.push("never-run".to_string());
        }
        graph_cells.push(GraphCell {
            id: id.clone(),
            label: format!("cell {}", position + 1),
            code: source.clone(),
            inputs,
            outputs: Vec::new(),
            states,
        });
    }
    // A cell's outputs: what later cells read from its latest run.
    let position: HashMap<&str, usize> = cells
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (id.as_str(), i))
        .collect();
    for edge in flows.iter().filter(|e| !e.superseded) {
        if let Some(&i) = position.get(edge.from.as_str()) {
            graph_cells[i].outputs.extend(edge.symbols.iter().cloned());
        }
    }
    for cell in &mut graph_cells {
        cell.outputs.sort_unstable();
        cell.outputs.dedup();
    }
    GraphView {
        title: title.to_string(),
        origin: Origin::Kernel,
        cells: graph_cells,
        flows,
        // Each cell's backward slice is its dependencies: not sent twice
        // (the drawing derives them, `dependenciesOf`).
        dependencies: Vec::new(),
        slices,
        slice: None,
    }
}
