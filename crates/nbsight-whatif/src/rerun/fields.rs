//! Field-granular symbols as the re-run plan compares them: `nbsight-dataflow`'s
//! canonical paths (`d`, `d['a']`, `df.col`, `lst[3]`, `lst[*]`) split into
//! components. Two paths *may overlap* when one may name a part of the
//! other, component by component: equal components match, `[*]` matches any,
//! a negative index any index, and an attribute the string key of the same
//! name (`df.col` is `df['col']`). A change of `d['a']` does not reach a
//! read of `d['b']`; it reaches a read of `d`, and a change of `d` reaches a
//! read of `d['b']`.

use std::rc::Rc;

use nbsight_dataflow::symbol::python_str_repr;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// One component after the root.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Component {
    /// An attribute (`attr`) or a string key, spelt as the key
    /// (`'col'`).
    Key { key: Rc<str>, attr: bool },
    /// `[3]`, `[-1]`, `[True]` (as 1).
    Int(i64),
    /// Another constant key (`[None]`).
    Other(Rc<str>),
    /// `[*]`.
    Any,
}

impl Component {
    fn may_match(&self, other: &Component) -> bool {
        use Component::*;
        match (self, other) {
            (Any, _) | (_, Any) => true,
            (Key { key: a, .. }, Key { key: b, .. }) => a == b,
            (Int(a), Int(b)) => a == b || *a < 0 || *b < 0,
            (Other(a), Other(b)) => a == b,
            _ => false,
        }
    }
}

/// A path: a root name and the components under it. Its names are shared:
/// the re-run plan copies paths from set to set, and a copy only counts
/// references.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Path {
    pub root: Rc<str>,
    parts: SmallVec<[Component; 2]>,
}

impl Path {
    /// A plain name: the whole object.
    pub fn whole(root: &str) -> Path {
        Path {
            root: Rc::from(root),
            parts: SmallVec::new(),
        }
    }

    /// Splits a canonical symbol (quotes inside subscripts respected).
    pub fn parse(symbol: &str) -> Path {
        let bytes = symbol.as_bytes();
        let root_end = symbol.find(['.', '[']).unwrap_or(symbol.len());
        let mut path = Path::whole(&symbol[..root_end]);
        let mut i = root_end;
        while i < bytes.len() {
            if bytes[i] == b'.' {
                let end = symbol[i + 1..]
                    .find(['.', '['])
                    .map_or(symbol.len(), |e| i + 1 + e);
                let name = &symbol[i + 1..end];
                path.parts.push(Component::Key {
                    key: python_str_repr(name).into(),
                    attr: true,
                });
                i = end;
                continue;
            }
            // A subscript: up to its closing bracket outside quotes.
            let start = i + 1;
            let mut quote: Option<u8> = None;
            let mut j = start;
            while j < bytes.len() {
                let b = bytes[j];
                match quote {
                    Some(_) if b == b'\\' => j += 1,
                    Some(q) if b == q => quote = None,
                    Some(_) => {}
                    None if b == b'\'' || b == b'"' => quote = Some(b),
                    None if b == b']' => break,
                    None => {}
                }
                j += 1;
            }
            let inner = &symbol[start..j.min(symbol.len())];
            path.parts.push(match inner {
                "*" => Component::Any,
                "True" => Component::Int(1),
                "False" => Component::Int(0),
                _ if inner.starts_with(['\'', '"']) => Component::Key {
                    key: inner.into(),
                    attr: false,
                },
                _ => inner
                    .parse::<i64>()
                    .map_or_else(|_| Component::Other(inner.into()), Component::Int),
            });
            i = j + 1;
        }
        path
    }

    /// How many components it has under its root.
    pub fn depth(&self) -> usize {
        self.parts.len()
    }

    /// The same path under another root.
    pub fn rerooted(&self, root: &str) -> Path {
        Path {
            root: Rc::from(root),
            parts: self.parts.clone(),
        }
    }

    /// May one of the two name a part of the other (or the same)?
    pub fn overlaps(&self, other: &Path) -> bool {
        self.root == other.root
            && self
                .parts
                .iter()
                .zip(&other.parts)
                .all(|(a, b)| a.may_match(b))
    }

    /// Is `self` `other` or a part of it (so that binding `other` replaces
    /// it)?
    pub fn within(&self, other: &Path) -> bool {
        self.root == other.root
            && self.parts.len() >= other.parts.len()
            && self.parts.iter().zip(&other.parts).all(|(a, b)| a == b)
    }

    /// The path cut before its first attribute that `assigned` does not
    /// know as a field: reading `df.shape` or `df.loc[0]` reads `df` as a
    /// whole, as the notebook never stores into those attributes.
    pub fn read_through(mut self, assigned: impl Fn(&str) -> bool) -> Path {
        let cut = self.parts.iter().position(|c| match c {
            Component::Key { key, attr: true } => !assigned(key),
            _ => false,
        });
        if let Some(cut) = cut {
            self.parts.truncate(cut);
        }
        self
    }

    /// The key spelling of the last component, when it is an attribute or
    /// a string key.
    pub fn last_key(&self) -> Option<&str> {
        match self.parts.last() {
            Some(Component::Key { key, .. }) => Some(key),
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
    pub fn add(&mut self, path: Path) -> bool {
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
    pub fn holds(&self, path: &Path) -> bool {
        self.under(&path.root).iter().any(|p| path.within(p))
    }

    /// May `path` overlap one of the set's?
    pub fn overlaps(&self, path: &Path) -> bool {
        self.under(&path.root).iter().any(|p| p.overlaps(path))
    }

    /// The set's paths under `root`.
    pub fn under(&self, root: &str) -> &[Path] {
        self.0
            .as_ref()
            .and_then(|roots| roots.get(root))
            .map_or(&[], |l| l.as_slice())
    }

    pub fn has_root(&self, root: &str) -> bool {
        !self.under(root).is_empty()
    }

    /// Drops the paths within `path`.
    pub fn remove_within(&mut self, path: &Path) {
        if !self.under(&path.root).iter().any(|p| p.within(path)) {
            return;
        }
        if let Some(roots) = &mut self.0
            && let Some(list) = Rc::make_mut(roots).get_mut(&path.root)
        {
            Rc::make_mut(list).retain(|p| !p.within(path));
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Path> {
        self.0
            .iter()
            .flat_map(|roots| roots.values())
            .flat_map(|l| l.iter())
    }

    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }

    /// Does the set hold every path of `other`?
    pub fn covers(&self, other: &PathSet) -> bool {
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
