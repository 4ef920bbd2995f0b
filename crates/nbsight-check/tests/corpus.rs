//! Every notebook of the shared corpus (`../shared/corpus`, beside the
//! repository; skipped when absent) goes through `check` with every rule
//! without a panic, and every finding points into the notebook.

use nbsight_check::{RuleSet, check_notebook};
use nbsight_dataflow::Effects;

#[test]
fn every_corpus_notebook_is_checked() {
    let Some(corpus) = nbsight_model::testing::corpus() else {
        return;
    };
    let effects = Effects::builtin();
    let mut findings = 0;
    for (path, notebook) in &corpus {
        for finding in check_notebook(notebook, &effects, RuleSet::all()).findings {
            // Lines and columns are 1-based by their type (`OneIndexed`).
            assert!(
                finding.cell.index() < notebook.cells.len(),
                "{}",
                path.display()
            );
            assert!(
                finding.path.contains(&finding.cell) || finding.path.is_empty(),
                "{finding:?}"
            );
            findings += 1;
        }
    }
    if nbsight_model::testing::whole_corpus() {
        assert!(corpus.len() > 250, "the corpus has its notebooks");
        assert!(findings > 0);
    }
}
