//! The settings in force for each notebook, as ruff finds them: the
//! `[tool.nbsight]` table of the nearest `pyproject.toml` that has one, from
//! the notebook's own directory upwards; when there is none, the one found
//! from the current directory upwards; the `--config` file for every notebook
//! when given. The command line's selectors are a layer over it. Each
//! configuration file is read and resolved once per run.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use globset::{Glob, GlobMatcher};

use super::ConfigError;
use super::layers::{self, CommandLine};
use super::pyproject::{self as config, Config, Loaded};
use crate::selection::RuleSet;

/// What applies to the notebooks under one configuration.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The configuration file (`None`: the defaults).
    pub file: Option<PathBuf>,
    /// The rules enabled by the configuration and the command line.
    pub rules: RuleSet,
    /// `per-file-ignores`: a pattern and the rules it turns off.
    per_file: Vec<(GlobMatcher, RuleSet)>,
    /// The directory patterns are relative to.
    root: PathBuf,
}

impl Settings {
    fn new(loaded: &Loaded, cli: &CommandLine) -> Result<Self, ConfigError> {
        let invalid = |error: &dyn std::fmt::Display| ConfigError::Selection {
            file: loaded.file.clone(),
            message: error.to_string(),
        };
        let rules = layers::resolve(cli, &loaded.config).map_err(|e| invalid(&e))?;
        let mut per_file = Vec::new();
        for (pattern, selectors) in &loaded.config.per_file_ignores {
            let matcher = Glob::new(pattern)
                .map_err(|e| invalid(&e))?
                .compile_matcher();
            let ignored = RuleSet::resolve(Some(selectors), &[], &[]).map_err(|e| invalid(&e))?;
            per_file.push((matcher, ignored));
        }
        let root = loaded
            .file
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        Ok(Settings {
            file: loaded.file.clone(),
            rules,
            per_file,
            root,
        })
    }

    /// The rules that run on `path` (its per-file ignores removed).
    pub fn rules_for(&self, path: &Path) -> RuleSet {
        if self.per_file.is_empty() {
            return self.rules;
        }
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let relative = absolute.strip_prefix(&self.root).unwrap_or(path);
        let name = path.file_name().map(Path::new);
        let ignored: Vec<_> = self
            .per_file
            .iter()
            .filter(|(matcher, _)| {
                matcher.is_match(relative) || name.is_some_and(|n| matcher.is_match(n))
            })
            .flat_map(|(_, set)| set.iter())
            .collect();
        RuleSet::from_rules(self.rules.iter().filter(|rule| !ignored.contains(rule)))
    }
}

/// Finds and caches the settings of each notebook's directory.
#[derive(Debug)]
pub struct Resolver {
    cli: CommandLine,
    /// `--config`: the same settings for every notebook.
    fixed: Option<Arc<Settings>>,
    /// The settings found from the current directory: for notebooks with
    /// no configuration above them.
    fallback: Arc<Settings>,
    /// By directory of a notebook.
    by_dir: Mutex<HashMap<PathBuf, Arc<Settings>>>,
}

impl Resolver {
    /// Reads `--config` when given, else the configuration found from `cwd`
    /// upwards (an error when it cannot be read or is invalid).
    pub fn new(cli: CommandLine, explicit: Option<&Path>, cwd: &Path) -> Result<Self, ConfigError> {
        let fixed = match explicit {
            Some(file) => Some(Arc::new(Settings::new(
                &config::load(Some(file), cwd)?,
                &cli,
            )?)),
            None => None,
        };
        let fallback = match &fixed {
            Some(fixed) => Arc::clone(fixed),
            None => Arc::new(Settings::new(&config::load(None, cwd)?, &cli)?),
        };
        Ok(Resolver {
            cli,
            fixed,
            fallback,
            by_dir: Mutex::new(HashMap::new()),
        })
    }

    /// The settings of the notebooks in `dir` (the nearest configuration
    /// from `dir` upwards).
    pub fn for_dir(&self, dir: &Path) -> Result<Arc<Settings>, ConfigError> {
        if let Some(fixed) = &self.fixed {
            return Ok(Arc::clone(fixed));
        }
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        if let Some(found) = self.cached(&dir) {
            return Ok(found);
        }
        let loaded = config::load(None, &dir)?;
        let settings = if loaded.file.is_none() {
            Arc::clone(&self.fallback)
        } else {
            Arc::new(Settings::new(&loaded, &self.cli)?)
        };
        if let Ok(mut cache) = self.by_dir.lock() {
            cache.insert(dir, Arc::clone(&settings));
        }
        Ok(settings)
    }

    /// The settings of the notebook `path`.
    pub fn for_file(&self, path: &Path) -> Result<Arc<Settings>, ConfigError> {
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
        self.for_dir(dir.unwrap_or(Path::new(".")))
    }

    fn cached(&self, dir: &Path) -> Option<Arc<Settings>> {
        self.by_dir.lock().ok()?.get(dir).cloned()
    }

    /// The configuration of the run as a whole (the current directory's, or
    /// `--config`): where `exclude` and `extend-exclude` are read.
    pub fn run_config(&self) -> Result<Config, ConfigError> {
        match &self.fallback.file {
            Some(file) => Ok(config::read(file)?.unwrap_or_default()),
            None => Ok(Config::default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Rule;

    use super::*;

    #[test]
    fn the_nearest_configuration_applies_per_directory() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::write(
            root.join("pyproject.toml"),
            "[tool.nbsight]\nignore = [\"NBS002\"]\n",
        )
        .unwrap();
        std::fs::write(
            root.join("a/pyproject.toml"),
            "[tool.nbsight]\nextend-select = [\"isolated-cell\"]\n\n[tool.nbsight.per-file-ignores]\n\"b/*.ipynb\" = [\"NBS001\"]\n",
        )
        .unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let resolver = Resolver::new(CommandLine::default(), None, elsewhere.path()).unwrap();
        let top = resolver.for_file(&root.join("x.ipynb")).unwrap();
        assert!(!top.rules.contains(Rule::StaleSavedOutput));
        let inner = resolver.for_file(&root.join("a/b/y.ipynb")).unwrap();
        assert_eq!(inner.file, Some(root.join("a/pyproject.toml")));
        assert!(
            inner.rules.contains(Rule::StaleSavedOutput),
            "not inherited"
        );
        assert!(inner.rules.contains(Rule::IsolatedCell));
        let rules = inner.rules_for(&root.join("a/b/y.ipynb"));
        assert!(!rules.contains(Rule::UndefinedOnRunAll));
        assert!(
            inner
                .rules_for(&root.join("a/z.ipynb"))
                .contains(Rule::UndefinedOnRunAll)
        );
    }
}
