//! Abstract values of the leakage domain: what a variable's data went through
//! (fitted statistics, resampling, which side of which split, which model)
//! and what kind of object it is (a transformer, a sampler, a pipeline...).

use nbsight_model::vars::Var;
use smallvec::SmallVec;

/// A call site where the domain creates facts: a dense id given by the
/// model's [`SiteTable`](nbsight_model::SiteTable), which knows its cell and
/// call.
pub(crate) use nbsight_model::Site;

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
    /// Transformed with statistics fitted, at this site, on a whole side of
    /// a split: harmless for that split's test side, but cross-validating on
    /// it lets every fold's validation rows shape the statistics.
    FittedSide(Site),
    /// Over- or under-sampled at this site before any split.
    Resampled(Site),
    /// One side of the split made at this site.
    Split(Site, Side),
    /// Produced by (or is) the model trained at this site.
    Model(Site),
    /// Rows read at this site (a file, a bundled dataset): what tells that
    /// data unsplit and a split's held-out side hold the same rows.
    Source(Site),
}

/// Tags per site in the bit layout.
const TAG_KINDS: u32 = 7;

/// The bits of a word of [`Tags`] that are [`Tag::Model`] tags (bit `b` of
/// the set is one when `b % TAG_KINDS == 4`), by the word's index modulo
/// [`TAG_KINDS`]: a word holds 64 bits, one more than a multiple of 7, so
/// the pattern of word `i` depends on `i % 7` only.
const MODEL_BITS: Kinds = kind_bits(1 << 4);

/// The same for [`Tag::Split`] tags (either side: `b % TAG_KINDS` is 2 or 3).
const SPLIT_BITS: Kinds = kind_bits(1 << 2 | 1 << 3);

/// The same for [`Tag::Source`] tags (`b % TAG_KINDS == 6`).
const SOURCE_BITS: Kinds = kind_bits(1 << 6);

/// Per word index modulo [`TAG_KINDS`], the bits of some kinds of tags.
type Kinds = [u64; TAG_KINDS as usize];

/// The bits of the kinds in `kinds` (bit `k` for `b % TAG_KINDS == k`).
const fn kind_bits(kinds: u8) -> Kinds {
    let mut masks = [0u64; TAG_KINDS as usize];
    let mut i = 0;
    while i < TAG_KINDS as usize {
        let mut k = 0;
        while k < 64 {
            if kinds & (1 << ((i as u64 * 64 + k) % TAG_KINDS as u64)) != 0 {
                masks[i] |= 1 << k;
            }
            k += 1;
        }
        i += 1;
    }
    masks
}

impl Tag {
    pub fn site(self) -> Site {
        match self {
            Tag::Fitted(s)
            | Tag::FittedSide(s)
            | Tag::Resampled(s)
            | Tag::Split(s, _)
            | Tag::Model(s)
            | Tag::Source(s) => s,
        }
    }

    fn bit(self) -> u32 {
        let first = self.site().as_u32() * TAG_KINDS;
        match self {
            Tag::Fitted(_) => first,
            Tag::Resampled(_) => first + 1,
            Tag::Split(_, Side::Train) => first + 2,
            Tag::Split(_, Side::Test) => first + 3,
            Tag::Model(_) => first + 4,
            Tag::FittedSide(_) => first + 5,
            Tag::Source(_) => first + 6,
        }
    }

    fn from_bit(bit: u32) -> Tag {
        let s = Site::from_u32(bit / TAG_KINDS);
        match bit % TAG_KINDS {
            0 => Tag::Fitted(s),
            1 => Tag::Resampled(s),
            2 => Tag::Split(s, Side::Train),
            3 => Tag::Split(s, Side::Test),
            4 => Tag::Model(s),
            5 => Tag::FittedSide(s),
            _ => Tag::Source(s),
        }
    }
}

/// A set of tags as bits (no trailing zero words, so equal sets are equal
/// values): joins and orders are a few word operations however many
/// models a notebook trains.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tags(SmallVec<[u64; 4]>);

