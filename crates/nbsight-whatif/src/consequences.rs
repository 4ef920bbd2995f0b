//! The consequences of running a candidate next cell (what `safe_next`
//! decides on): run it on the state after the event, then every cell that
//! reads what changes, and see whether a domain raises an alarm. A session
//! keeps them for its own kernel state, so that the queries whose state
//! after the event is that state (every edit, the executions that change
//! nothing nbsight tracks) explore each candidate once, not once per query;
//! an execution that changes the state reuses those whose explorations read
//! and wrote none of the facts it changed.
//!
//! Most candidates of a large notebook change something many cells read:
//! their explorations run out of budget, and so are not known to be safe,
//! whatever the state. The code-impact domain alone decides which cells an
//! exploration runs for the first time, and it starts empty on every state
//! between events: a candidate whose code-impact exploration alone needs
//! more than the budget is settled once per session, without running the
//! leakage domain ([`Reach`]). Its first round alone often does: every
//! cell reading what the candidate computes runs then, a count kept per
//! candidate and corrected for an edit by looking at the edited cell only
//! ([`first_round`]).

use std::cell::RefCell;

use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;

use crate::engine::{Bounds, Exploration, Start, explore_with};
use crate::impact::Impact;
use crate::readers::Readers;
use crate::state::{Domains, StateDifference};
use nbsight_absint::{Domain, Growth};
use nbsight_model::NotebookModel;
use nbsight_model::vars::VarSet;

/// Cell executions spent on the consequences of one candidate next cell.
pub(crate) const CANDIDATE_VISITS: usize = 64;

/// What running a candidate, then what it impacts, leads to.
#[derive(Debug, Clone)]
pub(crate) struct Consequences {
    /// Explored to the end without an alarm.
    pub safe: bool,
    /// Cell executions explored.
    pub visits: usize,
    /// The cells that ran.
    visited: FixedBitSet,
    /// Every variable some explored state marked changed (the joined state
    /// the exploration ended on).
    changed: VarSet,
    /// The variables whose facts the cells that ran read or wrote.
    footprint: VarSet,
    /// Some cell that ran trains, splits, predicts or evaluates (and so
    /// reads or writes the trained models and evaluations).
    models: bool,
}

impl Consequences {
    /// Would the exploration be the same on a state whose facts differ
    /// from the explored one's by `difference`? (The candidates' edges
    /// follow the code-impact domain, which a state between events leaves
    /// empty, so the same cells run, on facts that agree wherever they
    /// look.)
    fn unaffected_by(&self, difference: &StateDifference) -> bool {
        !(self.footprint.intersects(&difference.vars) || self.models && difference.models)
    }
}

/// Explores the consequences of running `cell` first on `state`, following
/// the code-impact edges only (what the cell changes), at most
/// [`CANDIDATE_VISITS`] executions.
pub(crate) fn explore_candidate(
    model: &NotebookModel,
    readers: &Readers,
    state: &Domains,
    cell: usize,
    k: Option<usize>,
) -> Consequences {
    // One alarm settles it.
    let (found, visited) = follow_code_impact(model, readers, state, |s| &s.0, cell, k, true);
    let mut footprint = VarSet::new();
    let mut models = false;
    for info in visited.ones().map(|c| &model.cells[c]) {
        footprint.union_with(&info.feeds);
        if let Some(compiled) = info.compiled.as_deref() {
            models |= compiled.ml_calls;
            for stmt in &compiled.program.stmts {
                for &(v, _) in &stmt.writes {
                    footprint.insert(v);
                }
            }
        }
    }
    Consequences {
        // Not fully explored: not known to be safe.
        safe: !found.truncated && found.visits.iter().all(|v| v.alarms.is_empty()),
        visits: found.visits.len(),
        visited,
        changed: found.state.0.changed,
        footprint,
        models,
    }
}

/// A candidate's exploration in the code-impact domain alone, from the
/// empty state (what every state between events holds). The exploration
/// with every domain runs, round by round, every cell this one runs (the
/// code-impact states agree round by round: the other domains only add
/// runs of cells whose code-impact inputs did not grow, which change
/// nothing there), and maybe more; so when this one needs more than
/// [`CANDIDATE_VISITS`] executions, that one stops at an alarm or at its
/// budget: not known to be safe.
#[derive(Debug, Clone)]
struct Reach {
    /// Needs more than [`CANDIDATE_VISITS`] executions.
    over_budget: bool,
    /// The cells that ran within the budget.
    visited: FixedBitSet,
    /// The variables changed when it stopped.
    changed: VarSet,
}

