//! Builtin `key=` functions whose keys the provenance recorder computes
//! itself (3.12+): `max(words, key=len)`, `sorted(xs, key=abs)`,
//! `sorted(names, key=str.lower)` call no Python code, so no return of a
//! key function tells the keys. The call site's bytecode names the key
//! (`recorder.rs` reads it with the site's table); at the call, the name
//! must still be the builtin in the calling frame, and each element of a
//! builtin type on which the builtin runs no user code, or nothing is
//! computed.

use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyBytes, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple,
};

/// A builtin key function the recorder computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BuiltinKey {
    /// `len`.
    Len,
    /// `abs`.
    Abs,
    /// `str.<method>` taking no argument (`str.lower`).
    Str(StrMethod),
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
            _ => return None,
        })
    }

    /// The global name the site loads.
    fn global(self) -> &'static str {
        match self {
            BuiltinKey::Len => "len",
            BuiltinKey::Abs => "abs",
            BuiltinKey::Str(_) => "str",
        }
    }

    /// Does the builtin run no user code on `item`?
    fn takes(self, item: &Bound<'_, PyAny>) -> bool {
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
        }
    }

    /// The key function itself, when the name the site loads is still the
    /// builtin in the calling frame (the frame running the call: the
    /// callback runs no Python frame of its own); `None` when a user
    /// binding shadows it.
    pub fn resolve<'py>(self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        let frame = py
            .import("sys")
            .and_then(|sys| sys.getattr("_getframe"))
            .and_then(|f| f.call1((0,)))
            .ok()?;
        let name = self.global();
        let builtins = py.import("builtins").ok()?;
        let builtin = builtins.getattr(name).ok()?;
        // A module's names are its locals (a function's, read by
        // `LOAD_GLOBAL`, are not; its `f_locals` is not read: on 3.12 that
        // copies its fast locals).
        const CO_OPTIMIZED: u32 = 1;
        let optimized = frame
            .getattr("f_code")
            .and_then(|c| c.getattr("co_flags"))
            .and_then(|f| f.extract::<u32>())
            .map_or(true, |flags| flags & CO_OPTIMIZED != 0);
        let namespaces: &[&str] = if optimized {
            &["f_globals"]
        } else {
            &["f_locals", "f_globals"]
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
        if found.is_some_and(|v| !v.is(&builtin)) {
            return None;
        }
        match self {
            BuiltinKey::Str(method) => builtin.getattr(method.name()).ok(),
            _ => Some(builtin),
        }
    }

    /// The keys of `items` under the function `key` (from
    /// [`BuiltinKey::resolve`]); `None` when an element is not one the
    /// builtin runs no user code on.
    pub fn keys<'py>(
        self,
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
        assert_eq!(BuiltinKey::of("lengths.get"), None);
    }
}
