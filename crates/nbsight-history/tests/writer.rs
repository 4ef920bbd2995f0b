//! The live session's writer of its history (`HistoryWriter`), from Rust:
//! a history opened after some runs gets them (with their times, and the
//! view synced before), later runs are written as they end, a history that
//! cannot be written is dropped with one line naming it, and the kernel's
//! own calls go on.

use nbsight_history::testing::ScriptedKernel;
use nbsight_history::{History, HistoryWriter, Kernel, RunProvenance, View};

const KERNEL: Kernel<'static> = Kernel {
    notebook: Some("analysis.ipynb"),
    python: "3.13.0",
    nbsight: "0.0-test",
};

/// Runs `source` as cell `id` in `kernel`, between `start` and `end`, and
/// tells `writer`; the line it returns on failure.
fn run(
    writer: &mut HistoryWriter,
    kernel: &mut ScriptedKernel,
    (id, source): (&str, &str),
    (start, end): (f64, f64),
) -> Option<String> {
    writer.begin(start);
    kernel.run(id, source, false, None, &[]);
    writer.end(end);
    let extra = kernel.extras().last().cloned().unwrap_or_default();
    writer.ran(&kernel.lineage, extra)
}

#[test]
fn a_history_opened_later_gets_the_runs_before_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join(".nbsight").join("analysis.sqlite");
    let mut kernel = ScriptedKernel::default();
    let mut writer = HistoryWriter::new(vec!["/abs/effects.toml".to_string()]);
    assert_eq!(writer.path(), None);
    // Two runs and a synced view with no history open: nothing is written.
    assert_eq!(
        run(&mut writer, &mut kernel, ("c1", "a = 1"), (100.0, 100.5)),
        None
    );
    assert_eq!(
        run(
            &mut writer,
            &mut kernel,
            ("c2", "b = a + 1"),
            (110.0, 112.0)
        ),
        None
    );
    let cells = vec![("c1".to_string(), "a = 1".to_string())];
    assert_eq!(writer.synced(2, &cells), None);
    // Opening writes the session, both runs with their times, and the view.
    let opened = writer.open(&path, &KERNEL, 120.0, &kernel.lineage);
    assert_eq!(opened.as_deref(), Ok(path.as_path()));
    assert_eq!(writer.path(), Some(path.as_path()));
    assert_eq!(
        run(&mut writer, &mut kernel, ("c1", "a = 2"), (130.0, 130.25)),
        None
    );
    let history = History::open_existing(&path).expect("the history reads");
    let sessions = history.sessions().expect("sessions");
    assert_eq!(sessions.len(), 1);
    let session = &sessions[0];
    assert_eq!(session.notebook.as_deref(), Some("analysis.ipynb"));
    assert_eq!(session.started, 120.0);
    assert_eq!(session.effects, ["/abs/effects.toml"]);
    let runs = history.executions(session.id).expect("executions");
    let seen: Vec<(&str, f64, f64)> = runs
        .iter()
        .map(|r| (r.cell_id.as_str(), r.started, r.seconds))
        .collect();
    assert_eq!(
        seen,
        [("c1", 100.0, 0.5), ("c2", 110.0, 2.0), ("c1", 130.0, 0.25)]
    );
    assert_eq!(runs[1].depends_on, [0]);
    assert_eq!(
        history.view(session.id).expect("view"),
        Some(View { after: 2, cells })
    );
}

#[test]
fn a_history_that_cannot_be_written_is_dropped_with_one_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // A file where the folder should be: the history cannot be created.
    let blocker = dir.path().join(".nbsight");
    std::fs::write(&blocker, "not a folder").expect("a file");
    let path = blocker.join("analysis.sqlite");
    let mut kernel = ScriptedKernel::default();
    let mut writer = HistoryWriter::new(Vec::new());
    let line = writer
        .open(&path, &KERNEL, 1.0, &kernel.lineage)
        .expect_err("the folder cannot be made");
    assert!(
        line.starts_with("nbsight: cannot write the history to "),
        "{line}"
    );
    assert!(line.contains("analysis.sqlite"), "{line}");
    assert!(line.ends_with("going on without it"), "{line}");
    assert_eq!(line.lines().count(), 1);
    // The history is off; the session goes on and says nothing more.
    assert_eq!(writer.path(), None);
    assert_eq!(
        run(&mut writer, &mut kernel, ("c1", "a = 1"), (2.0, 3.0)),
        None
    );
    assert_eq!(writer.set_notebook("other.ipynb"), None);
}

#[test]
fn a_run_without_provenance_is_written_as_not_recorded() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("h.sqlite");
    let mut kernel = ScriptedKernel::default();
    let mut writer = HistoryWriter::default();
    writer
        .open(&path, &KERNEL, 0.0, &kernel.lineage)
        .expect("the history opens");
    writer.begin(5.0);
    kernel.run("c1", "a = 1", false, None, &[]);
    writer.end(6.0);
    assert_eq!(writer.ran(&kernel.lineage, RunProvenance::default()), None);
    writer.close();
    assert_eq!(writer.path(), None);
    let history = History::open_existing(&path).expect("the history reads");
    let session = history.sessions().expect("sessions")[0].id;
    assert_eq!(history.executions(session).expect("executions").len(), 1);
}
