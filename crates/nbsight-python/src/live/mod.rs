//! The live session behind `%load_ext nbsight`: the `Session` the IPython
//! extension (`python/nbsight/_live.py`) calls around every cell run. It
//! starts and stops the tracer (`hooks.rs` on 3.12+, `native.rs` on 3.10
//! and 3.11, both filling `trace.rs`), turns what it saw
//! and the namespace's bindings into `nbsight_lineage::RunFacts`, and
//! converts the lineage's answers to Python (`convert.rs`).

mod builtin_keys;
mod clock;
mod compile;
mod convert;
mod elements;
mod frames;
mod hooks;
mod native;
mod objects;
mod probes;
mod recorder;
mod selection;

use recorder::NotRecorded;
mod trace;

use std::sync::{Arc, Mutex, MutexGuard};

pub use compile::CompileWatcher;

use nbsight_dataflow::Effects;
use nbsight_history::{HistoryWriter, Kernel, RecordedEvents, RunProvenance};
use nbsight_lineage::{Lineage, PreRun, RunFacts, report};
use nbsight_slice::{GatherFormat, HistoryCell, gather_history};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use hooks::{CallHook, LineHook, RaiseHook, Shared, StartHook};
use objects::Types;
use trace::Trace;

/// How the tracer is attached.
enum Tracer {
    /// `sys.monitoring` with this tool id (CPython 3.12+).
    Monitoring {
        tool: u8,
        events: u32,
        /// The BRANCH and PY_RETURN events, added on the code of recorded
        /// cells.
        branch: u32,
    },
    /// The native trace function (3.10, 3.11, `native.rs`): `armed` during
    /// a run it traces (no other trace function was there at its start),
    /// `installed` once a top-level statement of it installed ours (it may
    /// have suspended itself since: `Trace::suspended`).
    Native { armed: bool, installed: bool },
}

/// What the session keeps between `pre_run` and `post_run`.
struct Pending {
    cell_id: String,
    source: String,
    pre: PreRun,
    /// The identity of the object at each of `pre.elements` before the run.
    elements_before: Vec<Option<u64>>,
    execution_count: Option<u32>,
    /// The run's lines are not known: a cell magic ran it, a user's trace
    /// function was there at its start (nbsight's was not installed) or
    /// replaced nbsight's during it.
    lost: bool,
    /// Provenance is recorded for this run.
    recording: bool,
}

struct State {
    lineage: Lineage,
    tracer: Option<Tracer>,
    clock: u32,
    pending: Option<Pending>,
    /// The history file the runs are written to (`nbsight-history`).
    history: HistoryWriter,
    frame_types: frames::FrameTypes,
}

/// A live kernel's lineage and tracer.
#[pyclass(frozen, module = "nbsight._nbsight")]
pub struct Session {
    state: Mutex<State>,
    shared: Arc<Shared>,
}

fn runtime(message: impl std::fmt::Display) -> PyErr {
    PyRuntimeError::new_err(format!("nbsight: {message}"))
}

impl Session {
    fn state(&self) -> PyResult<MutexGuard<'_, State>> {
        self.state
            .lock()
            .map_err(|_| runtime("internal state poisoned by an earlier failure"))
    }
}

/// The tool id nbsight takes in `sys.monitoring` (3 and 4 are free by
/// convention: 0-2 are debuggers, coverage and profilers, 5 optimizers).
fn take_tool_id(monitoring: &Bound<'_, PyAny>) -> PyResult<u8> {
    for tool in [3u8, 4] {
        if monitoring.call_method1("get_tool", (tool,))?.is_none() {
            monitoring.call_method1("use_tool_id", (tool, "nbsight"))?;
            return Ok(tool);
        }
    }
    Err(runtime(
        "no free sys.monitoring tool id (3 and 4 are taken); live tracing is off",
    ))
}

