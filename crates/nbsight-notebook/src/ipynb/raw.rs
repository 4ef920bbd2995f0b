//! The raw shape of an `.ipynb` document, decoded leniently (see `lenient`).
//!
//! Only the fields nbsight needs are kept. Outputs are counted, never stored.

use serde::de::{IgnoredAny, MapAccess, SeqAccess};

use super::lenient::{AppendTo, Field, Key, Lenient, skip_seq};

/// A JSON string.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Text(pub String);

impl Lenient for Text {
    fn from_str(value: &str) -> Option<Self> {
        Some(Text(value.to_string()))
    }
}

/// A cell source: a string, or a list of strings to concatenate.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SourceText(pub String);

impl Lenient for SourceText {
    fn from_str(value: &str) -> Option<Self> {
        Some(SourceText(value.to_string()))
    }
    fn from_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Option<Self>, A::Error> {
        let mut text = String::new();
        let mut all_strings = true;
        while let Some(was_string) = seq.next_element_seed(AppendTo(&mut text))? {
            all_strings &= was_string;
        }
        Ok(all_strings.then_some(SourceText(text)))
    }
}

/// An `execution_count`: an integer or null.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ExecutionCount(pub Option<i64>);

impl Lenient for ExecutionCount {
    fn from_null() -> Option<Self> {
        Some(ExecutionCount(None))
    }
    fn from_i64(value: i64) -> Option<Self> {
        Some(ExecutionCount(Some(value)))
    }
    fn from_u64(value: u64) -> Option<Self> {
        i64::try_from(value).ok().map(|v| ExecutionCount(Some(v)))
    }
}

/// The number of elements of `outputs`, which are skipped unread.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct OutputCount(pub usize);

impl Lenient for OutputCount {
    fn from_seq<'de, A: SeqAccess<'de>>(seq: A) -> Result<Option<Self>, A::Error> {
        skip_seq(seq).map(|n| Some(OutputCount(n)))
    }
}

/// A non-negative integer (`nbformat`, `nbformat_minor`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Version(pub u64);

impl Lenient for Version {
    fn from_u64(value: u64) -> Option<Self> {
        Some(Version(value))
    }
    fn from_i64(value: i64) -> Option<Self> {
        u64::try_from(value).ok().map(Version)
    }
}

/// The string-valued entries of a JSON object (other entries skipped).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct StringFields(Vec<(String, String)>);

impl StringFields {
    pub(super) fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

impl Lenient for StringFields {
    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        let mut out = Vec::new();
        while let Some(key) = map.next_key::<Key>()? {
            if let Field::Ok(Text(value)) = map.next_value::<Field<Text>>()? {
                out.push((key.0.into_owned(), value));
            }
        }
        Ok(Some(StringFields(out)))
    }
}

/// Notebook metadata: only what tells the kernel language.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RawMetadata {
    pub kernelspec: Option<Field<StringFields>>,
    pub language_info: Option<Field<StringFields>>,
}

impl RawMetadata {
    /// `kernelspec.language`, else `language_info.name`, else the language
    /// of a well-known kernel that `kernelspec` names (Colab writes only
    /// `{"name": "ir", "display_name": "R"}` for an R notebook).
    pub(super) fn language(&self) -> Option<&str> {
        string_field(&self.kernelspec, "language")
            .or_else(|| string_field(&self.language_info, "name"))
            .or_else(|| {
                kernel_language(
                    string_field(&self.kernelspec, "name").unwrap_or(""),
                    string_field(&self.kernelspec, "display_name").unwrap_or(""),
                )
            })
    }
}

/// The language of a well-known kernel other than Python's, from its
/// kernelspec `name` or `display_name`; `None` for any other kernel (a
/// notebook is taken for Python unless it says otherwise).
fn kernel_language(name: &str, display_name: &str) -> Option<&'static str> {
    let name = name.trim().to_ascii_lowercase();
    let display = display_name.trim().to_ascii_lowercase();
    let starts = |prefix: &str| name.starts_with(prefix) || display.starts_with(prefix);
    if name == "ir" || display == "r" || display.starts_with("r ") {
        Some("R")
    } else if starts("julia") {
        Some("julia")
    } else if starts("scala") || starts("spylon") {
        Some("scala")
    } else if name == "bash" || display == "bash" {
        Some("bash")
    } else if starts("javascript") || starts("deno") || starts("tslab") {
        Some("javascript")
    } else {
        None
    }
}