impl Tags {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds `tag`; a tag of [`NO_SITE`](nbsight_model::NO_SITE) (a call the
    /// site table does not know) names nothing and is dropped.
    pub fn insert(&mut self, tag: Tag) {
        if tag.site() == nbsight_model::NO_SITE {
            return;
        }
        let bit = tag.bit();
        let word = (bit / 64) as usize;
        if self.0.len() <= word {
            self.0.resize(word + 1, 0);
        }
        self.0[word] |= 1 << (bit % 64);
    }

    pub fn contains(&self, tag: Tag) -> bool {
        if tag.site() == nbsight_model::NO_SITE {
            return false;
        }
        let bit = tag.bit();
        self.0
            .get((bit / 64) as usize)
            .is_some_and(|w| w & (1 << (bit % 64)) != 0)
    }

    pub fn union_with(&mut self, other: &Tags) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    pub fn is_subset(&self, other: &Tags) -> bool {
        self.0.len() <= other.0.len() && self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }

    /// The tags, in bit order (by site, then kind).
    pub fn iter(&self) -> impl Iterator<Item = Tag> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut w = word;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some(Tag::from_bit(i as u32 * 64 + b))
            })
        })
    }

    /// The tags but the [`Tag::Model`] ones (`filtered` keeping the
    /// others), a word at a time.
    pub fn without_models(&self) -> Tags {
        let mut words: SmallVec<[u64; 4]> = self
            .0
            .iter()
            .enumerate()
            .map(|(i, &word)| word & !MODEL_BITS[i % TAG_KINDS as usize])
            .collect();
        while words.last() == Some(&0) {
            words.pop();
        }
        Tags(words)
    }

    /// Has it a tag of the kinds `kinds` marks?
    fn has_any(&self, kinds: &Kinds) -> bool {
        self.0
            .iter()
            .enumerate()
            .any(|(i, &word)| word & kinds[i % TAG_KINDS as usize] != 0)
    }

    /// The tags that satisfy `keep`.
    pub fn filtered(&self, keep: impl Fn(Tag) -> bool) -> Tags {
        let mut out = Tags::default();
        for tag in self.iter().filter(|t| keep(*t)) {
            out.insert(tag);
        }
        out
    }
}

/// Object kinds (bits), from constructor roles.
pub(crate) mod kind {
    pub(crate) const TRANSFORMER: u8 = 1;
    pub(crate) const SAMPLER: u8 = 2;
    pub(crate) const PIPELINE: u8 = 4;
    pub(crate) const CV: u8 = 8;
    pub(crate) const STATELESS: u8 = 16;
    /// A transformer that learns from the rows: values join kinds, so a
    /// composite holding one stateful and one stateless transformer (a
    /// `ColumnTransformer` with a scaler and a default `OneHotEncoder`) has
    /// both bits, and is not stateless.
    pub(crate) const STATEFUL: u8 = 32;

    /// Every transformer the value may be is stateless.
    pub(crate) fn is_stateless(kind: u8) -> bool {
        kind & STATELESS != 0 && kind & STATEFUL == 0
    }
}

/// The abstract value of a variable: a set of tags, a set of kinds, and
/// the user functions that fitted statistics on its rows before any split.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Val {
    pub tags: Tags,
    pub kind: u8,
    /// User functions (by the variable naming them, sorted) whose body fits
    /// statistics on the data given (`def prep(d): return
    /// StandardScaler().fit_transform(d)`), called on these rows before
    /// any split: a leaky fact as `Tag::Fitted` is, without a call site
    /// of its own.
    pub fitted_by: SmallVec<[Var; 1]>,
}

