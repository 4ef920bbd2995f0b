//! The `[tool.nbsight]` table of `pyproject.toml`: where it is found and what
//! it may hold.
//!
//! As in ruff, the configuration is the nearest `pyproject.toml` *that has a
//! `[tool.nbsight]` table*, searching from the current directory upwards
//! (files without the table are skipped), unless `--config` names the file.
//! Its keys are `select`, `extend-select` and `ignore` (lists of rule
//! selectors), `per-file-ignores` (a table from glob patterns, relative to
//! the file's directory, to lists of selectors), and `exclude` /
//! `extend-exclude` (lists of glob patterns of files and directories not to
//! scan), and `force-exclude` (apply them to files named on the command line
//! too); any other key is an error that names it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::ConfigError;
use crate::selection::validate_selectors;

/// The file name searched for.
pub const PYPROJECT: &str = "pyproject.toml";

/// The settings of `[tool.nbsight]`.
#[derive(Debug, Default, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Config {
    /// Replaces the default rules when present.
    pub select: Option<Vec<String>>,
    /// Rules added to `select` (or to the defaults).
    #[serde(default)]
    pub extend_select: Vec<String>,
    /// Rules turned off.
    #[serde(default)]
    pub ignore: Vec<String>,
    /// Rules turned off in the files matching a glob pattern.
    #[serde(default)]
    pub per_file_ignores: BTreeMap<String, Vec<String>>,
    /// Replaces the default exclusions of directory scans.
    pub exclude: Option<Vec<String>>,
    /// Added to the exclusions of directory scans.
    #[serde(default)]
    pub extend_exclude: Vec<String>,
    /// Exclusions apply to files named on the command line too.
    #[serde(default)]
    pub force_exclude: bool,
}

/// The configuration in force and the file it came from (`None`: no file,
/// the defaults).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Loaded {
    pub file: Option<PathBuf>,
    pub config: Config,
}

/// Only the part of `pyproject.toml` nbsight reads; everything else in the
/// file is ignored.
#[derive(Debug, Deserialize)]
struct PyProject {
    tool: Option<Tools>,
}

#[derive(Debug, Deserialize)]
struct Tools {
    nbsight: Option<Config>,
}

/// The configuration for a run: `explicit` (`--config`) when given, else the
/// nearest `pyproject.toml` with a `[tool.nbsight]` table above `start`.
pub fn load(explicit: Option<&Path>, start: &Path) -> Result<Loaded, ConfigError> {
    if let Some(file) = explicit {
        let config = read(file)?.unwrap_or_default();
        return Ok(Loaded {
            file: Some(file.to_path_buf()),
            config,
        });
    }
    for dir in start.ancestors() {
        let candidate = dir.join(PYPROJECT);
        if !candidate.is_file() {
            continue;
        }
        if let Some(config) = read(&candidate)? {
            return Ok(Loaded {
                file: Some(candidate),
                config,
            });
        }
    }
    Ok(Loaded::default())
}

/// The `[tool.nbsight]` table of `file`, `None` when the file has none.
pub fn read(file: &Path) -> Result<Option<Config>, ConfigError> {
    let text = std::fs::read_to_string(file).map_err(|error| ConfigError::Read {
        file: file.to_path_buf(),
        error,
    })?;
    parse(&text).map_err(|message| ConfigError::Invalid {
        file: file.to_path_buf(),
        message,
    })
}

/// Parses the text of a `pyproject.toml` and checks the selectors it holds;
/// the error is the message (without the file's name).
pub fn parse(text: &str) -> Result<Option<Config>, String> {
    // toml's message spans several lines (a source excerpt); keep it
    // readable after the file name.
    let pyproject: PyProject =
        toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())?;
    let Some(config) = pyproject.tool.and_then(|tool| tool.nbsight) else {
        return Ok(None);
    };
    for (key, selectors) in [
        ("select", config.select.as_deref().unwrap_or_default()),
        ("extend-select", &config.extend_select),
        ("ignore", &config.ignore),
    ] {
        for selector in selectors {
            if let Err(message) = check_selector(selector) {
                return Err(format!("[tool.nbsight] {key}: {message}"));
            }
        }
    }
    for (pattern, selectors) in &config.per_file_ignores {
        if let Err(error) = globset::Glob::new(pattern) {
            return Err(format!("[tool.nbsight] per-file-ignores: {error}"));
        }
        for selector in selectors {
            if let Err(message) = check_selector(selector) {
                return Err(format!(
                    "[tool.nbsight] per-file-ignores.\"{pattern}\": {message}"
                ));
            }
        }
    }
    for pattern in config
        .exclude
        .iter()
        .flatten()
        .chain(&config.extend_exclude)
    {
        if let Err(error) = globset::Glob::new(pattern) {
            return Err(format!("[tool.nbsight] exclude: {error}"));
        }
    }
    Ok(Some(config))
}

