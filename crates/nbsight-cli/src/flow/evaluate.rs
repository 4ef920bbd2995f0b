//! `nbsight flow --truth FILE` / `--truth-dir DIR`: scores each analysed
//! notebook against CRABS-format annotations and prints per-notebook and
//! macro/micro-averaged precision, recall, F1 and exact match of the flows
//! and of the transitive dependencies, with the ambiguities left.

use anyhow::{Context, bail};
use nbsight_flow::metrics::{NotebookScore, aggregate, render_table, score_notebook};
use std::path::Path;

use nbsight_flow::truth::{NotebookTruth, TruthError, find_truth, parse_truth_file};
use serde::Serialize;

use super::{Analysed, FlowArgs, FlowFormat, stem};

#[derive(Serialize)]
struct Evaluation<'a> {
    notebooks: &'a [NotebookScore],
    aggregate: nbsight_flow::metrics::Aggregate,
}

/// Reads and parses a truth file; errors name the file.
fn load_truth(path: &Path) -> Result<Vec<NotebookTruth>, TruthError> {
    let json = std::fs::read_to_string(path).map_err(|source| TruthError::Io {
        path: path.to_owned(),
        source,
    })?;
    parse_truth_file(path, &json)
}

pub fn run(args: &FlowArgs, analysed: &[Analysed]) -> anyhow::Result<()> {
    let shared: Option<Vec<NotebookTruth>> = match &args.truth {
        Some(file) => Some(load_truth(file)?),
        None => None,
    };
    let mut scores = Vec::new();
    for a in analysed {
        let stem = stem(&a.path)?;
        let owned;
        let truth: &NotebookTruth = match (&shared, &args.truth_dir) {
            (Some(all), _) if all.len() == 1 && all[0].name.is_none() => &all[0],
            (Some(all), _) => match find_truth(all, &stem) {
                Some(t) => t,
                None => {
                    eprintln!(
                        "nbsight: {}: no annotation in the truth file, skipped",
                        a.path.display()
                    );
                    continue;
                }
            },
            (None, Some(dir)) => {
                let file = dir.join(format!("{stem}.truth.json"));
                if !file.exists() {
                    eprintln!(
                        "nbsight: {}: no {} , skipped",
                        a.path.display(),
                        file.display()
                    );
                    continue;
                }
                owned = load_truth(&file)?;
                owned
                    .first()
                    .with_context(|| format!("{}: no notebook in the truth file", file.display()))?
            }
            (None, None) => bail!("--truth or --truth-dir is required to score"),
        };
        let code_cells = a
            .notebook
            .cells
            .iter()
            .filter(|c| c.kind == nbsight_notebook::CellKind::Code)
            .count();
        if let Some(n) = truth.code_cells
            && n != code_cells
        {
            eprintln!(
                "nbsight: {}: the truth has {n} code cells, the notebook {code_cells}",
                a.path.display()
            );
        }
        scores.push(score_notebook(
            &stem,
            &a.graph.code_flows(),
            truth,
            a.graph.unresolved(),
        ));
    }
    if scores.is_empty() {
        bail!("no notebook had an annotation to score against");
    }
    let total = aggregate(&scores);
    match args.format {
        FlowFormat::Json => {
            println!(
                "{}",
                serde_json::to_string_pretty(&Evaluation {
                    notebooks: &scores,
                    aggregate: total,
                })?
            );
        }
        _ => print!("{}", render_table(&scores, &total)),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_truth_file_that_cannot_be_read_is_named() {
        let e = load_truth(Path::new("/nonexistent/truth.json"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("/nonexistent/truth.json: cannot read file"),
            "{e}"
        );
    }
}
