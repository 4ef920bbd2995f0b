//! A history written and read back: the rows as recorded, slices equal to
//! the live lineage's over the same runs, the notebook view, provenance,
//! the schema's version checks, damaged and foreign files (errors naming
//! the file, never a panic), a connection that dies without closing, and
//! where a `DB_OR_NOTEBOOK` argument points.

#![allow(clippy::print_stdout, clippy::print_stderr)] // a test says what it compared or skipped

use std::path::Path;

use nbsight_dataflow::Effects;
use nbsight_history::testing::ScriptedKernel;
use nbsight_history::{
    History, HistoryError, RunStatus, SCHEMA_VERSION, SessionId, beside_notebook, locate, under_dir,
};
use nbsight_lineage::provenance::testing::{SUM_UP_MULTIPLES, sum_up_multiples_events};
use nbsight_lineage::{Lineage, ProvenanceEvent as Event};
use rusqlite::Connection;

fn open(dir: &Path) -> History {
    History::open(&dir.join(".nbsight/history.sqlite")).expect("opens")
}

const CELLS: &[(&str, &str, bool)] = &[
    ("c1", "a = 4", false),
    ("c2", "b = a", false),
    ("c3", "c = a + b", false),
    ("c1", "a = 5", false),
    ("c4", "d = c + zzz", true),
    ("c5", "e = b * 2\nf = e + 1", false),
    ("c3", "c = a + b", false),
];

#[test]
fn open_creates_the_folder_in_wal_mode_with_the_schema_version() {
    let dir = tempfile::tempdir().unwrap();
    let history = open(dir.path());
    assert_eq!(history.path(), dir.path().join(".nbsight/history.sqlite"));
    drop(history);
    let conn = Connection::open(dir.path().join(".nbsight/history.sqlite")).unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    assert_eq!(user_version(&conn), SCHEMA_VERSION);
    // Opening again keeps what is there.
    drop(conn);
    let mut again = open(dir.path());
    let s = again.start_session(None, "3.13.1", "0.1.0", 1.0).unwrap();
    assert_eq!(s, SessionId(1));
    assert_eq!(open(dir.path()).sessions().unwrap().len(), 1);
}

#[test]
fn the_nbsight_folder_keeps_itself_out_of_git() {
    let dir = tempfile::tempdir().unwrap();
    drop(open(dir.path()));
    let ignore = std::fs::read_to_string(dir.path().join(".nbsight/.gitignore")).unwrap();
    assert_eq!(ignore.lines().last(), Some("*"));
    // A folder of the user's own choosing is left as it is.
    let own = dir.path().join("mine/h.sqlite");
    drop(History::open(&own).unwrap());
    assert!(!dir.path().join("mine/.gitignore").exists());
    // A `git status` there shows nothing of nbsight's.
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(dir.path())
            .output()
    };
    if git(&["init", "-q"]).is_ok_and(|o| o.status.success()) {
        let status = git(&["status", "--porcelain", "--untracked-files=all"]).unwrap();
        let listed = String::from_utf8_lossy(&status.stdout).to_string();
        assert!(!listed.contains(".nbsight"), "{listed}");
        assert!(listed.contains("mine/h.sqlite"), "{listed}");
    }
}

