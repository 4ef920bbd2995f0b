//! The flow analysis (issue 9) on the annotated fixtures of
//! `tests/fixtures/flow/` and on the seed's worked examples (CRABS's
//! `phone`/`ec` notebook and the `count` loop).

use std::path::{Path, PathBuf};

use nbsight_dataflow::Effects;
use nbsight_flow::metrics::{aggregate, score_notebook};
use nbsight_flow::truth::{NotebookTruth, parse_truth_file};
use nbsight_flow::{AmbiguityKind, FlowGraph, FlowOptions, ResolvedBy, analyze_flows};
use nbsight_model::NotebookModel;
use nbsight_notebook::{Notebook, load_ipynb_str, load_path};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
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
        .map(|f| (f.from.index(), f.to.index(), f.symbol.clone()))
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
fn count_loop_is_not_an_input() {
    let nb = cells(&[
        "count = 10",
        "for i in range(3):\n    if i == 0:\n        count = 0\n    else:\n        count = count + 1",
        "print(count)",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    let loop_cell = &g.cells[1];
    assert!(loop_cell.inputs.is_empty(), "{:?}", loop_cell.inputs);
    // Liveness alone (the upper estimate) says `count` is read.
    assert_eq!(loop_cell.inputs_upper, vec!["count"]);
    assert_eq!(loop_cell.ambiguities.len(), 1);
    let amb = &loop_cell.ambiguities[0];
    assert_eq!(
        (amb.symbol.as_str(), amb.kind),
        ("count", AmbiguityKind::MaybeInput)
    );
    // The first iteration runs with i == 0 and binds `count` first.
    assert_eq!(amb.resolution, Some(false));
    assert_eq!(amb.resolved_by, Some(ResolvedBy::FirstIteration));
    assert_eq!(g.unresolved(), 0);
    // The loop runs, so it writes `count` on every path: the reader takes
    // it from the loop cell only.
    assert_eq!(flows(&g), vec![(1, 2, "count".to_string())]);
    // A resolved ambiguity stays resolved with `--unresolved include`.
    let all = graph_of(
        &nb,
        FlowOptions {
            include_unresolved: true,
            ..FlowOptions::default()
        },
    );
    assert!(all.cells[1].inputs.is_empty());
}

#[test]
fn a_loop_over_unknown_data_leaves_the_question_open() {
    let nb = cells(&[
        "count = 10\ndata = [3, 4]",
        "for i in data:\n    if i == 0:\n        count = 0\n    else:\n        count = count + 1",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    assert_eq!(g.cells[1].ambiguities[0].resolution, None);
    assert_eq!(g.unresolved(), 1);
    assert_eq!(g.cells[1].inputs, vec!["data"]);
    let all = graph_of(
        &nb,
        FlowOptions {
            include_unresolved: true,
            ..FlowOptions::default()
        },
    );
    assert_eq!(all.cells[1].inputs, vec!["count", "data"]);
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

/// `combine = [train, test]; for d in combine: d['x'] = ...` (the CRABS
/// Kaggle notebooks): the loop changes `train`, `test` and `combine`; reading
/// `train` reads the list holding it; rebinding ends the sharing.
#[test]
fn changes_through_a_list_and_its_loop_variable() {
    let nb = cells(&[
        "train = load('a')\ntest = load('b')\ncombine = [train, test]",
        "for d in combine:\n    d['t'] = d['name'].str.len()",
        "train.head()",
        "test = test.drop(['t'], axis=1)",
        "test.head()",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    assert_eq!(g.cells[1].inputs, vec!["combine", "test", "train"]);
    assert_eq!(g.cells[1].outputs, vec!["combine", "test", "train"]);
    assert_eq!(
        flows(&g),
        vec![
            (0, 1, "combine".to_string()),
            (0, 1, "test".to_string()),
            (0, 1, "train".to_string()),
            (1, 2, "combine".to_string()),
            (1, 2, "train".to_string()),
            (1, 3, "combine".to_string()),
            (1, 3, "test".to_string()),
            (3, 4, "test".to_string()),
        ]
    );
    // Every step is explained by a resolved ambiguity.
    assert!(
        g.cells[1]
            .ambiguities
            .iter()
            .all(|a| a.resolved_by == Some(ResolvedBy::SharedObject))
    );
    assert_eq!(g.unresolved(), 0);
}

#[test]
fn a_plain_alias_is_changed_but_not_read() {
    let nb = cells(&["a = [1]", "b = a", "b.append(2)", "print(a)"]);
    let g = graph_of(&nb, FlowOptions::default());
    assert_eq!(
        flows(&g),
        vec![
            (0, 1, "a".to_string()),
            (0, 2, "a".to_string()),
            (1, 2, "b".to_string()),
            (2, 3, "a".to_string()),
        ]
    );
}

#[test]
fn zip_and_enumerate_bind_items() {
    let nb = cells(&[
        "models = [('a', make_a()), ('b', make_b())]\nparams = [{}, {}]",
        "for m, p in zip(models, params):\n    m[1].set_params(**p)",
        "for i, m in enumerate(models):\n    print(i, m)",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    assert_eq!(g.cells[1].outputs, vec!["models"]);
    assert!(flows(&g).contains(&(1, 2, "models".to_string())));
    assert!(!flows(&g).contains(&(0, 2, "models".to_string())));
}

#[test]
fn a_loop_runs_and_writes_on_every_path() {
    let nb = cells(&[
        "df = load('x')",
        "for col in ('a', 'b'):\n    df[col] = df[col].fillna(0)",
        "for col in cols:\n    df[col] = df[col].fillna('')",
        "df.head()",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    // Each loop writes `df`: the reader takes it from the last one only.
    assert_eq!(
        flows(&g)
            .into_iter()
            .filter(|f| f.2 == "df")
            .collect::<Vec<_>>(),
        vec![
            (0, 1, "df".to_string()),
            (1, 2, "df".to_string()),
            (2, 3, "df".to_string()),
        ]
    );
}

#[test]
fn names_bound_out_of_sight_come_from_the_cell_that_binds_them() {
    let nb = cells(&[
        "for s in ['AAPL', 'GOOG']:\n    globals()[s] = download(s)",
        "AAPL.describe()",
        "%run helpers.py",
        "helper(GOOG)",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    // The last such cell is taken to bind them (`%run` may rebind `GOOG`).
    assert_eq!(
        flows(&g),
        vec![
            (0, 1, "AAPL".to_string()),
            (2, 3, "GOOG".to_string()),
            (2, 3, "helper".to_string()),
        ]
    );
}

#[test]
fn changing_a_module_is_no_flow() {
    let nb = cells(&[
        "import matplotlib\nimport matplotlib.pyplot as plt",
        "matplotlib.rcParams['figure.figsize'] = (8, 6)",
        "matplotlib.rcParams['figure.figsize'] = (6, 6)\nplt.plot([1])",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    assert!(flows(&g).is_empty(), "{:?}", flows(&g));
}

#[test]
fn a_lambda_passed_on_reads_its_globals() {
    let nb = cells(&[
        "def clean(x):\n    return x.strip(puncts)",
        "puncts = ',.'",
        "df['q'] = df['q'].apply(lambda x: clean(x))",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    assert!(flows(&g).contains(&(0, 2, "clean".to_string())));
    assert!(flows(&g).contains(&(1, 2, "puncts".to_string())));
}

/// Every annotated fixture is scored and matches its truth exactly.
#[test]
fn annotated_fixtures_score() {
    let mut scores = Vec::new();
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
        let truth_path = fixtures().join(format!("{stem}.truth.json"));
        let json = std::fs::read_to_string(&truth_path).expect("truth file");
        let truth: Vec<NotebookTruth> = parse_truth_file(&truth_path, &json).expect("truth");
        let g = graph_of(&load_path(&path).expect("notebook"), FlowOptions::default());
        let score = score_notebook(&stem, &g.code_flows(), &truth[0], g.unresolved());
        assert!(
            score.flows.1.exact,
            "{stem}: missing {:?}, extra {:?}",
            score.missing_flows, score.extra_flows
        );
        scores.push(score);
    }
    assert_eq!(scores.len(), 12);
    let total = aggregate(&scores);
    assert_eq!(total.macro_flows.f1, 1.0, "{:?}", total.macro_flows);
}

/// A call of unknown effect through a loop variable is an open question
/// about every name sharing its objects, asked with the statements that
/// made them share.
#[test]
fn unknown_calls_through_aliases_are_asked_with_their_context() {
    let nb = cells(&[
        "train = load('a')\ntest = load('b')\ncombine = [train, test]",
        "for d in combine:\n    d.mystery()",
        "train.head()",
    ]);
    let g = graph_of(&nb, FlowOptions::default());
    let open: Vec<_> = g.cells[1]
        .ambiguities
        .iter()
        .filter(|a| a.resolution.is_none())
        .collect();
    let mut symbols: Vec<&str> = open.iter().map(|a| a.symbol.as_str()).collect();
    symbols.sort_unstable();
    assert_eq!(symbols, vec!["combine", "test", "train"]);
    assert!(
        open.iter()
            .all(|a| a.kind == AmbiguityKind::OutputCandidate)
    );
    let train = open.iter().find(|a| a.symbol == "train").expect("train");
    assert_eq!(train.context, vec!["cell 0: combine = [train, test]"]);
    // Left open, the reader takes `train` from the first cell only; counted
    // as yes, from the loop as well (a change that may happen).
    assert!(flows(&g).contains(&(0, 2, "train".to_string())));
    assert!(!flows(&g).contains(&(1, 2, "train".to_string())));
    let all = graph_of(
        &nb,
        FlowOptions {
            include_unresolved: true,
            ..FlowOptions::default()
        },
    );
    assert!(flows(&all).contains(&(1, 2, "train".to_string())));
}

/// Flows of a notebook, for the compact cases below.
fn flows_of(sources: &[&str]) -> Vec<(usize, usize, String)> {
    flows(&graph_of(&cells(sources), FlowOptions::default()))
}

fn flow(from: usize, to: usize, symbol: &str) -> (usize, usize, String) {
    (from, to, symbol.to_string())
}

#[test]
fn sharing_follows_python_values() {
    // A swap evaluates both values first.
    let f = flows_of(&["x = [1]\ny = [2]", "x, y = y, x", "y.append(3)", "print(x)"]);
    assert!(
        f.contains(&flow(1, 3, "x")) && !f.contains(&flow(2, 3, "x")),
        "{f:?}"
    );
    // `a = b = []` is one list.
    let f = flows_of(&["a = b = []", "a.append(1)", "print(b)"]);
    assert!(f.contains(&flow(1, 2, "b")), "{f:?}");
    // A slice, `[*a]` and `{**a}` are copies.
    let f = flows_of(&[
        "a = [1]\nitems = [a, [2]]",
        "rest = items[:]",
        "rest.append(5)",
        "print(a, items)",
    ]);
    assert!(
        f.contains(&flow(0, 3, "a")) && !f.contains(&flow(2, 3, "a")),
        "{f:?}"
    );
    let f = flows_of(&["a = {'k': 1}", "c = {**a}", "c['j'] = 2", "print(a)"]);
    assert_eq!(f.iter().filter(|x| x.2 == "a").count(), 2, "{f:?}");
    assert!(f.contains(&flow(0, 3, "a")), "{f:?}");
    // Appending to a list changes the list, not what it holds.
    let f = flows_of(&[
        "train = load('a')\ntest = load('b')\ncombine = [train, test]",
        "combine.append(3)",
        "print(train.shape)",
    ]);
    assert!(
        f.contains(&flow(0, 2, "train")) && !f.contains(&flow(1, 2, "train")),
        "{f:?}"
    );
    // Rebinding ends the sharing, even in the cell that changes the new value.
    let f = flows_of(&[
        "df = load('x')",
        "b = df",
        "b = b.copy()\nb['x'] = 1",
        "print(df)",
    ]);
    assert!(
        f.contains(&flow(0, 3, "df")) && !f.contains(&flow(2, 3, "df")),
        "{f:?}"
    );
    // `b += [2]` extends the shared list.
    let f = flows_of(&["a = [1]", "b = a", "b += [2]", "print(a)"]);
    assert!(f.contains(&flow(2, 3, "a")), "{f:?}");
    // Unpacking goes position by position, also in loops and over
    // `dict.items()`.
    let f = flows_of(&[
        "train = load('a')\ntest = load('b')\npair = (train, test)",
        "a, b = pair",
        "a['x'] = 1",
        "print(test.shape)",
    ]);
    assert!(
        f.contains(&flow(0, 3, "test")) && !f.contains(&flow(2, 3, "test")),
        "{f:?}"
    );
    let f = flows_of(&[
        "train = load('a')\ntest = load('b')",
        "for label, df in [('train', train), ('test', test)]:\n    df['x'] = 1",
        "print(label, train)",
    ]);
    assert!(
        f.contains(&flow(1, 2, "train")) && f.contains(&flow(1, 2, "label")),
        "{f:?}"
    );
    let f = flows_of(&[
        "train = load('a')\ntest = load('b')\ndata = {'train': train, 'test': test}",
        "for k, d in data.items():\n    d['x'] = 1",
        "print(train)",
    ]);
    assert!(
        f.contains(&flow(1, 2, "train")) && !f.contains(&flow(0, 2, "train")),
        "{f:?}"
    );
    // A change through a name that may be either of two objects may change
    // each: the earlier values still flow.
    let f = flows_of(&[
        "df = load('a')\nother = load('b')",
        "if cond:\n    b = df\nelse:\n    b = other",
        "b['x'] = 1",
        "print(df, other)",
    ]);
    for symbol in ["df", "other"] {
        assert!(
            f.contains(&flow(0, 3, symbol)) && f.contains(&flow(2, 3, symbol)),
            "{f:?}"
        );
    }
}

#[test]
fn user_functions_changing_their_arguments() {
    let f = flows_of(&[
        "df = load('a')",
        "def add_col(frame):\n    frame['x'] = 1",
        "add_col(df)",
        "print(df)",
    ]);
    assert!(
        f.contains(&flow(2, 3, "df")) && f.contains(&flow(0, 2, "df")),
        "{f:?}"
    );
    // The definition in force at the call decides what it writes.
    let f = flows_of(&[
        "g = 0",
        "def f():\n    global g\n    g = 1",
        "f()",
        "def f():\n    pass",
        "f()",
        "print(g)",
    ]);
    assert!(f.contains(&flow(2, 5, "g")), "{f:?}");
    // A name rebound to something else is no longer the user function.
    let f = flows_of(&[
        "g = 0",
        "def f():\n    global g\n    g = 1",
        "f = print\nf()",
        "print(g)",
    ]);
    assert!(f.contains(&flow(0, 3, "g")), "{f:?}");
}

#[test]
fn deletes_lambdas_and_namespaces() {
    // A `del` on some path only does not end the value.
    let f = flows_of(&["x = 0", "x = 1\nif c:\n    del x", "print(x)"]);
    assert!(f.contains(&flow(1, 2, "x")), "{f:?}");
    // A lambda reads a global the cell binds only after it.
    let f = flows_of(&[
        "xs = load('a')\nk = 1",
        "s = xs.apply(lambda v: v + k)\nk = 5",
    ]);
    assert!(f.contains(&flow(0, 1, "k")), "{f:?}");
    // Reading `globals()` binds nothing.
    let f = flows_of(&["if 'x' in globals():\n    pass", "print(undefined_name)"]);
    assert!(f.is_empty(), "{f:?}");
}

#[test]
fn first_iteration_follows_the_constants_it_can() {
    let input = |sources: &[&str]| {
        graph_of(&cells(sources), FlowOptions::default()).cells[1]
            .inputs
            .clone()
    };
    // After the inner loop `flag` is the last iteration's value.
    assert_eq!(
        input(&[
            "x = 5",
            "for j in range(2):\n    for i in range(3):\n        flag = i == 0\n    if flag:\n        x = 0\n    else:\n        x = x + 1",
        ]),
        vec!["x"]
    );
    // A branch the test does not decide may rebind a constant.
    assert_eq!(
        input(&[
            "x = 5",
            "for i in range(3):\n    k = 0\n    if flag:\n        k = 1\n    if k == 0:\n        x = 0\n    else:\n        x = x + 1",
        ]),
        vec!["x"]
    );
    // A branch the test decides sets it.
    assert!(
        input(&[
            "x = 5",
            "for i in range(3):\n    if i == 0:\n        k = 1\n    if k == 1:\n        x = 0\n    else:\n        x = x + 1",
        ])
        .is_empty()
    );
    // A walrus binds.
    assert!(
        input(&[
            "count = 5",
            "for i in range(3):\n    if i == 0:\n        y = (count := 0)\n    count = count + 1",
        ])
        .is_empty()
    );
    // `break` is not followed: the question stays open.
    let g = graph_of(
        &cells(&[
            "n = 5",
            "for i in range(3):\n    if i == 0:\n        break\n    n = 0\nn = n + 1",
        ]),
        FlowOptions::default(),
    );
    assert_eq!(g.cells[1].ambiguities[0].resolution, None);
}
