//! Value provenance (seed 002, with the erratum of `../shared/seed-notes.md`:
//! Cheney's dependency provenance, not what the executed path happened to
//! read): for a value in the kernel (`total`, `res[0]`, `d['k']`,
//! `df['a']`), the *inputs* some change of which could change it. An input
//! is a value that entered the notebook: a literal a cell wrote, what a
//! known reader read from a file, what a call with no notebook input made,
//! or a value computed by code whose run was not recorded. It is named by
//! the cell that made it and the symbol path it was first bound to, down to
//! collection elements (`numbers[2]`). *Where*: inputs copied or computed
//! into the value along the executed path; *why*: inputs read by the
//! decisions that let data in or kept it out.
//!
//! How: when recording is on, the kernel runs cells instrumented to log
//! their run-time decisions (`events.rs`); after the run, the cell's code is
//! replayed without values (`replay.rs`), abstract values carrying their
//! dependencies (`value.rs`).

mod deferred;
mod events;
mod ids;
mod inputs;
mod position;
mod ranges;
mod replay;
mod symbol;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
mod value;

use std::collections::BTreeSet;
use std::sync::Arc;

use nbsight_dataflow::Effects;
use nbsight_dataflow::symbol::parent;
use nbsight_notebook::parse_python;
use rustc_hash::FxHashMap;

pub use deferred::{Deferred, MAX_WAITING, Waiting};
pub use events::{At, Event, What, code_key};
use inputs::Inputs;
use position::Positions;
use replay::Replay;
use value::{Deps, InputId, Value};

/// The replay's state: the inputs seen and the abstract namespace.
#[derive(Debug, Default)]
pub(crate) struct State {
    pub(crate) inputs: Inputs,
    pub(crate) globals: FxHashMap<String, Value>,
    /// Globals whose value the replay knows (`replay/known.rs`).
    pub(crate) known: FxHashMap<String, replay::Known>,
    /// What a function the replay does not run (decorated, async, a
    /// generator: an input object) may do to the globals, by its input.
    pub(crate) changes: FxHashMap<InputId, replay::GlobalEffects>,
}

impl State {
    /// Forgets the inputs no value of the namespace holds any more (a
    /// cell re-run makes new ones; its old values go).
    fn sweep(&mut self) {
        let (globals, changes) = (&self.globals, &self.changes);
        self.inputs.sweep(|hold| {
            // (Containers shared by several names are walked once.)
            let mut seen = rustc_hash::FxHashSet::default();
            for value in globals.values() {
                value.each_input(hold, &mut seen);
            }
            for &id in changes.keys() {
                hold(id);
            }
        });
    }
}

/// An input as a report names it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct InputRef {
    /// The cell that made it (`None`: out of nbsight's sight).
    pub cell: Option<String>,
    pub symbol: String,
}

/// The provenance of a value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProvenanceReport {
    pub where_: Vec<InputRef>,
    pub why: Vec<InputRef>,
    pub files: Vec<String>,
    /// The value was computed by code whose run was recorded and replayed
    /// (otherwise it is its own input).
    pub recorded: bool,
    /// `false` when the run that wrote it was recorded but the replay
    /// could not follow it (`reason` says why): its inputs are then the
    /// value itself.
    pub followed: bool,
    pub reason: Option<String>,
}

/// The provenance engine of a session.
#[derive(Debug, Default)]
pub struct Provenance {
    state: State,
    /// Root names whose value a replayed (recorded) run computed.
    recorded: BTreeSet<String>,
    /// Root names written by a recorded run the replay could not follow,
    /// with why.
    unfollowed: FxHashMap<String, String>,
}

impl Provenance {
    /// A cell ran with recording on: replays it. On failure (code the replay
    /// does not know, a log it cannot follow) the names in `written` become
    /// inputs, and the reason is returned.
    pub fn replay(
        &mut self,
        cell_id: &str,
        source: &str,
        events: &[Event],
        written: &[String],
        effects: &Effects,
    ) -> Result<(), String> {
        self.replay_run(cell_id, source, events, written, effects, false)
    }

