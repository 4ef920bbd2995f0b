//! The `sys.monitoring` callbacks of CPython 3.12+: RAISE (global, for the
//! statements of the cell that raised), and LINE, CALL and PY_START events
//! set on the cell's own code objects and on user functions' (library code
//! is never instrumented), each returning `DISABLE` (once per location per
//! run; the user functions' events are switched on again before each run),
//! except a line of the cell with a subscript probe (`probes.rs`), on until
//! its probes are done.
//! BRANCH events feed the provenance recorder (`recorder.rs`).
//! The 3.10/3.11 tracer is `native.rs`.
//!
//! Every callback is the `event` method of a Rust object, registered bound
//! (the interpreter calls it without building an argument tuple): no
//! Python code runs per event. They never raise: a failure loses a fact,
//! not the user's cell.

use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyGeneratorExit, PyStopAsyncIteration, PyStopIteration};
use pyo3::prelude::*;

use super::objects::{Types, address};
use super::selection::KeyStep;
use super::trace::{Caller, Trace};

/// What the callbacks share with the session.
pub(crate) struct Shared {
    pub trace: Mutex<Trace>,
    pub types: Types,
    /// `max`, `min`, `sorted`, `list.sort`: what their calls chose is
    /// logged while recording.
    pub selectors: super::selection::Selectors,
    /// `sys.monitoring.DISABLE` (None before 3.12).
    pub disable: Py<PyAny>,
    /// `sys.monitoring.set_local_events`, nbsight's tool id, the events
    /// it sets on code objects and the BRANCH event the code of recorded
    /// cells has too (3.12+): to switch a function's events on again when a
    /// second line of the cell calls it.
    pub rearm: std::sync::OnceLock<(Py<PyAny>, u8, u32, u32)>,
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
    fn event(&self, py: Python<'_>, code: &Bound<'_, PyAny>, line: u32) -> Py<PyAny> {
        // Busy (another thread is in nbsight): the event stays on.
        let Ok(mut trace) = self.shared.trace.try_lock() else {
            return py.None();
        };
        let code = address(code);
        if trace.is_module_address(code) {
            trace.module_line(code, line);
            // A probed line stays on until its probes are done.
            if let Some((_, false)) = trace.probes.line(py, line) {
                return py.None();
            }
        } else if trace.touch(code) && trace.active {
            trace.function_line(code, || line);
        }
        self.shared.disable(py)
    }
}

/// `sys.monitoring` BRANCH: `(code, offset, destination)`, set on the code
/// of recorded cells while provenance is recorded (`recorder.rs`).
#[pyclass(frozen, module = "nbsight._nbsight")]
pub(crate) struct BranchHook {
    pub shared: Arc<Shared>,
}

#[pymethods]
impl BranchHook {
    fn event(
        &self,
        py: Python<'_>,
        code: &Bound<'_, PyAny>,
        offset: u32,
        destination: u32,
    ) -> Py<PyAny> {
        let Ok(mut trace) = self.shared.trace.try_lock() else {
            return py.None();
        };
        if trace.recorder.branch(address(code), offset, destination) {
            py.None()
        } else {
            // Not recorded (recording is off: switched on again when a
            // recorded run starts).
            self.shared.disable(py)
        }
    }
}

/// `sys.monitoring` RAISE: `(code, offset, exception)`. A global event
/// (it cannot be set on code objects or disabled): one address lookup for
/// an exception anywhere else, none of the exception's own code runs.
#[pyclass(frozen, module = "nbsight._nbsight")]
pub(crate) struct RaiseHook {
    pub shared: Arc<Shared>,
}

#[pymethods]
impl RaiseHook {
    fn event(
        &self,
        py: Python<'_>,
        code: &Bound<'_, PyAny>,
        offset: u32,
        exception: &Bound<'_, PyAny>,
    ) -> Py<PyAny> {
        // The end of an iteration or an await is no failure.
        let ends_iteration = exception.is_instance_of::<PyStopIteration>()
            || exception.is_instance_of::<PyStopAsyncIteration>()
            || exception.is_instance_of::<PyGeneratorExit>();
        if !ends_iteration && let Ok(mut trace) = self.shared.trace.try_lock() {
            let at = address(code);
            if trace.is_module_address(at) {
                let line = trace.line_of(code, offset);
                trace.raised_at(at, || line);
            }
            if trace.recorder.on
                && trace.recorder.has_table(at)
                && let Some(line) = trace.line_of(code, offset)
            {
                trace.recorder.raised(at, line);
            }
        }
        py.None()
    }
}

/// `sys.monitoring` PY_START: `(code, offset)`, set on user functions'
/// code. A call that no CALL event named (a property getter, `__init__`
/// through its class, a function a library calls back) is taken as a call
/// from the cell's line that ran last; once per function per run.
#[pyclass(frozen, module = "nbsight._nbsight")]
pub(crate) struct StartHook {
    pub shared: Arc<Shared>,
}

