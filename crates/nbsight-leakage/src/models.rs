//! What the leakage state keeps of models: each model trained (where, on
//! which data, in a loop or not) and, per test split, the models evaluated
//! on it, which multi-test leakage compares.

use std::rc::Rc;

use smallvec::SmallVec;

use crate::value::{Site, Val};

/// A trained model: the data it was trained on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Trained {
    pub(crate) site: Site,
    pub(crate) data: Val,
    pub(crate) in_loop: bool,
    /// The splits whose held-out side its training monitored to stop early
    /// (`fit(..., eval_set=[(X_test, y_test)], early_stopping_rounds=10)`),
    /// sorted: they chose the model.
    pub(crate) monitored: SmallVec<[Site; 1]>,
}

/// For each test split (sorted), the models evaluated on it (sorted).
pub(crate) type Evals = Vec<(Site, SmallVec<[Site; 2]>)>;

/// The models evaluated on `split` in `evals`.
pub(crate) fn evals_entry(evals: &Evals, split: Site) -> Option<&SmallVec<[Site; 2]>> {
    evals
        .binary_search_by_key(&split, |(s, _)| *s)
        .ok()
        .map(|i| &evals[i].1)
}

/// Was `model` evaluated on `split` in `evals`?
pub(crate) fn evaluated_in(evals: &Evals, split: Site, model: Site) -> bool {
    evals_entry(evals, split).is_some_and(|models| models.contains(&model))
}

/// Records in `evals` that `model` was evaluated on test split `split`;
/// returns the number of models evaluated on it so far, and whether `model`
/// is new.
pub(crate) fn record_evaluation(evals: &mut Rc<Evals>, split: Site, model: Site) -> (usize, bool) {
    let i = match evals.binary_search_by_key(&split, |(s, _)| *s) {
        Ok(i) => i,
        Err(i) => {
            Rc::make_mut(evals).insert(i, (split, SmallVec::new()));
            i
        }
    };
    match evals[i].1.binary_search(&model) {
        Ok(_) => (evals[i].1.len(), false),
        Err(at) => {
            let models = &mut Rc::make_mut(evals)[i].1;
            models.insert(at, model);
            (models.len(), true)
        }
    }
}
