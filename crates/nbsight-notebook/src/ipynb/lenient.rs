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