impl Reach {
    fn of(
        model: &NotebookModel,
        readers: &Readers,
        start: &Impact,
        cell: usize,
        k: Option<usize>,
    ) -> Reach {
        let (found, visited) = follow_code_impact(model, readers, start, |s| s, cell, k, false);
        Reach {
            over_budget: found.truncated,
            visited,
            changed: found.state.changed,
        }
    }

    /// Does this reach, found on one of two models that differ at most in
    /// the edited cell, hold on `model`? The two explorations are the same
    /// up to the budget when the edited cell is not the candidate, did not
    /// run, and `model`'s version of it reads nothing changed by then.
    fn holds(&self, model: &NotebookModel, relation: Relation, candidate: usize) -> bool {
        same_on(&self.visited, &self.changed, model, relation, candidate)
    }
}

/// Explores from `cell` on `state` following the code-impact edges only
/// (`impact` reads that component of the state), at most
/// [`CANDIDATE_VISITS`] executions; with the cells that ran. Each round
/// tests only the cells reading a changed variable: the only ones the
/// code-impact φ can hold for.
fn follow_code_impact<D: Domain>(
    model: &NotebookModel,
    readers: &Readers,
    state: &D,
    impact: impl Fn(&D) -> &Impact,
    cell: usize,
    k: Option<usize>,
    stop_at_alarm: bool,
) -> (Exploration<D>, FixedBitSet) {
    let found = explore_with(
        model,
        Start::Cell(cell),
        state,
        &VarSet::new(),
        Bounds {
            k,
            max_visits: Some(CANDIDATE_VISITS),
            stop_at_alarm,
        },
        |state: &D, next| impact(state).phi(next),
        |state: &D, cells| {
            readers.of_any(&impact(state).changed, cells);
            true
        },
    );
    let mut visited = FixedBitSet::with_capacity(model.cells.len());
    visited.extend(found.visits.iter().map(|v| v.cell));
    (found, visited)
}

/// Is an exploration from `candidate` that ran the cells `visited` and
/// changed `changed`, on one of two models that differ at most in the
/// edited cell, the same on `model`? Yes when the edited cell is not the
/// candidate, did not run, and `model`'s version of it reads nothing
/// changed (so it never became a successor).
fn same_on(
    visited: &FixedBitSet,
    changed: &VarSet,
    model: &NotebookModel,
    relation: Relation,
    candidate: usize,
) -> bool {
    match relation {
        Relation::Same => true,
        Relation::Edited { cell } => {
            cell != candidate
                && !visited.contains(cell)
                && !model.cells[cell].pre.intersects(changed)
        }
    }
}

/// The cells an exploration from `candidate` runs first, before any of
/// them changes anything: the code cells reading what it computes (the
/// code-impact state the candidate leaves). With the candidate's own
/// run, the exploration runs more than [`CANDIDATE_VISITS`] cells when
/// this count reaches it.
fn first_round(model: &NotebookModel, candidate: usize) -> usize {
    let computed = &model.cells[candidate].computed;
    model
        .code_cells()
        .filter(|c| c.pre.intersects(computed))
        .count()
}

/// How a query's model relates to the session's.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Relation {
    /// The same model.
    Same,
    /// Cell `cell` edited, every other cell linked as before.
    Edited { cell: usize },
}

/// Consequences explored on a session's model and kernel state, by
/// candidate cell and depth bound.
#[derive(Debug, Default)]
pub(crate) struct ConsequenceCache {
    entries: RefCell<FxHashMap<(usize, Option<usize>), Consequences>>,
    /// Candidates' code-impact explorations on the session's model, which
    /// no kernel state changes.
    reach: RefCell<FxHashMap<(usize, Option<usize>), Reach>>,
    /// Candidates' [`first_round`] counts on the session's model.
    first_rounds: RefCell<FxHashMap<usize, usize>>,
}

impl Clone for ConsequenceCache {
    fn clone(&self) -> Self {
        ConsequenceCache {
            entries: RefCell::new(self.entries.borrow().clone()),
            reach: RefCell::new(self.reach.borrow().clone()),
            first_rounds: RefCell::new(self.first_rounds.borrow().clone()),
        }
    }
}

