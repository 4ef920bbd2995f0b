//! The flow analysis (issue 9) on the annotated fixtures of
//! `tests/fixtures/flow/` and on the seed's worked examples (CRABS's
//! `phone`/`ec` notebook and the `count` loop).

use std::path::{Path, PathBuf};

use nbsight_analysis::flow::metrics::{aggregate, score_notebook};
use nbsight_analysis::flow::truth::load_truth;
use nbsight_analysis::flow::{AmbiguityKind, FlowGraph, FlowOptions, ResolvedBy, analyze_flows};
use nbsight_analysis::model::NotebookModel;
use nbsight_dataflow::Effects;
use nbsight_notebook::{Notebook, load_ipynb_str, load_path};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/flow")
}

fn graph_of(notebook: &Notebook, options: FlowOptions) -> FlowGraph {
    let model = NotebookModel::new(notebook, &Effects::builtin());
    analyze_flows(&model, options)
}

/// A notebook of code cells only, never run.
fn cells(sources: &[&str]) -> Notebook {
    let cells: Vec<String> = sources
        .iter()
        .map(|s| {
            format!(
                r#"{{"cell_type": "code", "execution_count": null, "metadata": {{}}, "outputs": [], "source": {}}}"#,
                serde_json::to_string(s).expect("string")
            )
        })
        .collect();
    let json = format!(
        r#"{{"nbformat": 4, "nbformat_minor": 5, "metadata": {{"kernelspec": {{"language": "python", "name": "python3"}}}}, "cells": [{}]}}"#,
        cells.join(",")
    );
    load_ipynb_str(Path::new("test.ipynb"), &json).expect("notebook")
}

fn flows(g: &FlowGraph) -> Vec<(usize, usize, String)> {
    g.flows
        .iter()
        .map(|f| (f.from, f.to, f.symbol.clone()))
        .collect()
}

#[test]
fn crabs_phone_ec_example() {
    let nb = cells(&[
        "phone = load('phone.csv')\nsurvey = load('survey.csv')",
        "ec = phone.groupby('brand').size()",
        "print(phone, ec)",
        "survey.head()",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    assert_eq!(
        flows(&g),
        vec![
            (0, 1, "phone".to_string()),
            (0, 2, "phone".to_string()),
            (0, 3, "survey".to_string()),
            (1, 2, "ec".to_string()),
        ]
    );
    assert_eq!(g.cells[0].outputs, vec!["phone", "survey"]);
    assert_eq!(g.cells[2].inputs, vec!["ec", "phone"]);
}

#[test]
fn count_loop_is_not_an_input_by_default() {
    let nb = cells(&[
        "count = 10",
        "for i in range(3):\n    if i == 0:\n        count = 0\n    else:\n        count = count + 1",
        "print(count)",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    let loop_cell = &g.cells[1];
    assert!(loop_cell.inputs.is_empty(), "{:?}", loop_cell.inputs);
    assert_eq!(loop_cell.inputs_upper, vec!["count"]);
    assert_eq!(loop_cell.ambiguities.len(), 1);
    let amb = &loop_cell.ambiguities[0];
    assert_eq!(
        (amb.symbol.as_str(), amb.kind),
        ("count", AmbiguityKind::MaybeInput)
    );
    assert_eq!(amb.resolution, None);
    // The reader takes `count` from the loop cell; the loop's write is not
    // known to happen (the range's non-emptiness is not evaluated yet), so
    // the first cell's value is a possible flow too.
    assert!(flows(&g).contains(&(1, 2, "count".to_string())));
    // Counted as yes on request.
    let all = graph_of(
        &nb,
        FlowOptions {
            include_unresolved: true,
            ..FlowOptions::default()
        },
    );
    assert_eq!(all.cells[1].inputs, vec!["count"]);
}

#[test]
fn accumulation_in_a_loop_reads_the_incoming_value() {
    let nb = cells(&[
        "total = 0",
        "for k in range(2):\n    total = total + k",
        "print(total)",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    assert_eq!(g.cells[1].inputs, vec!["total"]);
    assert_eq!(
        g.cells[1].ambiguities[0].resolved_by,
        Some(ResolvedBy::SelfUpdate)
    );
}

#[test]
fn conditional_write_before_a_read_is_a_union_of_flows() {
    let nb = cells(&["x = 1", "if flag:\n    x = 2\nprint(x)", "print(x)"]);
    let g = graph_of(&nb, FlowOptions::default());
    assert_eq!(g.cells[1].inputs, vec!["x"]);
    // The last reader may read the first cell's x or the second's.
    assert!(flows(&g).contains(&(0, 2, "x".to_string())));
    assert!(flows(&g).contains(&(1, 2, "x".to_string())));
}

#[test]
fn imports_and_builtins_are_not_flows() {
    let nb = cells(&[
        "import numpy as np\nlist = [1]",
        "a = np.zeros(3)\nlist.append(2)\nprint(len(a))",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    assert_eq!(flows(&g), vec![(0, 1, "list".to_string())]);
    let with_imports = graph_of(
        &nb,
        FlowOptions {
            import_flows: true,
            ..FlowOptions::default()
        },
    );
    assert!(flows(&with_imports).contains(&(0, 1, "np".to_string())));
}

#[test]
fn in_place_mutation_is_an_input_and_an_output() {
    let nb = cells(&[
        "import pandas as pd\ndf = pd.read_csv('x.csv')",
        "df.dropna(inplace=True)",
        "df.head()",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    assert_eq!(
        flows(&g),
        vec![(0, 1, "df".to_string()), (1, 2, "df".to_string())]
    );
    assert_eq!(g.dependencies.len(), 3, "{:?}", g.dependencies);
}

/// Every annotated fixture is scored; the ones the analysis gets exactly
/// right stay exact, and the average does not regress.
#[test]
fn annotated_fixtures_score() {
    let mut scores = Vec::new();
    let mut exact = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(fixtures())
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ipynb"))
        .collect();
    entries.sort();
    for path in entries {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("stem")
            .to_string();
        let truth = load_truth(&fixtures().join(format!("{stem}.truth.json"))).expect("truth");
        let g = graph_of(&load_path(&path).expect("notebook"), FlowOptions::default());
        let score = score_notebook(&stem, &g.code_flows(), &truth[0], g.unresolved());
        if score.flows.1.exact {
            exact.push(stem.clone());
        }
        scores.push(score);
    }
    assert_eq!(scores.len(), 12);
    for must in [
        "comprehensions_lambdas",
        "conditional_defs",
        "crabs_example",
        "imports_builtins",
        "inplace_mutation",
        "magics",
        "readonly_methods",
    ] {
        assert!(
            exact.contains(&must.to_string()),
            "{must} not exact: {exact:?}"
        );
    }
    let total = aggregate(&scores);
    assert!(total.macro_flows.f1 >= 0.93, "{:?}", total.macro_flows);
}
