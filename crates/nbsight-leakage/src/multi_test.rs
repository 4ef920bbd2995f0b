//! Multi-test leakage (NBS103): one test set used to choose among models.
//! The domain records, per test split, the models evaluated on it; at an
//! evaluation on a split's test side (not a validation split), a second
//! candidate for the same choice (a model of the same labels), or a model
//! trained in a loop, is the alarm. Here are that detector and its message.

use nbsight_absint::{Alarm, AlarmKind, Alarms, Joins, StmtCtx};
use nbsight_dataflow::effects::Role;
use nbsight_model::NotebookModel;
use nbsight_model::program::{Call, Op, WriteKind};
use nbsight_model::vars::Var;

use std::rc::Rc;

use crate::calls::{call_at, parsed_at, positional, program_at};
use crate::models::{Evals, evals_entry, evaluated_in, record_evaluation};
use crate::splits::equivalent_split;
use crate::syntax;
use crate::text::{callee_at, short, site_text, split_cell, split_text};
use crate::value::{Side, Site, Tag, Val};

/// The model trained at `model` (in a loop when `trained_in_loop`) is
/// evaluated at `call` on `data`, the test side of each of `splits`:
/// records the evaluation in `evals` and raises the alarm when it makes a
/// choice among models on one test set. `baseline` holds the evaluations
/// when an exploration started (`None` along one order of runs).
#[allow(clippy::too_many_arguments)]
pub(crate) fn at_evaluation(
    evals: &mut Rc<Evals>,
    baseline: Option<&Evals>,
    (model, trained_in_loop): (Site, bool),
    call: &Call,
    data: &Val,
    splits: &[Site],
    ctx: &StmtCtx<'_>,
    alarms: &mut Alarms,
) {
    for &split in splits {
        // Choosing on a validation split (held out from another split's
        // training side, or named so) is the recommended practice, not
        // multi-test leakage: its models are recorded but not compared.
        if is_validation(ctx.model, split, data) {
            continue;
        }
        let (_, new) = record_evaluation(evals, split, model);
        // Models of other targets (a denoiser and a classifier on the
        // same rows) are not candidates for the same choice.
        let target = target_of(ctx.model, model);
        let count = evals_entry(evals, split).map_or(0, |models| {
            models
                .iter()
                .filter(|&&m| same_target(ctx.model, target, target_of(ctx.model, m)))
                .count()
        });
        // When a second model meets the split, or a model trained in a
        // loop does (inside loops the alarm pass sees the fixpoint state,
        // where the models are no longer new). In an exploration the
        // state joins runs that happen in either order: the evaluation
        // meets another model when it is new since the exploration
        // started and another model is there.
        // Along one order, each further model is raised too, to join the
        // alarm of the second: one finding naming every cell that
        // evaluates a candidate.
        let second = match baseline {
            None => new && count >= 2,
            Some(baseline) => count >= 2 && !evaluated_in(baseline, split, model),
        };
        // A loop that makes another target of each iteration (`for col in
        // targets: y = df[col]; split; fit; score`) answers other
        // questions: no choice among its models.
        // A split drawn again at each iteration (in the loop, unseeded:
        // `for i in range(100): split; fit; score` to average the score)
        // gives each candidate its own test set.
        // A model made in that loop is still one candidate, scored on
        // several test sets (repeated hold-out), unless the loop's own
        // variable makes it (`for k in ks: split; KNN(k).fit; score`).
        let redrawn = ctx.in_loop
            && redrawn_in_loop(ctx.model, split)
            && !made_by_redrawing_loop(ctx.model, model, split);
        let tuned_in_loop = trained_in_loop
            && !redrawn
            && !target_varies_in_loop(ctx.model, split)
            && !labels_vary_in_loop(ctx.model, model);
        if alarms.on && (second || tuned_in_loop || (ctx.in_loop && !redrawn && count >= 2)) {
            let why = if count >= 2 {
                format!("{count} different models are evaluated on it")
            } else {
                format!(
                    "the model is trained in a loop {} and each candidate is evaluated on it",
                    site_text(ctx.model, model)
                )
            };
            alarms.push(Alarm {
                kind: AlarmKind::MultiTestLeakage,
                line: call.line,
                column: call.column,
                message: format!(
                    "the test set of {}{} is used to choose among models: {why}; choose on a validation split or with cross-validation, and touch the test set once",
                    split_text(ctx.model, split),
                    same_rows_text(ctx.model, split, data),
                ),
                involved: evals_entry(evals, split).into_iter().flatten().map(|&m| ctx.model.sites.cell(m)).chain([split_cell(ctx.model, split)]).collect(),
                // A choice among different models is one problem per
                // split, opened by the second model: later models join it.
                // A loop that tunes a model is a problem of its own.
                joins: (second && !tuned_in_loop && !ctx.in_loop).then(|| Joins {
                    key: split.as_u32(),
                    weight: count as u32,
                    opens: count == 2,
                }),
            });
        }
    }
}

