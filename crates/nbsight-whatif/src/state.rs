//! The abstract notebook state before an event (NBLyzer's global state σ#,
//! kept by *maintenance*, Algorithm 2): built from an execution history and
//! updated one real execution at a time, so the live kernel can feed it.

use crate::impact::Impact;
use nbsight_absint::run_cell;
use nbsight_leakage::Leak;
use nbsight_model::NotebookModel;
use nbsight_model::vars::VarSet;

/// The domains the what-if engine runs together (one product, one pass).
pub type Domains = (Impact, Leak);

/// The cells a kernel executed before an event, in order, or where to read
/// them from. (Not `nbsight_history::History`, a live kernel's history file.)
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Executed {
    /// The saved `execution_count`s: cells with a count, in count order.
    #[default]
    Saved,
    /// A fresh kernel.
    Fresh,
    /// These cells, in this order.
    Cells(Vec<usize>),
}

impl Executed {
    /// The cells the history executes, in order.
    pub fn cells(&self, model: &NotebookModel) -> Vec<usize> {
        match self {
            Executed::Fresh => Vec::new(),
            Executed::Cells(cells) => cells.clone(),
            Executed::Saved => model.saved_order(),
        }
    }
}

/// The abstract state of a kernel.
#[derive(Debug, Clone)]
pub struct NotebookState {
    /// Cells executed so far, in order.
    pub executed: Vec<usize>,
    pub domains: Domains,
    /// Some executed cell may have bound names nbsight cannot see.
    pub unknown_defs: bool,
}

/// Where two states' facts differ.
#[derive(Debug, Clone, Default)]
pub struct StateDifference {
    /// Variables whose leakage facts or binding differ.
    pub vars: VarSet,
    /// The trained models or evaluations differ.
    pub models: bool,
}

impl NotebookState {
    /// A fresh kernel for `model`'s notebook.
    pub fn fresh(model: &NotebookModel) -> Self {
        NotebookState {
            executed: Vec::new(),
            domains: (Impact::default(), Leak::new(model)),
            unknown_defs: false,
        }
    }

    /// The state after running `history` on a fresh kernel.
    pub fn after(model: &NotebookModel, history: &[usize]) -> Self {
        let mut state = NotebookState::fresh(model);
        for &cell in history {
            state.execute(model, cell);
        }
        state
    }

    /// Maintenance: the user ran `cell` (a real execution). Cells that are not
    /// Python or do not parse change nothing nbsight can see.
    pub fn execute(&mut self, model: &NotebookModel, cell: usize) {
        let Some(info) = model.cells.get(cell) else {
            return;
        };
        self.executed.push(cell);
        if let Some(compiled) = info.compiled.as_deref() {
            self.unknown_defs |= compiled.unknown_defs;
            let (after, _) = run_cell(&self.domains, model, info, false);
            self.domains = after;
            // Impact is relative to an event; the state itself records none.
            self.domains.0.changed = VarSet::new();
        }
    }

    /// Variables bound in this state.
    pub fn bound(&self) -> &VarSet {
        self.domains.1.bound()
    }

    /// Can `cell` run now without a NameError (as far as nbsight can tell)?
    pub fn can_run(&self, model: &NotebookModel, cell: usize) -> bool {
        let Some(info) = model.cells.get(cell) else {
            return false;
        };
        info.is_code() && (self.unknown_defs || info.pre.is_subset(self.bound()))
    }

    /// Do the two states hold the same facts (the code-impact part aside,
    /// which a state between events leaves empty)?
    pub fn same_domains(&self, other: &NotebookState) -> bool {
        use nbsight_absint::Domain;
        self.unknown_defs == other.unknown_defs
            && self.domains.1.leq(&other.domains.1)
            && other.domains.1.leq(&self.domains.1)
    }

    /// Where the facts of two states differ (the code-impact part aside),
    /// or `None` when they differ in what every cell's run depends on
    /// (names bound out of sight).
    pub fn difference(&self, other: &NotebookState) -> Option<StateDifference> {
        if self.unknown_defs != other.unknown_defs {
            return None;
        }
        let (vars, models) = self.domains.1.difference(&other.domains.1);
        Some(StateDifference { vars, models })
    }

    /// Keeps the cell runs of the states computed from this one, to
    /// replay them on states that agree with them (a session's queries).
    pub fn remember_runs(&mut self) {
        self.domains.0.remember_runs();
        self.domains.1.remember_runs();
    }

    /// Reads what the model's user functions do once per definition, in
    /// this state and those computed from it (all in one model; a new
    /// cache for each model).
    pub fn keep_function_leaks(&mut self) {
        self.domains.1.keep_function_leaks();
    }

    /// This state moves to a model that differs from its own only in the
    /// code of cell `edited`, whose imports are the same (an edit made in
    /// place): the other cells' functions keep what was read of them.
    pub fn move_to_edit(&mut self, edited: usize) {
        self.domains.1.move_to_edit(edited);
    }

    /// Stops replaying cell runs (the model no longer matches them).
    pub fn forget_runs(&mut self) {
        self.domains.0.forget_runs();
        self.domains.1.forget_runs();
    }

    /// The product state (for the engine).
    pub fn domains(&self) -> &Domains {
        &self.domains
    }
}
