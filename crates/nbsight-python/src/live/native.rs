//! The native trace function of CPython 3.10 and 3.11: a C function
//! installed with `PyEval_SetTrace` (no Python object: `sys.gettrace()`
//! stays `None`) for each top-level statement of a traced cell
//! (`Session::watch`). Per event it does pointer checks and hash lookups
//! only, never a Python-level call:
//!
//! - a call event of a frame whose code is neither the cell's module code
//!   nor a user function's switches that frame's line events off and
//!   returns (library code costs one lookup per call);
//! - a call event of a user function records the call when its caller is
//!   the cell's code or a user function;
//! - an exception event of the cell's code records its line (a statement
//!   that raised binds nothing);
//! - line events record each line of the cell's code and of user functions
//!   once per run, and read the subscript probes of the cell's lines
//!   (`probes.rs`: dict lookups and type checks, no Python call); a user
//!   function's frames keep their line events once every line of it was
//!   seen, counted as nothing new (see below).
//!
//! While provenance is recorded (`recorder.rs`), the frames of the code of
//! recorded cells also get opcode events (`f_trace_opcodes`) on the lines
//! holding a conditional jump or loop step (a frame with line events has
//! them switched on and off at each line event): each one at such an
//! instruction is kept until the frame's next opcode or line event tells
//! where it went; and the tracer never suspends itself.
//!
//! The interpreter's tracing mode itself costs every Python call 3 to 5
//! times its time on 3.11, whatever the trace function does; so after
//! `QUIET_LIMIT` events in a row that told nothing new the function removes
//! itself for the rest of the running top-level statement (the run's lines
//! then count as not all known unless every line of that statement ran).
//!
//! `PyEval_SetTrace`, `PyFrame_GetBack` and `PyFrame_GetLasti` (3.11) are
//! not in the stable ABI: they are looked up in the running interpreter
//! (`ctypes.pythonapi`) when the session starts, so that the one abi3 module
//! loads everywhere (a Windows abi3 module cannot link them). Frames are
//! used only through those functions, `PyFrame_GetCode`,
//! `PyFrame_GetLineNumber` and the `f_trace_lines`, `f_trace_opcodes` and
//! `f_lasti` descriptors, never by layout.

use std::ffi::c_int;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};

use pyo3::ffi;
use pyo3::prelude::*;

use super::hooks::Shared;
use super::trace::Trace;

const TRACE_CALL: c_int = 0;
const TRACE_EXCEPTION: c_int = 1;
const TRACE_LINE: c_int = 2;
const TRACE_RETURN: c_int = 3;
const TRACE_OPCODE: c_int = 7;

type TraceFn = unsafe extern "C" fn(
    *mut ffi::PyObject,
    *mut ffi::PyFrameObject,
    c_int,
    *mut ffi::PyObject,
) -> c_int;
type SetTraceFn = unsafe extern "C" fn(Option<TraceFn>, *mut ffi::PyObject);
type GetBackFn = unsafe extern "C" fn(*mut ffi::PyFrameObject) -> *mut ffi::PyFrameObject;
type GetLastiFn = unsafe extern "C" fn(*mut ffi::PyFrameObject) -> c_int;

/// The interpreter functions the tracer calls, found once.
struct Api {
    set_trace: SetTraceFn,
    get_back: GetBackFn,
    /// `FrameType.__dict__["f_trace_lines"]` (a reference kept for the
    /// process's life) and its type's `__set__`.
    trace_lines: usize,
    descr_set: ffi::descrsetfunc,
    /// `FrameType.__dict__["f_trace_opcodes"]` (kept for the process's
    /// life; set with `descr_set`, the same descriptor type).
    trace_opcodes: usize,
    /// `FrameType.__dict__["f_lasti"]` (kept) and its type's `__get__`.
    lasti: usize,
    descr_get: ffi::descrgetfunc,
    /// `PyFrame_GetLasti` (3.11+; 3.10 reads `f_lasti` through `lasti`).
    get_lasti: Option<GetLastiFn>,
}

/// Provenance is being recorded (the tracer then never suspends itself).
static RECORDING: AtomicBool = AtomicBool::new(false);

