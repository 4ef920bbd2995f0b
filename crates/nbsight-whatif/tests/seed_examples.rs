//! The worked examples of the seeds (`../shared/seed-notes.md`): NBLyzer's
//! Figure 1 and nbsafety's Figure 1, with the answers the papers state.

mod common;

use std::path::{Path, PathBuf};

use common::cells;
use nbsight_dataflow::Effects;
use nbsight_notebook::{CellIndex, Notebook, load_path};
use nbsight_whatif::{
    AlarmKind, Event, Executed, WhatIfFinding, WhatIfOptions, WhatIfReport, WhatIfSession, what_if,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(relative: &str) -> Notebook {
    load_path(&root().join(relative)).expect("fixture loads")
}

fn run(notebook: &Notebook, event: Event, executed: Executed, k: Option<usize>) -> WhatIfReport {
    let effects = Effects::builtin();
    what_if(notebook, &effects, &event, &WhatIfOptions { executed, k }).expect("query is valid")
}

/// Cells by their positions.
fn at(cells: &[usize]) -> Vec<CellIndex> {
    cells.iter().map(|&c| CellIndex::new(c)).collect()
}

fn figure1() -> Notebook {
    load("examples/nblyzer_figure1.ipynb")
}

fn impacted(report: &WhatIfReport) -> Vec<(usize, usize, Vec<String>)> {
    report
        .impacted
        .iter()
        .map(|i| (i.cell.index(), i.depth, i.symbols.clone()))
        .collect()
}

fn findings_of(report: &WhatIfReport, kind: AlarmKind) -> Vec<&WhatIfFinding> {
    report.findings.iter().filter(|f| f.kind == kind).collect()
}

// ----- NBLyzer, Figure 1 (seed-notes: "The paper's answers") -------------

#[test]
fn figure1_execute_cell_1_leaks_along_1_2_4_5_at_cell_5() {
    let report = run(&figure1(), Event::Execute(1), Executed::Fresh, None);
    let leaks = findings_of(&report, AlarmKind::PreprocessingLeakage);
    assert_eq!(leaks.len(), 1, "{:#?}", report.findings);
    assert_eq!(leaks[0].cell, CellIndex::new(5));
    assert_eq!(leaks[0].path, at(&[1, 2, 4, 5]));
    assert!(
        leaks[0].message.contains("fit_transform"),
        "{}",
        leaks[0].message
    );
}

#[test]
fn figure1_after_executing_cell_1_cell_3_is_safe_and_cell_2_is_not() {
    let report = run(&figure1(), Event::Execute(1), Executed::Fresh, None);
    assert!(
        report.safe_next.contains(&CellIndex::new(3)),
        "{:?}",
        report.safe_next
    );
    assert!(
        !report.safe_next.contains(&CellIndex::new(2)),
        "{:?}",
        report.safe_next
    );
    // Cells 4 and 5 cannot run yet (x is unbound), cell 1 again leads to the leak.
    assert_eq!(report.safe_next, at(&[3]));
}

#[test]
fn figure1_edit_cell_1_with_k_2_impacts_2_at_depth_1_and_4_at_depth_2() {
    let edit = Event::Edit {
        cell: 1,
        source: "import pandas as pd\nd = pd.read_csv(\"other.csv\")\n".into(),
    };
    let report = run(&figure1(), edit.clone(), Executed::Fresh, Some(2));
    assert_eq!(
        impacted(&report),
        vec![(2, 1, vec!["d".to_string()]), (4, 2, vec!["x".to_string()])]
    );
    // Cell 4 run before cell 2 would read a stale x: cell 2 must re-run first.
    let stale = findings_of(&report, AlarmKind::StaleState);
    assert_eq!(stale.len(), 1, "{:#?}", report.findings);
    assert_eq!(stale[0].cell, CellIndex::new(4));
    assert_eq!(stale[0].path, at(&[1, 2, 4]));
    assert!(
        stale[0].message.contains("re-run cell 2 first"),
        "{}",
        stale[0].message
    );
    // Unbounded, cell 5 is impacted at depth 3; cell 3 never is.
    let report = run(&figure1(), edit, Executed::Fresh, None);
    assert!(
        impacted(&report).contains(&(
            5,
            3,
            ["x_test", "x_train", "y_test", "y_train"]
                .map(String::from)
                .to_vec()
        ))
    );
    assert!(report.impacted.iter().all(|i| i.cell != CellIndex::new(3)));
}

#[test]
fn figure1_order_3_4_5_is_safe_and_1_2_4_5_leaks() {
    let notebook = figure1();
    let effects = Effects::builtin();
    let leaky = WhatIfSession::new(&notebook, &effects, &Executed::Cells(vec![1, 2, 4]))
        .expect("valid history")
        .query(&Event::Execute(5), Some(0))
        .expect("valid query");
    assert_eq!(
        findings_of(&leaky, AlarmKind::PreprocessingLeakage).len(),
        1
    );
    let safe = WhatIfSession::new(&notebook, &effects, &Executed::Cells(vec![3, 4]))
        .expect("valid history")
        .query(&Event::Execute(5), Some(0))
        .expect("valid query");
    assert!(safe.findings.is_empty(), "{:#?}", safe.findings);
}

#[test]
fn sessions_accept_real_executions_one_by_one() {
    let notebook = figure1();
    let effects = Effects::builtin();
    let mut session =
        WhatIfSession::new(&notebook, &effects, &Executed::Fresh).expect("fresh kernel");
    for cell in [1, 2, 4] {
        session.execute(cell).expect("cell exists");
    }
    let report = session.query(&Event::Execute(5), Some(0)).expect("valid");
    assert_eq!(report.history, at(&[1, 2, 4]));
    assert_eq!(
        findings_of(&report, AlarmKind::PreprocessingLeakage).len(),
        1
    );
}

// ----- nbsafety ------------------------------------------------------------

#[test]
fn nbsafety_figure1_editing_custom_agg_impacts_agg_by_col_then_the_aggregates() {
    let notebook = load("crates/nbsight-check/tests/fixtures/nbsafety_figure1.ipynb");
    let edit = Event::Edit {
        cell: 2,
        source: "def custom_agg(series):\n    return series.min()\n".into(),
    };
    let report = run(&notebook, edit, Executed::Saved, None);
    assert_eq!(
        impacted(&report),
        vec![
            (3, 1, vec!["custom_agg".to_string()]),
            (4, 2, vec!["agg_by_col".to_string()])
        ]
    );
    // Running the aggregates before re-running cell 3 uses the old custom_agg.
    let stale = findings_of(&report, AlarmKind::StaleState);
    assert_eq!(stale.len(), 1);
    assert_eq!(
        (stale[0].cell.index(), stale[0].path.clone()),
        (4, at(&[2, 3, 4]))
    );
    assert_eq!(report.rerun_plan, at(&[2, 3, 4]));
    assert!(
        report.safe_next.contains(&CellIndex::new(2))
            && !report.safe_next.contains(&CellIndex::new(4))
    );
}

#[test]
fn nbsafety_three_cells_second_is_fresh_third_is_stale() {
    // a = 4; b = a; c = a + b, run in order; the first edited to a = 5 and re-run.
    let notebook = cells(&["a = 5", "b = a", "c = a + b"]);
    let effects = Effects::builtin();
    let session = WhatIfSession::new(&notebook, &effects, &Executed::Cells(vec![0, 1, 2]))
        .expect("valid history");
    let report = session.query(&Event::Execute(0), None).expect("valid");
    // The second cell reads only the updated `a`: safe. The third reads the stale `b`.
    assert!(
        report.safe_next.contains(&CellIndex::new(1)),
        "{:?}",
        report.safe_next
    );
    assert!(
        !report.safe_next.contains(&CellIndex::new(2)),
        "{:?}",
        report.safe_next
    );
    let stale = findings_of(&report, AlarmKind::StaleState);
    assert_eq!(stale.iter().map(|f| f.cell).collect::<Vec<_>>(), at(&[2]));
    // Re-running the second cell resolves the third.
    assert_eq!(report.rerun_plan, at(&[1, 2]));
}

// ----- re-run plans --------------------------------------------------------

#[test]
fn editing_an_in_place_change_reruns_the_cell_that_builds_the_value_first() {
    let notebook = cells(&[
        "xs = [1, 2]",
        "n = 3",
        "xs.append(7)",
        "total = sum(xs)",
        "print(n)",
    ]);
    let effects = Effects::builtin();
    let session = WhatIfSession::new(&notebook, &effects, &Executed::Cells(vec![0, 1, 2, 3, 4]))
        .expect("valid history");
    let edit = Event::Edit {
        cell: 2,
        source: "xs.append(8)".into(),
    };
    let report = session.query(&edit, None).expect("valid");
    // xs is rebuilt (cell 0), changed again (2), and its reader re-runs (3);
    // cells 1 and 4 read nothing that changed.
    assert_eq!(report.rerun_plan, at(&[0, 2, 3]));
}

#[test]
fn deleting_a_definition_impacts_its_readers_in_original_indices() {
    let notebook = cells(&["a = 1", "b = 2", "c = b + 1", "print(a)"]);
    let report = run(
        &notebook,
        Event::Delete(1),
        Executed::Cells(vec![0, 1, 2, 3]),
        None,
    );
    assert_eq!(impacted(&report), vec![(2, 1, vec!["b".to_string()])]);
    assert_eq!(report.rerun_plan, at(&[2]));
}

#[test]
fn inserting_a_cell_reports_it_at_its_new_position() {
    let notebook = cells(&["a = 1", "print(a)"]);
    let insert = Event::Insert {
        cell: 1,
        source: "a = a + 1".into(),
    };
    let report = run(&notebook, insert, Executed::Cells(vec![0, 1]), None);
    // The new cell is 1; the old `print(a)` is now cell 2.
    assert_eq!(impacted(&report), vec![(2, 1, vec!["a".to_string()])]);
    assert_eq!(report.rerun_plan, at(&[1, 2]));
}

#[test]
fn out_of_range_cells_are_errors() {
    let notebook = cells(&["a = 1"]);
    let effects = Effects::builtin();
    let options = WhatIfOptions::default();
    assert!(what_if(&notebook, &effects, &Event::Execute(3), &options).is_err());
    let bad_history = WhatIfOptions {
        executed: Executed::Cells(vec![7]),
        k: None,
    };
    assert!(what_if(&notebook, &effects, &Event::Execute(0), &bad_history).is_err());
}

/// Two models evaluated on one test split, trained after the split is made
/// again: the exploration runs both evaluations in the same round (on the
/// same state), and still finds that one of them meets the other model,
/// whichever runs first. Evaluations already in the kernel state before
/// the event are not its consequences.
#[test]
fn two_models_scored_on_one_test_split_after_a_new_split_is_multi_test_leakage() {
    let notebook = cells(&[
        "from sklearn.model_selection import train_test_split\nfrom sklearn.linear_model import LogisticRegression\nfrom sklearn.tree import DecisionTreeClassifier\nimport pandas as pd\ndf = pd.read_csv('d.csv')\nX = df.drop('y', axis=1)\ny = df['y']",
        "X_train, X_test, y_train, y_test = train_test_split(X, y)",
        "m1 = LogisticRegression(random_state=0)\nm1.fit(X_train, y_train)",
        "m2 = DecisionTreeClassifier(random_state=0)\nm2.fit(X_train, y_train)",
        "print(m1.score(X_test, y_test))",
        "print(m2.score(X_test, y_test))",
    ]);
    let report = run(&notebook, Event::Execute(1), Executed::Cells(vec![0]), None);
    let cells: Vec<usize> = findings_of(&report, AlarmKind::MultiTestLeakage)
        .iter()
        .map(|f| f.cell.index())
        .collect();
    assert!(!cells.is_empty(), "{:?}", report.findings);
    assert!(cells.iter().all(|c| [4, 5].contains(c)));
    let report = run(
        &notebook,
        Event::Execute(4),
        Executed::Cells(vec![0, 1, 2, 3, 4, 5]),
        None,
    );
    assert!(findings_of(&report, AlarmKind::MultiTestLeakage).is_empty());
}
