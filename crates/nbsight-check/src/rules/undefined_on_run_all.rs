//! ## What it reports
//! A cell that reads a name no earlier cell defines. Restart & Run All runs
//! the cells top to bottom, so it fails there with `NameError`: the name is
//! defined only in a cell below (the notebook was run out of order) or
//! nowhere (a deleted cell, a typo, Python 2's `xrange`). Reads through user
//! functions count: calling `report()` reads the globals `report` reads.
//! So do the names a lambda given to a call reads (`sorted(xs, key=lambda
//! v: v * weight)`, `df.apply(lambda r: r[col])`, seaborn's
//! `g.map_lower(lambda ...)`): the library calls it there.
//! A cell that only changes such a name (`stats.ttest_ind(a, b)`,
//! `pd.options.display.max_rows = 10` with `pandas` never imported) fails
//! and binds nothing: every later read of the name is reported too.
//!
//! ## Why it matters
//! The saved notebook only worked in the kernel it was written in. Whoever
//! re-runs it (a colleague, CI, you next month) gets an error, or has to
//! guess the order the cells were really run in.
//!
//! ## Example
//! ```python
//! # %%
//! import pandas as pd
//!
//! # %%
//! sales = pd.read_csv("sales.csv")
//! sales["net"] = sales["price"] * rate
//!
//! # %%
//! rate = 0.8
//! ```
//!
//! `nbsight check` reports:
//! ```text
//! cell 1:2:33: NBS001 reads `rate`, first defined below in cell 2: Restart & Run All fails here with NameError
//! ```
//!
//! Move the cell that defines `rate` above the cell that reads it.
//!
//! ## Not reported
//! - Names an earlier cell may define, also conditionally (inside an `if`).
//! - Reads in the body of an `if` whose test is always false: `if False:`,
//!   or a switch the notebook turns off (`DEBUG = False`, `USE_AUX = 0`:
//!   every binding of the name, in every cell and function, is to a false
//!   constant), so `if DEBUG:` never runs. Its `else` branch runs and is
//!   checked.
//! - Names the cell itself may bind before the read on some path (a loop
//!   that assigns before a later read).
//! - Builtins, whatever a later cell rebinds them to.
//! - Names `%pylab` binds, as IPython's `import_pylab` does (`np`, `plt`,
//!   `numpy`, `pyplot`, `figsize`, `display`...); without `--no-import-all`
//!   it also star-imports `numpy` and `matplotlib.pylab`, so nothing after
//!   it is reported (see below).
//! - Reads that cannot fail: `$name` and `{expr}` in `!` shell lines and
//!   magic arguments (IPython leaves them to the shell when the name does
//!   not exist), `df?`, and reads inside a `try` whose `except` catches
//!   `NameError` (bare, `Exception`, `NameError`).
//! - A global a function binds before it uses a function nested in it that
//!   reads it (`global E`, `E = ''`, then `helper()`): the nested
//!   function's reads happen where the enclosing function uses its name.
//! - A global a function binds on every path of its body (`global P`,
//!   `P = '> '`) that a top-level function it calls reads: that call reads
//!   the function's binding. (Where in the body the call comes is not
//!   checked: a call before the assignment is missed.)
//! - The globals of a definition no call reaches: a call runs the definition
//!   of the function in force at the call (`def f(): return 1`, `f()`,
//!   `def f(): return y` does not read `y` at `f()`), and a name bound
//!   otherwise (`x = [1, 2]`) is no function until a cell defines it again.
//! - Names a cell that does not parse may define (any name written in it):
//!   the other names of the later cells are still checked.
//! - Anything after a cell that can bind names nbsight cannot see
//!   (`from m import *`, `%run`, `%store -r`, `exec`,
//!   `globals()[...] = ...`), that cell included.
//!
//! The column is the name's (or the called function's) first read that can
//! fail.

use crate::driver::Driver;
use crate::finding::Finding;
use crate::registry::Rule;
use nbsight_dataflow::builtins::is_builtin;
use nbsight_model::flags::FalseFlags;
use nbsight_model::reads::{callback_lambdas_given, name_reads_given};
use nbsight_model::vars::{Var, VarSet};
use nbsight_model::{CellInfo, CellStatus, FunctionsInForce, NotebookModel};
use nbsight_notebook::{CellIndex, OneIndexed};

pub(crate) const DRIVER: Driver = Driver::new("undefined_on_run_all", undefined_names);

