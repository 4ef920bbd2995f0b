//! The worked examples of the seeds (`../shared/seed-notes.md`) that concern
//! `nbsight check`: NBLyzer's Figure 1 as saved.

use std::path::Path;

use nbsight_check::{RuleSet, check_notebook};
use nbsight_dataflow::Effects;
use nbsight_notebook::load_path;

#[test]
fn figure1_as_saved_has_no_leak_in_notebook_order() {
    let figure1 = load_path(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/nblyzer_figure1.ipynb"),
    )
    .expect("fixture loads");
    // Run All executes cell 3 after cell 2: x is re-read unscaled.
    let findings = check_notebook(&figure1, &Effects::builtin(), RuleSet::default());
    assert!(
        findings.iter().all(|f| !f.name().ends_with("leakage")),
        "{findings:#?}"
    );
}
