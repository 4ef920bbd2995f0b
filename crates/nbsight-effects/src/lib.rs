//! The library-effects knowledge base.
//!
//! For a library function or method, the knowledge base says whether a call
//! mutates its receiver or some arguments, what it returns (a fresh value,
//! its receiver, a view sharing memory, `None`), and what role it plays for
//! the ML leakage and reproducibility analyses (`fit`, `split`, `read-file`,
//! `global-random`, ...). All analyses share it: the static per-cell dataflow,
//! the leakage domain, and the live lineage.
//!
//! The built-in entries live in `data/effects.toml`, compiled into the
//! binary. Users add files of the same format (see `docs/effects.md`); their
//! entries replace built-in ones with the same key.
//!
//! Functions are looked up by qualified name (`numpy.random.shuffle`), falling
//! back to the longest matching wildcard (`numpy.random.*`, then `numpy.*`).
//! Methods are looked up by bare name (`append`), since the static analysis
//! rarely knows a receiver's type. A name with no entry is unknown: the
//! dataflow then reports a method's receiver as *may-mutate* (arguments are not
//! assumed changed: that assumption is what makes nbgather's slices balloon).
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-effects`), the one place
//! they are written; each names the test that holds it, where one does.

mod error;
mod model;
mod parse;
#[cfg(test)]
mod tests;

use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::LazyLock;

use rustc_hash::FxHashMap;

pub use error::{EffectsError, Location};
pub use model::{Effect, Returns, Role, Target};

/// The built-in effects file.
const BUILTIN_TOML: &str = include_str!("../data/effects.toml");

/// Transformers stateless by what they do, whatever library defines them:
/// an encoding of which categories or classes exist, or a row-wise or
/// feature-wise expansion. Another library's class of one of these names
/// is taken for the knowledge base's stateless entry of that name (not
/// `OrdinalEncoder` or `CountVectorizer`: other libraries' classes of those
/// names can learn from the rows, target means or document counts).
const STATELESS_BY_WHAT_THEY_ARE: &[&str] = &[
    "OneHotEncoder",
    "LabelEncoder",
    "LabelBinarizer",
    "MultiLabelBinarizer",
    "PolynomialFeatures",
    "Binarizer",
    "HashingVectorizer",
    "FeatureHasher",
    "Normalizer",
];

/// The origin named in errors about the built-in file.
pub const BUILTIN_ORIGIN: &str = "<builtin effects.toml>";

/// Environment variable holding extra effects files, as a path list
/// (separated by `:` on Unix, `;` on Windows).
pub const EFFECTS_ENV_VAR: &str = "NBSIGHT_EFFECTS";

/// The knowledge base: functions, wildcard function prefixes, methods and
/// conventional import aliases.
#[derive(Debug, Clone, Default)]
pub struct Effects {
    /// Exact qualified function names.
    functions: FxHashMap<String, Effect>,
    /// Wildcard entries keyed by the text before the `*` (`numpy.`,
    /// `pandas.read_`).
    wildcards: FxHashMap<String, Effect>,
    /// The keys of `wildcards` grouped by their first dotted part (`numpy`),
    /// longest first: a lookup only compares the prefixes of its own package.
    wildcards_by_package: FxHashMap<String, Vec<String>>,
    /// Bare method names.
    methods: FxHashMap<String, Effect>,
    /// `alias -> module path`.
    aliases: FxHashMap<String, String>,
    /// The class name (`OneHotEncoder`, one of
    /// [`STATELESS_BY_WHAT_THEY_ARE`]) of each stateless transformer entry
    /// -> its qualified name: another library's class of that name is taken
    /// for what it is ([`Effects::stateless_class`]).
    stateless_classes: FxHashMap<String, String>,
}

/// The first dotted part of a qualified name (`numpy` for `numpy.random.x`).
fn package_of(qualified: &str) -> &str {
    qualified.split('.').next().unwrap_or(qualified)
}

/// How many entries of each kind a knowledge base holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EffectsCounts {
    /// Exact function entries.
    pub functions: usize,
    /// Wildcard function entries.
    pub wildcards: usize,
    /// Method entries.
    pub methods: usize,
    /// Aliases.
    pub aliases: usize,
}

impl Effects {
    /// An empty knowledge base (every name unknown).
    pub fn empty() -> Effects {
        Effects::default()
    }

    /// The built-in knowledge base, parsed from the embedded file.
    ///
    /// Parsing takes a few milliseconds; use [`Effects::shared_builtin`] to
    /// parse it once per process.
    ///
    /// # Panics
    ///
    /// Never in a tested build: the embedded file is checked by the tests.
    pub fn builtin() -> Effects {
        let mut effects = Effects::default();
        // The embedded file is checked by the tests (`builtin_file_parses`),
        // so a failure here is a bug in the shipped data, not a user error.
        #[allow(clippy::expect_used)]
        effects
            .merge_toml(BUILTIN_TOML, BUILTIN_ORIGIN)
            .expect("the built-in effects.toml is valid (checked by the tests)");
        effects
    }

    /// The built-in knowledge base, parsed on first use and shared by the
    /// whole process.
    pub fn shared_builtin() -> &'static Effects {
        static SHARED: LazyLock<Effects> = LazyLock::new(Effects::builtin);
        &SHARED
    }

    /// The built-in knowledge base with each user file merged in order; later
    /// files override earlier ones and the built-in entries.
    ///
    /// # Errors
    ///
    /// [`EffectsError::Read`] when a file cannot be read,
    /// [`EffectsError::Invalid`] (naming the file, line and column) when one
    /// is malformed.
    pub fn with_user_files(paths: &[PathBuf]) -> Result<Effects, EffectsError> {
        // A copy of the shared one: the process parses the built-in file once.
        let mut effects = Effects::shared_builtin().clone();
        for path in paths {
            let text = std::fs::read_to_string(path).map_err(|source| EffectsError::Read {
                path: path.clone(),
                source,
            })?;
            effects.merge_toml(&text, &path.display().to_string())?;
        }
        Ok(effects)
    }

    /// Merges the effects file `text` into this knowledge base: each entry
    /// replaces any existing entry with the same key. `origin` (usually a path)
    /// names the text in errors. On error nothing is merged.
    ///
    /// # Errors
    ///
    /// [`EffectsError::Invalid`] naming `origin`, the line and column, and the
    /// problem: TOML syntax, an unknown key, target, role or `returns` value,
    /// or a malformed name.
    pub fn merge_toml(&mut self, text: &str, origin: &str) -> Result<(), EffectsError> {
        let parsed = parse::parse(text, origin)?;
        self.aliases.extend(parsed.aliases);
        self.functions.extend(parsed.functions);
        self.methods.extend(parsed.methods);
        self.stateless_classes = self
            .functions
            .iter()
            .filter(|(_, e)| e.has_role(Role::Transformer) && e.has_role(Role::Stateless))
            .filter_map(|(q, _)| {
                let class = q.rsplit('.').next()?;
                STATELESS_BY_WHAT_THEY_ARE
                    .contains(&class)
                    .then(|| (class.to_string(), q.clone()))
            })
            .collect();
        if !parsed.wildcards.is_empty() {
            self.wildcards.extend(parsed.wildcards);
            let mut by_package: FxHashMap<String, Vec<String>> = FxHashMap::default();
            for prefix in self.wildcards.keys() {
                by_package
                    .entry(package_of(prefix).to_string())
                    .or_default()
                    .push(prefix.clone());
            }
            for prefixes in by_package.values_mut() {
                prefixes.sort_unstable_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
            }
            self.wildcards_by_package = by_package;
        }
        Ok(())
    }

    /// The effect of the function with this qualified name
    /// (`numpy.random.shuffle`, `builtins.len`): its own entry, else the
    /// stateless transformer of its class name ([`Effects::stateless_class`]),
    /// else the longest wildcard entry matching it (`numpy.random.*`, then
    /// `numpy.*`).
    pub fn function(&self, qualified: &str) -> Option<&Effect> {
        if let Some(effect) = self
            .functions
            .get(qualified)
            .or_else(|| self.stateless_class(qualified))
        {
            return Some(effect);
        }
        let prefixes = self.wildcards_by_package.get(package_of(qualified))?;
        prefixes
            .iter()
            .find(|prefix| prefix.len() < qualified.len() && qualified.starts_with(prefix.as_str()))
            .and_then(|prefix| self.wildcards.get(prefix))
    }

    /// The stateless transformer entry of the class `qualified` names when
    /// the knowledge base has no entry for it but has a stateless
    /// transformer of the same class name (`category_encoders.OneHotEncoder`
    /// is what `sklearn.preprocessing.OneHotEncoder` is: it learns which
    /// categories exist, no statistic of the rows).
    fn stateless_class(&self, qualified: &str) -> Option<&Effect> {
        let class = qualified.rsplit('.').next()?;
        let known = self.stateless_classes.get(class)?;
        self.functions.get(known)
    }

    /// The effect of the method with this bare name (`append`, `dropna`).
    pub fn method(&self, name: &str) -> Option<&Effect> {
        self.methods.get(name)
    }

    /// The module a conventional import alias stands for: `np` → `numpy`,
    /// `plt` → `matplotlib.pyplot`.
    pub fn alias(&self, name: &str) -> Option<&str> {
        self.aliases.get(name).map(String::as_str)
    }

    /// `dotted` with its first part replaced by the module it is a
    /// conventional alias of (`np.random.seed` → `numpy.random.seed`), or
    /// `None` when the first part is not an alias.
    pub fn expand_alias(&self, dotted: &str) -> Option<String> {
        let (head, rest) = match dotted.split_once('.') {
            Some((head, rest)) => (head, Some(rest)),
            None => (dotted, None),
        };
        let module = self.alias(head)?;
        Some(match rest {
            Some(rest) => format!("{module}.{rest}"),
            None => module.to_owned(),
        })
    }

    /// How many entries of each kind this knowledge base holds.
    pub fn counts(&self) -> EffectsCounts {
        EffectsCounts {
            functions: self.functions.len(),
            wildcards: self.wildcards.len(),
            methods: self.methods.len(),
            aliases: self.aliases.len(),
        }
    }
}

/// Splits the value of [`EFFECTS_ENV_VAR`] into paths (`:`-separated on Unix,
/// `;` on Windows), dropping empty entries.
pub fn paths_from_env_value(value: &OsStr) -> Vec<PathBuf> {
    std::env::split_paths(value)
        .filter(|path| !path.as_os_str().is_empty())
        .collect()
}