/// The model trained at `model` stopped early on the held-out side of
/// `split` and is evaluated on it at `call`: that test set chose it.
pub(crate) fn stopped_early_on(model: Site, call: &Call, split: Site, ctx: &StmtCtx<'_>) -> Alarm {
    Alarm {
        kind: AlarmKind::MultiTestLeakage,
        line: call.line,
        column: call.column,
        message: format!(
            "the test set of {} is used to choose among models: `{}` {} stopped early on it (it kept the round that scored best there), and the model is then evaluated on it; stop early on a validation split and touch the test set once",
            split_text(ctx.model, split),
            short(&callee_at(ctx.model, model)),
            site_text(ctx.model, model),
        ),
        involved: vec![split_cell(ctx.model, split), ctx.model.sites.cell(model)],
        joins: None,
    }
}

/// The split made at `split` is made in a loop whose body rebinds the
/// labels it splits (its second argument): each iteration splits another
/// target.
fn target_varies_in_loop(model: &NotebookModel, split: Site) -> bool {
    let Some(program) = program_at(model, split) else {
        return false;
    };
    let Some(labels) = program
        .calls
        .get(model.sites.call(split) as usize)
        .and_then(|c| c.args[..positional(c)].get(1))
        .and_then(|a| match a {
            Op::Var(v) => Some(*v),
            _ => None,
        })
    else {
        return false;
    };
    let call = model.sites.call(split);
    let Some(at) = program.stmts.iter().position(|st| st.calls.contains(&call)) else {
        return false;
    };
    program.stmt_in_loop(at)
        && program.stmts.iter().enumerate().any(|(i, st)| {
            program.stmt_in_loop(i) && st.writes.contains(&(labels, WriteKind::Strong))
        })
}

/// The split made at `split` is made in a loop without a fixed seed (no
/// `random_state`, or the loop's own variable as one, and no
/// `shuffle=False`): each iteration draws other test rows.
fn redrawn_in_loop(model: &NotebookModel, split: Site) -> bool {
    let Some(cell) = model.cells.get(model.sites.cell(split)) else {
        return false;
    };
    let (Some(program), Some(parsed)) = (cell.program(), cell.parsed.as_deref()) else {
        return false;
    };
    let call = model.sites.call(split);
    let Some(at) = program.stmts.iter().position(|st| st.calls.contains(&call)) else {
        return false;
    };
    let in_loop = program.stmt_in_loop(at);
    let Some(c) = program.calls.get(call as usize) else {
        return false;
    };
    // A seed that is not the loop's own variable (`random_state=42`,
    // `random_state=SEED`), or `shuffle=False`, holds out the same rows at
    // every iteration.
    let varying = syntax::enclosing_loop_targets(parsed, (c.line, c.column));
    let seeded = syntax::keywords_at(parsed, c.line, c.column).is_some_and(|keywords| {
        keywords.iter().any(|(k, v)| {
            k == "random_state" && v != "None" && !varying.iter().any(|n| n == v)
                || k == "shuffle" && v == "False"
        })
    });
    in_loop && !seeded
}

