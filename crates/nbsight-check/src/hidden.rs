//! What binds and reads out of sight of the cells' summaries, for the rules
//! that say a name or a cell is unused (`isolated-cell`,
//! `unused-definition`): a cell that does not parse may read or bind any name
//! written in it; a cell that binds names nbsight cannot see (`%run
//! script.py`, `from module import *`) provides the names later cells read
//! that no cell defines; the body of a method or lambda reads globals when
//! it runs, like a plain function's (a class read only inside another
//! class's method is used when that class is); a cell that runs code nbsight
//! cannot read (`eval(expr)`, `exec(expr)`, `globals()[key]`, `locals()`),
//! or calls a user function or class whose body does, may read any name.

use nbsight_dataflow::builtins::is_builtin;
use nbsight_dataflow::symbol::root;
use nbsight_model::vars::VarSet;
use nbsight_model::{CellInfo, CellStatus, NotebookModel};

/// The facts out of sight for one notebook.
pub(crate) struct OutOfSight {
    /// Names written in a cell that does not parse, by cell.
    broken: Vec<(usize, VarSet)>,
    /// The globals some function, method or lambda body reads.
    pub(crate) body_reads: VarSet,
    /// By cell: the globals the bodies of the functions and methods it
    /// defines read.
    own_body_reads: Vec<(usize, VarSet)>,
    /// Cells that bind names nbsight cannot see.
    hidden_binders: Vec<usize>,
    /// Names some cell reads that no cell binds and that are not builtins:
    /// what hidden binders provide.
    unresolved: VarSet,
    /// Cells that may read any name: their code evaluates code nbsight
    /// cannot read or reads the namespace as a dict, or calls a user
    /// function or class whose body does.
    namespace_readers: Vec<usize>,
}

impl OutOfSight {
    pub(crate) fn of(model: &NotebookModel) -> OutOfSight {
        let mut broken = Vec::new();
        for cell in &model.cells {
            if !matches!(cell.status, CellStatus::Broken { .. }) {
                continue;
            }
            let Some(parsed) = cell.parsed.as_deref() else {
                continue;
            };
            let words =
                VarSet::from_iter(identifiers(parsed.source()).filter_map(|w| model.vars.get(w)));
            broken.push((cell.index, words));
        }
        let mut body_reads = VarSet::new();
        let mut own_body_reads: Vec<(usize, VarSet)> = Vec::new();
        for def in model.definitions() {
            // Builtin names too: a cell may bind one (`from IPython.display
            // import display`) that the body then reads.
            let reads = VarSet::from_iter(
                def.summary
                    .reads
                    .iter()
                    .chain(def.summary.builtins.iter())
                    .filter_map(|s| model.vars.get(root(s))),
            );
            body_reads.union_with(&reads);
            match own_body_reads.last_mut() {
                Some((cell, set)) if *cell == def.cell => set.union_with(&reads),
                _ => own_body_reads.push((def.cell, reads)),
            }
        }
        let hidden_binders: Vec<usize> = model
            .code_cells()
            .filter(|c| c.compiled.as_deref().is_some_and(|x| x.unknown_defs))
            .map(|c| c.index)
            .collect();
        let mut unresolved = VarSet::new();
        if !hidden_binders.is_empty() {
            let mut bound = VarSet::new();
            for cell in model.code_cells() {
                bound.union_with(&cell.outputs);
            }
            for cell in model.code_cells() {
                for v in cell.pre.iter() {
                    if !bound.contains(v) && !is_builtin(model.vars.name(v)) {
                        unresolved.insert(v);
                    }
                }
            }
        }
        OutOfSight {
            broken,
            body_reads,
            own_body_reads,
            hidden_binders,
            unresolved,
            namespace_readers: namespace_readers(model),
        }
    }

    /// A cell at or after `cell` may read any name (`eval(expr)`, a helper
    /// whose method evaluates the strings it is given).
    pub(crate) fn namespace_read_from(&self, cell: usize) -> bool {
        self.namespace_readers.iter().any(|&r| r >= cell)
    }