#[pymethods]
impl Session {
    /// A new session; extra library-effects files come from `effects`
    /// (paths of TOML files, see docs/effects.md), by default from
    /// `NBSIGHT_EFFECTS` as the command line reads it.
    #[new]
    #[pyo3(signature = (effects = None))]
    fn new(py: Python<'_>, effects: Option<Vec<std::path::PathBuf>>) -> PyResult<Session> {
        let effects = effects.unwrap_or_else(|| {
            std::env::var_os(nbsight_dataflow::effects::EFFECTS_ENV_VAR)
                .map(|value| nbsight_dataflow::effects::paths_from_env_value(&value))
                .unwrap_or_default()
        });
        let kb = Effects::with_user_files(&effects).map_err(runtime)?;
        let sys = py.import("sys")?;
        let version_info = sys.getattr("version_info")?;
        let version: (u32, u32) = (
            version_info.getattr("major")?.extract()?,
            version_info.getattr("minor")?.extract()?,
        );
        let monitoring = (version >= (3, 12))
            .then(|| sys.getattr("monitoring"))
            .transpose()?;
        let disable = match &monitoring {
            Some(m) => m.getattr("DISABLE")?.unbind(),
            None => py.None(),
        };
        let shared = Arc::new(Shared {
            trace: Mutex::new(Trace::default()),
            types: Types::new(py)?,
            selectors: selection::Selectors::new(py)?,
            disable,
            rearm: std::sync::OnceLock::new(),
        });
        let tracer = match monitoring {
            Some(m) => {
                let tool = take_tool_id(&m)?;
                let events = m.getattr("events")?;
                let line = events.getattr("LINE")?.extract::<u32>()?;
                let call = events.getattr("CALL")?.extract::<u32>()?;
                let raise = events.getattr("RAISE")?.extract::<u32>()?;
                let start = events.getattr("PY_START")?.extract::<u32>()?;
                let branch = events.getattr("BRANCH")?.extract::<u32>()?;
                let returned = events.getattr("PY_RETURN")?.extract::<u32>()?;
                let register = |event: u32, hook: Bound<'_, PyAny>| {
                    // Its bound method, which the interpreter calls with
                    // the vectorcall protocol (no argument tuple per event).
                    m.call_method1("register_callback", (tool, event, hook.getattr("event")?))
                        .map(drop)
                };
                let s = || shared.clone();
                register(
                    branch,
                    Bound::new(py, hooks::BranchHook { shared: s() })?.into_any(),
                )?;
                register(line, Bound::new(py, LineHook { shared: s() })?.into_any())?;
                register(call, Bound::new(py, CallHook { shared: s() })?.into_any())?;
                register(start, Bound::new(py, StartHook { shared: s() })?.into_any())?;
                register(raise, Bound::new(py, RaiseHook { shared: s() })?.into_any())?;
                register(
                    returned,
                    Bound::new(py, hooks::ReturnHook { shared: s() })?.into_any(),
                )?;
                // The recorder's events on the code it has tables for: its
                // jumps, and returns (a key function's keys).
                let branch = branch | returned;
                // RAISE is a global event: on for the session (switching
                // it per run would make every code object re-instrument).
                m.call_method1("set_events", (tool, raise))?;
                let _ = shared.rearm.set((
                    m.getattr("set_local_events")?.unbind(),
                    tool,
                    line | call | start,
                    branch,
                ));
                Tracer::Monitoring {
                    tool,
                    events: line | call | start,
                    branch,
                }
            }
            None => {
                native::load(py)?;
                if let Ok(mut trace) = shared.trace.lock() {
                    trace.native_sites = true;
                }
                Tracer::Native {
                    armed: false,
                    installed: false,
                }
            }
        };
        Ok(Session {
            state: Mutex::new(State {
                lineage: Lineage::new(kb),
                tracer: Some(tracer),
                clock: 0,
                pending: None,
                history: HistoryWriter::new(
                    effects
                        .iter()
                        .map(|p| {
                            std::path::absolute(p)
                                .unwrap_or_else(|_| p.clone())
                                .display()
                                .to_string()
                        })
                        .collect(),
                ),
                frame_types: frames::FrameTypes::default(),
            }),
            shared,
        })
    }

    /// How the tracer is attached: `"sys.monitoring"` or `"sys.settrace"`.
    #[getter]
    fn tracer(&self) -> PyResult<&'static str> {
        Ok(match self.state()?.tracer {
            Some(Tracer::Monitoring { .. }) => "sys.monitoring",
            Some(Tracer::Native { .. }) => "sys.settrace",
            None => "closed",
        })
    }

    /// Before `cell_id` runs `source`: starts tracing and returns the
    /// stale symbols it is about to read with the warning and block texts
    /// (`None` when there are none).
    /// `namespace` is the dict the cell's code runs in, where the tracer
    /// reads run-time subscript indexes (`None`: they are not read).
    /// `record`: record the run's decisions for provenance (`recorder.rs`).
    #[pyo3(signature = (cell_id, source, execution_count = None, namespace = None, record = false))]
    fn pre_run<'py>(
        &self,
        py: Python<'py>,
        cell_id: &str,
        source: &str,
        execution_count: Option<u32>,
        namespace: Option<&Bound<'_, PyDict>>,
        record: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let mut state = self.state()?;
        let pre = state.lineage.before_run(cell_id, source);
        let probes = pre.probes.clone();
        state.clock = (state.clock + 1).max(execution_count.unwrap_or(0));
        let clock = state.clock;
        let out = PyDict::new(py);
        let symbols: Vec<&str> = pre.stale.iter().map(|s| s.symbol.as_str()).collect();
        out.set_item("stale", symbols)?;
        let (warning, blocked) = if pre.stale.is_empty() {
            (None, None)
        } else {
            // The texts name cells as the notebook shows them.
            let named = state.lineage.named(&pre.stale);
            (
                Some(report::warning(&named)),
                // Block only where re-running other cells can refresh
                // what it reads: never a dead end.
                (!report::rerun_order(&named).is_empty()).then(|| report::blocked(&named)),
            )
        };
        out.set_item("warning", warning)?;
        out.set_item("blocked", blocked)?;
        state.pending = Some(Pending {
            cell_id: cell_id.to_string(),
            source: source.to_string(),
            elements_before: match namespace {
                Some(ns) => pre
                    .elements
                    .iter()
                    .map(|e| elements::identity(ns, e))
                    .collect(),
                None => Vec::new(),
            },
            pre,
            execution_count,
            // A cell magic (`%%time`) runs its body out of the tracer's
            // sight: its lines are not known.
            lost: source.trim_start().starts_with("%%"),
            recording: record,
        });
        state.history.begin(clock::now());
        let rearm: Vec<(Py<PyAny>, bool)> = match self.shared.trace.lock() {
            Ok(mut trace) => {
                trace.start(clock);
                trace.probes.set(py, namespace, &probes);
                let mut rearm: Vec<Py<PyAny>> = std::mem::take(&mut trace.rearm)
                    .into_iter()
                    .filter_map(|a| trace.functions.get(&a).map(|u| u.code.clone_ref(py)))
                    .collect();
                native::set_recording(record);
                if record {
                    trace.recorder.start();
                    // Branch events that returned DISABLE while recording
                    // was off are switched on again.
                    if std::mem::take(&mut trace.recorder.disabled) {
                        rearm.extend(trace.recorder.codes(py));
                    }
                } else {
                    trace.recorder.finish();
                }
                rearm
                    .into_iter()
                    .map(|c| {
                        let tabled = trace.recorder.has_table(c.as_ptr() as usize);
                        (c, tabled)
                    })
                    .collect()
            }
            Err(_) => Vec::new(),
        };
        let traced = self.start_tracer(py, &mut state, rearm)?;
        if !traced && let Some(pending) = &mut state.pending {
            pending.lost = true;
        }
        Ok(out)
    }

    /// A module-level code object of the running cell (IPython compiles a
    /// cell into one per top-level statement group): trace it.
    fn watch(&self, py: Python<'_>, code: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut state = self.state()?;
        if state.pending.is_none() {
            return Ok(());
        }
        if !self.install_native(py, &mut state)?
            && let Some(pending) = &mut state.pending
        {
            pending.lost = true;
        }
        let recording = state.pending.as_ref().is_some_and(|p| p.recording);
        let cell_id = state
            .pending
            .as_ref()
            .map(|p| p.cell_id.clone())
            .unwrap_or_default();
        let functions = {
            let mut trace = self
                .shared
                .trace
                .lock()
                .map_err(|_| runtime("tracer state poisoned"))?;
            let functions = trace.watch_module(&self.shared.types, code)?;
            if recording {
                trace
                    .recorder
                    .register(&self.shared.types, code, &cell_id)?;
            }
            std::iter::once(code.clone())
                .chain(functions)
                .map(|c| {
                    let tabled = trace.recorder.has_table(objects::address(&c));
                    (c, tabled)
                })
                .collect::<Vec<_>>()
        };
        if let Some(Tracer::Monitoring {
            tool,
            events,
            branch,
        }) = &state.tracer
        {
            let monitoring = py.import("sys")?.getattr("monitoring")?;
            for (code, tabled) in &functions {
                let events = if *tabled { events | branch } else { *events };
                monitoring.call_method1("set_local_events", (*tool, code, events))?;
            }
        }
        Ok(())
    }

    /// After the run: `error` is the exception that left the cell (or
    /// `None`); `user_ns` the namespace it ran in. Returns the line to
    /// print when the history could not be written.
    #[pyo3(signature = (user_ns, error = None))]
    fn post_run(
        &self,
        py: Python<'_>,
        user_ns: &Bound<'_, PyDict>,
        error: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<String>> {
        let mut state = self.state()?;
        state.history.end(clock::now());
        let lost = self.stop_tracer(py, &mut state)?;
        let Some(pending) = state.pending.take() else {
            return Ok(None);
        };
        let (lines, calls, function_lines, site_lines, error_line, keys, raised, provenance) = {
            let mut trace = self
                .shared
                .trace
                .lock()
                .map_err(|_| runtime("tracer state poisoned"))?;
            let error_line = error.and_then(|e| trace.error_line(e));
            let site_lines = trace.site_lines();
            let (lines, calls, function_lines) = trace.finish();
            let keys = trace.probes.finish();
            let raised = trace.raised_lines();
            trace.release();
            trace.recorder.settle(py, None);
            let mut recorded = trace.recorder.finish();
            native::set_recording(false);
            // A raise out of the cell that the tracer did not see (3.10/3.11:
            // it had left a long library statement) is placed by the
            // traceback's line.
            if let (Some(events), Some(line)) = (recorded.as_mut(), error_line) {
                recorder::place_raise(events, nbsight_lineage::code_key(&pending.cell_id, 0), line);
            }
            let lines = if lost || pending.lost { None } else { lines };
            // A run whose events were not all seen is not recorded.
            let provenance = match (pending.recording, lines.is_some()) {
                (true, true) => Some(recorded.ok_or(if trace.recorder.overflowed() {
                    NotRecorded::TooMany
                } else {
                    NotRecorded::Lost
                })),
                (true, false) => Some(Err(NotRecorded::Lost)),
                (false, _) => None,
            };
            // Keys read while the lines were not all followed may miss some.
            let keys = if lines.is_some() { keys } else { Vec::new() };
            trace.last = Some((lines.clone(), calls.clone(), function_lines.clone()));
            let site_lines = if lines.is_some() {
                site_lines
            } else {
                Vec::new()
            };
            (
                lines,
                calls,
                function_lines,
                site_lines,
                error_line,
                keys,
                raised,
                provenance,
            )
        };
        let mut bindings: Vec<(String, Option<u64>)> = Vec::new();
        let mut frames: Vec<String> = Vec::new();
        let mut frame_attributes: Vec<String> = Vec::new();
        for name in &pending.pre.watch {
            let value = user_ns.get_item(name)?;
            if let Some(value) = &value
                && state.frame_types.is_frame(value)
            {
                frames.push(name.clone());
                frame_attributes.extend(state.frame_types.attributes(value));
            }
            bindings.push((name.clone(), value.map(|v| v.as_ptr() as u64)));
        }
        if pending.pre.scan_namespace {
            for (key, value) in user_ns.iter() {
                let Ok(name) = key.extract::<String>() else {
                    continue;
                };
                if name.starts_with('_')
                    || matches!(
                        name.as_str(),
                        "In" | "Out" | "get_ipython" | "exit" | "quit"
                    )
                    || pending.pre.watch.contains(&name)
                {
                    continue;
                }
                bindings.push((name, Some(value.as_ptr() as u64)));
            }
        }
        let element_identities: Vec<nbsight_lineage::ElementIdentity> = pending
            .pre
            .elements
            .iter()
            .zip(&pending.elements_before)
            .map(|(e, before)| nbsight_lineage::ElementIdentity {
                path: e.path.clone(),
                before: *before,
                after: elements::identity(user_ns, e),
            })
            .collect();
        let counter = state.clock;
        // What the history needs to replay provenance as the lineage does.
        let extra = RunProvenance {
            events: provenance
                .as_ref()
                .and_then(|p| p.as_ref().ok())
                .map(|e| RecordedEvents::encode(e)),
            unbound: bindings
                .iter()
                .filter(|(_, id)| id.is_none())
                .map(|(name, _)| name.clone())
                .collect(),
        };
        // The events move to the lineage (encoded for the history above).
        let (events, not_recorded) = match provenance {
            Some(Ok(events)) => (Some(events), None),
            Some(Err(why)) => (None, Some(why.reason())),
            None => (None, None),
        };
        state.lineage.after_run(RunFacts {
            cell_id: pending.cell_id,
            source: pending.source,
            counter,
            execution_count: pending.execution_count,
            lines,
            calls,
            function_lines,
            site_lines,
            raised,
            failed: error.is_some(),
            error_line,
            bindings,
            elements: element_identities,
            frames,
            frame_attributes,
            keys,
            provenance: events,
            not_recorded,
        });
        // The run goes to the history; a failure to write it is one line
        // for the caller to print, and the history is off.
        let State {
            lineage, history, ..
        } = &mut *state;
        Ok(history.ran(lineage, extra))
    }

    /// Stops tracing without recording the run (nbsight's own failure).
    fn abort_run(&self, py: Python<'_>) -> PyResult<()> {
        let mut state = self.state()?;
        self.stop_tracer(py, &mut state)?;
        state.pending = None;
        native::set_recording(false);
        if let Ok(mut trace) = self.shared.trace.lock() {
            trace.finish();
            trace.recorder.finish();
            trace.probes.finish();
            trace.release();
        }
        Ok(())
    }

    /// The front end's view of the notebook: `(cell_id, source)` pairs in
    /// notebook order. Returns the line to print when the history could not
    /// be written (it is then off).
    fn sync_notebook(&self, cells: Vec<(String, String)>) -> PyResult<Option<String>> {
        let mut state = self.state()?;
        let after = state.lineage.executions().len() as u32;
        let failed = state.history.synced(after, &cells);
        state.lineage.sync_notebook(cells);
        Ok(failed)
    }

    /// Writes the history to the SQLite file at `path` from now on (its
    /// folder and the file made when missing; see docs/history.md), as a
    /// new session of the notebook at `notebook` when known, with the runs
    /// recorded before. Returns the path; raises `RuntimeError` with the
    /// one line to print when it cannot be written (the history is then
    /// off).
    #[pyo3(signature = (path, notebook = None))]
    fn open_history(
        &self,
        py: Python<'_>,
        path: std::path::PathBuf,
        notebook: Option<&str>,
    ) -> PyResult<String> {
        let python: String = py
            .import("platform")?
            .call_method0("python_version")?
            .extract()?;
        let mut state = self.state()?;
        let State {
            lineage, history, ..
        } = &mut *state;
        let kernel = Kernel {
            notebook,
            python: &python,
            nbsight: env!("CARGO_PKG_VERSION"),
        };
        history
            .open(&path, &kernel, clock::now(), lineage)
            .map(|p| p.display().to_string())
            .map_err(PyRuntimeError::new_err)
    }

    /// Stops writing the history (the file stays).
    fn close_history(&self) -> PyResult<()> {
        self.state()?.history.close();
        Ok(())
    }

    /// The history file written to (`None`: off).
    fn history_path(&self) -> PyResult<Option<String>> {
        Ok(self
            .state()?
            .history
            .path()
            .map(|p| p.display().to_string()))
    }

    /// The notebook the session runs, learned after the history opened;
    /// the line to print when it could not be written.
    fn set_history_notebook(&self, notebook: &str) -> PyResult<Option<String>> {
        Ok(self.state()?.history.set_notebook(notebook))
    }

    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let status = self.state()?.lineage.status();
        convert::status(py, &status)
    }

    fn status_text(&self) -> PyResult<String> {
        Ok(report::status(&self.state()?.lineage.status()))
    }

    fn last_warning(&self, cell_id: &str) -> PyResult<Vec<String>> {
        Ok(self.state()?.lineage.last_warning(cell_id))
    }

    /// `None` for a cell nbsight does not know.
    fn why<'py>(&self, py: Python<'py>, cell_id: &str) -> PyResult<Option<Bound<'py, PyDict>>> {
        let reads = self.state()?.lineage.why(cell_id);
        reads.map(|r| convert::why(py, cell_id, &r)).transpose()
    }

    fn why_text(&self, cell_id: &str) -> PyResult<Option<String>> {
        let mut state = self.state()?;
        let reads = state.lineage.why(cell_id);
        let name = state.lineage.cell_name(cell_id);
        Ok(reads.map(|r| report::why(&name, &state.lineage.named(&r))))
    }

    /// `None` for a symbol nbsight does not know.
    fn deps<'py>(&self, py: Python<'py>, symbol: &str) -> PyResult<Option<Bound<'py, PyDict>>> {
        let deps = self.state()?.lineage.deps(symbol);
        deps.map(|d| convert::deps(py, &d)).transpose()
    }

    fn deps_text(&self, symbol: &str) -> PyResult<Option<String>> {
        Ok(self.state()?.lineage.deps(symbol).map(|d| report::deps(&d)))
    }

    /// The cell dependency graph of the session (`nbsight-graph`'s view,
    /// JSON), titled `title`: what the JupyterLab panel draws.
    fn graph_json(&self, title: &str) -> PyResult<String> {
        Ok(nbsight_graph::kernel_view(title, &mut self.state()?.lineage).to_json())
    }

    /// The cells in the backward slice of `cell_id`'s latest execution, in
    /// notebook order (`None`: the cell never ran).
    fn backward_slice(&self, cell_id: &str) -> PyResult<Option<Vec<String>>> {
        Ok(self.state()?.lineage.backward_slice(cell_id))
    }

    /// The cells whose latest executions depend on `cell_id`'s latest one.
    fn forward_slice(&self, cell_id: &str) -> PyResult<Option<Vec<String>>> {
        Ok(self.state()?.lineage.forward_slice(cell_id))
    }

    /// The program reproducing `cell_id`'s latest result on a fresh kernel,
    /// as a script or (`notebook`) an `.ipynb` (`None`: the cell never ran).
    #[pyo3(signature = (cell_id, notebook = false))]
    fn gather(&self, cell_id: &str, notebook: bool) -> PyResult<Option<String>> {
        let state = self.state()?;
        let lineage = &state.lineage;
        let Some(slice) = lineage.backward_executions(cell_id) else {
            return Ok(None);
        };
        let history: Vec<HistoryCell> = slice
            .iter()
            .map(|&e| {
                let e = &lineage.executions()[e as usize];
                HistoryCell {
                    cell_id: e.cell_id.clone(),
                    execution_count: e.execution_count,
                    source: e.source.clone(),
                }
            })
            .collect();
        let format = if notebook {
            GatherFormat::Ipynb
        } else {
            GatherFormat::Py
        };
        gather_history(&history, lineage.effects(), format).map_err(runtime)
    }

    /// How many runs the session recorded (the index the next one gets).
    fn runs(&self) -> PyResult<u32> {
        Ok(self.state()?.lineage.executions().len() as u32)
    }

    /// The next cell to re-run reactively after the user's run `since` (a
    /// run index) and the re-runs after it: `(cell_id, source)` or `None`.
    fn reactive_next(&self, since: u32) -> PyResult<Option<(String, String)>> {
        Ok(self.state()?.lineage.reactive_next(since))
    }

    /// The provenance of the value at `symbol`: `where`, `why` (lists of
    /// `{"cell", "symbol"}`), `files`, `recorded`; `None` when not bound.
    fn provenance<'py>(
        &self,
        py: Python<'py>,
        symbol: &str,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let report = self.state()?.lineage.provenance(symbol);
        report.map(|r| convert::provenance(py, &r)).transpose()
    }

    /// Why the replay of the latest recorded run gave up, if it did.
    fn provenance_error(&self) -> PyResult<Option<String>> {
        Ok(self.state()?.lineage.provenance_error().map(str::to_string))
    }

    /// Forgets every symbol (`%reset`).
    fn reset(&self) -> PyResult<()> {
        self.state()?.lineage.reset();
        if let Ok(mut trace) = self.shared.trace.lock() {
            trace.forget_functions();
        }
        Ok(())
    }

    /// Detaches the tracer (`%unload_ext nbsight`).
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        let mut state = self.state()?;
        self.stop_tracer(py, &mut state)?;
        if let Some(Tracer::Monitoring { tool, .. }) = state.tracer.take() {
            let m = py.import("sys")?.getattr("monitoring")?;
            m.call_method1("set_events", (tool, 0))?;
            for event in ["LINE", "CALL", "PY_START", "RAISE", "BRANCH", "PY_RETURN"] {
                let e = m.getattr("events")?.getattr(event)?;
                m.call_method1("register_callback", (tool, e, py.None()))?;
            }
            m.call_method1("free_tool_id", (tool,))?;
        }
        Ok(())
    }

    /// For tests: what the tracer gave the last recorded run: `lines` (the
    /// cell's lines, `None` when not traced), `calls` (`(line, callee,
    /// caller)` qualified names, caller `None` for the cell's code) and
    /// `function_lines` (`{qualname: lines}`); `None` before any run.
    fn _last_run_facts_for_tests<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let trace = self
            .shared
            .trace
            .lock()
            .map_err(|_| runtime("tracer state poisoned"))?;
        let Some((lines, calls, function_lines)) = &trace.last else {
            return Ok(None);
        };
        let out = PyDict::new(py);
        out.set_item("lines", lines.clone())?;
        let calls: Vec<(u32, &str, Option<&str>)> = calls
            .iter()
            .map(|c| {
                (
                    c.line,
                    c.function.qualname.as_str(),
                    c.caller.as_ref().map(|f| f.qualname.as_str()),
                )
            })
            .collect();
        out.set_item("calls", calls)?;
        let functions = PyDict::new(py);
        for (function, lines) in function_lines {
            functions.set_item(&function.qualname, lines.clone())?;
        }
        out.set_item("function_lines", functions)?;
        Ok(Some(out))
    }

    /// Symbols the lineage knows (for tests and front ends).
    fn symbols<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let state = self.state()?;
        let graph = state.lineage.graph();
        let mut names: Vec<String> = graph
            .ids()
            .map(|s| graph.node(s))
            .filter(|n| n.exists)
            .map(|n| n.path.to_string())
            .collect();
        names.sort_unstable();
        PyList::new(py, names)
    }
}

