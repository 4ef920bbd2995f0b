//! ## What it reports
//! A cell whose saved output is out of date. nbsight replays the saved
//! execution order (the cells with an `execution_count`, in count order) with
//! timestamps, as nbsafety's lineage does, and reports a cell whose saved
//! output
//! - predates the last run of a cell above it that redefines one of its
//!   inputs (`x = 1` re-run as `[5]` after `print(x)` ran as `[4]`);
//! - used a value that was itself stale when it was read, transitively
//!   (nbsafety's Figure 1: `agg_by_col` was built before `custom_agg` was
//!   fixed, so the aggregates shown are wrong);
//! - used a value from a cell below it, which Run All would not give it.
//!
//! Each cell is reported once, for the first of these reasons found.
//!
//! ## Why it matters
//! The outputs a reader sees (tables, figures, scores) are not what the code
//! above them computes now. After Restart & Run All they change, or the
//! conclusions drawn from them were drawn from code that no longer exists.
//!
//! ## Example
//! The cell that defines `rate` was edited and re-run as `[3]` after the
//! cell below it printed its result as `[2]`:
//! ```python
//! # %% [3]
//! rate = 0.07
//!
//! # %% [2]
//! print(1000 * rate)
//! ```
//!
//! `nbsight check` reports:
//! ```text
//! cell 1:1:1: NBS002 saved output (run [2]) predates the last run of cell 0 ([3]), which redefines `rate` it reads: re-run this cell
//!   cells: 1 -> 0
//! ```
//!
//! Re-run the reported cell (or Restart & Run All) before saving.
//!
//! ## Not reported
//! - Cells without saved output, and cells never run (no execution count);
//!   a notebook without execution counts (a percent script) has nothing to
//!   replay.
//! - A redefinition by a cell below the reader: Run All runs that cell after
//!   it too.
//! - Re-importing a module: it binds the same module, so it does not count
//!   as redefining it.

use rustc_hash::FxHashMap;

use crate::check::finding;
use crate::finding::Finding;
use crate::rules::{Driver, Rule};
use nbsight_model::NotebookModel;
use nbsight_model::vars::{Var, VarSet};
use nbsight_notebook::OneIndexed;
use nbsight_whatif::state::History;

/// A value of a variable: written by `cell` at time `time`, from inputs read
/// at their times.
#[derive(Debug, Clone)]
struct Value {
    cell: usize,
    time: u32,
    inputs: Vec<(Var, Option<usize>)>,
}

/// The variables a cell read, each with the value it read (an index into
/// the replay's values; `None`: from before the saved history).
type Inputs = Vec<(Var, Option<usize>)>;

/// Why a value (or an output) is stale.
#[derive(Debug, Clone)]
struct Staleness {
    /// The input that changed.
    var: Var,
    /// The cell that redefined it later, and when.
    by: usize,
    by_time: u32,
    /// The stale intermediate value read, if the staleness is transitive
    /// (variable, the cell that computed it).
    through: Option<(Var, usize)>,
}

pub(crate) const DRIVER: Driver = Driver::new("stale_saved_output", stale_outputs);

