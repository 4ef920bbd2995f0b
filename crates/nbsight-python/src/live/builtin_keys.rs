//! Builtin `key=` functions whose keys the provenance recorder computes
//! itself (3.12+): `max(words, key=len)`, `sorted(xs, key=abs)`,
//! `sorted(names, key=str.lower)`, `max(counts, key=counts.get)` (of a
//! dict) call no Python code, so no return of a key function tells the
//! keys. The call site's bytecode names the key
//! (`recorder.rs` reads it with the site's table); at the call, the name
//! must still be the builtin in the calling frame, and each element of a
//! builtin type on which the builtin runs no user code, or nothing is
//! computed.

use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyBytes, PyCFunction, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString,
    PyTuple,
};

/// The largest dict whose keys are checked for `key=d.get`.
const MAX_DICT: usize = 100_000;

/// A builtin key function the recorder computes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BuiltinKey {
    /// `len`.
    Len,
    /// `abs`.
    Abs,
    /// `str.<method>` taking no argument (`str.lower`).
    Str(StrMethod),
    /// `d.get` of the dict the name `d` holds (`max(counts, key=counts.get)`).
    DictGet(std::sync::Arc<str>),
}

/// The methods of `str` a key may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StrMethod {
    Lower,
    Upper,
    Casefold,
    Strip,
    Title,
}

impl StrMethod {
    fn name(self) -> &'static str {
        match self {
            StrMethod::Lower => "lower",
            StrMethod::Upper => "upper",
            StrMethod::Casefold => "casefold",
            StrMethod::Strip => "strip",
            StrMethod::Title => "title",
        }
    }
}

impl BuiltinKey {
    /// The key a call site loads (`len`, `str.lower`), by the dotted name
    /// its bytecode loads.
    pub fn of(loaded: &str) -> Option<BuiltinKey> {
        Some(match loaded {
            "len" => BuiltinKey::Len,
            "abs" => BuiltinKey::Abs,
            "str.lower" => BuiltinKey::Str(StrMethod::Lower),
            "str.upper" => BuiltinKey::Str(StrMethod::Upper),
            "str.casefold" => BuiltinKey::Str(StrMethod::Casefold),
            "str.strip" => BuiltinKey::Str(StrMethod::Strip),
            "str.title" => BuiltinKey::Str(StrMethod::Title),
            other => match other.split_once('.') {
                Some((dict, "get")) if !dict.contains('.') => BuiltinKey::DictGet(dict.into()),
                _ => return None,
            },
        })
    }

    /// The global name the site loads.
    fn global(&self) -> &str {
        match self {
            BuiltinKey::Len => "len",
            BuiltinKey::Abs => "abs",
            BuiltinKey::Str(_) => "str",
            BuiltinKey::DictGet(dict) => dict,
        }
    }

    /// Does the builtin run no user code on `item`?
    fn takes(&self, item: &Bound<'_, PyAny>) -> bool {
        match self {
            BuiltinKey::Len => {
                item.is_exact_instance_of::<PyString>()
                    || item.is_exact_instance_of::<PyList>()
                    || item.is_exact_instance_of::<PyTuple>()
                    || item.is_exact_instance_of::<PyDict>()
                    || item.is_exact_instance_of::<PySet>()
                    || item.is_exact_instance_of::<PyFrozenSet>()
                    || item.is_exact_instance_of::<PyBytes>()
            }
            BuiltinKey::Abs => {
                item.is_exact_instance_of::<PyInt>()
                    || item.is_exact_instance_of::<PyFloat>()
                    || item.is_exact_instance_of::<PyBool>()
            }
            BuiltinKey::Str(_) => item.is_exact_instance_of::<PyString>(),
            // Hashing and comparing them runs no user code.
            BuiltinKey::DictGet(_) => plain_key(item, 0),
        }
    }

