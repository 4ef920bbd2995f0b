//! Replays of the leakage domain's cell runs. A session asks the same cells
//! to run on states that agree on everything those cells read, query after
//! query (every cell whose variables are bound is a successor of every
//! event); a [`RunMemo`] keeps, per cell, a few runs with what they read
//! and what they wrote. A run whose state agrees with a kept one's is not
//! interpreted again: its writes and alarms are replayed, which gives
//! exactly the state and alarms interpreting it would.
//!
//! What a run reads (its footprint): the facts of the variables that reach
//! what the cell writes or calls ([`CellInfo::feeds`]); the facts and
//! binding of the variables it writes on some path but not on every one
//! (the old value survives on the others); and the trained models and
//! evaluations that those facts and the cell's own call sites name.

use std::rc::Rc;

use smallvec::SmallVec;

use super::{Leak, LeakGrowth};
use crate::models::{Trained, record_evaluation};
use crate::value::{Site, Tag, Val};
use nbsight_absint::{Alarm, CellMemo};
use nbsight_model::program::{Program, WriteKind};
use nbsight_model::vars::{Var, VarSet};
use nbsight_model::{CellInfo, NotebookModel};

/// Kept leakage runs of a session's cells.
#[derive(Debug, Default)]
pub(super) struct RunMemo(CellMemo<Shape, Replay>);

/// What any run of a program reads and writes, by name.
pub(super) struct Shape {
    /// Variables whose facts (and binding) the run's result depends on.
    reads: Vec<Var>,
    /// Variables it may write.
    writes: Vec<Var>,
    /// Its own call sites (where it trains, splits and evaluates).
    sites: Vec<Site>,
}

/// One kept run.
pub(super) struct Replay {
    /// Facts and binding of `shape.reads` before the run.
    reads: Vec<(Option<Rc<Val>>, bool)>,
    /// The trained models it could look up or train, before the run.
    trained: Vec<(Site, Option<Trained>)>,
    /// All the trained models before the run: a state sharing them agrees
    /// with `trained` at once (kept alive here, so the same address is the
    /// same list).
    trained_from: Rc<Vec<Trained>>,
    /// The evaluations it could look up or add to, before the run.
    evals: Vec<(Site, Option<SmallVec<[Site; 2]>>)>,
    /// Those evaluations when the exploration started (`None`: not in
    /// one), which decide whether an evaluation meets another model.
    baseline: Vec<Option<Option<SmallVec<[Site; 2]>>>>,
    /// Facts and binding of `shape.writes` after the run.
    writes: Vec<(Option<Rc<Val>>, bool)>,
    /// The entries of `trained` after the run.
    trained_after: Vec<(Site, Option<Trained>)>,
    /// The entries of `evals` after the run.
    evals_after: Vec<(Site, Option<SmallVec<[Site; 2]>>)>,
    /// `trained_after` differs from `trained` (the run trained a model).
    trains: bool,
    /// `evals_after` differs from `evals` (the run evaluated a model).
    evaluates: bool,
    alarms: Vec<Alarm>,
}

impl RunMemo {
    /// The kept run of `cell` on a state agreeing with `before` on what
    /// it reads, if one is kept.
    fn find(&self, before: &Leak, cell: &CellInfo) -> Option<(Rc<Replay>, Rc<Shape>)> {
        self.0.find(cell, |shape, run| run.agrees(shape, before))
    }

    /// The state and alarms of a kept run of `cell` on `before`.
    pub(super) fn replay(&self, before: &Leak, cell: &CellInfo) -> Option<(Leak, Vec<Alarm>)> {
        let (found, shape) = self.find(before, cell)?;
        let mut after = before.clone();
        for (&v, (val, bound)) in shape.writes.iter().zip(&found.writes) {
            after.put(v, val.clone());
            if *bound {
                after.bind(v);
            } else {
                after.unbind(v);
            }
        }
        for (site, trained) in &found.trained_after {
            after.put_trained(*site, trained.as_ref());
        }
        for (site, models) in &found.evals_after {
            after.put_evals(*site, models.as_ref());
        }
        Some((after, found.alarms.clone()))
    }

    /// [`RunMemo::replay`] joined into `into` (a state above `before`),
    /// with what it adds to `before` in `added`, without building the
    /// state: only what the run wrote beyond `before` is joined.
    pub(super) fn replay_join(
        &self,
        before: &Leak,
        cell: &CellInfo,
        into: &mut Leak,
        added: &mut LeakGrowth,
    ) -> Option<Vec<Alarm>> {
        let (found, shape) = self.find(before, cell)?;
        for (&v, (val, bound)) in shape.writes.iter().zip(&found.writes) {
            if let Some(val) = val {
                let below = before
                    .get_rc(v)
                    .is_some_and(|old| Rc::ptr_eq(old, val) || val.leq(old));
                if !below {
                    added.vars.insert(v);
                    into.join_fact(v, val);
                }
            }
            if *bound && !before.bound().contains(v) {
                added.vars.insert(v);
                into.bind(v);
            }
        }
        // A run that trained no model, replayed on a state whose models
        // are those it found (`agrees`), adds none: each entry of
        // `trained_after` is the state's own. The same for evaluations.
        let trained_after = if found.trains {
            &found.trained_after[..]
        } else {
            &[]
        };
        let evals_after = if found.evaluates {
            &found.evals_after[..]
        } else {
            &[]
        };
        for (site, trained) in trained_after {
            let Some(t) = trained else { continue };
            let below = before
                .trained(*site)
                .is_some_and(|old| t.data.leq(&old.data) && (!t.in_loop || old.in_loop));
            if !below {
                added.models = true;
                into.train(*site, t.data.clone(), t.in_loop);
            }
        }
        for (site, models) in evals_after {
            let Some(models) = models else { continue };
            let below = before
                .evals_at(*site)
                .is_some_and(|old| models.iter().all(|m| old.contains(m)));
            if !below {
                added.models = true;
                for &m in models {
                    record_evaluation(&mut into.evals, *site, m);
                }
            }
        }
        Some(found.alarms.clone())
    }

