//! ## What it reports
//! A leak of the kinds `preprocessing-leakage` and `overlap-leakage` report
//! (statistics fitted, or rows resampled, before the split; a model trained
//! on rows it is then tested on) that running the notebook's cells top to
//! bottom in a fresh kernel *with some cells skipped* reaches, while notebook
//! order and the saved execution order do not: a skipped cell rebinds or
//! changes a value a later cell's leak depends on, so the notebook is safe
//! only because that cell runs. This is NBLyzer's Figure 1: cell 2 scales
//! `x` on all rows, cell 3 reads `x` again from the file, so Run All does
//! not leak, but running cells 1, 2, 4, 5 does.
//!
//! The orders tried are notebook order without a cell whose run changes the
//! leakage facts of a name an earlier cell bound and a later cell reads, and,
//! when a later cell masks that change again (it rebinds the name too),
//! without that cell as well (at most three cells skipped). An order in
//! which a cell reads a name that only a skipped cell defined fails with
//! `NameError` before the leak and is not reported. Reported at the call the
//! leak is seen, once per cell and kind of leak, with the fewest cells
//! skipped; the message names the order, the cells skipped and what they
//! rebind, then the leakage domain's message; the path lists the cells the
//! order runs, up to the leaking one (cells are numbered as in the other
//! messages: 0-based, markdown included).
//!
//! ## Why it matters
//! Notebooks are not only run top to bottom: a reader re-running "the cells
//! that matter" skips one that looks redundant (it reads a file again) and
//! gets a leaky model and an optimistic score. The leak is still in the
//! notebook, hidden by a cell that does not look like it matters; fixed at
//! its source (fit on the training split only), no order leaks.
//!
//! ## Example
//! ```python
//! # %%
//! import pandas as pd
//! d = pd.read_csv("data.csv")
//!
//! # %%
//! from sklearn.preprocessing import MinMaxScaler
//! x = MinMaxScaler().fit_transform(d)
//!
//! # %%
//! x = pd.read_csv("data.csv").values
//!
//! # %%
//! from sklearn.model_selection import train_test_split
//! x_train, x_test, y_train, y_test = train_test_split(x[:, :-1], x[:, -1])
//!
//! # %%
//! from sklearn.linear_model import LogisticRegression
//! model = LogisticRegression().fit(x_train, y_train)
//! model.score(x_test, y_test)
//! ```
//!
//! `nbsight check` reports:
//! ```text
//! cell 4:3:1: NBS104 running cells 0, 1, 3, 4 in order (skipping cell 2, which rebinds `x`) leaks: `score` evaluates the model trained (cell 4, line 2) on `x_test`, but the training and test data were both transformed with statistics `fit_transform` (cell 1, line 2) fitted on rows that include those the split (cell 3, line 2) holds out: statistics of the test rows leak into training; fit it on the training split only, or use a Pipeline
//!   cells: 0 -> 1 -> 3 -> 4
//! ```
//!
//! Split first and fit the scaler on `x_train` only (or use a `Pipeline`);
//! deleting cell 1 if its result is not wanted also removes the leak.
//!
//! ## Not reported
//! - A cell where notebook order or the saved execution order already has a
//!   leak of the same kind: the other leakage rules report it (whatever
//!   data the order with cells skipped leaks there).
//! - Orders that skip a cell defining a name a later cell reads before any
//!   other cell defines it: they fail with `NameError` first. Orders in
//!   which a name is still bound to a tuple (`df = X, y`) that a later cell
//!   uses as a table (`df.head()`, `df["target"]`): they fail too.
//! - A leak seen only by a prediction (`predict`, `predict_proba`) that no
//!   metric compares with labels.
//! - A pipeline whose preprocessing steps alone were fitted on all rows
//!   (`pipe[:-1].fit(X)`, a slice of its steps) and whose fit on the
//!   training side is skipped: no model was trained to score.
//! - A leak seen by a statement that reads predictions a skipped cell would
//!   have made again (`y_pred = knn.predict(X_test)` skipped, then
//!   `accuracy_score(y_test, y_pred)`): the earlier `y_pred` is of other
//!   rows, so the comparison fails or means nothing. Skipping a cell only
//!   for the predictions it rebinds is not tried.
//! - Multi-test leakage: an order the notebook does not run that evaluates
//!   several models on one test set is not a choice the notebook makes.
//! - Skipping a cell that can bind names nbsight cannot see
//!   (`from m import *`, `%run`, `exec`), or a cell whose skipping changes
//!   nothing a later cell's leakage reads.
//! - Orders that run cells twice or out of notebook order: `nbsight whatif`
//!   explores those.
//! - The orders beyond a budget of 2 000 cell runs per notebook (the
//!   notebooks of `../shared/corpus` and of the precision audit need at
//!   most about 1 000; a 500-cell notebook stops there after about 4 ms).

