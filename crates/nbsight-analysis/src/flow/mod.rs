//! Information flows between the cells of a notebook run top to bottom once
//! (issue 9, `nbsight flow`): the CRABS ground-truth format and the metrics
//! that score a predicted flow graph against it.

pub mod metrics;
pub mod truth;
