//! Notebook variables: the root names (`df` for `df.col`) cells read and
//! write, interned once per notebook so states and pre-summaries are bit sets.
//! A [`Var`] is its own id type (not a `usize`, not a dataflow `SymId`), and a
//! [`VarSet`] is a bit set that only takes [`Var`]s.

use std::fmt;

use compact_str::CompactString;
use fixedbitset::FixedBitSet;
use nbsight_dataflow::index::IndexVec;
use rustc_hash::FxHashMap;

nbsight_dataflow::newtype_index! {
    /// A notebook variable's id.
    pub struct Var;
}

/// Interns root names.
#[derive(Debug, Clone, Default)]
pub struct Vars {
    ids: FxHashMap<CompactString, Var>,
    names: IndexVec<Var, CompactString>,
}

impl Vars {
    /// The id of `name`, adding it when new.
    pub fn intern(&mut self, name: &str) -> Var {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.push(CompactString::from(name));
        self.ids.insert(CompactString::from(name), id);
        id
    }

    pub fn get(&self, name: &str) -> Option<Var> {
        self.ids.get(name).copied()
    }

    pub fn name(&self, id: Var) -> &str {
        &self.names[id]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The names of the variables in `set`, sorted.
    pub fn names_of(&self, set: &VarSet) -> Vec<String> {
        let mut names: Vec<String> = set.iter().map(|v| self.name(v).to_string()).collect();
        names.sort_unstable();
        names
    }
}

/// A set of variables: a bit set indexed by [`Var`] that grows as variables
/// are added. Its operations accept sets of any lengths; `==` (derived from
/// the bit set's) also compares lengths, [`VarSet::same`] does not.
#[derive(Default, PartialEq, Eq, Hash)]
pub struct VarSet(FixedBitSet);

impl Clone for VarSet {
    #[inline]
    fn clone(&self) -> Self {
        VarSet(self.0.clone())
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0);
    }
}

impl fmt::Debug for VarSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl VarSet {
    /// The empty set.
    #[inline]
    pub const fn new() -> Self {
        VarSet(FixedBitSet::new())
    }

    /// Inserts `v`, growing the set as needed.
    #[inline]
    pub fn insert(&mut self, v: Var) {
        let v = v.index();
        if v >= self.0.len() {
            self.0.grow(v + 1);
        }
        self.0.insert(v);
    }

    /// Removes `v` (no-op when absent).
    #[inline]
    pub fn remove(&mut self, v: Var) {
        if v.index() < self.0.len() {
            self.0.set(v.index(), false);
        }
    }

    #[inline]
    pub fn contains(&self, v: Var) -> bool {
        self.0.contains(v.index())
    }

    /// The variables of the set, in id order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = Var> + '_ {
        self.0.ones().map(Var::from_usize)
    }

    /// No variable in the set?
    #[inline]
    pub fn is_clear(&self) -> bool {
        self.0.is_clear()
    }

    /// How many variables the set holds.
    #[inline]
    pub fn count(&self) -> usize {
        self.0.count_ones(..)
    }

    /// Removes every variable (keeping the capacity).
    #[inline]
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// `self ⊆ other`, whatever their lengths.
    #[inline]
    pub fn is_subset(&self, other: &VarSet) -> bool {
        self.0.ones().all(|v| other.0.contains(v))
    }

    /// `self ∩ other ≠ ∅`, whatever their lengths.
    #[inline]
    pub fn intersects(&self, other: &VarSet) -> bool {
        let (short, long) = if self.0.len() <= other.0.len() {
            (self, other)
        } else {
            (other, self)
        };
        short
            .0
            .as_slice()
            .iter()
            .zip(long.0.as_slice())
            .any(|(x, y)| x & y != 0)
    }

    /// `self ∪= other`, growing `self`.
    #[inline]
    pub fn union_with(&mut self, other: &VarSet) {
        if other.0.len() > self.0.len() {
            self.0.grow(other.0.len());
        }
        self.0.union_with(&other.0);
    }

    /// `self ∩= other` (the length of `self` is kept).
    #[inline]
    pub fn intersect_with(&mut self, other: &VarSet) {
        self.0.intersect_with(&other.0);
    }

    /// `self -= other`.
    #[inline]
    pub fn difference_with(&mut self, other: &VarSet) {
        self.0.difference_with(&other.0);
    }

    /// `self := self △ other` (the variables in exactly one of them).
    #[inline]
    pub fn symmetric_difference_with(&mut self, other: &VarSet) {
        self.0.symmetric_difference_with(&other.0);
    }

    /// Set equality ignoring trailing capacity.
    #[inline]
    pub fn same(&self, other: &VarSet) -> bool {
        self.is_subset(other) && other.is_subset(self)
    }

    /// `self ∩ frame = key` (word by word, without building the
    /// intersection).
    #[inline]
    pub fn same_within(&self, frame: &VarSet, key: &VarSet) -> bool {
        let (a, frame, key) = (self.0.as_slice(), frame.0.as_slice(), key.0.as_slice());
        let words = a.len().max(frame.len()).max(key.len());
        (0..words).all(|i| {
            let word = |s: &[usize]| s.get(i).copied().unwrap_or(0);
            word(a) & word(frame) == word(key)
        })
    }
}

impl FromIterator<Var> for VarSet {
    /// A set holding the variables.
    fn from_iter<I: IntoIterator<Item = Var>>(vars: I) -> Self {
        let mut set = VarSet::new();
        set.extend(vars);
        set
    }
}

impl Extend<Var> for VarSet {
    fn extend<I: IntoIterator<Item = Var>>(&mut self, vars: I) {
        for v in vars {
            self.insert(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ids: &[u32]) -> VarSet {
        ids.iter().map(|&i| Var::from_u32(i)).collect()
    }

    #[test]
    fn sets_of_any_lengths() {
        let (a, b) = (set(&[1, 70]), set(&[1]));
        assert!(a.contains(Var::from_u32(70)) && !b.contains(Var::from_u32(70)));
        assert!(b.is_subset(&a) && !a.is_subset(&b));
        assert!(a.intersects(&b) && !set(&[2]).intersects(&a));
        let mut c = b.clone();
        c.union_with(&a);
        assert!(c.same(&a) && c == a);
        c.remove(Var::from_u32(70));
        assert!(c.same(&b) && c != b, "`==` compares lengths too");
        assert!(a.same_within(&set(&[70, 3]), &set(&[70])));
        assert_eq!(
            a.iter().collect::<Vec<_>>(),
            [Var::from_u32(1), Var::from_u32(70)]
        );
        assert_eq!(format!("{a:?}"), "{Var(1), Var(70)}");
    }
}
