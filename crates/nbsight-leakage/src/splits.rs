//! Splits as the detectors see them: which evaluation on a split's held-out
//! side can measure a model, and which earlier split a split repeats (same
//! data, same `random_state`).

use nbsight_dataflow::effects::Role;
use nbsight_model::NotebookModel;
use nbsight_model::program::Call;
use nbsight_model::vars::Var;

use smallvec::SmallVec;

use crate::calls::{call_at, positional};
use crate::syntax;
use crate::value::Site;

/// An evaluation on the held-out side of `split` that can measure the
/// model: any predict or score on a split function's side, but only a
/// score or metric on a part bound by slicing or sampling (named by where
/// its rows were read): notebooks that stack a competition's train and
/// test files and slice them apart again only predict the unlabelled tail.
pub(crate) fn scored(model: &NotebookModel, split: Site, call: &Call) -> bool {
    call.has(Role::Evaluate) || !call_at(model, split).is_some_and(|c| c.has(Role::ReadFile))
}

/// An earlier split equivalent to the split call at `site`: the same
/// function, on the same variables, with the same keyword arguments, made
/// reproducible by a `random_state` (or `shuffle=False`): it holds out the
/// same rows. The first such split (by site) names them all.
pub(crate) fn equivalent_split(model: &NotebookModel, site: Site) -> Option<Site> {
    let call = call_at(model, site)?;
    let cell = model.cells.get(model.sites.cell(site))?;
    let keywords = syntax::keywords_at(cell.parsed.as_deref()?, call.line, call.column)?;
    let reproducible = keywords
        .iter()
        .any(|(k, v)| k == "random_state" && v != "None" || k == "shuffle" && v == "False");
    if !reproducible {
        return None;
    }
    let data: SmallVec<[&[Var]; 3]> = call.args[..positional(call)]
        .iter()
        .map(|a| a.vars())
        .collect();
    for other in model.code_cells() {
        let Some(program) = other.program() else {
            continue;
        };
        for (i, c) in program.calls.iter().enumerate() {
            let s = model.sites.id(other.index, i as u32);
            if s >= site || s == nbsight_model::NO_SITE {
                continue;
            }
            let same = c.callee == call.callee
                && c.has(Role::Split)
                && !c.method
                && positional(c) == data.len()
                && c.args[..positional(c)]
                    .iter()
                    .zip(&data)
                    .all(|(a, d)| a.vars() == *d)
                && other
                    .parsed
                    .as_deref()
                    .and_then(|p| syntax::keywords_at(p, c.line, c.column))
                    == Some(keywords.clone());
            if same {
                return Some(s);
            }
        }
    }
    None
}
