//! Helpers for tests of the crates that stand on the model: notebooks built
//! from sources, and the shared corpus.

use std::path::Path;

use nbsight_notebook::{Notebook, load_ipynb_str};

/// A notebook of code cells; a source starting with `md:` is a markdown cell.
pub fn notebook(sources: &[&str]) -> Notebook {
    let cells: Vec<serde_json::Value> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| match s.strip_prefix("md:") {
            Some(text) => serde_json::json!({"cell_type": "markdown", "id": format!("c{i}"),
                "metadata": {}, "source": text}),
            None => serde_json::json!({"cell_type": "code", "id": format!("c{i}"), "metadata": {},
                "execution_count": null, "outputs": [], "source": s}),
        })
        .collect();
    let doc = serde_json::json!({"nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}},
        "cells": cells});
    load_ipynb_str(Path::new("test.ipynb"), &doc.to_string()).expect("test notebook loads")
}

/// The notebooks of the shared corpus (`../shared/corpus` beside the
/// repository) that load, with their paths, restricted to paths containing
/// `NBSIGHT_CORPUS_FILTER` when it is set; `None` (and a line on stderr)
/// when the corpus is absent, so that corpus tests are skipped.
#[allow(
    clippy::print_stderr,
    reason = "a test skipped says so where tests print"
)]
pub fn corpus() -> Option<Vec<(std::path::PathBuf, Notebook)>> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !corpus.is_dir() {
        eprintln!("corpus not found at {}; skipped", corpus.display());
        return None;
    }
    let filter = std::env::var("NBSIGHT_CORPUS_FILTER").unwrap_or_default();
    let notebooks = nbsight_notebook::find_notebooks(&corpus)
        .notebooks
        .into_iter()
        .filter(|path| path.display().to_string().contains(&filter))
        .filter_map(|path| {
            let notebook = nbsight_notebook::load_path(&path).ok()?;
            Some((path, notebook))
        })
        .collect();
    Some(notebooks)
}

/// The whole corpus is being run (no `NBSIGHT_CORPUS_FILTER`).
pub fn whole_corpus() -> bool {
    std::env::var_os("NBSIGHT_CORPUS_FILTER").is_none()
}