impl ConsequenceCache {
    /// The kernel state changed: no kept consequences hold (the
    /// code-impact explorations and first-round counts, which no kernel
    /// state changes, are kept).
    pub(crate) fn clear(&self) {
        self.entries.borrow_mut().clear();
    }

    /// [`first_round`] of `candidate` in `model`, from the count kept for
    /// the session's `base`: an edit of another cell changes only whether
    /// that cell is counted (the candidate computes the same variables).
    fn first_round(
        &self,
        base: &NotebookModel,
        model: &NotebookModel,
        relation: Relation,
        candidate: usize,
    ) -> usize {
        let kept = *self
            .first_rounds
            .borrow_mut()
            .entry(candidate)
            .or_insert_with(|| first_round(base, candidate));
        match relation {
            Relation::Same => kept,
            Relation::Edited { cell } if cell == candidate => first_round(model, candidate),
            Relation::Edited { cell } => {
                let computed = &base.cells[candidate].computed;
                let counted = |m: &NotebookModel| {
                    let edited = &m.cells[cell];
                    usize::from(edited.is_code() && edited.pre.intersects(computed))
                };
                kept - counted(base) + counted(model)
            }
        }
    }

    /// The consequences of `cell` in `model` (related to the session's
    /// `base` as `relation`) on `state`, which is the session's state or
    /// differs from it by `difference`: not safe when its code-impact
    /// exploration alone outruns the budget ([`Reach`]); else kept ones
    /// when they hold there, else explored (and kept when they hold for
    /// `base` and the session's state). With the cell executions explored
    /// (none for the code-impact explorations, kept for the session).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn get_or_explore(
        &self,
        base: &NotebookModel,
        model: &NotebookModel,
        readers: &Readers,
        relation: Relation,
        state: &Domains,
        difference: Option<&StateDifference>,
        cell: usize,
        k: Option<usize>,
    ) -> (bool, usize) {
        // Only the empty code-impact state is the same on every state.
        if state.0.changed.is_empty() {
            let outruns = if k.is_none_or(|k| k >= 1)
                && self.first_round(base, model, relation, cell) >= CANDIDATE_VISITS
            {
                true
            } else if let Some(kept) = self.reach.borrow().get(&(cell, k))
                && kept.holds(model, relation, cell)
            {
                kept.over_budget
            } else {
                let found = Reach::of(model, readers, &state.0, cell, k);
                let over = found.over_budget;
                if found.holds(base, relation, cell) {
                    self.reach.borrow_mut().insert((cell, k), found);
                }
                over
            };
            if outruns {
                return (false, 0);
            }
        }
        if let Some(kept) = self.entries.borrow().get(&(cell, k))
            && holds(kept, model, relation, cell)
            && difference.is_none_or(|d| kept.unaffected_by(d))
        {
            return (kept.safe, 0);
        }
        let found = explore_candidate(model, readers, state, cell, k);
        // Kept when the exploration would be the same on the base model.
        if difference.is_none() && holds(&found, base, relation, cell) {
            self.entries.borrow_mut().insert((cell, k), found.clone());
        }
        (found.safe, found.visits)
    }
}

/// Do consequences explored on one of two models that differ at most in
/// the edited cell hold on `model`? ([`same_on`].)
fn holds(
    found: &Consequences,
    model: &NotebookModel,
    relation: Relation,
    candidate: usize,
) -> bool {
    same_on(&found.visited, &found.changed, model, relation, candidate)
}

#[cfg(test)]
mod tests {
    use nbsight_dataflow::Effects;

    use nbsight_notebook::Notebook;

    use super::*;
    use crate::state::NotebookState;
    use nbsight_model::testing::notebook;

    /// Candidate 1's consequences on `state`, from `cache`.
    fn ask(
        cache: &ConsequenceCache,
        model: &NotebookModel,
        state: &Domains,
        difference: Option<&StateDifference>,
    ) -> (bool, usize) {
        cache.get_or_explore(
            model,
            model,
            &Readers::of(model),
            Relation::Same,
            state,
            difference,
            1,
            None,
        )
    }

    /// Four cells run in order: running cell 1 again changes `b`, which
    /// cell 3 reads; cells 0 and 2 take no part.
    fn fixture() -> (Notebook, NotebookModel, NotebookState) {
        let nb = notebook(&["a = 1", "b = a + 1", "c = 2", "d = b"]);
        let model = NotebookModel::new(&nb, &Effects::builtin());
        let state = NotebookState::after(&model, &[0, 1, 2, 3]);
        (nb, model, state)
    }