/// Says whether the running cell is recorded.
pub(crate) fn set_recording(on: bool) {
    RECORDING.store(on, Ordering::Relaxed);
}

static API: OnceLock<Api> = OnceLock::new();

/// The session whose trace the installed function fills (an `Arc` leaked
/// while installed).
static CURRENT: AtomicPtr<Shared> = AtomicPtr::new(null_mut());

/// The address of `name` in the running interpreter.
fn symbol(py: Python<'_>, name: &str) -> PyResult<usize> {
    let ctypes = py.import("ctypes")?;
    let function = ctypes.getattr("pythonapi")?.getattr(name)?;
    let address = ctypes
        .call_method1("cast", (function, ctypes.getattr("c_void_p")?))?
        .getattr("value")?
        .extract::<Option<usize>>()?;
    address
        .filter(|&a| a != 0)
        .ok_or_else(|| super::runtime(format!("{name} not found in the interpreter")))
}

/// Finds what the tracer needs (once per process).
pub(crate) fn load(py: Python<'_>) -> PyResult<()> {
    if API.get().is_some() {
        return Ok(());
    }
    let set_trace = symbol(py, "PyEval_SetTrace")?;
    let get_back = symbol(py, "PyFrame_GetBack")?;
    let get_lasti = symbol(py, "PyFrame_GetLasti").ok();
    let frame_dict = py
        .import("types")?
        .getattr("FrameType")?
        .getattr("__dict__")?;
    let descriptor = frame_dict.get_item("f_trace_lines")?;
    let opcodes = frame_dict.get_item("f_trace_opcodes")?;
    let lasti = frame_dict.get_item("f_lasti")?;
    // SAFETY: as below, a live type's slot.
    let get = unsafe { ffi::PyType_GetSlot(ffi::Py_TYPE(lasti.as_ptr()), ffi::Py_tp_descr_get) };
    if get.is_null() {
        return Err(super::runtime("frames' f_lasti cannot be read"));
    }
    // SAFETY: the slot of a live type object; `PyType_GetSlot` accepts
    // static types from 3.10 on.
    let slot =
        unsafe { ffi::PyType_GetSlot(ffi::Py_TYPE(descriptor.as_ptr()), ffi::Py_tp_descr_set) };
    if slot.is_null() {
        return Err(super::runtime("frames' f_trace_lines cannot be set"));
    }
    // SAFETY: the addresses are the interpreter's own functions, whose
    // signatures are the same on CPython 3.10 to 3.13; a `tp_descr_set`
    // slot holds a `descrsetfunc`.
    let api = unsafe {
        Api {
            set_trace: std::mem::transmute::<*const (), SetTraceFn>(set_trace as *const ()),
            get_back: std::mem::transmute::<*const (), GetBackFn>(get_back as *const ()),
            trace_lines: descriptor.into_ptr() as usize,
            descr_set: std::mem::transmute::<*mut std::ffi::c_void, ffi::descrsetfunc>(slot),
            trace_opcodes: opcodes.into_ptr() as usize,
            lasti: lasti.into_ptr() as usize,
            descr_get: std::mem::transmute::<*mut std::ffi::c_void, ffi::descrgetfunc>(get),
            get_lasti: get_lasti
                .map(|a| std::mem::transmute::<*const (), GetLastiFn>(a as *const ())),
        }
    };
    // A concurrent `load` (impossible with the GIL held) would only leak
    // one reference.
    let _ = API.set(api);
    Ok(())
}

/// Installs the trace function for the calling thread, filling `shared`'s
/// trace; `false` when `load` did not succeed.
pub(crate) fn install(_py: Python<'_>, shared: &Arc<Shared>) -> bool {
    let Some(api) = API.get() else {
        return false;
    };
    let fresh = Arc::into_raw(shared.clone()) as *mut Shared;
    let old = CURRENT.swap(fresh, Ordering::AcqRel);
    if !old.is_null() {
        // SAFETY: `old` came from `Arc::into_raw` in an earlier `install`.
        drop(unsafe { Arc::from_raw(old) });
    }
    QUIET.store(0, Ordering::Relaxed);
    // SAFETY: the GIL is held (`_py`).
    unsafe { (api.set_trace)(Some(trace), null_mut()) };
    true
}