#[test]
fn executions_read_back_as_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let mut history = open(dir.path());
    let session = history
        .start_session(
            Some("/nb/analysis.ipynb"),
            "3.13.1",
            "0.1.0",
            1_767_225_599.5,
        )
        .unwrap();
    let mut kernel = ScriptedKernel::default();
    for (id, source, failed) in CELLS {
        kernel.run(id, source, *failed, None, &[]);
    }
    kernel.record(&mut history, session, 0, 0.25);
    let sessions = history.sessions().unwrap();
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0].notebook.as_deref(), Some("/nb/analysis.ipynb"));
    assert_eq!(sessions[0].python, "3.13.1");
    assert_eq!(sessions[0].executions, CELLS.len() as u32);
    let rows = history.executions(session).unwrap();
    assert_eq!(rows.len(), CELLS.len());
    for (row, e) in rows.iter().zip(kernel.lineage.executions()) {
        assert_eq!(row.cell_id, e.cell_id);
        assert_eq!(row.counter, e.counter);
        assert_eq!(row.execution_count, e.execution_count);
        assert_eq!(row.source, e.source);
        assert_eq!(row.status == RunStatus::Error, e.failed);
        let reads: Vec<(String, bool)> = e.reads.iter().map(|(s, w)| (s.to_string(), *w)).collect();
        assert_eq!(row.reads, reads);
        let writes: Vec<String> = e.writes.iter().map(|s| s.to_string()).collect();
        assert_eq!(row.writes, writes);
        let mut depends = e.depends_on.clone();
        depends.sort_unstable();
        assert_eq!(row.depends_on, depends);
    }
    assert_eq!(rows[1].reads, [("a".to_string(), true)]);
    assert_eq!(rows[1].writes, ["b"]);
    assert_eq!(rows[1].depends_on, [0]);
    assert_eq!(rows[4].status, RunStatus::Error);
    assert_eq!(rows[3].started, 1_767_225_630.0);
    assert_eq!(rows[3].seconds, 0.25);
}

/// Every cell's slices, both ways, from the file equal the live lineage's.
fn assert_slices_agree(history: &History, session: SessionId, lineage: &Lineage) {
    let mut ids: Vec<&str> = CELLS.iter().map(|c| c.0).collect();
    ids.push("never-ran");
    for id in ids {
        assert_eq!(
            history.dynamic_slice(session, id, false).unwrap(),
            lineage.backward_slice(id),
            "backward slice of {id}"
        );
        assert_eq!(
            history.dynamic_slice(session, id, true).unwrap(),
            lineage.forward_slice(id),
            "forward slice of {id}"
        );
    }
}

#[test]
fn slices_from_the_file_are_the_live_ones() {
    let dir = tempfile::tempdir().unwrap();
    let mut history = open(dir.path());
    let session = history.start_session(None, "3.13.1", "0.1.0", 0.0).unwrap();
    let mut kernel = ScriptedKernel::default();
    for (id, source, failed) in CELLS {
        kernel.run(id, source, *failed, None, &[]);
    }
    kernel.record(&mut history, session, 0, 0.25);
    assert_slices_agree(&history, session, &kernel.lineage);
    assert_eq!(
        history.dynamic_slice(session, "c3", false).unwrap(),
        Some(vec!["c1".to_string(), "c2".to_string(), "c3".to_string()])
    );
    assert_eq!(
        history.dynamic_slice(session, "c2", true).unwrap(),
        Some(vec!["c2".to_string(), "c3".to_string(), "c5".to_string()])
    );
    assert_eq!(history.dynamic_slice(session, "nope", false).unwrap(), None);
    assert_eq!(
        history.dynamic_slice(SessionId(99), "c1", false).unwrap(),
        None
    );
}

#[test]
fn the_view_orders_slices_as_the_live_session_did() {
    let dir = tempfile::tempdir().unwrap();
    let mut history = open(dir.path());
    let session = history.start_session(None, "3.13.1", "0.1.0", 0.0).unwrap();
    let mut kernel = ScriptedKernel::default();
    for (id, source, failed) in &CELLS[..3] {
        kernel.run(id, source, *failed, None, &[]);
    }
    kernel.record(&mut history, session, 0, 0.25);
    // The front end shows c3 first, and not c2 (deleted since it ran).
    let view: Vec<(String, String)> = [("c3", "c = a + b"), ("c1", "a = 4"), ("c9", "z = 0")]
        .iter()
        .map(|(i, s)| (i.to_string(), s.to_string()))
        .collect();
    kernel.lineage.sync_notebook(view.clone());
    history.record_view(session, 3, &view).unwrap();
    for (id, source, failed) in &CELLS[3..] {
        kernel.run(id, source, *failed, None, &[]);
    }
    kernel.record(&mut history, session, 3, 0.25);
    let stored = history.view(session).unwrap().expect("a view");
    assert_eq!(stored.after, 3);
    assert_eq!(stored.cells, view);
    assert_slices_agree(&history, session, &kernel.lineage);
    assert_eq!(
        history.dynamic_slice(session, "c3", false).unwrap(),
        Some(vec!["c3".to_string(), "c1".to_string()])
    );
    // A later sync replaces the view.
    history.record_view(session, 7, &view[..1]).unwrap();
    assert_eq!(history.view(session).unwrap().unwrap().cells, view[..1]);
}