fn string_field<'a>(fields: &'a Option<Field<StringFields>>, key: &str) -> Option<&'a str> {
    match fields {
        Some(Field::Ok(fields)) => fields.get(key),
        _ => None,
    }
}

impl Lenient for RawMetadata {
    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        let mut out = RawMetadata::default();
        while let Some(key) = map.next_key::<Key>()? {
            match key.as_str() {
                "kernelspec" => out.kernelspec = Some(map.next_value()?),
                "language_info" => out.language_info = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Some(out))
    }
}

/// A cell's `metadata.tags`: its string elements (others skipped).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Tags(pub Vec<String>);

impl Lenient for Tags {
    fn from_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Option<Self>, A::Error> {
        let mut tags = Vec::new();
        while let Some(tag) = seq.next_element::<Field<Text>>()? {
            if let Field::Ok(Text(tag)) = tag {
                tags.push(tag);
            }
        }
        Ok(Some(Tags(tags)))
    }
}

/// Cell metadata: only its tags.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RawCellMetadata {
    pub tags: Option<Field<Tags>>,
}

impl Lenient for RawCellMetadata {
    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        let mut out = RawCellMetadata::default();
        while let Some(key) = map.next_key::<Key>()? {
            match key.as_str() {
                "tags" => out.tags = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Some(out))
    }
}

/// One cell object.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RawCell {
    pub cell_type: Option<Field<Text>>,
    pub source: Option<Field<SourceText>>,
    pub id: Option<Field<Text>>,
    pub execution_count: Option<Field<ExecutionCount>>,
    pub outputs: Option<Field<OutputCount>>,
    pub metadata: Option<Field<RawCellMetadata>>,
}

impl Lenient for RawCell {
    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        let mut out = RawCell::default();
        while let Some(key) = map.next_key::<Key>()? {
            match key.as_str() {
                "cell_type" => out.cell_type = Some(map.next_value()?),
                "source" => out.source = Some(map.next_value()?),
                "id" => out.id = Some(map.next_value()?),
                "execution_count" => out.execution_count = Some(map.next_value()?),
                "outputs" => out.outputs = Some(map.next_value()?),
                "metadata" => out.metadata = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Some(out))
    }
}

/// The `cells` array.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RawCells(pub Vec<Field<RawCell>>);

impl Lenient for RawCells {
    fn from_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Option<Self>, A::Error> {
        let mut cells = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(cell) = seq.next_element::<Field<RawCell>>()? {
            cells.push(cell);
        }
        Ok(Some(RawCells(cells)))
    }
}

/// The top-level notebook object.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RawNotebook {
    pub cells: Option<Field<RawCells>>,
    pub nbformat: Option<Field<Version>>,
    pub nbformat_minor: Option<Field<Version>>,
    pub metadata: Option<Field<RawMetadata>>,
}

impl Lenient for RawNotebook {
    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        let mut out = RawNotebook::default();
        while let Some(key) = map.next_key::<Key>()? {
            match key.as_str() {
                "cells" => out.cells = Some(map.next_value()?),
                "nbformat" => out.nbformat = Some(map.next_value()?),
                "nbformat_minor" => out.nbformat_minor = Some(map.next_value()?),
                "metadata" => out.metadata = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Some(out))
    }
}

#[cfg(test)]
mod tests {
    use super::kernel_language;

    #[test]
    fn well_known_kernels_name_their_language() {
        assert_eq!(kernel_language("ir", "R"), Some("R"));
        assert_eq!(kernel_language("", "R"), Some("R"));
        assert_eq!(kernel_language("julia-1.9", "Julia 1.9.3"), Some("julia"));
        assert_eq!(kernel_language("python3", "Python 3"), None);
        assert_eq!(
            kernel_language("conda-env-ml-py", "Python [conda env:ml]"),
            None
        );
        assert_eq!(kernel_language("", ""), None);
    }
}