    /// [`Provenance::replay`] of a run that `failed` (raised an exception
    /// out of the cell) or not: a failed run is followed up to the raise
    /// the log places.
    fn replay_run(
        &mut self,
        cell_id: &str,
        source: &str,
        events: &[Event],
        written: &[String],
        effects: &Effects,
        failed: bool,
    ) -> Result<(), String> {
        let parsed = parse_python(source);
        if parsed.has_errors() {
            self.unrecorded(cell_id, written);
            return Err("the cell does not parse".into());
        }
        let positions = Arc::new(Positions::of(parsed.source()));
        let before: FxHashMap<String, Value> = self.state.globals.clone();
        let known_before = self.state.known.clone();
        let mut replay = Replay::new(&mut self.state, effects, events, cell_id, positions);
        let outcome = replay
            .run(&parsed.module.body)
            .and_then(|raised| match (failed, raised) {
                (true, false) => Err(replay::Unsupported(
                    "the run raised an exception the log does not place".into(),
                )),
                _ => Ok(()),
            });
        let unseen = replay.unseen_writes(written);
        drop(replay);
        let result = match outcome {
            Ok(()) => {
                for name in written {
                    self.recorded.insert(name.clone());
                    self.unfollowed.remove(name);
                }
                // Changed by code the replay does not see into: its value
                // is not what the replay made of it.
                for name in unseen {
                    let id =
                        self.state
                            .inputs
                            .add(Some(cell_id.into()), Some(name.clone()), Vec::new());
                    self.state
                        .globals
                        .insert(name.clone(), Value::object(Deps::input(id), Some(id)));
                    self.unfollowed.insert(
                        name,
                        "changed by a call of code the replay does not follow \
                         (a function defined before recording, or in a cell not followed)"
                            .into(),
                    );
                }
                Ok(())
            }
            Err(why) => {
                self.state.globals = before;
                self.state.known = known_before;
                self.unrecorded(cell_id, written);
                for name in written {
                    // Recorded, not followed: `followed` says so.
                    self.recorded.insert(name.clone());
                    self.unfollowed.insert(name.clone(), why.0.clone());
                }
                Err(why.0)
            }
        };
        if self.state.inputs.sweep_due() {
            self.state.sweep();
        }
        result
    }

    /// A run as the lineage's log has it, the one step
    /// [`crate::Lineage::after_run`] takes for provenance (and a stored
    /// history replays, `nbsight-history`): the names the run left unbound
    /// (`unbound`) are forgotten; the roots of what it wrote (`writes`),
    /// those excepted, are computed by replaying the recorded `events`, or
    /// become inputs when the run was not recorded or failed. Returns why
    /// the replay gave up (or the run failed), if it did.
    #[allow(clippy::too_many_arguments)]
    pub fn after_run<S: AsRef<str>>(
        &mut self,
        cell_id: &str,
        source: &str,
        events: Option<&[Event]>,
        failed: bool,
        writes: &[S],
        unbound: &[String],
        effects: &Effects,
    ) -> Option<String> {
        let mut roots: Vec<String> = writes
            .iter()
            .map(|w| nbsight_dataflow::symbol::root(w.as_ref()).to_string())
            .collect();
        roots.sort_unstable();
        roots.dedup();
        roots.retain(|r| !unbound.contains(r));
        for name in unbound {
            self.forget(name);
        }
        match (events, failed) {
            (Some(events), failed) => self
                .replay_run(cell_id, source, events, &roots, effects, failed)
                .err(),
            (None, _) => {
                self.unrecorded(cell_id, &roots);
                None
            }
        }
    }

    /// A cell ran without recording: what it wrote is an input.
    pub fn unrecorded(&mut self, cell_id: &str, written: &[String]) {
        for name in written {
            let id = self
                .state
                .inputs
                .add(Some(cell_id.into()), Some(name.clone()), Vec::new());
            self.state
                .globals
                .insert(name.clone(), Value::object(Deps::input(id), Some(id)));
            self.state.known.remove(name);
            self.recorded.remove(name);
            self.unfollowed.remove(name);
        }
    }

    /// Recording was on for a run whose decisions were not all recorded:
    /// the roots of what it wrote (`unbound` excepted) are inputs, and say
    /// `reason`.
    pub fn not_followed<S: AsRef<str>>(
        &mut self,
        writes: &[S],
        unbound: &[String],
        reason: String,
    ) {
        for w in writes {
            let root = nbsight_dataflow::symbol::root(w.as_ref());
            if !unbound.iter().any(|u| u == root) {
                self.unfollowed.insert(root.to_string(), reason.clone());
            }
        }
    }

