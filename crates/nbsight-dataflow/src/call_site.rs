//! Call sites with a role in an ML pipeline or in the notebook's I/O (`fit`,
//! `train_test_split`, `read_csv`, a scaler's constructor...): which function,
//! on which receiver, with which arguments. The leakage analysis interprets
//! them; the builder records them beside the CFG, in evaluation order.

use compact_str::CompactString;
use ruff_text_size::TextRange;
use smallvec::SmallVec;

use crate::effects::Role;
use crate::node::NodeId;
use crate::symbol::Symbol;

/// What a receiver or an argument of a call is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operand {
    /// A tracked path (`x`, `df.col`, `x[*]`).
    Symbol(Symbol),
    /// The result of an earlier recorded call of the same scope (its index
    /// in [`crate::cfg::Cfg::calls`]).
    Call(u32),
    /// Anything else (a literal, an expression of several values...): the
    /// value depends on the paths read inside this range.
    Other(TextRange),
}

/// One call whose knowledge-base entry has roles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSite {
    /// The CFG node the call is evaluated in.
    pub node: NodeId,
    /// How many accesses the node held when the call was made (after its
    /// arguments were evaluated, before its result is stored).
    pub at: u32,
    /// The call opens a statement of the node that has no access before it.
    pub new_statement: bool,
    /// The qualified function (`sklearn.model_selection.train_test_split`) or
    /// the bare method name (`fit`).
    pub callee: CompactString,
    /// `true` for a method call on a value.
    pub method: bool,
    pub roles: SmallVec<[Role; 2]>,
    /// A call of a name the notebook binds (a user function or class; no
    /// roles): what it does is read from its definition.
    pub user: bool,
    /// The receiver of a method call.
    pub receiver: Operand,
    /// The positional arguments.
    pub args: SmallVec<[Operand; 3]>,
    /// Keyword arguments (`None` name for `**kwargs`).
    pub keywords: SmallVec<[(Option<CompactString>, Operand); 1]>,
    /// The first positional argument when it is a string literal (a file name).
    pub first_str: Option<CompactString>,
    pub range: TextRange,
}

impl CallSite {
    pub fn has_role(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }

    /// The operand passed under keyword `name`.
    pub fn keyword(&self, name: &str) -> Option<&Operand> {
        self.keywords
            .iter()
            .find(|(k, _)| k.as_deref() == Some(name))
            .map(|(_, v)| v)
    }

    /// Every operand the call reads data from: receiver, positional and
    /// keyword arguments.
    pub fn operands(&self) -> impl Iterator<Item = &Operand> {
        std::iter::once(&self.receiver)
            .chain(&self.args)
            .chain(self.keywords.iter().map(|(_, v)| v))
    }
}
