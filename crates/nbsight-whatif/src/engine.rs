//! Inter-cell propagation (NBLyzer Algorithm 3): from an event's source cell,
//! run the abstract cell transformer and propagate the resulting state to
//! every cell whose φ holds (a cell may be its own successor), breadth first
//! so each cell is first reached at its least depth.
//!
//! The exploration runs in rounds, one per depth. η, the states computed at
//! the cells, is shared by all paths and joined, as NBLyzer's inter-cell
//! widening does: here it is one state `G`, the join of everything computed
//! so far, and round d runs the cells on the state of round d - 1 (so every
//! visit at depth d ran after exactly d propagation steps). A cell runs in a
//! round when φ holds on that state and either it has not run yet or the
//! state grew in something its run depends on (the domain's
//! [`Domain::affects`] over what the cell reads); otherwise it would only
//! compute a state subsumed by what it computed before, which is
//! Algorithm 3's fixpoint pruning, decided before running instead of after.
//! The exploration ends when a round adds nothing (a fixpoint: the domains
//! are finite), at depth K, or at the visit budget. Each round costs one run
//! per cell that can change and one join into `G` per run, instead of one
//! join per propagation edge.

use std::rc::Rc;

use fixedbitset::FixedBitSet;
use nbsight_absint::{Alarm, Domain, Growth};
use nbsight_model::vars::VarSet;
use nbsight_model::{CellInfo, NotebookModel};

/// One cell execution the exploration considered.
#[derive(Debug, Clone)]
pub struct Visit<D> {
    pub cell: usize,
    /// 0 for the source; n when reached over n propagation edges.
    pub depth: usize,
    /// The cells executed, in order, ending with `cell`: a shortest chain of
    /// propagations that reaches it, each step's cell having grown what the
    /// next one reads.
    pub path: Vec<usize>,
    /// The state the cell ran on.
    pub before: Rc<D>,
    /// Alarms raised while running it.
    pub alarms: Vec<Alarm>,
}

/// Limits of an exploration.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bounds {
    /// Analyse cells up to this depth (inclusive); `None` is unbounded.
    pub k: Option<usize>,
    /// Stop after this many cell executions (`None`: no limit); the
    /// exploration then says it was truncated.
    pub max_visits: Option<usize>,
    /// Stop at the first execution that raises an alarm (when the question
    /// is only whether one can be raised).
    pub stop_at_alarm: bool,
}

/// Where an exploration starts.
#[derive(Debug, Clone, Copy)]
pub enum Start {
    /// Run this cell first (depth 0), then propagate.
    Cell(usize),
    /// Propagate from the given state directly (a deleted cell: nothing runs
    /// at depth 0).
    State,
}

/// Explores from `start` on `initial`; `extra` is what the event changes
/// besides the source's outputs (see [`Domain::seed`]). Edges follow the
/// domain's φ.
pub fn explore<D: Domain>(
    model: &NotebookModel,
    start: Start,
    initial: &D,
    extra: &VarSet,
    bounds: Bounds,
) -> Exploration<D> {
    explore_with(
        model,
        start,
        initial,
        extra,
        bounds,
        |state, cell| state.phi(cell),
        |_, _| false,
    )
}

/// A cell run in the previous round, with what it added.
struct Grower<G> {
    cell: usize,
    grown: G,
}

