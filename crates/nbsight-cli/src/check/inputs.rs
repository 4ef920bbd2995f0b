//! The command line's `NOTEBOOK_OR_DIR...` turned into the inputs to check,
//! and their loading.
//!
//! A file named on the command line is checked as given (an `.ipynb` file, or
//! a percent script: a text file with `# %%` cell markers; any other file is
//! an error, not Python read as one cell). A directory is scanned recursively
//! for `.ipynb` files as ruff scans for Python files: `.gitignore`,
//! `.ignore` and `.git/info/exclude` are respected (inside a repository or
//! not), hidden files and folders are skipped, and so is any file or folder
//! matching the exclusions (by default `.venv`, `venv`, `node_modules`,
//! `build`, `dist`, `site-packages`, `.ipynb_checkpoints`; `--exclude`
//! replaces them, `--extend-exclude` adds to them; with `--force-exclude`
//! they apply to named files too, by the file's or any folder's name or by
//! the path). `-` reads one notebook
//! from standard input, named by `--stdin-filename`. Duplicates are dropped;
//! entries a scan could not read are kept as errors.

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use nbsight_notebook::{
    LoadError, Notebook, has_percent_marker, is_ipynb, load_ipynb_str, load_percent_str,
};

/// The path shown for an input read from standard input without a name.
pub const STDIN_NAME: &str = "-";

/// `true` for the `-` argument.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN_NAME
}

/// What directory scans skip unless `--exclude` says otherwise.
pub const DEFAULT_EXCLUDE: [&str; 7] = [
    ".venv",
    "venv",
    "node_modules",
    "build",
    "dist",
    "site-packages",
    ".ipynb_checkpoints",
];

/// One notebook to check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    File(PathBuf),
    /// Read from standard input; `path` names it in the output.
    Stdin {
        path: PathBuf,
        text: String,
    },
}

impl Input {
    /// The path shown in the output (and whose configuration applies).
    pub fn path(&self) -> &Path {
        match self {
            Input::File(path) | Input::Stdin { path, .. } => path,
        }
    }
}

/// The inputs and what went wrong finding them.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Inputs {
    /// In command-line order (directory contents sorted).
    pub notebooks: Vec<Input>,
    /// Entries that could not be read (messages naming the path).
    pub unreadable: Vec<String>,
    /// Directories in which no notebook was found.
    pub empty_dirs: Vec<PathBuf>,
}

/// The glob patterns a directory scan skips, matched against a file or
/// folder's name and its path below the scanned directory.
#[derive(Debug, Clone)]
pub struct Excludes {
    set: GlobSet,
    /// Applied to files named on the command line too (`--force-exclude`),
    /// matched below this directory (the current one).
    forced: Option<PathBuf>,
}

impl Excludes {
    /// `exclude` replaces the defaults when given; `extend` adds to them.
    pub fn new(exclude: Option<&[String]>, extend: &[String]) -> anyhow::Result<Self> {
        let mut builder = GlobSetBuilder::new();
        let defaults: Vec<String> = DEFAULT_EXCLUDE.iter().map(ToString::to_string).collect();
        for pattern in exclude.unwrap_or(&defaults).iter().chain(extend) {
            let glob = Glob::new(pattern.trim_end_matches('/'))
                .map_err(|e| anyhow::anyhow!("invalid exclude pattern: {e}"))?;
            builder.add(glob);
        }
        Ok(Excludes {
            set: builder.build()?,
            forced: None,
        })
    }

    /// These exclusions, applied to named files too when `forced`.
    #[must_use]
    pub fn forced(self, forced: bool) -> Self {
        let forced = forced.then(|| std::env::current_dir().unwrap_or_default());
        Excludes { forced, ..self }
    }

    /// A file named on the command line that `--force-exclude` skips: the
    /// path, its name or the name of a folder on it (below the current
    /// directory) matches.
    fn skips_named(&self, path: &Path) -> bool {
        let Some(cwd) = &self.forced else {
            return false;
        };
        let path = path.strip_prefix(cwd).unwrap_or(path);
        self.set.is_match(path)
            || path
                .ancestors()
                .filter_map(Path::file_name)
                .any(|name| self.set.is_match(Path::new(name)))
    }