use crate::finding::Finding;
use crate::registry::Rule;
use crate::rules::order_fails;
use nbsight_dataflow::builtins::is_builtin;
use nbsight_dataflow::effects::Role;
use nbsight_leakage::{Alarm, AlarmKind, Along, Leak};
use nbsight_model::program::WriteKind;
use nbsight_model::vars::{Var, VarSet};
use nbsight_model::{CellInfo, NotebookModel};

/// Cells one order skips at most.
const MAX_SKIPPED: usize = 3;

/// Cell runs one notebook may spend on orders with cells skipped (a run
/// costs a few microseconds: this bounds the search to a few milliseconds).
const MAX_RUNS: usize = 2_000;

/// The leaks of notebook order (`order`, run as `notebook`) with cells
/// skipped that notebook order and the saved order (run as `saved`) do not
/// have, as findings.
pub(crate) fn search(
    model: &NotebookModel,
    order: Vec<usize>,
    notebook: Along,
    saved: &Along,
    findings: &mut Vec<Finding>,
) {
    let Some(mut search) = Search::new(model, order, notebook, saved) else {
        return;
    };
    for start in 0..search.order.len() {
        if let Some(names) = search.worth_skipping(start) {
            let walk = Walk {
                skipped: Vec::new(),
                state: search.states[start].clone(),
                defined: search.defined[start].clone(),
                differ: VarSet::new(),
                stale: VarSet::new(),
                shadowed: VarSet::new(),
            };
            if let Some(walk) = search.skip(&walk, start, names) {
                search.run_from(walk, start + 1);
            }
        }
    }
    for found in search.found {
        findings.push(found.into_finding(model, &search.order));
    }
}

/// A cell an order skips.
#[derive(Debug, Clone)]
struct Skip {
    /// Its position in notebook order.
    position: usize,
    /// The names it was skipped for: bound before it, changed by it, read
    /// after it.
    names: VarSet,
}

/// An order being run: the cells it skipped so far and what it computed.
#[derive(Debug, Clone)]
struct Walk {
    skipped: Vec<Skip>,
    state: Leak,
    /// The names bound so far.
    defined: VarSet,
    /// Where `state` differs from notebook order's state at this position.
    differ: VarSet,
    /// Predictions a skipped cell would have made again: the value later
    /// cells read is an earlier prediction, of other rows.
    stale: VarSet,
    /// Names a skipped cell would have bound again: later cells read an
    /// earlier binding.
    shadowed: VarSet,
}

/// A leak reached with cells skipped.
#[derive(Debug)]
struct Found {
    cell: usize,
    /// The position of `cell` in notebook order.
    position: usize,
    alarm: Alarm,
    skipped: Vec<Skip>,
}

/// Notebook order, what running it computes at each position, and the
/// orders with cells skipped tried so far.
struct Search<'m> {
    model: &'m NotebookModel,
    /// Notebook order: the code cells, top to bottom.
    order: Vec<usize>,
    /// The state before each position of notebook order (and after the last).
    states: Vec<Leak>,
    /// The names bound before each position of notebook order.
    defined: Vec<VarSet>,
    /// What the cells from each position on, up to `last`, read.
    reads_from: Vec<VarSet>,
    /// Whether a cell from each position on, up to `last`, looks up the
    /// models trained (predict, evaluate).
    evaluates_from: Vec<bool>,
    /// The last position whose cell can raise a leakage alarm.
    last: usize,
    /// The alarms of notebook order and of the saved order, with their cells.
    known: Vec<(usize, Alarm)>,
    /// Cell runs spent on orders with cells skipped.
    runs: usize,
    found: Vec<Found>,
}

