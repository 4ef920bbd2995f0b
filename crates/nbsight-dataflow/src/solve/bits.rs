//! Dense bit rows for the solvers: a matrix of one row per CFG node in a
//! single allocation, one bit per symbol, and the few row operations the
//! equations need. Cells have tens of symbols and nodes, so per-node bit
//! sets would cost more in allocation than in arithmetic.

use crate::cfg::NodeId;
use crate::symbol::SymId;

/// `rows` rows of `bits` bits each.
#[derive(Debug, Clone, Default)]
pub(crate) struct BitMatrix {
    words: usize,
    data: Vec<u64>,
}

impl BitMatrix {
    /// Makes this `rows` x `bits`, every bit cleared (or set, with `full`),
    /// reusing the allocation.
    pub(super) fn reset(&mut self, rows: usize, bits: usize, full: bool) {
        self.words = bits.div_ceil(64);
        let fill = if full { u64::MAX } else { 0 };
        self.data.clear();
        self.data.resize(rows * self.words, fill);
    }

    /// Words per row.
    pub(super) fn words(&self) -> usize {
        self.words
    }

    /// The row of `node`.
    pub(super) fn row(&self, node: NodeId) -> &[u64] {
        let row = node.index();
        &self.data[row * self.words..(row + 1) * self.words]
    }

    pub(super) fn row_mut(&mut self, node: NodeId) -> &mut [u64] {
        let row = node.index();
        &mut self.data[row * self.words..(row + 1) * self.words]
    }
}

pub(crate) fn insert(row: &mut [u64], symbol: SymId) {
    let bit = symbol.index();
    row[bit / 64] |= 1 << (bit % 64);
}

pub(crate) fn contains(row: &[u64], symbol: SymId) -> bool {
    let bit = symbol.index();
    row[bit / 64] & (1 << (bit % 64)) != 0
}

pub(crate) fn remove(row: &mut [u64], symbol: SymId) {
    let bit = symbol.index();
    row[bit / 64] &= !(1 << (bit % 64));
}

pub(crate) fn union_with(dst: &mut [u64], src: &[u64]) {
    dst.iter_mut().zip(src).for_each(|(d, s)| *d |= s);
}

pub(crate) fn intersect_with(dst: &mut [u64], src: &[u64]) {
    dst.iter_mut().zip(src).for_each(|(d, s)| *d &= s);
}

/// `dst = (dst - kill) | gen`.
pub(crate) fn transfer(dst: &mut [u64], kill: &[u64], gen_set: &[u64]) {
    for ((d, k), g) in dst.iter_mut().zip(kill).zip(gen_set) {
        *d = (*d & !k) | g;
    }
}

/// The symbols of the set bits below `limit`, in increasing order.
pub(crate) fn ones(row: &[u64], limit: usize) -> impl Iterator<Item = SymId> + '_ {
    row.iter().enumerate().flat_map(move |(w, &word)| {
        let mut word = word;
        std::iter::from_fn(move || {
            if word == 0 {
                return None;
            }
            let bit = word.trailing_zeros() as usize;
            word &= word - 1;
            Some(w * 64 + bit)
        })
        .filter(move |&b| b < limit)
        .map(SymId::from_usize)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_operations() {
        let node = NodeId::from_u32;
        let syms = |ids: &[u32]| ids.iter().map(|&i| SymId::from_u32(i)).collect::<Vec<_>>();
        let mut m = BitMatrix::default();
        m.reset(3, 70, false);
        assert_eq!(m.words(), 2);
        insert(m.row_mut(node(1)), SymId::from_u32(3));
        insert(m.row_mut(node(1)), SymId::from_u32(69));
        assert!(contains(m.row(node(1)), SymId::from_u32(69)));
        assert!(!contains(m.row(node(1)), SymId::from_u32(68)));
        let other = m.row(node(1)).to_vec();
        union_with(m.row_mut(node(2)), &other);
        assert_eq!(ones(m.row(node(2)), 70).collect::<Vec<_>>(), syms(&[3, 69]));
        remove(m.row_mut(node(2)), SymId::from_u32(3));
        assert_eq!(ones(m.row(node(2)), 70).collect::<Vec<_>>(), syms(&[69]));
        let mut full = BitMatrix::default();
        full.reset(1, 70, true);
        assert_eq!(
            ones(full.row(node(0)), 70).count(),
            70,
            "bits past the limit are ignored"
        );
        let mut d = full.row(node(0)).to_vec();
        intersect_with(&mut d, m.row(node(1)));
        assert_eq!(ones(&d, 70).collect::<Vec<_>>(), syms(&[3, 69]));
        let mut t = vec![0b1111u64, 0];
        transfer(&mut t, &[0b0011, 0], &[0b1_0000, 0]);
        assert_eq!(t[0], 0b1_1100);
    }
}
