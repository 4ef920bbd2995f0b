//! What the tracer records while a cell runs, and the code objects it knows:
//! the module-level code of the running cell and the code of every user
//! function a traced cell defined (to name the function a call reached,
//! and to record the lines of it that ran).
//!
//! Trace-once: an event at a code location is taken once per run (the
//! monitoring callbacks return `DISABLE`; the native 3.10/3.11 tracer
//! switches line events off for a frame once they tell nothing new), so
//! the cost follows the code's text, not its run time.

use nbsight_lineage::{CallFact, FunctionRef};

use super::objects::{Types, address};
use super::probes::Probes;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rustc_hash::{FxHashMap, FxHashSet};

/// The lines of one code object a run saw, against the lines its line
/// events can report.
pub(crate) struct Lines {
    /// The line of bit 0 of `expected` and `seen`.
    base: u32,
    expected: Vec<u64>,
    expected_count: u32,
    /// The lines seen in run `run` (older: stale, cleared at first use).
    seen: Vec<u64>,
    seen_expected: u32,
    run: u32,
}

impl Lines {
    /// The lines of `co_lines()` (line 0, 3.11's module `RESUME`, left
    /// out), without `definition` (a function's own line: only `RESUME`
    /// is there) unless it is the only one (a one-line function).
    fn new(code: &Bound<'_, PyAny>, definition: Option<u32>) -> PyResult<Lines> {
        let mut lines: Vec<u32> = Vec::new();
        for entry in code.call_method0("co_lines")?.try_iter()? {
            if let Ok((_, _, Some(line))) = entry?.extract::<(u32, u32, Option<u32>)>()
                && line != 0
            {
                lines.push(line);
            }
        }
        lines.sort_unstable();
        lines.dedup();
        let mut expected: Vec<u32> = lines
            .iter()
            .copied()
            .filter(|&l| Some(l) != definition)
            .collect();
        if expected.is_empty() {
            expected.extend(definition);
        }
        let base = lines
            .first()
            .copied()
            .into_iter()
            .chain(definition)
            .min()
            .unwrap_or(0);
        let mut bits = Vec::new();
        for &line in &expected {
            set_bit(&mut bits, line - base);
        }
        Ok(Lines {
            base,
            expected: bits,
            expected_count: expected.len() as u32,
            seen: Vec::new(),
            seen_expected: 0,
            run: 0,
        })
    }

    /// Clears what an earlier run saw; `true` when it did.
    fn start(&mut self, run: u32) -> bool {
        if self.run == run {
            return false;
        }
        self.run = run;
        self.seen.clear();
        self.seen_expected = 0;
        true
    }

    /// Records `line` as seen in run `run`; `true` when it is new.
    fn see(&mut self, run: u32, line: u32) -> bool {
        self.start(run);
        let Some(bit) = line.checked_sub(self.base) else {
            return false;
        };
        let new = set_bit(&mut self.seen, bit);
        if new && has_bit(&self.expected, bit) {
            self.seen_expected += 1;
        }
        new
    }

    /// A line event can report `line`.
    pub fn expects(&self, line: u32) -> bool {
        line.checked_sub(self.base)
            .is_some_and(|bit| has_bit(&self.expected, bit))
    }

    /// Every line a line event can report was seen in run `run`.
    pub fn complete(&self, run: u32) -> bool {
        self.run == run && self.seen_expected >= self.expected_count
    }

    /// The lines seen in run `run`, sorted.
    fn lines(&self, run: u32) -> Vec<u32> {
        if self.run != run {
            return Vec::new();
        }
        let mut lines = Vec::new();
        for (word, bits) in self.seen.iter().enumerate() {
            let mut bits = *bits;
            while bits != 0 {
                let bit = bits.trailing_zeros();
                bits &= bits - 1;
                lines.push(self.base + word as u32 * 64 + bit);
            }
        }
        lines
    }
}

/// A user function's code object (or a comprehension's, a class body's:
/// any code a traced cell's code holds) and the lines of it a run saw.
pub(crate) struct UserCode {
    /// Kept alive so that its address stays its own.
    pub code: Py<PyAny>,
    pub function: FunctionRef,
    lines: Lines,
}

