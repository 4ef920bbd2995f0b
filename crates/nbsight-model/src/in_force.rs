//! Which user function a call runs: the definition in force at a cell
//! (`NotebookModel::function_in_force`, the flow analysis), the plain
//! functions in force along an order of cell runs ([`FunctionsInForce`]),
//! and what a cell reads with them (`NotebookModel::pre_in_force`).

use nbsight_dataflow::FunctionSummary;
use rustc_hash::FxHashMap;

use crate::functions::{Definition, definitions};
use crate::model::{CellInfo, NotebookModel, pre_with};
use crate::vars::{Var, VarSet};

impl NotebookModel {
    /// The function definitions of the code cells, in notebook order.
    pub fn definitions(&self) -> impl Iterator<Item = Definition<'_>> {
        definitions(
            self.code_cells()
                .filter_map(|c| Some((c.index, &c.compiled.as_deref()?.summary))),
        )
    }

    /// The definition of user function `name` in force at cell `cell`: the
    /// last one in a cell up to it, unless a later cell up to it binds the
    /// name otherwise (`f = print`).
    pub fn function_in_force(&self, cell: usize, name: &str) -> Option<&FunctionSummary> {
        let var = self.vars.get(name)?;
        for compiled in self
            .cells
            .get(..=cell)?
            .iter()
            .rev()
            .filter_map(|c| c.compiled.as_deref())
        {
            if let Some(f) = compiled.summary.functions.get(name) {
                return Some(f);
            }
            if compiled.defs.contains(var) {
                return None;
            }
        }
        None
    }
}

/// The plain user functions in force along an order of cell runs: for each
/// name, the cell whose definition a call runs. A call runs the definition
/// that reaches it, not every definition of the name: `def f(): return 1`,
/// `f()`, `def f(): return y` does not read `y` at `f()`, and a name bound
/// otherwise (`f = [1, 2]`) is no function until a cell defines it again.
#[derive(Debug, Clone, Default)]
pub struct FunctionsInForce {
    by_var: FxHashMap<Var, usize>,
}

impl FunctionsInForce {
    /// After `cell` runs: the plain functions it defines are in force, and
    /// any other name it binds is no longer a user function.
    pub fn run(&mut self, model: &NotebookModel, cell: &CellInfo) {
        let Some(compiled) = cell.compiled.as_deref() else {
            return;
        };
        if self.by_var.is_empty() && compiled.summary.functions.is_empty() {
            return;
        }
        let mut own = VarSet::new();
        for name in compiled.summary.functions.keys() {
            if let Some(v) = model.vars.get(name)
                && model.function_definitions.contains_key(&v)
            {
                own.insert(v);
            }
        }
        for v in compiled.defs.iter() {
            if !own.contains(v) {
                self.by_var.remove(&v);
            }
        }
        for v in own.iter() {
            self.by_var.insert(v, cell.index);
        }
    }

    /// What calls made by `cell` itself run: these definitions, then the
    /// cell's own (a cell that defines `f` and calls it runs its own `f`).
    pub fn at(&self, model: &NotebookModel, cell: &CellInfo) -> FunctionsInForce {
        let mut here = self.clone();
        here.run(model, cell);
        here
    }

    /// The cell whose definition of `var` is in force.
    pub fn cell_of(&self, var: Var) -> Option<usize> {
        self.by_var.get(&var).copied()
    }

    /// The globals a call of `var` reads, through the functions it calls as
    /// they are in force now (`None`: `var` is no user function here).
    pub fn reads_of_call(&self, model: &NotebookModel, var: Var) -> Option<VarSet> {
        let cell = self.cell_of(var)?;
        let mut reads = VarSet::new();
        let mut seen = VarSet::from_iter([var]);
        // With each function to visit, the globals its callers bind on every
        // path of their bodies (`global F; F = 1; inner()`): a callee's read
        // of one of them reads that binding, not the notebook's.
        let mut stack = vec![(var, cell, VarSet::new())];
        while let Some((f, at, bound)) = stack.pop() {
            let Some(own) = model
                .function_definitions
                .get(&f)
                .and_then(|defs| defs.iter().find(|(c, _)| *c == at))
            else {
                continue;
            };
            let mut own_reads = own.1.clone();
            own_reads.difference_with(&bound);
            reads.union_with(&own_reads);
            let mut inner = bound;
            if let Some(info) = model.functions.get(&f) {
                inner.union_with(&info.always_writes);
            }
            for g in own.1.iter() {
                if let Some(c) = self.cell_of(g)
                    && !seen.contains(g)
                {
                    seen.insert(g);
                    stack.push((g, c, inner.clone()));
                }
            }
        }
        Some(reads)
    }
}

impl NotebookModel {
    /// What `cell` reads from the notebook state when the user functions in
    /// force are `in_force` (before it runs): [`CellInfo::pre`] with each
    /// call resolved to the definition that reaches it rather than to every
    /// definition of the name.
    pub fn pre_in_force(&self, cell: &CellInfo, in_force: &FunctionsInForce) -> VarSet {
        let Some(compiled) = cell.compiled.as_deref() else {
            return VarSet::new();
        };
        let here = in_force.at(self, cell);
        let mut pre = pre_with(compiled, &compiled.builtins, &self.vars, |v| {
            here.reads_of_call(self, v)
        });
        // Of the builtins, only those some cell rebinds (`pre` has them); the
        // rest is a subset of `pre`, which unions every definition.
        pre.intersect_with(&cell.pre);
        pre
    }
}
