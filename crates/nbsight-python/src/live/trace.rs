//! What the tracer records while a cell runs, and the code objects it knows:
//! the module-level code of the running cell (whose lines and calls are
//! traced) and the code of every user function a traced cell defined (to
//! name the function a call reached).
//!
//! Trace-once: an event at a code location is taken once per run (the
//! monitoring callbacks return `DISABLE`; a cell's code objects are new at
//! every run), so the cost follows the cell's text, not its run time.

use nbsight_lineage::{CallFact, FunctionRef};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rustc_hash::FxHashMap;

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

/// The state of the tracer.
#[derive(Default)]
pub(crate) struct Trace {
    /// A traced run is under way.
    pub active: bool,
    /// The run's clock (what functions it defines are named by).
    pub counter: u32,
    /// The module-level code objects of the running cell, by address.
    pub modules: FxHashMap<usize, Py<PyAny>>,
    /// Lines of those that ran.
    pub lines: Vec<u32>,
    /// Calls of those that reached user functions.
    pub calls: Vec<CallFact>,
    /// The line tracing stopped early (a loop, with `sys.settrace`): the
    /// lines that ran are not all known.
    pub incomplete: bool,
    /// Code objects of user functions defined by traced cells, by address
    /// (kept alive so the address stays theirs).
    pub functions: FxHashMap<usize, (Py<PyAny>, FunctionRef)>,
    /// `co_lines()` of module code objects, for the line of a call offset.
    line_tables: FxHashMap<usize, Vec<(u32, u32, u32)>>,
}

pub(crate) fn address(object: &Bound<'_, PyAny>) -> usize {
    object.as_ptr() as usize
}

impl Trace {
    /// Starts a traced run at clock `counter`.
    pub fn start(&mut self, counter: u32) {
        self.active = true;
        self.counter = counter;
        self.modules.clear();
        self.lines.clear();
        self.calls.clear();
        self.incomplete = false;
        self.line_tables.clear();
    }

    /// Ends the run: its lines (sorted, once each; `None` when not all are
    /// known) and calls.
    pub fn finish(&mut self) -> (Option<Vec<u32>>, Vec<CallFact>) {
        self.active = false;
        let mut lines = std::mem::take(&mut self.lines);
        lines.sort_unstable();
        lines.dedup();
        let lines = (!self.incomplete).then_some(lines);
        (lines, std::mem::take(&mut self.calls))
    }

    /// Forgets the run's code objects (after the exception line was read).
    pub fn release(&mut self) {
        self.modules.clear();
        self.line_tables.clear();
    }

    /// A module-level code object of the running cell: traced, and the
    /// functions it defines (at any depth) remembered.
    pub fn watch_module(&mut self, types: &Types, code: &Bound<'_, PyAny>) -> PyResult<()> {
        self.modules.insert(address(code), code.clone().unbind());
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
                    self.functions
                        .insert(address(&c), (c.clone().unbind(), function));
                    stack.push(c);
                }
            }
        }
        Ok(())
    }

    pub fn is_module(&self, code: &Bound<'_, PyAny>) -> bool {
        self.active && self.modules.contains_key(&address(code))
    }

    /// The user function `callable` runs, if it is one a traced cell
    /// defined (a function or a method bound to one). Only the types'
    /// own attributes are read: no user `__getattr__` runs.
    pub fn function_of(&self, types: &Types, callable: &Bound<'_, PyAny>) -> Option<FunctionRef> {
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
        let code = function.getattr("__code__").ok()?;
        self.functions.get(&address(&code)).map(|(_, f)| f.clone())
    }

    /// The line of bytecode `offset` in module code `code`.
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
    }
}
