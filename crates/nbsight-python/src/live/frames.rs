//! Which values are pandas frames (`nbsight_lineage` spells a frame's
//! column attribute `df.col` as `df['col']`), and the frame type's own
//! attributes. Only types are read (their MRO, names and `dir`): no frame
//! method or property runs, and pandas is never imported by nbsight.

use pyo3::prelude::*;
use pyo3::types::PyType;
use rustc_hash::FxHashMap;

/// What is known of the types seen.
#[derive(Default)]
pub(crate) struct FrameTypes {
    /// Per type (kept alive, so that its address stays its own): is it a
    /// frame type.
    seen: FxHashMap<usize, (Py<PyType>, bool)>,
    /// The frame type's attributes were handed to the lineage.
    attributes_sent: bool,
}

impl FrameTypes {
    /// Is `value` a `pandas.DataFrame` (or of a subclass)?
    pub fn is_frame(&mut self, value: &Bound<'_, PyAny>) -> bool {
        let ty = value.get_type();
        let key = ty.as_ptr() as usize;
        if let Some((_, frame)) = self.seen.get(&key) {
            return *frame;
        }
        let frame = ty.mro().iter().any(|base| {
            let Ok(base) = base.cast_into::<PyType>() else {
                return false;
            };
            base.name().is_ok_and(|n| n == "DataFrame")
                && base
                    .module()
                    .is_ok_and(|m| m.to_str().is_ok_and(|m| m.starts_with("pandas")))
        });
        self.seen.insert(key, (ty.unbind(), frame));
        frame
    }

    /// The attributes of the type of `frame` (`dir`), the first time a frame
    /// is seen; empty after.
    pub fn attributes(&mut self, frame: &Bound<'_, PyAny>) -> Vec<String> {
        if self.attributes_sent {
            return Vec::new();
        }
        let names: Vec<String> = frame
            .get_type()
            .dir()
            .map(|names| {
                names
                    .iter()
                    .filter_map(|n| n.extract::<String>().ok())
                    .collect()
            })
            .unwrap_or_default();
        self.attributes_sent = !names.is_empty();
        names
    }
}