/// [`explore`] with edges following `phi` instead of the domain's φ.
/// `scope(state, cells)` may set in `cells` (and return `true`) every code
/// cell `phi` can hold for on `state`, and no other cell: a round then
/// tests only those (a cell that ran is one of them, `phi` having held for
/// it on a smaller state).
pub fn explore_with<D: Domain>(
    model: &NotebookModel,
    start: Start,
    initial: &D,
    extra: &VarSet,
    bounds: Bounds,
    phi: impl Fn(&D, &CellInfo) -> bool,
    scope: impl Fn(&D, &mut FixedBitSet) -> bool,
) -> Exploration<D> {
    let mut start_state = initial.clone();
    start_state.start_exploration();
    let initial = &start_state;
    let n = model.cells.len();
    let mut visits: Vec<Visit<D>> = Vec::new();
    // The latest path that reached each cell (at depth ≥ 1 for the source).
    let mut paths: Vec<Option<Vec<usize>>> = vec![None; n];
    // Whether the cell ran at depth ≥ 1.
    let mut ran = vec![false; n];
    let mut state = initial.clone();
    // What the previous round added, cell by cell, and merged.
    let mut growers: Vec<Grower<D::Growth>> = Vec::new();
    let mut grown = D::Growth::default();
    let source = match start {
        Start::Cell(source) => {
            let info = &model.cells[source];
            let (mut after, alarms) = initial.run(model, info, None);
            let alarmed = !alarms.is_empty();
            let mut changed = info.computed.clone();
            changed.union_with(extra);
            after.seed(&changed);
            let mut added = D::Growth::default();
            after.growth(initial, &mut added);
            grown.merge(&added);
            growers.push(Grower {
                cell: source,
                grown: added,
            });
            visits.push(Visit {
                cell: source,
                depth: 0,
                path: vec![source],
                before: Rc::new(initial.clone()),
                alarms,
            });
            state = after;
            if alarmed && bounds.stop_at_alarm {
                return Exploration {
                    visits,
                    truncated: false,
                    state,
                };
            }
            Some(source)
        }
        Start::State => {
            state.seed(extra);
            None
        }
    };
    let mut truncated = false;
    let mut alarmed = false;
    let mut depth = 1;
    let mut in_scope = FixedBitSet::new();
    while bounds.k.is_none_or(|k| depth <= k) && !(depth > 1 && grown.is_empty()) {
        // The cells this round runs, each with the cell it follows.
        let mut round: Vec<(usize, Option<usize>)> = Vec::new();
        let scoped = scope(&state, &mut in_scope);
        let cells: Box<dyn Iterator<Item = &CellInfo>> = if scoped {
            Box::new(in_scope.ones().map(|i| &*model.cells[i]))
        } else {
            Box::new(model.code_cells())
        };
        for cell in cells {
            let i = cell.index;
            // (Both tests are pure; the cheaper one, on what grew, first.)
            if (ran[i] && !state.affects(&grown, cell)) || !phi(&state, cell) {
                continue;
            }
            // Another cell's growth first: a cell follows itself only when
            // nothing else it depends on grew.
            let via = growers
                .iter()
                .filter(|g| g.cell != i)
                .chain(growers.iter().filter(|g| g.cell == i))
                .find(|g| state.affects(&g.grown, cell))
                .or(growers.first())
                .map(|g| g.cell)
                .or(source);
            round.push((i, via));
        }
        if round.is_empty() {
            break;
        }
        let before = Rc::new(state.clone());
        let mut next_growers = Vec::new();
        let mut next_grown = D::Growth::default();
        let mut round_paths = Vec::with_capacity(round.len());
        for (cell, via) in round {
            if bounds.max_visits.is_some_and(|max| visits.len() >= max) {
                truncated = true;
                break;
            }
            let info = &model.cells[cell];
            // A cell that ran before runs again for what grew; its result
            // joins the state.
            let mut added = D::Growth::default();
            let alarms = before.run_join(
                model,
                info,
                ran[cell].then_some(&grown),
                &mut state,
                &mut added,
            );
            if !added.is_empty() {
                next_grown.merge(&added);
                next_growers.push(Grower { cell, grown: added });
            }
            ran[cell] = true;
            alarmed |= !alarms.is_empty();
            let mut path = via
                .and_then(|v| paths[v].clone())
                .or_else(|| via.map(|v| vec![v]))
                .unwrap_or_default();
            path.push(cell);
            round_paths.push((cell, path.clone()));
            visits.push(Visit {
                cell,
                depth,
                path,
                before: before.clone(),
                alarms,
            });
            if alarmed && bounds.stop_at_alarm {
                break;
            }
        }
        for (cell, path) in round_paths {
            paths[cell] = Some(path);
        }
        if truncated || (alarmed && bounds.stop_at_alarm) {
            break;
        }
        growers = next_growers;
        grown = next_grown;
        depth += 1;
    }
    Exploration {
        visits,
        truncated,
        state,
    }
}

