//! The command line's `NOTEBOOK_OR_DIR...` turned into the list of notebook
//! files to check: a file is taken as given (an `.ipynb` file or a percent
//! script), a directory is scanned recursively for `.ipynb` files.
//! Duplicates are dropped; entries a scan could not read are kept as errors.

use std::collections::HashSet;
use std::path::PathBuf;

use nbsight_notebook::find_notebooks;

/// The notebooks to check and what went wrong finding them.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Inputs {
    /// Files to load, in command-line order (directory contents sorted).
    pub notebooks: Vec<PathBuf>,
    /// Directory entries that could not be read (messages naming the path).
    pub unreadable: Vec<String>,
    /// Directories in which no notebook was found.
    pub empty_dirs: Vec<PathBuf>,
}

/// Expands `paths`. Paths that do not exist are kept: loading them reports
/// the error with the file's name.
pub fn collect(paths: &[PathBuf]) -> Inputs {
    let mut inputs = Inputs::default();
    let mut seen = HashSet::new();
    for path in paths {
        if path.is_dir() {
            let found = find_notebooks(path);
            if found.notebooks.is_empty() && found.problems.is_empty() {
                inputs.empty_dirs.push(path.clone());
            }
            inputs.unreadable.extend(found.problems);
            for notebook in found.notebooks {
                if seen.insert(notebook.clone()) {
                    inputs.notebooks.push(notebook);
                }
            }
        } else if seen.insert(path.clone()) {
            inputs.notebooks.push(path.clone());
        }
    }
    inputs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_directories_and_duplicates() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("sub/empty")).unwrap();
        for name in ["sub/b.ipynb", "sub/a.ipynb", "script.py"] {
            std::fs::write(root.join(name), "{}").unwrap();
        }
        let given = [
            root.join("script.py"),
            root.join("sub"),
            root.join("sub/a.ipynb"),
            root.join("missing.ipynb"),
            root.join("sub/empty"),
        ];
        let inputs = collect(&given);
        assert_eq!(
            inputs.notebooks,
            [
                root.join("script.py"),
                root.join("sub/a.ipynb"),
                root.join("sub/b.ipynb"),
                root.join("missing.ipynb"),
            ]
        );
        assert_eq!(inputs.empty_dirs, [root.join("sub/empty")]);
        assert!(inputs.unreadable.is_empty());
    }
}