    #[test]
    fn kept_consequences_hold_unless_the_edited_cell_can_take_part() {
        let (nb, model, state) = fixture();
        let effects = Effects::builtin();
        let found = explore_candidate(&model, &Readers::of(&model), state.domains(), 1, None);
        assert!(found.safe);
        assert_eq!(found.visits, 2);
        assert!(holds(&found, &model, Relation::Same, 1));
        assert!(holds(&found, &model, Relation::Edited { cell: 2 }, 1));
        assert!(!holds(&found, &model, Relation::Edited { cell: 3 }, 1));
        assert!(!holds(&found, &model, Relation::Edited { cell: 1 }, 1));
        // Cell 2 edited to read `b`: it would become a successor.
        let edited = nb.cells[2].edited("c = b", &nb.language);
        let other = model.with_edit(&nb.cells, 2, &edited, &effects);
        assert!(!holds(&found, &other, Relation::Edited { cell: 2 }, 1));
    }

    #[test]
    fn the_cache_answers_what_a_fresh_exploration_answers() {
        let (_, model, state) = fixture();
        let cache = ConsequenceCache::default();
        let first = ask(&cache, &model, state.domains(), None);
        assert_eq!(first, (true, 2));
        // Kept: nothing explored the second time.
        let again = ask(&cache, &model, state.domains(), None);
        assert_eq!(again, (true, 0));
        cache.clear();
        let cleared = ask(&cache, &model, state.domains(), None);
        assert_eq!(cleared, (true, 2));
    }

    /// `a = 1`, then `n` cells: `b{i} = a` (`fan`) or a chain `a{i} =
    /// a{i-1}` (each reads the one before).
    fn wide_or_deep(n: usize, fan: bool) -> (Notebook, NotebookModel, NotebookState) {
        let mut sources = vec!["a0 = 1".to_string()];
        for i in 1..=n {
            sources.push(if fan {
                format!("b{i} = a0")
            } else {
                format!("a{i} = a{}", i - 1)
            });
        }
        let refs: Vec<&str> = sources.iter().map(String::as_str).collect();
        let nb = notebook(&refs);
        let model = NotebookModel::new(&nb, &Effects::builtin());
        let state = NotebookState::after(&model, &(0..=n).collect::<Vec<_>>());
        (nb, model, state)
    }

    /// A candidate whose code-impact exploration alone outruns the budget,
    /// in its first round (70 readers) or later (a chain of 70), is settled
    /// as not safe, as the exploration with every domain settles it; one
    /// within the budget is left to that exploration.
    #[test]
    fn candidates_outrunning_the_budget_in_code_impact_alone_are_not_safe() {
        for fan in [true, false] {
            let (_, model, state) = wide_or_deep(70, fan);
            let cache = ConsequenceCache::default();
            let readers = Readers::of(&model);
            // Settled without exploring: not safe, no execution counted.
            let over = |cell, k| {
                cache.get_or_explore(
                    &model,
                    &model,
                    &readers,
                    Relation::Same,
                    state.domains(),
                    None,
                    cell,
                    k,
                ) == (false, 0)
            };
            assert_eq!(first_round(&model, 0), if fan { 70 } else { 1 });
            assert!(over(0, None), "fan {fan}");
            let explored =
                explore_candidate(&model, &Readers::of(&model), state.domains(), 0, None);
            assert!(!explored.safe && explored.visits == CANDIDATE_VISITS);
            // The last cell's consequences are itself only.
            assert!(!over(70, None));
            assert!(
                explore_candidate(&model, &Readers::of(&model), state.domains(), 70, None).safe
            );
            // Kept for the session: the same answer again.
            assert!(over(0, None));
            // A chain bounded at depth 2 is explored (and safe).
            assert_eq!(over(0, Some(2)), fan, "fan {fan}: depth 2");
        }
    }

