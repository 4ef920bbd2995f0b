//! The last writer of each variable, as the re-run plan tracks it (the
//! kernel the history left, then the plan's runs): a map from variables,
//! which are dense ids, to cell positions, kept as a vector.

use nbsight_model::vars::Var;

/// The cell that last wrote each variable (none for variables never
/// written).
#[derive(Debug, Clone, Default)]
pub(crate) struct LastWriters(Vec<Option<usize>>);

impl LastWriters {
    /// `cell` wrote `v` last.
    pub(super) fn insert(&mut self, v: Var, cell: usize) {
        let i = v.index();
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        self.0[i] = Some(cell);
    }

    /// The cell that wrote `v` last.
    pub(super) fn get(&self, v: Var) -> Option<usize> {
        self.0.get(v.index()).copied().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_insert_wins_and_unwritten_is_none() {
        let (a, b) = (Var::from_usize(0), Var::from_usize(5));
        let mut last = LastWriters::default();
        assert_eq!(last.get(b), None);
        last.insert(b, 3);
        last.insert(b, 7);
        assert_eq!((last.get(a), last.get(b)), (None, Some(7)));
        last.insert(a, 1);
        assert_eq!((last.get(a), last.get(b)), (Some(1), Some(7)));
        assert_eq!(last.get(Var::from_usize(100)), None);
    }
}
