//! Typed indices: each kind of dense id (a symbol of a scope, a node of a
//! CFG, a notebook variable, a call site) is a type of its own, so that one
//! kind of id cannot index another kind's table: a [`SymId`] is not a
//! `Var`, and neither is a `usize`.
//!
//! [`newtype_index!`] declares such an id (a `u32` behind a
//! `#[repr(transparent)]` struct) and [`IndexVec`] is a vector indexed by
//! one. This is the model of ruff's `ruff_index` (`newtype_index`,
//! `IndexVec`), written here because the few lines these ids need cost less
//! than the crate and its proc macro.
//!
//! [`SymId`]: crate::symbol::SymId

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A dense id: a position in the table of its kind.
pub trait Idx: Copy + Eq + fmt::Debug {
    /// The id at position `index`.
    fn from_usize(index: usize) -> Self;
    /// The position of the id in its table.
    fn index(self) -> usize;
}

/// Declares `struct $name(u32)`, an [`Idx`] with `from_usize`, `from_u32`,
/// `index` and `as_u32` (and `Debug` as `$name(3)`).
#[macro_export]
macro_rules! newtype_index {
    ($(#[$attr:meta])* $vis:vis struct $name:ident;) => {
        $(#[$attr])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(transparent)]
        $vis struct $name(u32);

        impl $name {
            /// The id at position `index` (which must fit in a `u32`).
            #[inline]
            pub const fn from_usize(index: usize) -> Self {
                debug_assert!(index <= u32::MAX as usize);
                Self(index as u32)
            }

            /// The id at position `index`.
            #[inline]
            pub const fn from_u32(index: u32) -> Self {
                Self(index)
            }

            /// The position of the id in its table.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The position of the id in its table, as stored.
            #[inline]
            pub const fn as_u32(self) -> u32 {
                self.0
            }
        }

        impl $crate::index::Idx for $name {
            #[inline]
            fn from_usize(index: usize) -> Self {
                Self::from_usize(index)
            }

            #[inline]
            fn index(self) -> usize {
                self.index()
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, concat!(stringify!($name), "({})"), self.0)
            }
        }
    };
}

/// A vector indexed by the ids `I` of its elements.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IndexVec<I, T> {
    raw: Vec<T>,
    _ids: PhantomData<fn(&I)>,
}

impl<I: Idx, T> IndexVec<I, T> {
    #[inline]
    pub const fn new() -> Self {
        IndexVec {
            raw: Vec::new(),
            _ids: PhantomData,
        }
    }

    #[inline]
    pub fn with_capacity(capacity: usize) -> Self {
        Self::from_raw(Vec::with_capacity(capacity))
    }

    /// The vector whose element `I::from_usize(i)` is `raw[i]`.
    #[inline]
    pub fn from_raw(raw: Vec<T>) -> Self {
        IndexVec {
            raw,
            _ids: PhantomData,
        }
    }

    /// `n` copies of `value`.
    #[inline]
    pub fn from_elem_n(value: T, n: usize) -> Self
    where
        T: Clone,
    {
        Self::from_raw(vec![value; n])
    }

    /// Appends `value` and returns its id.
    #[inline]
    pub fn push(&mut self, value: T) -> I {
        let id = I::from_usize(self.raw.len());
        self.raw.push(value);
        id
    }

    /// The id the next pushed element gets.
    #[inline]
    pub fn next_index(&self) -> I {
        I::from_usize(self.raw.len())
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.raw.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    #[inline]
    pub fn get(&self, id: I) -> Option<&T> {
        self.raw.get(id.index())
    }

    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.raw.iter()
    }

    #[inline]
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.raw.iter_mut()
    }

    /// The elements with their ids.
    #[inline]
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + '_ {
        self.raw
            .iter()
            .enumerate()
            .map(|(i, value)| (I::from_usize(i), value))
    }

    /// The ids of the elements, in order.
    #[inline]
    pub fn indices(&self) -> impl DoubleEndedIterator<Item = I> + use<I, T> {
        (0..self.raw.len()).map(I::from_usize)
    }

    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        self.raw.reserve(additional);
    }

    #[inline]
    pub fn clear(&mut self) {
        self.raw.clear();
    }

    #[inline]
    pub fn resize(&mut self, len: usize, value: T)
    where
        T: Clone,
    {
        self.raw.resize(len, value);
    }

    #[inline]
    pub fn resize_with(&mut self, len: usize, f: impl FnMut() -> T) {
        self.raw.resize_with(len, f);
    }

    /// The elements as a slice indexed by position.
    #[inline]
    pub fn as_raw(&self) -> &[T] {
        &self.raw
    }

    #[inline]
    pub fn into_raw(self) -> Vec<T> {
        self.raw
    }
}

impl<I: Idx, T> Default for IndexVec<I, T> {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}

impl<I: Idx, T: fmt::Debug> fmt::Debug for IndexVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.raw, f)
    }
}

impl<I: Idx, T> Index<I> for IndexVec<I, T> {
    type Output = T;

    #[inline]
    fn index(&self, id: I) -> &T {
        &self.raw[id.index()]
    }
}

impl<I: Idx, T> IndexMut<I> for IndexVec<I, T> {
    #[inline]
    fn index_mut(&mut self, id: I) -> &mut T {
        &mut self.raw[id.index()]
    }
}

impl<'a, I: Idx, T> IntoIterator for &'a IndexVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter()
    }
}

impl<'a, I: Idx, T> IntoIterator for &'a mut IndexVec<I, T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter_mut()
    }
}

impl<I: Idx, T> Extend<T> for IndexVec<I, T> {
    #[inline]
    fn extend<It: IntoIterator<Item = T>>(&mut self, iter: It) {
        self.raw.extend(iter);
    }
}

impl<I: Idx, T> FromIterator<T> for IndexVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(iter: It) -> Self {
        Self::from_raw(iter.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        unreachable_pub,
        reason = "the macro makes a public id; this one is a test's"
    )]
    use super::*;

    newtype_index! {
        struct Id;
    }

    #[test]
    fn ids_index_their_vectors() {
        let mut v: IndexVec<Id, &str> = IndexVec::new();
        let a = v.push("a");
        let b = v.push("b");
        assert_eq!((a, b), (Id::from_u32(0), Id::from_usize(1)));
        assert_eq!(v[b], "b");
        assert_eq!(b.as_u32(), 1);
        assert_eq!(v.next_index().index(), 2);
        assert_eq!(v.indices().collect::<Vec<_>>(), [a, b]);
        assert_eq!(format!("{b:?}"), "Id(1)");
        assert_eq!(std::mem::size_of::<Id>(), 4);
    }
}
