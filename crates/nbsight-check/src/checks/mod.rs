//! The rules of `nbsight check`, one module per concern.

pub mod informational;
pub mod leakage;
pub mod run_all;
pub mod saved_state;
