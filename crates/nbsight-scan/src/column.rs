//! Reading one row of an Arrow column as text: the notebook column (JSON
//! text as any Arrow string or binary type, or a dictionary of strings, as
//! pandas categoricals are written) and the id column (those, or integers).

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type, UInt32Type, UInt64Type};
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;

/// `true` when [`text_at`] reads columns of this type (after [`plain`]).
pub(crate) fn is_text(data_type: &DataType) -> bool {
    if let DataType::Dictionary(_, values) = data_type {
        return is_text(values);
    }
    matches!(
        data_type,
        DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView
    )
}

/// `true` when [`id_at`] reads columns of this type (after [`plain`]).
pub(crate) fn is_id(data_type: &DataType) -> bool {
    is_text(data_type) || data_type.is_integer()
}

/// A dictionary column as the plain column of its values (a notebook or
/// id column pandas wrote from a categorical); other columns as they are.
pub(crate) fn plain(column: &ArrayRef) -> ArrayRef {
    match column.data_type() {
        DataType::Dictionary(_, values) => {
            arrow_cast::cast(column, values).unwrap_or_else(|_| column.clone())
        }
        _ => column.clone(),
    }
}

/// Row `row` of a text column: `Ok(None)` when null, `Err` when its bytes
/// are not UTF-8.
pub(crate) fn text_at(column: &ArrayRef, row: usize) -> Result<Option<String>, String> {
    if column.is_null(row) {
        return Ok(None);
    }
    let bytes: &[u8] = match column.data_type() {
        DataType::Utf8 => return Ok(Some(column.as_string::<i32>().value(row).to_string())),
        DataType::LargeUtf8 => return Ok(Some(column.as_string::<i64>().value(row).to_string())),
        DataType::Utf8View => return Ok(Some(column.as_string_view().value(row).to_string())),
        DataType::Binary => column.as_binary::<i32>().value(row),
        DataType::LargeBinary => column.as_binary::<i64>().value(row),
        DataType::BinaryView => column.as_binary_view().value(row),
        other => return Err(format!("a column of {other} holds no text")),
    };
    String::from_utf8(bytes.to_vec())
        .map(Some)
        .map_err(|e| format!("not UTF-8 text ({e})"))
}

/// Row `row` of an id column as a string (`None` when null or unreadable).
pub(crate) fn id_at(column: &ArrayRef, row: usize) -> Option<String> {
    if column.is_null(row) {
        return None;
    }
    Some(match column.data_type() {
        DataType::Int32 => column.as_primitive::<Int32Type>().value(row).to_string(),
        DataType::Int64 => column.as_primitive::<Int64Type>().value(row).to_string(),
        DataType::UInt32 => column.as_primitive::<UInt32Type>().value(row).to_string(),
        DataType::UInt64 => column.as_primitive::<UInt64Type>().value(row).to_string(),
        t if t.is_integer() => {
            let wide = arrow_cast::cast(&column.slice(row, 1), &DataType::Int64).ok()?;
            wide.as_primitive::<Int64Type>().value(0).to_string()
        }
        _ => text_at(column, row).ok()??,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{BinaryArray, Int64Array, StringArray};

    use super::*;

    #[test]
    fn text_and_ids_of_every_supported_type() {
        let strings: ArrayRef = Arc::new(StringArray::from(vec![Some("{}"), None]));
        assert_eq!(text_at(&strings, 0), Ok(Some("{}".to_string())));
        assert_eq!(text_at(&strings, 1), Ok(None));
        let bytes: ArrayRef = Arc::new(BinaryArray::from(vec![b"ok".as_ref(), b"\xff".as_ref()]));
        assert_eq!(text_at(&bytes, 0), Ok(Some("ok".to_string())));
        assert!(text_at(&bytes, 1).is_err());
        let ints: ArrayRef = Arc::new(Int64Array::from(vec![Some(7), None]));
        assert_eq!(id_at(&ints, 0).as_deref(), Some("7"));
        assert_eq!(id_at(&ints, 1), None);
        assert!(is_id(ints.data_type()) && !is_text(ints.data_type()));
        // A categorical column, as pandas writes it.
        let keys = arrow_array::Int8Array::from(vec![0, 1, 0]);
        let values = StringArray::from(vec!["{\"cells\": []}", "b"]);
        let dict: ArrayRef =
            Arc::new(arrow_array::DictionaryArray::try_new(keys, Arc::new(values)).unwrap());
        assert!(is_text(dict.data_type()));
        let plain = plain(&dict);
        assert_eq!(text_at(&plain, 2), Ok(Some("{\"cells\": []}".to_string())));
        let small: ArrayRef = Arc::new(arrow_array::Int16Array::from(vec![7]));
        assert_eq!(id_at(&small, 0).as_deref(), Some("7"));
    }
}
