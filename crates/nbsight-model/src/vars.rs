//! Notebook variables: the root names (`df` for `df.col`) cells read and
//! write, interned once per notebook so states and pre-summaries are bit sets.

use compact_str::CompactString;
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;

/// A notebook variable's id.
pub type Var = u32;

/// A set of variables.
pub type VarSet = FixedBitSet;

/// Interns root names.
#[derive(Debug, Clone, Default)]
pub struct Vars {
    ids: FxHashMap<CompactString, Var>,
    names: Vec<CompactString>,
}

impl Vars {
    /// The id of `name`, adding it when new.
    pub fn intern(&mut self, name: &str) -> Var {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as Var;
        self.names.push(CompactString::from(name));
        self.ids.insert(CompactString::from(name), id);
        id
    }

    pub fn get(&self, name: &str) -> Option<Var> {
        self.ids.get(name).copied()
    }

    pub fn name(&self, id: Var) -> &str {
        &self.names[id as usize]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The names of the variables in `set`, sorted.
    pub fn names_of(&self, set: &VarSet) -> Vec<String> {
        let mut names: Vec<String> = set
            .ones()
            .map(|v| self.name(v as Var).to_string())
            .collect();
        names.sort_unstable();
        names
    }
}

/// A set holding `vars`.
pub fn set_of(vars: impl IntoIterator<Item = Var>) -> VarSet {
    let mut set = VarSet::new();
    for v in vars {
        insert(&mut set, v);
    }
    set
}

/// Inserts `v`, growing the set as needed.
pub fn insert(set: &mut VarSet, v: Var) {
    let v = v as usize;
    if v >= set.len() {
        set.grow(v + 1);
    }
    set.insert(v);
}

/// Removes `v` (no-op when absent).
pub fn remove(set: &mut VarSet, v: Var) {
    if (v as usize) < set.len() {
        set.set(v as usize, false);
    }
}

pub fn contains(set: &VarSet, v: Var) -> bool {
    set.contains(v as usize)
}

/// `a ⊆ b`, whatever their lengths.
pub fn is_subset(a: &VarSet, b: &VarSet) -> bool {
    a.ones().all(|v| b.contains(v))
}

/// `a ∩ b ≠ ∅`, whatever their lengths.
pub fn intersects(a: &VarSet, b: &VarSet) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short
        .as_slice()
        .iter()
        .zip(long.as_slice())
        .any(|(x, y)| x & y != 0)
}

/// `a ∪= b`, growing `a`.
pub fn union_with(a: &mut VarSet, b: &VarSet) {
    if b.len() > a.len() {
        a.grow(b.len());
    }
    a.union_with(b);
}

/// Set equality ignoring trailing capacity.
pub fn same(a: &VarSet, b: &VarSet) -> bool {
    is_subset(a, b) && is_subset(b, a)
}

/// `a ∩ frame = key` (word by word, without building the intersection).
pub fn same_within(a: &VarSet, frame: &VarSet, key: &VarSet) -> bool {
    let (a, frame, key) = (a.as_slice(), frame.as_slice(), key.as_slice());
    let words = a.len().max(frame.len()).max(key.len());
    (0..words).all(|i| {
        let word = |s: &[usize]| s.get(i).copied().unwrap_or(0);
        word(a) & word(frame) == word(key)
    })
}