/// Did the trace function see the call of the innermost running Python
/// frame (the one that called nbsight)? It switched off the line events of
/// every frame it saw entered that is not the cell's or a user function's;
/// frames start with them on.
pub(crate) fn saw_calling_frame(py: Python<'_>) -> bool {
    // SAFETY: the GIL is held; the frame is borrowed and outlives this call
    // (it is running).
    let frame = unsafe { Bound::from_borrowed_ptr_or_opt(py, ffi::PyEval_GetFrame().cast()) };
    frame
        .and_then(|f| f.getattr("f_trace_lines").ok())
        .and_then(|t| t.extract::<bool>().ok())
        == Some(false)
}

/// Removes the trace function (only when it is still ours: see
/// `saw_calling_frame`) and forgets the session.
pub(crate) fn remove(_py: Python<'_>, ours: bool) {
    if ours && let Some(api) = API.get() {
        // SAFETY: the GIL is held (`_py`).
        unsafe { (api.set_trace)(None, null_mut()) };
    }
    let old = CURRENT.swap(null_mut(), Ordering::AcqRel);
    if !old.is_null() {
        // SAFETY: `old` came from `Arc::into_raw` in `install`.
        drop(unsafe { Arc::from_raw(old) });
    }
}

/// The address of `frame`'s code object.
///
/// SAFETY: `frame` is a live frame.
unsafe fn code_of(frame: *mut ffi::PyFrameObject) -> usize {
    let code = unsafe { ffi::PyFrame_GetCode(frame) };
    if code.is_null() {
        return 0;
    }
    // The frame keeps its code alive: the address stays valid.
    unsafe { ffi::Py_DECREF(code.cast()) };
    code as usize
}

/// `frame`'s current line (0 when unknown).
///
/// SAFETY: `frame` is a live frame.
unsafe fn line_of(frame: *mut ffi::PyFrameObject) -> u32 {
    u32::try_from(unsafe { ffi::PyFrame_GetLineNumber(frame) }).unwrap_or(0)
}

/// Switches `frame`'s line events off.
///
/// SAFETY: `frame` is a live frame; the GIL is held.
unsafe fn lines_off(api: &Api, frame: *mut ffi::PyFrameObject) {
    unsafe { set_lines(api, frame, false) };
}

/// Sets `frame`'s `f_trace_lines`.
///
/// SAFETY: `frame` is a live frame; the GIL is held.
unsafe fn set_lines(api: &Api, frame: *mut ffi::PyFrameObject, on: bool) {
    let value = unsafe { if on { ffi::Py_True() } else { ffi::Py_False() } };
    let done =
        unsafe { (api.descr_set)(api.trace_lines as *mut ffi::PyObject, frame.cast(), value) };
    if done < 0 {
        unsafe { ffi::PyErr_Clear() };
    }
}

/// Sets `frame`'s `f_trace_opcodes`.
///
/// SAFETY: `frame` is a live frame; the GIL is held.
unsafe fn set_opcodes(api: &Api, frame: *mut ffi::PyFrameObject, on: bool) {
    let value = unsafe { if on { ffi::Py_True() } else { ffi::Py_False() } };
    let done =
        unsafe { (api.descr_set)(api.trace_opcodes as *mut ffi::PyObject, frame.cast(), value) };
    if done < 0 {
        unsafe { ffi::PyErr_Clear() };
    }
}

/// `frame.f_lasti`: the byte offset of the instruction about to run (of
/// the last one run, between events); `None` when it cannot be read.
///
/// SAFETY: `frame` is a live frame; the GIL is held.
unsafe fn lasti_of(api: &Api, frame: *mut ffi::PyFrameObject) -> Option<u32> {
    if let Some(get_lasti) = api.get_lasti {
        return u32::try_from(unsafe { get_lasti(frame) }).ok();
    }
    let get = api.descr_get;
    let value = unsafe {
        get(
            api.lasti as *mut ffi::PyObject,
            frame.cast(),
            ffi::Py_TYPE(frame.cast()).cast(),
        )
    };
    if value.is_null() {
        unsafe { ffi::PyErr_Clear() };
        return None;
    }
    let offset = unsafe { ffi::PyLong_AsLong(value) };
    unsafe { ffi::Py_DECREF(value) };
    if offset == -1 && unsafe { !ffi::PyErr_Occurred().is_null() } {
        unsafe { ffi::PyErr_Clear() };
        return None;
    }
    u32::try_from(offset).ok()
}