impl<'m> Search<'m> {
    /// Starts from notebook order and the saved order, run; `None` when no
    /// order can leak.
    fn new(
        model: &'m NotebookModel,
        order: Vec<usize>,
        notebook: Along,
        saved: &Along,
    ) -> Option<Self> {
        if notebook.states.is_empty() {
            // Not active: nothing this domain looks at.
            return None;
        }
        let last = order.iter().rposition(|&c| {
            model.cells[c]
                .compiled
                .as_deref()
                .is_some_and(|x| x.ml_sinks)
        })?;
        // The orders run the same cells on states that mostly agree on
        // what those cells read: one memo of runs, replayed.
        let mut states = notebook.states;
        let mut memo = Leak::default();
        for state in &mut states {
            state.share_runs(&mut memo);
        }
        let mut defined = Vec::with_capacity(order.len() + 1);
        let mut bound = VarSet::new();
        for &c in &order {
            defined.push(bound.clone());
            bound.union_with(&model.cells[c].outputs);
        }
        defined.push(bound);
        let known: Vec<(usize, Alarm)> = notebook
            .alarms
            .into_iter()
            .chain(saved.alarms.iter().cloned())
            .map(|a| (a.cell, a.alarm))
            .collect();
        let mut reads_from = vec![VarSet::new(); order.len() + 1];
        let mut evaluates_from = vec![false; order.len() + 1];
        for p in (0..=last).rev() {
            let cell = &model.cells[order[p]];
            let mut reads = reads_from[p + 1].clone();
            reads.union_with(&cell.reads);
            reads_from[p] = reads;
            evaluates_from[p] =
                evaluates_from[p + 1] || cell.compiled.as_deref().is_some_and(|x| x.evaluates);
        }
        Some(Search {
            model,
            order,
            states,
            defined,
            reads_from,
            evaluates_from,
            last,
            known,
            runs: 0,
            found: Vec::new(),
        })
    }

