//! Every notebook of the shared corpus (`../shared/corpus`, beside the
//! repository; skipped when absent) is analysed without a panic, and the
//! analysis finds what real notebooks contain.

#![allow(clippy::print_stdout, clippy::print_stderr)] // a test says what it compared or skipped

use std::path::Path;

use nbsight_dataflow::{Effects, analyze_notebook};

#[test]
fn every_corpus_notebook_is_analysed() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !corpus.is_dir() {
        eprintln!("corpus not found at {}; skipped", corpus.display());
        return;
    }
    let paths = nbsight_notebook::find_notebooks(&corpus).notebooks;
    let effects = Effects::builtin();
    let (mut analysed, mut cells, mut summarised, mut with_errors) = (0, 0, 0, 0);
    let mut uses = 0;
    for path in &paths {
        let Ok(notebook) = nbsight_notebook::load_path(path) else {
            continue;
        };
        let analysis = analyze_notebook(&notebook, &effects);
        assert_eq!(
            analysis.cells.len(),
            notebook.cells.len(),
            "{}",
            path.display()
        );
        analysed += 1;
        cells += analysis.cells.len();
        for cell in &analysis.cells {
            if let Some(module) = &cell.module {
                summarised += 1;
                uses += module.summary.uses.len();
            }
            if !cell.errors.is_empty() {
                with_errors += 1;
            }
        }
    }
    eprintln!(
        "{analysed}/{} notebooks, {cells} cells, {summarised} summarised, {with_errors} with syntax errors, {uses} uses",
        paths.len()
    );
    assert!(analysed > 0 && analysed == paths.len());
    assert!(summarised > 1000, "real notebooks have many Python cells");
    assert!(with_errors < summarised / 100, "syntax errors are rare");
}
