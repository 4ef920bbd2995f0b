//! Reading one row of an Arrow column as text: the notebook column (JSON
//! text as any Arrow string or binary type) and the id column (strings or
//! integers).

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type, UInt32Type, UInt64Type};
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;

/// `true` when [`text_at`] reads columns of this type.
pub fn is_text(data_type: &DataType) -> bool {
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

/// `true` when [`id_at`] reads columns of this type.
pub fn is_id(data_type: &DataType) -> bool {
    is_text(data_type)
        || matches!(
            data_type,
            DataType::Int32 | DataType::Int64 | DataType::UInt32 | DataType::UInt64
        )
}

/// Row `row` of a text column: `Ok(None)` when null, `Err` when its bytes
/// are not UTF-8.
pub fn text_at(column: &ArrayRef, row: usize) -> Result<Option<String>, String> {
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
pub fn id_at(column: &ArrayRef, row: usize) -> Option<String> {
    if column.is_null(row) {
        return None;
    }
    Some(match column.data_type() {
        DataType::Int32 => column.as_primitive::<Int32Type>().value(row).to_string(),
        DataType::Int64 => column.as_primitive::<Int64Type>().value(row).to_string(),
        DataType::UInt32 => column.as_primitive::<UInt32Type>().value(row).to_string(),
        DataType::UInt64 => column.as_primitive::<UInt64Type>().value(row).to_string(),
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
    }
}
