//! The provenance recorder (`%nbsight provenance on`): the run-time
//! decisions the replay needs (`nbsight_lineage::provenance`), read from the
//! interpreter, never from changed code. For each code object of a recorded
//! cell (its module code and every function, lambda, comprehension and
//! generator expression in it) a table of its conditional jumps and loop
//! steps is made once, from `dis.get_instructions`, before the code runs;
//! while a recorded cell runs, each such instruction the interpreter
//! executes becomes one event:
//!
//! - CPython 3.12+: `sys.monitoring` BRANCH events, set on those code
//!   objects only (`hooks::BranchHook`); with recording off they return
//!   `DISABLE`, and are switched on again when a recorded run starts;
//! - CPython 3.10/3.11: opcode events of the native trace function, on the
//!   frames of those code objects only (`native.rs`): the instruction after
//!   a jump tells which way it went.
//!
//! An exception raised in (or passing through) such code is logged too
//! (the RAISE callback on 3.12+, the exception event on 3.10/3.11), so the
//! replay knows where a statement stopped.
//!
//! Nothing is added to the user's code, namespace or `builtins`: functions
//! defined while recording pickle, run in other processes and after
//! `%unload_ext nbsight` as without it.

use nbsight_lineage::{ProvenanceEvent as Event, ProvenanceWhat as What, code_key};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rustc_hash::FxHashMap;

use super::builtin_keys::BuiltinKey;
use super::objects::{Types, address};

/// Events one run may log; past it the run is not recorded (its values
/// become inputs of their own), the memory is given back and the events
/// are switched off for the rest of the run: a loop of a million steps
/// costs a quarter of that, then runs at full speed.
pub(crate) const LIMIT: usize = 250_000;

/// Calls of one function one run logs; past them its calls are not logged
/// (`What::Saturated` says so once, and its events stop: the replay takes
/// the calls from there on as opaque), so that a function called a million
/// times, or `fib(25)`, costs a few thousand calls' recording.
pub(crate) const CALLS: u32 = 2_000;

/// The run raised out of the cell's code (`module`) on `line`: unless the
/// log's last event of that code already says so, a `Raised` event there
/// ends it (the tracer may have left the statement that raised).
pub(crate) fn place_raise(events: &mut Vec<Event>, module: u32, line: u32) {
    let last = events.iter().rev().find(|e| e.code == module);
    if !last.is_some_and(|e| e.what == What::Raised && e.at.0 == line) {
        events.push(Event::new(module, (line, 0), What::Raised));
    }
}

/// Why a recorded run's decisions are not all known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotRecorded {
    /// More than [`LIMIT`] events.
    TooMany,
    /// The tracer did not see the whole run (a cell magic ran it, another
    /// trace function was there, or took over).
    Lost,
}

impl NotRecorded {
    pub fn reason(self) -> String {
        match self {
            NotRecorded::TooMany => {
                format!("the run made more than {LIMIT} decisions; it was not recorded")
            }
            NotRecorded::Lost => "the tracer did not see the whole run".to_string(),
        }
    }
}

/// How a logged instruction tells what happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Jumps when the value is true.
    IfTrue,
    /// Jumps when the value is false.
    IfFalse,
    /// Jumps when the value is `None`.
    IfNone,
    /// Jumps when the value is not `None`.
    IfNotNone,
    /// A loop step: goes on to the next instruction, or jumps out.
    ForIter,
}

