//! `static_graph_json`: the cell dependency graph of a notebook as a
//! front end holds it (its cells' kinds and sources), for the JupyterLab
//! panel when the kernel has no nbsight (the Jupyter server answers with
//! it). The kernel's own graph is `Session.graph_json`.

use std::path::PathBuf;

use nbsight_dataflow::Effects;
use nbsight_notebook::{CellKind, EditorCell, from_editor};
use pyo3::prelude::*;

/// The graph view (JSON, `nbsight-graph`'s model) of the notebook at `path`
/// whose cells are `cells`: `(kind, source)` pairs, `kind` being `code`,
/// `markdown` or `raw`. Cells are named by their 0-based positions.
#[pyfunction]
pub fn static_graph_json(py: Python<'_>, path: PathBuf, cells: Vec<(String, String)>) -> String {
    py.detach(|| {
        let cells = cells.into_iter().map(|(kind, source)| {
            let kind = match kind.as_str() {
                "code" => CellKind::Code,
                "markdown" => CellKind::Markdown,
                _ => CellKind::Raw,
            };
            EditorCell::new(kind, source)
        });
        let notebook = from_editor(&path, cells);
        let title = path.display().to_string();
        nbsight_graph::notebook_view(&title, &notebook, &Effects::builtin()).to_json()
    })
}
