//! Helpers shared by the integration tests.

use std::path::Path;

use nbsight_notebook::{Notebook, load_ipynb_str};

/// A notebook of code cells (no markdown), never run.
pub(crate) fn cells(sources: &[&str]) -> Notebook {
    let cells: Vec<serde_json::Value> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| {
            serde_json::json!({"cell_type": "code", "id": format!("c{i}"), "metadata": {},
                "execution_count": null, "outputs": [], "source": s})
        })
        .collect();
    let doc = serde_json::json!({"nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}},
        "cells": cells});
    load_ipynb_str(Path::new("inline.ipynb"), &doc.to_string()).expect("valid notebook")
}