#[test]
fn sessions_are_kept_apart() {
    let dir = tempfile::tempdir().unwrap();
    let mut history = open(dir.path());
    let first = history.start_session(None, "3.13.1", "0.1.0", 0.0).unwrap();
    let mut kernel = ScriptedKernel::default();
    kernel.run("c1", "a = 1", false, None, &[]);
    kernel.run("c2", "b = a", false, None, &[]);
    kernel.record(&mut history, first, 0, 0.25);
    let second = history
        .start_session(None, "3.13.1", "0.1.0", 100.0)
        .unwrap();
    let mut kernel = ScriptedKernel::default();
    kernel.run("c2", "b = 2", false, None, &[]);
    kernel.record(&mut history, second, 0, 0.25);
    assert_eq!(history.latest_session_of("c2").unwrap(), Some(second));
    assert_eq!(history.latest_session_of("c1").unwrap(), Some(first));
    assert_eq!(history.latest_session_of("c7").unwrap(), None);
    assert_eq!(
        history.dynamic_slice(first, "c2", false).unwrap(),
        Some(vec!["c1".to_string(), "c2".to_string()])
    );
    assert_eq!(
        history.dynamic_slice(second, "c2", false).unwrap(),
        Some(vec!["c2".to_string()])
    );
    assert_eq!(history.executions(second).unwrap().len(), 1);
}

/// The events the recorder logs for `sumUpMultiples` over six numbers.
fn sum_up_events() -> Vec<Event> {
    sum_up_multiples_events("c2", 6, 3)
}