    /// A candidate's exploration scanning only the cells reading a changed
    /// variable runs as many cells, and the same ones, as scanning every
    /// cell does.
    #[test]
    fn scanning_the_readers_explores_what_scanning_every_cell_does() {
        let nb = notebook(&[
            "import pandas as pd\nfrom sklearn.preprocessing import StandardScaler\ndf = pd.read_csv('d.csv')",
            "X = StandardScaler().fit_transform(df)\nn = 1",
            "Y = X\nn = n + 1",
            "print(n)",
            "def f():\n    return Y\nZ = f()",
            "X = df\nW = Z",
        ]);
        let model = NotebookModel::new(&nb, &Effects::builtin());
        let readers = Readers::of(&model);
        let state = NotebookState::after(&model, &[0, 1, 2, 3, 4, 5]);
        for cell in model.code_cells().map(|c| c.index) {
            let scoped = explore_candidate(&model, &readers, state.domains(), cell, None);
            let every = explore_with(
                &model,
                Start::Cell(cell),
                state.domains(),
                &VarSet::new(),
                Bounds {
                    k: None,
                    max_visits: Some(CANDIDATE_VISITS),
                    stop_at_alarm: true,
                },
                |state: &Domains, next| state.0.phi(next),
                |_, _| false,
            );
            let cells: Vec<(usize, usize)> =
                every.visits.iter().map(|v| (v.cell, v.depth)).collect();
            assert_eq!(scoped.visits, cells.len(), "candidate {cell}");
            assert!(
                scoped.visits > 1 || cell == 3 || cell == 5,
                "candidate {cell}: {cells:?}"
            );
            let mut visited = FixedBitSet::with_capacity(model.cells.len());
            visited.extend(cells.iter().map(|&(c, _)| c));
            assert_eq!(scoped.visited, visited, "candidate {cell}");
        }
    }

    /// An edit of another cell changes the kept first-round count by that
    /// cell only; an edit of the candidate counts afresh.
    #[test]
    fn first_round_counts_follow_an_edit() {
        let (nb, model, _) = wide_or_deep(64, true);
        let effects = Effects::builtin();
        let cache = ConsequenceCache::default();
        let count =
            |m: &NotebookModel, relation, cell| cache.first_round(&model, m, relation, cell);
        assert_eq!(count(&model, Relation::Same, 0), 64);
        for (cell, source, candidate) in [
            (5, "b5 = 2", 0),
            (5, "b5 = a0 + 1", 0),
            (0, "a0 = 2", 0),
            (3, "b3 = b4", 4),
        ] {
            let edited = nb.cells[cell].edited(source, &nb.language);
            let other = model.with_edit(&nb.cells, cell, &edited, &effects);
            assert_eq!(
                count(&other, Relation::Edited { cell }, candidate),
                first_round(&other, candidate),
                "{source}"
            );
        }
    }

    /// A kept exploration holds on a state that differs from the explored
    /// one only in facts it neither read nor wrote.
    #[test]
    fn kept_consequences_hold_where_the_state_differs_elsewhere() {
        let nb = notebook(&[
            "import pandas as pd\nfrom sklearn.preprocessing import StandardScaler\ndf = pd.read_csv('d.csv')",
            "X = StandardScaler().fit_transform(df)",
            "Z = StandardScaler().fit_transform(df)",
            "Y = X",
            "X = df",
        ]);
        let model = NotebookModel::new(&nb, &Effects::builtin());
        let state = NotebookState::after(&model, &[0, 1, 3]);
        let cache = ConsequenceCache::default();
        let first = ask(&cache, &model, state.domains(), None);
        assert_eq!(first, (true, 2));
        // Running cell 2 gives `Z` facts: candidate 1 never looks at them.
        let mut elsewhere = state.clone();
        elsewhere.execute(&model, 2);
        let difference = elsewhere.difference(&state).expect("comparable");
        assert_eq!(model.vars.names_of(&difference.vars), vec!["Z".to_string()]);
        let kept = ask(&cache, &model, elsewhere.domains(), Some(&difference));
        assert_eq!(kept, (true, 0));
        // Running cell 4 changes the facts of `X`, which candidate 1 writes
        // and cell 3 reads: explored again, on that state.
        let mut here = state.clone();
        here.execute(&model, 4);
        let difference = here.difference(&state).expect("comparable");
        assert!(difference.vars.contains(model.vars.get("X").expect("X")));
        let explored = ask(&cache, &model, here.domains(), Some(&difference));
        let fresh = explore_candidate(&model, &Readers::of(&model), here.domains(), 1, None);
        assert_eq!(explored, (fresh.safe, fresh.visits));
        assert!(explored.1 > 0);
    }
}
