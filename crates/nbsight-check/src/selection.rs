//! Which rules run, with ruff's conventions: `--select`, `--ignore`,
//! `--extend-select`; a selector is `ALL`, a rule name, a code or a code
//! prefix; the most specific selector wins, and ignore beats select on a tie.
//! A selector may name a what-if-only rule (it is a rule), but resolution
//! only ever enables rules that `nbsight check` reports.

use crate::registry::Rule;

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
    // A name is its code: as specific, wherever a code is accepted.
    if selector == rule.name() {
        return Some(rule.code().len());
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
        RuleSet::resolve_over(RuleSet::default(), select, extend_select, ignore)
    }

    /// One layer of ruff's resolution over the rules `base` enables (the
    /// defaults, or what the configuration resolved to when the command line
    /// is the layer): `select` replaces `base`, `extend_select` adds,
    /// `ignore` removes; within the layer the most specific selector decides
    /// and `ignore` wins a tie. So a command-line `--select NBS101`
    /// re-enables a rule the configuration ignores.
    pub fn resolve_over(
        base: RuleSet,
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
                    None => base.contains(rule).then_some(0),
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
    fn selection_follows_ruff() {
        let set = RuleSet::resolve(Some(&strings(&["NBS1"])), &[], &strings(&["NBS103"])).unwrap();
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            vec![
                Rule::PreprocessingLeakage,
                Rule::OverlapLeakage,
                Rule::LeakageWithCellsSkipped
            ]
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
        assert!(RuleSet::resolve(Some(&strings(&["NBS"])), &[], &[]).is_ok());
        assert!(RuleSet::resolve(Some(&strings(&["NBX"])), &[], &[]).is_err());
    }

    #[test]
    fn names_and_codes_are_interchangeable() {
        for (select, ignore) in [
            ("NBS101", "preprocessing-leakage"),
            ("preprocessing-leakage", "NBS101"),
        ] {
            let set =
                RuleSet::resolve(Some(&strings(&[select])), &[], &strings(&[ignore])).unwrap();
            assert!(
                !set.contains(Rule::PreprocessingLeakage),
                "ignore wins a tie"
            );
        }
        let set = RuleSet::resolve(
            Some(&strings(&["preprocessing-leakage"])),
            &[],
            &strings(&["NBS1"]),
        )
        .unwrap();
        assert!(
            set.contains(Rule::PreprocessingLeakage),
            "a name is as specific as its code"
        );
    }

    #[test]
    fn a_layer_starts_from_the_one_below() {
        let config = RuleSet::resolve(None, &[], &strings(&["NBS101"])).unwrap();
        assert!(!config.contains(Rule::PreprocessingLeakage));
        let cli = RuleSet::resolve_over(config, Some(&strings(&["NBS101"])), &[], &[]).unwrap();
        assert_eq!(
            cli.iter().collect::<Vec<_>>(),
            vec![Rule::PreprocessingLeakage]
        );
        let cli =
            RuleSet::resolve_over(config, None, &strings(&["preprocessing-leakage"]), &[]).unwrap();
        assert!(cli.contains(Rule::PreprocessingLeakage) && cli.contains(Rule::UndefinedOnRunAll));
        let cli = RuleSet::resolve_over(config, None, &[], &strings(&["NBS0"])).unwrap();
        assert_eq!(
            cli.iter().collect::<Vec<_>>(),
            vec![
                Rule::OverlapLeakage,
                Rule::MultiTestLeakage,
                Rule::LeakageWithCellsSkipped
            ]
        );
    }
}