/// Checks one selector; used by clap for the command line (a bad selector is
/// then a usage error) and for the configuration's lists.
pub fn check_selector(text: &str) -> Result<String, String> {
    let selector = text.trim();
    if selector.is_empty() {
        return Err("empty rule selector (expected ALL, a rule name or a code prefix)".into());
    }
    validate_selectors([selector]).map_err(|e| e.to_string())?;
    Ok(selector.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_are_checked() {
        assert_eq!(check_selector("NBS1").unwrap(), "NBS1");
        assert_eq!(check_selector(" ALL ").unwrap(), "ALL");
        assert_eq!(
            check_selector("preprocessing-leakage").unwrap(),
            "preprocessing-leakage"
        );
        assert!(check_selector("").unwrap_err().contains("empty"));
        let error = check_selector("E501").unwrap_err();
        assert!(error.contains("unknown rule selector `E501`"), "{error}");
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_the_three_keys() {
        let config = parse(
            "[project]\nname = \"x\"\n\n[tool.nbsight]\nselect = [\"NBS1\"]\n\
             extend-select = [\"isolated-cell\"]\nignore = [\"NBS103\"]\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(config.select, Some(strings(&["NBS1"])));
        assert_eq!(config.extend_select, strings(&["isolated-cell"]));
        assert_eq!(config.ignore, strings(&["NBS103"]));
    }

    #[test]
    fn a_pyproject_without_the_table_is_no_configuration() {
        assert_eq!(parse("[tool.ruff]\nline-length = 88\n").unwrap(), None);
        assert_eq!(parse("").unwrap(), None);
        let empty = parse("[tool.nbsight]\n").unwrap().unwrap();
        assert_eq!(empty, Config::default());
    }

    #[test]
    fn unknown_keys_are_named() {
        let error = parse("[tool.nbsight]\nselct = [\"NBS1\"]\n").unwrap_err();
        let message = error.to_string();
        assert!(message.contains("unknown field `selct`"), "{message}");
        assert!(message.contains("extend-select"), "{message}");
    }

    #[test]
    fn bad_values_are_errors() {
        let error = parse("[tool.nbsight]\nselect = \"NBS1\"\n").unwrap_err();
        assert!(error.contains("sequence"), "{error}");
        let error = parse("[tool.nbsight]\nignore = [\"NBX9\"]\n").unwrap_err();
        let message = error.to_string();
        assert!(message.contains("[tool.nbsight] ignore"), "{message}");
        assert!(message.contains("NBX9"), "{message}");
        assert!(parse("[tool.nbsight\n").is_err());
    }

    #[test]
    fn search_walks_up_and_skips_files_without_the_table() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let inner = root.join("a/b");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::write(
            root.join(PYPROJECT),
            "[tool.nbsight]\nignore = [\"NBS002\"]\n",
        )
        .unwrap();
        std::fs::write(root.join("a").join(PYPROJECT), "[tool.black]\n").unwrap();
        let loaded = load(None, &inner).unwrap();
        assert_eq!(loaded.file, Some(root.join(PYPROJECT)));
        assert_eq!(loaded.config.ignore, strings(&["NBS002"]));

        // --config wins over the search, even without the table.
        let explicit = root.join("a").join(PYPROJECT);
        let loaded = load(Some(&explicit), &inner).unwrap();
        assert_eq!(loaded.config, Config::default());

        let missing = root.join("missing.toml");
        let error = load(Some(&missing), &inner).unwrap_err();
        assert!(error.to_string().contains("missing.toml"));
    }
}