/// An opcode event (frames of recorded code only).
///
/// SAFETY: `frame` is a live frame; the GIL is held.
unsafe fn on_opcode(api: &Api, trace: &mut Trace, frame: *mut ffi::PyFrameObject) {
    let code = unsafe { code_of(frame) };
    // The frame went on after a selection whose keys it was collecting.
    unsafe {
        trace
            .recorder
            .settle(Python::assume_attached(), Some(frame as usize))
    };
    // Recording stopped (too many events) or the function saturated: the
    // frame's opcode events are switched off.
    if !trace.recorder.needs_opcodes(code) {
        let _ = trace.recorder.left(frame as usize);
        unsafe { set_opcodes(api, frame, false) };
        return;
    }
    if let Some(offset) = unsafe { lasti_of(api, frame) } {
        trace.recorder.opcode(frame as usize, code, offset);
    }
}

/// The trace function (`Py_tracefunc`). Never raises, never calls Python.
unsafe extern "C" fn trace(
    _obj: *mut ffi::PyObject,
    frame: *mut ffi::PyFrameObject,
    what: c_int,
    arg: *mut ffi::PyObject,
) -> c_int {
    let (Some(api), shared) = (API.get(), CURRENT.load(Ordering::Acquire)) else {
        return 0;
    };
    if shared.is_null() || frame.is_null() {
        return 0;
    }
    if what == TRACE_OPCODE {
        // SAFETY: as below.
        let shared = unsafe { &*shared };
        if let Ok(mut trace) = shared.trace.try_lock() {
            // SAFETY: the interpreter passes a live frame and holds the GIL.
            unsafe { on_opcode(api, &mut trace, frame) };
        }
        return 0;
    }
    let new = if what == TRACE_CALL || what == TRACE_LINE {
        // SAFETY: `CURRENT` holds a strong reference while installed, and
        // it is only released with the GIL held, which this call has.
        let shared = unsafe { &*shared };
        // Busy (nbsight itself runs, and a finalizer ran user code): the
        // event is lost, never waited for.
        let Ok(mut trace) = shared.trace.try_lock() else {
            return 0;
        };
        // SAFETY: the interpreter passes a live frame and holds the GIL.
        unsafe {
            if what == TRACE_CALL {
                on_call(api, &mut trace, frame)
            } else {
                on_line(api, &mut trace, frame)
            }
        }
    } else if what == TRACE_EXCEPTION {
        // SAFETY: as above.
        let shared = unsafe { &*shared };
        // SAFETY: the exception event's argument is `(type, value, tb)`.
        if unsafe { ends_iteration(arg) } {
            return 0;
        }
        if let Ok(mut trace) = shared.trace.try_lock() {
            // SAFETY: the interpreter passes a live frame.
            let code = unsafe { code_of(frame) };
            trace.raised_at(code, || Some(unsafe { line_of(frame) }));
            if trace.recorder.on && trace.recorder.has_table(code) {
                trace.recorder.raised(code, unsafe { line_of(frame) });
            }
        }
        false
    } else {
        if what == TRACE_RETURN {
            // A frame leaving (or a generator yielding) gets its line events
            // back, so that a trace function the user installs later sees
            // its lines as without nbsight.
            // SAFETY: as above.
            unsafe { set_lines(api, frame, true) };
            if RECORDING.load(Ordering::Relaxed) {
                // SAFETY: as above.
                let shared = unsafe { &*shared };
                // Opcode events off for a frame that had them (or may have:
                // nbsight busy).
                let had_opcodes = match shared.trace.try_lock() {
                    Ok(mut trace) => {
                        // SAFETY: as above; a return event's argument is
                        // the value returned (NULL when an exception leaves).
                        unsafe { on_return(api, &mut trace, frame, arg) };
                        trace.recorder.left(frame as usize)
                    }
                    Err(_) => true,
                };
                if had_opcodes {
                    unsafe { set_opcodes(api, frame, false) };
                }
            }
        }
        false
    };
    if new {
        QUIET.store(0, Ordering::Relaxed);
    } else if QUIET.fetch_add(1, Ordering::Relaxed) >= QUIET_LIMIT {
        // SAFETY: as above.
        unsafe { suspend(api, &*shared) };
    }
    0
}