/// A module-level code object of the running cell (one per top-level
/// statement group) and the lines of it the run saw.
pub(crate) struct ModuleCode {
    /// Kept alive so that its address stays its own.
    _code: Py<PyAny>,
    lines: Lines,
}

/// Sets bit `bit`; `true` when it was not set.
fn set_bit(bits: &mut Vec<u64>, bit: u32) -> bool {
    let word = (bit / 64) as usize;
    if word >= bits.len() {
        bits.resize(word + 1, 0);
    }
    let mask = 1u64 << (bit % 64);
    let new = bits[word] & mask == 0;
    bits[word] |= mask;
    new
}

fn has_bit(bits: &[u64], bit: u32) -> bool {
    bits.get((bit / 64) as usize)
        .is_some_and(|w| w & (1u64 << (bit % 64)) != 0)
}

/// The state of the tracer.
#[derive(Default)]
pub(crate) struct Trace {
    /// A traced run is under way.
    pub active: bool,
    /// The run's clock (what functions it defines are named by).
    pub counter: u32,
    /// The run's serial number (what a user code's `seen` belongs to).
    run: u32,
    /// The module-level code objects of the running cell, by address.
    pub modules: FxHashMap<usize, ModuleCode>,
    /// The one watched last (the top-level statement running).
    current: usize,
    /// The line of the cell's module code seen last (0: none yet).
    last_line: u32,
    /// The line of the cell's module code of the latest line event (every
    /// event: 3.10/3.11, where they are not switched off).
    current_line: u32,
    /// Function lines are told apart by the cell's line that called
    /// (`sites`): by `current_line` (the 3.10/3.11 tracer sees every line
    /// event of the cell's code), or by the call that armed the function's
    /// events (`armed`, 3.12+).
    pub native_sites: bool,
    /// The cell's line whose call (re)armed each user function's events in
    /// this run (3.12+).
    armed: FxHashMap<usize, u32>,
    /// `(code, cell line, function line)`: a line of a user function that
    /// ran while the cell's line called it.
    sites: FxHashSet<(usize, u32, u32)>,
    /// The tracer stopped before the run ended: `sites` may miss lines.
    sites_lost: bool,
    /// Calls that reached user functions, from the cell's code or from
    /// user functions.
    pub calls: Vec<CallFact>,
    /// `(caller code, line, callee code)` of the calls recorded.
    call_keys: FxHashSet<(usize, u32, usize)>,
    /// The line tracing stopped early (3.10/3.11: the tracer suspended
    /// itself in a top-level statement with lines not seen yet): the lines
    /// that ran are not all known.
    pub incomplete: bool,
    /// The native tracer removed itself for the rest of the running
    /// top-level statement (nothing new for a while).
    pub suspended: bool,
    /// Code objects of user functions defined by traced cells, by address.
    pub functions: FxHashMap<usize, UserCode>,
    /// Addresses of the user code objects that had an event in this run.
    touched: Vec<usize>,
    /// User code objects that had a monitoring event since the last run
    /// started (their `DISABLE`d events are switched on again before the
    /// next run).
    pub rearm: FxHashSet<usize>,
    /// What the last recorded run gave the lineage (for tests).
    pub last: Option<Finished>,
    /// `co_lines()` of code objects, for the line of a call offset.
    line_tables: FxHashMap<usize, Vec<(u32, u32, u32)>>,
    /// The run's subscript probes (set by `Session::pre_run`).
    pub probes: Probes,
    /// The lines of the cell's module code an exception was raised on or
    /// passed through in this run.
    raised: Vec<u32>,
    /// The provenance recorder.
    pub recorder: super::recorder::Recorder,
}

/// Where a call came from: the cell's code (`None`) or a user function.
pub(crate) enum Caller {
    Module,
    Function(usize),
}

/// What a run recorded: the module lines (`None`: not all known), the
/// calls and the lines of each user function that ran.
pub(crate) type Finished = (
    Option<Vec<u32>>,
    Vec<CallFact>,
    Vec<(FunctionRef, Vec<u32>)>,
);