    /// Keeps the run of `cell` from `before` to `after`.
    pub(super) fn keep(
        &self,
        model: &NotebookModel,
        cell: &CellInfo,
        before: &Leak,
        after: &Leak,
        alarms: &[Alarm],
    ) {
        self.0.keep(
            cell,
            |program| Shape::of(model, cell, &program.program),
            |shape| Replay::of(shape, before, after, alarms),
        );
    }
}

impl Replay {
    /// The run from `before` to `after` of a program of shape `shape`.
    fn of(shape: &Shape, before: &Leak, after: &Leak, alarms: &[Alarm]) -> Replay {
        let reads: Vec<_> = shape.reads.iter().map(|&v| fact(before, v)).collect();
        // Sites the run can look up: those the facts it reads name, and its
        // own.
        let mut models: Vec<Site> = shape.sites.clone();
        let mut splits: Vec<Site> = shape.sites.clone();
        for val in reads.iter().filter_map(|(val, _)| val.as_deref()) {
            for tag in val.tags.iter() {
                match tag {
                    Tag::Model(s) => models.push(s),
                    Tag::Split(s, _) => splits.push(s),
                    _ => {}
                }
            }
        }
        for sites in [&mut models, &mut splits] {
            sites.sort_unstable();
            sites.dedup();
        }
        let trained_in = |state: &Leak| -> Vec<_> {
            models
                .iter()
                .map(|&s| (s, state.trained(s).cloned()))
                .collect()
        };
        let evals_in = |state: &Leak| -> Vec<_> {
            splits
                .iter()
                .map(|&s| (s, state.evals_at(s).cloned()))
                .collect()
        };
        let (trained, trained_after) = (trained_in(before), trained_in(after));
        let (evals, evals_after) = (evals_in(before), evals_in(after));
        Replay {
            trains: trained != trained_after,
            evaluates: evals != evals_after,
            trained,
            trained_from: before.trained.clone(),
            evals,
            baseline: splits
                .iter()
                .map(|&s| before.baseline_at(s).map(|b| b.cloned()))
                .collect(),
            writes: shape.writes.iter().map(|&v| fact(after, v)).collect(),
            trained_after,
            evals_after,
            reads,
            alarms: alarms.to_vec(),
        }
    }
}

/// A variable's facts and binding.
fn fact(state: &Leak, v: Var) -> (Option<Rc<Val>>, bool) {
    (state.get_rc(v).cloned(), state.bound().contains(v))
}

impl Shape {
    fn of(model: &NotebookModel, cell: &CellInfo, program: &Program) -> Shape {
        let mut writes = VarSet::new();
        let mut weak = VarSet::new();
        for stmt in &program.stmts {
            for &(v, kind) in &stmt.writes {
                writes.insert(v);
                if kind == WriteKind::Weak {
                    weak.insert(v);
                }
            }
        }
        let mut reads = cell.feeds.clone();
        // Bound or deleted on every path and never changed in place: the
        // value before does not survive.
        let mut overwritten = program.written_on_every_path(|kind| kind != WriteKind::Weak);
        overwritten.difference_with(&weak);
        let mut kept = writes.clone();
        kept.difference_with(&overwritten);
        reads.union_with(&kept);
        let sites = (0..program.calls.len() as u32)
            .map(|i| model.sites.id(cell.index, i))
            .filter(|&s| s != nbsight_model::NO_SITE)
            .collect();
        Shape {
            reads: reads.iter().collect(),
            writes: writes.iter().collect(),
            sites,
        }
    }
}

impl Replay {
    /// `state` agrees with the state this run started from on everything
    /// the run read.
    fn agrees(&self, shape: &Shape, state: &Leak) -> bool {
        // `shape.reads` and the state's facts are both sorted by variable:
        // one walk finds the facts of every read.
        let mut facts = state.vals.iter().peekable();
        shape
            .reads
            .iter()
            .zip(&self.reads)
            .all(|(&v, (val, bound))| {
                while facts.next_if(|(w, _)| *w < v).is_some() {}
                let now = facts.peek().filter(|(w, _)| *w == v).map(|(_, x)| x);
                let same = match (val, now) {
                    (None, None) => true,
                    (Some(a), Some(b)) => Rc::ptr_eq(a, b) || a == b,
                    _ => false,
                };
                same && state.bound().contains(v) == *bound
            })
            && (Rc::ptr_eq(&self.trained_from, &state.trained) || {
                // Both sorted by site: one walk.
                let mut models = state.trained.iter().peekable();
                self.trained.iter().all(|(s, t)| {
                    while models.next_if(|m| m.site < *s).is_some() {}
                    models.peek().filter(|m| m.site == *s).copied() == t.as_ref()
                })
            })
            && self
                .evals
                .iter()
                .all(|(s, models)| state.evals_at(*s) == models.as_ref())
            && self
                .evals
                .iter()
                .zip(&self.baseline)
                .all(|((s, _), kept)| state.baseline_at(*s) == kept.as_ref().map(|b| b.as_ref()))
    }
}
