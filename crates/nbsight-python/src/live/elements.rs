//! The identity of the object at a watched element (`nbsight_lineage::
//! WatchedElement`: `y[0]`, `d['k']`) of a name in the namespace, read
//! before and after a run. Only an exact `list` (by index) or `dict` (by an
//! `int` or `str` key) is read, through the C API: no `__getitem__`,
//! `__hash__` or `__eq__` of the user's runs.

use nbsight_lineage::{ElementKey, WatchedElement};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyString};

/// The most entries a dict read here has.
const MAX_DICT: usize = 4096;

/// The identity of the object at `element` in `namespace` (`None`: the
/// name is unbound, not an exact list or dict, or has no such element).
pub(crate) fn identity(namespace: &Bound<'_, PyDict>, element: &WatchedElement) -> Option<u64> {
    let container = namespace.get_item(&element.name).ok()??;
    if container.is_exact_instance_of::<PyList>() {
        let list = container.cast::<PyList>().ok()?;
        let ElementKey::Index(i) = element.key else {
            return None;
        };
        let len = list.len() as i64;
        let at = if i < 0 { i + len } else { i };
        if !(0..len).contains(&at) {
            return None;
        }
        return list.get_item(at as usize).ok().map(|v| v.as_ptr() as u64);
    }
    if container.is_exact_instance_of::<PyDict>() {
        let dict = container.cast::<PyDict>().ok()?;
        // A key of another type with the same hash would run its `__eq__`:
        // only a dict whose keys are all `int` or `str` is read (and not a
        // big one: the check visits every key).
        let plain = dict.len() <= MAX_DICT
            && dict.iter().all(|(k, _)| {
                k.is_exact_instance_of::<PyInt>() || k.is_exact_instance_of::<PyString>()
            });
        if !plain {
            return None;
        }
        let value = match &element.key {
            ElementKey::Index(i) => dict.get_item(*i).ok()?,
            ElementKey::Name(k) => dict.get_item(k).ok()?,
        };
        return value.map(|v| v.as_ptr() as u64);
    }
    None
}
