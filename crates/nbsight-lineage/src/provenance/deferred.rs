//! The replay deferred to when an answer is asked for: a session's runs
//! wait here, in order, and are replayed (`Provenance::after_run`) the
//! first time something reads provenance. A cell then pays for recording
//! its decisions only; the replay (about a microsecond per loop turn of the
//! cell) is paid once, by the first question after it, or when the runs
//! waiting hold more than [`MAX_WAITING`] events (the memory they keep).

use nbsight_dataflow::Effects;

use super::{Event, Provenance};

/// Events kept waiting at most; a run that brings more replays every run
/// waiting.
pub const MAX_WAITING: usize = 1 << 20;

/// A run waiting for its replay: what [`Provenance::after_run`] and
/// [`Provenance::not_followed`] take.
#[derive(Debug)]
pub struct Waiting {
    pub cell_id: String,
    pub source: String,
    /// The decisions logged (`None`: not recorded).
    pub events: Option<Vec<Event>>,
    pub failed: bool,
    pub writes: Vec<String>,
    pub unbound: Vec<String>,
    /// Recording was on, the run's decisions were not all recorded: why.
    pub not_recorded: Option<String>,
}

/// A session's provenance, its runs replayed on demand.
#[derive(Debug, Default)]
pub struct Deferred {
    engine: Provenance,
    waiting: Vec<Waiting>,
    /// The events `waiting` holds.
    events: usize,
    /// Why the replay of the latest run gave up, if it did.
    error: Option<String>,
}

impl Deferred {
    /// A run ended: it waits for its replay.
    pub fn ran(&mut self, run: Waiting, effects: &Effects) {
        self.events += run.events.as_ref().map_or(0, Vec::len);
        self.waiting.push(run);
        if self.events > MAX_WAITING {
            self.settle(effects);
        }
    }

    /// The provenance of every run so far (the runs waiting replayed).
    pub fn settled(&mut self, effects: &Effects) -> &mut Provenance {
        self.settle(effects);
        &mut self.engine
    }

    /// Why the replay of the latest run gave up (or the run was not
    /// recorded whole), if it did.
    pub fn error(&mut self, effects: &Effects) -> Option<&str> {
        self.settle(effects);
        self.error.as_deref()
    }

    fn settle(&mut self, effects: &Effects) {
        for run in std::mem::take(&mut self.waiting) {
            self.error = self.engine.after_run(
                &run.cell_id,
                &run.source,
                run.events.as_deref(),
                run.failed,
                &run.writes,
                &run.unbound,
                effects,
            );
            if let Some(reason) = run.not_recorded {
                self.engine
                    .not_followed(&run.writes, &run.unbound, reason.clone());
                self.error = Some(reason);
            }
        }
        self.events = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(cell: &str, source: &str, events: Vec<Event>) -> Waiting {
        Waiting {
            cell_id: cell.into(),
            source: source.into(),
            events: Some(events),
            failed: false,
            writes: vec!["x".into()],
            unbound: Vec::new(),
            not_recorded: None,
        }
    }

    #[test]
    fn runs_wait_until_asked_and_replay_in_order() {
        let effects = Effects::builtin();
        let mut deferred = Deferred::default();
        deferred.ran(run("c1", "x = 1", Vec::new()), &effects);
        deferred.ran(run("c2", "x = x * 2", Vec::new()), &effects);
        assert_eq!(deferred.waiting.len(), 2);
        let report = deferred.settled(&effects).query("x").expect("x is known");
        assert!(deferred.waiting.is_empty());
        let cells: Vec<_> = report.where_.iter().map(|i| i.cell.clone()).collect();
        assert_eq!(cells, [Some("c1".to_string())]);
        assert_eq!(deferred.error(&effects), None);
    }

    #[test]
    fn a_run_not_recorded_whole_says_why() {
        let effects = Effects::builtin();
        let mut deferred = Deferred::default();
        let mut r = run("c1", "x = 1", Vec::new());
        r.events = None;
        r.not_recorded = Some("too many decisions".into());
        deferred.ran(r, &effects);
        assert_eq!(deferred.error(&effects), Some("too many decisions"));
    }

    #[test]
    fn too_many_events_waiting_are_replayed_at_once() {
        let effects = Effects::builtin();
        let mut deferred = Deferred::default();
        let events = vec![Event::new(0, (1, 0), super::super::What::Iteration); MAX_WAITING + 1];
        deferred.ran(run("c1", "x = 1", events), &effects);
        assert!(deferred.waiting.is_empty());
        assert_eq!(deferred.events, 0);
    }
}
