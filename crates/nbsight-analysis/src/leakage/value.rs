//! Abstract values of the leakage domain: what a variable's data went through
//! (fitted statistics, resampling, which side of which split, which model)
//! and what kind of object it is (a transformer, a sampler, a pipeline...).

use smallvec::SmallVec;

/// A call site: the cell's index (high bits) and the call's index in the
/// cell's program (low 12 bits).
pub type Site = u32;

pub fn site(cell: usize, call: u32) -> Site {
    ((cell as u32) << 12) | (call & 0xfff)
}

pub fn site_cell(site: Site) -> usize {
    (site >> 12) as usize
}

pub fn site_call(site: Site) -> u32 {
    site & 0xfff
}

/// Which part of a split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    Train,
    Test,
}

/// A fact about where data came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tag {
    /// Transformed with statistics fitted, at this site, on data not yet split.
    Fitted(Site),
    /// Over- or under-sampled at this site before any split.
    Resampled(Site),
    /// One side of the split made at this site.
    Split(Site, Side),
    /// Produced by (or is) the model trained at this site.
    Model(Site),
}

/// Object kinds (bits), from constructor roles.
pub mod kind {
    pub const TRANSFORMER: u8 = 1;
    pub const SAMPLER: u8 = 2;
    pub const PIPELINE: u8 = 4;
    pub const CV: u8 = 8;
    pub const STATELESS: u8 = 16;
}

/// The abstract value of a variable: a set of tags and a set of kinds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Val {
    /// Sorted, without duplicates.
    pub tags: SmallVec<[Tag; 3]>,
    pub kind: u8,
}

impl Val {
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.kind == 0
    }

    pub fn add(&mut self, tag: Tag) {
        if let Err(at) = self.tags.binary_search(&tag) {
            self.tags.insert(at, tag);
        }
    }

    pub fn join(&mut self, other: &Val) {
        for &tag in &other.tags {
            self.add(tag);
        }
        self.kind |= other.kind;
    }

    pub fn leq(&self, other: &Val) -> bool {
        self.kind & !other.kind == 0 && sorted_subset(&self.tags, &other.tags)
    }

    pub fn has(&self, tag: Tag) -> bool {
        self.tags.binary_search(&tag).is_ok()
    }

    /// Went through a split (either side).
    pub fn is_split(&self) -> bool {
        self.tags.iter().any(|t| matches!(t, Tag::Split(..)))
    }

    /// The models this value is or comes from.
    pub fn models(&self) -> impl Iterator<Item = Site> + '_ {
        self.tags.iter().filter_map(|t| match t {
            Tag::Model(s) => Some(*s),
            _ => None,
        })
    }

    /// The tags that leak when shared by training and test data.
    pub fn leaky(&self) -> impl Iterator<Item = Tag> + '_ {
        self.tags
            .iter()
            .copied()
            .filter(|t| matches!(t, Tag::Fitted(_) | Tag::Resampled(_)))
    }

    /// The data tags only (no model tags).
    pub fn data(&self) -> Val {
        Val {
            tags: self
                .tags
                .iter()
                .copied()
                .filter(|t| !matches!(t, Tag::Model(_)))
                .collect(),
            kind: 0,
        }
    }
}

/// `a ⊆ b` for sorted slices without duplicates, in one merge walk.
pub fn sorted_subset<T: Ord>(a: &[T], b: &[T]) -> bool {
    if a.len() > b.len() {
        return false;
    }
    let mut rest = b.iter();
    'outer: for x in a {
        for y in rest.by_ref() {
            match y.cmp(x) {
                std::cmp::Ordering::Less => continue,
                std::cmp::Ordering::Equal => continue 'outer,
                std::cmp::Ordering::Greater => return false,
            }
        }
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subset_by_merge_walk() {
        assert!(sorted_subset(&[1, 3], &[1, 2, 3]));
        assert!(!sorted_subset(&[1, 4], &[1, 2, 3]));
        assert!(sorted_subset::<u8>(&[], &[]));
        assert!(!sorted_subset(&[5], &[]));
    }
}
