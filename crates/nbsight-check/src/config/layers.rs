//! Which rules run: the selectors of the command line merged with those of the
//! configuration, then resolved by `RuleSet` with ruff's semantics.
//!
//! The command line is a layer over the configuration (ruff's layers):
//! `--select` replaces what the configuration enabled, `--extend-select`
//! adds to it and `--ignore` removes from it. A selector is `ALL`, a
//! rule name (`preprocessing-leakage`), a code or a code prefix (`NBS1`).

use super::pyproject::Config;
use crate::selection::{RuleSet, UnknownSelector};

/// The selectors given on the command line.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CommandLine {
    pub select: Option<Vec<String>>,
    pub extend_select: Vec<String>,
    pub ignore: Vec<String>,
}

/// The enabled rules for the command-line selectors over the configuration:
/// two layers, as ruff resolves them. The configuration's layer starts from
/// the defaults; the command line's starts from what the configuration
/// enabled, so `--select NBS101` enables NBS101 even when the configuration
/// ignores it, and `--ignore` removes from the configured rules.
pub fn resolve(cli: &CommandLine, config: &Config) -> Result<RuleSet, UnknownSelector> {
    let configured = RuleSet::resolve(
        config.select.as_deref(),
        &config.extend_select,
        &config.ignore,
    )?;
    RuleSet::resolve_over(
        configured,
        cli.select.as_deref(),
        &cli.extend_select,
        &cli.ignore,
    )
}

#[cfg(test)]
mod tests {
    use crate::Rule;

    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    fn rules(set: RuleSet) -> Vec<&'static str> {
        set.iter().map(Rule::code).collect()
    }

    #[test]
    fn defaults_without_selectors() {
        let set = resolve(&CommandLine::default(), &Config::default()).unwrap();
        assert_eq!(set, RuleSet::default());
    }

    #[test]
    fn command_line_select_replaces_the_configured_one() {
        let config = Config {
            select: Some(strings(&["NBS0"])),
            ..Config::default()
        };
        let set = resolve(&CommandLine::default(), &config).unwrap();
        assert_eq!(rules(set), ["NBS001", "NBS002"]);
        let cli = CommandLine {
            select: Some(strings(&["NBS2"])),
            ..CommandLine::default()
        };
        assert_eq!(rules(resolve(&cli, &config).unwrap()), ["NBS201", "NBS202"]);
    }

    #[test]
    fn extend_select_and_ignore_add_to_the_configured_lists() {
        let config = Config {
            select: Some(strings(&["NBS1"])),
            extend_select: strings(&["isolated-cell"]),
            ignore: strings(&["NBS103"]),
            ..Config::default()
        };
        let cli = CommandLine {
            select: None,
            extend_select: strings(&["NBS001"]),
            ignore: strings(&["overlap-leakage"]),
        };
        assert_eq!(
            rules(resolve(&cli, &config).unwrap()),
            ["NBS001", "NBS101", "NBS104", "NBS201"]
        );
    }

    #[test]
    fn command_line_select_re_enables_a_configured_ignore() {
        let config = Config {
            ignore: strings(&["NBS101"]),
            ..Config::default()
        };
        for selector in ["NBS101", "preprocessing-leakage", "NBS1"] {
            let cli = CommandLine {
                select: Some(strings(&[selector])),
                ..CommandLine::default()
            };
            assert!(
                resolve(&cli, &config)
                    .unwrap()
                    .contains(Rule::PreprocessingLeakage),
                "{selector}"
            );
        }
        let cli = CommandLine {
            extend_select: strings(&["preprocessing-leakage"]),
            ..CommandLine::default()
        };
        assert!(
            resolve(&cli, &config)
                .unwrap()
                .contains(Rule::PreprocessingLeakage)
        );
        assert!(
            !resolve(&CommandLine::default(), &config)
                .unwrap()
                .contains(Rule::PreprocessingLeakage)
        );
    }

    #[test]
    fn all_selects_every_rule() {
        let cli = CommandLine {
            select: Some(strings(&["ALL"])),
            ..CommandLine::default()
        };
        assert_eq!(resolve(&cli, &Config::default()).unwrap(), RuleSet::all());
    }
}