impl Trace {
    /// An exception was raised on, or passed through, `line` of the running
    /// cell's module code `code` (nothing when `code` is not the cell's).
    pub fn raised_at(&mut self, code: usize, line: impl FnOnce() -> Option<u32>) {
        if !self.is_module_address(code) {
            return;
        }
        if let Some(line) = line()
            && !self.raised.contains(&line)
        {
            self.raised.push(line);
        }
    }

    /// The lines of the cell's module code an exception was raised on or
    /// passed through in the run, sorted.
    pub fn raised_lines(&self) -> Vec<u32> {
        let mut lines = self.raised.clone();
        lines.sort_unstable();
        lines
    }
}

impl Trace {
    /// Starts a traced run at clock `counter`.
    pub fn start(&mut self, counter: u32) {
        self.active = true;
        self.counter = counter;
        self.run = self.run.wrapping_add(1);
        self.modules.clear();
        self.current = 0;
        self.last_line = 0;
        self.current_line = 0;
        self.armed.clear();
        self.sites.clear();
        self.sites_lost = false;
        self.suspended = false;
        self.calls.clear();
        self.call_keys.clear();
        self.touched.clear();
        self.incomplete = false;
        self.line_tables.clear();
        self.raised.clear();
    }

    /// Ends the run: its lines (sorted, once each; `None` when not all are
    /// known), calls and function lines.
    pub fn finish(&mut self) -> Finished {
        self.active = false;
        let mut lines: Vec<u32> = self
            .modules
            .values()
            .flat_map(|m| m.lines.lines(self.run))
            .collect();
        lines.sort_unstable();
        lines.dedup();
        let lines = (!self.incomplete).then_some(lines);
        let touched = std::mem::take(&mut self.touched);
        let function_lines = touched
            .iter()
            .filter_map(|a| self.functions.get(a))
            .map(|u| (u.function.clone(), u.lines.lines(self.run)))
            .filter(|(_, lines)| !lines.is_empty())
            .collect();
        self.call_keys.clear();
        (lines, std::mem::take(&mut self.calls), function_lines)
    }

    /// Forgets the run's code objects (after the exception line was read).
    pub fn release(&mut self) {
        self.modules.clear();
        self.line_tables.clear();
    }

