//! Splits as the detectors see them: which evaluation on a split's held-out
//! side can measure a model, and which earlier split a split repeats (same
//! data, same `random_state`).

use nbsight_dataflow::effects::Role;
use nbsight_model::NotebookModel;
use nbsight_model::program::{Call, WriteKind};
use nbsight_model::vars::Var;
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
/// not read the variable itself (`X = X.drop(columns=...)` keeps its rows),
/// whose text is not that of a binding of the variable before `from` (the
/// same code run again makes the same data), and that reads none of the
/// data an earlier binding read, or reads some that was itself bound to
/// other data in between (`X = pd.read_csv("b.csv")`, not `X = df.loc[:,
/// cols]` after `X = df.loc[:, other_cols]`: the same rows of `df`).
fn rebound_between(
    model: &NotebookModel,
    from: (usize, OneIndexed),
    to: (usize, OneIndexed),
    data: &[&[Var]],
) -> bool {
    let vars: SmallVec<[Var; 4]> = data.iter().flat_map(|d| d.iter().copied()).collect();
    other_data_between(model, from, to, &vars, 3)
}

/// A binding of a variable: where (cell, line), the variable, the
/// statement's text and the data it reads (not imported names).
type Binding<'a> = ((usize, OneIndexed), Var, &'a str, SmallVec<[Var; 4]>);

fn other_data_between(
    model: &NotebookModel,
    from: (usize, OneIndexed),
    to: (usize, OneIndexed),
    vars: &[Var],
    depth: usize,
) -> bool {
    if depth == 0 {
        return false;
    }
    let imported = |v: Var| {
        model.code_cells().any(|c| {
            c.compiled
                .as_deref()
                .is_some_and(|x| x.imports.iter().any(|(w, _)| *w == v))
        })
    };
    // (position, variable, text, the data it reads) of every binding.
    let mut bindings: Vec<Binding<'_>> = Vec::new();
    for cell in model.code_cells() {
        let (Some(program), Some(parsed)) = (cell.program(), cell.parsed.as_deref()) else {
            continue;
        };
        for stmt in &program.stmts {
            for &(v, kind) in &stmt.writes {
                if kind != WriteKind::Strong || !vars.contains(&v) {
                    continue;
                }
                let text =
                    syntax::statement_text_at(parsed, (stmt.line, stmt.column)).unwrap_or("");
                let reads = stmt
                    .reads
                    .iter()
                    .copied()
                    .filter(|&r| !imported(r))
                    .collect();
                bindings.push(((cell.index, stmt.line), v, text, reads));
            }
        }
    }
    bindings.iter().any(|(at, v, text, reads)| {
        let earlier = || bindings.iter().filter(|(b, w, ..)| *b <= from && w == v);
        from < *at
            && *at < to
            && !reads.contains(v)
            && !earlier().any(|(_, _, t, _)| t == text)
            && (!earlier().any(|(.., r)| r.iter().any(|x| reads.contains(x)))
                || other_data_between(model, from, *at, reads, depth - 1))
    })
}