/// Replays Run All: the names defined so far and the user functions in force,
/// cell after cell, and every read that can fail of a name not among them.
fn undefined_names(model: &NotebookModel, findings: &mut Vec<Finding>) {
    let mut defined = VarSet::new();
    let mut in_force = FunctionsInForce::default();
    // The notebook's switches, read when a cell may fail.
    let switches = std::cell::OnceCell::new();
    for cell in &model.cells {
        if matches!(cell.status, CellStatus::Broken { .. }) {
            // What it would bind is unknown: any name written in it.
            if let Some(parsed) = cell.parsed.as_deref() {
                for word in crate::hidden::identifiers(parsed.source()) {
                    if let Some(v) = model.vars.get(word) {
                        defined.insert(v);
                    }
                }
            }
            continue;
        }
        let Some(compiled) = cell.compiled.as_deref() else {
            continue;
        };
        if compiled.unknown_defs {
            return;
        }
        undefined_in_cell(model, cell, (&defined, &in_force, &switches), findings);
        // What the cell binds: changing a name it cannot read (`stats.f()`,
        // `pd.options.x = 1` with the module never imported) fails, and
        // binds nothing, so every later read still fails.
        for v in cell.outputs.iter() {
            if !defined.contains(v) && first_binds(cell, compiled, v) {
                defined.insert(v);
            }
        }
        in_force.run(model, cell);
    }
}

/// The findings of one cell, run after cells that defined `defined` with the
/// functions `in_force`.
fn undefined_in_cell(
    model: &NotebookModel,
    cell: &CellInfo,
    (defined, in_force, switches): (&VarSet, &FunctionsInForce, &std::cell::OnceCell<FalseFlags>),
    findings: &mut Vec<Finding>,
) {
    let Some(compiled) = cell.compiled.as_deref() else {
        return;
    };
    let Some(parsed) = cell.parsed.as_deref() else {
        return;
    };
    // A builtin is there whatever a later cell rebinds it to.
    let missing = |v: Var| !defined.contains(v) && !is_builtin(model.vars.name(v));
    let here = in_force.at(model, cell);
    // Quick exit: nothing the cell may read is missing.
    let mut candidates = compiled.unbound_reads.clone();
    // A lambda's reads (the names no cell's code names are no `Var`).
    let mut lambda_reads_unnamed = false;
    for (name, function) in &compiled.summary.functions {
        if name.starts_with("<lambda@") {
            for symbol in function.reads.iter() {
                let root = nbsight_dataflow::symbol::root(symbol);
                match model.vars.get(root) {
                    Some(v) => {
                        candidates.insert(v);
                    }
                    None => lambda_reads_unnamed |= !is_builtin(root),
                }
            }
        }
    }
    for stmt in &compiled.program.stmts {
        for &f in &stmt.reads {
            if here.cell_of(f).is_some() {
                candidates.insert(f);
            }
        }
    }
    if !lambda_reads_unnamed
        && !candidates.iter().any(|v| {
            missing(v)
                || here
                    .reads_of_call(model, v)
                    .is_some_and(|reads| reads.iter().any(missing))
        })
    {
        return;
    }
    // Reads under `if DEBUG:` (DEBUG only ever False) never run.
    let reads = name_reads_given(parsed, switches.get_or_init(|| FalseFlags::of(model)));
    let failing_at = |v: Var| {
        let name = model.vars.name(v);
        reads
            .iter()
            .find(|r| r.can_fail && r.name == name)
            .map(|r| parsed.line_column(r.range.start()))
    };
    let mut reported = VarSet::new();
    // Read directly, before any binding in the cell may reach the read.
    for v in compiled.unbound_reads.iter() {
        if !missing(v) {
            continue;
        }
        let Some(location) = failing_at(v) else {
            continue;
        };
        reported.insert(v);
        findings.push(message(model, cell, v, Via::Direct, location));
    }
    // Through the user functions the cell calls, as they are in force, unless
    // the cell bound the global before the call.
    let mut written = VarSet::new();
    for stmt in &compiled.program.stmts {
        for &f in &stmt.reads {
            let Some(globals) = here.reads_of_call(model, f) else {
                continue;
            };
            let fresh: Vec<Var> = globals
                .iter()
                .filter(|&g| missing(g) && !written.contains(g) && !reported.contains(g))
                .collect();
            if fresh.is_empty() {
                continue;
            }
            let Some(location) = failing_at(f) else {
                continue;
            };
            for g in fresh {
                reported.insert(g);
                findings.push(message(model, cell, g, Via::Call(f), location));
            }
        }
        for &(v, kind) in &stmt.writes {
            if kind == nbsight_model::program::WriteKind::Strong {
                written.insert(v);
            }
        }
    }
    // Through the anonymous lambdas a call is given (`sorted(xs, key=lambda
    // v: v * w)`): the library calls them there, unless the cell bound the
    // name in a statement before.
    let mut unnamed: Vec<&str> = Vec::new();
    for range in callback_lambdas_given(parsed, switches.get_or_init(|| FalseFlags::of(model))) {
        let (line, column) = parsed.line_column(range.start());
        let name = format!("<lambda@{}:{}>", line.get(), column.get());
        let Some(function) = compiled.summary.functions.get(name.as_str()) else {
            continue;
        };
        let mut before = VarSet::new();
        let starts: Vec<_> = compiled
            .program
            .stmts
            .iter()
            .filter(|stmt| (stmt.line, stmt.column) <= (line, column))
            .collect();
        // The last statement to start before the lambda holds it: its own
        // bindings come after the call.
        for stmt in starts.iter().take(starts.len().saturating_sub(1)) {
            for &(v, kind) in &stmt.writes {
                if kind == nbsight_model::program::WriteKind::Strong {
                    before.insert(v);
                }
            }
        }
        for symbol in function.reads.iter() {
            let root = nbsight_dataflow::symbol::root(symbol);
            let v = model.vars.get(root);
            let unbound = match v {
                Some(v) => missing(v) && !before.contains(v) && !reported.contains(v),
                // No cell's code names it: bound by none.
                None => !is_builtin(root) && !unnamed.contains(&root),
            };
            if unbound {
                match v {
                    Some(v) => {
                        reported.insert(v);
                    }
                    None => unnamed.push(root),
                }
                let at = (line, column);
                findings.push(unbound_message(model, cell, root, v, Via::Lambda, at));
            }
        }
    }
}

