//! The consequences of running a candidate next cell (what `safe_next`
//! decides on): run it on the state after the event, then every cell that
//! reads what changes, and see whether a domain raises an alarm. A session
//! keeps them for its own kernel state, so that the queries whose state
//! after the event is that state (every edit, the executions that change
//! nothing nbsight tracks) explore each candidate once, not once per query;
//! an execution that changes the state reuses those whose explorations read
//! and wrote none of the facts it changed.

use std::cell::RefCell;

use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;

use crate::engine::{Bounds, Start, explore_with};
use crate::state::{Domains, StateDifference};
use nbsight_absint::Domain;
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
    state: &Domains,
    cell: usize,
    k: Option<usize>,
) -> Consequences {
    let found = explore_with(
        model,
        Start::Cell(cell),
        state,
        &VarSet::new(),
        Bounds {
            k,
            max_visits: Some(CANDIDATE_VISITS),
            // One alarm settles it.
            stop_at_alarm: true,
        },
        |state: &Domains, next| state.0.phi(next),
    );
    let mut visited = FixedBitSet::with_capacity(model.cells.len());
    for visit in &found.visits {
        visited.insert(visit.cell);
    }
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
}

impl Clone for ConsequenceCache {
    fn clone(&self) -> Self {
        ConsequenceCache {
            entries: RefCell::new(self.entries.borrow().clone()),
        }
    }
}

impl ConsequenceCache {
    /// The kernel state changed: nothing kept holds.
    pub(crate) fn clear(&self) {
        self.entries.borrow_mut().clear();
    }

    /// The consequences of `cell` in `model` (related to the session's
    /// `base` as `relation`) on `state`, which is the session's state or
    /// differs from it by `difference`: kept ones when they hold there,
    /// else explored (and kept when they hold for `base` and the session's
    /// state).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn get_or_explore(
        &self,
        base: &NotebookModel,
        model: &NotebookModel,
        relation: Relation,
        state: &Domains,
        difference: Option<&StateDifference>,
        cell: usize,
        k: Option<usize>,
    ) -> (bool, usize) {
        if let Some(kept) = self.entries.borrow().get(&(cell, k))
            && holds(kept, model, relation, cell)
            && difference.is_none_or(|d| kept.unaffected_by(d))
        {
            return (kept.safe, 0);
        }
        let found = explore_candidate(model, state, cell, k);
        // Kept when the exploration would be the same on the base model.
        if difference.is_none() && holds(&found, base, relation, cell) {
            self.entries.borrow_mut().insert((cell, k), found.clone());
        }
        (found.safe, found.visits)
    }
}

/// Do consequences explored on one of two models that differ at most in
/// the edited cell hold on `model`? Yes when the edited cell is the
/// candidate in neither, never ran, and `model`'s version of it reads
/// nothing any explored state changed (so it never became a successor).
fn holds(
    found: &Consequences,
    model: &NotebookModel,
    relation: Relation,
    candidate: usize,
) -> bool {
    match relation {
        Relation::Same => true,
        Relation::Edited { cell } => {
            cell != candidate
                && !found.visited.contains(cell)
                && !model.cells[cell].pre.intersects(&found.changed)
        }
    }
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
        cache.get_or_explore(model, model, Relation::Same, state, difference, 1, None)
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
        let found = explore_candidate(&model, state.domains(), 1, None);
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
        let fresh = explore_candidate(&model, here.domains(), 1, None);
        assert_eq!(explored, (fresh.safe, fresh.visits));
        assert!(explored.1 > 0);
    }
}
