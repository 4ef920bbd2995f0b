//! Overlap leakage (NBS102): test rows in the training data. The detector
//! looks at an evaluation: rows resampled or augmented before the split
//! that separated training and test data (`Resampled` tags on both), or
//! held-out rows put back into the training data or never split off it;
//! and at a cross-validation on resampled data. Here are those checks and
//! their messages.

use nbsight_absint::{Alarm, AlarmKind, Alarms, StmtCtx};
use nbsight_dataflow::effects::Role;
use nbsight_model::NotebookModel;
use nbsight_model::program::Call;
use nbsight_notebook::OneIndexed;

use crate::calls::call_at;
use crate::models::Trained;
use crate::splits::{equivalent_split, scored};
use crate::text::{
    callee_at, cross_validates, evaluation_alarm, short, site_of, site_text, split_cell,
    split_text, test_data_name,
};
use crate::value::{Side, Site, Tag, Val};

/// At the evaluation `call` of the model trained at `model` on the training
/// side of `split`: the training and the test data both hold rows
/// resampled at `resample` before `split` separated them.
pub(crate) fn evaluated(
    call: &Call,
    model: Site,
    split: Site,
    resample: Site,
    ctx: &StmtCtx<'_>,
) -> Alarm {
    let what = format!(
        "{}, before {} separated them",
        resampled_text(ctx.model, resample),
        split_text(ctx.model, split),
    );
    let fix = "test rows (or copies of them) are also in the training set; resample the training split only";
    evaluation_alarm(
        AlarmKind::OverlapLeakage,
        call,
        (model, split),
        Tag::Resampled(resample),
        (&what, fix),
        ctx,
    )
}

/// At a cross-validation by `name` at `(line, column)` on data resampled at
/// `resample` before the folds are split.
pub(crate) fn cross_validated(
    name: &str,
    (line, column): (OneIndexed, OneIndexed),
    resample: Site,
    ctx: &StmtCtx<'_>,
) -> Alarm {
    Alarm {
        kind: AlarmKind::OverlapLeakage,
        line,
        column,
        message: cross_validates(name, &resampled_text(ctx.model, resample)),
        involved: vec![site_of(ctx.model, Tag::Resampled(resample))],
        joins: None,
    }
}

/// The model was trained on the training side of `split`, or of a split
/// holding out the same rows (the same data, the same `random_state`).
fn trained_on_side_of(model: &NotebookModel, trained: &Trained, split: Site) -> bool {
    let first = |s: Site| equivalent_split(model, s).unwrap_or(s);
    let target = first(split);
    trained.data.tags.iter().any(|t| match t {
        Tag::Split(s, Side::Train) => s == split || first(s) == target,
        _ => false,
    })
}

/// Overlap leakage at an evaluation: the test data is the held-out side
/// of a split, and the model's training data holds that side's rows
/// too, because they were put back into it (`pd.concat([X_train,
/// X_test])`) or because it was trained on the rows before that split
/// separated them (`model.fit(X, y)`, then scored on `X_test`).
pub(crate) fn held_out_rows(
    model: Site,
    call: &Call,
    data: &Val,
    trained: &Trained,
    ctx: &StmtCtx<'_>,
    alarms: &mut Alarms,
) {
    for tag in data.tags.iter() {
        let Tag::Split(split, Side::Test) = tag else {
            continue;
        };
        if !scored(ctx.model, split, call) {
            continue;
        }
        let (why, source) = if trained.data.has(Tag::Split(split, Side::Test)) {
            (
                "its training data also holds those held-out rows (put back into it)".to_string(),
                None,
            )
        } else if !trained_on_side_of(ctx.model, trained, split)
            && !on_opposite_sides(&trained.data, data)
            && let Some(r) = trained.data.sources().find(|&r| data.has(Tag::Source(r)))
        {
            (
                format!(
                    "it was trained on all the rows read {}, before the split separated them",
                    site_text(ctx.model, r)
                ),
                Some(ctx.model.sites.cell(r)),
            )
        } else {
            continue;
        };
        alarms.push(Alarm {
            kind: AlarmKind::OverlapLeakage,
            line: call.line,
            column: call.column,
            message: format!(
                "`{}` evaluates the model trained {} on {}, the held-out side of {}, but {why}: the test rows are in the training set; train on the training side only",
                short(&call.callee),
                site_text(ctx.model, model),
                test_data_name(call, ctx),
                split_text(ctx.model, split),
            ),
            involved: source
                .into_iter()
                .chain([split_cell(ctx.model, split), ctx.model.sites.cell(model)])
                .collect(),
            joins: None,
        });
    }
}

pub(crate) fn resampled_text(model: &NotebookModel, s: Site) -> String {
    if call_at(model, s).is_some_and(|c| c.has(Role::ReadFile)) {
        return format!(
            "augmented with altered copies of their own rows (read {}) stacked onto them",
            site_text(model, s)
        );
    }
    format!(
        "resampled by `{}` {}",
        callee_at(model, s),
        site_text(model, s)
    )
}

/// The training and the test data lie on opposite sides of some split:
/// they share no row (a validation set carved from the test side, a model
/// of the training side).
pub(crate) fn on_opposite_sides(train: &Val, test: &Val) -> bool {
    train.tags.iter().any(|t| match t {
        Tag::Split(s, Side::Train) => {
            test.has(Tag::Split(s, Side::Test)) && !test.has(Tag::Split(s, Side::Train))
        }
        Tag::Split(s, Side::Test) => {
            test.has(Tag::Split(s, Side::Train)) && !test.has(Tag::Split(s, Side::Test))
        }
        _ => false,
    })
}