#[test]
fn provenance_replayed_from_the_file_is_the_kernels() {
    let dir = tempfile::tempdir().unwrap();
    let mut history = open(dir.path());
    let session = history.start_session(None, "3.13.1", "0.1.0", 0.0).unwrap();
    let mut kernel = ScriptedKernel::default();
    kernel.run("c0", "early = 1", false, None, &[]);
    let numbers = "numbers = [1, 2, 3, 4, 5, 6]";
    kernel.run("c1", numbers, false, Some(Vec::new()), &[]);
    kernel.run("c2", SUM_UP_MULTIPLES, false, Some(Vec::new()), &[]);
    let call = "factor = 3\ntotal = sumUpMultiples(numbers, factor)";
    kernel.run("c3", call, false, Some(sum_up_events()), &[]);
    // Not recorded: its result is its own input.
    kernel.run("c4", "u = total + 1", false, None, &[]);
    // Recorded, but the log lacks the decision the `if` needs.
    kernel.run(
        "c5",
        "if total:\n    w = early",
        false,
        Some(Vec::new()),
        &[],
    );
    // Recorded and failed where the log does not say: what it wrote is its
    // own input. (A kernel's log places the raise.)
    kernel.run("c6", "v = total\nbad = 1 / 0", true, Some(Vec::new()), &[]);
    // A run that left `u` unbound.
    kernel.run("c7", "pass", false, None, &["u"]);
    kernel.record(&mut history, session, 0, 0.25);

    let effects = Effects::builtin();
    let symbols = [
        "total",
        "numbers",
        "numbers[2]",
        "u",
        "w",
        "v",
        "early",
        "factor",
        "nope",
    ];
    for symbol in symbols {
        let stored = history.provenance(session, symbol, &effects).unwrap();
        assert_eq!(
            stored.as_ref().map(|s| &s.report),
            kernel.lineage.provenance(symbol).as_ref(),
            "provenance of {symbol}"
        );
    }
    let total = history
        .provenance(session, "total", &effects)
        .unwrap()
        .expect("known");
    let names = |refs: &[nbsight_lineage::InputRef]| -> Vec<String> {
        refs.iter()
            .map(|r| format!("{}:{}", r.cell.as_deref().unwrap_or("?"), r.symbol))
            .collect()
    };
    assert_eq!(
        names(&total.report.where_),
        ["c1:numbers[2]", "c1:numbers[5]"]
    );
    let why = names(&total.report.why);
    for i in 0..6 {
        assert!(why.contains(&format!("c1:numbers[{i}]")), "{why:?}");
    }
    assert!(total.report.recorded);
    assert_eq!(total.last_set.as_ref().map(|e| e.index), Some(3));
    // The replays that gave up are said where they matter, with the
    // kernel's reasons.
    assert!(total.gave_up.is_empty(), "{:?}", total.gave_up);
    let gave_up = |symbol: &str| -> Vec<(u32, String)> {
        history
            .provenance(session, symbol, &effects)
            .unwrap()
            .expect("known")
            .gave_up
    };
    assert_eq!(gave_up("w").len(), 1);
    assert_eq!(gave_up("w")[0].0, 5);
    assert_eq!(
        gave_up("v"),
        [(
            6,
            "the run raised an exception the log does not place".to_string()
        )]
    );
    // Unbound at the end of the session: not known.
    assert!(
        history
            .provenance(session, "u", &effects)
            .unwrap()
            .is_none()
    );
    // The events are stored as text, one a line.
    let conn = Connection::open(history.path()).unwrap();
    let stored: String = conn
        .query_row(
            "SELECT events FROM recordings WHERE session = 1 AND execution = 3",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let code = nbsight_lineage::code_key("c2", 1);
    assert_eq!(
        stored.lines().take(2).collect::<Vec<_>>(),
        [format!("e@{code} 0 0"), format!("d@{code} 5 10 1")]
    );
    assert_eq!(stored.lines().count(), sum_up_events().len());
}

#[test]
fn damaged_provenance_events_are_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut history = open(dir.path());
    let session = history.start_session(None, "3.13.1", "0.1.0", 0.0).unwrap();
    let mut kernel = ScriptedKernel::default();
    kernel.run("c1", "a = [1]", false, Some(Vec::new()), &[]);
    kernel.record(&mut history, session, 0, 0.25);
    let conn = Connection::open(history.path()).unwrap();
    conn.execute("UPDATE recordings SET events = 'q 1 2'", [])
        .unwrap();
    let error = history
        .provenance(session, "a", &Effects::builtin())
        .unwrap_err();
    assert!(matches!(error, HistoryError::Corrupt { .. }), "{error:?}");
    let text = error.to_string();
    assert!(text.contains("history.sqlite"), "{text}");
    assert!(text.contains("`q 1 2`"), "{text}");
}

#[test]
fn a_session_keeps_the_kernels_effects_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut history = open(dir.path());
    let files = vec!["/a/one.toml".to_string(), "/b/two.toml".to_string()];
    history
        .start_session_with_effects(None, "3.13.1", "0.1.0", 0.0, &files)
        .unwrap();
    history.start_session(None, "3.13.1", "0.1.0", 0.0).unwrap();
    let sessions = history.sessions().unwrap();
    assert_eq!(sessions[0].effects, files);
    assert!(sessions[1].effects.is_empty());
}

#[test]
fn a_connection_that_dies_without_closing_loses_nothing_committed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".nbsight/history.sqlite");
    let mut history = History::open(&path).unwrap();
    let session = history.start_session(None, "3.13.1", "0.1.0", 0.0).unwrap();
    let mut kernel = ScriptedKernel::default();
    kernel.run("c1", "a = 1", false, None, &[]);
    kernel.run("c2", "b = a", false, None, &[]);
    kernel.record(&mut history, session, 0, 0.25);
    // No close, no checkpoint: what a killed kernel leaves (the WAL file).
    std::mem::forget(history);
    assert!(dir.path().join(".nbsight/history.sqlite-wal").exists());
    let reader = History::open_existing(&path).unwrap();
    assert_eq!(reader.executions(session).unwrap().len(), 2);
}

