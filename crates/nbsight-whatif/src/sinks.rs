//! Which cells can lead to a cell where an alarm is possible: only the
//! leakage domain raises alarms, at cells with train, predict, evaluate or
//! cross-validate calls (`ml_sinks`). Running a cell changes what it
//! outputs; a cell reading one of those runs next, and so on. A query asks
//! this of many candidate next cells, so the cells that can reach a sink
//! are found once, backwards from the sinks, instead of closing each
//! candidate's changes forwards.

use fixedbitset::FixedBitSet;
use nbsight_model::NotebookModel;
use nbsight_model::vars::VarSet;

/// The code cells of a model from which a run can reach a sink.
#[derive(Debug, Clone)]
pub(crate) struct SinkReach {
    reaches: FixedBitSet,
}

impl SinkReach {
    /// Cell `a` reaches a sink when it is one, or when it outputs a
    /// variable that some cell reaching a sink reads (that cell then runs
    /// on what `a` changed): the least set closed under this, grown from
    /// the sinks until it stops.
    pub(crate) fn of(model: &NotebookModel) -> SinkReach {
        let mut reaches = FixedBitSet::with_capacity(model.cells.len());
        // What the cells found so far read.
        let mut read = VarSet::new();
        for cell in model.code_cells() {
            if is_sink(model, cell.index) {
                reaches.insert(cell.index);
                read.union_with(&cell.pre);
            }
        }
        loop {
            let mut grew = false;
            for cell in model.code_cells() {
                if !reaches.contains(cell.index) && cell.outputs.intersects(&read) {
                    reaches.insert(cell.index);
                    read.union_with(&cell.pre);
                    grew = true;
                }
            }
            if !grew {
                return SinkReach { reaches };
            }
        }
    }

    /// Can running `start` (and then whatever its changes propagate to,
    /// along any order) reach a sink? The cells reachable from `start` are
    /// over-approximated by closing the changed variables over every cell
    /// that reads one of them.
    pub(crate) fn from(&self, start: usize) -> bool {
        self.reaches.contains(start)
    }
}

/// Do `a` and `b` give the same [`SinkReach`]? It reads, of each cell,
/// whether it is code, what it reads and outputs and whether it is a sink:
/// the same when the cells are shared, or equal there (an edit that kept
/// the cell's program).
pub(crate) fn same_inputs(a: &NotebookModel, b: &NotebookModel) -> bool {
    a.cells.len() == b.cells.len()
        && a.cells.iter().zip(&b.cells).all(|(x, y)| {
            std::sync::Arc::ptr_eq(x, y)
                || (x.is_code() == y.is_code()
                    && x.pre == y.pre
                    && x.outputs == y.outputs
                    && is_sink(a, x.index) == is_sink(b, y.index))
        })
}

/// Cell `cell` trains, predicts, evaluates or cross-validates.
fn is_sink(model: &NotebookModel, cell: usize) -> bool {
    model.cells[cell]
        .compiled
        .as_deref()
        .is_some_and(|c| c.ml_sinks)
}

#[cfg(test)]
mod tests {
    use nbsight_dataflow::Effects;

    use super::*;
    use nbsight_model::testing::notebook;

    /// The forward closure `SinkReach` replaces: from `start`, close the
    /// changed variables over every cell reading one of them.
    fn forward(model: &NotebookModel, start: usize) -> bool {
        if is_sink(model, start) {
            return true;
        }
        let mut reached = vec![false; model.cells.len()];
        reached[start] = true;
        let mut changed = model.cells[start].outputs.clone();
        loop {
            let mut grew = false;
            for cell in model.code_cells() {
                if !reached[cell.index] && cell.pre.intersects(&changed) {
                    if is_sink(model, cell.index) {
                        return true;
                    }
                    reached[cell.index] = true;
                    changed.union_with(&cell.outputs);
                    grew = true;
                }
            }
            if !grew {
                return false;
            }
        }
    }

    #[test]
    fn agrees_with_the_forward_closure() {
        let sources = [
            "from sklearn.linear_model import LinearRegression\nimport pandas as pd",
            "df = pd.read_csv('d.csv')",
            "x = df[['a']]\ny = df['b']",
            "m = LinearRegression()",
            "m.fit(x, y)",
            "z = 1",
            "w = z + 1",
            "print(m.predict(x))",
            "df2 = df.copy()",
        ];
        let model = NotebookModel::new(&notebook(&sources), &Effects::builtin());
        let reach = SinkReach::of(&model);
        let mut seen = Vec::new();
        for cell in model.code_cells() {
            assert_eq!(
                reach.from(cell.index),
                forward(&model, cell.index),
                "cell {}",
                cell.index
            );
            seen.push(reach.from(cell.index));
        }
        // The cells leading to the fit or the prediction, and not the others.
        assert_eq!(
            seen,
            [true, true, true, true, true, false, false, true, false]
        );
    }

    #[test]
    fn agrees_with_the_forward_closure_on_the_corpus() {
        let Some(corpus) = nbsight_model::testing::corpus() else {
            return;
        };
        let effects = Effects::builtin();
        for (path, nb) in corpus {
            let model = NotebookModel::new(&nb, &effects);
            let reach = SinkReach::of(&model);
            for cell in model.code_cells() {
                assert_eq!(
                    reach.from(cell.index),
                    forward(&model, cell.index),
                    "{} cell {}",
                    path.display(),
                    cell.index
                );
            }
        }
    }
}
