//! How the session learns the code objects of the running cell: IPython
//! compiles each top-level statement of a cell through `codeop.Compile`,
//! whose `compile` is looked up in the `codeop` module. `CompileWatcher`
//! stands there in its place: it calls the real `compile` and hands the
//! code object to the session while a cell is being traced.
//!
//! It is a native object, so no Python frame of nbsight's is on the stack
//! while a cell compiles or runs: a cell too deep to compile raises the same
//! `RecursionError` with the same traceback as without nbsight.

use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::Session;

/// Stands for `compile` in the `codeop` module while nbsight is loaded.
#[pyclass(frozen, module = "nbsight._nbsight")]
pub struct CompileWatcher {
    /// The builtin `compile`.
    compile: Py<PyAny>,
    session: Py<Session>,
    /// A cell of the session's own is being traced (not a nested run).
    enabled: AtomicBool,
}

#[pymethods]
impl CompileWatcher {
    #[new]
    fn new(py: Python<'_>, session: Py<Session>) -> PyResult<CompileWatcher> {
        Ok(CompileWatcher {
            compile: py.import("builtins")?.getattr("compile")?.unbind(),
            session,
            enabled: AtomicBool::new(false),
        })
    }

    /// Hands the code objects compiled from now on to the session (`false`:
    /// stop).
    fn set_enabled(&self, on: bool) {
        self.enabled.store(on, Ordering::Relaxed);
    }

    /// `compile(...)`, exactly; the code object is traced when enabled. A
    /// failure of nbsight's own loses the trace of that code, never the
    /// compile.
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let code = self.compile.bind(py).call(args, kwargs)?;
        if self.enabled.load(Ordering::Relaxed) && code.hasattr("co_lines").unwrap_or(false) {
            let _ = self.session.bind(py).get().watch(py, &code);
        }
        Ok(code.unbind())
    }
}
