//! The rules' files, one per rule: each opens with the `//!` comment that is
//! its documentation and holds its driver and its messages (the three
//! leakage rules share [`leakage_orders`]'s; `stale-state-risk` is raised by
//! the what-if session and has none). [`driver`] says which driver reports
//! each rule; the registry (`crate::registry`) the rest.

pub mod isolated_cell;
pub mod leakage_orders;
pub mod leakage_with_cells_skipped;
pub mod multi_test_leakage;
mod order_fails;
pub mod overlap_leakage;
pub mod preprocessing_leakage;
pub mod stale_saved_output;
pub mod stale_state_risk;
pub mod undefined_on_run_all;
pub mod unused_definition;

use crate::driver::Driver;
use crate::registry::Rule;

/// The `nbsight check` driver of `rule`, `None` for a what-if-only rule.
pub fn driver(rule: Rule) -> Option<Driver> {
    Some(match rule {
        Rule::UndefinedOnRunAll => undefined_on_run_all::DRIVER,
        Rule::StaleSavedOutput => stale_saved_output::DRIVER,
        Rule::PreprocessingLeakage
        | Rule::OverlapLeakage
        | Rule::MultiTestLeakage
        | Rule::LeakageWithCellsSkipped => leakage_orders::DRIVER,
        Rule::IsolatedCell => isolated_cell::DRIVER,
        Rule::UnusedDefinition => unused_definition::DRIVER,
        Rule::StaleStateRisk => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule has a driver exactly when the registry says `nbsight check`
    /// reports it.
    #[test]
    fn drivers_agree_with_the_registry() {
        for rule in Rule::ALL {
            assert_eq!(
                driver(rule).is_some(),
                rule.meta().is_check_rule(),
                "{rule:?}"
            );
        }
    }
}
