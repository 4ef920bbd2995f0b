//! Reading one effects file: TOML text to validated entries.
//!
//! Parsing is all-or-nothing: [`parse`] either returns every entry of the file,
//! checked, or the first problem in document order, located by line and
//! column, so a bad file never half-merges into the knowledge base.

use std::collections::BTreeMap;
use std::ops::Range;
use std::str::FromStr;

use serde::Deserialize;
use toml::Spanned;

use crate::error::{EffectsError, Location};
use crate::model::{Effect, Returns, Role, Target, is_identifier};

/// The validated content of one effects file.
#[derive(Debug, Default)]
pub(super) struct Parsed {
    /// `alias -> module path`.
    pub aliases: Vec<(String, String)>,
    /// Exact qualified function names.
    pub functions: Vec<(String, Effect)>,
    /// Wildcard function entries, keyed by the text before the final `*`.
    pub wildcards: Vec<(String, Effect)>,
    /// Bare method names.
    pub methods: Vec<(String, Effect)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    aliases: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    functions: BTreeMap<Spanned<String>, RawEffect>,
    #[serde(default)]
    methods: BTreeMap<Spanned<String>, RawEffect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEffect {
    #[serde(default)]
    mutates: Vec<Spanned<String>>,
    #[serde(default)]
    inplace: Option<Spanned<String>>,
    #[serde(default)]
    returns: Option<Spanned<String>>,
    #[serde(default)]
    roles: Vec<Spanned<String>>,
    #[serde(default)]
    stateful_with: Vec<Spanned<String>>,
    #[serde(default)]
    on: Vec<String>,
    #[serde(default)]
    note: Option<String>,
}

/// Keeps the problem that comes first in the text.
#[derive(Default)]
struct FirstProblem(Option<(usize, String)>);

impl FirstProblem {
    fn report(&mut self, span: Range<usize>, message: String) {
        if self.0.as_ref().is_none_or(|(at, _)| span.start < *at) {
            self.0 = Some((span.start, message));
        }
    }
}

/// Parses and validates the effects file `text`; `origin` names it in errors.
pub(super) fn parse(text: &str, origin: &str) -> Result<Parsed, EffectsError> {
    let raw: RawFile = toml::from_str(text).map_err(|err| EffectsError::Invalid {
        origin: origin.to_owned(),
        location: err.span().map(|span| Location::of_offset(text, span.start)),
        // toml's messages can span lines ("invalid inline table\nexpected `}`").
        message: err
            .message()
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect::<Vec<_>>()
            .join("; "),
    })?;

    let mut problem = FirstProblem::default();
    let mut parsed = Parsed::default();

    for (key, value) in raw.aliases {
        if !is_identifier(key.get_ref()) {
            problem.report(
                key.span(),
                format!("alias `{}` must be a Python identifier", key.get_ref()),
            );
        } else if !is_dotted_name(value.get_ref()) {
            problem.report(
                value.span(),
                format!(
                    "alias `{}` must name a module as a dotted name, e.g. \"matplotlib.pyplot\", not `{}`",
                    key.get_ref(),
                    value.get_ref()
                ),
            );
        } else {
            parsed.aliases.push((key.into_inner(), value.into_inner()));
        }
    }

    for (key, raw_effect) in raw.functions {
        let name = key.get_ref();
        let effect = match convert(raw_effect) {
            Ok(effect) => effect,
            Err((span, message)) => {
                problem.report(span, message);
                continue;
            }
        };
        match function_key(name) {
            Ok(FunctionKey::Exact) => parsed.functions.push((key.into_inner(), effect)),
            Ok(FunctionKey::Wildcard(prefix)) => {
                parsed.wildcards.push((prefix.to_owned(), effect));
            }
            Err(message) => problem.report(key.span(), message),
        }
    }

    for (key, raw_effect) in raw.methods {
        if !is_identifier(key.get_ref()) {
            problem.report(
                key.span(),
                format!(
                    "method `{}` must be a bare method name (a Python identifier, no dots or wildcards)",
                    key.get_ref()
                ),
            );
            continue;
        }
        match convert(raw_effect) {
            Ok(effect) => parsed.methods.push((key.into_inner(), effect)),
            Err((span, message)) => problem.report(span, message),
        }
    }

    match problem.0 {
        None => Ok(parsed),
        Some((offset, message)) => Err(EffectsError::Invalid {
            origin: origin.to_owned(),
            location: Some(Location::of_offset(text, offset)),
            message,
        }),
    }
}

/// Checks the parts of an entry serde could not, and builds the [`Effect`].
fn convert(raw: RawEffect) -> Result<Effect, (Range<usize>, String)> {
    let inplace = match raw.inplace {
        None => None,
        Some(name) if is_identifier(name.get_ref()) => Some(name.into_inner()),
        Some(name) => {
            return Err((
                name.span(),
                format!(
                    "`inplace` must name a keyword argument (a Python identifier), not `{}`",
                    name.get_ref()
                ),
            ));
        }
    };
    let returns = match raw.returns {
        None => Returns::default(),
        Some(text) => parse_spanned(&text)?,
    };
    let mutates = raw
        .mutates
        .iter()
        .map(parse_spanned::<Target>)
        .collect::<Result<Vec<_>, _>>()?;
    let roles = raw
        .roles
        .iter()
        .map(parse_spanned::<Role>)
        .collect::<Result<Vec<_>, _>>()?;
    let mut stateful_with = Vec::with_capacity(raw.stateful_with.len());
    for name in raw.stateful_with {
        if !is_identifier(name.get_ref()) {
            return Err((
                name.span(),
                format!(
                    "`stateful_with` must list keyword arguments (Python identifiers), not `{}`",
                    name.get_ref()
                ),
            ));
        }
        if !roles.contains(&Role::Stateless) {
            return Err((
                name.span(),
                "`stateful_with` needs the `stateless` role (it says when the entry is not stateless)"
                    .to_owned(),
            ));
        }
        stateful_with.push(name.into_inner());
    }
    Ok(Effect {
        mutates: dedup(mutates),
        inplace,
        returns,
        roles: dedup(roles),
        stateful_with,
        on: raw.on,
        note: raw.note,
    })
}

/// Parses one string of an entry, keeping its span for the error.
fn parse_spanned<T: FromStr<Err = String>>(
    text: &Spanned<String>,
) -> Result<T, (Range<usize>, String)> {
    text.get_ref()
        .parse()
        .map_err(|message| (text.span(), message))
}

fn dedup<T: PartialEq>(items: Vec<T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::with_capacity(items.len());
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

enum FunctionKey<'a> {
    Exact,
    /// The text before the final `*`.
    Wildcard(&'a str),
}

/// Classifies a `[functions]` key: `module.function`, or a wildcard ending in
/// `*` such as `numpy.*` or `pandas.read_*`.
fn function_key(name: &str) -> Result<FunctionKey<'_>, String> {
    if let Some(prefix) = name.strip_suffix('*') {
        let valid = match prefix.rsplit_once('.') {
            Some((module, partial)) => {
                !prefix.contains('*')
                    && is_dotted_name(module)
                    && (partial.is_empty() || is_identifier(partial))
            }
            None => false,
        };
        if valid {
            Ok(FunctionKey::Wildcard(prefix))
        } else {
            Err(format!(
                "wildcard `{name}` must be a module path followed by `.*` or `.prefix*`, e.g. \"numpy.*\" or \"pandas.read_*\""
            ))
        }
    } else if is_dotted_name(name) && name.contains('.') {
        Ok(FunctionKey::Exact)
    } else {
        Err(format!(
            "function `{name}` must be qualified with its module as a dotted name, e.g. \"builtins.len\" or \"numpy.random.shuffle\""
        ))
    }
}

/// True for `a`, `a.b`, `a.b.c`, ... where every part is an identifier.
fn is_dotted_name(text: &str) -> bool {
    text.split('.').all(is_identifier)
}
