//! The symbol path an input was first bound to (`x`, `cfg.rate`, `L[7]`),
//! and the position an element path names.

use std::fmt;
use std::sync::Arc;

/// The symbol path an input was first bound to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Symbol {
    /// `x`, `cfg.rate`, `d['k']`.
    Path(Arc<str>),
    /// The element at a position of a list or tuple (`L[7]`): the
    /// container's path, shared by its elements, and the position.
    Element(Arc<str>, u32),
}

impl Symbol {
    /// `(container, position)` when the symbol is an element at a position
    /// (`L[7]`, also when written as a path, `L[3][7]`).
    pub(crate) fn position(&self) -> Option<(&str, u64)> {
        match self {
            Symbol::Element(base, i) => Some((base, u64::from(*i))),
            Symbol::Path(path) => position(path),
        }
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Symbol::Path(path) => f.write_str(path),
            Symbol::Element(base, i) => write!(f, "{base}[{i}]"),
        }
    }
}

/// `base[i]` with `i` a non-negative integer: `(base, i)`.
pub(crate) fn position(symbol: &str) -> Option<(&str, u64)> {
    let inner = symbol.strip_suffix(']')?;
    let open = inner.rfind('[')?;
    let index = inner[open + 1..].parse::<u64>().ok()?;
    Some((&inner[..open], index))
}
