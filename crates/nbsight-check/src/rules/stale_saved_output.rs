//! ## What it reports
//! A cell whose saved output is out of date. nbsight replays the saved
//! execution order (the cells with an `execution_count`, in count order) with
//! timestamps, as nbsafety's lineage does, and compares, for each name a cell
//! with saved output read, the definition its saved run read (the last run,
//! before it, of a cell defining the name) with the one Restart & Run All
//! would give it (the nearest cell above that defines it). It reports a cell
//! whose saved output
//! - predates the last run of the cell above it that Run All takes one of
//!   its inputs from, or of a cell between them that changes it (`x = 1`
//!   re-run as `[5]` after `print(x)` ran as `[4]`);
//! - used a definition other than Run All's: one from a cell below it, or
//!   one a nearer cell above shadows (`x = 2` below `x = 1`, never run after
//!   `x = 1`), even when nothing was re-run later;
//! - used a value that was itself stale when it was read, transitively
//!   (nbsafety's Figure 1: `agg_by_col` was built before `custom_agg` was
//!   fixed, so the aggregates shown are wrong).
//!
//! A call of a user function reads the globals of the definition in force at
//! the call, along the saved order. Each cell is reported once, for the first
//! of these reasons found.
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
//! cell 1:1:14: NBS002 saved output (run [2]) predates the last run of cell 0 ([3]), which redefines `rate` it reads: re-run this cell
//!   cells: 1 -> 0
//! ```
//!
//! Re-run the reported cell (or Restart & Run All) before saving.
//!
//! ## Not reported
//! - Cells without saved output, and cells never run (no execution count);
//!   a notebook without execution counts (a percent script) has nothing to
//!   replay.
//! - Notebooks whose execution counts repeat: they were run in several
//!   kernel sessions, and the saved counts are no single timeline.
//! - A redefinition by a cell below the reader: Run All runs that cell after
//!   it too.
//! - A later re-run of a cell that a nearer cell above the reader shadows
//!   (`x = 1` re-run after `x = 2`, `print(x)` ran): Run All gives the reader
//!   the nearer one, as the saved run had.
//! - Re-importing a module: it binds the same module, so it does not count
//!   as redefining it.
//! - A cell whose output is only the estimator its last line fits
//!   (`model.fit(X, y)` shows `LinearRegression()`, `GridSearchCV(...)`),
//!   or a model's structure (`model.get_params()`, a Keras
//!   `model.summary()`): the data it was fitted on does not change what is
//!   shown. A fit that logs (`verbose=`, `epochs=`, `eval_set=`) is not
//!   such a cell.
//! - A definition the saved run read from before the saved history when the
//!   cell Run All would take it from never ran: what it read is unknown.

use rustc_hash::FxHashMap;

use crate::driver::Driver;
use crate::finding::Finding;
use crate::registry::Rule;
use nbsight_model::vars::{Var, VarSet};
use nbsight_model::{CellInfo, FunctionsInForce, NotebookModel};
use nbsight_notebook::OneIndexed;
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

/// A value of a variable: written by `cell` at time `time`, from inputs read
/// at their times.
#[derive(Debug, Clone)]
struct Value {
    cell: usize,
    time: u32,
    inputs: Inputs,
}

/// The variables a run read, each with the value it read (an index into the
/// replay's values; `None`: from before the saved history).
type Inputs = Vec<(Var, Option<usize>)>;

/// How a read differs from what Run All gives.
#[derive(Debug, Clone)]
enum Cause {
    /// The cell `by` (Run All's definer or a cell between it and the reader
    /// that changes the name) ran again at `by_time`, after the read.
    RanLater { by: usize, by_time: u32 },
    /// The read took the value of cell `from` ([`time`]), which the nearer
    /// cell `instead` shadows under Run All.
    Shadowed {
        from: usize,
        time: u32,
        instead: usize,
    },
}