/// How a cell reads a name.
#[derive(Debug, Clone, Copy)]
enum Via {
    /// Its code reads it.
    Direct,
    /// It calls this user function, which reads it.
    Call(Var),
    /// A lambda it gives a call reads it.
    Lambda,
}

/// The finding for `v`, read by `cell` directly or through a call of `via`.
fn message(
    model: &NotebookModel,
    cell: &CellInfo,
    v: Var,
    via: Via,
    location: (OneIndexed, OneIndexed),
) -> Finding {
    unbound_message(model, cell, model.vars.name(v), Some(v), via, location)
}

/// The finding for the name `name` (`v`, unless no cell's code binds or
/// reads it, as for a name only a lambda reads).
fn unbound_message(
    model: &NotebookModel,
    cell: &CellInfo,
    name: &str,
    v: Option<Var>,
    via: Via,
    location: (OneIndexed, OneIndexed),
) -> Finding {
    // A cell below that binds it without needing it first: not one that
    // only changes it in place (`v[0] = 1`, `v.update()`), deletes it, or
    // reads it before binding it (`v += 1`), which would fail as well.
    let later = v.and_then(|v| {
        model
            .cells
            .iter()
            .skip(cell.index + 1)
            .find(|c| c.compiled.as_deref().is_some_and(|x| first_binds(c, x, v)))
    });
    let reading = match via {
        Via::Call(f) => format!("calls `{}`, which reads `{name}`", model.vars.name(f)),
        Via::Lambda => format!("gives a call a lambda that reads `{name}`"),
        Via::Direct => format!("reads `{name}`"),
    };
    let message = match later {
        Some(d) => format!(
            "{reading}, first defined below in cell {}: Restart & Run All fails here with NameError",
            d.index
        ),
        None => format!(
            "{reading}, which no cell defines (and is not a builtin): Restart & Run All fails here with NameError"
        ),
    };
    let mut finding = Finding::new(
        model,
        Rule::UndefinedOnRunAll,
        cell.index,
        location,
        message,
        vec![cell.index],
    );
    finding.related = later.map(|d| CellIndex::new(d.index)).into_iter().collect();
    finding
}

/// `cell` can be the cell that first binds `v` on Run All: it binds it (an
/// assignment, an import, a `def`, a call of a function that sets the global)
/// and does not read it first.
fn first_binds(cell: &CellInfo, compiled: &nbsight_model::Compiled, v: Var) -> bool {
    use nbsight_model::program::WriteKind;
    if compiled.unbound_reads.contains(v) {
        return false;
    }
    let mut written = false;
    for stmt in &compiled.program.stmts {
        for &(w, kind) in &stmt.writes {
            if w == v {
                if kind == WriteKind::Strong {
                    return true;
                }
                written = true;
            }
        }
    }
    // Bound out of the statements' sight (through a call): the summary says.
    !written
        && (compiled.defs.contains(v)
            || (cell.outputs.contains(v) && !compiled.mutated.contains(v)))
}