    fn excludes(&self, root: &Path, path: &Path) -> bool {
        let name = path.file_name().map(Path::new);
        let below = path.strip_prefix(root).unwrap_or(path);
        name.is_some_and(|name| self.set.is_match(name))
            || (!below.as_os_str().is_empty() && self.set.is_match(below))
    }
}

impl Default for Excludes {
    fn default() -> Self {
        // The defaults are valid patterns.
        Excludes::new(None, &[]).unwrap_or(Excludes {
            set: GlobSet::empty(),
            forced: None,
        })
    }
}

/// Expands `paths`. Paths that do not exist are kept: loading them reports
/// the error with the file's name. `-` reads standard input (`stdin`).
pub fn collect(
    paths: &[PathBuf],
    excludes: &Excludes,
    stdin_name: Option<&Path>,
    stdin: &mut dyn Read,
) -> Inputs {
    let mut inputs = Inputs::default();
    let mut seen = HashSet::new();
    for path in paths {
        if is_stdin(path) {
            if stdin_name.is_some_and(|name| excludes.skips_named(name)) {
                continue;
            }
            let mut text = String::new();
            match stdin.read_to_string(&mut text) {
                Ok(_) => inputs.notebooks.push(Input::Stdin {
                    path: stdin_name.unwrap_or(Path::new(STDIN_NAME)).to_path_buf(),
                    text,
                }),
                Err(error) => inputs
                    .unreadable
                    .push(format!("{STDIN_NAME}: cannot read standard input: {error}")),
            }
        } else if path.is_dir() {
            let before = inputs.notebooks.len();
            let problems = inputs.unreadable.len();
            scan(path, excludes, &mut inputs, &mut seen);
            if inputs.notebooks.len() == before && inputs.unreadable.len() == problems {
                inputs.empty_dirs.push(path.clone());
            }
        } else if !excludes.skips_named(path) && seen.insert(path.clone()) {
            inputs.notebooks.push(Input::File(path.clone()));
        }
    }
    inputs
}

/// Files to analyse and what could not be read, for the commands that take
/// notebooks and directories but no standard input (`flow`).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Files {
    pub notebooks: Vec<PathBuf>,
    pub unreadable: Vec<String>,
}

/// [`collect`] with the default exclusions, as paths.
pub fn collect_files(paths: &[PathBuf]) -> Files {
    let inputs = collect(paths, &Excludes::default(), None, &mut std::io::empty());
    Files {
        notebooks: inputs
            .notebooks
            .iter()
            .map(|input| input.path().to_path_buf())
            .collect(),
        unreadable: inputs.unreadable,
    }
}

/// The `.ipynb` files under `root`, sorted, as described above.
fn scan(root: &Path, excludes: &Excludes, inputs: &mut Inputs, seen: &mut HashSet<PathBuf>) {
    let filter_root = root.to_path_buf();
    let filter = excludes.clone();
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .ignore(true)
        .parents(true)
        .require_git(false)
        .follow_links(false)
        .sort_by_file_name(Ord::cmp)
        .filter_entry(move |entry| {
            entry.depth() == 0 || !filter.excludes(&filter_root, entry.path())
        })
        .build();
    let mut found = Vec::new();
    for entry in walker {
        match entry {
            Ok(entry)
                if entry.file_type().is_some_and(|t| t.is_file()) && is_ipynb(entry.path()) =>
            {
                found.push(entry.into_path());
            }
            Ok(_) => {}
            Err(error) => inputs.unreadable.push(error.to_string()),
        }
    }
    found.sort();
    for path in found {
        if seen.insert(path.clone()) {
            inputs.notebooks.push(Input::File(path));
        }
    }
}