/// The model trained at `site` is fitted, in a loop, on the column of
/// labels the loop's target names (`for c in categories: pipe.fit(X,
/// train[c])`): one model per target, each scored on its own labels.
fn labels_vary_in_loop(model: &NotebookModel, site: Site) -> bool {
    let (Some(program), Some(parsed)) = (program_at(model, site), parsed_at(model, site)) else {
        return false;
    };
    program
        .calls
        .get(model.sites.call(site) as usize)
        .is_some_and(|fit| syntax::labels_chosen_by_loop(parsed, (fit.line, fit.column)))
}

/// The model trained at `site` is made in a loop (see
/// [`model_made_in_loop`]) from what the innermost loop around the split
/// made at `split` binds (`for k in ks: X_tr, X_te, ... = split(...);
/// m = KNN(n_neighbors=k)`): each iteration's split tests another
/// candidate. A model made from an outer loop's variable only, or from
/// none, is the same candidate at every iteration of the split's loop.
fn made_by_redrawing_loop(model: &NotebookModel, site: Site, split: Site) -> bool {
    if !model_made_in_loop(model, site) {
        return false;
    }
    let (Some(program), Some(cell)) = (
        program_at(model, site),
        model.cells.get(model.sites.cell(site)),
    ) else {
        return true;
    };
    let (Some(split_call), Some(split_parsed)) = (call_at(model, split), parsed_at(model, split))
    else {
        return true;
    };
    if model.sites.cell(split) != cell.index {
        return true;
    }
    let varying =
        syntax::bound_in_innermost_loop(split_parsed, (split_call.line, split_call.column));
    let reads_varying = |st: &nbsight_model::program::Stmt| {
        st.reads
            .iter()
            .any(|&v| varying.iter().any(|n| n == model.vars.name(v)))
    };
    let Some(fit) = program.calls.get(model.sites.call(site) as usize) else {
        return true;
    };
    match fit.receiver {
        // Bound, or set (`knn.set_params(n_neighbors=k)`), in a loop from
        // what that loop binds again.
        Op::Var(receiver) => program.stmts.iter().enumerate().any(|(i, st)| {
            let set_params = format!("{}.set_params(", model.vars.name(receiver));
            let sets = st.reads.contains(&receiver)
                && parsed_at(model, site)
                    .and_then(|p| syntax::statement_text_at(p, (st.line, st.column)))
                    .is_some_and(|t| t.contains(&set_params));
            program.stmt_in_loop(i)
                && (st.writes.contains(&(receiver, WriteKind::Strong)) || sets)
                && reads_varying(st)
        }),
        // `Model(k).fit(X, y)`: made in the statement that fits it.
        _ => program
            .stmts
            .iter()
            .find(|st| st.calls.contains(&model.sites.call(site)))
            .is_none_or(reads_varying),
    }
}

/// The model fitted at `site` is made again in a loop of its cell (`for k
/// in ks: knn = KNeighborsClassifier(k)`): each iteration another
/// candidate. `knn.fit` in a loop on a `knn` made before is one model.
fn model_made_in_loop(model: &NotebookModel, site: Site) -> bool {
    let Some(program) = program_at(model, site) else {
        return false;
    };
    let Some(fit) = program.calls.get(model.sites.call(site) as usize) else {
        return false;
    };
    let Op::Var(receiver) = fit.receiver else {
        // `Model(k).fit(X, y)`: made where it is fitted.
        return true;
    };
    program.stmts.iter().enumerate().any(|(i, st)| {
        program.stmt_in_loop(i) && st.writes.contains(&(receiver, WriteKind::Strong))
    })
}

/// The variable holding the labels a model was fitted on (`y_train` in
/// `fit(X_train, y_train)`), when one variable does.
pub(crate) fn target_of(model: &NotebookModel, site: Site) -> Option<Var> {
    let call = model
        .cells
        .get(model.sites.cell(site))?
        .program()?
        .calls
        .get(model.sites.call(site) as usize)
        // A user function's arguments are not `fit(X, y)`'s.
        .filter(|call| !call.user)?;
    match call.args.get(1)? {
        Op::Var(v) => Some(*v),
        Op::Reads(vs) if vs.len() == 1 => Some(vs[0]),
        _ => None,
    }
}