#[test]
fn a_missing_file_is_not_created_by_readers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nothing.sqlite");
    let error = History::open_existing(&path).unwrap_err();
    assert!(matches!(error, HistoryError::Missing { .. }));
    assert_eq!(
        error.to_string(),
        format!("no history at {}", path.display())
    );
    assert!(!path.exists());
}

/// The schema version a file says it has.
fn user_version(conn: &Connection) -> i64 {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap()
}

/// Version 1's schema, as the first nbsight with a history wrote it.
const SCHEMA_V1: &str = include_str!("fixtures/schema_v1.sql");

/// A version-1 file with one session, one execution and a stored report.
fn version_1(path: &Path) {
    let conn = Connection::open(path).unwrap();
    conn.execute_batch(SCHEMA_V1).unwrap();
    conn.execute_batch(
        "PRAGMA user_version = 1;
         INSERT INTO sessions VALUES (1, '/nb/a.ipynb', '3.12.0', '0.1.0', 5.0);
         INSERT INTO executions VALUES (1, 0, 'c1', 1, 1, 5.0, 0.5, 'ok', 'a = 1');
         INSERT INTO writes VALUES (1, 0, 0, 'a');
         INSERT INTO provenance VALUES (1, 0, 'a', '{}');",
    )
    .unwrap();
}

#[test]
fn a_version_1_file_is_migrated_forward_keeping_its_runs() {
    assert_eq!(SCHEMA_VERSION, 3);
    let dir = tempfile::tempdir().unwrap();
    // A kernel opening it migrates it and goes on writing.
    let path = dir.path().join("v1.sqlite");
    version_1(&path);
    let mut history = History::open(&path).unwrap();
    let session = history.start_session(None, "3.13.1", "0.2.0", 9.0).unwrap();
    assert_eq!(session, SessionId(2));
    let sessions = history.sessions().unwrap();
    assert_eq!(sessions[0].notebook.as_deref(), Some("/nb/a.ipynb"));
    assert!(sessions[0].effects.is_empty());
    let rows = history.executions(SessionId(1)).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].writes, ["a"]);
    // Version 1's stored reports are gone; the runs replay as unrecorded.
    let a = history
        .provenance(SessionId(1), "a", &Effects::builtin())
        .unwrap()
        .expect("bound");
    assert!(!a.report.recorded);
    drop(history);
    let conn = Connection::open(&path).unwrap();
    assert_eq!(user_version(&conn), SCHEMA_VERSION);
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE name = 'provenance'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tables, 0);
    // A reader migrates a writable file too.
    let other = dir.path().join("v1-read.sqlite");
    version_1(&other);
    let history = History::open_existing(&other).unwrap();
    assert_eq!(history.executions(SessionId(1)).unwrap().len(), 1);
}

/// Version 2's schema, as nbsight wrote it.
const SCHEMA_V2: &str = include_str!("fixtures/schema_v2.sql");

#[test]
fn a_version_2_file_is_migrated_keeping_its_recordings_out_of_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v2.sqlite");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(SCHEMA_V2).unwrap();
    conn.execute_batch(
        "PRAGMA user_version = 2;
         INSERT INTO sessions VALUES (1, '/nb/a.ipynb', '3.12.0', '0.1.0', 5.0, '');
         INSERT INTO executions VALUES (1, 0, 'c1', 1, 1, 5.0, 0.5, 'ok', 'a = 1');
         INSERT INTO writes VALUES (1, 0, 0, 'a');
         INSERT INTO recordings VALUES (1, 0, '');",
    )
    .unwrap();
    drop(conn);
    let history = History::open(&path).unwrap();
    // The run is still recorded: its provenance is replayed.
    let a = history
        .provenance(SessionId(1), "a", &Effects::builtin())
        .unwrap()
        .expect("bound");
    assert!(a.report.recorded);
    assert!(a.report.followed);
    drop(history);
    let conn = Connection::open(&path).unwrap();
    assert_eq!(user_version(&conn), SCHEMA_VERSION);
    // A rowid table: the events are not part of the key an insert searches.
    let sql: String = conn
        .query_row(
            "SELECT sql FROM sqlite_master WHERE name = 'recordings'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(!sql.contains("WITHOUT ROWID"), "{sql}");
}