    /// The key function itself, when the name the site loads is still the
    /// builtin in the calling frame (the frame running the call: the
    /// callback runs no Python frame of its own); `None` when a user
    /// binding shadows it, or the builtins were replaced.
    pub fn resolve<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        let frame = py
            .import("sys")
            .and_then(|sys| sys.getattr("_getframe"))
            .and_then(|f| f.call1((0,)))
            .ok()?;
        let name = self.global();
        // A module's names are its locals (a function's, read by
        // `LOAD_GLOBAL`, are not; its `f_locals` is not read: on 3.12 that
        // copies its fast locals); then its globals, then its builtins.
        const CO_OPTIMIZED: u32 = 1;
        let optimized = frame
            .getattr("f_code")
            .and_then(|c| c.getattr("co_flags"))
            .and_then(|f| f.extract::<u32>())
            .map_or(true, |flags| flags & CO_OPTIMIZED != 0);
        let namespaces: &[&str] = if optimized {
            &["f_globals", "f_builtins"]
        } else {
            &["f_locals", "f_globals", "f_builtins"]
        };
        let mut found = None;
        for &namespace in namespaces {
            let Ok(ns) = frame.getattr(namespace) else {
                continue;
            };
            if let Ok(ns) = ns.cast_exact::<PyDict>()
                && let Ok(Some(v)) = ns.get_item(name)
            {
                found = Some(v);
                break;
            }
        }
        let found = found?;
        match self {
            // The name holds an exact dict whose keys a lookup compares
            // without user code: its own `get`.
            BuiltinKey::DictGet(_) => {
                let dict = found.cast_exact::<PyDict>().ok()?;
                (dict.len() <= MAX_DICT && dict.keys().iter().all(|k| plain_key(&k, 0)))
                    .then(|| dict.getattr("get").ok())
                    .flatten()
            }
            BuiltinKey::Str(method) => {
                // `str` itself, not a class bound to the name.
                found
                    .is(py.get_type::<PyString>())
                    .then(|| found.getattr(method.name()).ok())
                    .flatten()
            }
            // CPython's own builtin function of that name (a function the
            // user put in `builtins` is not one).
            BuiltinKey::Len | BuiltinKey::Abs => {
                let own = found.is_instance_of::<PyCFunction>()
                    && found
                        .getattr("__name__")
                        .and_then(|n| n.extract::<String>())
                        .is_ok_and(|n| n == name)
                    && found
                        .getattr("__module__")
                        .and_then(|m| m.extract::<String>())
                        .is_ok_and(|m| m == "builtins");
                own.then_some(found)
            }
        }
    }

    /// The keys of `items` under the function `key` (from
    /// [`BuiltinKey::resolve`]); `None` when an element is not one the
    /// builtin runs no user code on.
    pub fn keys<'py>(
        &self,
        key: &Bound<'py, PyAny>,
        items: &[Bound<'py, PyAny>],
    ) -> Option<Vec<Bound<'py, PyAny>>> {
        items
            .iter()
            .map(|item| {
                if self.takes(item) {
                    key.call1((item,)).ok()
                } else {
                    None
                }
            })
            .collect()
    }
}

/// An exact str, int, bool or float, or an exact tuple of them: a dict
/// looks it up without running user code.
fn plain_key(item: &Bound<'_, PyAny>, depth: usize) -> bool {
    item.is_exact_instance_of::<PyString>()
        || item.is_exact_instance_of::<PyInt>()
        || item.is_exact_instance_of::<PyBool>()
        || item.is_exact_instance_of::<PyFloat>()
        || (depth < 4
            && item
                .cast_exact::<PyTuple>()
                .is_ok_and(|t| t.iter().all(|x| plain_key(&x, depth + 1))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_builtins_a_site_names_are_keys() {
        assert_eq!(BuiltinKey::of("len"), Some(BuiltinKey::Len));
        assert_eq!(
            BuiltinKey::of("str.lower"),
            Some(BuiltinKey::Str(StrMethod::Lower))
        );
        assert_eq!(BuiltinKey::of("str.split"), None);
        assert_eq!(
            BuiltinKey::of("lengths.get"),
            Some(BuiltinKey::DictGet("lengths".into()))
        );
        assert_eq!(BuiltinKey::of("a.b.get"), None);
        assert_eq!(BuiltinKey::of("lengths.items"), None);
    }
}
