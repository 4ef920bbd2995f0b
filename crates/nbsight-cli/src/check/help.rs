//! The help text of `nbsight check` after the options: exit status,
//! configuration and (with `--help`) the rules.

use std::fmt::Write;

use nbsight_check::REGISTRY;

/// Shown after the options by `-h` and `--help`.
pub const AFTER_HELP: &str = "\
Exit status:
  0  no findings
  1  findings, or notebooks with syntax errors or other load errors (printed
     on stderr as file:cell N:line:col: message)
  2  usage errors (unknown rule selector, unreadable or invalid configuration)
     or inputs that could not be read (a missing or unloadable file, also one
     found scanning a directory): each is reported and the other notebooks are
     still checked

Configuration: the [tool.nbsight] table of the nearest pyproject.toml that has
one, from the current directory upwards (or --config), with the keys select,
extend-select and ignore (lists of selectors). --select replaces the
configured select; --extend-select and --ignore add to the configured lists.";

/// `--help`: [`AFTER_HELP`] and the table of the rules `nbsight check`
/// reports, from the rule registry.
pub fn after_long_help() -> String {
    let mut text = format!("{AFTER_HELP}\n\nRules (* = on by default):\n");
    for row in REGISTRY.iter().filter(|row| row.is_check_rule()) {
        let on = if row.default_on { '*' } else { ' ' };
        let _ = writeln!(
            text,
            "  {} {on} {:<22} {:<8} {}",
            row.code,
            row.name,
            row.severity.as_str(),
            row.summary
        );
    }
    text.truncate(text.trim_end().len());
    text
}
