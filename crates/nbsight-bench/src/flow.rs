//! The flow analysis over the corpus (issue 9): for each notebook, building
//! the model and the flow graph of the notebook run top to bottom once
//! (`NotebookModel::new` + `analyze_flows`), timed as the median of the
//! iterations after warm-up runs (the notebook is loaded beforehand,
//! untimed).

use std::hint::black_box;
use std::time::Duration;

use nbsight_dataflow::Effects;
use nbsight_flow::{FlowOptions, analyze_flows};
use nbsight_model::NotebookModel;
use nbsight_notebook::Notebook;

use crate::stats::median_time;

/// Target of the issue: each notebook analysed in under this.
pub const FLOW_TARGET: Duration = Duration::from_millis(5);

fn workload(notebook: &Notebook, effects: &Effects) -> usize {
    let model = NotebookModel::new(notebook, effects);
    black_box(analyze_flows(&model, FlowOptions::default()))
        .flows
        .len()
}

/// The median time of the workload.
pub fn measure(
    notebook: &Notebook,
    effects: &Effects,
    warmup: usize,
    iterations: usize,
) -> Duration {
    median_time(warmup, iterations, || {
        workload(black_box(notebook), effects)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_a_notebook() {
        let notebook = nbsight_notebook::load_percent_str(
            std::path::Path::new("t.py"),
            "# %%\nx = 1\n# %%\nprint(x)\n",
        );
        assert!(measure(&notebook, &Effects::builtin(), 0, 1) > Duration::ZERO);
    }
}