    /// Forgets a name (`del`, `%reset`).
    pub fn forget(&mut self, name: &str) {
        self.state.globals.remove(name);
        self.state.known.remove(name);
        self.recorded.remove(name);
        self.unfollowed.remove(name);
    }

    /// The provenance of the value at `symbol` (`total`, `res[0]`,
    /// `d['k']`, `df['a']`, `df.a`); `None` for a name not known.
    pub fn query(&mut self, symbol: &str) -> Option<ProvenanceReport> {
        let mut parts = Vec::new();
        let mut path = symbol;
        while let Some(p) = parent(path) {
            parts.push(&path[p.len()..]);
            path = p;
        }
        parts.reverse();
        let root = path;
        let mut value = self.state.globals.get(root)?.clone();
        // The keys of the dicts stepped through (a value at a key is there
        // because of them: a literal's, those computed at run time), as the
        // replay's reads count them (`load_key`), without changing the
        // dicts.
        let mut decided: Vec<InputId> = Vec::new();
        for part in parts {
            if let Value::Mapping(m) = &value {
                let keys = m.borrow().read_by_key();
                decided.extend(keys.where_.iter().chain(keys.why.iter()));
            }
            value = self.step(&value, part);
        }
        let (where_, mut why) = value.ids();
        if !decided.is_empty() {
            why.extend(decided);
            why.sort_unstable();
            why.dedup();
        }
        let files = self.state.inputs.files(where_.iter().chain(&why));
        Some(ProvenanceReport {
            where_: self.state.inputs.refs(&where_),
            why: self.state.inputs.refs(&why),
            files,
            recorded: self.recorded.contains(root),
            followed: !self.unfollowed.contains_key(root),
            reason: self.unfollowed.get(root).cloned(),
        })
    }

    /// [`Provenance::query`], with the inputs bound out of sight (no cell
    /// known) named by `set_by`: the cell that last set that symbol, as the
    /// caller knows it.
    pub fn report(
        &mut self,
        symbol: &str,
        set_by: impl Fn(&str) -> Option<String>,
    ) -> Option<ProvenanceReport> {
        let mut report = self.query(symbol)?;
        for input in report.where_.iter_mut().chain(report.why.iter_mut()) {
            if input.cell.is_none() {
                input.cell = set_by(&input.symbol);
            }
        }
        Some(report)
    }

    /// The part `part` (`[2]`, `['k']`, `.a`) of `value`.
    fn step(&mut self, value: &Value, part: &str) -> Value {
        let key = part
            .strip_prefix('[')
            .and_then(|p| p.strip_suffix(']'))
            .unwrap_or(part);
        match value {
            Value::Sequence(s) => {
                let found = {
                    let s = s.borrow();
                    key.parse::<usize>()
                        .ok()
                        .and_then(|i| s.items.get(i).cloned())
                };
                found.unwrap_or_else(|| Value::scalar(value.deps()))
            }
            Value::Mapping(m) => {
                let found = {
                    let m = m.borrow();
                    m.items
                        .iter()
                        .find(|(k, _)| k == key)
                        .map(|(_, v)| v.clone())
                };
                found.unwrap_or_else(|| Value::scalar(value.deps()))
            }
            Value::Object(o) => {
                let found = o
                    .borrow()
                    .parts
                    .iter()
                    .find(|(k, _)| k == part)
                    .map(|(_, v)| v.clone());
                match found {
                    Some(v) => v,
                    None => {
                        let origin = o.borrow().origin;
                        match origin {
                            Some(origin) => {
                                let (cell, symbol, files) = self.state.inputs.parts(origin);
                                let id = self.state.inputs.add(
                                    cell,
                                    symbol.map(|s| format!("{s}{part}")),
                                    files,
                                );
                                let v = Value::object(Deps::input(id), Some(id));
                                o.borrow_mut().parts.push((part.to_string(), v.clone()));
                                v
                            }
                            None => Value::scalar(value.deps()),
                        }
                    }
                }
            }
            other => Value::scalar(other.deps()),
        }
    }
}

#[cfg(test)]
mod tests;
