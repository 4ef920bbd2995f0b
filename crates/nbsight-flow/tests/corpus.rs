//! Every notebook of the shared corpus (`../shared/corpus`, beside the
//! repository; skipped when absent) gets a flow graph without a panic, and
//! in a notebook run top to bottom, flows and dependencies go down.

use nbsight_dataflow::Effects;
use nbsight_flow::{FlowOptions, analyze_flows};
use nbsight_model::NotebookModel;

#[test]
fn every_corpus_notebook_has_a_flow_graph() {
    let Some(corpus) = nbsight_model::testing::corpus() else {
        return;
    };
    let effects = Effects::builtin();
    for (path, notebook) in &corpus {
        let model = NotebookModel::new(notebook, &effects);
        let graph = analyze_flows(&model, FlowOptions::default());
        assert!(
            graph.flows.iter().all(|f| f.from < f.to),
            "{}",
            path.display()
        );
        assert!(
            graph.dependencies.iter().all(|d| d.from < d.to),
            "{}",
            path.display()
        );
    }
    if nbsight_model::testing::whole_corpus() {
        assert!(corpus.len() > 250, "the corpus has its notebooks");
    }
}