/// While recording, a frame returning `value` (NULL: raising): a frame
/// collecting a selection's keys is done with it; a frame of recorded code
/// whose caller is at a selection call with a `key=` (a key function
/// called by `max`/`min`/`sorted`/`list.sort`) gives the next key.
///
/// SAFETY: `frame` is a live frame; `value` NULL or a live object; the GIL
/// is held.
unsafe fn on_return(
    api: &Api,
    trace: &mut Trace,
    frame: *mut ffi::PyFrameObject,
    value: *mut ffi::PyObject,
) {
    let py = unsafe { Python::assume_attached() };
    trace.recorder.settle(py, Some(frame as usize));
    let code = unsafe { code_of(frame) };
    if value.is_null()
        || !trace.recorder.on
        || !trace.recorder.any_keyed()
        || !trace.recorder.has_table(code)
    {
        return;
    }
    let back = unsafe { (api.get_back)(frame) };
    if back.is_null() {
        return;
    }
    let caller = unsafe { code_of(back) };
    let at = unsafe { lasti_of(api, back) }
        .and_then(|offset| Some((offset, trace.recorder.keyed_site(caller, offset)?)));
    match at {
        Some((offset, at)) => {
            let key = unsafe { Bound::from_borrowed_ptr(py, value) };
            trace
                .recorder
                .key_returned(back as usize, caller, offset, at, code, &key);
        }
        None => trace.recorder.settle(py, Some(back as usize)),
    }
    unsafe { ffi::Py_DECREF(back.cast()) };
}

/// Is the exception of an exception event's `(type, value, tb)` one that
/// ends an iteration or an await (`StopIteration`, `StopAsyncIteration`,
/// `GeneratorExit`: a top-level `await` passes one through the cell's code
/// on 3.11), not a failure of a statement? A type check: no user code runs.
///
/// SAFETY: `arg` is NULL or a tuple; the GIL is held.
unsafe fn ends_iteration(arg: *mut ffi::PyObject) -> bool {
    if arg.is_null() || unsafe { ffi::PyTuple_Check(arg) } == 0 {
        return false;
    }
    let kind = unsafe { ffi::PyTuple_GetItem(arg, 0) };
    if kind.is_null() {
        unsafe { ffi::PyErr_Clear() };
        return false;
    }
    unsafe {
        [
            ffi::PyExc_StopIteration,
            ffi::PyExc_StopAsyncIteration,
            ffi::PyExc_GeneratorExit,
        ]
        .iter()
        .any(|&e| ffi::PyErr_GivenExceptionMatches(kind, e) != 0)
    }
}

/// Events in a row that told nothing new after which the tracer removes
/// itself for the rest of the running top-level statement (the
/// interpreter's tracing mode costs every Python call 3 to 5 times its time
/// on 3.11, whatever the trace function does).
const QUIET_LIMIT: u32 = 2048;

/// Events since the last new fact.
static QUIET: AtomicU32 = AtomicU32::new(0);

/// Removes the trace function until `Session::watch` installs it again for
/// the next top-level statement.
///
/// SAFETY: called from the trace function (the GIL is held).
unsafe fn suspend(api: &Api, shared: &Shared) {
    if let Ok(mut trace) = shared.trace.try_lock() {
        // While recording: only when no frame with jumps to log is running
        // (the calls that follow in this statement are then not logged:
        // the log says so), or once the run stopped being recorded (too
        // many events).
        if RECORDING.load(Ordering::Relaxed) && trace.recorder.on {
            let module = trace.current_module();
            // Not when the run's lines would then be unknown: the run
            // would not be recorded at all.
            if !trace.current_complete() || !trace.recorder.unlogged_from_here(module) {
                QUIET.store(0, Ordering::Relaxed);
                return;
            }
        }
        trace.suspend();
    } else {
        return;
    }
    QUIET.store(0, Ordering::Relaxed);
    unsafe { (api.set_trace)(None, null_mut()) };
}

