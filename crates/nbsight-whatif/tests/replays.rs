//! A session replays the leakage domain's kept cell runs instead of
//! interpreting them again; its answers must be exactly those of a session
//! that interprets every run. Checked on every `check` fixture and on a real
//! notebook that trains and scores dozens of models in loops (the corpus's
//! slowest for what-if, copied with its outputs removed), for executions,
//! edits that keep or move the cell's calls, edits that rebind, inserts and
//! deletes, before and after real executions.

mod common;

use std::path::{Path, PathBuf};

use common::cells;
use nbsight_dataflow::Effects;
use nbsight_notebook::{Notebook, load_path};
use nbsight_whatif::{AlarmKind, Event, Executed, WhatIfReport, WhatIfSession};

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![root.join("tests/fixtures/hastie_learning_curves.ipynb")];
    let mut checks: Vec<PathBuf> = std::fs::read_dir(root.join("../nbsight-check/tests/fixtures"))
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ipynb"))
        .collect();
    checks.sort();
    paths.extend(checks);
    paths
}

/// The events asked of each code cell `i` (with source `source`).
fn events(i: usize, source: &str) -> Vec<Event> {
    vec![
        Event::Execute(i),
        // Same calls at the same places: the kept runs stay replayable.
        Event::Edit {
            cell: i,
            source: format!("{source}\n# edited\n"),
        },
        // Every call one line down: the alarms citing them must say so.
        Event::Edit {
            cell: i,
            source: format!("\n{source}"),
        },
        // A new binding: the model is rebuilt.
        Event::Edit {
            cell: i,
            source: format!("{source}\nnbsight_extra_{i} = 1\n"),
        },
    ]
}

fn answers(session: &WhatIfSession<'_>, notebook: &Notebook, sample: &[usize]) -> Vec<String> {
    let mut out = Vec::new();
    for &i in sample {
        let source = &notebook.cells[i].source;
        for event in events(i, source) {
            let report = session.query(&event, None).expect("valid query");
            out.push(format!("{event:?}: {report:?}"));
        }
    }
    // Open explores from every cell: only on the small notebooks.
    let open = (session.model().code_cells().count() <= 20).then_some(Event::Open);
    for event in open.into_iter().chain([
        Event::Delete(sample[0]),
        Event::Insert {
            cell: sample[0],
            source: "x_new = 1\n".into(),
        },
    ]) {
        let report = session.query(&event, None).expect("valid query");
        out.push(format!("{event:?}: {report:?}"));
    }
    out
}

#[test]
fn replayed_runs_answer_as_interpreted_runs() {
    let effects = Effects::builtin();
    for path in fixtures() {
        let notebook = load_path(&path).expect("fixture loads");
        let replaying =
            WhatIfSession::new(&notebook, &effects, &Executed::Saved).expect("saved history");
        let mut interpreting = replaying.clone();
        interpreting.forget_runs();
        // Every code cell of the small notebooks; about eight of the big one.
        let code: Vec<usize> = replaying.model().code_cells().map(|c| c.index).collect();
        let step = code.len().div_ceil(8);
        let code: Vec<usize> = code.into_iter().step_by(step.max(1)).collect();
        if code.is_empty() {
            continue;
        }
        let mut sessions = [replaying, interpreting];
        // Twice, so that the second round replays what the first kept; then
        // after real executions (the kept runs stay valid).
        for round in 0..3 {
            if round == 2 {
                for session in &mut sessions {
                    for &i in code.iter().rev().take(3) {
                        session.execute(i).expect("executes");
                    }
                }
            }
            let [replaying, interpreting] = &sessions;
            let got = answers(replaying, &notebook, &code);
            let expected = answers(interpreting, &notebook, &code);
            assert_eq!(got.len(), expected.len());
            for (g, e) in got.iter().zip(&expected) {
                assert_eq!(g, e, "{} round {round}", path.display());
            }
        }
    }
}

fn leak_names(report: &WhatIfReport) -> Vec<(AlarmKind, usize)> {
    report
        .findings
        .iter()
        .filter(|f| f.kind != AlarmKind::StaleState)
        .map(|f| (f.kind, f.cell.index()))
        .collect()
}

/// The model's variable and the test data are as they were when cell 4 ran
/// last, but the model was trained again since, on scaled data: the kept
/// run of cell 4 no longer holds.
#[test]
fn a_model_trained_again_is_not_replayed() {
    let notebook = cells(&[
        "import pandas as pd\nfrom sklearn.preprocessing import StandardScaler\nfrom sklearn.model_selection import train_test_split\nfrom sklearn.linear_model import LogisticRegression\ndf = pd.read_csv('d.csv')\nX = df.drop('y', axis=1)\ny = df['y']",
        "Xs = StandardScaler().fit_transform(X)",
        "X_tr, X_te, y_tr, y_te = train_test_split(Xs, y)",
        "m = LogisticRegression(random_state=0)\nm.fit(X_tr, y_tr)",
        "p = m.predict(X_te)",
        "Xs = X",
    ]);
    let effects = Effects::builtin();
    // Trained on unscaled rows; then the split is made again on scaled ones.
    let mut session = WhatIfSession::new(
        &notebook,
        &effects,
        &Executed::Cells(vec![0, 5, 2, 3, 1, 2]),
    )
    .expect("history");
    let report = session.query(&Event::Execute(4), Some(0)).expect("query");
    assert_eq!(leak_names(&report), vec![]);
    // Now the model is trained on the scaled training rows.
    session.execute(3).expect("executes");
    let report = session.query(&Event::Execute(4), Some(0)).expect("query");
    assert_eq!(
        leak_names(&report),
        vec![(AlarmKind::PreprocessingLeakage, 4)]
    );
}

/// Executing the split again retrains the model on scaled rows (cell 3)
/// while cell 4 predicts with the model as it was (and adds no evaluation:
/// it ran in the history): only the model's training grew, and cell 4 must
/// run again for it, also when cell 3's run is replayed (the second time
/// the question is asked).
#[test]
fn a_replayed_training_reruns_the_predictions() {
    let notebook = cells(&[
        "import pandas as pd\nfrom sklearn.preprocessing import StandardScaler\nfrom sklearn.model_selection import train_test_split\nfrom sklearn.linear_model import LogisticRegression\ndf = pd.read_csv('d.csv')\nX = df.drop('y', axis=1)\ny = df['y']",
        "Xs = StandardScaler().fit_transform(X)",
        "X_tr, X_te, y_tr, y_te = train_test_split(Xs, y)",
        "m.fit(X_tr, y_tr)",
        "p = m.predict(X_te)",
        "m = LogisticRegression(random_state=0)",
        "Xs = X",
    ]);
    let effects = Effects::builtin();
    let history = Executed::Cells(vec![0, 5, 6, 2, 3, 4, 1]);
    let session = WhatIfSession::new(&notebook, &effects, &history).expect("history");
    for _ in 0..2 {
        let report = session.query(&Event::Execute(2), None).expect("query");
        assert_eq!(
            leak_names(&report),
            vec![(AlarmKind::PreprocessingLeakage, 4)]
        );
    }
}