impl Kind {
    fn of(opname: &str) -> Option<Kind> {
        Some(match opname {
            "POP_JUMP_IF_TRUE"
            | "POP_JUMP_FORWARD_IF_TRUE"
            | "POP_JUMP_BACKWARD_IF_TRUE"
            | "JUMP_IF_TRUE_OR_POP" => Kind::IfTrue,
            "POP_JUMP_IF_FALSE"
            | "POP_JUMP_FORWARD_IF_FALSE"
            | "POP_JUMP_BACKWARD_IF_FALSE"
            | "JUMP_IF_FALSE_OR_POP" => Kind::IfFalse,
            "POP_JUMP_IF_NONE" | "POP_JUMP_FORWARD_IF_NONE" | "POP_JUMP_BACKWARD_IF_NONE" => {
                Kind::IfNone
            }
            "POP_JUMP_IF_NOT_NONE"
            | "POP_JUMP_FORWARD_IF_NOT_NONE"
            | "POP_JUMP_BACKWARD_IF_NOT_NONE" => Kind::IfNotNone,
            "FOR_ITER" => Kind::ForIter,
            // 3.10's `except E:` test: jumps when the type does not match.
            "JUMP_IF_NOT_EXC_MATCH" => Kind::IfFalse,
            _ => return None,
        })
    }
}

/// One logged instruction.
#[derive(Debug, Clone, Copy)]
struct Jump {
    kind: Kind,
    /// Its offset (an `EXTENDED_ARG` before it maps to it).
    offset: u32,
    /// Where it jumps to.
    target: u32,
    /// The instruction after it.
    next: u32,
    line: u32,
    column: u32,
}

/// The logged instructions of one code object.
struct Table {
    /// Keeps the code alive, so that its address names it.
    code: Py<PyAny>,
    key: u32,
    jumps: FxHashMap<u32, Jump>,
    /// The lines holding a logged instruction (3.10/3.11: a frame on
    /// another line needs no opcode events).
    jump_lines: rustc_hash::FxHashSet<u32>,
    /// Calls with at most one positional argument and no keyword but
    /// `key`, by offset (3.12+: a `max(xs)`, `sorted(xs, key=f)` or
    /// `xs.sort()` among them logs what it chose, `selection.rs`).
    calls_at: FxHashMap<u32, Site>,
    /// A call of it is logged (a function's or a lambda's code; not a
    /// comprehension's or a generator expression's, which are part of the
    /// code around them).
    enters: bool,
    /// The offset of its first instruction that suspends a generator or
    /// coroutine (`YIELD_VALUE`, 3.10's `YIELD_FROM`, `SEND`); `u32::MAX`
    /// in code that has none. (3.10/3.11 give a call event at every resume
    /// of a generator, with the frame's last instruction at or past it: a
    /// resume is not a call.)
    first_yield: u32,
    /// Calls logged in this run.
    calls: u32,
    /// More than [`CALLS`] calls in this run: its events are no longer
    /// logged.
    saturated: bool,
}

/// A call that may be a selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Site {
    /// Its positional arguments (a method's receiver not counted).
    pub argc: u32,
    /// Where the call starts.
    pub at: (u32, u32),
    /// It passes `key=`.
    pub keyed: bool,
    /// Its `key=` is a builtin whose keys the recorder computes (the site
    /// loads `len`, `str.lower`...: `builtin_keys.rs`).
    pub key: Option<BuiltinKey>,
}

/// The recorder's state (in `Trace`, under its lock).
#[derive(Default)]
pub(crate) struct Recorder {
    /// The running cell is recorded.
    pub on: bool,
    events: Vec<Event>,
    overflowed: bool,
    tables: FxHashMap<usize, Table>,
    /// 3.10/3.11: a logged instruction about to run, per frame address.
    pending: Vec<(usize, usize, Jump)>,
    /// 3.10/3.11: the frames running with opcode events on, with their code.
    logging: FxHashMap<usize, usize>,
    /// 3.10/3.11: those of them whose opcode events are off for the line
    /// they are on (no logged instruction there).
    opcodes_off: rustc_hash::FxHashSet<usize>,
    /// A location returned `DISABLE` since the last recorded run (3.12+).
    pub disabled: bool,
    /// `dis.get_instructions`, fetched at first use.
    instructions: Option<Py<PyAny>>,
    /// A selection with a `key=` waiting for its keys (3.12+).
    pub keyed: Option<super::selection::Keyed>,
    /// 3.10/3.11: the keys a `key=` function returned to a selection so
    /// far.
    keys: Option<Keys>,
    /// How many tables have a call with a `key=` (none: a return needs no
    /// look at its caller).
    keyed_tables: usize,
}