/// Loads an input: the notebook and, for `.ipynb` documents, the file's text
/// (which locates findings in it).
pub fn load(input: &Input) -> Result<(Notebook, Option<String>), LoadError> {
    let (path, bytes) = match input {
        Input::File(path) => {
            let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
                path: path.clone(),
                source,
            })?;
            (path.as_path(), bytes)
        }
        Input::Stdin { path, text } => (path.as_path(), text.clone().into_bytes()),
    };
    let text = String::from_utf8(bytes).map_err(|e| LoadError::NotUtf8 {
        path: path.to_path_buf(),
        offset: e.utf8_error().valid_up_to(),
    })?;
    let from_stdin = matches!(input, Input::Stdin { .. });
    let looks_like_json = text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('{');
    if is_ipynb(path) || (from_stdin && looks_like_json) {
        let notebook = load_ipynb_str(path, &text)?;
        return Ok((notebook, Some(text)));
    }
    if !has_percent_marker(&text) {
        return Err(LoadError::NotANotebook {
            path: path.to_path_buf(),
            reason: "neither an .ipynb file nor a percent script (no `# %%` cell marker)"
                .to_string(),
        });
    }
    Ok((
        load_percent_str(path, text.trim_start_matches('\u{feff}')),
        None,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(inputs: &Inputs) -> Vec<PathBuf> {
        inputs
            .notebooks
            .iter()
            .map(|i| i.path().to_path_buf())
            .collect()
    }

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
        let inputs = collect(&given, &Excludes::default(), None, &mut std::io::empty());
        assert_eq!(
            files(&inputs),
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

    #[test]
    fn force_exclude_applies_to_named_files() {
        let named = [
            PathBuf::from("nbs/keep.ipynb"),
            PathBuf::from("venv/lib/x.ipynb"),
            PathBuf::from("scratch/tmp.ipynb"),
        ];
        let excludes = Excludes::new(None, &["scratch/*".to_string()]).unwrap();
        let run =
            |excludes: &Excludes| files(&collect(&named, excludes, None, &mut std::io::empty()));
        assert_eq!(run(&excludes), named);
        assert_eq!(
            run(&excludes.clone().forced(true)),
            [PathBuf::from("nbs/keep.ipynb")]
        );
        // Standard input named by an excluded path is skipped too.
        let stdin = collect(
            &[PathBuf::from("-")],
            &excludes.forced(true),
            Some(Path::new("venv/a.ipynb")),
            &mut "{}".as_bytes(),
        );
        assert!(stdin.notebooks.is_empty());
    }

    #[test]
    fn scans_skip_ignored_hidden_and_excluded_paths() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for name in [
            "a.ipynb",
            "ignored.ipynb",
            "out/x.ipynb",
            ".venv/lib/site.ipynb",
            "venv/y.ipynb",
            "node_modules/z.ipynb",
            ".hidden/h.ipynb",
            "nbs/build/b.ipynb",
            "nbs/keep.ipynb",
            "nbs/drafts/d.ipynb",
        ] {
            let path = root.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "{}").unwrap();
        }
        std::fs::write(root.join(".gitignore"), "ignored.ipynb\nout/\n").unwrap();
        let scan = |excludes: &Excludes| {
            files(&collect(
                &[root.to_path_buf()],
                excludes,
                None,
                &mut std::io::empty(),
            ))
        };
        assert_eq!(
            scan(&Excludes::default()),
            [
                root.join("a.ipynb"),
                root.join("nbs/drafts/d.ipynb"),
                root.join("nbs/keep.ipynb")
            ]
        );
        let extended = Excludes::new(None, &["nbs/drafts".to_string()]).unwrap();
        assert_eq!(
            scan(&extended),
            [root.join("a.ipynb"), root.join("nbs/keep.ipynb")]
        );
        let replaced = Excludes::new(Some(&["node_modules".to_string()]), &[]).unwrap();
        assert!(scan(&replaced).contains(&root.join("venv/y.ipynb")));
        assert!(
            !scan(&replaced).contains(&root.join(".venv/lib/site.ipynb")),
            "hidden"
        );
    }

    #[test]
    fn stdin_and_non_notebooks() {
        let inputs = collect(
            &[PathBuf::from("-")],
            &Excludes::default(),
            Some(Path::new("nbs/x.py")),
            &mut "# %%\nx = 1\n".as_bytes(),
        );
        let (notebook, text) = load(&inputs.notebooks[0]).unwrap();
        assert_eq!(notebook.path, Path::new("nbs/x.py"));
        assert_eq!(text, None);
        let plain = Input::Stdin {
            path: PathBuf::from("notes.txt"),
            text: "hello\n".to_string(),
        };
        let error = load(&plain).unwrap_err().to_string();
        assert!(
            error.contains("notes.txt: not a Jupyter notebook"),
            "{error}"
        );
    }
}