    fn cell(&self, position: usize) -> &'m CellInfo {
        &self.model.cells[self.order[position]]
    }

    /// Whether the cell at `position` may be skipped at all: nbsight sees
    /// every name it binds.
    fn can_skip(&self, position: usize) -> bool {
        self.cell(position)
            .compiled
            .as_deref()
            .is_some_and(|x| !x.unknown_defs)
    }

    /// The names skipping the cell at `position` (and nothing else) is for:
    /// bound by an earlier cell, given other leakage facts by this one, and
    /// read by a later cell up to the last that can leak. `None` when there
    /// are none: skipping it changes nothing a leak can depend on.
    fn worth_skipping(&self, position: usize) -> Option<VarSet> {
        if position >= self.last || !self.can_skip(position) {
            return None;
        }
        let (mut changed, _) = self.states[position].difference(&self.states[position + 1]);
        changed.intersect_with(&self.defined[position]);
        changed.intersect_with(&self.reads_from[position + 1]);
        (!changed.is_clear()).then_some(changed)
    }

    /// Whether the cell at `position`, run after the cells that bound
    /// `defined`, reads a name notebook order had bound there and this order
    /// did not: it fails with `NameError` (builtins excepted).
    fn fails(&self, position: usize, defined: &VarSet) -> bool {
        let mut missing = self.cell(position).pre.clone();
        missing.intersect_with(&self.defined[position]);
        missing.difference_with(defined);
        missing.iter().any(|v| !is_builtin(self.model.vars.name(v)))
    }

    /// Whether the cell at `position` reads, in `walk`'s order, an earlier
    /// binding of a name a skipped cell rebinds, made by a statement that
    /// bound other names it reads together with it (the parts of a split),
    /// one of which a later cell bound since: the parts no longer belong
    /// together (features of one dataset, labels of another), and the cell
    /// fails or pairs unrelated rows.
    fn misaligned(&self, position: usize, walk: &Walk) -> bool {
        let pre = &self.cell(position).pre;
        if !pre.intersects(&walk.shadowed) {
            return false;
        }
        walk.shadowed.iter().filter(|&v| pre.contains(v)).any(|v| {
            let Some((q, stmt)) = self.binder(walk, position, v) else {
                return false;
            };
            let Some(program) = self.cell(q).program() else {
                return false;
            };
            program.stmts[stmt].writes.iter().any(|&(w, kind)| {
                w != v
                    && kind == WriteKind::Strong
                    && pre.contains(w)
                    && self.binder(walk, position, w) != Some((q, stmt))
            })
        })
    }

    /// Whether the cell at `position` uses as a table a name that, in
    /// `walk`'s order, an earlier statement bound to a tuple (a skipped cell
    /// would have bound it again): it fails with AttributeError or
    /// TypeError before any leak.
    fn wrong_kind(&self, position: usize, walk: &Walk) -> bool {
        let pre = &self.cell(position).pre;
        walk.shadowed.iter().filter(|&v| pre.contains(v)).any(|v| {
            self.binder(walk, position, v).is_some_and(|(q, stmt)| {
                order_fails::binds_tuple(self.cell(q), stmt)
                    && order_fails::uses_as_table(self.cell(position), self.model.vars.name(v))
            })
        })
    }

    /// The last statement binding `v` (position in notebook order, index
    /// in its cell's program) that `walk`'s order runs before `position`.
    fn binder(&self, walk: &Walk, position: usize, v: Var) -> Option<(usize, usize)> {
        (0..position)
            .rev()
            .filter(|q| !walk.skipped.iter().any(|s| s.position == *q))
            .find_map(|q| {
                let program = self.cell(q).program()?;
                program
                    .stmts
                    .iter()
                    .rposition(|stmt| stmt.writes.contains(&(v, WriteKind::Strong)))
                    .map(|stmt| (q, stmt))
            })
    }

    /// Whether states that differ in `differ` (and in their models when
    /// `models`) can still lead to different alarms from `position` on.
    fn matters(&self, position: usize, differ: &VarSet, models: bool) -> bool {
        differ.intersects(&self.reads_from[position]) || (models && self.evaluates_from[position])
    }

    /// `walk` skipping the cell at `position` too, for `names` (those it
    /// rebinds that matter later); `None` when they are all predictions,
    /// whose earlier values are of other rows.
    fn skip(&self, walk: &Walk, position: usize, mut names: VarSet) -> Option<Walk> {
        let predictions = predictions(self.cell(position));
        names.difference_with(&predictions);
        if names.is_clear() {
            return None;
        }
        let mut next = walk.clone();
        next.skipped.push(Skip { position, names });
        (next.differ, _) = walk.state.difference(&self.states[position + 1]);
        let mut stale = predictions;
        stale.intersect_with(&walk.defined);
        next.stale.union_with(&stale);
        let mut shadowed = strong_writes(self.cell(position));
        shadowed.intersect_with(&walk.defined);
        next.shadowed.union_with(&shadowed);
        Some(next)
    }

    /// Runs notebook order from `from` on, as `walk` left it (its skipped
    /// cells all before `from`). Stops when the order fails, when it can no
    /// longer differ from notebook order, or at the budget. At a cell that
    /// masks what the skipped cells changed (the names agree with notebook
    /// order again after it), also tries the order that skips it too.
    fn run_from(&mut self, mut walk: Walk, from: usize) {
        for p in from..=self.last {
            if self.runs >= MAX_RUNS
                || self.fails(p, &walk.defined)
                || self.misaligned(p, &walk)
                || self.wrong_kind(p, &walk)
            {
                return;
            }
            self.runs += 1;
            let cell = self.cell(p);
            let (after, alarms) = walk.state.run_cell(self.model, cell);
            for alarm in alarms {
                if !reads_stale(cell, &alarm, &walk.stale) && !only_predicts(cell, &alarm) {
                    self.record(cell.index, p, alarm, &walk.skipped);
                }
            }
            let (now, models) = after.difference(&self.states[p + 1]);
            // The names that differed, matter later and agree again.
            let mut masked = walk.differ.clone();
            masked.intersect_with(&self.reads_from[p + 1]);
            masked.difference_with(&now);
            if !masked.is_clear()
                && walk.skipped.len() < MAX_SKIPPED
                && self.can_skip(p)
                && let Some(next) = self.skip(&walk, p, masked)
            {
                self.run_from(next, p + 1);
            }
            if !self.matters(p + 1, &now, models) {
                return;
            }
            walk.state = after;
            walk.defined.union_with(&cell.outputs);
            walk.differ = now;
            if let Some(program) = cell.program() {
                walk.stale.difference_with(&program.rebound);
                walk.shadowed.difference_with(&program.rebound);
            }
        }
    }

    /// Keeps `alarm`, raised in `cell` (at `position`) by the order skipping
    /// `skipped`, unless notebook or saved order has it, or another order
    /// reached a leak of its kind in its cell skipping no more cells.
    fn record(&mut self, cell: usize, position: usize, alarm: Alarm, skipped: &[Skip]) {
        // Several models evaluated on one test set by an order the notebook
        // does not run are not a choice it makes.
        if alarm.kind == AlarmKind::MultiTestLeakage
            || self
                .known
                .iter()
                .any(|(c, k)| *c == cell && k.kind == alarm.kind)
        {
            return;
        }
        let found = Found {
            cell,
            position,
            alarm,
            skipped: skipped.to_vec(),
        };
        match self
            .found
            .iter_mut()
            .find(|f| f.cell == cell && f.alarm.kind == found.alarm.kind)
        {
            Some(f) if f.skipped.len() > found.skipped.len() => *f = found,
            Some(_) => {}
            None => self.found.push(found),
        }
    }
}

