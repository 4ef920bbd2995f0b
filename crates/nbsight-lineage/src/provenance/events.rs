//! What the recorder logs while a cell runs with provenance on: the run-time
//! decisions the value-less replay cannot make itself (seed 002 §3.2), in
//! the order they happened. The recorder reads them from the interpreter
//! (`sys.monitoring` branch events on 3.12+, opcode tracing on 3.10/3.11:
//! `crates/nbsight-python/src/live/recorder.rs`), never from changed code,
//! so each is about one conditional jump or loop step of the bytecode:
//!
//! - the code object it ran in, as [`code_key`] names it (the replay keeps
//!   the events of the code it is replaying and skips those of user code it
//!   treats as opaque, such as a function a library called back);
//! - the position of the instruction (line 1-based, UTF-8 byte column
//!   0-based; column 0 when the interpreter gives none);
//! - what happened there.
//!
//! Besides jumps, a call of `max`/`min`/`sorted`/`list.sort` logs which
//! elements its result holds ([`What::Order`]), or the ranks of the keys
//! its `key=` function returned ([`What::Ranks`]), where that can be known
//! without running user code.

use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// A code position: `(line, column)`.
pub type At = (u32, u32);

/// One logged run-time fact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The code object it happened in ([`code_key`]).
    pub code: u32,
    pub at: At,
    pub what: What,
}

/// What happened at a jump or loop step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum What {
    /// A conditional jump tested a value: its truth.
    Decision(bool),
    /// A jump tested whether a value is `None` (CPython compiles `x is None`
    /// and `x is not None` tests to such jumps): whether it was.
    NoneTest(bool),
    /// A loop or comprehension started an iteration.
    Iteration,
    /// A loop or comprehension found its iterator exhausted.
    Exhausted,
    /// An exception was raised in the code, or passed through it, on this
    /// line (not one that ends an iteration).
    Raised,
    /// A call of the code (a function's) starts; a generator's run, at its
    /// first resume (not at the later ones).
    Enter,
    /// The function was called too often in this run: from here on its
    /// calls and events are not logged (the replay takes them as opaque).
    Saturated,
    /// (In the cell's own code.) The tracer stopped for the rest of the
    /// running top-level statement: the calls of user functions that
    /// follow in it are not logged (3.10/3.11, in library-heavy
    /// statements with no jump of their own).
    Unlogged,
    /// A call of `max`, `min`, `sorted` or `list.sort` with one list or
    /// tuple of plain numbers or strs (3.12+; computed from the argument
    /// before the call ran, calling no user code): the positions of the
    /// elements its result holds, in order (`max`/`min`: the one chosen).
    Order(Vec<u32>),
    /// (3.10/3.11.) A call of `max`, `min`, `sorted` or `list.sort` with a
    /// `key=` user function whose keys were all plain: the rank of each
    /// element's key, in the elements' order (equal keys, equal ranks; 0
    /// the smallest). The replay makes the choice or order from them, as
    /// the call's name says.
    Ranks(Vec<u32>),
    /// A subscript key (histories written by the earlier recorder; the
    /// replay skips it).
    Key(Option<String>),
}

impl Event {
    pub fn new(code: u32, at: At, what: What) -> Event {
        Event { code, at, what }
    }
}

/// The key naming a code object in events: the cell that defined it and the
/// first line of its definition (`co_firstlineno`: a `def`'s line, a
/// lambda's); `first_line` 0 for the cell's own module code. Comprehensions
/// and generator expressions are named by the code that contains them (3.12
/// inlines comprehensions; 3.10/3.11 and generator expressions do not).
pub fn code_key(cell: &str, first_line: u32) -> u32 {
    let mut h = FxHasher::default();
    cell.hash(&mut h);
    first_line.hash(&mut h);
    let h = h.finish();
    (h ^ (h >> 32)) as u32
}
