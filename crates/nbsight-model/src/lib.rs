//! The notebook as nbsight's engines see it (DESIGN.md, the model layer):
//! every cell with its status, its compiled [`Program`] (and the dataflow
//! CFG it was compiled from) and its pre-summary, what calling each user
//! function does (`functions`), the dense ids of role-carrying call sites,
//! and a cache that lets an edit recompile one cell.
//!
//! Invariants: the model is built once per notebook and an edit shares the
//! unchanged cells and equals a rebuild (`model_tests.rs`). It holds facts,
//! not verdicts: no engine, no abstract domain, no rule, no I/O, no serde. A
//! cell index is a position in the full cell list (markdown included). What
//! it knows of ML roles comes from `nbsight-dataflow`'s effects knowledge
//! base.

pub mod aliases;
pub mod functions;
mod model;
pub mod paths;
pub mod program;
pub mod reads;
mod sites;
pub mod slice_split;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod vars;

pub use functions::{
    CallEffects, Definition, FunctionInfo, FunctionsByName, FunctionsInForce, NamedCall,
};
pub use model::{CallChange, CellInfo, CellStatus, Compiled, NotebookModel};
pub use program::Program;
pub use sites::{NO_SITE, Site, SiteTable};
pub use vars::{Var, VarSet, Vars};
