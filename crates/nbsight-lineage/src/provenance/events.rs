//! What the recorder logs while a cell runs with provenance on: the run-time
//! decisions the value-less replay cannot make itself (seed 002 §3.2), in
//! the order they happened, each at the position of the expression it is
//! about (line 1-based, UTF-8 byte column 0-based, as Python's `ast` gives).

/// A code position: `(line, column)`.
pub type At = (u32, u32);

/// One logged run-time fact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A condition (`if`, `while`, `elif`, a conditional expression, a
    /// comprehension's `if`, the left operand of `and`/`or`) was true or
    /// false.
    Decision { at: At, taken: bool },
    /// A loop or comprehension over the iterable at `at` started an
    /// iteration.
    Iteration { at: At },
    /// The iterable at `at` was exhausted.
    Exhausted { at: At },
    /// A subscript whose key is not a constant used this key (its `repr`,
    /// when it is an int or a str; `None` otherwise).
    Key { at: At, key: Option<String> },
}
