//! A driver: a pass of `nbsight check` over a notebook model that pushes the
//! findings of the rules it serves (one rule, or several that share it and
//! run it once).

use nbsight_model::NotebookModel;

use crate::finding::Finding;

/// A pass of `nbsight check` over a notebook model that pushes findings: those
/// of one rule, or of several rules that share it (it then runs once).
#[derive(Debug, Clone, Copy)]
pub struct Driver {
    /// Names the pass (its module), so that a shared one runs once.
    name: &'static str,
    run: fn(&NotebookModel, &mut Vec<Finding>),
}

impl Driver {
    pub(crate) const fn new(
        name: &'static str,
        run: fn(&NotebookModel, &mut Vec<Finding>),
    ) -> Self {
        Driver { name, run }
    }

    /// The name of the pass (its module).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Pushes the pass's findings for `model`, of every rule it serves.
    pub(crate) fn run(&self, model: &NotebookModel, findings: &mut Vec<Finding>) {
        (self.run)(model, findings);
    }
}