impl Session {
    /// Starts tracing a run (after `Trace::start`): on 3.12+ switches the
    /// `DISABLE`d events of the user code in `rearm` on again; on 3.10 and
    /// 3.11 installs the native trace function unless a trace function is
    /// there already (the user's, a debugger's, coverage.py's: it is left
    /// alone and the run is not traced). `false`: the run is not traced.
    fn start_tracer(
        &self,
        py: Python<'_>,
        state: &mut State,
        rearm: Vec<(Py<PyAny>, bool)>,
    ) -> PyResult<bool> {
        match &mut state.tracer {
            Some(Tracer::Monitoring {
                tool,
                events,
                branch,
            }) => {
                if !rearm.is_empty() {
                    // Switching a code object's events off and on again
                    // re-arms the locations that returned DISABLE, without
                    // `restart_events` (which would re-arm other tools').
                    let monitoring = py.import("sys")?.getattr("monitoring")?;
                    for (code, tabled) in rearm {
                        let events = if tabled { *events | *branch } else { *events };
                        monitoring.call_method1("set_local_events", (*tool, &code, 0))?;
                        monitoring.call_method1("set_local_events", (*tool, &code, events))?;
                    }
                }
                Ok(true)
            }
            Some(Tracer::Native { armed, installed }) => {
                // Installed by `watch`, for each top-level statement.
                *armed = gettrace_is_none(py);
                *installed = false;
                Ok(*armed)
            }
            None => Ok(false),
        }
    }

