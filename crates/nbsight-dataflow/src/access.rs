//! Accesses: what one evaluation step does to one symbol. The CFG's nodes hold
//! them in evaluation order; every analysis is computed from them.

use ruff_text_size::TextRange;

use crate::symbol::SymId;

/// What an access does to its symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccessKind {
    /// The value is read.
    Read,
    /// The object is read only to get to a path nested in it (`lst` in
    /// `lst[0] = 1` or in `print(lst[0])`). It counts for liveness, not as a
    /// dependency of the value a statement writes (for DEAD).
    BaseRead,
    /// Bound on this path, replacing the old value.
    Write,
    /// Perhaps bound (inside a short-circuit, a conditional expression or a
    /// comprehension).
    MayWrite,
    /// Unbound by `del`.
    Delete,
    /// Changed in place.
    Mutate,
    /// Perhaps changed in place (a call whose effect is unknown).
    MayMutate,
}

impl AccessKind {
    /// Reads the symbol's current value (for liveness).
    pub fn is_read(self) -> bool {
        matches!(self, AccessKind::Read | AccessKind::BaseRead)
    }

    /// Replaces the symbol's value on this path (kills older values).
    pub fn is_definite_write(self) -> bool {
        matches!(self, AccessKind::Write | AccessKind::Delete)
    }

    /// Binds, unbinds or may bind the symbol.
    pub fn is_def(self) -> bool {
        matches!(
            self,
            AccessKind::Write | AccessKind::MayWrite | AccessKind::Delete
        )
    }
}

/// One access to one symbol at one place in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Access {
    pub symbol: SymId,
    pub kind: AccessKind,
    /// The first access of a statement (a node may hold several statements).
    pub starts_statement: bool,
    /// An in-place change recorded only because a path nested in the symbol
    /// was bound, deleted or changed just before (`lst` in `lst[3] = 1`,
    /// `df` in `df.col.append(x)`): the access to the nested path says what
    /// changed. Summaries count it as a change of the whole object;
    /// field-granular analyses (slicing) can rely on the nested access alone.
    pub implied: bool,
    pub range: TextRange,
}
