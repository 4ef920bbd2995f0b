//! The rule registry: [`REGISTRY`], the one table that gives each rule its
//! stable code and name, severity, default, whether `nbsight check` reports
//! it, its one-line summary and its documentation (its file under
//! `rules/`). Every `Rule` method reads that table; which driver reports a
//! rule is [`crate::rules::driver`]'s exhaustive match.
//!
//! A rule's file opens with a `//!` comment that *is* its documentation
//! ("What it reports", "Why it matters", "Example", "Not reported"); it is
//! rendered into `docs/rules.md` (see [`crate::docs`]), and the example in it
//! is run by `tests/docs.rs`, which must find exactly the output shown. The
//! file also holds the rule's driver, the pass over the notebook model that
//! produces its findings, and its messages. The three leakage rules share one
//! driver (`rules/leakage_orders.rs`); `leakage-with-cells-skipped` steps the
//! same leakage domain along notebook order with cells skipped;
//! `stale-state-risk` is raised by the what-if session and has no driver
//! here.
//!
//! Codes: `NBS0xx` Run All and kernel state, `NBS1xx` leakage, `NBS2xx`
//! informational. A code and a name, once released, are never changed or
//! reused.
//!
//! # Adding a rule
//!
//! 1. Name the pattern the rule reports, not its fix (ruff's convention:
//!    read the name as "allow *name*"); take the next free code of its group.
//! 2. Add a variant to [`Rule`] and, at the same position, its row to
//!    [`REGISTRY`] (a compile-time assertion checks the order): code, name,
//!    severity, default, reported by `check` or what-if only, one-line
//!    summary and `include_str!` of its file; map the rule to its driver in
//!    `rules::driver` (an exhaustive match).
//! 3. Write `rules/<name>.rs`: the `//!` documentation with the four
//!    sections, its example a percent script (`# %% [N]` marks a cell run as
//!    `[N]` with saved output) followed by the output nbsight gives on it;
//!    then `DRIVER` and the driver function, with the messages. A rule raised
//!    by a what-if alarm is mapped in [`Rule::for_alarm`].
//! 4. Add a fixture notebook to `tests/fixtures/` and its entry (rules,
//!    expected findings, and why) to `tests/fixtures/expected.json`: at least
//!    one notebook the rule reports, and the near misses it must not report.
//!    `tests/rules.rs` fails when a rule has no positive fixture.
//! 5. Run the tests; review new or changed snapshots (`cargo insta review`),
//!    including the CLI's.
//! 6. Regenerate the docs: `NBSIGHT_UPDATE_DOCS=1 cargo test -p
//!    nbsight-check --test docs` rewrites the rules section of
//!    `docs/rules.md` and the rule table of `README.md`.

use nbsight_leakage::AlarmKind;
use nbsight_notebook::Severity;

use crate::doc_comment::doc_comment;

/// A rule of nbsight. The variants are in [`REGISTRY`] order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    UndefinedOnRunAll,
    StaleSavedOutput,
    PreprocessingLeakage,
    OverlapLeakage,
    MultiTestLeakage,
    LeakageWithCellsSkipped,
    IsolatedCell,
    UnusedDefinition,
    /// What-if only: a cell could read a stale value after the event.
    StaleStateRisk,
}

/// Who reports a rule.
#[derive(Debug, Clone, Copy)]
pub enum ReportedBy {
    /// `nbsight check`, with the driver [`crate::rules::driver`] gives it
    /// (`nbsight whatif` too when the rule is a what-if alarm).
    Check,
    /// `nbsight whatif` only: the what-if session raises it.
    WhatIfOnly,
}

/// A rule's row in the registry.
#[derive(Debug, Clone, Copy)]
pub struct RuleMeta {
    pub rule: Rule,
    /// The stable code (`NBS101`).
    pub code: &'static str,
    /// The stable name (`preprocessing-leakage`).
    pub name: &'static str,
    pub severity: Severity,
    /// On unless the user deselects it.
    pub default_on: bool,
    pub reported_by: ReportedBy,
    /// Reported once per cell: its several alarms in one cell tell one story
    /// (a leak seen by `predict` is seen by the metric).
    pub one_per_cell: bool,
    /// One line saying what the rule finds (help texts, SARIF).
    pub summary: &'static str,
    /// The rule's file, whose leading `//!` comment is its documentation.
    pub source: &'static str,
}