    /// Before a top-level statement of a traced run (3.10, 3.11): installs
    /// the native trace function, or installs it again after it suspended
    /// itself. `false` when the run's lines are no longer known: a user's
    /// trace function replaced or removed ours during the run, or is there
    /// now (it is left alone; nbsight stops for the rest of the cell).
    fn install_native(&self, py: Python<'_>, state: &mut State) -> PyResult<bool> {
        let Some(Tracer::Native { armed, installed }) = &mut state.tracer else {
            return Ok(true);
        };
        if !*armed {
            return Ok(true);
        }
        let suspended = self.shared.trace.lock().is_ok_and(|t| t.suspended);
        if *installed && !suspended {
            if gettrace_is_none(py) && native::saw_calling_frame(py) {
                return Ok(true);
            }
        } else if gettrace_is_none(py) {
            if let Ok(mut trace) = self.shared.trace.lock() {
                trace.suspended = false;
            }
            *installed = native::install(py, &self.shared);
            return Ok(*installed);
        }
        *armed = false;
        native::remove(py, false);
        Ok(false)
    }

    /// Stops tracing the run. The native trace function is removed only
    /// when it is still installed; `true` when it was not (a user's
    /// `sys.settrace` replaced or removed it during the run: its lines are
    /// unknown, and the user's function stays). Runs no Python function
    /// (a user's profiler would see it).
    fn stop_tracer(&self, py: Python<'_>, state: &mut State) -> PyResult<bool> {
        let Some(Tracer::Native { armed, installed }) = &mut state.tracer else {
            return Ok(false);
        };
        if !std::mem::take(armed) || !std::mem::take(installed) {
            return Ok(false);
        }
        if self.shared.trace.lock().is_ok_and(|t| t.suspended) {
            // It removed itself.
            native::remove(py, false);
            return Ok(false);
        }
        // `sys.gettrace()` is None with ours and with none at all: the
        // frame that called nbsight tells them apart (ours switched its
        // line events off when it was entered). When in doubt the trace
        // function is left in place: it does nothing once `remove` forgot
        // the session.
        let ours = gettrace_is_none(py) && native::saw_calling_frame(py);
        native::remove(py, ours);
        Ok(!ours)
    }
}

/// `sys.gettrace()` is None (an error counts as a trace function there).
fn gettrace_is_none(py: Python<'_>) -> bool {
    py.import("sys")
        .and_then(|sys| sys.call_method0("gettrace"))
        .is_ok_and(|t| t.is_none())
}

/// The history a kernel writes by default (`nbsight_history`'s rule, the
/// one the command line reads with): `.nbsight/<stem>.sqlite` beside the
/// notebook, else `.nbsight/history.sqlite` in the working directory.
#[pyfunction]
#[pyo3(signature = (notebook = None))]
pub fn history_location(notebook: Option<std::path::PathBuf>) -> PyResult<String> {
    let path = match notebook {
        Some(notebook) => nbsight_history::beside_notebook(&notebook),
        None => nbsight_history::under_dir(&std::env::current_dir().map_err(runtime)?),
    };
    Ok(path.to_string_lossy().into_owned())
}
