//! The vocabulary of the effects knowledge base: [`Effect`] and the closed
//! sets of names it is made of ([`Target`], [`Returns`], [`Role`]).
//!
//! Each enum parses from ([`FromStr`]) and prints to ([`fmt::Display`]) the
//! exact strings of the TOML format, so diagnostics quote a value the way the
//! user wrote it.

use std::fmt;
use std::str::FromStr;

/// What one library function or method does to the values it touches.
///
/// The default effect is the pure one: it mutates nothing and returns a fresh
/// value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Effect {
    /// What the call changes in place.
    pub mutates: Vec<Target>,
    /// Name of a keyword argument (usually `inplace`) which, when passed a true
    /// constant, makes the call mutate its receiver (methods) or its first
    /// argument (functions).
    pub inplace: Option<String>,
    /// How the result relates to the receiver (methods) or first argument
    /// (functions).
    pub returns: Returns,
    /// ML and I/O roles, for the leakage and reproducibility analyses.
    pub roles: Vec<Role>,
    /// Keyword arguments that make a `stateless` transformer learn from the
    /// rows (`min_df`, `max_features`): a constructor with this list is
    /// stateless unless the call passes one of them (a default
    /// `CountVectorizer` learns only which tokens exist, which no model can
    /// use to see a fold's test rows; a count threshold learns how often).
    pub stateful_with: Vec<String>,
    /// Types the entry is meant for (informational only).
    pub on: Vec<String>,
    /// Free-text remark, e.g. on a method name whose meaning depends on the
    /// receiver's type.
    pub note: Option<String>,
}

impl Effect {
    /// True when the call never changes any value in place: no `mutates`
    /// targets and no `inplace` switch. Roles are not considered (a plotting
    /// call or a global random draw can still be pure in this sense).
    pub fn is_pure(&self) -> bool {
        self.mutates.is_empty() && self.inplace.is_none()
    }

    /// True when the call always mutates its receiver (methods) — not counting
    /// the `inplace` switch.
    pub fn mutates_receiver(&self) -> bool {
        self.mutates.contains(&Target::Receiver)
    }

    /// True when the entry carries `role`.
    pub fn has_role(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }
}

/// A value a call changes in place.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// The receiver of a method call (`self`).
    Receiver,
    /// The positional argument at this index (`arg0`, `arg1`, ...).
    Arg(usize),
    /// The argument passed under this keyword (`kw:out`), when it is passed.
    Keyword(String),
    /// Every argument, positional and keyword (`args`).
    AllArgs,
}

impl FromStr for Target {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "self" => return Ok(Target::Receiver),
            "args" => return Ok(Target::AllArgs),
            _ => {}
        }
        if let Some(index) = text.strip_prefix("arg") {
            if !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()) {
                return index
                    .parse()
                    .map(Target::Arg)
                    .map_err(|_| format!("argument index in `{text}` is too large"));
            }
        } else if let Some(name) = text.strip_prefix("kw:") {
            if is_identifier(name) {
                return Ok(Target::Keyword(name.to_owned()));
            }
            return Err(format!(
                "`{text}`: the keyword after `kw:` must be a Python identifier"
            ));
        }
        Err(format!(
            "unknown target `{text}`, expected \"self\", \"arg0\", \"arg1\", ..., \"kw:NAME\" or \"args\""
        ))
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Receiver => f.write_str("self"),
            Target::Arg(index) => write!(f, "arg{index}"),
            Target::Keyword(name) => write!(f, "kw:{name}"),
            Target::AllArgs => f.write_str("args"),
        }
    }
}

/// How the result of a call relates to its inputs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Returns {
    /// A new value that shares nothing mutable with the receiver (`fresh`).
    #[default]
    Fresh,
    /// The receiver itself (`self`); for a function, its first argument.
    Receiver,
    /// A value sharing state with the receiver (for a function, the first
    /// argument): mutating one can change the other (`view`).
    View,
    /// `None` (`none`).
    Nothing,
    /// Not known (`unknown`).
    Unknown,
}

impl Returns {
    /// Every variant, in declaration order.
    pub const ALL: [Returns; 5] = [
        Returns::Fresh,
        Returns::Receiver,
        Returns::View,
        Returns::Nothing,
        Returns::Unknown,
    ];

    /// The TOML spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Returns::Fresh => "fresh",
            Returns::Receiver => "self",
            Returns::View => "view",
            Returns::Nothing => "none",
            Returns::Unknown => "unknown",
        }
    }
}

impl FromStr for Returns {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Returns::ALL
            .into_iter()
            .find(|r| r.as_str() == text)
            .ok_or_else(|| {
                format!(
                    "unknown returns value `{text}`, expected one of: {}",
                    quoted_list(Returns::ALL.iter().map(|r| r.as_str()))
                )
            })
    }
}

