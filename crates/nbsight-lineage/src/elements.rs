//! Element stores that may leave the element as it was (`y[0] = 8` when
//! `y[0]` already holds that `8`): the caller reports the identity of the
//! object at each such element before and after the run, and a store that
//! left the same object there changes nothing for what was computed from
//! it (as a name bound again to its object does).
//!
//! Only a name's element at a constant index or key is watched (`y[0]`,
//! `d['k']`), read by the caller from an exact `list` or `dict` without
//! running user code.

use nbsight_dataflow::access::AccessKind;
use nbsight_dataflow::symbol::{Symbol, parent, root};

use crate::cells::CellFacts;

/// The key of a watched element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ElementKey {
    /// A list index or an `int` dict key.
    Index(i64),
    /// A `str` dict key.
    Name(String),
}

/// An element a cell stores into, whose object is compared before and
/// after the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchedElement {
    /// Its path (`y[0]`).
    pub path: Symbol,
    /// The name holding the container (`y`).
    pub name: String,
    pub key: ElementKey,
}

/// What a run left at a watched element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementIdentity {
    pub path: Symbol,
    /// The identity of the object there before and after the run (`None`:
    /// not there, or not read).
    pub before: Option<u64>,
    pub after: Option<u64>,
}

impl ElementIdentity {
    /// The run left the object that was there.
    pub fn unchanged(&self) -> bool {
        self.before.is_some() && self.before == self.after
    }
}

/// The key a subscript component spells (`[0]`, `['k']`), when it is a
/// plain `int` or a `str` without escapes.
fn key_of(component: &str) -> Option<ElementKey> {
    let inner = component.strip_prefix('[')?.strip_suffix(']')?;
    if let Ok(i) = inner.parse::<i64>() {
        return Some(ElementKey::Index(i));
    }
    let quoted = inner
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .or_else(|| inner.strip_prefix('"').and_then(|s| s.strip_suffix('"')))?;
    (!quoted.contains('\\')).then(|| ElementKey::Name(quoted.to_string()))
}

/// The elements of names `facts`' statements store into (`y[0] = v`).
pub(crate) fn watched(facts: &CellFacts) -> Vec<WatchedElement> {
    let mut out: Vec<WatchedElement> = Vec::new();
    for stmt in &facts.statements {
        for access in &stmt.accesses {
            if access.kind != AccessKind::Write || access.implied {
                continue;
            }
            let path = access.symbol.as_str();
            let name = root(path);
            if parent(path) != Some(name) {
                continue;
            }
            let Some(key) = key_of(&path[name.len()..]) else {
                continue;
            };
            if !out.iter().any(|w| w.path == access.symbol) {
                out.push(WatchedElement {
                    path: access.symbol.clone(),
                    name: name.to_string(),
                    key,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_subscript_components() {
        assert_eq!(key_of("[3]"), Some(ElementKey::Index(3)));
        assert_eq!(key_of("[-1]"), Some(ElementKey::Index(-1)));
        assert_eq!(key_of("['k']"), Some(ElementKey::Name("k".into())));
        assert_eq!(key_of("[\"it's\"]"), Some(ElementKey::Name("it's".into())));
        assert_eq!(key_of("['a\\n']"), None);
        assert_eq!(key_of("[True]"), None);
        assert_eq!(key_of(".x"), None);
    }

    #[test]
    fn stores_into_a_names_elements_are_watched() {
        let effects = nbsight_dataflow::Effects::builtin();
        let mut cache = crate::cells::FactsCache::default();
        let facts = cache.facts("y[0] = 8\nd['k'] = 1\na.b[0] = 2\nz = y[1]", &effects);
        let paths: Vec<String> = watched(&facts).iter().map(|w| w.path.to_string()).collect();
        assert_eq!(paths, vec!["y[0]", "d['k']"]);
    }
}
