//! A live session's side of its history: [`HistoryWriter`] writes the
//! lineage's log to a history file run by run, a session row first; keeps
//! what a history opened later needs of the runs before it (their times and
//! what provenance needs, the oldest runs' recorded events dropped past a
//! budget), in step with the log; and has one rule on failure: the history
//! is dropped and one line ([`failure_line`]) says so, for the kernel to
//! print. Times come from the caller (this crate reads no clock).

use std::path::{Path, PathBuf};

use nbsight_lineage::Lineage;

use crate::{History, HistoryError, RunProvenance, SessionId};

/// Who writes a session: the notebook (when known), the Python version and
/// nbsight's, as the session row records them.
#[derive(Debug, Clone, Copy)]
pub struct Kernel<'a> {
    pub notebook: Option<&'a str>,
    pub python: &'a str,
    pub nbsight: &'a str,
}

/// An open history and how far the lineage's log is written to it.
struct Open {
    history: History,
    session: SessionId,
    /// The executions of the lineage's log written so far.
    written: usize,
}

/// A live session's writer of its history, open or not: the lineage's log
/// written run by run, and what a history opened later needs of the runs
/// before it (their times and what provenance needs), kept in step with the
/// log.
#[derive(Default)]
pub struct HistoryWriter {
    open: Option<Open>,
    /// When the run in progress started, and when it ended.
    run_started: f64,
    run_ended: f64,
    /// Start and duration of every execution of the lineage's log, kept so
    /// a history opened later gets the runs before it.
    times: Vec<(f64, f64)>,
    /// What every execution of the log left for provenance (its events
    /// encoded, a few bytes each), kept for the same reason, the events of
    /// the oldest runs dropped past [`KEPT_EVENTS`] bytes.
    extras: Vec<RunProvenance>,
    /// The bytes of events `extras` holds, and how many of its first runs
    /// had theirs dropped.
    kept: usize,
    dropped: usize,
    /// The user library-effects files the session reads (absolute paths).
    effects: Vec<String>,
    /// The last view the front end synced: the executions before it, and
    /// the cells.
    view: Option<(u32, Vec<(String, String)>)>,
}

/// The bytes of recorded events the session keeps for a history opened
/// later (a loop of 100,000 steps records about a megabyte): past them,
/// the oldest runs' events are dropped, and such a history reads those
/// runs as not recorded. The one open is written as each run ends.
const KEPT_EVENTS: usize = 32 << 20;

/// The one line said when the history cannot be written.
pub fn failure_line(path: &Path, error: &HistoryError) -> String {
    let reason = match error {
        // The error names the file already: say only what went wrong.
        HistoryError::Sqlite { source, .. } => source.to_string(),
        HistoryError::Folder { source, path } => {
            format!("cannot create the folder {}: {source}", path.display())
        }
        other => other.to_string(),
    };
    format!(
        "nbsight: cannot write the history to {} ({reason}); going on without it",
        path.display()
    )
}

impl HistoryWriter {
    /// A writer for a session that reads the user library-effects files
    /// `effects` (as the session row names them: absolute paths).
    pub fn new(effects: Vec<String>) -> HistoryWriter {
        HistoryWriter {
            effects,
            ..HistoryWriter::default()
        }
    }

    /// The file written to, when one is open.
    pub fn path(&self) -> Option<&Path> {
        self.open.as_ref().map(|o| o.history.path())
    }

    /// Opens the history at `path` (closing the one open), starts a session
    /// of the kernel `kernel` at `now` (seconds since the Unix epoch) and
    /// writes the runs and view the lineage had before; the failure's line
    /// on error (the history is then off).
    pub fn open(
        &mut self,
        path: &Path,
        kernel: &Kernel<'_>,
        now: f64,
        lineage: &Lineage,
    ) -> Result<PathBuf, String> {
        self.open = None;
        let result = (|| -> Result<Open, HistoryError> {
            let mut history = History::open(path)?;
            let session = history.start_session_with_effects(
                kernel.notebook,
                kernel.python,
                kernel.nbsight,
                now,
                &self.effects,
            )?;
            Ok(Open {
                history,
                session,
                written: 0,
            })
        })();
        let open = result.map_err(|e| failure_line(path, &e))?;
        self.open = Some(open);
        // The runs before, and the view as it was synced.
        self.write_executions(lineage)?;
        if let Some((after, cells)) = self.view.take() {
            let written = self.write_view(after, &cells);
            self.view = Some((after, cells));
            written?;
        }
        Ok(path.to_path_buf())
    }

    /// Stops writing (the file stays).
    pub fn close(&mut self) {
        self.open = None;
    }