impl fmt::Display for Returns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The part a call plays in an ML pipeline or in the notebook's I/O.
///
/// Most roles describe what the call itself does (`fit`, `split`,
/// `read-file`). Four describe the object a constructor builds, so that an
/// analysis can follow it to its later method calls: `transformer`,
/// `sampler` and `pipeline` are only on constructors, and `cross-validate`
/// is on functions that cross-validate when called and on constructors of
/// estimators whose `fit` cross-validates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Learns parameters from data (`fit`).
    Fit,
    /// Learns from data and transforms it in one call (`fit-transform`).
    FitTransform,
    /// Applies learned parameters to data (`transform`).
    Transform,
    /// Constructs a transformer: an object whose `fit` learns statistics from
    /// data that its `transform` later applies (`transformer`), e.g.
    /// `StandardScaler()`, `PCA()`, `TfidfVectorizer()`.
    Transformer,
    /// Splits data into train and test parts (`split`).
    Split,
    /// Fits and evaluates on folds of the data it is given
    /// (`cross-validate`): `cross_val_score(...)`, or the constructor of an
    /// estimator whose `fit` does so (`GridSearchCV(...)`, `RidgeCV()`).
    CrossValidate,
    /// Predicts from a fitted model (`predict`).
    Predict,
    /// Scores or evaluates predictions (`evaluate`).
    Evaluate,
    /// Over- or under-samples data (`resample`).
    Resample,
    /// Constructs a sampler whose `fit_resample` over- or under-samples data
    /// (`sampler`), e.g. imbalanced-learn's `SMOTE()`.
    Sampler,
    /// Constructs a pipeline or composite of estimators, whose `fit` fits
    /// each step on the data it is given (`pipeline`).
    Pipeline,
    /// Constructs a transformer whose `fit` learns nothing from the rows
    /// (`PolynomialFeatures`, `HashingVectorizer`): it cannot leak (`stateless`).
    Stateless,
    /// Reads a file or other external resource (`read-file`).
    ReadFile,
    /// Writes a file (`write-file`).
    WriteFile,
    /// Deletes a file (`delete-file`).
    DeleteFile,
    /// Draws on a figure or shows it (`plot`).
    Plot,
    /// May draw from a global random generator (`global-random`).
    GlobalRandom,
    /// Seeds a global random generator (`seed-random`).
    SeedRandom,
}

impl Role {
    /// Every variant, in declaration order.
    pub const ALL: [Role; 18] = [
        Role::Fit,
        Role::FitTransform,
        Role::Transform,
        Role::Transformer,
        Role::Split,
        Role::CrossValidate,
        Role::Predict,
        Role::Evaluate,
        Role::Resample,
        Role::Sampler,
        Role::Pipeline,
        Role::Stateless,
        Role::ReadFile,
        Role::WriteFile,
        Role::DeleteFile,
        Role::Plot,
        Role::GlobalRandom,
        Role::SeedRandom,
    ];

    /// A step of a machine-learning workflow: fitting, splitting,
    /// predicting, scoring, resampling or cross-validating.
    pub fn is_ml(self) -> bool {
        matches!(
            self,
            Role::Fit
                | Role::FitTransform
                | Role::Split
                | Role::Predict
                | Role::Evaluate
                | Role::Resample
                | Role::CrossValidate
        )
    }

    /// A call that makes a value derived from data by learning, splitting
    /// or resampling it (a fitted model or transformer, transformed rows, a
    /// split side, resampled rows), or that reads the rows (whose origin the
    /// leakage analysis follows, to tell that two values share rows).
    pub fn derives_from_data(self) -> bool {
        matches!(
            self,
            Role::Fit | Role::FitTransform | Role::Split | Role::Resample | Role::ReadFile
        )
    }

    /// A call that consumes training or test data: fitting, predicting,
    /// scoring or cross-validating.
    pub fn consumes_data(self) -> bool {
        matches!(
            self,
            Role::Fit | Role::Predict | Role::Evaluate | Role::CrossValidate
        )
    }

    /// The TOML spelling (kebab-case).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Fit => "fit",
            Role::FitTransform => "fit-transform",
            Role::Transform => "transform",
            Role::Transformer => "transformer",
            Role::Split => "split",
            Role::CrossValidate => "cross-validate",
            Role::Predict => "predict",
            Role::Evaluate => "evaluate",
            Role::Resample => "resample",
            Role::Sampler => "sampler",
            Role::Pipeline => "pipeline",
            Role::Stateless => "stateless",
            Role::ReadFile => "read-file",
            Role::WriteFile => "write-file",
            Role::DeleteFile => "delete-file",
            Role::Plot => "plot",
            Role::GlobalRandom => "global-random",
            Role::SeedRandom => "seed-random",
        }
    }
}

impl FromStr for Role {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == text)
            .ok_or_else(|| {
                format!(
                    "unknown role `{text}`, expected one of: {}",
                    quoted_list(Role::ALL.iter().map(|r| r.as_str()))
                )
            })
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// True for a Python identifier (letters, digits and `_`, not starting with a
/// digit).
pub(crate) fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if first == '_' || first.is_alphabetic() => {
            chars.all(|c| c == '_' || c.is_alphanumeric())
        }
        _ => false,
    }
}

fn quoted_list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    items
        .map(|item| format!("\"{item}\""))
        .collect::<Vec<_>>()
        .join(", ")
}
