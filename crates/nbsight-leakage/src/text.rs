//! The words leakage messages share: where a call site is (`(cell N, line
//! L)`), what a split is called, the test data's name, and the sentences an
//! evaluation's or a cross-validation's alarm is written in.

use nbsight_absint::{Alarm, AlarmKind, StmtCtx};
use nbsight_dataflow::effects::Role;
use nbsight_model::NotebookModel;
use nbsight_model::program::{Call, Op, WriteKind};
use nbsight_model::vars::Var;
use nbsight_notebook::OneIndexed;

use crate::calls::call_at;
use crate::splits::comes_from;
use crate::syntax;
use crate::value::{Site, Tag};

/// `(cell N, line L)` for a call site.
pub(crate) fn site_text(model: &NotebookModel, s: Site) -> String {
    let cell = model.sites.cell(s);
    match model.cells.get(cell).and_then(|c| c.program()) {
        Some(p) => match p.calls.get(model.sites.call(s) as usize) {
            Some(call) => format!("(cell {cell}, line {})", call.line),
            None => format!("(cell {cell})"),
        },
        None => format!("(cell {cell})"),
    }
}

/// `the split (cell N, line L)`, or for a split made by slicing or
/// sampling data in separate statements (named by where its rows were
/// read), `the split by slicing or sampling (cell N, line L)` at the
/// statement that holds the rows out ([`held_out_at`]).
pub(crate) fn split_text(model: &NotebookModel, s: Site) -> String {
    let read = call_at(model, s).is_some_and(|c| c.has(Role::ReadFile));
    if !read {
        return format!("the split {}", site_text(model, s));
    }
    match held_out_at(model, s) {
        Some((cell, line)) => {
            format!("the split by slicing or sampling (cell {cell}, line {line})")
        }
        None => format!(
            "the split by slicing or sampling of the rows read {}",
            site_text(model, s)
        ),
    }
}

/// The cell where the split `s` is made: the split call's, or the cell of
/// the statement holding the rows out of a split by slicing or sampling.
pub(crate) fn split_cell(model: &NotebookModel, s: Site) -> usize {
    let read = call_at(model, s).is_some_and(|c| c.has(Role::ReadFile));
    read.then(|| held_out_at(model, s))
        .flatten()
        .map_or_else(|| model.sites.cell(s), |(cell, _)| cell)
}

/// For a split by slicing or sampling of the rows read at `read`, the
/// first statement after the read, in notebook order, that binds a
/// held-out part with a complement (`X_test = X[n:]`, `test =
/// df.drop(train.index)`): its cell and line.
fn held_out_at(model: &NotebookModel, read: Site) -> Option<(usize, OneIndexed)> {
    let (read_cell, read_line) = (model.sites.cell(read), call_at(model, read)?.line);
    // The variables the read binds (`df = pd.read_csv(...)`).
    let call = model.sites.call(read);
    let read_into: Vec<Var> = model
        .cells
        .get(read_cell)?
        .program()?
        .stmts
        .iter()
        .find(|st| st.calls.contains(&call))?
        .writes
        .iter()
        .filter(|(_, kind)| *kind == WriteKind::Strong)
        .map(|(v, _)| *v)
        .collect();
    model
        .code_cells()
        .filter(|c| c.index >= read_cell)
        .find_map(|cell| {
            let (program, parsed) = (cell.program()?, cell.parsed.as_deref()?);
            program
                .stmts
                .iter()
                .filter(|st| cell.index > read_cell || st.line > read_line)
                .find(|st| {
                    syntax::part_at(parsed, st.line, st.column).is_some_and(|part| {
                        matches!(part, syntax::Part::Tail { .. } | syntax::Part::Rest { .. })
                            && syntax::has_complement(model, &part)
                            // Rows of this read, not of other data.
                            && model.vars.get(part.base()).is_some_and(|base| {
                                comes_from(model, base, &read_into, (cell.index, st.line))
                            })
                    })
                })
                .map(|st| (cell.index, st.line))
        })
}

/// The last part of a dotted name.
pub(crate) fn short(callee: &str) -> &str {
    callee.rsplit('.').next().unwrap_or(callee)
}

pub(crate) fn callee_at(model: &NotebookModel, s: Site) -> String {
    model
        .cells
        .get(model.sites.cell(s))
        .and_then(|c| c.program())
        .and_then(|p| p.calls.get(model.sites.call(s) as usize))
        .map(|c| short(&c.callee).to_string())
        .unwrap_or_else(|| "fit".into())
}

/// The cell of the site a leaky tag names.
pub(crate) fn site_of(model: &NotebookModel, tag: Tag) -> usize {
    model.sites.cell(tag.site())
}

/// The name of the variable holding the test data, for messages.
pub(crate) fn test_data_name(call: &Call, ctx: &StmtCtx<'_>) -> String {
    call.args
        .iter()
        .find_map(|a| match a {
            Op::Var(v) => Some(format!("`{}`", ctx.model.vars.name(*v))),
            _ => None,
        })
        .unwrap_or_else(|| "the test data".into())
}

/// The message of a leak through a model's training and test data, seen at
/// the evaluation `call` of the model trained at `model`: the data were
/// both `what`, so `fix`.
pub(crate) fn evaluates(
    call: &Call,
    model: Site,
    what: &str,
    fix: &str,
    ctx: &StmtCtx<'_>,
) -> String {
    format!(
        "`{}` evaluates the model trained {} on {}, but the training and test data were both {what}: {fix}",
        short(&call.callee),
        site_text(ctx.model, model),
        test_data_name(call, ctx),
    )
}

/// The alarm of a leak of `kind` through a model's training and test data,
/// at the evaluation `call` of the model trained at `model` on the training
/// side of `split`: the data were both `what` at the site `tag` names (a
/// fit, a resampling), so `fix`. It involves that site's cell, the split's
/// and the model's.
pub(crate) fn evaluation_alarm(
    kind: AlarmKind,
    call: &Call,
    (model, split): (Site, Site),
    tag: Tag,
    (what, fix): (&str, &str),
    ctx: &StmtCtx<'_>,
) -> Alarm {
    Alarm {
        kind,
        line: call.line,
        column: call.column,
        message: evaluates(call, model, what, fix, ctx),
        involved: vec![
            site_of(ctx.model, tag),
            split_cell(ctx.model, split),
            ctx.model.sites.cell(model),
        ],
        joins: None,
    }
}

/// The message of a leak seen at a cross-validation by `name` on data
/// that was `what`.
pub(crate) fn cross_validates(name: &str, what: &str) -> String {
    format!(
        "`{name}` cross-validates on data {what}, before the folds are split: every fold's test part leaks into its training part; put that step in a Pipeline"
    )
}