/// What an exploration visited.
#[derive(Debug, Clone)]
pub struct Exploration<D> {
    pub visits: Vec<Visit<D>>,
    /// The visit budget ran out before the exploration ended.
    pub truncated: bool,
    /// The join of every state computed (the initial one when nothing ran).
    pub state: D,
}

#[cfg(test)]
mod tests {
    use nbsight_dataflow::Effects;

    use super::*;
    use crate::impact::Impact;
    use nbsight_model::testing::notebook;

    fn model(sources: &[&str]) -> NotebookModel {
        NotebookModel::new(&notebook(sources), &Effects::builtin())
    }

    /// (cell, depth, path) of each visit.
    fn visits(
        model: &NotebookModel,
        source: usize,
        bounds: Bounds,
    ) -> Vec<(usize, usize, Vec<usize>)> {
        explore(
            model,
            Start::Cell(source),
            &Impact::default(),
            &VarSet::new(),
            bounds,
        )
        .visits
        .into_iter()
        .map(|v| (v.cell, v.depth, v.path))
        .collect()
    }

    #[test]
    fn depth_is_the_round_and_the_path_a_shortest_chain() {
        let m = model(&["a = 1", "b = a + 1", "c = b * 2", "d = c - a"]);
        assert_eq!(
            visits(&m, 0, Bounds::default()),
            [
                (0, 0, vec![0]),
                (1, 1, vec![0, 1]),
                (3, 1, vec![0, 3]),
                (2, 2, vec![0, 1, 2]),
                // `c` grew: cell 3 reads it and runs again.
                (3, 3, vec![0, 1, 2, 3]),
            ]
        );
    }

    #[test]
    fn a_cell_runs_again_only_when_what_it_reads_grew() {
        // Cell 2 reads `x` only; cell 1 changes `y`, which cell 2 does not
        // read, so cell 2 runs once.
        let m = model(&["x = 1\ny = 1", "y = x + y", "z = x"]);
        let seen = visits(&m, 0, Bounds::default());
        assert_eq!(seen.iter().filter(|v| v.0 == 2).count(), 1, "{seen:?}");
    }

    #[test]
    fn k_bounds_the_depth_and_the_budget_truncates() {
        let m = model(&["a = 1", "b = a", "c = b", "d = c"]);
        let bounded = visits(
            &m,
            0,
            Bounds {
                k: Some(2),
                ..Bounds::default()
            },
        );
        assert_eq!(bounded.iter().map(|v| v.1).max(), Some(2));
        let found = explore(
            &m,
            Start::Cell(0),
            &Impact::default(),
            &VarSet::new(),
            Bounds {
                max_visits: Some(2),
                ..Bounds::default()
            },
        );
        assert!(found.truncated);
        assert_eq!(found.visits.len(), 2);
    }

    #[test]
    fn a_cell_reading_what_it_changes_is_its_own_successor() {
        let m = model(&["x = 0", "x = x + 1"]);
        assert_eq!(
            visits(&m, 1, Bounds::default()),
            [(1, 0, vec![1]), (1, 1, vec![1, 1])]
        );
    }

    #[test]
    fn a_deleted_cell_propagates_from_the_state() {
        let m = model(&["a = 1", "b = a"]);
        let a = VarSet::from_iter([m.vars.get("a").expect("interned")]);
        let found = explore(&m, Start::State, &Impact::default(), &a, Bounds::default());
        let seen: Vec<_> = found
            .visits
            .iter()
            .map(|v| (v.cell, v.depth, v.path.clone()))
            .collect();
        assert_eq!(seen, [(1, 1, vec![1])]);
    }
}
