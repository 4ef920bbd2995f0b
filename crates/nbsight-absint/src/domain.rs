//! Abstract domains (NBLyzer sec. 3.2): a lattice with join and widening, a
//! transfer function per statement, the propagation condition φ between cells
//! and the seeding of an event's source cell. Domains combine as products
//! (`(A, B)`), which run together in one pass; the engine knows nothing else
//! about them, so a new domain needs no change to it.

use std::fmt::Debug;

use crate::alarm::{Alarm, Alarms};
use nbsight_model::program::{Program, Stmt};
use nbsight_model::vars::VarSet;
use nbsight_model::{CellInfo, NotebookModel};

/// Where a statement is being interpreted.
#[derive(Debug, Clone, Copy)]
pub struct StmtCtx<'a> {
    pub model: &'a NotebookModel,
    /// The cell's index in the notebook.
    pub cell: usize,
    pub program: &'a Program,
    /// The statement's block is inside a loop.
    pub in_loop: bool,
}

/// What grew when states were joined (a domain's [`Domain::Growth`]): the
/// engine merges the growth of a round's cell runs and asks the domain
/// which cells it affects.
pub trait Growth: Default + Debug {
    fn is_empty(&self) -> bool;
    /// `self := self ∪ other`.
    fn merge(&mut self, other: &Self);
}

/// The variables whose facts grew.
impl Growth for VarSet {
    fn is_empty(&self) -> bool {
        self.is_clear()
    }

    fn merge(&mut self, other: &Self) {
        self.union_with(other);
    }
}

impl<A: Growth, B: Growth> Growth for (A, B) {
    fn is_empty(&self) -> bool {
        self.0.is_empty() && self.1.is_empty()
    }

    fn merge(&mut self, other: &Self) {
        self.0.merge(&other.0);
        self.1.merge(&other.1);
    }
}

/// An abstract domain.
pub trait Domain: Clone + Debug {
    /// What grew from one state to a larger one.
    type Growth: Growth;
    /// The lattice order: `self ⊑ other`.
    fn leq(&self, other: &Self) -> bool;
    /// `self := self ⊔ other`.
    fn join(&mut self, other: &Self);
    /// `self := previous ∇ self`, for domains of unbounded height; finite
    /// domains keep the default (a join).
    fn widen(&mut self, previous: &Self) {
        self.join(previous);
    }
    /// `self := self ∇ next`, `self` being the previous state: the same
    /// widening as [`Domain::widen`] without copying `next` (the default is
    /// a join, like `widen`'s).
    fn widen_with(&mut self, next: &Self) {
        self.join(next);
    }
    /// Interprets one statement.
    fn transfer(&mut self, stmt: &Stmt, ctx: &StmtCtx<'_>, alarms: &mut Alarms);
    /// φ(σ, pre(c)): does the state propagate to `cell`?
    fn phi(&self, cell: &CellInfo) -> bool;
    /// An exploration starts from this state (before the event's source
    /// runs): a domain whose alarms depend on the order of runs can note
    /// what held then, since the exploration's states join runs in
    /// different orders.
    fn start_exploration(&mut self) {}
    /// Marks the variables an event changes (the values its source cell
    /// computes, and what the old version of an edited or deleted cell wrote).
    fn seed(&mut self, _changed: &VarSet) {}
    /// Adds to `into` what `self` has that `old` lacks (empty when
    /// `self ⊑ old`).
    fn growth(&self, old: &Self, into: &mut Self::Growth);
    /// Can running `cell` compute more than it did, now that `grown` grew?
    /// (Its run must depend only on what it reads: [`CellInfo::reads`].)
    fn affects(&self, grown: &Self::Growth, cell: &CellInfo) -> bool;
    /// Runs `cell` on this state (the abstract cell transformer). `grown`,
    /// when given, is what grew since the cell last ran on a smaller state:
    /// a product then runs only the components it affects and keeps the
    /// others' input (their results are already joined in).
    /// (A domain with nothing better to do runs [`crate::run_cell`].)
    fn run(
        &self,
        model: &NotebookModel,
        cell: &CellInfo,
        grown: Option<&Self::Growth>,
    ) -> (Self, Vec<Alarm>);
    /// Runs `cell` on this state like [`Domain::run`], adds to `added`
    /// what the result has beyond this state, and joins the result into
    /// `into`, a state above this one. A domain that knows what a run
    /// wrote can do this without building the result.
    fn run_join(
        &self,
        model: &NotebookModel,
        cell: &CellInfo,
        grown: Option<&Self::Growth>,
        into: &mut Self,
        added: &mut Self::Growth,
    ) -> Vec<Alarm> {
        let (after, alarms) = self.run(model, cell, grown);
        join_result(self, &after, into, added);
        alarms
    }
}

/// Which components of a product run `cell`: both on a first run, those
/// that what grew affects on a re-run.
fn components_to_run<A: Domain, B: Domain>(
    state: &(A, B),
    grown: Option<&(A::Growth, B::Growth)>,
    cell: &CellInfo,
) -> (bool, bool) {
    grown.map_or((true, true), |g| {
        (state.0.affects(&g.0, cell), state.1.affects(&g.1, cell))
    })
}

/// Joins `after`, the result of a run on `before`, into `into` (a state
/// above `before`) and adds to `added` what it has beyond `before`.
pub fn join_result<D: Domain>(before: &D, after: &D, into: &mut D, added: &mut D::Growth) {
    let mut mine = D::Growth::default();
    after.growth(before, &mut mine);
    if !mine.is_empty() {
        into.join(after);
        added.merge(&mine);
    }
}

impl<A: Domain, B: Domain> Domain for (A, B) {
    type Growth = (A::Growth, B::Growth);