impl RuleMeta {
    /// The rule's documentation: the leading `//!` comment of its file.
    pub fn doc(&self) -> String {
        doc_comment(self.source)
    }

    /// Reported by `nbsight check` (the others only by `nbsight whatif`).
    pub fn is_check_rule(&self) -> bool {
        matches!(self.reported_by, ReportedBy::Check)
    }
}

/// Every rule, one row each, in [`Rule`] order.
pub static REGISTRY: [RuleMeta; Rule::COUNT] = [
    RuleMeta {
        rule: Rule::UndefinedOnRunAll,
        code: "NBS001",
        name: "undefined-on-run-all",
        severity: Severity::Error,
        default_on: true,
        reported_by: ReportedBy::Check,
        one_per_cell: false,
        summary: "A cell reads a name that no earlier cell defines: Restart & Run All fails there",
        source: include_str!("rules/undefined_on_run_all.rs"),
    },
    RuleMeta {
        rule: Rule::StaleSavedOutput,
        code: "NBS002",
        name: "stale-saved-output",
        severity: Severity::Warning,
        default_on: true,
        reported_by: ReportedBy::Check,
        one_per_cell: false,
        summary: "Saved outputs were computed before a cell they depend on was last run, or in an order Run All would not reproduce",
        source: include_str!("rules/stale_saved_output.rs"),
    },
    RuleMeta {
        rule: Rule::PreprocessingLeakage,
        code: "NBS101",
        name: "preprocessing-leakage",
        severity: Severity::Warning,
        default_on: true,
        reported_by: ReportedBy::Check,
        one_per_cell: true,
        summary: "Statistics are fitted on data that is later split into train and test sets",
        source: include_str!("rules/preprocessing_leakage.rs"),
    },
    RuleMeta {
        rule: Rule::OverlapLeakage,
        code: "NBS102",
        name: "overlap-leakage",
        severity: Severity::Warning,
        default_on: true,
        reported_by: ReportedBy::Check,
        one_per_cell: true,
        summary: "Test rows reach the training set: oversampling, augmentation or duplication before the split",
        source: include_str!("rules/overlap_leakage.rs"),
    },
    RuleMeta {
        rule: Rule::MultiTestLeakage,
        code: "NBS103",
        name: "multi-test-leakage",
        severity: Severity::Warning,
        default_on: true,
        reported_by: ReportedBy::Check,
        one_per_cell: true,
        summary: "The same test set is used to choose among models or hyper-parameters",
        source: include_str!("rules/multi_test_leakage.rs"),
    },
    RuleMeta {
        rule: Rule::LeakageWithCellsSkipped,
        code: "NBS104",
        name: "leakage-with-cells-skipped",
        severity: Severity::Warning,
        default_on: true,
        reported_by: ReportedBy::Check,
        one_per_cell: false,
        summary: "Running the cells top to bottom with some skipped leaks, though notebook order does not: a skipped cell hides the leak",
        source: include_str!("rules/leakage_with_cells_skipped.rs"),
    },
    RuleMeta {
        rule: Rule::IsolatedCell,
        code: "NBS201",
        name: "isolated-cell",
        severity: Severity::Info,
        default_on: false,
        reported_by: ReportedBy::Check,
        one_per_cell: false,
        summary: "A cell neither reads nor provides anything other cells use",
        source: include_str!("rules/isolated_cell.rs"),
    },
    RuleMeta {
        rule: Rule::UnusedDefinition,
        code: "NBS202",
        name: "unused-definition",
        severity: Severity::Info,
        default_on: false,
        reported_by: ReportedBy::Check,
        one_per_cell: false,
        summary: "A name is defined but no later cell reads it",
        source: include_str!("rules/unused_definition.rs"),
    },
    RuleMeta {
        rule: Rule::StaleStateRisk,
        code: "NBS003",
        name: "stale-state-risk",
        severity: Severity::Warning,
        default_on: false,
        reported_by: ReportedBy::WhatIfOnly,
        one_per_cell: false,
        summary: "(whatif only) After the event, running a cell before the cell it depends on reads a stale value",
        source: include_str!("rules/stale_state_risk.rs"),
    },
];