/// 3.10/3.11: a selection call with a `key=` running, as seen from the
/// returns of its key function's frames (their caller's frame is at the
/// call).
struct Keys {
    /// The calling frame and its code.
    frame: usize,
    code: usize,
    /// The call's instruction and position.
    offset: u32,
    at: (u32, u32),
    /// The key function's code: every key comes from it.
    key_code: usize,
    keys: Vec<Py<PyAny>>,
    /// A key came from other code: the choice is not logged.
    lost: bool,
}

impl Recorder {
    /// Starts recording a run.
    pub fn start(&mut self) {
        self.on = true;
        self.events.clear();
        self.overflowed = false;
        self.pending.clear();
        self.keyed = None;
        self.keys = None;
        self.logging.clear();
        self.opcodes_off.clear();
        for table in self.tables.values_mut() {
            table.calls = 0;
            table.saturated = false;
        }
    }

    /// Stops recording: the run's events, `None` when there were more than
    /// [`LIMIT`] (or none was recorded).
    pub fn finish(&mut self) -> Option<Vec<Event>> {
        let was_on = std::mem::take(&mut self.on);
        self.pending.clear();
        self.keyed = None;
        self.keys = None;
        let events = std::mem::take(&mut self.events);
        (was_on && !self.overflowed).then_some(events)
    }

    /// The run logged more than [`LIMIT`] events.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Code objects with a table (to switch their branch events on again).
    pub fn codes(&self, py: Python<'_>) -> Vec<Py<PyAny>> {
        self.tables.values().map(|t| t.code.clone_ref(py)).collect()
    }