impl Val {
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.kind == 0 && self.fitted_by.is_empty()
    }

    /// Adds that user function `f` fitted statistics on these rows.
    pub fn add_fitted_by(&mut self, f: Var) {
        if let Err(i) = self.fitted_by.binary_search(&f) {
            self.fitted_by.insert(i, f);
        }
    }

    pub fn add(&mut self, tag: Tag) {
        self.tags.insert(tag);
    }

    pub fn join(&mut self, other: &Val) {
        self.tags.union_with(&other.tags);
        self.kind |= other.kind;
        for &f in &other.fitted_by {
            self.add_fitted_by(f);
        }
    }

    pub fn leq(&self, other: &Val) -> bool {
        self.kind & !other.kind == 0
            && self.tags.is_subset(&other.tags)
            && self
                .fitted_by
                .iter()
                .all(|f| other.fitted_by.binary_search(f).is_ok())
    }

    pub fn has(&self, tag: Tag) -> bool {
        self.tags.contains(tag)
    }

    /// Went through a split (either side).
    pub fn is_split(&self) -> bool {
        self.tags.has_any(&SPLIT_BITS)
    }

    /// Holds rows read somewhere (`sources` is not empty).
    pub fn has_sources(&self) -> bool {
        self.tags.has_any(&SOURCE_BITS)
    }

    /// Holds rows of either side of the split made at `split`.
    pub fn has_side_of(&self, split: Site) -> bool {
        self.has(Tag::Split(split, Side::Train)) || self.has(Tag::Split(split, Side::Test))
    }

    /// The sources of the rows this value holds.
    pub fn sources(&self) -> impl Iterator<Item = Site> + '_ {
        self.tags.iter().filter_map(|t| match t {
            Tag::Source(s) => Some(s),
            _ => None,
        })
    }

    /// The models this value is or comes from.
    pub fn models(&self) -> impl Iterator<Item = Site> + '_ {
        self.tags.iter().filter_map(|t| match t {
            Tag::Model(s) => Some(s),
            _ => None,
        })
    }

    /// The tags that leak when shared by training and test data.
    pub fn leaky(&self) -> impl Iterator<Item = Tag> + '_ {
        self.tags
            .iter()
            .filter(|t| matches!(t, Tag::Fitted(_) | Tag::Resampled(_)))
    }

    /// The tags a transform passes on from the transformer to the data it
    /// transforms: the leaky ones and statistics fitted on a split's side.
    pub fn fitted(&self) -> impl Iterator<Item = Tag> + '_ {
        self.tags
            .iter()
            .filter(|t| matches!(t, Tag::Fitted(_) | Tag::FittedSide(_) | Tag::Resampled(_)))
    }

    /// The data tags only (no model tags).
    pub fn data(&self) -> Val {
        Val {
            tags: self.tags.without_models(),
            kind: 0,
            fitted_by: self.fitted_by.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_models_is_the_filter_on_every_word() {
        // Every kind of tag at sites spanning many words, in several mixes.
        for step in [1u32, 2, 3, 5, 7, 11] {
            for keep_kinds in [
                0b111_1111u8,
                0b001_0000,
                0b110_1111,
                0b001_0001,
                0b100_0000,
                0b000_1000,
                0b000_0100,
            ] {
                let mut tags = Tags::default();
                let mut site = 0;
                while site < 200 {
                    let s = Site::from_u32(site);
                    let all = [
                        Tag::Fitted(s),
                        Tag::Resampled(s),
                        Tag::Split(s, Side::Train),
                        Tag::Split(s, Side::Test),
                        Tag::Model(s),
                        Tag::FittedSide(s),
                        Tag::Source(s),
                    ];
                    for (k, tag) in all.into_iter().enumerate() {
                        if keep_kinds & (1 << k) != 0 {
                            tags.insert(tag);
                        }
                    }
                    site += step;
                }
                let expected = tags.filtered(|t| !matches!(t, Tag::Model(_)));
                assert_eq!(
                    tags.without_models(),
                    expected,
                    "step {step}, kinds {keep_kinds:b}"
                );
                let val = Val {
                    tags: tags.clone(),
                    ..Val::default()
                };
                assert_eq!(
                    val.is_split(),
                    tags.iter().any(|t| matches!(t, Tag::Split(..))),
                    "step {step}, kinds {keep_kinds:b}"
                );
                assert_eq!(val.has_sources(), val.sources().next().is_some());
            }
        }
        assert_eq!(Tags::default().without_models(), Tags::default());
    }

    #[test]
    fn tags_as_bits() {
        let (s3, s40) = (Site::from_u32(3), Site::from_u32(40));
        let mut a = Tags::default();
        a.insert(Tag::Model(s40));
        a.insert(Tag::Split(s3, Side::Test));
        assert!(a.contains(Tag::Model(s40)) && !a.contains(Tag::Model(s3)));
        assert_eq!(
            a.iter().collect::<Vec<_>>(),
            vec![Tag::Split(s3, Side::Test), Tag::Model(s40)]
        );
        let mut b = Tags::default();
        b.insert(Tag::Split(s3, Side::Test));
        assert!(b.is_subset(&a) && !a.is_subset(&b));
        b.union_with(&a);
        assert_eq!(a, b);
        let small = a.filtered(|t| !matches!(t, Tag::Model(_)));
        assert_eq!(a.without_models(), small);
        let mut expected = Tags::default();
        expected.insert(Tag::Split(s3, Side::Test));
        assert_eq!(small, expected);
    }
}
