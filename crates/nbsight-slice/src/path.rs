//! Field-granular symbols as the slicer compares them (seed 004, sec. 3.1).
//!
//! Symbols are `nbsight-dataflow`'s canonical paths (`lst`, `lst[3]`,
//! `d['k']`, `df.col`, `lst[*]`), interned once per notebook in a
//! [`SymbolTable`] that keeps parent links. Two paths *may overlap* when one
//! may name a part of the other, component by component, as
//! `nbsight_dataflow::field` matches components (the vocabulary the re-run
//! plans share).
//!
//! A definition of `S` reaches a read of `R` when `S` may be a prefix of `R`
//! (writing `lst` changes `lst[2]`) or, for a read of the whole value, `R`
//! may be a prefix of `S` (writing `lst[3]` changes `lst`). Writing `lst[3]`
//! does not change `lst[2]`: that is field granularity.

use nbsight_dataflow::field::FieldKey;
use nbsight_dataflow::index::IndexVec;
use nbsight_dataflow::symbol::{SymId, SymbolTable};

/// The last component of a path (`None`: the path is a plain name).
type Component = Option<FieldKey>;

/// May the two last components name the same part? (Roots match roots:
/// equal roots are checked by interning.)
fn may_match(a: &Component, b: &Component) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a.may_match(b),
        _ => false,
    }
}

/// The notebook's symbols with what comparing them needs.
#[derive(Debug, Default)]
pub(crate) struct Paths {
    pub table: SymbolTable,
    depth: IndexVec<SymId, u16>,
    root: IndexVec<SymId, SymId>,
    last: IndexVec<SymId, Component>,
}

impl Paths {
    /// The id of `symbol`, interning it (and its parents).
    pub(crate) fn intern(&mut self, symbol: &str) -> SymId {
        let before = self.table.len();
        let id = self.table.intern(symbol);
        // New ids (the symbol and perhaps its parents) are dense and parents
        // come first.
        for new in (before..self.table.len()).map(SymId::from_usize) {
            let parent = self.table.parent(new);
            let name = self.table.name(new);
            let component =
                parent.map(|p| FieldKey::after_parent(&name[self.table.name(p).len()..]));
            let (depth, root) = match parent {
                Some(p) => (self.depth[p] + 1, self.root[p]),
                None => (0, new),
            };
            self.depth.push(depth);
            self.root.push(root);
            self.last.push(component);
        }
        id
    }

    /// The plain name `id` starts with.
    pub(crate) fn root(&self, id: SymId) -> SymId {
        self.root[id]
    }

    /// How many components follow the root (`lst[3]`: 1).
    pub(crate) fn depth(&self, id: SymId) -> u16 {
        self.depth[id]
    }

    pub(crate) fn is_root(&self, id: SymId) -> bool {
        self.depth[id] == 0
    }

    pub(crate) fn name(&self, id: SymId) -> &str {
        self.table.name(id)
    }

    /// How many symbols there are.
    pub(crate) fn len(&self) -> usize {
        self.table.len()
    }

    /// May `prefix` name `path` or a path `path` is nested in? (Both have the
    /// same root.)
    pub(crate) fn may_prefix(&self, prefix: SymId, path: SymId) -> bool {
        let (dp, dq) = (self.depth[prefix], self.depth[path]);
        if dp > dq {
            return false;
        }
        let mut q = path;
        for _ in dp..dq {
            match self.table.parent(q) {
                Some(p) => q = p,
                None => return false,
            }
        }
        let mut p = prefix;
        loop {
            if !may_match(&self.last[p], &self.last[q]) {
                return false;
            }
            match (self.table.parent(p), self.table.parent(q)) {
                (Some(pp), Some(qq)) => (p, q) = (pp, qq),
                _ => return true,
            }
        }
    }

    /// Does a definition of `def` reach a read of `read`? `whole`: the read
    /// uses the whole value (`lst` in `print(lst)`), not only a way to a
    /// nested path (`lst` in `lst[2]`).
    pub(crate) fn reaches(&self, def: SymId, read: SymId, whole: bool) -> bool {
        self.may_prefix(def, read) || (whole && self.may_prefix(read, def))
    }

    /// Is `path` `ancestor` or nested in it (exactly: a definite write of
    /// `ancestor` replaces `path`)?
    pub(crate) fn replaces(&self, ancestor: SymId, path: SymId) -> bool {
        self.table.is_ancestor_or_self(ancestor, path)
    }

    /// Is the last component of `id` an attribute (`.name`)?
    pub(crate) fn is_attr(&self, id: SymId) -> bool {
        matches!(self.last[id], Some(FieldKey::Attr { .. }))
    }

    /// The attribute `id` ends with (`col` for `df.col`).
    pub(crate) fn attr_name(&self, id: SymId) -> Option<&str> {
        self.last[id].as_ref()?.attr_name()
    }

    /// The path `id` is directly nested in.
    pub(crate) fn parent(&self, id: SymId) -> Option<SymId> {
        self.table.parent(id)
    }

    /// Is the last component of `id` an integer index (deleting it shifts
    /// the items after it)?
    pub(crate) fn is_int_index(&self, id: SymId) -> bool {
        matches!(self.last[id], Some(FieldKey::Int(_)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(symbols: &[&str]) -> (Paths, Vec<SymId>) {
        let mut p = Paths::default();
        let ids = symbols.iter().map(|s| p.intern(s)).collect();
        (p, ids)
    }

    #[test]
    fn field_writes_do_not_reach_other_fields() {
        let (p, ids) = paths(&["lst", "lst[2]", "lst[3]", "lst[*]", "lst[-1]"]);
        let [lst, two, three, any, last] = ids[..] else {
            unreachable!()
        };
        // Writing lst[3] does not change lst[2], nor the reverse.
        assert!(!p.reaches(three, two, true));
        assert!(!p.reaches(two, three, true));
        // Writing lst changes every item; writing an item changes lst.
        assert!(p.reaches(lst, two, true));
        assert!(p.reaches(three, lst, true));
        // ...unless lst is only the way to an item.
        assert!(!p.reaches(three, lst, false));
        // Unknown and negative indexes may be any item.
        assert!(p.reaches(any, two, true) && p.reaches(three, any, true));
        assert!(p.reaches(last, three, true));
    }

    #[test]
    fn attributes_and_keys() {
        let (p, ids) = paths(&[
            "df.col",
            "df['col']",
            "df['x']",
            "d[True]",
            "d[1]",
            "d[None]",
        ]);
        assert!(p.reaches(ids[0], ids[1], true));
        assert!(!p.reaches(ids[0], ids[2], true));
        assert!(p.reaches(ids[3], ids[4], true));
        assert!(!p.reaches(ids[5], ids[4], true));
        let (p, ids) = paths(&["a.b.c", "a.b", "a.x.c", "a"]);
        assert!(p.may_prefix(ids[1], ids[0]));
        assert!(!p.may_prefix(ids[0], ids[1]));
        assert!(!p.reaches(ids[2], ids[0], true));
        assert_eq!(p.root(ids[0]), ids[3]);
        assert!(p.replaces(ids[1], ids[0]) && !p.replaces(ids[0], ids[1]));
    }
}
