//! The run-time subscript probes of a run (`nbsight_lineage::Probe`): at a
//! line event of the running cell's module code on a probed line, the
//! index names' values are read from the namespace the cell runs in and
//! kept as subscript keys (for `lst.remove(v)`, the index of `v` in `lst`).
//! A read is a dict lookup by `str` and a type check (and, for a removal,
//! comparisons of built-in values): no user code runs. A probe stops at a value that is not an exact
//! `int` or `str`, or after `MAX_EVENTS` line events or `MAX_KEYS` keys (a
//! long loop costs a bounded number of events; its subscript then counts
//! as reading the whole container).

use nbsight_lineage::{Probe, ProbeKeys, int_key, str_key};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use rustc_hash::FxHashMap;

/// Line events a probe reads at most in one run.
const MAX_EVENTS: u32 = 1024;
/// Distinct keys a probe keeps at most.
const MAX_KEYS: usize = 64;

struct ProbeState {
    probe: Probe,
    name: Py<PyString>,
    /// The list the value is searched in (`lst.remove(v)`).
    search: Option<Py<PyString>>,
    keys: Vec<String>,
    /// Not every key is known.
    lost: bool,
    events: u32,
}

impl ProbeState {
    /// Reads the name's value; `true` when it is a new key.
    fn read(&mut self, py: Python<'_>, namespace: &Bound<'_, PyDict>) -> bool {
        if self.lost {
            return false;
        }
        self.events += 1;
        if self.events > MAX_EVENTS {
            self.lost = true;
            return false;
        }
        // An integer constant searched for (`lst.remove(3)`), else the
        // name's value.
        let value = match self.probe.name.parse::<i64>() {
            Ok(constant) if self.search.is_some() => {
                Some(constant.into_pyobject(py).map(|v| v.into_any()).ok())
            }
            _ => namespace.get_item(self.name.bind(py)).ok(),
        };
        let key = match value.flatten() {
            Some(value) => match &self.search {
                None => key_of(&value),
                Some(list) => match namespace.get_item(list.bind(py)) {
                    Ok(Some(list)) => index_in(&list, &value),
                    _ => None,
                },
            },
            None => None,
        };
        match key {
            Some(key) if self.keys.contains(&key) => false,
            Some(key) if self.keys.len() < MAX_KEYS => {
                self.keys.push(key);
                true
            }
            _ => {
                self.lost = true;
                false
            }
        }
    }

    fn done(&self) -> bool {
        self.lost
    }
}

/// The index of the first element of `list` (an exact `list`) equal to
/// `value`, as a key: compared only when both are of a built-in type whose
/// equality runs no user code (`int`, `float`, `str`, `bool`, `None`); an
/// element of another type before the match leaves it unknown.
fn index_in(list: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> Option<String> {
    let plain = |v: &Bound<'_, PyAny>| {
        v.is_exact_instance_of::<PyInt>()
            || v.is_exact_instance_of::<PyFloat>()
            || v.is_exact_instance_of::<PyString>()
            || v.is_exact_instance_of::<PyBool>()
            || v.is_none()
    };
    if !list.is_exact_instance_of::<PyList>() || !plain(value) {
        return None;
    }
    let list = list.cast::<PyList>().ok()?;
    for (i, element) in list.iter().enumerate() {
        if !plain(&element) {
            return None;
        }
        if element.eq(value).ok()? {
            return Some(int_key(i as i64));
        }
    }
    None
}

/// The key an index value spells (`3`, `'k'`): exact `int` and `str` only
/// (a subclass's `__index__` or `__hash__` may say otherwise); `True` and
/// `False` index as 1 and 0.
fn key_of(value: &Bound<'_, PyAny>) -> Option<String> {
    if value.is_exact_instance_of::<PyBool>() {
        value.extract::<bool>().ok().map(|b| int_key(i64::from(b)))
    } else if value.is_exact_instance_of::<PyInt>() {
        value.extract::<i64>().ok().map(int_key)
    } else if value.is_exact_instance_of::<PyString>() {
        value.cast::<PyString>().ok()?.to_str().ok().map(str_key)
    } else {
        None
    }
}

/// The probes of the running cell and the namespace they read.
#[derive(Default)]
pub(crate) struct Probes {
    namespace: Option<Py<PyDict>>,
    by_line: FxHashMap<u32, Vec<ProbeState>>,
}

impl Probes {
    /// The probes of the run about to start, reading `namespace`.
    pub fn set(&mut self, py: Python<'_>, namespace: Option<&Bound<'_, PyDict>>, probes: &[Probe]) {
        self.by_line.clear();
        self.namespace = None;
        let Some(namespace) = namespace else {
            return;
        };
        if probes.is_empty() {
            return;
        }
        self.namespace = Some(namespace.clone().unbind());
        for probe in probes {
            self.by_line
                .entry(probe.line)
                .or_default()
                .push(ProbeState {
                    probe: probe.clone(),
                    name: PyString::new(py, &probe.name).unbind(),
                    search: probe
                        .search
                        .as_deref()
                        .map(|l| PyString::new(py, l).unbind()),
                    keys: Vec::new(),
                    lost: false,
                    events: 0,
                });
        }
    }

    /// A line event of the cell's module code on `line`: `None` when the
    /// line has no probe; else whether a new key was seen and whether every
    /// probe of the line is done (its event can be switched off).
    pub fn line(&mut self, py: Python<'_>, line: u32) -> Option<(bool, bool)> {
        let states = self.by_line.get_mut(&line)?;
        let namespace = self.namespace.as_ref()?.bind(py);
        let mut new = false;
        for state in states.iter_mut() {
            new |= state.read(py, namespace);
        }
        Some((new, states.iter().all(ProbeState::done)))
    }

    /// The probes of the lines `on` holds miss events from now on (the
    /// tracer stopped in the code of those lines).
    pub fn lose(&mut self, on: impl Fn(u32) -> bool) {
        for (line, states) in &mut self.by_line {
            if on(*line) {
                states.iter_mut().for_each(|s| s.lost = true);
            }
        }
    }

    /// Ends the run: what each probe saw.
    pub fn finish(&mut self) -> Vec<ProbeKeys> {
        self.namespace = None;
        let mut out: Vec<ProbeKeys> = self
            .by_line
            .drain()
            .flat_map(|(_, states)| states)
            .map(|s| ProbeKeys {
                probe: s.probe,
                keys: (!s.lost).then_some(s.keys),
            })
            .collect();
        out.sort_unstable_by(|a, b| a.probe.cmp(&b.probe));
        out
    }
}