/// Why a value (or an output) is stale.
#[derive(Debug, Clone)]
struct Staleness {
    /// The input that differs.
    var: Var,
    cause: Cause,
    /// The stale intermediate value read, if the staleness is transitive
    /// (variable, the cell that computed it).
    through: Option<(Var, usize)>,
    /// The cell at the start of the chain of stale values: the one whose
    /// saved run read the input that differs (for a transitive staleness).
    origin: Option<usize>,
}

pub(crate) const DRIVER: Driver = Driver::new("stale_saved_output", stale_outputs);

/// The replay of the saved order and what Run All would give each cell.
struct Replay<'m> {
    model: &'m NotebookModel,
    values: Vec<Value>,
    memo: FxHashMap<usize, Option<Staleness>>,
}

impl Replay<'_> {
    /// `cell` binds `v` (not only changes it in place).
    fn binds(&self, cell: &CellInfo, v: Var) -> bool {
        cell.compiled.as_deref().is_some_and(|c| {
            c.defs.contains(v) || (cell.outputs.contains(v) && !c.mutated.contains(v))
        })
    }

    /// `cell` binds `v` or certainly changes it in place (a call of unknown
    /// effect does not count).
    fn changes(&self, cell: &CellInfo, v: Var) -> bool {
        if self.binds(cell, v) {
            return true;
        }
        let name = self.model.vars.name(v);
        cell.compiled.as_deref().is_some_and(|c| {
            c.summary
                .mutated
                .iter()
                .any(|s| nbsight_dataflow::symbol::root(s) == name)
        })
    }

    /// The nearest code cell above `cell` that binds `v`: where Run All
    /// takes it from.
    fn run_all_definer(&self, cell: usize, v: Var) -> Option<usize> {
        (0..cell)
            .rev()
            .find(|&j| self.binds(&self.model.cells[j], v))
    }

    /// Is the value `id` stale: did its run read something other than what
    /// Run All would give it?
    fn stale_value(&mut self, id: usize, depth: usize) -> Option<Staleness> {
        if let Some(known) = self.memo.get(&id) {
            return known.clone();
        }
        if depth > 64 {
            return None;
        }
        self.memo.insert(id, None);
        let value = self.values[id].clone();
        let result = self.stale_inputs(value.cell, value.time, &value.inputs, depth);
        self.memo.insert(id, result.clone());
        result
    }

    /// The first input of the run of `cell` at `time` that differs from Run
    /// All's, directly or through a stale value.
    fn stale_inputs(
        &mut self,
        cell: usize,
        time: u32,
        inputs: &Inputs,
        depth: usize,
    ) -> Option<Staleness> {
        let model = self.model;
        for &(var, read) in inputs {
            let Some(j) = self.run_all_definer(cell, var) else {
                continue;
            };
            // Modules: re-importing binds the same one.
            if !model.cells[j].computed.contains(var) {
                continue;
            }
            let writer = read.map(|r| self.values[r].cell);
            if writer.is_some_and(|w| w > cell) {
                continue;
            }
            // Run All's definer, or a cell between it and the reader that
            // changes the name, ran after the read.
            if let Some(k) = (j..cell).find(|&k| {
                let c = &model.cells[k];
                c.execution_count.is_some_and(|n| n > time) && self.changes(c, var)
            }) {
                return Some(Staleness {
                    var,
                    cause: Cause::RanLater {
                        by: k,
                        by_time: model.cells[k].execution_count.unwrap_or_default(),
                    },
                    through: None,
                    origin: None,
                });
            }
            let Some(r) = read else { continue };
            let (w, w_time) = (self.values[r].cell, self.values[r].time);
            if w < j {
                return Some(Staleness {
                    var,
                    cause: Cause::Shadowed {
                        from: w,
                        time: w_time,
                        instead: j,
                    },
                    through: None,
                    origin: None,
                });
            }
            if let Some(inner) = self.stale_value(r, depth + 1) {
                return Some(Staleness {
                    through: Some((var, w)),
                    origin: inner.origin.or(Some(w)),
                    ..inner
                });
            }
        }
        None
    }
}

