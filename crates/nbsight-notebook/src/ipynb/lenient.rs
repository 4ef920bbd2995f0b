//! Lenient JSON decoding: a field is decoded as `T` when it has the expected shape,
//! otherwise the shape it had is recorded (and its contents skipped) so that one
//! wrongly typed field becomes a diagnostic instead of a failed load.
//!
//! Everything streams through serde visitors: no `serde_json::Value` trees are built,
//! and skipped values (outputs, big metadata) are scanned without being stored.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// The JSON shape a value actually had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Found::Null => "null",
            Found::Bool => "a boolean",
            Found::Number => "a number",
            Found::String => "a string",
            Found::Array => "an array",
            Found::Object => "an object",
        })
    }
}

/// A JSON value decoded as `T`, or the shape it had instead.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Field<T> {
    Ok(T),
    Wrong(Found),
}

/// A type decodable from some JSON shapes; every hook returns `None` (wrong shape)
/// unless overridden. Hooks that receive containers must consume them.
pub(crate) trait Lenient: Sized {
    fn from_null() -> Option<Self> {
        None
    }
    fn from_bool(_value: bool) -> Option<Self> {
        None
    }
    fn from_i64(_value: i64) -> Option<Self> {
        None
    }
    fn from_u64(_value: u64) -> Option<Self> {
        None
    }
    fn from_f64(_value: f64) -> Option<Self> {
        None
    }
    fn from_str(_value: &str) -> Option<Self> {
        None
    }
    fn from_seq<'de, A: SeqAccess<'de>>(seq: A) -> Result<Option<Self>, A::Error> {
        skip_seq(seq)?;
        Ok(None)
    }
    fn from_map<'de, A: MapAccess<'de>>(map: A) -> Result<Option<Self>, A::Error> {
        skip_map(map)?;
        Ok(None)
    }
}

pub(crate) fn skip_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<usize, A::Error> {
    let mut n = 0;
    while seq.next_element::<IgnoredAny>()?.is_some() {
        n += 1;
    }
    Ok(n)
}

pub(crate) fn skip_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

fn field<T>(value: Option<T>, found: Found) -> Field<T> {
    match value {
        Some(v) => Field::Ok(v),
        None => Field::Wrong(found),
    }
}

struct FieldVisitor<T>(PhantomData<T>);

impl<'de, T: Lenient> Visitor<'de> for FieldVisitor<T> {
    type Value = Field<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(field(T::from_bool(v), Found::Bool))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(field(T::from_i64(v), Found::Number))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(field(T::from_u64(v), Found::Number))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(field(T::from_f64(v), Found::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(field(T::from_str(v), Found::String))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(field(T::from_null(), Found::Null))
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(field(T::from_null(), Found::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        Field::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Ok(field(T::from_seq(seq)?, Found::Array))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Ok(field(T::from_map(map)?, Found::Object))
    }
}

impl<'de, T: Lenient> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(FieldVisitor(PhantomData))
    }
}

/// A JSON object's key: borrowed from the document when it has no escapes
/// (most do), so that matching field names copies nothing.
pub(crate) struct Key<'de>(pub std::borrow::Cow<'de, str>);

impl Key<'_> {
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Key(std::borrow::Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Key(std::borrow::Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(Key(std::borrow::Cow::Owned(v)))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// Appends a JSON string to a text (`from_seq` of a cell source, a list of
/// lines): `true` when the element was a string, else it is skipped.
pub(crate) struct AppendTo<'a>(pub &'a mut String);

impl<'de> serde::de::DeserializeSeed<'de> for AppendTo<'_> {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for AppendTo<'_> {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_str<E>(self, v: &str) -> Result<bool, E> {
        self.0.push_str(v);
        Ok(true)
    }
    fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_none<E>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<bool, A::Error> {
        skip_seq(seq).map(|_| false)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<bool, A::Error> {
        skip_map(map).map(|_| false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Num(i64);
    impl Lenient for Num {
        fn from_i64(v: i64) -> Option<Self> {
            Some(Num(v))
        }
        fn from_u64(v: u64) -> Option<Self> {
            i64::try_from(v).ok().map(Num)
        }
    }

    #[test]
    fn records_wrong_shapes_and_skips_them() {
        let v: Vec<Field<Num>> =
            serde_json::from_str(r#"[1, "x", null, true, 2.5, [1, [2]], {"a": {"b": 1}}, 3]"#)
                .unwrap();
        assert_eq!(
            v,
            vec![
                Field::Ok(Num(1)),
                Field::Wrong(Found::String),
                Field::Wrong(Found::Null),
                Field::Wrong(Found::Bool),
                Field::Wrong(Found::Number),
                Field::Wrong(Found::Array),
                Field::Wrong(Found::Object),
                Field::Ok(Num(3)),
            ]
        );
        assert_eq!(Found::Object.to_string(), "an object");
    }
}
