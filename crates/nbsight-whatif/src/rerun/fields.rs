//! Field-granular symbols as the re-run plan compares them: `nbsight-dataflow`'s
//! canonical paths (`d`, `d['a']`, `df.col`, `lst[3]`, `lst[*]`) split into
//! components. Two paths *may overlap* when one may name a part of the
//! other, component by component, as `nbsight_dataflow::field` matches
//! components (the vocabulary the slicer shares). A change of `d['a']` does not reach a
//! read of `d['b']`; it reaches a read of `d`, and a change of `d` reaches a
//! read of `d['b']`.

use std::rc::Rc;

use nbsight_dataflow::field::{FieldKey, split_path};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// A path: a root name and the components under it. Its names are shared:
/// the re-run plan copies paths from set to set, and a copy only counts
/// references.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Path {
    pub root: Rc<str>,
    parts: SmallVec<[FieldKey; 2]>,
}

impl Path {
    /// A plain name: the whole object.
    pub(super) fn whole(root: &str) -> Path {
        Path {
            root: Rc::from(root),
            parts: SmallVec::new(),
        }
    }

    /// Splits a canonical symbol (quotes inside subscripts respected).
    pub(super) fn parse(symbol: &str) -> Path {
        let (root, parts) = split_path(symbol);
        Path {
            root: Rc::from(root),
            parts: parts.into(),
        }
    }

    /// How many components it has under its root.
    pub(super) fn depth(&self) -> usize {
        self.parts.len()
    }

    /// The same path under another root.
    pub(super) fn rerooted(&self, root: &str) -> Path {
        Path {
            root: Rc::from(root),
            parts: self.parts.clone(),
        }
    }

    /// May one of the two name a part of the other (or the same)?
    pub(super) fn overlaps(&self, other: &Path) -> bool {
        self.root == other.root
            && self
                .parts
                .iter()
                .zip(&other.parts)
                .all(|(a, b)| a.may_match(b))
    }

    /// Is `self` `other` or a part of it (so that binding `other` replaces
    /// it)?
    pub(super) fn within(&self, other: &Path) -> bool {
        self.root == other.root
            && self.parts.len() >= other.parts.len()
            && self.parts.iter().zip(&other.parts).all(|(a, b)| a == b)
    }

    /// The path cut before its first attribute that `assigned` does not
    /// know as a field: reading `df.shape` or `df.loc[0]` reads `df` as a
    /// whole, as the notebook never stores into those attributes.
    pub(super) fn read_through(mut self, assigned: impl Fn(&str) -> bool) -> Path {
        let cut = self.parts.iter().position(|c| match c {
            FieldKey::Attr { key, .. } => !assigned(key),
            _ => false,
        });
        if let Some(cut) = cut {
            self.parts.truncate(cut);
        }
        self
    }

    /// The key spelling of the last component, when it is an attribute or
    /// a string key.
    pub(super) fn last_key(&self) -> Option<&str> {
        match self.parts.last() {
            Some(FieldKey::Attr { key, .. } | FieldKey::Str(key)) => Some(key),
            _ => None,
        }
    }
}

/// A set of paths, kept by root, none within another.
///
/// Shared copy-on-write at two levels (the table of roots, and each root's
/// paths): the plan's forward pass copies its set of changed values at
/// every cell that may touch it and keeps the copy only when the cell is
/// affected, and a cell changes a few roots at most, so a copy costs a
/// reference count and a change copies the table (references) and the
/// one root's paths it touches. An empty set has no table yet.
#[derive(Debug, Clone, Default)]
pub(crate) struct PathSet(Option<Rc<Roots>>);

/// A set's paths by root.
type Roots = FxHashMap<Rc<str>, Rc<Vec<Path>>>;

impl PathSet {
    /// Adds `path` unless a path of the set holds it; drops the paths it
    /// holds. Returns whether it was added.
    pub(super) fn add(&mut self, path: Path) -> bool {
        if self.holds(&path) {
            return false;
        }
        let roots = Rc::make_mut(self.0.get_or_insert_with(Rc::default));
        let list = Rc::make_mut(roots.entry(path.root.clone()).or_default());
        list.retain(|p| !p.within(&path));
        list.push(path);
        true
    }

    /// Is `path` in the set or within one of its paths?
    pub(super) fn holds(&self, path: &Path) -> bool {
        self.under(&path.root).iter().any(|p| path.within(p))
    }

    /// May `path` overlap one of the set's?
    pub(super) fn overlaps(&self, path: &Path) -> bool {
        self.under(&path.root).iter().any(|p| p.overlaps(path))
    }

    /// The set's paths under `root`.
    pub(super) fn under(&self, root: &str) -> &[Path] {
        self.0
            .as_ref()
            .and_then(|roots| roots.get(root))
            .map_or(&[], |l| l.as_slice())
    }

    pub(super) fn has_root(&self, root: &str) -> bool {
        !self.under(root).is_empty()
    }

    /// Drops the paths within `path`.
    pub(super) fn remove_within(&mut self, path: &Path) {
        if !self.under(&path.root).iter().any(|p| p.within(path)) {
            return;
        }
        if let Some(roots) = &mut self.0
            && let Some(list) = Rc::make_mut(roots).get_mut(&path.root)
        {
            Rc::make_mut(list).retain(|p| !p.within(path));
        }
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &Path> {
        self.0
            .iter()
            .flat_map(|roots| roots.values())
            .flat_map(|l| l.iter())
    }

    pub(super) fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }

    /// Does the set hold every path of `other`?
    pub(super) fn covers(&self, other: &PathSet) -> bool {
        other.iter().all(|p| self.holds(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Path {
        Path::parse(s)
    }

    #[test]
    fn overlap_is_field_granular() {
        assert!(p("d['a']").overlaps(&p("d")));
        assert!(p("d").overlaps(&p("d['b']")));
        assert!(!p("d['a']").overlaps(&p("d['b']")));
        assert!(p("d['a']").overlaps(&p("d[*]")));
        assert!(p("df.col").overlaps(&p("df['col']")));
        assert!(!p("xs[0]").overlaps(&p("xs[1]")));
        assert!(p("xs[-1]").overlaps(&p("xs[1]")));
        assert!(!p("d").overlaps(&p("dx")));
        assert!(p("d['a.b']['c']").overlaps(&p("d['a.b']")));
        assert_eq!(p("d['a.b']['c']").depth(), 2);
    }

    #[test]
    fn attributes_never_stored_read_the_whole_object() {
        let cut = p("df.shape").read_through(|_| false);
        assert_eq!(cut, p("df"));
        let kept = p("p.b").read_through(|k| k == "'b'");
        assert_eq!(kept, p("p.b"));
        assert!(p("d['a']").within(&p("d")));
        assert!(!p("d").within(&p("d['a']")));
    }
}
