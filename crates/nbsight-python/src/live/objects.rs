//! The Python objects the tracer and the recorder compare against (the
//! types of code objects, functions and methods, fetched once), and an
//! object's address, which identifies it while it lives.

use pyo3::prelude::*;

/// Python objects the tracer compares against, fetched once.
pub(crate) struct Types {
    pub code: Py<PyAny>,
    pub function: Py<PyAny>,
    pub method: Py<PyAny>,
}

impl Types {
    pub fn new(py: Python<'_>) -> PyResult<Types> {
        let types = py.import("types")?;
        Ok(Types {
            code: types.getattr("CodeType")?.unbind(),
            function: types.getattr("FunctionType")?.unbind(),
            method: types.getattr("MethodType")?.unbind(),
        })
    }
}

/// The object's address: its identity while it lives.
pub(crate) fn address(object: &Bound<'_, PyAny>) -> usize {
    object.as_ptr() as usize
}