    /// A cell that does not parse, after `cell`, writes the name `v`.
    pub(crate) fn broken_after_mentions(&self, cell: usize, v: nbsight_model::Var) -> bool {
        self.broken
            .iter()
            .any(|(b, words)| *b > cell && words.contains(v))
    }

    /// A cell that does not parse writes one of `vars`.
    fn broken_mentions(&self, vars: &VarSet) -> bool {
        self.broken.iter().any(|(_, words)| words.intersects(vars))
    }

    /// A cell after `cell` binds names nbsight cannot see by running code
    /// (`%run`, `exec`): that code may read anything.
    pub(crate) fn hidden_code_after(&self, model: &NotebookModel, cell: usize) -> bool {
        self.hidden_binders.iter().any(|&h| {
            h > cell
                && model.cells[h]
                    .compiled
                    .as_deref()
                    .is_some_and(|c| c.hidden_bindings)
        })
    }

    /// `cell` uses or provides something out of sight: a cell that does not
    /// parse writes a name it reads or binds; it binds names out of sight
    /// that a later cell reads, or reads such names after a hidden binder;
    /// a function or method body elsewhere reads what it binds, or the
    /// bodies it defines read what another cell binds.
    pub(crate) fn connects(&self, model: &NotebookModel, cell: &CellInfo) -> bool {
        if self.broken_mentions(&cell.outputs) || self.broken_mentions(&cell.pre) {
            return true;
        }
        // It may read what any cell above defines, or a cell below may read
        // what it defines.
        if self.namespace_readers.contains(&cell.index)
            && model
                .code_cells()
                .any(|c| c.index < cell.index && !c.outputs.is_clear())
        {
            return true;
        }
        if !cell.outputs.is_clear() && self.namespace_readers.iter().any(|&r| r > cell.index) {
            return true;
        }
        if !self.unresolved.is_clear() {
            let first_hidden = self.hidden_binders[0];
            if self.hidden_binders.contains(&cell.index)
                && model
                    .code_cells()
                    .any(|c| c.index > cell.index && c.pre.intersects(&self.unresolved))
            {
                return true;
            }
            if cell.index > first_hidden && cell.pre.intersects(&self.unresolved) {
                return true;
            }
        }
        let own = self
            .own_body_reads
            .iter()
            .find(|(c, _)| *c == cell.index)
            .map(|(_, set)| set);
        // Another cell's function or method reads what this cell binds.
        let read_elsewhere = self
            .own_body_reads
            .iter()
            .any(|(c, reads)| *c != cell.index && reads.intersects(&cell.outputs));
        let reads_elsewhere = own.is_some_and(|reads| {
            model
                .code_cells()
                .any(|c| c.index != cell.index && c.outputs.intersects(reads))
        });
        read_elsewhere || reads_elsewhere
    }
}

/// The cells that may read any name: their own code runs code nbsight cannot
/// read, or they read a user function or class (methods included) whose
/// body does.
fn namespace_readers(model: &NotebookModel) -> Vec<usize> {
    let mut callables = VarSet::new();
    for cell in model.code_cells() {
        let Some(compiled) = cell.compiled.as_deref() else {
            continue;
        };
        for (name, function) in &compiled.summary.functions {
            if function.reads_namespace
                && let Some(v) = model.vars.get(root(name))
            {
                callables.insert(v);
            }
        }
    }
    model
        .code_cells()
        .filter(|cell| {
            cell.compiled.as_deref().is_some_and(|c| {
                c.summary.reads_namespace
                    || (!callables.is_clear()
                        && (cell.pre.intersects(&callables)
                            || c.program
                                .stmts
                                .iter()
                                .any(|s| s.reads.iter().any(|v| callables.contains(*v)))))
            })
        })
        .map(|c| c.index)
        .collect()
}

/// The identifiers written in `source`.
pub(crate) fn identifiers(source: &str) -> impl Iterator<Item = &str> {
    source
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_alphabetic() || c == '_'))
}