    fn leq(&self, other: &Self) -> bool {
        self.0.leq(&other.0) && self.1.leq(&other.1)
    }

    fn join(&mut self, other: &Self) {
        self.0.join(&other.0);
        self.1.join(&other.1);
    }

    fn widen(&mut self, previous: &Self) {
        self.0.widen(&previous.0);
        self.1.widen(&previous.1);
    }

    fn widen_with(&mut self, next: &Self) {
        self.0.widen_with(&next.0);
        self.1.widen_with(&next.1);
    }

    fn transfer(&mut self, stmt: &Stmt, ctx: &StmtCtx<'_>, alarms: &mut Alarms) {
        self.0.transfer(stmt, ctx, alarms);
        self.1.transfer(stmt, ctx, alarms);
    }

    fn phi(&self, cell: &CellInfo) -> bool {
        self.0.phi(cell) || self.1.phi(cell)
    }

    fn seed(&mut self, changed: &VarSet) {
        self.0.seed(changed);
        self.1.seed(changed);
    }

    fn start_exploration(&mut self) {
        self.0.start_exploration();
        self.1.start_exploration();
    }

    fn growth(&self, old: &Self, into: &mut Self::Growth) {
        self.0.growth(&old.0, &mut into.0);
        self.1.growth(&old.1, &mut into.1);
    }

    fn affects(&self, grown: &Self::Growth, cell: &CellInfo) -> bool {
        self.0.affects(&grown.0, cell) || self.1.affects(&grown.1, cell)
    }

    /// Runs each component on its own (they do not read each other), so
    /// that each can use its own [`Domain::run`]; with `grown`, only the
    /// components it affects.
    fn run(
        &self,
        model: &NotebookModel,
        cell: &CellInfo,
        grown: Option<&Self::Growth>,
    ) -> (Self, Vec<Alarm>) {
        let (run_a, run_b) = components_to_run(self, grown, cell);
        let (a, mut alarms) = if run_a {
            self.0.run(model, cell, grown.map(|g| &g.0))
        } else {
            (self.0.clone(), Vec::new())
        };
        let (b, more) = if run_b {
            self.1.run(model, cell, grown.map(|g| &g.1))
        } else {
            (self.1.clone(), Vec::new())
        };
        alarms.extend(more);
        ((a, b), alarms)
    }

    fn run_join(
        &self,
        model: &NotebookModel,
        cell: &CellInfo,
        grown: Option<&Self::Growth>,
        into: &mut Self,
        added: &mut Self::Growth,
    ) -> Vec<Alarm> {
        let (run_a, run_b) = components_to_run(self, grown, cell);
        let mut alarms = Vec::new();
        if run_a {
            alarms = self
                .0
                .run_join(model, cell, grown.map(|g| &g.0), &mut into.0, &mut added.0);
        }
        if run_b {
            alarms.extend(self.1.run_join(
                model,
                cell,
                grown.map(|g| &g.1),
                &mut into.1,
                &mut added.1,
            ));
        }
        alarms
    }
}