#[test]
fn a_newer_schema_is_refused_by_its_version() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    drop(History::open(&path).unwrap());
    let conn = Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", 7).unwrap();
    drop(conn);
    for error in [
        History::open(&path).unwrap_err(),
        History::open_existing(&path).unwrap_err(),
    ] {
        assert!(
            matches!(error, HistoryError::Newer { found: 7, .. }),
            "{error}"
        );
        let text = error.to_string();
        assert!(
            text.contains("version 7") && text.contains("h.sqlite"),
            "{text}"
        );
    }
}

#[test]
fn foreign_files_are_refused_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.sqlite");
    let conn = Connection::open(&other).unwrap();
    conn.execute_batch("CREATE TABLE t (x INTEGER)").unwrap();
    drop(conn);
    let error = History::open_existing(&other).unwrap_err();
    assert!(matches!(error, HistoryError::NotHistory { .. }), "{error}");
    let before = std::fs::read(&other).unwrap();
    assert!(History::open(&other).is_err());
    // A kernel's open changed nothing (not even the journal mode).
    assert_eq!(std::fs::read(&other).unwrap(), before);
    let conn = Connection::open(&other).unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete");
    drop(conn);
    let text = dir.path().join("notes.sqlite");
    std::fs::write(&text, "these are not the droids\n".repeat(100)).unwrap();
    let error = History::open_existing(&text).unwrap_err();
    assert!(
        error.to_string().contains("notes.sqlite") && error.to_string().contains("not"),
        "{error}"
    );
    // An empty file is an empty database, not a history.
    let empty = dir.path().join("empty.sqlite");
    std::fs::write(&empty, "").unwrap();
    assert!(History::open_existing(&empty).is_err());
}

#[test]
fn damaged_values_are_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    let mut history = History::open(&path).unwrap();
    let session = history.start_session(None, "3.13.1", "0.1.0", 0.0).unwrap();
    let mut kernel = ScriptedKernel::default();
    kernel.run("c1", "a = 1", false, None, &[]);
    kernel.run("c2", "b = a", false, None, &[]);
    kernel.record(&mut history, session, 0, 0.25);
    drop(history);
    let conn = Connection::open(&path).unwrap();
    conn.execute("UPDATE executions SET counter = -3 WHERE execution = 1", [])
        .unwrap();
    drop(conn);
    let history = History::open_existing(&path).unwrap();
    let error = history.executions(session).unwrap_err();
    assert!(matches!(error, HistoryError::Corrupt { .. }), "{error}");
    assert!(error.to_string().contains("counter -3"), "{error}");
    assert!(history.dynamic_slice(session, "c2", false).is_err());
    drop(history);
    // A value of the wrong type.
    let conn = Connection::open(&path).unwrap();
    conn.execute(
        "UPDATE executions SET counter = 'x', started = 'yesterday' WHERE execution = 1",
        [],
    )
    .unwrap();
    drop(conn);
    let history = History::open_existing(&path).unwrap();
    assert!(history.executions(session).is_err());
    // A dependence forward in time or on a missing execution is dropped.
    let conn = Connection::open(&path).unwrap();
    conn.execute("UPDATE executions SET counter = 2, started = 0.0", [])
        .unwrap();
    conn.execute(
        "INSERT INTO depends_on (session, execution, on_execution) VALUES (1, 0, 1), (1, 1, 77)",
        [],
    )
    .unwrap();
    drop(conn);
    assert_eq!(
        history.dynamic_slice(session, "c1", false).unwrap(),
        Some(vec!["c1".to_string()])
    );
}

