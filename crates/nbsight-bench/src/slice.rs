//! Static slicing over the corpus (issue 9): for each notebook, building the
//! [`Slicer`] and taking the backward slice by statements of every code cell
//! that parsed, timed as the median of the iterations after warm-up runs
//! (the notebook is loaded beforehand, untimed). The slice-size ratios (by
//! statements and by cells) come from a first, untimed run.

use std::hint::black_box;
use std::time::Duration;

use nbsight_dataflow::Effects;
use nbsight_notebook::Notebook;
use nbsight_slice::{Granularity, Slicer};

use crate::stats::median_time;

/// NBSlicer's mean backward slice-size ratio (seed 004, Table 1: sessions,
/// the last statement sliced) and nbgather's on the same sessions.
pub const NBSLICER_MEAN_RATIO: f64 = 0.1022;
pub const NBGATHER_MEAN_RATIO: f64 = 0.2978;

/// Slice-size ratios summed over targets.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RatioSums {
    /// Cells sliced (code cells that parsed).
    pub targets: usize,
    pub by_statements: f64,
    pub by_cells: f64,
}

impl RatioSums {
    pub fn add(&mut self, other: RatioSums) {
        self.targets += other.targets;
        self.by_statements += other.by_statements;
        self.by_cells += other.by_cells;
    }

    /// Mean ratios (by statements, by cells), `None` without targets.
    pub fn means(&self) -> Option<(f64, f64)> {
        (self.targets > 0).then(|| {
            let n = self.targets as f64;
            (self.by_statements / n, self.by_cells / n)
        })
    }
}

/// The cells a slice can start from: code cells that parsed.
fn targets(slicer: &Slicer) -> Vec<usize> {
    let broken: Vec<usize> = slicer
        .broken_cells()
        .iter()
        .map(|(c, _)| c.index())
        .collect();
    slicer
        .code_cells()
        .filter(|c| !broken.contains(c))
        .collect()
}

/// The timed workload: the slicer, then every backward slice by statements.
fn workload(notebook: &Notebook, effects: &Effects) -> usize {
    let slicer = Slicer::new(notebook, effects);
    let mut statements = 0;
    for cell in targets(&slicer) {
        if let Ok(slice) = slicer.backward(cell, Granularity::Statements) {
            statements += black_box(slice).statements_in_slice;
        }
    }
    statements
}

/// The median time of the workload, and the ratios.
pub fn measure(
    notebook: &Notebook,
    effects: &Effects,
    warmup: usize,
    iterations: usize,
) -> (Duration, RatioSums) {
    let slicer = Slicer::new(notebook, effects);
    let mut sums = RatioSums::default();
    for cell in targets(&slicer) {
        let by_statements = slicer.backward(cell, Granularity::Statements);
        let by_cells = slicer.backward(cell, Granularity::Cells);
        if let (Ok(s), Ok(c)) = (by_statements, by_cells) {
            sums.targets += 1;
            sums.by_statements += s.ratio;
            sums.by_cells += c.ratio;
        }
    }
    let time = median_time(warmup, iterations, || {
        workload(black_box(notebook), effects)
    });
    (time, sums)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_over_targets() {
        let mut sums = RatioSums::default();
        assert_eq!(sums.means(), None);
        sums.add(RatioSums {
            targets: 2,
            by_statements: 0.5,
            by_cells: 1.0,
        });
        sums.add(RatioSums {
            targets: 2,
            by_statements: 0.3,
            by_cells: 1.0,
        });
        assert_eq!(sums.means(), Some((0.2, 0.5)));
    }

    #[test]
    fn slices_every_code_cell() {
        let notebook = nbsight_notebook::load_percent_str(
            std::path::Path::new("t.py"),
            "# %%\nx = 1\n# %%\ny = (\n# %%\nprint(x)\n",
        );
        let (time, sums) = measure(&notebook, &Effects::builtin(), 0, 1);
        assert!(time > Duration::ZERO);
        assert_eq!(sums.targets, 2);
    }
}
