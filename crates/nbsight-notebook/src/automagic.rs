//! IPython's automagic: a cell of one line that starts with the name of a
//! line magic (`pip install pandas`, `cd data`, `matplotlib inline`) runs
//! as that magic, as if written with `%`. IPython applies it (its
//! prefilter) only to cells of one line, when the name is not followed by
//! an assignment (`pip = 3`) and is no variable of the namespace; inside a
//! longer cell such a line is a syntax error, and stays one here.
//!
//! nbsight reads a one-line cell as its magic only when the line is not
//! Python (a line that parses, such as `ls` or `time`, may name a variable
//! and runs as Python then): what it cannot know statically is left to
//! Python's reading.

/// IPython's default line magics and the shell aliases it defines on
/// POSIX systems (which run as line magics too), with ipykernel's; sorted,
/// for a binary search (every cell's first word is looked up).
const LINE_MAGICS: &[&str] = &[
    "alias",
    "alias_magic",
    "autoawait",
    "autocall",
    "automagic",
    "autosave",
    "bookmark",
    "cat",
    "cd",
    "clear",
    "colors",
    "conda",
    "config",
    "connect_info",
    "cp",
    "debug",
    "dhist",
    "dirs",
    "doctest_mode",
    "ed",
    "edit",
    "env",
    "gui",
    "hist",
    "history",
    "killbgscripts",
    "ldir",
    "less",
    "lf",
    "lk",
    "ll",
    "load",
    "load_ext",
    "loadpy",
    "logoff",
    "logon",
    "logstart",
    "logstate",
    "logstop",
    "ls",
    "lsmagic",
    "lx",
    "macro",
    "magic",
    "mamba",
    "man",
    "matplotlib",
    "micromamba",
    "mkdir",
    "more",
    "mv",
    "notebook",
    "page",
    "pastebin",
    "pdb",
    "pdef",
    "pdoc",
    "pfile",
    "pinfo",
    "pinfo2",
    "pip",
    "popd",
    "pprint",
    "precision",
    "prun",
    "psearch",
    "psource",
    "pushd",
    "pwd",
    "pycat",
    "pylab",
    "qtconsole",
    "quickref",
    "recall",
    "rehashx",
    "reload_ext",
    "rep",
    "rerun",
    "reset",
    "reset_selective",
    "rm",
    "rmdir",
    "run",
    "save",
    "sc",
    "set_env",
    "store",
    "sx",
    "system",
    "tb",
    "time",
    "timeit",
    "unalias",
    "unload_ext",
    "uv",
    "who",
    "who_ls",
    "whos",
    "xdel",
    "xmode",
];

/// The cell as IPython's automagic runs it (`%` before the line) when
/// `text` is one line that starts with a line magic's name and is not an
/// assignment to that name; `None` otherwise. Whether the line is Python
/// is the caller's question.
pub(crate) fn automagic(text: &str) -> Option<String> {
    let line = text.trim_start_matches([' ', '\t']);
    let end = line
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(line.len());
    let (name, rest) = line.split_at(end);
    if LINE_MAGICS.binary_search(&name).is_err() {
        return None;
    }
    // One line, as IPython counts them after its clean-up: nothing after
    // the first line's end.
    if line
        .split_once('\n')
        .is_some_and(|(_, after)| !after.is_empty())
    {
        return None;
    }
    // IPython's AssignmentChecker: `name = ...` and `name, ...` are Python.
    let rest_start = rest.trim_start_matches([' ', '\t']);
    if (rest_start.starts_with('=') && !rest_start.starts_with("==")) || rest_start.starts_with(',')
    {
        return None;
    }
    Some(format!("%{line}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_magics_are_sorted() {
        assert!(LINE_MAGICS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn one_line_cells_starting_with_a_magic() {
        assert_eq!(
            automagic("pip install pandas\n").as_deref(),
            Some("%pip install pandas\n")
        );
        assert_eq!(automagic("cd data").as_deref(), Some("%cd data"));
        assert_eq!(
            automagic("matplotlib inline").as_deref(),
            Some("%matplotlib inline")
        );
        // Not one line, not a magic, an assignment, a dotted name.
        assert_eq!(automagic("pip install pandas\n\n"), None);
        assert_eq!(automagic("x = 1\npip install pandas\n"), None);
        assert_eq!(automagic("print 'x'"), None);
        assert_eq!(automagic("pip = 3"), None);
        assert_eq!(automagic("ls, x"), None);
        assert_eq!(automagic("time.sleep 1"), None);
        assert_eq!(automagic("pip == 3").as_deref(), Some("%pip == 3"));
    }
}