    /// Makes the tables of `code` (a module-level code object of cell
    /// `cell`) and of every code object in it; returns them all.
    pub fn register<'py>(
        &mut self,
        types: &Types,
        code: &Bound<'py, PyAny>,
        cell: &str,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let py = code.py();
        let instructions = match &self.instructions {
            Some(f) => f.bind(py).clone(),
            None => {
                let f = py.import("dis")?.getattr("get_instructions")?;
                self.instructions = Some(f.clone().unbind());
                f
            }
        };
        let mut all = Vec::new();
        let mut stack = vec![(code.clone(), code_key(cell, 0), false)];
        while let Some((code, key, enters)) = stack.pop() {
            let mut table = table(&instructions, &code, key)?;
            table.enters = enters;
            if table.calls_at.values().any(|s| s.keyed) {
                self.keyed_tables += 1;
            }
            if let Some(old) = self.tables.insert(address(&code), table)
                && old.calls_at.values().any(|s| s.keyed)
            {
                self.keyed_tables -= 1;
            }
            let consts = code.getattr("co_consts")?;
            for c in consts.cast::<PyTuple>()?.iter() {
                if !c.get_type().is(&types.code) {
                    continue;
                }
                let name = c.getattr("co_name")?.extract::<String>()?;
                // Comprehensions and generator expressions are the code
                // around them (3.12 inlines comprehensions).
                let part = matches!(
                    name.as_str(),
                    "<listcomp>" | "<setcomp>" | "<dictcomp>" | "<genexpr>"
                );
                let inner = if part {
                    key
                } else {
                    code_key(cell, c.getattr("co_firstlineno")?.extract::<u32>()?)
                };
                stack.push((c, inner, !part));
            }
            all.push(code);
        }
        Ok(all)
    }

    /// Code at `code` has a table.
    pub fn has_table(&self, code: usize) -> bool {
        self.tables.contains_key(&code)
    }

    /// 3.10/3.11: frames of `code` need opcode events now: it is recorded,
    /// not saturated, and has a jump or loop step to log (code without one,
    /// like most cells' own, keeps the frame as it is without nbsight).
    pub fn needs_opcodes(&self, code: usize) -> bool {
        self.on
            && self
                .tables
                .get(&code)
                .is_some_and(|t| !t.saturated && !t.jumps.is_empty())
    }

    /// Some recorded code makes a call with a `key=`.
    pub fn any_keyed(&self) -> bool {
        self.keyed_tables > 0
    }

    /// 3.10/3.11: where the call at `offset` of `code` starts when it is a
    /// selection candidate with a `key=` in a recorded code.
    pub fn keyed_site(&self, code: usize, offset: u32) -> Option<(u32, u32)> {
        if !self.on {
            return None;
        }
        let t = self.tables.get(&code).filter(|t| !t.saturated)?;
        t.calls_at.get(&offset).filter(|s| s.keyed).map(|s| s.at)
    }

    /// 3.10/3.11: a frame of `key_code` returned `key` to `frame` (running
    /// `code`), which is at the keyed call `offset` (at `at`).
    pub fn key_returned(
        &mut self,
        frame: usize,
        code: usize,
        offset: u32,
        at: (u32, u32),
        key_code: usize,
        key: &Bound<'_, PyAny>,
    ) {
        match &mut self.keys {
            Some(k) if k.frame == frame && k.offset == offset => {
                k.lost |= k.key_code != key_code;
                k.keys.push(key.clone().unbind());
            }
            _ => {
                self.settle(key.py(), None);
                self.keys = Some(Keys {
                    frame,
                    code,
                    offset,
                    at,
                    key_code,
                    keys: vec![key.clone().unbind()],
                    lost: false,
                });
            }
        }
    }

    /// 3.10/3.11: the selection whose keys were being collected is over
    /// (its frame went on: `Some(frame)` only for that frame; `None`: any):
    /// the ranks of its keys are logged, when they are plain.
    pub fn settle(&mut self, py: Python<'_>, frame: Option<usize>) {
        if self
            .keys
            .as_ref()
            .is_none_or(|k| frame.is_some_and(|f| f != k.frame))
        {
            return;
        }
        let Some(k) = self.keys.take() else {
            return;
        };
        if k.lost || !self.on {
            return;
        }
        let keys: Vec<Bound<'_, PyAny>> = k.keys.iter().map(|x| x.bind(py).clone()).collect();
        if let Some(ranks) = super::selection::ranks(&keys)
            && let Some(key) = self.tables.get(&k.code).map(|t| t.key)
        {
            self.push(Event::new(key, k.at, What::Ranks(ranks)));
        }
    }

    /// 3.10/3.11: whether `frame` (running `code`, with opcode events
    /// while it is logged) needs them on `line`: only a line holding a
    /// logged instruction does (every other line is entered with a line
    /// event, which tells where a jump before it went). `Some` when they
    /// are to be switched (and taken as switched); `None`: they stay as
    /// they are, or the frame is not logged.
    pub fn opcodes_on_line(&mut self, frame: usize, code: usize, line: u32) -> Option<bool> {
        if !self.logging.contains_key(&frame) {
            return None;
        }
        let on = self.needs_opcodes(code)
            && self
                .tables
                .get(&code)
                .is_some_and(|t| t.jump_lines.contains(&line));
        let switched = if on {
            self.opcodes_off.remove(&frame)
        } else {
            self.opcodes_off.insert(frame)
        };
        switched.then_some(on)
    }

    /// Forgets every table (`%reset`).
    pub fn forget(&mut self) {
        self.tables.clear();
        self.keyed_tables = 0;
        self.pending.clear();
    }

    /// 3.12+: a BRANCH event, the instruction at `offset` of `code` went
    /// to `destination`. `false` when it is not recorded (the location may
    /// be disabled).
    pub fn branch(&mut self, code: usize, offset: u32, destination: u32) -> bool {
        if !self.on {
            self.disabled = true;
            return false;
        }
        let Some(table) = self.tables.get(&code).filter(|t| !t.saturated) else {
            return false;
        };
        let Some(jump) = table.jumps.get(&offset).copied() else {
            return false;
        };
        let key = table.key;
        self.log(key, jump, destination);
        true
    }

    /// 3.12+: the CALL event at `offset` of `code` may log what a
    /// selection chose (`What::Order`): its position, when the code is
    /// recorded and the call has no keyword and at most one argument: how
    /// many, and where the call starts.
    /// With recording off, such a location is switched on again at the
    /// next recorded run.
    pub fn selection_at(&mut self, code: usize, offset: u32) -> Option<Site> {
        let at = self.tables.get(&code)?.calls_at.get(&offset).cloned()?;
        if !self.on {
            self.disabled = true;
            return None;
        }
        self.tables.get(&code).filter(|t| !t.saturated)?;
        Some(at)
    }

    /// Whether `code`'s calls are no longer logged in this run.
    pub fn saturated(&self, code: usize) -> bool {
        self.tables.get(&code).is_some_and(|t| t.saturated)
    }

    /// 3.12+: what the selection at `at` of `code` chose (`What::Order`)
    /// or sorted by (`What::Ranks`).
    pub fn chose(&mut self, code: usize, at: (u32, u32), what: What) {
        if let Some(key) = self.tables.get(&code).map(|t| t.key) {
            self.push(Event::new(key, at, what));
        }
    }

    /// 3.10/3.11: a call event of `code` whose frame's last instruction is
    /// at `lasti` (`None`: not started) resumes a suspended generator.
    pub fn resumes(&self, code: usize, lasti: Option<u32>) -> bool {
        lasti.is_some_and(|l| self.tables.get(&code).is_some_and(|t| l >= t.first_yield))
    }

    /// A call of `code` starts; `true` when it is logged.
    pub fn entered(&mut self, code: usize) -> bool {
        if !self.on {
            return false;
        }
        let Some(t) = self.tables.get_mut(&code) else {
            return false;
        };
        if !t.enters || t.saturated {
            return false;
        }
        t.calls += 1;
        let key = t.key;
        if t.calls > CALLS {
            t.saturated = true;
            // Its locations return DISABLE from here: on again next run.
            self.disabled = true;
            self.push(Event::new(key, (0, 0), What::Saturated));
            return false;
        }
        self.push(Event::new(key, (0, 0), What::Enter));
        true
    }

    /// An exception was raised in `code` (or passed through it) on `line`.
    pub fn raised(&mut self, code: usize, line: u32) {
        if !self.on {
            return;
        }
        if let Some(key) = self
            .tables
            .get(&code)
            .filter(|t| !t.saturated)
            .map(|t| t.key)
        {
            self.push(Event::new(key, (line, 0), What::Raised));
        }
    }

    /// 3.10/3.11: an opcode event of `frame` (running `code`) at `offset`.
    pub fn opcode(&mut self, frame: usize, code: usize, offset: u32) {
        if !self.on {
            return;
        }
        if let Some(i) = self.pending.iter().position(|p| p.0 == frame) {
            let (_, at, jump) = self.pending.swap_remove(i);
            if let Some(key) = self.tables.get(&at).filter(|t| !t.saturated).map(|t| t.key) {
                self.log(key, jump, offset);
            }
        }
        if let Some(jump) = self
            .tables
            .get(&code)
            .filter(|t| !t.saturated)
            .and_then(|t| t.jumps.get(&offset))
        {
            self.pending.push((frame, code, *jump));
        }
    }

    /// 3.10/3.11: `frame` returned (or raised out): a jump it was about to
    /// take never ran. Whether its opcode events were on at any time.
    pub fn left(&mut self, frame: usize) -> bool {
        if !self.pending.is_empty() {
            self.pending.retain(|p| p.0 != frame);
        }
        self.opcodes_off.remove(&frame);
        self.logging.remove(&frame).is_some()
    }

    /// 3.10/3.11: `frame` (running `code`) has opcode events on.
    pub fn logging(&mut self, frame: usize, code: usize) {
        self.logging.insert(frame, code);
        self.opcodes_off.remove(&frame);
    }

    /// 3.10/3.11: the tracer would remove itself for the rest of the
    /// top-level statement whose code is `module` (its tracing mode costs
    /// every call in library code): allowed when no frame with jumps to
    /// log is running, and then the log says that the calls that follow in
    /// this statement are not logged (`What::Unlogged`: the replay takes
    /// them as opaque). `false`: it stays.
    pub fn unlogged_from_here(&mut self, module: usize) -> bool {
        if !self.on {
            return true;
        }
        // A frame of a saturated function logs nothing more.
        let logs = |code: &usize| self.tables.get(code).is_some_and(|t| !t.saturated);
        if self.logging.values().any(logs) {
            return false;
        }
        if let Some(key) = self.tables.get(&module).map(|t| t.key) {
            self.push(Event::new(key, (0, 0), What::Unlogged));
        }
        true
    }

    fn push(&mut self, event: Event) {
        if self.events.len() >= LIMIT {
            self.on = false;
            self.overflowed = true;
            self.events = Vec::new();
            return;
        }
        self.events.push(event);
    }

    fn log(&mut self, key: u32, jump: Jump, destination: u32) {
        let jumped = destination == jump.target && destination != jump.next;
        let what = match jump.kind {
            Kind::IfTrue => What::Decision(jumped),
            Kind::IfFalse => What::Decision(!jumped),
            Kind::IfNone => What::NoneTest(jumped),
            Kind::IfNotNone => What::NoneTest(!jumped),
            Kind::ForIter if destination == jump.next => What::Iteration,
            Kind::ForIter => What::Exhausted,
        };
        self.push(Event::new(key, (jump.line, jump.column), what));
    }
}