/// Replays the saved execution order with timestamps and reports, for each
/// cell with saved output, the first reason its output is out of date.
fn stale_outputs(model: &NotebookModel, findings: &mut Vec<Finding>) {
    let order = History::Saved.cells(model);
    if order.is_empty() {
        return;
    }
    // Every write of every variable, in time order (index into `values`).
    let mut values: Vec<Value> = Vec::new();
    let mut current: FxHashMap<Var, usize> = FxHashMap::default();
    let mut history: FxHashMap<Var, Vec<usize>> = FxHashMap::default();
    // For each executed cell: what it read.
    let mut reads: Vec<(usize, u32, Inputs)> = Vec::new();
    for &c in &order {
        let cell = &model.cells[c];
        let Some(time) = cell.execution_count else {
            continue;
        };
        if !cell.is_code() {
            continue;
        }
        let inputs: Vec<(Var, Option<usize>)> = cell
            .pre
            .iter()
            .map(|v| (v, current.get(&v).copied()))
            .collect();
        // Re-importing binds the same module: only computed values get versions.
        for v in cell.computed.iter() {
            values.push(Value {
                cell: c,
                time,
                inputs: inputs.clone(),
            });
            current.insert(v, values.len() - 1);
            history.entry(v).or_default().push(values.len() - 1);
        }
        reads.push((c, time, inputs));
    }
    // Is value `id` (of `var`) stale: did a cell above its writer redefine
    // one of its inputs after it was computed, or was an input stale?
    let mut memo: FxHashMap<usize, Option<Staleness>> = FxHashMap::default();
    fn stale_value(
        id: usize,
        values: &[Value],
        history: &FxHashMap<Var, Vec<usize>>,
        memo: &mut FxHashMap<usize, Option<Staleness>>,
        depth: usize,
    ) -> Option<Staleness> {
        if let Some(known) = memo.get(&id) {
            return known.clone();
        }
        if depth > 64 {
            return None;
        }
        memo.insert(id, None);
        let value = &values[id];
        let result = stale_inputs(
            value.cell,
            value.time,
            &value.inputs,
            values,
            history,
            memo,
            depth,
        );
        memo.insert(id, result.clone());
        result
    }
    #[allow(clippy::too_many_arguments)]
    fn stale_inputs(
        cell: usize,
        time: u32,
        inputs: &[(Var, Option<usize>)],
        values: &[Value],
        history: &FxHashMap<Var, Vec<usize>>,
        memo: &mut FxHashMap<usize, Option<Staleness>>,
        depth: usize,
    ) -> Option<Staleness> {
        for &(var, read) in inputs {
            let read_time = read.map(|r| values[r].time).unwrap_or(0);
            // A later write by a cell above `cell` (the one Run All reads from).
            if let Some(later) = history.get(&var).and_then(|writes| {
                writes
                    .iter()
                    .map(|&w| &values[w])
                    .find(|w| w.time > read_time && w.time > time && w.cell < cell)
            }) {
                return Some(Staleness {
                    var,
                    by: later.cell,
                    by_time: later.time,
                    through: None,
                });
            }
            if let Some(r) = read
                && let Some(inner) = stale_value(r, values, history, memo, depth + 1)
                && values[r].time < time
            {
                return Some(Staleness {
                    through: Some((var, values[r].cell)),
                    ..inner
                });
            }
        }
        None
    }
    for (c, time, inputs) in &reads {
        let cell = &model.cells[*c];
        if !cell.has_outputs {
            continue;
        }
        let program = cell.program();
        let at = |var: Var| {
            program
                .and_then(|p| p.first_read(&VarSet::from_iter([var])))
                .unwrap_or((OneIndexed::MIN, OneIndexed::MIN))
        };
        if let Some(s) = stale_inputs(*c, *time, inputs, &values, &history, &mut memo, 0) {
            let name = |v: Var| model.vars.name(v).to_string();
            let (message, var, path) = match s.through {
                None => (
                    format!(
                        "saved output (run [{time}]) predates the last run of cell {} ([{}]), which redefines `{}` it reads: re-run this cell",
                        s.by,
                        s.by_time,
                        name(s.var)
                    ),
                    s.var,
                    vec![*c, s.by],
                ),
                Some((via, via_cell)) => (
                    format!(
                        "saved output (run [{time}]) used `{}` from cell {via_cell}, which was computed before cell {} redefined `{}` ([{}]): re-run cell {via_cell}, then this cell",
                        name(via),
                        s.by,
                        name(s.var),
                        s.by_time
                    ),
                    via,
                    vec![via_cell, s.by, *c],
                ),
            };
            findings.push(finding(
                model,
                Rule::StaleSavedOutput,
                *c,
                at(var),
                message,
                path,
            ));
            continue;
        }
        // Read from a cell below that Run All would not use.
        for &(var, read) in inputs {
            let Some(r) = read else { continue };
            let writer = values[r].cell;
            if writer <= *c {
                continue;
            }
            let provider = (0..*c)
                .rev()
                .find(|&j| model.cells[j].outputs.contains(var));
            let instead = match provider {
                Some(p) => format!("Run All would take it from cell {p}"),
                None => "under Run All no cell above defines it".to_string(),
            };
            findings.push(finding(
                model,
                Rule::StaleSavedOutput,
                *c,
                at(var),
                format!(
                    "saved output (run [{time}]) used `{}` from cell {writer} below it (run [{}]); {instead}: outputs will differ after Restart & Run All",
                    model.vars.name(var),
                    values[r].time
                ),
                vec![writer, *c],
            ));
            break;
        }
    }
}
