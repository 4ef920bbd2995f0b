//! Sets of inputs. Most values depend on none or on one input (each element
//! of `[random.random() for i in range(100000)]` is its own input), so those
//! sets hold it inline; larger ones are persistent (`imbl`), so that copying
//! one (every step of a loop copies a value's dependencies) shares it, and a
//! union inserts the smaller set into the larger.

use std::fmt;

/// An input's index in the provenance's table.
pub(crate) type InputId = u32;

/// A set of inputs, iterated in ascending order.
#[derive(Clone, Default)]
pub(crate) struct Ids(Repr);

#[derive(Clone, Default)]
enum Repr {
    #[default]
    Empty,
    One(InputId),
    Many(imbl::OrdSet<InputId>),
}

impl Ids {
    pub(crate) fn new() -> Ids {
        Ids(Repr::Empty)
    }

    pub(crate) fn unit(id: InputId) -> Ids {
        Ids(Repr::One(id))
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(crate) fn len(&self) -> usize {
        match &self.0 {
            Repr::Empty => 0,
            Repr::One(_) => 1,
            Repr::Many(s) => s.len(),
        }
    }

    pub(crate) fn contains(&self, id: &InputId) -> bool {
        match &self.0 {
            Repr::Empty => false,
            Repr::One(one) => one == id,
            Repr::Many(s) => s.contains(id),
        }
    }

    pub(crate) fn insert(&mut self, id: InputId) {
        match &mut self.0 {
            Repr::Empty => self.0 = Repr::One(id),
            Repr::One(one) if *one == id => {}
            Repr::One(one) => self.0 = Repr::Many(imbl::OrdSet::from(vec![*one, id])),
            Repr::Many(s) => {
                s.insert(id);
            }
        }
    }

    pub(crate) fn remove(&mut self, id: &InputId) {
        match &mut self.0 {
            Repr::One(one) if one == id => self.0 = Repr::Empty,
            Repr::Many(s) => {
                s.remove(id);
            }
            Repr::Empty | Repr::One(_) => {}
        }
    }

    /// The union of both sets (the smaller is inserted into the larger).
    pub(crate) fn union(self, other: Ids) -> Ids {
        match (self.0, other.0) {
            (Repr::Empty, r) | (r, Repr::Empty) => Ids(r),
            (Repr::One(a), Repr::One(b)) if a == b => Ids(Repr::One(a)),
            (Repr::One(a), Repr::One(b)) => Ids(Repr::Many(imbl::OrdSet::from(vec![a, b]))),
            (Repr::One(a), Repr::Many(mut s)) | (Repr::Many(mut s), Repr::One(a)) => {
                s.insert(a);
                Ids(Repr::Many(s))
            }
            (Repr::Many(a), Repr::Many(b)) => Ids(Repr::Many(a.union(b))),
        }
    }

    pub(crate) fn iter(&self) -> Iter<'_> {
        match &self.0 {
            Repr::Empty => Iter::One(None),
            Repr::One(one) => Iter::One(Some(one)),
            Repr::Many(s) => Iter::Many(s.iter()),
        }
    }
}

/// The ids of an [`Ids`], in ascending order.
pub(crate) enum Iter<'a> {
    One(Option<&'a InputId>),
    Many(imbl::ordset::Iter<'a, InputId, imbl::shared_ptr::DefaultSharedPtr>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a InputId;

    fn next(&mut self) -> Option<&'a InputId> {
        match self {
            Iter::One(one) => one.take(),
            Iter::Many(it) => it.next(),
        }
    }
}

impl<'a> IntoIterator for &'a Ids {
    type Item = &'a InputId;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl PartialEq for Ids {
    fn eq(&self, other: &Ids) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Ids {}

impl fmt::Debug for Ids {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(of: &[InputId]) -> Ids {
        let mut s = Ids::new();
        for &id in of {
            s.insert(id);
        }
        s
    }

    fn listed(s: &Ids) -> Vec<InputId> {
        s.iter().copied().collect()
    }

    #[test]
    fn one_id_stays_inline_and_grows_into_a_set() {
        let mut s = Ids::unit(7);
        s.insert(7);
        assert_eq!(listed(&s), [7]);
        s.insert(3);
        assert_eq!(listed(&s), [3, 7]);
        s.remove(&7);
        s.remove(&3);
        assert!(s.is_empty());
        assert_eq!(s, Ids::new());
    }

    #[test]
    fn unions_of_every_shape_agree_with_a_set() {
        let shapes: [&[InputId]; 5] = [&[], &[1], &[2], &[1, 5], &[0, 2, 9]];
        for a in shapes {
            for b in shapes {
                let mut expected: Vec<InputId> = a.iter().chain(b).copied().collect();
                expected.sort_unstable();
                expected.dedup();
                let union = ids(a).union(ids(b));
                assert_eq!(listed(&union), expected, "{a:?} ∪ {b:?}");
                assert_eq!(union.len(), expected.len());
                assert!(expected.iter().all(|id| union.contains(id)));
            }
        }
    }

    #[test]
    fn equality_does_not_depend_on_the_representation() {
        let mut many = ids(&[4, 8]);
        many.remove(&8);
        assert_eq!(many, Ids::unit(4));
        assert_eq!(format!("{many:?}"), "{4}");
    }
}