/// The names `cell` binds to predictions (`y_pred = model.predict(X)`).
fn predictions(cell: &CellInfo) -> VarSet {
    let mut found = VarSet::new();
    let Some(program) = cell.program() else {
        return found;
    };
    for stmt in &program.stmts {
        let predicts = program.calls[stmt.calls.start as usize..stmt.calls.end as usize]
            .iter()
            .any(|c| c.has(Role::Predict));
        if predicts {
            for &(v, kind) in &stmt.writes {
                if kind == WriteKind::Strong {
                    found.insert(v);
                }
            }
        }
    }
    found
}

/// The names a statement of `cell` binds.
fn strong_writes(cell: &CellInfo) -> VarSet {
    let mut found = VarSet::new();
    for stmt in cell.program().map_or(&[][..], |p| &p.stmts[..]) {
        for &(v, kind) in &stmt.writes {
            if kind == WriteKind::Strong {
                found.insert(v);
            }
        }
    }
    found
}

/// Whether `alarm` was raised by a call that only predicts (`predict`,
/// `predict_proba`): with no labels compared, an order that only skips
/// cells makes no score (a competition's test file predicted for a
/// submission, in notebook order, is the recommended refit).
fn only_predicts(cell: &CellInfo, alarm: &Alarm) -> bool {
    cell.program().is_some_and(|p| {
        p.calls.iter().any(|c| {
            c.line == alarm.line
                && c.column == alarm.column
                && c.has(Role::Predict)
                && !c.has(Role::Evaluate)
        })
    })
}

/// Whether the statement of `cell` that raised `alarm` reads a name of
/// `stale`: predictions made earlier, of other rows than the order's data
/// (comparing them with its labels fails, or compares unrelated rows).
fn reads_stale(cell: &CellInfo, alarm: &Alarm, stale: &VarSet) -> bool {
    if stale.is_clear() {
        return false;
    }
    let Some(program) = cell.program() else {
        return false;
    };
    program.stmts.iter().any(|stmt| {
        let raised = stmt.line == alarm.line
            || program.calls[stmt.calls.start as usize..stmt.calls.end as usize]
                .iter()
                .any(|c| c.line == alarm.line && c.column == alarm.column);
        raised && stmt.reads.iter().any(|&v| stale.contains(v))
    })
}

impl Found {
    fn into_finding(self, model: &NotebookModel, order: &[usize]) -> Finding {
        let ran: Vec<usize> = (0..=self.position)
            .filter(|p| !self.skipped.iter().any(|s| s.position == *p))
            .map(|p| order[p])
            .collect();
        // What each skipped cell rebinds that a cell of the order reads after it.
        let skips: Vec<String> = self
            .skipped
            .iter()
            .map(|s| {
                let mut read = VarSet::new();
                for &c in &order[s.position + 1..=self.position] {
                    read.union_with(&model.cells[c].pre);
                }
                let mut names = s.names.clone();
                names.intersect_with(&read);
                if names.is_clear() {
                    names.clone_from(&s.names);
                }
                skip_text(model, &model.cells[order[s.position]], &names)
            })
            .collect();
        let message = format!(
            "running cells {} in order (skipping {}) leaks: {}",
            cell_list(&ran, order),
            skips.join(", and "),
            self.alarm.message
        );
        Finding::new(
            model,
            Rule::LeakageWithCellsSkipped,
            self.cell,
            (self.alarm.line, self.alarm.column),
            message,
            ran,
        )
    }
}

