//! The rules `nbsight check` knows: stable codes and names, default on/off,
//! severity, and the selection logic (ruff's conventions: `--select`,
//! `--ignore`, `--extend-select`; a selector is `ALL`, a rule name, a code or a
//! code prefix; the most specific selector wins, ignore beats select on a tie).

use nbsight_whatif::AlarmKind;

use crate::finding::Severity;

/// A rule of `nbsight check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    UndefinedOnRunAll,
    StaleSavedOutput,
    PreprocessingLeakage,
    OverlapLeakage,
    MultiTestLeakage,
    IsolatedCell,
    UnusedDefinition,
    /// What-if only: a cell could read a stale value after the event.
    StaleStateRisk,
}

impl Rule {
    pub const ALL: [Rule; 8] = [
        Rule::UndefinedOnRunAll,
        Rule::StaleSavedOutput,
        Rule::PreprocessingLeakage,
        Rule::OverlapLeakage,
        Rule::MultiTestLeakage,
        Rule::IsolatedCell,
        Rule::UnusedDefinition,
        Rule::StaleStateRisk,
    ];

    /// The stable code. `NBS0xx` Run-All and state rules, `NBS1xx` leakage,
    /// `NBS2xx` informational.
    pub fn code(self) -> &'static str {
        match self {
            Rule::UndefinedOnRunAll => "NBS001",
            Rule::StaleSavedOutput => "NBS002",
            Rule::PreprocessingLeakage => "NBS101",
            Rule::OverlapLeakage => "NBS102",
            Rule::MultiTestLeakage => "NBS103",
            Rule::IsolatedCell => "NBS201",
            Rule::UnusedDefinition => "NBS202",
            Rule::StaleStateRisk => "NBS003",
        }
    }

    /// The stable name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::UndefinedOnRunAll => "undefined-on-run-all",
            Rule::StaleSavedOutput => "stale-saved-output",
            Rule::PreprocessingLeakage => "preprocessing-leakage",
            Rule::OverlapLeakage => "overlap-leakage",
            Rule::MultiTestLeakage => "multi-test-leakage",
            Rule::IsolatedCell => "isolated-cell",
            Rule::UnusedDefinition => "unused-definition",
            Rule::StaleStateRisk => "stale-state-risk",
        }
    }

    /// One line saying what the rule finds (help texts, SARIF).
    pub fn summary(self) -> &'static str {
        match self {
            Rule::UndefinedOnRunAll => {
                "A cell reads a name that no earlier cell defines: Restart & Run All fails there"
            }
            Rule::StaleSavedOutput => {
                "Saved outputs were computed before a cell they depend on was last run, or in an order Run All would not reproduce"
            }
            Rule::PreprocessingLeakage => {
                "Statistics are fitted on data that is later split into train and test sets"
            }
            Rule::OverlapLeakage => {
                "Test rows reach the training set: oversampling, augmentation or duplication before the split"
            }
            Rule::MultiTestLeakage => {
                "The same test set is used to choose among models or hyper-parameters"
            }
            Rule::IsolatedCell => "A cell neither reads nor provides anything other cells use",
            Rule::UnusedDefinition => "A name is defined but no later cell reads it",
            Rule::StaleStateRisk => {
                "(whatif only) After the event, running a cell before the cell it depends on reads a stale value"
            }
        }
    }

    pub fn severity(self) -> Severity {
        match self {
            Rule::UndefinedOnRunAll => Severity::Error,
            Rule::StaleSavedOutput
            | Rule::StaleStateRisk
            | Rule::PreprocessingLeakage
            | Rule::OverlapLeakage
            | Rule::MultiTestLeakage => Severity::Warning,
            Rule::IsolatedCell | Rule::UnusedDefinition => Severity::Info,
        }
    }

    /// On unless the user deselects it.
    pub fn enabled_by_default(self) -> bool {
        self.severity() != Severity::Info && self.is_check_rule()
    }

    /// Reported once per cell (its alarms in one cell are one problem).
    pub fn one_per_cell(self) -> bool {
        matches!(
            self,
            Rule::PreprocessingLeakage | Rule::OverlapLeakage | Rule::MultiTestLeakage
        )
    }

    /// Reported by `nbsight check` (the others only by `nbsight whatif`).
    pub fn is_check_rule(self) -> bool {
        self != Rule::StaleStateRisk
    }

    /// The rule of a what-if alarm.
    pub fn for_alarm(kind: AlarmKind) -> Rule {
        match kind {
            AlarmKind::StaleState => Rule::StaleStateRisk,
            AlarmKind::PreprocessingLeakage => Rule::PreprocessingLeakage,
            AlarmKind::OverlapLeakage => Rule::OverlapLeakage,
            AlarmKind::MultiTestLeakage => Rule::MultiTestLeakage,
        }
    }

    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }

    pub fn from_code(code: &str) -> Option<Rule> {
        Rule::ALL
            .into_iter()
            .find(|r| r.code().eq_ignore_ascii_case(code))
    }
}