/// Replays the saved execution order with timestamps and reports, for each
/// cell with saved output, the first reason its output is out of date.
fn stale_outputs(model: &NotebookModel, findings: &mut Vec<Finding>) {
    let order = model.saved_order();
    if order.is_empty() || !model.saved_order_is_known() {
        return;
    }
    let mut replay = Replay {
        model,
        values: Vec::new(),
        memo: FxHashMap::default(),
    };
    let mut current: FxHashMap<Var, usize> = FxHashMap::default();
    let mut in_force = FunctionsInForce::default();
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
        let inputs: Inputs = model
            .pre_in_force(cell, &in_force)
            .iter()
            .map(|v| (v, current.get(&v).copied()))
            .collect();
        // Re-importing binds the same module: only computed values get versions.
        // A function (or class) object depends on nothing the cell read: a
        // call reads its globals then, and the caller is charged with them.
        let defined = cell.compiled.as_deref().map(|c| &c.summary.functions);
        for v in cell.computed.iter() {
            let name = model.vars.name(v);
            let is_function = defined.is_some_and(|functions| {
                functions.contains_key(name)
                    || functions
                        .keys()
                        .any(|k| k.strip_prefix(name).is_some_and(|m| m.starts_with('.')))
            });
            replay.values.push(Value {
                cell: c,
                time,
                inputs: if is_function {
                    Vec::new()
                } else {
                    inputs.clone()
                },
            });
            current.insert(v, replay.values.len() - 1);
        }
        in_force.run(model, cell);
        reads.push((c, time, inputs));
    }
    for (c, time, inputs) in &reads {
        let cell = &model.cells[*c];
        if !cell.has_outputs || shows_only_a_fitted_estimator(model, cell) {
            continue;
        }
        let at = |var: Var| {
            let name = model.vars.name(var);
            cell.parsed
                .as_deref()
                .and_then(|p| {
                    nbsight_model::reads::name_reads(p)
                        .into_iter()
                        .find(|r| r.name == name)
                        .map(|r| p.line_column(r.range.start()))
                })
                .or_else(|| {
                    cell.program()
                        .and_then(|p| p.first_read(&VarSet::from_iter([var])))
                })
                .unwrap_or((OneIndexed::MIN, OneIndexed::MIN))
        };
        let name = |v: Var| model.vars.name(v).to_string();
        // Read from a cell below, which Run All would not use.
        let below = inputs.iter().find_map(|&(var, read)| {
            let writer = replay.values[read?].cell;
            (writer > *c).then_some((var, read?))
        });
        if let Some((var, r)) = below {
            let writer = replay.values[r].cell;
            let instead = match replay.run_all_definer(*c, var) {
                Some(p) => format!("Run All would take it from cell {p}"),
                None => "under Run All no cell above defines it".to_string(),
            };
            findings.push(Finding::new(
                model,
                Rule::StaleSavedOutput,
                *c,
                at(var),
                format!(
                    "saved output (run [{time}]) used `{}` from cell {writer} below it (run [{}]); {instead}: outputs will differ after Restart & Run All",
                    name(var),
                    replay.values[r].time
                ),
                vec![writer, *c],
            ));
            continue;
        }
        let Some(s) = replay.stale_inputs(*c, *time, inputs, 0) else {
            continue;
        };
        // A transitive staleness: re-running from the start of the chain
        // down to this cell, in order, recomputes every stale value.
        let rerun = |via_cell: usize| {
            let origin = s.origin.unwrap_or(via_cell).min(via_cell);
            if origin == via_cell {
                format!("re-run cells {via_cell} to {c} in order")
            } else {
                format!(
                    "it was computed from cell {origin}, whose saved run read the old value: re-run cells {origin} to {c} in order"
                )
            }
        };
        let (message, var, path) = match (s.through, s.cause) {
            (None, Cause::RanLater { by, by_time }) => (
                format!(
                    "saved output (run [{time}]) predates the last run of cell {by} ([{by_time}]), which redefines `{}` it reads: re-run this cell",
                    name(s.var)
                ),
                s.var,
                vec![*c, by],
            ),
            (
                None,
                Cause::Shadowed {
                    from,
                    time: from_time,
                    instead,
                },
            ) => (
                format!(
                    "saved output (run [{time}]) used `{}` from cell {from} (run [{from_time}]), but Run All takes it from cell {instead}, which defines it again below cell {from}: outputs will differ after Restart & Run All",
                    name(s.var)
                ),
                s.var,
                vec![from, instead, *c],
            ),
            (Some((via, via_cell)), Cause::RanLater { by, by_time }) => (
                format!(
                    "saved output (run [{time}]) used `{}` from cell {via_cell}, which was computed before cell {by} redefined `{}` ([{by_time}]); {}",
                    name(via),
                    name(s.var),
                    rerun(via_cell),
                ),
                via,
                s.origin
                    .filter(|&o| o != via_cell)
                    .into_iter()
                    .chain([via_cell, by, *c])
                    .collect(),
            ),
            (Some((via, via_cell)), Cause::Shadowed { from, instead, .. }) => (
                format!(
                    "saved output (run [{time}]) used `{}` from cell {via_cell}, which was computed from `{}` of cell {from} where Run All takes it from cell {instead}; {}",
                    name(via),
                    name(s.var),
                    rerun(via_cell),
                ),
                via,
                vec![from, instead, via_cell, *c],
            ),
        };
        findings.push(Finding::new(
            model,
            Rule::StaleSavedOutput,
            *c,
            at(var),
            message,
            path,
        ));
    }
}

