//! A kernel stand-in for the tests of the crates that write or read a
//! history (this one's and the command line's): it runs cells through a
//! real `Lineage` (every line runs; a name the cell assigns gets a new
//! object; a failed run raises on its last line) and records each
//! execution in a history at deterministic times.

use std::collections::HashMap;

use nbsight_dataflow::Effects;
use nbsight_lineage::{Lineage, ProvenanceEvent, RunFacts};

use crate::{History, RecordedEvents, RunProvenance, SessionId};

/// The first run's start (2026-01-01 00:00 UTC); each run starts 10 s
/// after the one before.
const START: f64 = 1_767_225_600.0;

pub struct ScriptedKernel {
    pub lineage: Lineage,
    objects: HashMap<String, u64>,
    next: u64,
    counter: u32,
    /// What each run left for provenance, as the kernel writes it.
    extras: Vec<RunProvenance>,
}

impl Default for ScriptedKernel {
    fn default() -> Self {
        ScriptedKernel {
            lineage: Lineage::new(Effects::builtin()),
            objects: HashMap::new(),
            next: 1,
            counter: 0,
            extras: Vec::new(),
        }
    }
}

impl ScriptedKernel {
    /// A run with provenance `events` recorded (`None`: not recorded),
    /// leaving the names `unbound` unbound.
    pub fn run(
        &mut self,
        id: &str,
        source: &str,
        failed: bool,
        events: Option<Vec<ProvenanceEvent>>,
        unbound: &[&str],
    ) {
        self.counter += 1;
        let pre = self.lineage.before_run(id, source);
        let mut bindings = Vec::new();
        for name in &pre.watch {
            let assigned = source.lines().any(|l| {
                let l = l.trim_start();
                l.strip_prefix(name.as_str())
                    .is_some_and(|rest| rest.trim_start().starts_with('='))
                    || ["def ", "class ", "for ", "import "].iter().any(|k| {
                        l.strip_prefix(k).is_some_and(|rest| {
                            rest.strip_prefix(name.as_str()).is_some_and(|r| {
                                !r.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                            })
                        })
                    })
            });
            // A name the cell only reads is bound only if a cell bound it.
            if assigned {
                self.next += 1;
                self.objects.insert(name.clone(), self.next);
            }
            bindings.push((name.clone(), self.objects.get(name).copied()));
        }
        for name in unbound {
            self.objects.remove(*name);
            bindings.retain(|(n, _)| n != name);
            bindings.push((name.to_string(), None));
        }
        self.extras.push(RunProvenance {
            events: events.as_deref().map(RecordedEvents::encode),
            unbound: unbound.iter().map(|n| n.to_string()).collect(),
        });
        self.lineage.after_run(RunFacts {
            cell_id: id.to_string(),
            source: source.to_string(),
            counter: self.counter,
            execution_count: Some(self.counter),
            lines: None,
            calls: Vec::new(),
            function_lines: Vec::new(),
            site_lines: Vec::new(),
            failed,
            error_line: failed.then_some(source.lines().count() as u32),
            bindings,
            keys: Vec::new(),
            elements: Vec::new(),
            frames: Vec::new(),
            frame_attributes: Vec::new(),
            raised: Vec::new(),
            provenance: events,
            not_recorded: None,
        });
    }

    /// What each run left for provenance, in run order.
    pub fn extras(&self) -> &[RunProvenance] {
        &self.extras
    }

    /// Writes the runs from the `from`-th on to `session`, each taking
    /// `seconds`.
    ///
    /// # Panics
    /// When the history cannot be written (a test's failure).
    pub fn record(&self, history: &mut History, session: SessionId, from: usize, seconds: f64) {
        for (i, e) in self.lineage.executions().iter().enumerate().skip(from) {
            let started = START + i as f64 * 10.0;
            history
                .record_execution(session, i as u32, e, (started, seconds), &self.extras[i])
                .expect("the test's history is writable");
        }
    }
}
