//! NBLyzer's cell classes over the corpus: how many code cells (those that
//! parsed, which `classify_cells` classifies) are isolated, safe to edit or at
//! risk of reading stale values, next to the shares NBLyzer reports.

use nbsight_whatif::CellClass;

/// NBLyzer's shares (sec. 4.1, their corpus), in percent: isolated,
/// safe-to-edit ("fresh"), stale-risk. The classes overlap.
pub const NBLYZER_PERCENT: [(&str, f64); 3] = [
    ("isolated", 14.0),
    ("safe-to-edit", 74.0),
    ("stale-risk", 24.0),
];

/// Counts of classified cells.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClassCounts {
    /// Notebooks with at least one classified cell.
    pub notebooks: usize,
    pub cells: usize,
    pub isolated: usize,
    pub safe_to_edit: usize,
    pub stale_risk: usize,
}

impl ClassCounts {
    /// Adds one notebook's classes.
    pub fn add(&mut self, classes: &[CellClass]) {
        if classes.is_empty() {
            return;
        }
        self.notebooks += 1;
        self.cells += classes.len();
        self.isolated += classes.iter().filter(|c| c.isolated).count();
        self.safe_to_edit += classes.iter().filter(|c| c.safe_to_edit).count();
        self.stale_risk += classes.iter().filter(|c| c.stale_risk).count();
    }

    /// `count` as a percentage of the classified cells (`None` without cells).
    pub fn percent(&self, count: usize) -> Option<f64> {
        (self.cells > 0).then(|| 100.0 * count as f64 / self.cells as f64)
    }

    /// (class, count, percent of cells, NBLyzer's percent), in
    /// [`NBLYZER_PERCENT`]'s order.
    pub fn shares(&self) -> [(&'static str, usize, Option<f64>, f64); 3] {
        let counts = [self.isolated, self.safe_to_edit, self.stale_risk];
        std::array::from_fn(|i| {
            let (name, theirs) = NBLYZER_PERCENT[i];
            (name, counts[i], self.percent(counts[i]), theirs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(cell: usize, isolated: bool, safe_to_edit: bool, stale_risk: bool) -> CellClass {
        CellClass {
            cell: nbsight_notebook::CellIndex::new(cell),
            isolated,
            safe_to_edit,
            stale_risk,
        }
    }

    #[test]
    fn counts_and_shares_over_notebooks() {
        let mut counts = ClassCounts::default();
        counts.add(&[
            class(0, true, true, false),
            class(1, false, false, false),
            class(3, false, true, true),
        ]);
        counts.add(&[]);
        counts.add(&[class(0, false, true, true)]);
        assert_eq!(
            counts,
            ClassCounts {
                notebooks: 2,
                cells: 4,
                isolated: 1,
                safe_to_edit: 3,
                stale_risk: 2,
            }
        );
        let shares = counts.shares();
        assert_eq!(shares[0], ("isolated", 1, Some(25.0), 14.0));
        assert_eq!(shares[1], ("safe-to-edit", 3, Some(75.0), 74.0));
        assert_eq!(shares[2], ("stale-risk", 2, Some(50.0), 24.0));
    }

    #[test]
    fn no_cells_no_share() {
        let counts = ClassCounts::default();
        assert_eq!(counts.percent(0), None);
        assert!(counts.shares().iter().all(|s| s.2.is_none()));
    }
}
