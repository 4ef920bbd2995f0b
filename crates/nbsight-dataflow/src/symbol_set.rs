//! `SymbolSet`: the sets summaries are made of. A sorted, duplicate-free
//! vector: summaries are built once and read many times, and a scope's
//! symbols can be emitted already in order (see `summarize`), so this is
//! cheaper than a tree and serialises as a plain sorted JSON list.

use std::fmt;

use serde::Serialize;

use crate::symbol::Symbol;

/// A sorted set of symbols.
#[derive(Clone, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct SymbolSet(Vec<Symbol>);

impl SymbolSet {
    /// An empty set.
    pub fn new() -> Self {
        SymbolSet(Vec::new())
    }

    /// A set from symbols already sorted and distinct (checked in debug
    /// builds).
    pub(crate) fn from_sorted(symbols: Vec<Symbol>) -> Self {
        debug_assert!(symbols.windows(2).all(|w| w[0] < w[1]));
        SymbolSet(symbols)
    }

    pub fn contains(&self, symbol: &str) -> bool {
        self.0.binary_search_by(|s| s.as_str().cmp(symbol)).is_ok()
    }

    /// Adds `symbol`; `false` if it was there.
    pub fn insert(&mut self, symbol: Symbol) -> bool {
        match self.0.binary_search(&symbol) {
            Ok(_) => false,
            Err(at) => {
                self.0.insert(at, symbol);
                true
            }
        }
    }

    /// Keeps the symbols `keep` accepts.
    pub fn retain(&mut self, keep: impl FnMut(&Symbol) -> bool) {
        self.0.retain(keep);
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Symbol> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn as_slice(&self) -> &[Symbol] {
        &self.0
    }
}

impl Extend<Symbol> for SymbolSet {
    fn extend<I: IntoIterator<Item = Symbol>>(&mut self, iter: I) {
        self.0.extend(iter);
        self.0.sort_unstable();
        self.0.dedup();
    }
}

impl FromIterator<Symbol> for SymbolSet {
    fn from_iter<I: IntoIterator<Item = Symbol>>(iter: I) -> Self {
        let mut set = SymbolSet::new();
        set.extend(iter);
        set
    }
}

impl<'a> IntoIterator for &'a SymbolSet {
    type Item = &'a Symbol;
    type IntoIter = std::slice::Iter<'a, Symbol>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for SymbolSet {
    type Item = Symbol;
    type IntoIter = std::vec::IntoIter<Symbol>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl fmt::Debug for SymbolSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.0.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_as_a_sorted_set() {
        let mut set: SymbolSet = ["b", "a", "b"].into_iter().map(Symbol::from).collect();
        assert_eq!(set.as_slice(), &["a", "b"]);
        assert!(set.insert("c".into()));
        assert!(!set.insert("a".into()));
        assert!(set.contains("c") && !set.contains("z"));
        set.retain(|s| s != "b");
        assert_eq!(set.len(), 2);
        assert_eq!(
            serde_json::to_string(&set).ok().as_deref(),
            Some(r#"["a","c"]"#)
        );
    }
}