/// A selector that matches no rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown rule selector `{0}` (expected ALL, a rule name such as `preprocessing-leakage`, or a code or code prefix such as `NBS1`)"
)]
pub struct UnknownSelector(pub String);

/// How specifically a selector names a rule (higher wins).
fn specificity(selector: &str, rule: Rule) -> Option<usize> {
    if selector.eq_ignore_ascii_case("ALL") {
        return Some(0);
    }
    if selector == rule.name() {
        return Some(usize::MAX);
    }
    let upper = selector.to_ascii_uppercase();
    rule.code().starts_with(&upper).then_some(upper.len())
}

/// Checks that every selector matches at least one rule.
pub fn validate_selectors<'a>(
    selectors: impl IntoIterator<Item = &'a str>,
) -> Result<(), UnknownSelector> {
    for selector in selectors {
        if !Rule::ALL
            .into_iter()
            .any(|rule| specificity(selector, rule).is_some())
        {
            return Err(UnknownSelector(selector.to_string()));
        }
    }
    Ok(())
}

/// The set of enabled rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleSet {
    bits: u32,
}

impl Default for RuleSet {
    /// The rules on by default.
    fn default() -> Self {
        RuleSet::from_rules(Rule::ALL.into_iter().filter(|r| r.enabled_by_default()))
    }
}

impl RuleSet {
    pub fn from_rules(rules: impl IntoIterator<Item = Rule>) -> Self {
        let mut set = RuleSet { bits: 0 };
        for rule in rules {
            set.bits |= 1 << rule as u32;
        }
        set
    }

    /// Every rule `nbsight check` has.
    pub fn all() -> Self {
        RuleSet::from_rules(Rule::ALL.into_iter().filter(|r| r.is_check_rule()))
    }

    pub fn contains(self, rule: Rule) -> bool {
        self.bits & (1 << rule as u32) != 0
    }

    pub fn iter(self) -> impl Iterator<Item = Rule> {
        Rule::ALL.into_iter().filter(move |r| self.contains(*r))
    }

    /// Ruff's resolution: `select` (when given) replaces the defaults,
    /// `extend_select` adds to them, `ignore` removes; for each rule the most
    /// specific matching selector decides, and `ignore` wins a tie.
    pub fn resolve(
        select: Option<&[String]>,
        extend_select: &[String],
        ignore: &[String],
    ) -> Result<Self, UnknownSelector> {
        let all = select
            .into_iter()
            .flatten()
            .chain(extend_select)
            .chain(ignore);
        validate_selectors(all.map(String::as_str))?;
        let best = |selectors: &[String], rule: Rule| {
            selectors.iter().filter_map(|s| specificity(s, rule)).max()
        };
        let rules = Rule::ALL
            .into_iter()
            .filter(|r| r.is_check_rule())
            .filter(|&rule| {
                let base = match select {
                    Some(select) => best(select, rule),
                    None => rule.enabled_by_default().then_some(0),
                };
                let on = base.max(best(extend_select, rule));
                match (on, best(ignore, rule)) {
                    (None, _) => false,
                    (Some(_), None) => true,
                    (Some(on), Some(off)) => on > off,
                }
            });
        Ok(RuleSet::from_rules(rules))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn defaults_leave_informational_rules_off() {
        let set = RuleSet::default();
        assert!(set.contains(Rule::PreprocessingLeakage));
        assert!(!set.contains(Rule::IsolatedCell));
        assert!(!set.contains(Rule::UnusedDefinition));
    }

    #[test]
    fn codes_and_names_are_unique() {
        for a in Rule::ALL {
            for b in Rule::ALL {
                if a != b {
                    assert_ne!(a.code(), b.code());
                    assert_ne!(a.name(), b.name());
                }
            }
            assert_eq!(Rule::from_name(a.name()), Some(a));
            assert_eq!(Rule::from_code(a.code()), Some(a));
        }
    }

    #[test]
    fn selection_follows_ruff() {
        let set = RuleSet::resolve(Some(&strings(&["NBS1"])), &[], &strings(&["NBS103"])).unwrap();
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            vec![Rule::PreprocessingLeakage, Rule::OverlapLeakage]
        );
        let set = RuleSet::resolve(None, &strings(&["isolated-cell"]), &[]).unwrap();
        assert!(set.contains(Rule::IsolatedCell) && set.contains(Rule::UndefinedOnRunAll));
        // The more specific selector wins: ignore NBS1 but select NBS101.
        let set = RuleSet::resolve(Some(&strings(&["NBS101"])), &[], &strings(&["NBS1"])).unwrap();
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            vec![Rule::PreprocessingLeakage]
        );
        let set = RuleSet::resolve(Some(&strings(&["ALL"])), &[], &[]).unwrap();
        assert_eq!(set, RuleSet::all());
        assert!(!set.contains(Rule::StaleStateRisk), "what-if only");
        assert!(RuleSet::resolve(Some(&strings(&["NBX"])), &[], &[]).is_err());
    }
}
