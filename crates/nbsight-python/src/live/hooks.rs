//! The native callbacks the interpreter calls while a cell runs: on CPython
//! 3.12+, `sys.monitoring` LINE and CALL callbacks set on the cell's own
//! code objects only (library code is never instrumented); on 3.10 and
//! 3.11, a `sys.settrace` function whose per-frame tracing is switched on
//! for the cell's frames only, and off at the first repeated line (a loop:
//! the rest of the run is not traced line by line).
//!
//! Every callback is a Rust object: no Python code runs per event. They
//! never raise: a failure loses a fact, not the user's cell.

use std::sync::{Arc, Mutex};

use nbsight_lineage::CallFact;
use pyo3::prelude::*;

use super::trace::{Trace, Types};

/// What the callbacks share with the session.
pub(crate) struct Shared {
    pub trace: Mutex<Trace>,
    pub types: Types,
    /// `sys.monitoring.DISABLE` (None before 3.12).
    pub disable: Py<PyAny>,
}

impl Shared {
    fn disable(&self, py: Python<'_>) -> Py<PyAny> {
        self.disable.clone_ref(py)
    }
}

/// `sys.monitoring` LINE: `(code, line)`.
#[pyclass(frozen, module = "nbsight._nbsight")]
pub(crate) struct LineHook {
    pub shared: Arc<Shared>,
}

#[pymethods]
impl LineHook {
    fn __call__(&self, py: Python<'_>, code: &Bound<'_, PyAny>, line: u32) -> Py<PyAny> {
        if let Ok(mut trace) = self.shared.trace.lock()
            && trace.is_module(code)
        {
            trace.lines.push(line);
        }
        self.shared.disable(py)
    }
}

/// `sys.monitoring` CALL: `(code, offset, callable, arg0)`.
#[pyclass(frozen, module = "nbsight._nbsight")]
pub(crate) struct CallHook {
    pub shared: Arc<Shared>,
}

#[pymethods]
impl CallHook {
    fn __call__(
        &self,
        py: Python<'_>,
        code: &Bound<'_, PyAny>,
        offset: u32,
        callable: &Bound<'_, PyAny>,
        _arg0: &Bound<'_, PyAny>,
    ) -> Py<PyAny> {
        if let Ok(mut trace) = self.shared.trace.lock()
            && trace.is_module(code)
            && let Some(function) = trace.function_of(&self.shared.types, callable)
            && let Some(line) = trace.line_of(code, offset)
        {
            trace.calls.push(CallFact { line, function });
        }
        self.shared.disable(py)
    }
}

/// The `sys.settrace` function (CPython 3.10 and 3.11).
#[pyclass(frozen, module = "nbsight._nbsight")]
pub(crate) struct SetTraceHook {
    pub shared: Arc<Shared>,
    /// The per-frame function of the cell's frames.
    pub local: Py<LocalTraceHook>,
}

#[pymethods]
impl SetTraceHook {
    fn __call__(
        &self,
        py: Python<'_>,
        frame: &Bound<'_, PyAny>,
        event: &str,
        _arg: &Bound<'_, PyAny>,
    ) -> Option<Py<PyAny>> {
        if event != "call" {
            return None;
        }
        let code = frame.getattr("f_code").ok()?;
        let mut trace = self.shared.trace.lock().ok()?;
        if trace.is_module(&code) {
            return Some(self.local.clone_ref(py).into_any());
        }
        // A user function called from the cell's code: which one, from
        // which line.
        if !trace.active {
            return None;
        }
        let function = trace
            .functions
            .get(&super::trace::address(&code))
            .map(|(_, f)| f.clone())?;
        let back = frame.getattr("f_back").ok()?;
        if back.is_none() || !trace.is_module(&back.getattr("f_code").ok()?) {
            return None;
        }
        let line = back.getattr("f_lineno").ok()?.extract::<u32>().ok()?;
        if !trace
            .calls
            .iter()
            .any(|c| c.line == line && c.function == function)
        {
            trace.calls.push(CallFact { line, function });
        }
        None
    }
}

/// The per-frame trace function of a cell's module frame.
#[pyclass(frozen, module = "nbsight._nbsight")]
pub(crate) struct LocalTraceHook {
    pub shared: Arc<Shared>,
}

#[pymethods]
impl LocalTraceHook {
    fn __call__(
        slf: &Bound<'_, Self>,
        frame: &Bound<'_, PyAny>,
        event: &str,
        _arg: &Bound<'_, PyAny>,
    ) -> Option<Py<PyAny>> {
        if event == "line"
            && let Ok(line) = frame.getattr("f_lineno").and_then(|l| l.extract::<u32>())
            && let Ok(mut trace) = slf.get().shared.trace.lock()
        {
            if trace.lines.contains(&line) {
                // A loop: stop tracing this frame line by line.
                trace.incomplete = true;
                let _ = frame.setattr("f_trace_lines", false);
            } else {
                trace.lines.push(line);
            }
        }
        Some(slf.clone().into_any().unbind())
    }
}
