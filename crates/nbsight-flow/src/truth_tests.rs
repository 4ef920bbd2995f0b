use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::*;

fn one(json: &str) -> NotebookTruth {
    let mut truths = parse_truth(json).expect("valid truth");
    assert_eq!(truths.len(), 1);
    truths.remove(0)
}

fn flows(truth: &NotebookTruth) -> Vec<(usize, usize, String)> {
    truth
        .flows()
        .into_iter()
        .map(|f| (f.from.get(), f.to.get(), f.symbol))
        .collect()
}

/// [`NotebookTruth::dependencies`] as numbers.
fn dependencies(truth: &NotebookTruth) -> BTreeSet<(usize, usize)> {
    truth
        .dependencies()
        .into_iter()
        .map(|(a, b)| (a.get(), b.get()))
        .collect()
}

/// Code cell `id`.
fn code(id: usize) -> CodeCellId {
    CodeCellId::from_one_based(id).expect("ids count from 1")
}

fn expect(list: &[(usize, usize, &str)]) -> Vec<(usize, usize, String)> {
    list.iter().map(|&(a, b, s)| (a, b, s.to_owned())).collect()
}

fn error(json: &str) -> String {
    parse_truth(json).expect_err("invalid truth").to_string()
}

const CRABS_EXAMPLE: &str = r#"[
    {"id": 1, "outputs": ["phone", "survey"]},
    {"id": 2, "outputs": ["ec"]},
    {"id": 3, "inputs": ["phone", "ec"]}
]"#;

#[test]
fn crabs_example_flows_and_dependencies() {
    let truth = one(CRABS_EXAMPLE);
    assert_eq!(truth.name, None);
    assert_eq!(truth.code_cells, None);
    assert_eq!(flows(&truth), expect(&[(1, 3, "phone"), (2, 3, "ec")]));
    assert_eq!(dependencies(&truth), BTreeSet::from([(1, 3), (2, 3)]));
    assert!(truth.unresolved_inputs().is_empty());
}

#[test]
fn missing_keys_are_empty() {
    let truth = one(r#"[{"id": 1}, {"id": 2, "inputs": []}]"#);
    assert_eq!(truth.cells.len(), 2);
    assert_eq!(
        truth.cells[0],
        CellTruth {
            id: code(1),
            ..CellTruth::default()
        }
    );
    assert!(truth.flows().is_empty());
}

#[test]
fn multi_notebook_shape_with_headers() {
    let truths = parse_truth(
        r#"[
            [{"id": "alice:first", "code_cell_count": 2},
             {"id": 1, "outputs": ["a"]}, {"id": 2, "inputs": ["a"]}],
            [{"id": "bob:second", "code_cell_count": 3},
             {"id": 1, "defines_code": ["f"]}, {"id": 2}, {"id": 3, "refers_code": ["f"]}]
        ]"#,
    )
    .unwrap();
    assert_eq!(truths.len(), 2);
    assert_eq!(truths[0].name.as_deref(), Some("alice:first"));
    assert_eq!(truths[0].code_cells, Some(2));
    assert_eq!(flows(&truths[0]), expect(&[(1, 2, "a")]));
    assert_eq!(truths[1].name.as_deref(), Some("bob:second"));
    assert_eq!(flows(&truths[1]), expect(&[(1, 3, "f")]));
    assert_eq!(dependencies(&truths[1]), BTreeSet::from([(1, 3)]));
}

