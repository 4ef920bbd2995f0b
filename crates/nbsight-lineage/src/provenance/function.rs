//! A user function as the replay keeps it: its parameters, its code (a
//! `def` body or a lambda's expression), the values of its defaults, and
//! where its code positions are (the source of the cell that defined it),
//! and the variables of the function it was defined in.

use std::sync::{Arc, Mutex, MutexGuard};

use ruff_python_ast::{Expr, Stmt};
use rustc_hash::FxHashMap;

use super::position::Positions;
use super::value::Value;

/// What a function runs.
#[derive(Debug, Clone)]
pub(crate) enum Body {
    Block(Vec<Stmt>),
    Lambda(Box<Expr>),
}

/// A user function.
#[derive(Debug, Clone)]
pub(crate) struct Function {
    /// Positional (and keyword-only) parameter names, in order, with the
    /// values of their defaults.
    pub params: Vec<(String, Option<Value>)>,
    pub body: Body,
    /// The positions of the defining cell's code.
    pub positions: Arc<Positions>,
    /// The cell that defined it.
    pub cell: Arc<str>,
    /// Its code object as events name it (`events::code_key`).
    pub code: u32,
    /// The enclosing function's variables when it was defined (a closure's
    /// free variables: `make_scaler(k)`'s `factor`).
    pub closure: Option<Arc<Closure>>,
    /// A generator function (its body yields): a call replays the body as
    /// far as the log shows it ran, and gives what it yielded.
    pub generator: bool,
}

/// The variables of the enclosing functions a function sees, shared by
/// its calls: what one call assigns to a `nonlocal` the next one reads
/// (`make_counter`'s `count`). A mutex as `value::Shared` is; nothing
/// else is locked while it is held.
#[derive(Debug, Default)]
pub(crate) struct Closure(Mutex<FxHashMap<String, Value>>);

impl Closure {
    pub(crate) fn new(variables: FxHashMap<String, Value>) -> Closure {
        Closure(Mutex::new(variables))
    }

    fn lock(&self) -> MutexGuard<'_, FxHashMap<String, Value>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn get(&self, name: &str) -> Option<Value> {
        self.lock().get(name).cloned()
    }

    pub(crate) fn set(&self, name: &str, value: Value) {
        self.lock().insert(name.to_string(), value);
    }

    /// A copy of its variables.
    pub(crate) fn variables(&self) -> FxHashMap<String, Value> {
        self.lock().clone()
    }
}