/// The logged instructions of `code`.
fn table(instructions: &Bound<'_, PyAny>, code: &Bound<'_, PyAny>, key: u32) -> PyResult<Table> {
    let mut jumps = FxHashMap::default();
    let mut calls_at = FxHashMap::default();
    let mut previous = String::new();
    let mut previous_offset = 0u32;
    // `Some(Some((n, key)))`: the next call passes `n` keywords, all among
    // `key` and `reverse` (`key` one of them or not); `Some(None)`: others.
    let mut kw_names: Option<Option<(u32, bool)>> = None;
    let mut const_names: Option<Option<(u32, bool)>> = None;
    // The values the last instructions pushed, each a dotted name when it
    // was loaded by one (`len`, `str.lower`), and the builtin key of the
    // next call, when its `key=` was so loaded.
    // (Each a `LOAD_NAME`/`LOAD_GLOBAL` and the `LOAD_ATTR` after it, if
    // any; their names are read only for a `key=`.)
    type Load<'py> = (Bound<'py, PyAny>, Option<Bound<'py, PyAny>>);
    let mut pushes: Vec<Option<Load<'_>>> = Vec::new();
    let mut next_key: Option<BuiltinKey> = None;
    let mut line = 0u32;
    // Offsets of the `EXTENDED_ARG`s right before the instruction.
    let mut prefix: Vec<u32> = Vec::new();
    let mut last: Option<Jump> = None;
    let mut aliases: Vec<u32> = Vec::new();
    let mut first_yield = u32::MAX;
    for instruction in instructions.call1((code,))?.try_iter()? {
        let instruction = instruction?;
        let offset = instruction.getattr("offset")?.extract::<u32>()?;
        if let Some(mut jump) = last.take() {
            jump.next = offset;
            for a in std::mem::take(&mut aliases) {
                jumps.insert(a, jump);
            }
            jumps.insert(jump.offset, jump);
        }
        let opname = instruction.getattr("opname")?.extract::<String>()?;
        // The line and column (3.11+: `positions`; 3.10: the line the
        // instruction is on, as `dis` shows it).
        let mut column = 0;
        match instruction.getattr("positions") {
            Ok(p) if !p.is_none() => {
                if let Ok(Some(l)) = p.getattr("lineno").and_then(|l| l.extract::<Option<u32>>()) {
                    line = l;
                }
                column = p
                    .getattr("col_offset")
                    .and_then(|c| c.extract::<Option<u32>>())
                    .ok()
                    .flatten()
                    .unwrap_or(0);
            }
            _ => {
                if let Ok(Some(l)) = instruction
                    .getattr("starts_line")
                    .and_then(|l| l.extract::<Option<u32>>())
                {
                    line = l;
                }
            }
        }
        if opname == "EXTENDED_ARG" {
            prefix.push(offset);
            continue;
        }
        if matches!(opname.as_str(), "YIELD_VALUE" | "YIELD_FROM" | "SEND") {
            first_yield = first_yield.min(offset);
        }
        let before = std::mem::take(&mut prefix);
        // The keywords of a call: 3.11's `KW_NAMES` comes before its
        // `PRECALL` and `CALL`, 3.12's before its `CALL`, and 3.13's
        // `CALL_KW` and 3.10's `CALL_FUNCTION_KW` right after the constant
        // naming them; each counts them in its argument.
        // (3.11's `dis` shows no value for `KW_NAMES`: its argument indexes
        // the constants.)
        let names = || {
            let names = instruction
                .getattr("argval")
                .and_then(|v| v.extract::<Vec<String>>())
                .or_else(|_| {
                    let index = instruction.getattr("arg")?;
                    code.getattr("co_consts")?.get_item(index)?.extract()
                })
                .ok()?;
            // `(how many, one is key)` for keywords among `key` and
            // `reverse` (`sorted(xs, key=f, reverse=True)`); `None` for
            // any other.
            names
                .iter()
                .all(|n| n == "key" || n == "reverse")
                .then(|| (names.len() as u32, names.iter().any(|n| n == "key")))
                // How many values after the `key=` value (the keywords
                // come last, in the names' order).
                .map(|named| (named, names.iter().rev().position(|n| n == "key")))
        };
        let arg = instruction.getattr("arg")?.extract::<Option<u32>>();
        // `(keywords, one is key)`.
        let keywords = match opname.as_str() {
            "CALL" => match kw_names {
                None => Some((0, false)),
                Some(names) => names,
            },
            // 3.13's `CALL_KW` and 3.10's `CALL_FUNCTION_KW`: the constant
            // naming the keywords comes right before.
            "CALL_KW" | "CALL_FUNCTION_KW" => const_names.flatten(),
            _ => None,
        };
        if let (Some((count, keyed)), Ok(Some(arg))) = (keywords, arg)
            && let Some(argc) = arg.checked_sub(count)
            && argc <= 1
        {
            let site = Site {
                argc,
                at: (line, column),
                keyed,
                key: if keyed { next_key.clone() } else { None },
            };
            // 3.11: a frame calling a builtin may show its `PRECALL`.
            if previous == "PRECALL" {
                calls_at.insert(previous_offset, site.clone());
            }
            calls_at.insert(offset, site);
        }
        // (`names()`, noting the builtin key the `key=` value names.)
        let mut with_key = |named: Option<((u32, bool), Option<usize>)>| {
            named.map(|(named, after)| {
                next_key = after
                    .and_then(|after| pushes.iter().rev().nth(after))
                    .and_then(|p| p.as_ref())
                    .and_then(|(load, attr)| {
                        let name = |i: &Bound<'_, PyAny>| {
                            i.getattr("argval").and_then(|v| v.extract::<String>()).ok()
                        };
                        let base = name(load)?;
                        match attr {
                            Some(attr) => BuiltinKey::of(&format!("{base}.{}", name(attr)?)),
                            None => BuiltinKey::of(&base),
                        }
                    });
                named
            })
        };
        kw_names = match opname.as_str() {
            "KW_NAMES" => Some(with_key(names())),
            "PRECALL" => kw_names,
            _ => None,
        };
        const_names = if opname == "LOAD_CONST" {
            Some(with_key(names()))
        } else {
            None
        };
        if matches!(opname.as_str(), "CALL" | "CALL_KW" | "CALL_FUNCTION_KW") {
            next_key = None;
        }
        match opname.as_str() {
            "LOAD_NAME" | "LOAD_GLOBAL" => pushes.push(Some((instruction.clone(), None))),
            "LOAD_CONST" => pushes.push(None),
            "LOAD_ATTR" => {
                let base = pushes.pop().flatten().filter(|(_, attr)| attr.is_none());
                pushes.push(base.map(|(load, _)| (load, Some(instruction.clone()))));
            }
            "KW_NAMES" | "PRECALL" | "EXTENDED_ARG" | "CACHE" => {}
            _ => pushes.clear(),
        }
        if pushes.len() > 8 {
            pushes.remove(0);
        }
        previous_offset = offset;
        let Some(kind) = Kind::of(&opname) else {
            previous = opname;
            continue;
        };
        previous = opname;
        let Ok(target) = instruction.getattr("argval")?.extract::<u32>() else {
            continue;
        };
        aliases = before;
        last = Some(Jump {
            kind,
            offset,
            target,
            next: u32::MAX,
            line,
            column,
        });
    }
    if let Some(jump) = last {
        for a in aliases {
            jumps.insert(a, jump);
        }
        jumps.insert(jump.offset, jump);
    }
    let jump_lines = jumps.values().map(|j| j.line).collect();
    Ok(Table {
        code: code.clone().unbind(),
        key,
        jumps,
        jump_lines,
        calls_at,
        enters: false,
        first_yield,
        calls: 0,
        saturated: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jump(kind: Kind) -> Jump {
        Jump {
            kind,
            offset: 10,
            target: 40,
            next: 12,
            line: 3,
            column: 4,
        }
    }

    fn logged(kind: Kind, destination: u32) -> What {
        let mut r = Recorder::default();
        r.start();
        r.log(7, jump(kind), destination);
        let events = r.finish().expect("recorded");
        assert_eq!(events.len(), 1);
        assert_eq!((events[0].code, events[0].at), (7, (3, 4)));
        events[0].what.clone()
    }

    #[test]
    fn a_jump_and_where_it_went_give_the_value_tested() {
        assert_eq!(logged(Kind::IfFalse, 40), What::Decision(false));
        assert_eq!(logged(Kind::IfFalse, 12), What::Decision(true));
        assert_eq!(logged(Kind::IfTrue, 40), What::Decision(true));
        assert_eq!(logged(Kind::IfTrue, 12), What::Decision(false));
        assert_eq!(logged(Kind::IfNone, 40), What::NoneTest(true));
        assert_eq!(logged(Kind::IfNotNone, 40), What::NoneTest(false));
        assert_eq!(logged(Kind::ForIter, 12), What::Iteration);
        assert_eq!(logged(Kind::ForIter, 42), What::Exhausted);
    }

    #[test]
    fn past_the_limit_the_run_is_not_recorded() {
        let mut r = Recorder::default();
        r.start();
        for _ in 0..=LIMIT {
            r.log(1, jump(Kind::IfTrue), 40);
        }
        assert!(r.overflowed() && !r.on);
        assert_eq!(r.finish(), None);
    }

    #[test]
    fn nothing_is_logged_while_recording_is_off() {
        let mut r = Recorder::default();
        assert!(!r.branch(1, 10, 40));
        assert!(r.disabled);
        assert_eq!(r.finish(), None);
    }

    #[test]
    fn a_raise_the_log_misses_is_placed_once() {
        let module = code_key("c1", 0);
        let function = code_key("c1", 3);
        let mut events = vec![
            Event::new(module, (2, 4), What::Decision(true)),
            Event::new(function, (4, 0), What::Raised),
        ];
        place_raise(&mut events, module, 6);
        assert_eq!(
            events.last(),
            Some(&Event::new(module, (6, 0), What::Raised))
        );
        let logged = events.len();
        place_raise(&mut events, module, 6);
        assert_eq!(events.len(), logged);
    }
}
