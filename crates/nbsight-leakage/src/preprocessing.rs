//! Preprocessing leakage (NBS101): statistics fitted on rows that include
//! the test rows. The detector's facts are the `Fitted`/`FittedSide` tags
//! and the user functions that fit ([`crate::functions`]) that the domain
//! carries; here are the alarms at an evaluation of a model trained and
//! tested on data both prepared so, and at a cross-validation on data
//! prepared before the folds, with their messages.

use nbsight_absint::{Alarm, AlarmKind, StmtCtx};
use nbsight_model::NotebookModel;
use nbsight_model::program::Call;
use nbsight_model::vars::Var;
use nbsight_notebook::OneIndexed;

use crate::functions;
use crate::text::{
    callee_at, cross_validates, evaluates, evaluation_alarm, site_of, site_text, split_cell,
    split_text,
};
use crate::value::{Site, Tag};

/// The fix an evaluation's alarm proposes.
const REFIT: &str = "statistics of the test rows leak into training; fit it on the training split only, or use a Pipeline";

/// At the evaluation `call` of the model trained at `model` on the training
/// side of `split`: the training and the test data both went through the
/// user function `f`, which fits statistics on the rows it is given.
pub(crate) fn evaluated_through(
    call: &Call,
    model: Site,
    split: Site,
    f: Var,
    ctx: &StmtCtx<'_>,
) -> Alarm {
    Alarm {
        kind: AlarmKind::PreprocessingLeakage,
        line: call.line,
        column: call.column,
        message: evaluates(
            call,
            model,
            &format!(
                "{}, among them those {} holds out",
                fitted_by_text(ctx.model, f),
                split_text(ctx.model, split),
            ),
            REFIT,
            ctx,
        ),
        involved: functions::definition_cell(ctx.model, ctx.cell, f)
            .into_iter()
            .chain([split_cell(ctx.model, split), ctx.model.sites.cell(model)])
            .collect(),
        joins: None,
    }
}

/// At the evaluation `call` of the model trained at `model` on the training
/// side of `split`: the training and the test data were both transformed
/// with statistics fitted at `fit` on rows that `split` later divided.
pub(crate) fn evaluated(
    call: &Call,
    model: Site,
    split: Site,
    fit: Site,
    ctx: &StmtCtx<'_>,
) -> Alarm {
    let what = if is_user_call(ctx.model, fit) {
        format!(
            "passed through `{}` {}, which fits statistics on the rows it is given, among them those {} holds out",
            callee_at(ctx.model, fit),
            site_text(ctx.model, fit),
            split_text(ctx.model, split),
        )
    } else {
        format!(
            "transformed with statistics `{}` {} fitted on rows that include those {} holds out",
            callee_at(ctx.model, fit),
            site_text(ctx.model, fit),
            split_text(ctx.model, split),
        )
    };
    evaluation_alarm(
        AlarmKind::PreprocessingLeakage,
        call,
        (model, split),
        Tag::Fitted(fit),
        (&what, REFIT),
        ctx,
    )
}

/// At a cross-validation by `name` at `(line, column)`: the data went
/// through the user function `f`, which fits statistics on all its rows.
pub(crate) fn cross_validated_through(
    name: &str,
    (line, column): (OneIndexed, OneIndexed),
    f: Var,
    ctx: &StmtCtx<'_>,
) -> Alarm {
    Alarm {
        kind: AlarmKind::PreprocessingLeakage,
        line,
        column,
        message: cross_validates(name, &fitted_by_text(ctx.model, f)),
        involved: functions::definition_cell(ctx.model, ctx.cell, f)
            .into_iter()
            .collect(),
        joins: None,
    }
}

/// At a cross-validation by `name` at `(line, column)`: the data was
/// transformed with statistics fitted on all its rows, or on all of a
/// split's training side (`tag`); `None` for other tags.
pub(crate) fn cross_validated(
    name: &str,
    (line, column): (OneIndexed, OneIndexed),
    tag: Tag,
    ctx: &StmtCtx<'_>,
) -> Option<Alarm> {
    let what = match tag {
        Tag::Fitted(s) => fitted_text(ctx.model, s),
        Tag::FittedSide(s) => fitted_side_text(ctx.model, s),
        _ => return None,
    };
    Some(Alarm {
        kind: AlarmKind::PreprocessingLeakage,
        line,
        column,
        message: cross_validates(name, &what),
        involved: vec![site_of(ctx.model, tag)],
        joins: None,
    })
}

pub(crate) fn fitted_by_text(model: &NotebookModel, f: Var) -> String {
    let name = model.vars.name(f);
    match model.function_definitions.get(&f).and_then(|d| d.first()) {
        Some((cell, _)) => format!(
            "passed through `{name}` (defined in cell {cell}), which fits statistics on the rows it is given"
        ),
        None => {
            format!("passed through `{name}`, which fits statistics on the rows it is given")
        }
    }
}

pub(crate) fn fitted_text(model: &NotebookModel, s: Site) -> String {
    if is_user_call(model, s) {
        return format!(
            "passed through `{}` {}, which fits statistics on all the rows it is given",
            callee_at(model, s),
            site_text(model, s)
        );
    }
    format!(
        "transformed with statistics `{}` fitted on all rows {}",
        callee_at(model, s),
        site_text(model, s)
    )
}

/// The call at `s` is a call of a user function (`X = prep(X)`).
fn is_user_call(model: &NotebookModel, s: Site) -> bool {
    crate::calls::call_at(model, s).is_some_and(|c| c.user)
}

pub(crate) fn fitted_side_text(model: &NotebookModel, s: Site) -> String {
    format!(
        "transformed with statistics `{}` fitted on all of a split's training side {}",
        callee_at(model, s),
        site_text(model, s)
    )
}
