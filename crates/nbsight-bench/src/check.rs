//! `check_notebook` (exactly what `nbsight check` runs, suppressions included)
//! with the default rules on one notebook (loaded beforehand, untimed): the
//! median of the timed iterations after warm-up runs, and the findings per rule
//! over the corpus.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use nbsight_check::{Finding, RuleSet, check_notebook};
use nbsight_dataflow::Effects;
use nbsight_notebook::Notebook;

use crate::stats::median_time;

/// Times `check_notebook(notebook, effects, RuleSet::default())`; also returns
/// the findings of a first, untimed run.
pub fn measure(
    notebook: &Notebook,
    effects: &Effects,
    warmup: usize,
    iterations: usize,
) -> (Duration, Vec<Finding>) {
    let findings = check_notebook(notebook, effects, RuleSet::default()).findings;
    let time = median_time(warmup, iterations, || {
        check_notebook(black_box(notebook), effects, RuleSet::default())
    });
    (time, findings)
}

/// Findings of one rule over the corpus.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RuleCount {
    pub code: &'static str,
    pub findings: usize,
    /// Notebooks with at least one finding of the rule.
    pub notebooks: usize,
}

/// Findings grouped by rule name (`Finding::name()`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleCounts {
    pub by_name: BTreeMap<&'static str, RuleCount>,
}

impl RuleCounts {
    /// Every rule of `rules`, with no finding yet (so silent rules show as 0).
    pub fn with_rules(rules: RuleSet) -> Self {
        let by_name = rules
            .iter()
            .map(|r| {
                (
                    r.name(),
                    RuleCount {
                        code: r.code(),
                        ..RuleCount::default()
                    },
                )
            })
            .collect();
        RuleCounts { by_name }
    }

    /// Adds one notebook's findings.
    pub fn add(&mut self, findings: &[Finding]) {
        let mut seen: Vec<&'static str> = Vec::new();
        for finding in findings {
            let entry = self.by_name.entry(finding.name()).or_insert(RuleCount {
                code: finding.code(),
                ..RuleCount::default()
            });
            entry.findings += 1;
            if !seen.contains(&finding.name()) {
                seen.push(finding.name());
                entry.notebooks += 1;
            }
        }
    }

    pub fn total(&self) -> usize {
        self.by_name.values().map(|c| c.findings).sum()
    }

    /// (name, count) ordered by code.
    pub fn rows(&self) -> Vec<(&'static str, RuleCount)> {
        let mut rows: Vec<_> = self.by_name.iter().map(|(n, c)| (*n, *c)).collect();
        rows.sort_by_key(|(name, c)| (c.code, *name));
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_check::Rule;
    use nbsight_notebook::{CellIndex, OneIndexed};

    fn finding(rule: Rule, cell: usize) -> Finding {
        Finding {
            file: "nb.ipynb".into(),
            rule,
            message: String::new(),
            cell: CellIndex::new(cell),
            line: OneIndexed::MIN,
            column: OneIndexed::MIN,
            path: vec![CellIndex::new(cell)],
            related: Vec::new(),
        }
    }

    #[test]
    fn groups_by_rule_name_and_counts_notebooks() {
        let mut counts = RuleCounts::with_rules(RuleSet::from_rules([
            Rule::UndefinedOnRunAll,
            Rule::PreprocessingLeakage,
        ]));
        counts.add(&[
            finding(Rule::UndefinedOnRunAll, 1),
            finding(Rule::UndefinedOnRunAll, 4),
            finding(Rule::IsolatedCell, 2),
        ]);
        counts.add(&[finding(Rule::UndefinedOnRunAll, 0)]);
        assert_eq!(counts.total(), 4);
        let rows = counts.rows();
        let names: Vec<&str> = rows.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            [
                "undefined-on-run-all",
                "preprocessing-leakage",
                "isolated-cell"
            ]
        );
        assert_eq!(
            rows[0].1,
            RuleCount {
                code: "NBS001",
                findings: 3,
                notebooks: 2
            }
        );
        assert_eq!(rows[1].1.findings, 0);
        assert_eq!(rows[2].1.notebooks, 1);
        assert_eq!(rows[2].1.code, "NBS201");
    }
}
