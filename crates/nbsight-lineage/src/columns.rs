//! A pandas frame's column read or set as an attribute (`df.col`) is the
//! column `df['col']`: one symbol, whichever way a cell spells it (nbsafety
//! Definition 1). Which names are bound to a frame is known from the run
//! (`RunFacts::frames`); an attribute of the frame type itself (`df.shape`)
//! stays an attribute, and an indexer (`df.loc[...]`, `df.iloc`, `df.at`)
//! is the frame.

use std::borrow::Cow;

use nbsight_dataflow::symbol::python_str_repr;
use rustc_hash::FxHashSet;

/// A frame's indexers: what they get or set is the frame's.
const INDEXERS: [&str; 4] = ["loc", "iloc", "at", "iat"];

/// The names bound to a frame and the attributes of the frame type.
#[derive(Debug, Clone, Default)]
pub(crate) struct Frames {
    roots: FxHashSet<String>,
    attributes: FxHashSet<String>,
}

impl Frames {
    /// After a run: `name` is bound to a frame (or not).
    pub(crate) fn bound(&mut self, name: &str, frame: bool) {
        if frame {
            self.roots.insert(name.to_string());
        } else {
            self.roots.remove(name);
        }
    }

    /// The frame type's attributes (methods, properties, `loc`).
    pub(crate) fn add_attributes(&mut self, names: &[String]) {
        self.attributes.extend(names.iter().cloned());
    }

    /// `path` as its symbol is spelled: `df.col` is `df['col']` when `df` is
    /// bound to a frame and `col` is no attribute of the frame type.
    pub(crate) fn canonical<'a>(&self, path: &'a str) -> Cow<'a, str> {
        if self.roots.is_empty() {
            return Cow::Borrowed(path);
        }
        let Some(dot) = path.find(['.', '[']) else {
            return Cow::Borrowed(path);
        };
        let (root, rest) = path.split_at(dot);
        let Some(rest) = rest.strip_prefix('.') else {
            return Cow::Borrowed(path);
        };
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        let (attr, tail) = rest.split_at(end);
        if !self.roots.contains(root) {
            return Cow::Borrowed(path);
        }
        // An indexer is the frame itself: `df.loc[0, 'a'] = v` changes `df`.
        if INDEXERS.contains(&attr) {
            return Cow::Owned(format!("{root}{tail}"));
        }
        if self.attributes.is_empty() || self.attributes.contains(attr) {
            return Cow::Borrowed(path);
        }
        Cow::Owned(format!("{root}[{}]{tail}", python_str_repr(attr)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frames_column_attribute_is_its_subscript() {
        let mut frames = Frames::default();
        frames.bound("df", true);
        frames.add_attributes(&["loc".to_string(), "shape".to_string()]);
        assert_eq!(frames.canonical("df.col"), "df['col']");
        assert_eq!(frames.canonical("df.col.x[0]"), "df['col'].x[0]");
        assert_eq!(frames.canonical("df.shape"), "df.shape");
        assert_eq!(frames.canonical("df.loc[*]"), "df[*]");
        assert_eq!(frames.canonical("df['col']"), "df['col']");
        assert_eq!(frames.canonical("other.col"), "other.col");
        frames.bound("df", false);
        assert_eq!(frames.canonical("df.col"), "df.col");
    }
}