/// A call event; `true` when it told something new.
///
/// SAFETY: `frame` is a live frame; the GIL is held.
unsafe fn on_call(api: &Api, trace: &mut Trace, frame: *mut ffi::PyFrameObject) -> bool {
    let code = unsafe { code_of(frame) };
    if trace.recorder.on && trace.recorder.has_table(code) {
        // (A generator's resume gives a call event too: not a call.)
        if !trace
            .recorder
            .resumes(code, unsafe { lasti_of(api, frame) })
        {
            trace.recorder.entered(code);
        }
        if trace.recorder.needs_opcodes(code) {
            unsafe { set_opcodes(api, frame, true) };
            trace.recorder.logging(frame as usize, code);
        }
    }
    if trace.is_module_address(code) {
        return false;
    }
    // A user function's frame keeps its line events even once every line
    // of it was seen: they count as nothing new, so that a long loop in it
    // soon makes the tracer remove itself (the interpreter's tracing mode,
    // not the events, is what costs; a frame without events would keep it
    // on until the statement ends).
    if !(trace.active && trace.function_complete(code).is_some()) {
        unsafe { lines_off(api, frame) };
        return false;
    }
    let back = unsafe { (api.get_back)(frame) };
    if back.is_null() {
        return false;
    }
    let from = unsafe { code_of(back) };
    let new = match trace.caller(from) {
        Some(caller) => trace.call(from, &caller, code, || unsafe { line_of(back) }),
        None => false,
    };
    unsafe { ffi::Py_DECREF(back.cast()) };
    new
}

/// While recording, a logged frame entering a line: opcode events on for
/// a line holding a logged jump or loop step, off for any other (a loop
/// whose body has no jump costs a line event per line, not an opcode event
/// per instruction). The line event comes before the line's first
/// instruction runs, and so tells where a jump before it went.
///
/// SAFETY: `frame` is a live frame running `code`; the GIL is held.
unsafe fn opcodes_for_line(
    api: &Api,
    trace: &mut Trace,
    frame: *mut ffi::PyFrameObject,
    code: usize,
) {
    unsafe {
        trace
            .recorder
            .settle(Python::assume_attached(), Some(frame as usize))
    };
    let line = unsafe { line_of(frame) };
    let Some(on) = trace.recorder.opcodes_on_line(frame as usize, code, line) else {
        return;
    };
    // Switched on, the opcode event of this same instruction follows;
    // switched off, it does not: the jump before is resolved here. (Left
    // as they are, nothing is pending or the opcode event follows.)
    if !on && let Some(offset) = unsafe { lasti_of(api, frame) } {
        trace.recorder.opcode(frame as usize, code, offset);
    }
    unsafe { set_opcodes(api, frame, on) };
}

/// A line event; `true` when it told something new.
///
/// SAFETY: `frame` is a live frame; the GIL is held.
unsafe fn on_line(api: &Api, trace: &mut Trace, frame: *mut ffi::PyFrameObject) -> bool {
    let code = unsafe { code_of(frame) };
    if RECORDING.load(Ordering::Relaxed) {
        unsafe { opcodes_for_line(api, trace, frame, code) };
    }
    if trace.is_module_address(code) {
        // Repeated lines of the cell's code stay on (a loop at the top
        // level may take a new branch later); they count as nothing new,
        // unless a probe of the line reads a new key.
        let line = unsafe { line_of(frame) };
        let new = trace.module_line(code, line);
        // SAFETY: the GIL is held (the interpreter calls trace functions
        // with it).
        let py = unsafe { Python::assume_attached() };
        let probed = trace.probes.line(py, line).is_some_and(|(new, _)| new);
        return new || probed;
    }
    let seen = if trace.active {
        trace.function_line(code, || unsafe { line_of(frame) })
    } else {
        None
    };
    match seen {
        Some((new, _)) => new,
        None => {
            unsafe { lines_off(api, frame) };
            false
        }
    }
}
