//! Which rules run: the selectors of the command line merged with those of the
//! configuration, then resolved by `nbsight-check` with ruff's semantics.
//!
//! `--select` replaces the configuration's `select`; `--extend-select` and
//! `--ignore` are added to the configuration's lists. A selector is `ALL`, a
//! rule name (`preprocessing-leakage`), a code or a code prefix (`NBS1`).

use nbsight_check::{RuleSet, validate_selectors};

use super::config::Config;

/// Checks one selector; used by clap for the command line (a bad selector is
/// then a usage error) and for the configuration's lists.
pub fn check_selector(text: &str) -> Result<String, String> {
    let selector = text.trim();
    if selector.is_empty() {
        return Err("empty rule selector (expected ALL, a rule name or a code prefix)".into());
    }
    validate_selectors([selector]).map_err(|e| e.to_string())?;
    Ok(selector.to_string())
}

/// The selectors given on the command line.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CommandLine {
    pub select: Option<Vec<String>>,
    pub extend_select: Vec<String>,
    pub ignore: Vec<String>,
}

/// The enabled rules for the command-line selectors over the configuration.
pub fn resolve(cli: &CommandLine, config: &Config) -> anyhow::Result<RuleSet> {
    let select = cli.select.as_ref().or(config.select.as_ref());
    let extend_select: Vec<String> = config
        .extend_select
        .iter()
        .chain(&cli.extend_select)
        .cloned()
        .collect();
    let ignore: Vec<String> = config.ignore.iter().chain(&cli.ignore).cloned().collect();
    Ok(RuleSet::resolve(
        select.map(Vec::as_slice),
        &extend_select,
        &ignore,
    )?)
}

#[cfg(test)]
mod tests {
    use nbsight_check::Rule;

    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    fn rules(set: RuleSet) -> Vec<&'static str> {
        set.iter().map(Rule::code).collect()
    }

    #[test]
    fn selectors_are_checked() {
        assert_eq!(check_selector("NBS1").unwrap(), "NBS1");
        assert_eq!(check_selector(" ALL ").unwrap(), "ALL");
        assert_eq!(
            check_selector("preprocessing-leakage").unwrap(),
            "preprocessing-leakage"
        );
        assert!(check_selector("").unwrap_err().contains("empty"));
        let error = check_selector("E501").unwrap_err();
        assert!(error.contains("unknown rule selector `E501`"), "{error}");
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
        };
        let cli = CommandLine {
            select: None,
            extend_select: strings(&["NBS001"]),
            ignore: strings(&["overlap-leakage"]),
        };
        assert_eq!(
            rules(resolve(&cli, &config).unwrap()),
            ["NBS001", "NBS101", "NBS201"]
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
