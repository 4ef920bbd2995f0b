//! Splits as the detectors see them: which evaluation on a split's held-out
//! side can measure a model, and which earlier split a split repeats (same
//! data, same `random_state`).

use nbsight_dataflow::effects::Role;
use nbsight_model::NotebookModel;
use nbsight_model::program::{Call, WriteKind};
use nbsight_model::vars::{Var, VarSet};
use nbsight_notebook::OneIndexed;

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
/// reproducible by a `random_state` (or `shuffle=False`), and the variables
/// not bound to other data in between: it holds out the same rows. The
/// first such split (by site) names them all.
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
            if same
                && !rebound_between(model, (other.index, c.line), (cell.index, call.line), &data)
            {
                return Some(s);
            }
        }
    }
    None
}

/// Whether a statement placed after `from` and before `to` (cell, line) in
/// notebook order binds one of `data` to other data: a binding that does
/// not read the variable itself (one that does, `X = X.drop(columns=...)`,
/// is taken to keep its rows; a row filter `X = X[X.a > 0]` does not, a
/// known imprecision),
/// whose text is not that of a binding of the variable before `from` (the
/// same code run again makes the same data), and whose data comes from
/// none of the data the earlier bindings came from, or from some that was
/// itself bound to other data in between (`X = pd.read_csv("b.csv")`, not
/// `X = df2.loc[:, cols]` after `X = df.loc[:, other_cols]` with `df2 =
/// df.copy()`: the same rows of `df`).
fn rebound_between(
    model: &NotebookModel,
    from: (usize, OneIndexed),
    to: (usize, OneIndexed),
    data: &[&[Var]],
) -> bool {
    let vars: SmallVec<[Var; 4]> = data.iter().flat_map(|d| d.iter().copied()).collect();
    other_data_between(&bindings(model), from, to, &vars, 3)
}

/// A binding of a variable: where (cell, line), the variable, where the
/// statement is (its text is read only when compared) and the data it
/// reads (not imported names).
type Binding<'a> = ((usize, OneIndexed), Var, Place<'a>, SmallVec<[Var; 4]>);

/// A statement of a parsed cell: its text on demand.
#[derive(Clone, Copy)]
struct Place<'a> {
    parsed: &'a nbsight_notebook::ParsedCell,
    at: (OneIndexed, OneIndexed),
}

impl<'a> Place<'a> {
    fn text(self) -> &'a str {
        syntax::statement_text_at(self.parsed, self.at).unwrap_or("")
    }
}

/// Every strong binding of a variable in the notebook's top-level code.
fn bindings(model: &NotebookModel) -> Vec<Binding<'_>> {
    let imported: VarSet = model
        .code_cells()
        .filter_map(|c| c.compiled.as_deref())
        .flat_map(|x| x.imports.iter().map(|(v, _)| *v))
        .collect();
    let mut found = Vec::new();
    for cell in model.code_cells() {
        let (Some(program), Some(parsed)) = (cell.program(), cell.parsed.as_deref()) else {
            continue;
        };
        for stmt in &program.stmts {
            for &(v, kind) in &stmt.writes {
                if kind != WriteKind::Strong {
                    continue;
                }
                let place = Place {
                    parsed,
                    at: (stmt.line, stmt.column),
                };
                let reads = stmt
                    .reads
                    .iter()
                    .copied()
                    .filter(|&r| !imported.contains(r))
                    .collect();
                found.push(((cell.index, stmt.line), v, place, reads));
            }
        }
    }
    found
}

/// `var`, as bound before `before`, comes from the data of one of `sources`
/// (is one, or its bindings read one, transitively).
pub(crate) fn comes_from(
    model: &NotebookModel,
    var: Var,
    sources: &[Var],
    before: (usize, OneIndexed),
) -> bool {
    origins(&bindings(model), &[var], before)
        .iter()
        .any(|v| sources.contains(v))
}

/// The data `start` comes from before `before`: the variables themselves
/// and, transitively, what their earlier bindings read.
fn origins(bindings: &[Binding<'_>], start: &[Var], before: (usize, OneIndexed)) -> Vec<Var> {
    let mut seen: Vec<Var> = start.to_vec();
    let mut i = 0;
    while let Some(&v) = seen.get(i) {
        for (at, w, _, reads) in bindings {
            if *w == v && *at < before {
                for &r in reads {
                    if !seen.contains(&r) {
                        seen.push(r);
                    }
                }
            }
        }
        i += 1;
    }
    seen
}

fn other_data_between(
    bindings: &[Binding<'_>],
    from: (usize, OneIndexed),
    to: (usize, OneIndexed),
    vars: &[Var],
    depth: usize,
) -> bool {
    if depth == 0 {
        return false;
    }
    bindings.iter().any(|(at, v, place, reads)| {
        if !(vars.contains(v) && from < *at && *at < to && !reads.contains(v)) {
            return false;
        }
        let earlier = || bindings.iter().filter(|(b, w, ..)| *b <= from && w == v);
        let text = place.text();
        if earlier().any(|(_, _, p, _)| p.text() == text) {
            return false;
        }
        let before: Vec<Var> = earlier().flat_map(|(.., r)| r.iter().copied()).collect();
        let theirs = origins(bindings, &before, from);
        let shared: Vec<Var> = origins(bindings, reads, *at)
            .into_iter()
            .filter(|x| theirs.contains(x))
            .collect();
        shared.is_empty() || other_data_between(bindings, from, *at, &shared, depth - 1)
    })
}
