//! The order a saved notebook says its cells ran in: the cells with an
//! `execution_count`, in count order, and whether that is one order at all
//! (counts that repeat come from several kernel sessions).

use crate::NotebookModel;

impl NotebookModel {
    /// The cells with a saved execution count, in count order.
    pub fn saved_order(&self) -> Vec<usize> {
        let mut counted: Vec<(u32, usize)> = self
            .cells
            .iter()
            .filter_map(|c| c.execution_count.map(|n| (n, c.index)))
            .collect();
        counted.sort_unstable();
        counted.into_iter().map(|(_, i)| i).collect()
    }

    /// Whether the saved counts are one kernel session's order: no count
    /// repeats.
    pub fn saved_order_is_known(&self) -> bool {
        let mut counts: Vec<u32> = self
            .cells
            .iter()
            .filter_map(|c| c.execution_count)
            .collect();
        counts.sort_unstable();
        counts.windows(2).all(|w| w[0] != w[1])
    }
}