// The registry is in `Rule` order (so `Rule::meta` indexes it), and a rule
// on by default is one `nbsight check` reports.
const _: () = {
    let mut i = 0;
    while i < Rule::COUNT {
        let row = &REGISTRY[i];
        assert!(row.rule as usize == i, "REGISTRY is not in Rule order");
        assert!(
            !row.default_on || matches!(row.reported_by, ReportedBy::Check),
            "a what-if-only rule cannot be on by default"
        );
        i += 1;
    }
};

impl Rule {
    /// How many rules there are.
    pub const COUNT: usize = 9;

    /// Every rule, in registry order.
    pub const ALL: [Rule; Rule::COUNT] = {
        let mut all = [Rule::UndefinedOnRunAll; Rule::COUNT];
        let mut i = 0;
        while i < Rule::COUNT {
            all[i] = REGISTRY[i].rule;
            i += 1;
        }
        all
    };

    /// The rule's row in [`REGISTRY`].
    pub fn meta(self) -> &'static RuleMeta {
        &REGISTRY[self as usize]
    }

    /// The stable code. `NBS0xx` Run-All and state rules, `NBS1xx` leakage,
    /// `NBS2xx` informational.
    pub fn code(self) -> &'static str {
        self.meta().code
    }

    /// The stable name.
    pub fn name(self) -> &'static str {
        self.meta().name
    }

    /// The address of the rule's section of `docs/rules.md` in the
    /// repository (its heading's anchor), for editors' links.
    pub fn docs_url(self) -> String {
        format!(
            "{}/blob/main/docs/rules.md#{}-{}",
            env!("CARGO_PKG_REPOSITORY"),
            self.code().to_ascii_lowercase(),
            self.name()
        )
    }

    /// One line saying what the rule finds (help texts, SARIF).
    pub fn summary(self) -> &'static str {
        self.meta().summary
    }

    pub fn severity(self) -> Severity {
        self.meta().severity
    }

    /// The rule's documentation (the `//!` comment of its file).
    pub fn doc(self) -> String {
        self.meta().doc()
    }

    /// On unless the user deselects it.
    pub fn enabled_by_default(self) -> bool {
        self.meta().default_on
    }

    /// Reported once per cell (its alarms in one cell are one problem).
    pub fn one_per_cell(self) -> bool {
        self.meta().one_per_cell
    }

    /// Reported by `nbsight check` (the others only by `nbsight whatif`).
    pub fn is_check_rule(self) -> bool {
        self.meta().is_check_rule()
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
        REGISTRY.iter().find(|r| r.name == name).map(|r| r.rule)
    }

    pub fn from_code(code: &str) -> Option<Rule> {
        REGISTRY
            .iter()
            .find(|r| r.code.eq_ignore_ascii_case(code))
            .map(|r| r.rule)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn codes_and_names_are_well_formed() {
        for row in &REGISTRY {
            let digits = row.code.strip_prefix("NBS").unwrap_or_default();
            assert!(
                digits.len() == 3 && digits.bytes().all(|b| b.is_ascii_digit()),
                "{}",
                row.code
            );
            assert!(
                row.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{}",
                row.name
            );
            assert!(!row.summary.ends_with('.'), "{}", row.name);
        }
    }

    #[test]
    fn every_rule_documents_itself() {
        for row in &REGISTRY {
            let doc = row.doc();
            for section in [
                "## What it reports",
                "## Why it matters",
                "## Example",
                "## Not reported",
            ] {
                assert!(doc.contains(section), "{} lacks {section}", row.name);
            }
        }
    }
}
