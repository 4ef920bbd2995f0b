//! The help text of `nbsight check` after the options: exit status,
//! configuration and (with `--help`) the rules.

use std::fmt::Write;

use nbsight_check::REGISTRY;

/// Shown after the options by `-h` and `--help`.
pub const AFTER_HELP: &str = "\
Exit status:
  0  no findings (or --exit-zero)
  1  findings, or notebooks with syntax errors or other load errors (printed
     on stderr as file:cell N:line:col: message)
  2  usage errors (unknown rule selector, unreadable or invalid configuration)
     or inputs that could not be read (a missing or unloadable file, also one
     found scanning a directory): each is reported and the other notebooks are
     still checked

Configuration: the [tool.nbsight] table of the nearest pyproject.toml that has
one, from each notebook's directory upwards (else from the current directory
upwards; or --config for all), with the keys select, extend-select, ignore
(lists of selectors), per-file-ignores (glob = [selectors]), exclude and
extend-exclude (glob patterns), force-exclude (true: exclusions apply to named
files too). --select replaces the configured rules; --extend-select and
--ignore add to and remove from them.

Suppression: `# noqa` or `# noqa: NBS001,unused-definition` on a line; as the
first line of a cell, `# noqa[: CODES]` or `# nbsight: noqa[: CODES]` for the
cell, or the cell tag `noqa[:CODES]` (also `nbsight:noqa[:CODES]`);
`# nbsight: noqa-file[: CODES]` on its own line for the notebook.";

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
