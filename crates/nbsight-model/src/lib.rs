//! The notebook as nbsight's engines see it (DESIGN.md, the model layer):
//! every cell with its status, its compiled [`Program`] (and the dataflow
//! CFG it was compiled from) and its pre-summary, what calling each user
//! function does (`functions`), the dense ids of role-carrying call sites,
//! and a cache that lets an edit recompile one cell.
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-model`), the one place
//! they are written; each names the test that holds it, where one does.

pub mod aliases;
pub mod flags;
pub mod functions;
mod in_force;
mod model;
pub mod paths;
pub mod program;
pub mod reads;
mod saved_order;
mod sites;
pub mod slice_split;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod vars;

pub use functions::{CallEffects, Definition, FunctionInfo, FunctionsByName, NamedCall};
pub use in_force::FunctionsInForce;
pub use model::{CallChange, CellInfo, CellStatus, Compiled, NotebookModel};
pub use program::Program;
pub use sites::{NO_SITE, Site, SiteTable};
pub use vars::{Var, VarSet, Vars};
