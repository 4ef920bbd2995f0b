//! Checking the notebooks: each is loaded and checked on rayon's thread pool
//! (`nbsight_check::check_notebook`, as every front end) with the rules its own configuration
//! enables, its suppression comments applied; then the results are gathered
//! into a [`Report`] in a deterministic order.

use indicatif::ProgressBar;
use nbsight_check::check_notebook;
use nbsight_dataflow::Effects;
use nbsight_notebook::{IpynbPositions, Notebook, SourceFormat};
use rayon::prelude::*;

use super::inputs::{Input, load};
use super::report::{Checked, Located, Report, diagnostics_of, problems_of};
use nbsight_check::config::Resolver;

/// Checks one loaded notebook; `text` is the file's text, which locates
/// findings in `.ipynb` files.
pub fn check_loaded(
    notebook: &Notebook,
    text: Option<&str>,
    effects: &Effects,
    rules: nbsight_check::RuleSet,
) -> Checked {
    let checked = check_notebook(notebook, effects, rules);
    let (findings, suppressed) = (checked.findings, checked.suppressed);
    // Syntax errors and load diagnostics in cells are located too.
    let diagnostics = diagnostics_of(notebook, &checked.syntax_errors);
    let in_cells = diagnostics.iter().any(|d| d.cell.is_some());
    let positions = match (notebook.format, text) {
        (SourceFormat::Ipynb, Some(text)) if !findings.is_empty() || in_cells => {
            Some(IpynbPositions::new(text))
        }
        _ => None,
    };
    Checked {
        findings: findings
            .into_iter()
            .map(|finding| Located::new(finding, notebook, positions.as_ref()))
            .collect(),
        problems: problems_of(diagnostics, notebook, positions.as_ref()),
        suppressed,
    }
}

/// Checks one input.
fn check_input(input: &Input, effects: &Effects, resolver: &Resolver) -> Result<Checked, String> {
    let settings = resolver
        .for_file(input.path())
        .map_err(|error| format!("{error:#}"))?;
    let (notebook, text) = load(input).map_err(|error| error.to_string())?;
    let rules = settings.rules_for(input.path());
    Ok(check_loaded(&notebook, text.as_deref(), effects, rules))
}

/// Checks every input in parallel; inputs that cannot be loaded (or whose
/// configuration is invalid) end up in [`Report::unreadable`].
pub fn check_all(
    inputs: &[Input],
    effects: &Effects,
    resolver: &Resolver,
    progress: &ProgressBar,
) -> Report {
    let results: Vec<Result<Checked, String>> = inputs
        .par_iter()
        .map(|input| {
            let result = check_input(input, effects, resolver);
            progress.inc(1);
            result
        })
        .collect();
    progress.finish_and_clear();
    let mut report = Report::default();
    for result in results {
        match result {
            Ok(checked) => report.add(checked),
            Err(error) => report.unreadable.push(error),
        }
    }
    report.sort();
    report
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use nbsight_check::config::CommandLine;

    #[test]
    fn unloadable_files_are_reported_and_the_others_checked() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.py");
        std::fs::write(&good, "# %%\nx = (\n").unwrap();
        let bad = dir.path().join("bad.ipynb");
        std::fs::write(&bad, "{").unwrap();
        let effects = Effects::builtin();
        let resolver = Resolver::new(CommandLine::default(), None, dir.path()).unwrap();
        let inputs: Vec<Input> = [bad, good].into_iter().map(Input::File).collect();
        let report = check_all(&inputs, &effects, &resolver, &ProgressBar::hidden());
        assert_eq!(report.notebooks, 1);
        assert_eq!(report.unreadable.len(), 1);
        assert!(report.unreadable[0].contains("bad.ipynb"));
        assert_eq!(report.errors(), 1, "the syntax error");
        let _ = PathBuf::new();
    }
}
