//! What the detectors read of a call: the call at a site, its positional
//! arguments and its keywords.

use nbsight_model::NotebookModel;
use nbsight_model::program::{Call, Program};

use crate::value::Site;

/// The call made at call site `s`.
pub(crate) fn call_at(model: &NotebookModel, s: Site) -> Option<&Call> {
    model
        .cells
        .get(model.sites.cell(s))?
        .program()?
        .calls
        .get(model.sites.call(s) as usize)
}

/// The parse of the cell holding call site `s`.
pub(crate) fn parsed_at(model: &NotebookModel, s: Site) -> Option<&nbsight_notebook::ParsedCell> {
    model.cells.get(model.sites.cell(s))?.parsed.as_deref()
}

/// The program of the cell holding call site `s`.
pub(crate) fn program_at(model: &NotebookModel, s: Site) -> Option<&Program> {
    model.cells.get(model.sites.cell(s))?.program()
}

/// The number of positional arguments of a call (its arguments end with
/// the keyword ones).
pub(crate) fn positional(call: &Call) -> usize {
    (call.positional as usize).min(call.args.len())
}

/// The keyword of argument `i` of `call`, when it is a keyword argument.
pub(crate) fn keyword(call: &Call, i: usize) -> Option<&str> {
    i.checked_sub(positional(call))
        .and_then(|k| call.keywords.get(k))
        .map(|k| k.as_str())
}