/// Two models may be candidates for the same choice: they were fitted on
/// the same labels (the same variable, or the same side of equivalent
/// splits: `y_tr` and `y_tr2` of two `train_test_split(X, y,
/// random_state=0)`), or the labels of one are not known.
pub(crate) fn same_target(model: &NotebookModel, a: Option<Var>, b: Option<Var>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => {
            a == b || {
                let (x, y) = (label_origin(model, a), label_origin(model, b));
                x.is_some() && x == y
            }
        }
        _ => true,
    }
}

/// The split (the first of its equivalent ones) and the target position
/// that bind `var`, when one split call statement does.
pub(crate) fn label_origin(model: &NotebookModel, var: Var) -> Option<(Site, usize)> {
    let mut found = None;
    for cell in model.code_cells() {
        let Some(program) = cell.program() else {
            continue;
        };
        for stmt in &program.stmts {
            let Some(position) = stmt
                .writes
                .iter()
                .filter(|(_, kind)| *kind == WriteKind::Strong)
                .position(|(v, _)| *v == var)
            else {
                continue;
            };
            let split = stmt.calls.clone().rev().find_map(|i| {
                let call = program.calls.get(i as usize)?;
                (!call.consumed && call.has(Role::Split) && !call.method)
                    .then(|| model.sites.id(cell.index, i))
            });
            let origin = split.map(|s| (equivalent_split(model, s).unwrap_or(s), position));
            match (found, origin) {
                (_, None) => return None,
                (None, Some(o)) => found = Some(o),
                (Some(f), Some(o)) if f != o => return None,
                _ => {}
            }
        }
    }
    found
}

/// The held-out side of `split` is a validation set: the split was made
/// inside the training side of another split (the test data also carries
/// that side), or its held-out targets are named as validation data
/// (`X_val`, `y_valid`, `X_validation`, `X_dev`).
pub(crate) fn is_validation(model: &NotebookModel, split: Site, data: &Val) -> bool {
    let nested = data
        .tags
        .iter()
        .any(|t| matches!(t, Tag::Split(s, Side::Train) if s != split));
    nested || held_out_names(model, split).any(|name| names_validation(&name))
}

/// The names the held-out side of the split made at `split` is bound to
/// (the odd targets: `x_tr, x_te, y_tr, y_te`).
pub(crate) fn held_out_names(
    model: &NotebookModel,
    split: Site,
) -> impl Iterator<Item = String> + '_ {
    let call = model.sites.call(split);
    model
        .cells
        .get(model.sites.cell(split))
        .and_then(|c| c.program())
        .and_then(|p| p.stmts.iter().find(|st| st.calls.contains(&call)))
        .into_iter()
        .flat_map(|st| {
            st.writes
                .iter()
                .filter(|(_, kind)| *kind == WriteKind::Strong)
                .skip(1)
                .step_by(2)
        })
        .map(|(v, _)| model.vars.name(*v).to_ascii_lowercase())
}

/// `X_val`, `y_valid`, `Xval`, `X_validation`, `x_validate`, `valid_X`, `X_dev`.
pub(crate) fn names_validation(name: &str) -> bool {
    name.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|part| !part.is_empty())
        .any(|part| {
            matches!(
                part,
                "val" | "valid" | "validate" | "validation" | "dev" | "vali"
            ) || (part.len() <= 6
                && (part.ends_with("val") || part.ends_with("valid"))
                && !matches!(part, "interval" | "eval"))
        })
}

/// ` (the same rows the split (cell N, line L) holds out: same data, same
/// random_state)` when the test data went through a later split equivalent
/// to `split`.
pub(crate) fn same_rows_text(model: &NotebookModel, split: Site, data: &Val) -> String {
    data.tags
        .iter()
        .find_map(|t| match t {
            Tag::Split(s, Side::Test)
                if s != split && equivalent_split(model, s) == Some(split) =>
            {
                Some(format!(
                    " (the same rows {} holds out: the same data and `random_state`)",
                    split_text(model, s)
                ))
            }
            _ => None,
        })
        .unwrap_or_default()
}
