//! ## What it reports
//! A name a code cell binds that nothing reads afterwards: not the cell
//! itself, not a later cell, not a user function. Off by default.
//!
//! ## Why it matters
//! An unused result is dead code, or a sign that a later cell reads a
//! different name than intended (a typo, a renamed variable).
//!
//! ## Example
//! ```python
//! # %%
//! import pandas as pd
//!
//! # %%
//! orders = pd.read_csv("orders.csv")
//! raw_count = len(orders)
//!
//! # %%
//! orders = orders.dropna()
//! orders["amount"].mean()
//! ```
//!
//! `nbsight check --select unused-definition` reports:
//! ```text
//! cell 1:2:13: NBS202 `raw_count` is defined here but never read afterwards
//! ```
//!
//! ## Not reported
//! - Names starting with `_`.
//! - Function definitions.
//! - `from __future__ import ...`: a compiler directive, never read.
//! - Imports made for what importing does (`from mpl_toolkits import
//!   mplot3d` registers the 3d projection, `import seaborn` set the style
//!   in old versions, `from sklearn.experimental import
//!   enable_iterative_imputer`).
//! - A name the cell itself reads anywhere, also in the statement that
//!   binds it (`total = total + x`), or that the body of a user function,
//!   method or lambda reads (a class read only inside another class's
//!   method).
//! - A name only deleted (`del x`), or that a later cell deletes: the
//!   deletion needs the binding.
//! - A name a later cell that does not parse writes (it may read it there),
//!   and anything defined before a cell that runs code nbsight cannot see
//!   (`%run`, `exec`).
//! - A name read through code in a string (`eval("df8 + 1")`,
//!   `globals()["df8"]`), and anything defined before (or in) a cell that
//!   may read any name: it evaluates code nbsight cannot read (`eval(expr)`,
//!   `exec(expr)`), reads the namespace as a dict (`globals()[key]`,
//!   `"{x}".format(**locals())`), or calls a user function or class whose
//!   body does (a `display('df8', 'pd.merge(df8, df9)')` helper whose
//!   method evaluates the strings it is given).

use crate::driver::Driver;
use crate::finding::Finding;
use crate::hidden::OutOfSight;
use crate::registry::Rule;
use nbsight_dataflow::global_state::imported_for_effect;
use nbsight_model::program::WriteKind;
use nbsight_model::{CellInfo, NotebookModel, Var};
use nbsight_notebook::OneIndexed;

pub(crate) const DRIVER: Driver = Driver::new("unused_definition", unused_definitions);

/// Every name a code cell binds that nothing afterwards reads.
fn unused_definitions(model: &NotebookModel, findings: &mut Vec<Finding>) {
    let cells: Vec<_> = model.code_cells().collect();
    let hidden = OutOfSight::of(model);
    for (position, cell) in cells.iter().enumerate() {
        let Some(compiled) = cell.compiled.as_deref() else {
            continue;
        };
        for v in compiled.defs.iter() {
            let name = model.vars.name(v);
            if name.starts_with('_') || model.functions.contains_key(&v) {
                continue;
            }
            // `from __future__ import division` is a compiler directive,
            // not a name to read.
            // Nor is an import made for its effect (`mplot3d`).
            let directive_or_effect = compiled.imports.iter().any(|(x, qualified)| {
                *x == v && (qualified.starts_with("__future__.") || imported_for_effect(qualified))
            });
            if directive_or_effect {
                continue;
            }
            // `del x` unbinds, it defines nothing.
            let only_deleted = compiled
                .program
                .stmts
                .iter()
                .flat_map(|s| s.writes.iter())
                .filter(|(w, _)| *w == v)
                .all(|(_, kind)| *kind == WriteKind::Delete);
            if only_deleted {
                continue;
            }
            let read_here = compiled.program.stmts.iter().any(|s| s.reads.contains(&v));
            // A later `del v` needs the binding (and ending the object may
            // matter: a memory map writes its data to disk).
            let read_later = cells[position + 1..]
                .iter()
                .any(|later| later.pre.contains(v) || deletes(later, v));
            // Any function, method or lambda body; a cell that does not parse
            // and writes the name; code run out of sight (`%run`, `exec`).
            let read_out_of_sight = hidden.body_reads.contains(v)
                || hidden.broken_after_mentions(cell.index, v)
                || hidden.hidden_code_after(model, cell.index)
                || hidden.namespace_read_from(cell.index);
            if read_here || read_later || read_out_of_sight {
                continue;
            }
            let location = compiled
                .program
                .first_write(v)
                .unwrap_or((OneIndexed::MIN, OneIndexed::MIN));
            findings.push(Finding::new(
                model,
                Rule::UnusedDefinition,
                cell.index,
                location,
                format!("`{name}` is defined here but never read afterwards"),
                vec![cell.index],
            ));
        }
    }
}

/// Some statement of `cell` deletes `v` (`del v`).
fn deletes(cell: &CellInfo, v: Var) -> bool {
    cell.program().is_some_and(|p| {
        p.stmts
            .iter()
            .flat_map(|s| s.writes.iter())
            .any(|&(w, kind)| w == v && kind == WriteKind::Delete)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_dataflow::Effects;
    use nbsight_model::testing::notebook;

    /// The messages of the findings.
    fn unused(sources: &[&str]) -> Vec<String> {
        let model = NotebookModel::new(&notebook(sources), &Effects::builtin());
        let mut findings = Vec::new();
        unused_definitions(&model, &mut findings);
        findings
            .iter()
            .map(|f| format!("cell {}: {}", f.cell.index(), f.message))
            .collect()
    }

    #[test]
    fn names_read_through_code_in_strings_are_read() {
        let found = unused(&[
            "import pandas as pd",
            "class display(object):\n    def __init__(self, *args):\n        self.args = args\n    def _repr_html_(self):\n        return '\\n'.join(repr(eval(a)) for a in self.args)",
            "df1 = pd.DataFrame({'a': [1]})\ndf2 = pd.DataFrame({'a': [2]})",
            "display('df1', 'pd.concat([df1, df2])')",
            "rate = 0.5",
            "print(eval('rate * 2'))",
            "limit = 3",
            "print(globals()['limit'])",
            "shown = 4",
            "print('{shown}'.format(**locals()))",
            "unused_late = 1",
        ]);
        assert_eq!(
            found,
            ["cell 10: `unused_late` is defined here but never read afterwards"]
        );
    }

    #[test]
    fn names_bound_through_the_namespace_are_out_of_sight() {
        // `globals()[name] = ...` runs bindings nbsight cannot see: what
        // comes before may be read by code it cannot see either.
        let found = unused(&["value = 1", "for name in ['x']:\n    globals()[name] = 0"]);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn imports_made_for_their_effect_are_not_reported() {
        let found = unused(&[
            "from mpl_toolkits import mplot3d",
            "from mpl_toolkits.mplot3d import Axes3D",
            "import seaborn",
            "from sklearn.experimental import enable_iterative_imputer",
            "import json",
            "from IPython.display import display, Image\ndef show(a):\n    display(Image(data=a))",
        ]);
        assert_eq!(
            found,
            ["cell 4: `json` is defined here but never read afterwards"]
        );
    }
}