/// `cell 3, which rebinds `x``: a skipped cell and the names it rebinds (or
/// changes in place).
fn skip_text(model: &NotebookModel, cell: &CellInfo, names: &VarSet) -> String {
    let defs = cell.compiled.as_deref().map(|x| &x.defs);
    let quoted = |rebound: bool| {
        let list: Vec<String> = names
            .iter()
            .filter(|&v| defs.is_some_and(|d| d.contains(v)) == rebound)
            .map(|v| format!("`{}`", model.vars.name(v)))
            .collect();
        (!list.is_empty()).then(|| list.join(", "))
    };
    let what = match (quoted(true), quoted(false)) {
        (Some(r), Some(c)) => format!(", which rebinds {r} and changes {c} in place"),
        (Some(r), None) => format!(", which rebinds {r}"),
        (None, Some(c)) => format!(", which changes {c} in place"),
        (None, None) => String::new(),
    };
    format!("cell {}{what}", cell.index)
}

/// The cells an order runs, consecutive runs of three or more code cells
/// (in notebook order) written as a range: `0-11, 13, 14`.
fn cell_list(ran: &[usize], order: &[usize]) -> String {
    let position = |c: usize| order.iter().position(|&o| o == c);
    let mut parts = Vec::new();
    let mut i = 0;
    while i < ran.len() {
        let mut j = i;
        while j + 1 < ran.len()
            && position(ran[j])
                .zip(position(ran[j + 1]))
                .is_some_and(|(a, b)| b == a + 1)
        {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}-{}", ran[i], ran[j]));
        } else {
            parts.extend(ran[i..=j].iter().map(ToString::to_string));
        }
        i = j + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use nbsight_dataflow::Effects;
    use nbsight_model::testing::notebook;

    use super::*;

    fn check(sources: &[&str]) -> Vec<Finding> {
        let model = NotebookModel::new(&notebook(sources), &Effects::builtin());
        let rules = crate::selection::RuleSet::from_rules([Rule::LeakageWithCellsSkipped]);
        crate::check::check_model(&model, rules)
    }

    const LOAD: &str = "import pandas as pd\nd = pd.read_csv('data.csv')";
    const SCALE: &str =
        "from sklearn.preprocessing import MinMaxScaler\nx = MinMaxScaler().fit_transform(d)";
    const RELOAD: &str = "x = pd.read_csv('data.csv').values";
    const SPLIT: &str = "from sklearn.model_selection import train_test_split\nx_train, x_test, y_train, y_test = train_test_split(x[:, :-1], x[:, -1])";
    const TRAIN: &str = "from sklearn.linear_model import LogisticRegression\nmodel = LogisticRegression().fit(x_train, y_train)\nmodel.score(x_test, y_test)";

    #[test]
    fn figure_1_leaks_without_the_cell_that_reads_x_again() {
        let found = check(&[LOAD, SCALE, RELOAD, SPLIT, TRAIN]);
        assert_eq!(found.len(), 1, "{found:#?}");
        let path: Vec<usize> = found[0].path.iter().map(|c| c.index()).collect();
        assert_eq!(path, [0, 1, 3, 4]);
        assert!(
            found[0]
                .message
                .starts_with("running cells 0, 1, 3, 4 in order (skipping cell 2, which rebinds `x`) leaks: `score`"),
            "{}",
            found[0].message
        );
    }

    #[test]
    fn two_cells_that_mask_the_leak_are_both_skipped() {
        let found = check(&[LOAD, SCALE, RELOAD, RELOAD, SPLIT, TRAIN]);
        assert_eq!(found.len(), 1, "{found:#?}");
        let path: Vec<usize> = found[0].path.iter().map(|c| c.index()).collect();
        assert_eq!(path, [0, 1, 4, 5]);
        assert!(
            found[0]
                .message
                .contains("(skipping cell 2, which rebinds `x`, and cell 3, which rebinds `x`)"),
            "{}",
            found[0].message
        );
    }

    #[test]
    fn a_leak_of_notebook_order_is_not_reported_again() {
        // Run All leaks already: preprocessing-leakage reports it.
        assert!(check(&[LOAD, RELOAD, SCALE, SPLIT, TRAIN]).is_empty());
    }

    #[test]
    fn an_order_that_fails_first_is_not_reported() {
        // Cell 2 is the only definer of `raw`, which the split reads.
        let found = check(&[
            LOAD,
            SCALE,
            "raw = pd.read_csv('data.csv').values\nx = raw",
            "from sklearn.model_selection import train_test_split\nx_train, x_test, y_train, y_test = train_test_split(x[:, :-1], raw[:, -1])",
            TRAIN,
        ]);
        assert!(found.is_empty(), "{found:#?}");
    }

    #[test]
    fn skipping_a_cell_that_changes_nothing_leaky_reports_nothing() {
        let found = check(&[
            LOAD,
            "d = d.dropna()",
            SPLIT.replace("(x[", "(d.values[").as_str(),
            TRAIN,
        ]);
        assert!(found.is_empty(), "{found:#?}");
    }

    #[test]
    fn a_model_trained_on_all_rows_is_reported_but_not_stale_predictions() {
        // Skipping cell 4 leaves the model of cell 2, trained on every row:
        // scoring it on the test split (cell 6) leaks. The `y_pred` cell 5
        // then reads is the prediction of cell 2, on other rows: not reported.
        let found = check(&[
            "from sklearn.datasets import load_digits\nX, y = load_digits(return_X_y=True)",
            "from sklearn.neighbors import KNeighborsClassifier\nknn = KNeighborsClassifier().fit(X, y)\ny_pred = knn.predict(X)",
            "from sklearn.model_selection import train_test_split\nX_train, X_test, y_train, y_test = train_test_split(X, y)",
            "print(len(X_train))",
            "knn = KNeighborsClassifier().fit(X_train, y_train)\ny_pred = knn.predict(X_test)",
            "from sklearn.metrics import accuracy_score\naccuracy_score(y_test, y_pred)",
            "knn.score(X_test, y_test)",
        ]);
        let cells: Vec<usize> = found.iter().map(|f| f.cell.index()).collect();
        assert_eq!(cells, [6], "{found:#?}");
        assert!(
            found[0].message.starts_with(
                "running cells 0-3, 5, 6 in order (skipping cell 4, which rebinds `knn`)"
            ),
            "{}",
            found[0].message
        );
    }

    #[test]
    fn several_models_on_one_test_set_of_a_skipped_order_are_not_reported() {
        // Skipping the second split evaluates both models on the first one.
        let found = check(&[
            "import pandas as pd\nfrom sklearn.model_selection import train_test_split\nfrom sklearn.linear_model import LogisticRegression\nfrom sklearn.tree import DecisionTreeClassifier\nd = pd.read_csv('a.csv')\ne = pd.read_csv('b.csv')",
            "X_train, X_test, y_train, y_test = train_test_split(d.drop(columns='t'), d.t)",
            "LogisticRegression().fit(X_train, y_train).score(X_test, y_test)",
            "X_train, X_test, y_train, y_test = train_test_split(e.drop(columns='t'), e.t)",
            "DecisionTreeClassifier().fit(X_train, y_train).score(X_test, y_test)",
        ]);
        assert!(found.is_empty(), "{found:#?}");
    }

    #[test]
    fn parts_of_a_split_mixed_with_other_data_are_not_an_order() {
        // Skipping cell 2 alone leaves the scaled `X` of cell 1 beside the
        // `y` of cell 3 (other rows): splitting them fails. (Skipping cells
        // 2 and 3 together would run and leak; that order is not tried: the
        // second skip is only looked for where a cell masks the first.)
        let found = check(&[
            "import pandas as pd\nfrom sklearn.model_selection import train_test_split\nfrom sklearn.preprocessing import StandardScaler\nfrom sklearn.linear_model import LogisticRegression\nd = pd.read_csv('a.csv')\ne = pd.read_csv('b.csv')",
            "X, y = StandardScaler().fit_transform(d.drop(columns='t')), d.t",
            "X = e.drop(columns='t').values",
            "y = e.t",
            "X_train, X_test, y_train, y_test = train_test_split(X, y)",
            "LogisticRegression().fit(X_train, y_train).score(X_test, y_test)",
        ]);
        assert!(found.is_empty(), "{found:#?}");
    }

    #[test]
    fn ranges_of_consecutive_cells() {
        assert_eq!(
            cell_list(&[0, 2, 3, 4, 6, 7], &[0, 1, 2, 3, 4, 5, 6, 7]),
            "0, 2-4, 6, 7"
        );
        // Markdown between code cells (not in the order) does not break a run.
        assert_eq!(cell_list(&[1, 2, 4, 5], &[1, 2, 4, 5]), "1-5");
        assert_eq!(cell_list(&[1, 2, 4, 5], &[1, 2, 3, 4, 5]), "1, 2, 4, 5");
    }
}
