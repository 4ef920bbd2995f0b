//! Cell positions. A [`CellIndex`] is the 0-based position of a cell in the
//! notebook's full cell list, markdown and raw cells included, as `nbsight
//! cells` numbers cells and as the engines' reports do. Lines and columns
//! inside a cell are 1-based: [`OneIndexed`](crate::OneIndexed).

use std::fmt;

use serde::Serialize;

/// The 0-based position of a cell in a notebook's full cell list (markdown
/// and raw cells included).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
#[repr(transparent)]
pub struct CellIndex(u32);

impl CellIndex {
    /// The cell at 0-based position `index` (which must fit in a `u32`).
    #[inline]
    pub const fn new(index: usize) -> Self {
        debug_assert!(index <= u32::MAX as usize);
        CellIndex(index as u32)
    }

    /// The cell at 0-based position `index`, or `None` past `u32::MAX`.
    #[inline]
    pub fn try_new(index: usize) -> Option<Self> {
        u32::try_from(index).ok().map(CellIndex)
    }

    /// The 0-based position, for indexing the cell list.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The 0-based number, as reports print it (`cell 3`).
impl fmt::Display for CellIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_serializes_as_the_number() {
        let cell = CellIndex::new(3);
        assert_eq!(cell.index(), 3);
        assert_eq!(cell.to_string(), "3");
        assert_eq!(format!("{cell:>3}"), "  3");
        assert_eq!(serde_json::to_string(&cell).unwrap(), "3");
        assert_eq!(CellIndex::try_new(usize::MAX), None);
    }
}