#[test]
fn single_notebook_may_carry_a_header() {
    let truth = one(r#"[{"id": "x:y", "code_cell_count": 1}, {"id": 1}]"#);
    assert_eq!(truth.name.as_deref(), Some("x:y"));
    assert_eq!(truth.code_cells, Some(1));
    assert_eq!(truth.cells.len(), 1);
}

#[test]
fn empty_list_is_a_notebook_without_cells() {
    let truth = one("[]");
    assert!(truth.cells.is_empty());
    assert!(truth.flows().is_empty());
    assert!(truth.dependencies().is_empty());
}

#[test]
fn version_suffix_stripping() {
    assert_eq!(strip_version("df_train-1"), "df_train");
    assert_eq!(strip_version("all_data-24"), "all_data");
    assert_eq!(strip_version("df_train"), "df_train");
    assert_eq!(strip_version("df-"), "df-");
    assert_eq!(strip_version("df-1a"), "df-1a");
    assert_eq!(strip_version("-1"), "-1");
    assert_eq!(strip_version("a-b-2"), "a-b");
    assert_eq!(
        Name::new("x-3"),
        Name {
            symbol: "x".into(),
            version: "x-3".into()
        }
    );
    // A pair and a plain versioned string denote the same name.
    let truth = one(r#"[{"id": 1, "inputs": [["df", "df-1"], "df-1", "df"]}]"#);
    assert_eq!(truth.cells[0].inputs[0], truth.cells[0].inputs[1]);
    assert_eq!(truth.cells[0].inputs[2], Name::new("df"));
}

#[test]
fn versions_pick_the_writer() {
    // Cell 3 names the first version explicitly, so it reads cell 1's value
    // although cell 2 wrote a newer one; cell 5 writes the unsuffixed version
    // again and becomes its last writer.
    let truth = one(r#"[
            {"id": 1, "outputs": ["df"]},
            {"id": 2, "inputs": ["df"], "outputs": [["df", "df-1"]]},
            {"id": 3, "inputs": ["df"]},
            {"id": 4, "inputs": [["df", "df-1"]]},
            {"id": 5, "outputs": ["df"]},
            {"id": 6, "inputs": ["df"]}
        ]"#);
    assert_eq!(
        flows(&truth),
        expect(&[(1, 2, "df"), (1, 3, "df"), (2, 4, "df"), (5, 6, "df")])
    );
    assert_eq!(
        dependencies(&truth),
        BTreeSet::from([(1, 2), (1, 3), (1, 4), (2, 4), (5, 6)])
    );
}

#[test]
fn several_versions_state_the_union_of_possible_flows() {
    let truth = one(r#"[
            {"id": 1, "outputs": ["x"]},
            {"id": 2, "outputs": [["x", "x-1"]]},
            {"id": 3, "inputs": [["x", "x"], ["x", "x-1"]]}
        ]"#);
    assert_eq!(flows(&truth), expect(&[(1, 3, "x"), (2, 3, "x")]));
}

#[test]
fn an_input_never_comes_from_its_own_cell() {
    let truth = one(r#"[
            {"id": 1, "outputs": ["n"]},
            {"id": 2, "inputs": ["n"], "outputs": ["n"]},
            {"id": 3, "inputs": ["n"]}
        ]"#);
    assert_eq!(flows(&truth), expect(&[(1, 2, "n"), (2, 3, "n")]));
}

#[test]
fn unresolved_inputs_give_no_flow() {
    let truth = one(r#"[
            {"id": 1, "outputs": ["a"]},
            {"id": 2, "inputs": ["a", "ghost", ["a", "a-1"]], "refers_code": ["nowhere"]}
        ]"#);
    assert_eq!(flows(&truth), expect(&[(1, 2, "a")]));
    assert_eq!(
        truth.unresolved_inputs(),
        [
            (code(2), "ghost".to_owned()),
            (code(2), "a-1".to_owned()),
            (code(2), "nowhere".to_owned())
        ]
    );
}

#[test]
fn code_flows_follow_the_last_definition() {
    let truth = one(r#"[
            {"id": 1, "defines_code": ["f"], "refers_code": ["f"]},
            {"id": 2, "refers_code": ["f"]},
            {"id": 3, "defines_code": ["f"]},
            {"id": 4, "refers_code": ["f"]},
            {"id": 5, "defines_code": ["f"], "refers_code": ["f"]}
        ]"#);
    // Cell 1 defines and calls f: no flow; cell 5 redefines before calling.
    assert_eq!(flows(&truth), expect(&[(1, 2, "f"), (3, 4, "f")]));
}

#[test]
fn rejects_malformed_truth() {
    let e = error("{");
    assert!(e.contains("invalid JSON"), "{e}");
    let e = error(r#"{"id": 1}"#);
    assert!(e.contains("top level"), "{e}");
    let e = error(r#"[{"id": 1, "input": ["a"]}]"#);
    assert!(e.starts_with("cell 1: unknown key `input`"), "{e}");
    let e = error(r#"[{"id": 2}, {"id": 2}]"#);
    assert!(e.contains("must increase"), "{e}");
    let e = error(r#"[{"id": 0}]"#);
    assert!(e.contains("`id`"), "{e}");
    let e = error(r#"[{"inputs": ["a"]}]"#);
    assert!(e.contains("`id`"), "{e}");
    let e = error(r#"[{"id": 1, "inputs": [["a", "b-1"]]}]"#);
    assert!(e.contains("version must be"), "{e}");
    let e = error(r#"[{"id": 1, "inputs": [["a"]]}]"#);
    assert!(e.contains("pair"), "{e}");
    let e = error(r#"[{"id": 1, "outputs": "a"}]"#);
    assert!(e.contains("cell 1, outputs: expected a list"), "{e}");
    let e = error(r#"[{"id": 1, "outputs": [""]}]"#);
    assert!(e.contains("non-empty string"), "{e}");
    let e = error(r#"[{"id": 1, "refers_code": [3]}]"#);
    assert!(e.contains("refers_code"), "{e}");
    let e = error(r#"[[{"id": "a:b", "code_cell_count": 1}, {"id": 2}]]"#);
    assert!(
        e.contains("notebook 1 (a:b), cell 2") && e.contains("code_cell_count 1"),
        "{e}"
    );
    let e = error(r#"[[{"id": "a:b", "cells": 1}]]"#);
    assert!(e.contains("unknown header key `cells`"), "{e}");
    let e = error(r#"[[{"id": 1}], {"id": 1}]"#);
    assert!(e.contains("notebook 2"), "{e}");
}

#[test]
fn truth_file_errors_name_the_file() {
    let path = Path::new("/data/truth.json");
    let ids = parse_truth_file(path, r#"[{"id": 1}, {"id": 1}]"#)
        .unwrap_err()
        .to_string();
    let json = parse_truth_file(path, "[{").unwrap_err().to_string();
    assert!(
        ids.starts_with("/data/truth.json: cell 1: cell ids must increase"),
        "{ids}"
    );
    assert!(json.starts_with("/data/truth.json: 1:"), "{json}");
}

/// Reads and parses a truth file, as the CLI does.
fn load_truth(path: &Path) -> Result<Vec<NotebookTruth>, TruthError> {
    let json = std::fs::read_to_string(path).map_err(|source| TruthError::Io {
        path: path.to_owned(),
        source,
    })?;
    parse_truth_file(path, &json)
}

#[test]
fn truth_keys_for_corpus_files() {
    assert_eq!(
        truth_key_for_file("03-startupsci--titanic-data-science-solutions"),
        "startupsci:titanic-data-science-solutions"
    );
    assert_eq!(
        truth_key_for_file("05-yassineghouzam--introduction-to-cnn-keras-0-997-top-6"),
        "yassineghouzam:introduction-to-cnn-keras-0-997-top-6"
    );
    // The authors' own file names already carry the colon.
    assert_eq!(
        truth_key_for_file("03-startupsci:titanic-data-science-solutions"),
        "startupsci:titanic-data-science-solutions"
    );
    assert_eq!(truth_key_for_file("plain"), "plain");
    assert_eq!(truth_key_for_file("2024-report--x"), "report:x");
    assert_eq!(truth_key_for_file("12abc--d"), "12abc:d");

    let truths = parse_truth(
        r#"[[{"id": "a:b", "code_cell_count": 0}], [{"id": "c:d", "code_cell_count": 0}]]"#,
    )
    .unwrap();
    assert_eq!(
        find_truth(&truths, "07-c--d").and_then(|t| t.name.as_deref()),
        Some("c:d")
    );
    assert_eq!(
        find_truth(&truths, "a:b").and_then(|t| t.name.as_deref()),
        Some("a:b")
    );
    assert!(find_truth(&truths, "01-e--f").is_none());
}

// ---------------------------------------------------------------------------
// Our annotated fixtures (`tests/fixtures/` of this crate).

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Code cells of an nbformat 4 notebook, read with serde_json only.
fn code_cell_count(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let notebook: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    notebook["cells"]
        .as_array()
        .unwrap_or_else(|| panic!("{path:?}: no cells"))
        .iter()
        .filter(|cell| cell["cell_type"] == "code")
        .count()
}

fn fixture(stem: &str) -> NotebookTruth {
    let mut truths = load_truth(&fixtures_dir().join(format!("{stem}.truth.json"))).unwrap();
    truths.remove(0)
}

#[test]
fn every_fixture_truth_parses_and_matches_its_notebook() {
    let dir = fixtures_dir();
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir:?}: {e}")) {
        let path = entry.unwrap().path();
        let Some(file) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = file.strip_suffix(".truth.json") else {
            continue;
        };
        let truths = load_truth(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(truths.len(), 1, "{file}: one notebook per fixture");
        let truth = &truths[0];
        assert!(
            truth.unresolved_inputs().is_empty(),
            "{file}: inputs no earlier cell outputs: {:?}",
            truth.unresolved_inputs()
        );
        let notebook = dir.join(format!("{stem}.ipynb"));
        assert!(notebook.exists(), "{file}: no {stem}.ipynb beside it");
        let code_cells = code_cell_count(&notebook);
        let ids: Vec<usize> = truth.cells.iter().map(|c| c.id.get()).collect();
        assert_eq!(
            ids,
            (1..=code_cells).collect::<Vec<_>>(),
            "{file}: one entry per code cell of {stem}.ipynb"
        );
        assert!(!truth.flows().is_empty(), "{file}: no flows");
        checked += 1;
    }
    assert!(
        (8..=12).contains(&checked),
        "expected 8 to 12 fixtures, found {checked}"
    );
}

#[test]
fn fixture_crabs_example() {
    let truth = fixture("crabs_example");
    assert_eq!(
        flows(&truth),
        expect(&[(1, 3, "phone"), (1, 4, "survey"), (2, 3, "ec")])
    );
    assert_eq!(
        dependencies(&truth),
        BTreeSet::from([(1, 3), (1, 4), (2, 3)])
    );
}

#[test]
fn fixture_conditional_definitions() {
    let truth = fixture("conditional_defs");
    assert_eq!(
        flows(&truth),
        expect(&[
            (1, 3, "full"),
            (1, 4, "verbose"),
            (1, 6, "full"),
            (2, 5, "x"),
            (3, 5, "x"),
            (4, 5, "x"),
            (4, 7, "label"),
            (5, 7, "y"),
            (6, 7, "label"),
            (6, 7, "x"),
        ])
    );
}

#[test]
fn fixture_loop_carried_initialisation() {
    let truth = fixture("loop_carried");
    // `count` is written before it is read in cell 2: no input.
    assert!(truth.cell(code(2)).unwrap().inputs.is_empty());
    assert!(!truth.flows().iter().any(|f| f.to == code(2)));
}

// ---------------------------------------------------------------------------
// The authors' annotations of the 50 Kaggle notebooks, when available.

fn crabs_truth_path() -> PathBuf {
    std::env::var_os("NBSIGHT_CRABS_TRUTH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/tmp/crabs-truth.json"))
}

fn crabs_corpus_dir() -> Option<PathBuf> {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    // `../shared` beside the worktree (as the corpus tests), or beside the crate.
    [
        "../../../shared/corpus/crabs-kaggle",
        "../../shared/corpus/crabs-kaggle",
    ]
    .iter()
    .map(|rel| crate_dir.join(rel))
    .find(|dir| dir.is_dir())
}

#[test]
#[allow(clippy::print_stderr, reason = "a test skipped says so")]
fn crabs_truth_matches_the_corpus() {
    let truth_path = crabs_truth_path();
    if !truth_path.exists() {
        eprintln!(
            "skipped: no CRABS truth at {} (set NBSIGHT_CRABS_TRUTH)",
            truth_path.display()
        );
        return;
    }
    let Some(corpus) = crabs_corpus_dir() else {
        eprintln!("skipped: no shared/corpus/crabs-kaggle");
        return;
    };
    let truths = load_truth(&truth_path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(truths.len(), 50);

    // `flows` column of index.tsv: the authors' edge count per notebook.
    let index = std::fs::read_to_string(corpus.join("index.tsv")).unwrap_or_default();
    let expected_flows: std::collections::BTreeMap<String, usize> = index
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            Some((fields.first()?.to_string(), fields.get(3)?.parse().ok()?))
        })
        .collect();

    let mut mismatches = Vec::new();
    let mut matched = BTreeSet::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ipynb"))
        .collect();
    files.sort();
    for file in &files {
        let stem = file.file_stem().unwrap().to_str().unwrap();
        let Some(truth) = find_truth(&truths, stem) else {
            mismatches.push(format!("{stem}: no truth"));
            continue;
        };
        matched.insert(truth.name.clone());
        let code_cells = code_cell_count(file);
        if truth.code_cells != Some(code_cells) || truth.cells.len() != code_cells {
            mismatches.push(format!(
                "{stem}: {code_cells} code cells, header says {:?}, {} annotated",
                truth.code_cells,
                truth.cells.len()
            ));
        }
        if let Some(&flows) = expected_flows.get(stem)
            && truth.flows().len() != flows
        {
            mismatches.push(format!(
                "{stem}: {} flows derived, index.tsv says {flows}",
                truth.flows().len()
            ));
        }
    }
    assert_eq!(matched.len(), 50, "every notebook of the truth has a file");
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}