#[test]
fn arguments_name_the_history_beside_a_notebook_or_in_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(
        beside_notebook(&d.join("analysis.ipynb")),
        d.join(".nbsight/analysis.sqlite")
    );
    assert_eq!(under_dir(d), d.join(".nbsight/history.sqlite"));
    // A notebook, whether or not it exists.
    assert_eq!(
        locate(&d.join("analysis.ipynb")),
        d.join(".nbsight/analysis.sqlite")
    );
    // A folder.
    assert_eq!(locate(d), d.join(".nbsight/history.sqlite"));
    // A file that is not a database (a percent script).
    std::fs::write(d.join("script.py"), "# %%\na = 1\n").unwrap();
    assert_eq!(
        locate(&d.join("script.py")),
        d.join(".nbsight/script.sqlite")
    );
    // A database, or a path to none: itself.
    let db = d.join("kept.sqlite");
    drop(History::open(&db).unwrap());
    assert_eq!(locate(&db), db);
    assert_eq!(locate(&d.join("missing.db")), d.join("missing.db"));
    // A file named as a database holds what it holds: itself (opening it
    // then says it is not a history).
    std::fs::write(d.join("notes.sqlite"), "not a database at all").unwrap();
    assert_eq!(locate(&d.join("notes.sqlite")), d.join("notes.sqlite"));
}

#[test]
fn a_folder_that_cannot_be_made_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain-file");
    std::fs::write(&file, "x").unwrap();
    let error = History::open(&file.join(".nbsight/history.sqlite")).unwrap_err();
    assert!(matches!(error, HistoryError::Folder { .. }), "{error}");
    assert!(error.to_string().contains("plain-file"), "{error}");
}

/// The cost of the history, printed (not asserted): writing an execution
/// as a kernel does (one transaction, WAL) and reading a session back.
/// `cargo test --release -p nbsight-history -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, run by hand"]
fn write_cost_per_execution() {
    let dir = tempfile::tempdir().unwrap();
    let mut history = open(dir.path());
    let session = history.start_session(None, "3.13.1", "0.1.0", 0.0).unwrap();
    let mut kernel = ScriptedKernel::default();
    let runs = 1000;
    for i in 0..runs {
        let source = format!("x{i} = {i}\ny{i} = x{i} + y{}", i.max(1) - 1);
        let events = (i % 2 == 0).then(sum_up_events);
        kernel.run(&format!("c{i}"), &source, false, events, &[]);
    }
    let mut times = Vec::new();
    for (i, e) in kernel.lineage.executions().iter().enumerate() {
        let start = std::time::Instant::now();
        history
            .record_execution(session, i as u32, e, (0.0, 0.0), &kernel.extras()[i])
            .unwrap();
        times.push(start.elapsed().as_secs_f64() * 1e6);
    }
    times.sort_by(f64::total_cmp);
    let read = std::time::Instant::now();
    let rows = history.executions(session).unwrap();
    let read = read.elapsed().as_secs_f64() * 1e3;
    let slice = std::time::Instant::now();
    history.dynamic_slice(session, "c999", false).unwrap();
    let slice = slice.elapsed().as_secs_f64() * 1e3;
    let size = std::fs::metadata(history.path()).unwrap().len()
        + std::fs::metadata(history.path().with_extension("sqlite-wal"))
            .map(|m| m.len())
            .unwrap_or(0);
    println!(
        "{runs} executions (half with 37 provenance events): write median {:.1} µs, p99 {:.1} µs; \
         read back {} rows {read:.1} ms; slice from the file {slice:.1} ms; file + WAL {} KiB",
        times[times.len() / 2],
        times[times.len() * 99 / 100],
        rows.len(),
        size / 1024
    );
}
