//! A property test over the whole pipeline: generated notebooks (cell
//! sources built from Python fragments, nesting, IPython escapes, noqa
//! comments and arbitrary text, saved as `.ipynb` JSON with string or list
//! sources and random execution counts) go through the loader, the file
//! positions of `.ipynb` text, the dataflow analysis, the notebook model,
//! every `check` rule and the suppression comments, the flow analysis, the
//! what-if engine and the slicer. None may panic, and every finding must be
//! locatable in the file.
//!
//! The normal test suite runs a few cases; to fuzz for longer:
//! `PROPTEST_CASES=5000 cargo test --release -p nbsight-cli --test fuzz_pipeline`.

use std::path::Path;

use nbsight_check::{RuleSet, check_notebook};
use nbsight_dataflow::{Effects, analyze_notebook};
use nbsight_flow::{FlowOptions, analyze_flows};
use nbsight_model::NotebookModel;
use nbsight_notebook::{IpynbPositions, load_ipynb_str};
use nbsight_slice::{Granularity, backward_slice};
use nbsight_whatif::{Event, Executed, WhatIfOptions, what_if};
use proptest::prelude::*;

/// Python lines that exercise the analyses: definitions, reads, mutation,
/// functions, ML calls, control flow, magics, comments.
const FRAGMENTS: &[&str] = &[
    "import pandas as pd",
    "from sklearn.preprocessing import StandardScaler",
    "from sklearn.model_selection import train_test_split",
    "df = pd.read_csv('data.csv')",
    "X = StandardScaler().fit_transform(df)",
    "X_train, X_test = train_test_split(X)",
    "x = 1",
    "y = x + 1",
    "print(z)",
    "lst.append(x)",
    "d['k'] = y",
    "def f(a):\n    return a + g",
    "f(x)",
    "for i in range(3):\n    x += i",
    "if x:\n    w = 1\nelse:\n    del w",
    "while False:\n    pass",
    "with open('f') as fh:\n    data = fh.read()",
    "class C:\n    attr = x",
    "lambda: lambda: x",
    "%matplotlib inline",
    "!ls",
    "x = !ls",
    "obj?",
    "%%time",
    "# noqa",
    "print(q)  # noqa: NBS001",
    "# nbsight: noqa-file",
    "try:\n    import missing\nexcept ImportError:\n    missing = None",
    "x = (",
    "def broken(:",
    "é = '日本'\tprint(é)",
    "a.b.c[0].d = 1",
];

/// One cell's source: fragments, a nested expression, or arbitrary text.
fn cell_source() -> impl Strategy<Value = String> {
    let fragments = prop::collection::vec(prop::sample::select(FRAGMENTS), 0..6)
        .prop_map(|lines| lines.join("\n"));
    let nested = (
        1usize..40,
        prop::sample::select(&["(", "[", "{", "lambda: ", "not ", "-"][..]),
    )
        .prop_map(|(depth, open)| {
            let close = match open {
                "(" => ")",
                "[" => "]",
                "{" => "}",
                _ => "",
            };
            format!("v = {}x{}", open.repeat(depth), close.repeat(depth))
        });
    let chain = (1usize..200).prop_map(|n| format!("v = a{}", ".b".repeat(n)));
    prop_oneof![
        6 => fragments,
        1 => nested,
        1 => chain,
        1 => "\\PC{0,80}",
        1 => "[ -~\\n\\t]{0,120}",
    ]
}

/// A notebook: cells (code or markdown, a source given as a string or as a
/// list of lines, an execution count or none).
fn notebook() -> impl Strategy<Value = String> {
    let cell = (
        cell_source(),
        any::<bool>(),
        any::<bool>(),
        prop::option::of(1i64..20),
    );
    prop::collection::vec(cell, 0..7).prop_map(|cells| {
        let cells: Vec<serde_json::Value> = cells
            .into_iter()
            .enumerate()
            .map(|(i, (source, markdown, as_list, count))| {
                let source = if as_list {
                    serde_json::json!(source.split_inclusive('\n').collect::<Vec<_>>())
                } else {
                    serde_json::json!(source)
                };
                if markdown && i % 3 == 0 {
                    serde_json::json!({"cell_type": "markdown", "id": format!("m{i}"), "metadata": {}, "source": source})
                } else {
                    serde_json::json!({
                        "cell_type": "code", "id": format!("c{i}"), "metadata": {},
                        "execution_count": count, "outputs": [], "source": source,
                    })
                }
            })
            .collect();
        let notebook = serde_json::json!({
            "nbformat": 4, "nbformat_minor": 5, "cells": cells,
            "metadata": {"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}},
        });
        serde_json::to_string_pretty(&notebook).unwrap_or_default()
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(48),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_notebook_goes_through_the_pipeline(text in notebook()) {
        let effects = Effects::builtin();
        let path = Path::new("fuzz.ipynb");
        let notebook = load_ipynb_str(path, &text).expect("generated notebooks are valid JSON");
        let _ = analyze_notebook(&notebook, &effects);
        let model = NotebookModel::new(&notebook, &effects);
        let _ = analyze_flows(&model, FlowOptions::default());

        let findings = check_notebook(&notebook, &effects, RuleSet::all()).findings;
        let positions = IpynbPositions::new(&text);
        for finding in &findings {
            prop_assert!(finding.cell.index() < notebook.cells.len());
            prop_assert!(
                positions.locate(finding.cell.index(), finding.line, finding.column).is_some(),
                "{finding:?}"
            );
        }

        let options = WhatIfOptions { executed: Executed::Saved, k: Some(3) };
        let _ = what_if(&notebook, &effects, &Event::Open, &options);
        for cell in 0..notebook.cells.len() {
            let _ = what_if(&notebook, &effects, &Event::Execute(cell), &options);
            let _ = backward_slice(&notebook, &effects, cell, Granularity::Statements);
        }
    }

    #[test]
    fn arbitrary_text_never_panics_the_loaders(text in "\\PC{0,200}") {
        let _ = load_ipynb_str(Path::new("x.ipynb"), &text);
        let _ = nbsight_notebook::load_percent_str(Path::new("x.py"), &text);
        let positions = IpynbPositions::new(&text);
        let one = nbsight_notebook::OneIndexed::MIN;
        let _ = positions.locate(0, one, one);
    }
}
