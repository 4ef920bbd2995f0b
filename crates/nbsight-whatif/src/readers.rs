//! Which code cells read each variable (their `pre`): the cells the
//! code-impact domain's φ can hold for, found from the changed variables
//! instead of testing every cell. Explorations that follow the code-impact
//! edges only (a candidate's consequences) scan these cells each round.

use fixedbitset::FixedBitSet;
use nbsight_model::NotebookModel;
use nbsight_model::vars::VarSet;

/// The code cells reading each variable, by variable id.
#[derive(Debug, Default)]
pub(crate) struct Readers {
    cells: Vec<Vec<u32>>,
    len: usize,
}

impl Readers {
    pub(crate) fn of(model: &NotebookModel) -> Readers {
        let mut cells: Vec<Vec<u32>> = Vec::new();
        for cell in model.code_cells() {
            for v in cell.pre.iter() {
                let at = v.index();
                if cells.len() <= at {
                    cells.resize_with(at + 1, Vec::new);
                }
                cells[at].push(cell.index as u32);
            }
        }
        Readers {
            cells,
            len: model.cells.len(),
        }
    }

    /// Sets in `into` (cleared first) the code cells reading a variable of
    /// `vars`: those whose `pre` meets it.
    pub(crate) fn of_any(&self, vars: &VarSet, into: &mut FixedBitSet) {
        into.clear();
        into.grow(self.len);
        for v in vars.iter() {
            for &cell in self.cells.get(v.index()).map_or(&[][..], |c| &c[..]) {
                into.insert(cell as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use nbsight_dataflow::Effects;

    use super::*;
    use nbsight_model::testing::notebook;

    /// The cells found are exactly those whose `pre` meets the variables.
    #[test]
    fn readers_are_the_cells_whose_pre_meets_the_variables() {
        let model = NotebookModel::new(
            &notebook(&["a = 1\nb = 2", "c = a", "d = b + c", "print(a)", "e = 5"]),
            &Effects::builtin(),
        );
        let readers = Readers::of(&model);
        let mut found = FixedBitSet::new();
        for names in [&["a"][..], &["b", "c"], &["e"], &[]] {
            let vars = VarSet::from_iter(names.iter().filter_map(|n| model.vars.get(n)));
            readers.of_any(&vars, &mut found);
            let expected: Vec<usize> = model
                .code_cells()
                .filter(|c| c.pre.intersects(&vars))
                .map(|c| c.index)
                .collect();
            assert_eq!(found.ones().collect::<Vec<_>>(), expected, "{names:?}");
        }
    }
}