#[pymethods]
impl StartHook {
    fn event(&self, py: Python<'_>, code: &Bound<'_, PyAny>, _offset: u32) -> Py<PyAny> {
        let Ok(mut trace) = self.shared.trace.try_lock() else {
            return py.None();
        };
        let at = address(code);
        if trace.touch(at) && trace.active {
            trace.started(at);
        }
        // A recorded function's every call is logged (it bounds the
        // replay's look for a raise in one call).
        if trace.recorder.entered(at) {
            return py.None();
        }
        self.shared.disable(py)
    }
}

/// `sys.monitoring` PY_RETURN: `(code, offset, value)`, set on the code
/// the recorder has tables for. A return to the frame waiting for a
/// selection's keys (its key function's call, the same function each
/// time) gives the next key; other
/// returns return at once, and those of a function no longer logged in the
/// run `DISABLE` (on again at the next recorded run).
#[pyclass(frozen, module = "nbsight._nbsight")]
pub(crate) struct ReturnHook {
    pub shared: Arc<Shared>,
}

#[pymethods]
impl ReturnHook {
    fn event(
        &self,
        py: Python<'_>,
        code: &Bound<'_, PyAny>,
        _offset: u32,
        value: &Bound<'_, PyAny>,
    ) -> Py<PyAny> {
        let Ok(mut trace) = self.shared.trace.try_lock() else {
            return py.None();
        };
        if let Some(caller) = trace.recorder.keyed.as_ref().map(|k| k.caller) {
            if caller_code(py) == Some(caller) {
                let code = address(code);
                let step = trace.recorder.keyed.as_mut().map(|k| k.key(code, value));
                match step {
                    Some(KeyStep::More) => {}
                    Some(KeyStep::Done(order)) => {
                        if let Some(k) = trace.recorder.keyed.take() {
                            trace.recorder.chose(k.caller, k.at, order);
                        }
                    }
                    Some(KeyStep::Lost) | None => trace.recorder.keyed = None,
                }
            }
            return py.None();
        }
        if trace.recorder.saturated(address(code)) {
            return self.shared.disable(py);
        }
        py.None()
    }
}

/// The address of the code of the frame that called the running one.
fn caller_code(py: Python<'_>) -> Option<usize> {
    let frame = py
        .import("sys")
        .and_then(|sys| sys.getattr("_getframe"))
        .and_then(|f| f.call1((0,)))
        .and_then(|f| f.getattr("f_back"))
        .ok()?;
    if frame.is_none() {
        return None;
    }
    frame.getattr("f_code").ok().map(|c| address(&c))
}

/// `sys.monitoring` CALL: `(code, offset, callable, arg0)`.
#[pyclass(frozen, module = "nbsight._nbsight")]
pub(crate) struct CallHook {
    pub shared: Arc<Shared>,
}

#[pymethods]
impl CallHook {
    fn event(
        &self,
        py: Python<'_>,
        code: &Bound<'_, PyAny>,
        offset: u32,
        callable: &Bound<'_, PyAny>,
        arg0: &Bound<'_, PyAny>,
    ) -> Py<PyAny> {
        let Ok(mut trace) = self.shared.trace.try_lock() else {
            return py.None();
        };
        let from = address(code);
        trace.touch(from);
        if let Some(caller) = trace.caller(from)
            && let Some(callee) = trace.function_of(&self.shared.types, callable)
            && let Some(line) = trace.line_of(code, offset)
        {
            trace.call(from, &caller, callee, || line);
            // Called from another line of the cell than before: its events
            // on again, so that the lines it runs from here are all seen.
            if matches!(caller, Caller::Module)
                && trace.arm(callee, line)
                && let Some((set_local_events, tool, events, branch)) = self.shared.rearm.get()
                && let Some(code) = trace.code_of(callee)
            {
                let events = if trace.recorder.has_table(callee) {
                    events | branch
                } else {
                    *events
                };
                let code = code.bind(py);
                let on = set_local_events
                    .call1(py, (*tool, code, 0))
                    .and_then(|_| set_local_events.call1(py, (*tool, code, events)));
                if on.is_err() {
                    trace.lose_sites();
                }
            }
        }
        // A call from the code waiting for a selection's keys: that
        // selection has returned.
        if trace
            .recorder
            .keyed
            .as_ref()
            .is_some_and(|k| k.caller == from)
        {
            trace.recorder.keyed = None;
        }
        // A selection in recorded code: which elements it chose, at every
        // call (the location stays on while recording). A site that calls
        // something else is off for the rest of the run (were it to call
        // `max` later, through a name bound again, that choice would not be
        // logged: the replay then takes every element as chosen).
        if let Some(site) = trace.recorder.selection_at(from, offset) {
            let selectors = &self.shared.selectors;
            if !selectors.selects(callable, site.argc) {
                return self.shared.disable(py);
            }
            if let Some(key) = site.key
                && let Some(order) = selectors.order_by_builtin(callable, site.argc, arg0, key)
            {
                trace.recorder.chose(from, site.at, order);
            } else if site.keyed {
                trace.recorder.keyed = selectors.keyed(callable, site.argc, arg0, from, site.at);
            } else if let Some(order) = selectors.order(callable, site.argc, arg0) {
                trace.recorder.chose(from, site.at, order);
            }
            return py.None();
        }
        self.shared.disable(py)
    }
}
