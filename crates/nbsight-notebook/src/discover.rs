//! Finding notebooks under a directory: every `.ipynb` file, recursively, in
//! a stable (sorted) order, skipping Jupyter's `.ipynb_checkpoints` copies and
//! not following symbolic links. Unreadable entries are reported, not fatal.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

/// What a directory scan found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Discovery {
    /// `.ipynb` files, sorted by path.
    pub notebooks: Vec<PathBuf>,
    /// Entries that could not be read, as messages naming the path.
    pub problems: Vec<String>,
}

/// `true` for a path ending in `.ipynb` (any case).
pub fn is_ipynb(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("ipynb"))
}

/// Every notebook under `root` (or `root` itself when it is a notebook).
pub fn find_notebooks(root: &Path) -> Discovery {
    let mut found = Discovery::default();
    let walker = WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| entry.file_name() != ".ipynb_checkpoints");
    for entry in walker {
        match entry {
            Ok(entry) if entry.file_type().is_file() && is_ipynb(entry.path()) => {
                found.notebooks.push(entry.into_path());
            }
            Ok(_) => {}
            Err(error) => found.problems.push(error.to_string()),
        }
    }
    found.notebooks.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_sorted_notebooks_and_skips_checkpoints() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for path in [
            "b.ipynb",
            "a/z.IPYNB",
            "a/notes.md",
            "a/.ipynb_checkpoints/z-checkpoint.ipynb",
        ] {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, "{}").expect("write");
        }
        let found = find_notebooks(root);
        assert_eq!(
            found.notebooks,
            vec![root.join("a/z.IPYNB"), root.join("b.ipynb")]
        );
        assert!(found.problems.is_empty());
        let missing = find_notebooks(&root.join("nope"));
        assert!(missing.notebooks.is_empty());
        assert_eq!(missing.problems.len(), 1);
    }
}