    /// A module-level code object of the running cell: traced, and the
    /// functions it defines (at any depth) remembered. Returns the code
    /// objects of the functions it defines.
    pub fn watch_module<'py>(
        &mut self,
        types: &Types,
        code: &Bound<'py, PyAny>,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let lines = Lines::new(code, None)?;
        self.current = address(code);
        self.modules.insert(
            self.current,
            ModuleCode {
                _code: code.clone().unbind(),
                lines,
            },
        );
        let mut found = Vec::new();
        let mut stack = vec![code.clone()];
        while let Some(code) = stack.pop() {
            let consts = code.getattr("co_consts")?;
            let consts = consts.cast::<PyTuple>()?;
            for c in consts.iter() {
                if c.get_type().is(&types.code) {
                    let qualname = c
                        .getattr("co_qualname")
                        .or_else(|_| c.getattr("co_name"))?
                        .extract::<String>()?;
                    let first_line = c.getattr("co_firstlineno")?.extract::<u32>()?;
                    let function = FunctionRef {
                        defined_in: self.counter,
                        qualname,
                        first_line,
                    };
                    let lines = Lines::new(&c, Some(first_line))?;
                    self.functions.insert(
                        address(&c),
                        UserCode {
                            code: c.clone().unbind(),
                            function,
                            lines,
                        },
                    );
                    found.push(c.clone());
                    stack.push(c);
                }
            }
        }
        Ok(found)
    }

    /// The module-level code object of the running top-level statement.
    pub fn current_module(&self) -> usize {
        self.current
    }

    /// Every line of the running top-level statement was seen in this run
    /// (suspending now keeps the run's lines known).
    pub fn current_complete(&self) -> bool {
        self.modules
            .get(&self.current)
            .is_some_and(|m| m.lines.complete(self.run))
    }

    pub fn is_module_address(&self, code: usize) -> bool {
        self.active && self.modules.contains_key(&code)
    }

    /// The code at `code` is the running cell's or a user function's.
    pub fn caller(&self, code: usize) -> Option<Caller> {
        if !self.active {
            None
        } else if self.modules.contains_key(&code) {
            Some(Caller::Module)
        } else if self.functions.contains_key(&code) {
            Some(Caller::Function(code))
        } else {
            None
        }
    }

    /// A line of the running cell's module code `code` ran; `false` when
    /// it ran before in this run (or `code` is not the cell's).
    pub fn module_line(&mut self, code: usize, line: u32) -> bool {
        let run = self.run;
        let new = self
            .modules
            .get_mut(&code)
            .is_some_and(|m| m.lines.see(run, line));
        if new {
            self.last_line = line;
        }
        self.current_line = line;
        new
    }

    /// The code object of user code `code`.
    pub fn code_of(&self, code: usize) -> Option<&Py<PyAny>> {
        self.functions.get(&code).map(|u| &u.code)
    }

    /// The lines of user functions by calling line are not all known.
    pub fn lose_sites(&mut self) {
        self.sites_lost = true;
    }

    /// A call from the cell's `line` reached user code `callee` (3.12+):
    /// `true` when its events must be switched on again so that the lines
    /// it runs from this line are all seen (it ran earlier in this run, from
    /// another line or another caller).
    pub fn arm(&mut self, callee: usize, line: u32) -> bool {
        let ran = self.touched.contains(&callee);
        match self.armed.insert(callee, line) {
            Some(site) => site != line,
            None => ran,
        }
    }

    /// The lines of each user function that ran while a line of the cell
    /// called it, where all were seen: `(cell line, function, lines)`.
    pub fn site_lines(&self) -> Vec<(u32, FunctionRef, Vec<u32>)> {
        if self.sites_lost {
            return Vec::new();
        }
        let mut grouped: FxHashMap<(usize, u32), Vec<u32>> = FxHashMap::default();
        for &(code, site, line) in &self.sites {
            grouped.entry((code, site)).or_default().push(line);
        }
        let mut out: Vec<(u32, FunctionRef, Vec<u32>)> = grouped
            .into_iter()
            .filter_map(|((code, site), mut lines)| {
                let function = self.functions.get(&code)?.function.clone();
                lines.sort_unstable();
                Some((site, function, lines))
            })
            .collect();
        out.sort_unstable_by(|a, b| (a.0, &a.1.qualname).cmp(&(b.0, &b.1.qualname)));
        out
    }

    /// User code `callee` started: unless a call event already named it in
    /// this run, a call from the cell's line seen last (a property getter,
    /// `__init__` reached through its class, a function called back by
    /// library code).
    pub fn started(&mut self, callee: usize) {
        let Some(function) = self.functions.get(&callee).map(|u| &u.function) else {
            return;
        };
        if self.last_line == 0 || self.calls.iter().any(|c| c.function == *function) {
            return;
        }
        let function = function.clone();
        self.calls.push(CallFact {
            line: self.last_line,
            function,
            caller: None,
        });
    }

    /// The native tracer suspends itself for the rest of the running
    /// top-level statement: the run's lines are not all known unless every
    /// line of that statement was seen.
    pub fn suspend(&mut self) {
        self.suspended = true;
        self.sites_lost = true;
        let run = self.run;
        if let Some(m) = self.modules.get(&self.current) {
            if !m.lines.complete(run) {
                self.incomplete = true;
            }
            // The statement's probes miss the events to come.
            self.probes.lose(|line| m.lines.expects(line));
        }
    }

    /// A line of user code `code` ran (`line` tells which): recorded once
    /// per run. `None` when `code` is no user code; else `(new, complete)`:
    /// the line is new in this run, every line its line events can report
    /// was seen in this run.
    pub fn function_line(
        &mut self,
        code: usize,
        line: impl FnOnce() -> u32,
    ) -> Option<(bool, bool)> {
        let run = self.run;
        let user = self.functions.get_mut(&code)?;
        if user.lines.start(run) {
            self.touched.push(code);
        }
        let line = line();
        let mut new = user.lines.see(run, line);
        let site = if self.native_sites {
            (self.current_line != 0).then_some(self.current_line)
        } else {
            self.armed.get(&code).copied()
        };
        if let Some(site) = site {
            new |= self.sites.insert((code, site, line));
        }
        Some((new, user.lines.complete(run)))
    }

    /// User code `code` was entered: `None` when it is not user code; else
    /// whether every line of it was seen in this run.
    pub fn function_complete(&self, code: usize) -> Option<bool> {
        self.functions
            .get(&code)
            .map(|u| u.lines.complete(self.run))
    }

    /// A call from `caller` code (at address `from`) at `line` reached
    /// user code `callee`: recorded once per call line and callee from the
    /// cell's code, once per callee from a user function (at the line of
    /// the first call seen). `true` when it was new.
    pub fn call(
        &mut self,
        from: usize,
        caller: &Caller,
        callee: usize,
        line: impl FnOnce() -> u32,
    ) -> bool {
        let line = match caller {
            Caller::Module => {
                let line = line();
                if !self.call_keys.insert((from, line, callee)) {
                    return false;
                }
                line
            }
            Caller::Function(_) => {
                if !self.call_keys.insert((from, 0, callee)) {
                    return false;
                }
                line()
            }
        };
        let Some(function) = self.functions.get(&callee).map(|u| u.function.clone()) else {
            return false;
        };
        let caller = match caller {
            Caller::Module => None,
            Caller::Function(code) => match self.functions.get(code) {
                Some(u) => Some(u.function.clone()),
                None => return false,
            },
        };
        self.calls.push(CallFact {
            line,
            function,
            caller,
        });
        true
    }

    /// A monitoring event of user code `code` (whose `DISABLE`d events are
    /// switched on again before the next run); `true` when it is user
    /// code.
    pub fn touch(&mut self, code: usize) -> bool {
        if !self.functions.contains_key(&code) {
            return false;
        }
        self.rearm.insert(code);
        true
    }

    /// The user function `callable` runs, if it is one a traced cell
    /// defined (a function or a method bound to one): its code's
    /// address. Only the types' own attributes are read: no user
    /// `__getattr__` runs.
    pub fn function_of(&self, types: &Types, callable: &Bound<'_, PyAny>) -> Option<usize> {
        let ty = callable.get_type();
        let function = if ty.is(&types.function) {
            callable.clone()
        } else if ty.is(&types.method) {
            let f = callable.getattr("__func__").ok()?;
            if !f.get_type().is(&types.function) {
                return None;
            }
            f
        } else {
            return None;
        };
        let code = address(&function.getattr("__code__").ok()?);
        self.functions.contains_key(&code).then_some(code)
    }

    /// The line of bytecode `offset` in code `code`.
    pub fn line_of(&mut self, code: &Bound<'_, PyAny>, offset: u32) -> Option<u32> {
        let table = match self.line_tables.entry(address(code)) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let mut table = Vec::new();
                for entry in code.call_method0("co_lines").ok()?.try_iter().ok()? {
                    let Ok((start, end, Some(line))) =
                        entry.ok()?.extract::<(u32, u32, Option<u32>)>()
                    else {
                        continue;
                    };
                    table.push((start, end, line));
                }
                e.insert(table)
            }
        };
        table
            .iter()
            .find(|(start, end, _)| (*start..*end).contains(&offset))
            .map(|(_, _, line)| *line)
    }

    /// The last line of the running cell's module code an exception's
    /// traceback passes through.
    pub fn error_line(&self, exception: &Bound<'_, PyAny>) -> Option<u32> {
        let mut tb = exception.getattr("__traceback__").ok()?;
        let mut line = None;
        while !tb.is_none() {
            let code = tb.getattr("tb_frame").ok()?.getattr("f_code").ok()?;
            if self.modules.contains_key(&address(&code)) {
                line = tb.getattr("tb_lineno").ok()?.extract::<u32>().ok();
            }
            tb = tb.getattr("tb_next").ok()?;
        }
        line
    }

    /// Forgets every function (`%reset`).
    pub fn forget_functions(&mut self) {
        self.functions.clear();
        self.recorder.forget();
        self.touched.clear();
        self.rearm.clear();
    }
}
