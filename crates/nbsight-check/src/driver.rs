//! A driver: a pass of `nbsight check` over a notebook model that pushes the
//! findings of the rules it serves (one rule, or several that share it and
//! run it once).

use nbsight_model::NotebookModel;

use crate::finding::Finding;
use crate::selection::RuleSet;

/// A pass of `nbsight check` over a notebook model that pushes findings: those
/// of one rule, or of several rules that share it (it then runs once).
#[derive(Debug, Clone, Copy)]
pub struct Driver {
    /// Names the pass (its module), so that a shared one runs once.
    name: &'static str,
    run: Run,
}

/// What a driver runs.
#[derive(Debug, Clone, Copy)]
enum Run {
    /// Every rule it serves, always.
    All(fn(&NotebookModel, &mut Vec<Finding>)),
    /// Told the enabled rules, it skips the work of the others.
    Enabled(fn(&NotebookModel, RuleSet, &mut Vec<Finding>)),
}

impl Driver {
    pub(crate) const fn new(
        name: &'static str,
        run: fn(&NotebookModel, &mut Vec<Finding>),
    ) -> Self {
        Driver {
            name,
            run: Run::All(run),
        }
    }

    /// A pass told which rules are enabled, to skip the work of the others
    /// (it may still push their findings: they are dropped).
    pub(crate) const fn told_rules(
        name: &'static str,
        run: fn(&NotebookModel, RuleSet, &mut Vec<Finding>),
    ) -> Self {
        Driver {
            name,
            run: Run::Enabled(run),
        }
    }

    /// The name of the pass (its module).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Pushes the pass's findings for `model`, of every rule it serves.
    pub(crate) fn run(&self, model: &NotebookModel, rules: RuleSet, findings: &mut Vec<Finding>) {
        match self.run {
            Run::All(run) => run(model, findings),
            Run::Enabled(run) => run(model, rules, findings),
        }
    }
}