    /// A run is starting, at `now` (seconds since the Unix epoch).
    pub fn begin(&mut self, now: f64) {
        self.run_started = now;
    }

    /// The run has ended, at `now` (its record is next).
    pub fn end(&mut self, now: f64) {
        self.run_ended = now;
    }

    /// The lineage recorded a run, which left `extra` for provenance:
    /// writes it; the failure's line, once.
    pub fn ran(&mut self, lineage: &Lineage, extra: RunProvenance) -> Option<String> {
        let count = lineage.executions().len();
        if self.times.len() < count {
            let seconds = (self.run_ended - self.run_started).max(0.0);
            self.times.resize(count, (self.run_started, seconds));
        }
        if self.extras.len() < count {
            self.extras
                .resize(count.saturating_sub(1), RunProvenance::default());
            self.kept += extra.events.as_ref().map_or(0, |e| e.as_str().len());
            self.extras.push(extra);
        }
        let failed = self.write_executions(lineage).err();
        self.drop_oldest_events(KEPT_EVENTS);
        failed
    }

    /// Drops the oldest runs' events past `budget` bytes.
    fn drop_oldest_events(&mut self, budget: usize) {
        while self.kept > budget && self.dropped < self.extras.len() {
            if let Some(events) = self.extras[self.dropped].events.take() {
                self.kept -= events.as_str().len();
            }
            self.dropped += 1;
        }
    }

    /// The front end synced its view after `after` executions.
    pub fn synced(&mut self, after: u32, cells: &[(String, String)]) -> Option<String> {
        self.view = Some((after, cells.to_vec()));
        self.write_view(after, cells).err()
    }

    /// The notebook the session runs, learned from the front end.
    pub fn set_notebook(&mut self, notebook: &str) -> Option<String> {
        let open = self.open.as_mut()?;
        let result = open.history.set_notebook(open.session, notebook);
        self.fail_on(result).err()
    }

    /// Writes the log's executions not yet written.
    fn write_executions(&mut self, lineage: &Lineage) -> Result<(), String> {
        let Some(open) = self.open.as_mut() else {
            return Ok(());
        };
        let executions = lineage.executions();
        let mut result = Ok(());
        while open.written < executions.len() {
            let i = open.written;
            let times = self.times.get(i).copied().unwrap_or((0.0, 0.0));
            let none = RunProvenance::default();
            let extra = self.extras.get(i).unwrap_or(&none);
            result =
                open.history
                    .record_execution(open.session, i as u32, &executions[i], times, extra);
            if result.is_err() {
                break;
            }
            open.written += 1;
        }
        self.fail_on(result)
    }

    fn write_view(&mut self, after: u32, cells: &[(String, String)]) -> Result<(), String> {
        let Some(open) = self.open.as_mut() else {
            return Ok(());
        };
        let result = open.history.record_view(open.session, after, cells);
        self.fail_on(result)
    }

    /// On an error: the history is dropped and the line saying so returned.
    fn fail_on(&mut self, result: Result<(), HistoryError>) -> Result<(), String> {
        result.map_err(|error| {
            let path = self
                .open
                .take()
                .map(|o| o.history.path().to_path_buf())
                .unwrap_or_default();
            failure_line(&path, &error)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RecordedEvents;
    use nbsight_lineage::{ProvenanceEvent as Event, ProvenanceWhat as What};

    fn run(steps: usize) -> RunProvenance {
        let events: Vec<Event> = (0..steps)
            .map(|_| Event::new(7, (1, 5), What::Iteration))
            .collect();
        RunProvenance {
            events: Some(RecordedEvents::encode(&events)),
            unbound: Vec::new(),
        }
    }

    #[test]
    fn the_oldest_runs_events_go_past_the_budget() {
        let mut recorder = HistoryWriter::default();
        for steps in [100, 0, 100, 100] {
            let extra = run(steps);
            recorder.kept += extra.events.as_ref().map_or(0, |e| e.as_str().len());
            recorder.extras.push(extra);
        }
        let one = run(100).events.map_or(0, |e| e.as_str().len());
        recorder.drop_oldest_events(2 * one);
        let kept: Vec<bool> = recorder.extras.iter().map(|e| e.events.is_some()).collect();
        // The first run's events went; the run that recorded nothing
        // stays as it was, and the two newest are kept.
        assert_eq!(kept, [false, true, true, true]);
        assert_eq!(
            recorder.kept,
            2 * one + run(0).events.map_or(0, |e| e.as_str().len())
        );
        recorder.drop_oldest_events(0);
        assert!(recorder.extras.iter().all(|e| e.events.is_none()));
        assert_eq!(recorder.kept, 0);
    }
}
