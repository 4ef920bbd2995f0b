//! The components of field-granular paths (`df.col`, `d['k']`, `lst[3]`,
//! `lst[*]`) and when two may name the same part: the one vocabulary the
//! slicer (`nbsight-slice`) and the re-run plans (`nbsight-whatif`) compare
//! paths with.
//!
//! Two components *may match* when they may name the same part: equal keys
//! match; `[*]` (a subscript not known statically) matches anything; a
//! negative index may be any index (`lst[-1]` is `lst[4]` for a list of
//! 5); `True`/`False` are the keys `1`/`0`; an attribute matches the string
//! key of the same name (`df.col` and `df['col']` are one column in
//! pandas).

use std::sync::Arc;

use crate::symbol::python_str_repr;

/// One component of a path after its root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldKey {
    /// `.name`, with the spelling of `['name']` to compare with keys.
    Attr { name: Arc<str>, key: Arc<str> },
    /// `['k']`, as spelt in the symbol (quotes included).
    Str(Arc<str>),
    /// `[3]`, `[-1]`, `[True]` (as 1).
    Int(i64),
    /// Another constant key (`[None]`).
    Other(Arc<str>),
    /// `[*]`.
    Any,
}

impl FieldKey {
    /// The attribute `.name`.
    pub fn attr(name: &str) -> FieldKey {
        FieldKey::Attr {
            name: name.into(),
            key: python_str_repr(name).into(),
        }
    }

    /// The subscript `[inner]`.
    pub fn subscript(inner: &str) -> FieldKey {
        match inner {
            "*" => FieldKey::Any,
            "True" => FieldKey::Int(1),
            "False" => FieldKey::Int(0),
            _ if inner.starts_with(['\'', '"']) => FieldKey::Str(inner.into()),
            _ => inner
                .parse::<i64>()
                .map_or_else(|_| FieldKey::Other(inner.into()), FieldKey::Int),
        }
    }

    /// The component `rest` spells (`.name` or `[inner]`, what follows a
    /// path's parent in a canonical symbol).
    pub fn after_parent(rest: &str) -> FieldKey {
        if let Some(name) = rest.strip_prefix('.') {
            return FieldKey::attr(name);
        }
        let inner = rest
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .unwrap_or(rest);
        FieldKey::subscript(inner)
    }

    /// May the two name the same part?
    pub fn may_match(&self, other: &FieldKey) -> bool {
        use FieldKey::*;
        match (self, other) {
            (Any, _) | (_, Any) => true,
            (Attr { key: a, .. }, Attr { key: b, .. }) => a == b,
            (Attr { key, .. }, Str(s)) | (Str(s), Attr { key, .. }) => key == s,
            (Int(a), Int(b)) => a == b || *a < 0 || *b < 0,
            (Str(a), Str(b)) | (Other(a), Other(b)) => a == b,
            _ => false,
        }
    }

    /// The attribute's name (`col` for `.col`).
    pub fn attr_name(&self) -> Option<&str> {
        match self {
            FieldKey::Attr { name, .. } => Some(name),
            _ => None,
        }
    }
}

/// A canonical symbol split into its root and its components (quotes
/// inside subscripts respected: `d['a.b]']` has one component).
pub fn split_path(symbol: &str) -> (&str, Vec<FieldKey>) {
    let bytes = symbol.as_bytes();
    let root_end = symbol.find(['.', '[']).unwrap_or(symbol.len());
    let mut parts = Vec::new();
    let mut i = root_end;
    while i < bytes.len() {
        if bytes[i] == b'.' {
            let end = symbol[i + 1..]
                .find(['.', '['])
                .map_or(symbol.len(), |e| i + 1 + e);
            parts.push(FieldKey::attr(&symbol[i + 1..end]));
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
        parts.push(FieldKey::subscript(
            &symbol[start.min(symbol.len())..j.min(symbol.len())],
        ));
        i = j + 1;
    }
    (&symbol[..root_end], parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_match_as_python_names_them() {
        let m = |a: &FieldKey, b: &FieldKey| a.may_match(b) && b.may_match(a);
        let col = FieldKey::attr("col");
        assert!(m(&col, &FieldKey::subscript("'col'")));
        assert!(!m(&col, &FieldKey::subscript("'x'")));
        assert!(m(&FieldKey::subscript("True"), &FieldKey::subscript("1")));
        assert!(m(&FieldKey::subscript("-1"), &FieldKey::subscript("4")));
        assert!(!m(&FieldKey::subscript("2"), &FieldKey::subscript("3")));
        assert!(m(&FieldKey::subscript("*"), &col));
        assert!(!m(&FieldKey::subscript("None"), &FieldKey::subscript("1")));
        assert_eq!(FieldKey::after_parent(".col"), col);
        assert_eq!(FieldKey::after_parent("[3]"), FieldKey::Int(3));
        assert_eq!(col.attr_name(), Some("col"));
    }

    #[test]
    fn symbols_split_with_quotes_respected() {
        let (root, parts) = split_path("d['a.b]'].x[2]");
        assert_eq!(root, "d");
        assert_eq!(
            parts,
            [
                FieldKey::Str("'a.b]'".into()),
                FieldKey::attr("x"),
                FieldKey::Int(2)
            ]
        );
        assert_eq!(split_path("lst"), ("lst", Vec::new()));
    }
}
