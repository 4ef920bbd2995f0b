//! Checking the notebooks: each is loaded and checked on rayon's thread pool
//! (`nbsight_check::check_notebook`), then the results are gathered into a
//! [`Report`] in a deterministic order.

use std::path::{Path, PathBuf};

use indicatif::ProgressBar;
use nbsight_check::{RuleSet, check_notebook};
use nbsight_dataflow::Effects;
use nbsight_notebook::{LoadError, load_path};
use rayon::prelude::*;

use super::report::{Checked, Located, Report, problems_of};

/// Checks one notebook file.
pub fn check_file(path: &Path, effects: &Effects, rules: RuleSet) -> Result<Checked, LoadError> {
    let notebook = load_path(path)?;
    let findings = check_notebook(&notebook, effects, rules)
        .into_iter()
        .map(|finding| Located::new(finding, &notebook))
        .collect();
    Ok(Checked {
        findings,
        problems: problems_of(&notebook),
    })
}

/// Checks every notebook in parallel; files that cannot be loaded end up in
/// [`Report::unreadable`].
pub fn check_all(
    paths: &[PathBuf],
    effects: &Effects,
    rules: RuleSet,
    progress: &ProgressBar,
) -> Report {
    let results: Vec<Result<Checked, LoadError>> = paths
        .par_iter()
        .map(|path| {
            let result = check_file(path, effects, rules);
            progress.inc(1);
            result
        })
        .collect();
    progress.finish_and_clear();
    let mut report = Report::default();
    for result in results {
        match result {
            Ok(checked) => report.add(checked),
            Err(error) => report.unreadable.push(error.to_string()),
        }
    }
    report.sort();
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unloadable_files_are_reported_and_the_others_checked() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.py");
        std::fs::write(&good, "# %%\nx = (\n").unwrap();
        let bad = dir.path().join("bad.ipynb");
        std::fs::write(&bad, "{").unwrap();
        let effects = Effects::builtin();
        let report = check_all(
            &[bad, good],
            &effects,
            RuleSet::all(),
            &ProgressBar::hidden(),
        );
        assert_eq!(report.notebooks, 1);
        assert_eq!(report.unreadable.len(), 1);
        assert!(report.unreadable[0].contains("bad.ipynb"));
        assert_eq!(report.errors(), 1, "the syntax error");
    }
}
