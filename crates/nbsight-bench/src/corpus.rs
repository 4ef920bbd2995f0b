//! Finding the notebooks of a corpus and preparing them for measurement: the file
//! bytes are read into memory and the Python cell sources extracted once, so
//! neither file I/O nor source extraction is part of any timing.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use nbsight_notebook::load_ipynb_bytes;

/// Every `.ipynb` file under `root` (recursively, symlinks not followed), plus a
/// message for each directory that could not be read.
pub fn find_notebooks(root: &Path) -> (Vec<PathBuf>, Vec<String>) {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => {
                problems.push(format!("{}: cannot read directory: {e}", dir.display()));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    problems.push(format!("{}: cannot read entry: {e}", dir.display()));
                    continue;
                }
            };
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => pending.push(path),
                Ok(t) if t.is_file() && is_ipynb(&path) => found.push(path),
                Ok(_) => {}
                Err(e) => problems.push(format!("{}: {e}", path.display())),
            }
        }
    }
    found.sort();
    (found, problems)
}

fn is_ipynb(path: &Path) -> bool {
    path.extension().is_some_and(|ext| ext == "ipynb")
}

/// A notebook ready to be measured.
#[derive(Debug)]
pub struct Prepared {
    pub path: PathBuf,
    /// The whole `.ipynb` file.
    pub bytes: Vec<u8>,
    /// The Python text of each Python code cell, as `analyze_notebook` parses it.
    pub sources: Vec<String>,
    pub code_cells: usize,
}

impl Prepared {
    /// Reads and loads the notebook once; an error means it is skipped.
    pub fn read(path: &Path) -> Result<Prepared> {
        let bytes = fs::read(path).context("cannot read file")?;
        let notebook = load_ipynb_bytes(path, &bytes)?;
        let sources = notebook
            .cells
            .iter()
            .filter_map(|cell| cell.python_source())
            .map(|text| text.into_owned())
            .collect();
        Ok(Prepared {
            path: path.to_path_buf(),
            code_cells: notebook.code_cells().count(),
            bytes,
            sources,
        })
    }

    /// Bytes of Python source parsed per run.
    pub fn source_bytes(&self) -> usize {
        self.sources.iter().map(String::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_ipynb_extension() {
        assert!(is_ipynb(Path::new("a/b c.ipynb")));
        assert!(!is_ipynb(Path::new("a/b.py")));
        assert!(!is_ipynb(Path::new("ipynb")));
    }

    #[test]
    fn missing_root_is_a_problem_not_a_panic() {
        let (found, problems) = find_notebooks(Path::new("/nonexistent/nbsight-bench"));
        assert!(found.is_empty());
        assert_eq!(problems.len(), 1);
    }
}