/// `cell` shows only what fitting does not change: the estimator its last
/// line fits (`model.fit(X, y)`, displayed as `LinearRegression()`; not a
/// fit that logs its epochs or monitored sets), or a model's structure
/// (`model.get_params()`, a Keras `model.summary()`). The last statement is
/// such a call (or its `print`) and no other statement shows anything.
fn shows_only_a_fitted_estimator(model: &NotebookModel, cell: &CellInfo) -> bool {
    let Some(parsed) = cell.parsed.as_deref() else {
        return false;
    };
    let Some((Stmt::Expr(last), before)) = parsed.module.body.split_last() else {
        return false;
    };
    // `print(model.get_params())` shows the same.
    let mut shown = &*last.value;
    if let Expr::Call(print) = shown
        && matches!(&*print.func, Expr::Name(n) if n.id.as_str() == "print")
        && let [only] = &print.arguments.args[..]
    {
        shown = only;
    }
    let Expr::Call(call) = shown else {
        return false;
    };
    let Expr::Attribute(method) = &*call.func else {
        return false;
    };
    let logs = |k: &str| {
        matches!(
            k,
            "verbose" | "epochs" | "callbacks" | "eval_set" | "validation_data" | "valid_sets"
        )
    };
    let structural = match method.attr.as_str() {
        "fit" => !call
            .arguments
            .keywords
            .iter()
            .any(|k| k.arg.as_ref().is_some_and(|a| logs(a.as_str()))),
        "get_params" | "get_config" | "count_params" => true,
        // statsmodels' `summary()` shows the fitted coefficients.
        "summary" => uses_keras(model),
        _ => false,
    };
    let source = parsed.source();
    let shows = [
        "print(",
        "display(",
        "plot",
        "show(",
        "imshow(",
        "head(",
        "describe(",
    ];
    structural
        && before.iter().all(|s| {
            let text = source
                .get(usize::from(s.start())..usize::from(s.end()))
                .unwrap_or_default();
            !matches!(s, Stmt::Expr(_)) && !shows.iter().any(|w| text.contains(w))
        })
}

/// The notebook imports Keras (as `keras` or through TensorFlow).
fn uses_keras(model: &NotebookModel) -> bool {
    model
        .code_cells()
        .filter_map(|c| c.compiled.as_deref())
        .any(|c| {
            c.imports
                .iter()
                .any(|(_, target)| target.starts_with("keras") || target.starts_with("tensorflow"))
        })
}
