//! The global random generators (numpy's, Python's `random`, torch's,
//! TensorFlow's): a call that draws from one (`np.random.rand(3)`,
//! `train_test_split(X)` without `random_state`) reads its state, a call
//! that seeds it (`np.random.seed(0)`) sets it. Each generator's state is a
//! symbol of its own (`<random state: numpy>`), so what was drawn before a
//! seed is stale after it and a seed cell is in the slice of what it made
//! reproducible. The roles come from the library-effects knowledge base.

use nbsight_dataflow::CallSite;
use nbsight_dataflow::effects::Role;
use ruff_text_size::TextRange;

/// What a call does to a global random generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RandomUse {
    Draw,
    Seed,
}

/// A call of a cell's module code that draws from or seeds a global
/// random generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RandomCall {
    pub range: TextRange,
    /// The symbol of the generator's state.
    pub state: &'static str,
    pub used: RandomUse,
}

/// The symbol of the state of the generator a qualified function uses.
fn state_of(callee: &str) -> &'static str {
    match callee.split('.').next().unwrap_or(callee) {
        "random" => "<random state: random>",
        "torch" => "<random state: torch>",
        "tensorflow" | "keras" => "<random state: tensorflow>",
        // numpy's own, and what draws from it (scikit-learn, scipy,
        // pandas).
        _ => "<random state: numpy>",
    }
}

/// The calls among `calls` (a module's recorded call sites) that draw from
/// or seed a global random generator; a call given its own `random_state`
/// or `seed` draws from that instead.
pub(crate) fn random_calls(calls: &[CallSite]) -> Vec<RandomCall> {
    calls
        .iter()
        .filter(|c| !c.method)
        .filter_map(|c| {
            let used = if c.has_role(Role::SeedRandom) {
                RandomUse::Seed
            } else if c.has_role(Role::GlobalRandom)
                && c.keyword("random_state").is_none()
                && c.keyword("seed").is_none()
            {
                RandomUse::Draw
            } else {
                return None;
            };
            Some(RandomCall {
                range: c.range,
                state: state_of(&c.callee),
                used,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_library_has_its_generator() {
        assert_eq!(state_of("numpy.random.rand"), "<random state: numpy>");
        assert_eq!(
            state_of("sklearn.model_selection.train_test_split"),
            "<random state: numpy>"
        );
        assert_eq!(state_of("random.choice"), "<random state: random>");
        assert_eq!(state_of("torch.manual_seed"), "<random state: torch>");
    }
}
