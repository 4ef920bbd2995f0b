//! IPython cell magics (`%%name args` on the first non-empty line) and the
//! commented-out magics of percent scripts.
//!
//! Only the first non-empty line of a cell can be a cell magic, and it must start at
//! column 0 with `%%` followed by a name (IPython's own rule). `%%time`, `%%timeit`,
//! `%%capture` and `%%prun` run the rest of the cell as Python in the user namespace
//! ([`PYTHON_CELL_MAGICS`]); any other cell magic makes the cell opaque.

use std::borrow::Cow;
use std::ops::Range;

use serde::Serialize;

/// A cell magic from a first line `%%name args`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct CellMagic {
    /// The magic's name without `%%` (`time`, `bash`, `writefile`).
    pub name: String,
    /// Everything after the name, trimmed, verbatim (`out` for `%%capture out`).
    pub args: String,
}

/// Cell magics whose body is ordinary Python run in the notebook's namespace.
pub const PYTHON_CELL_MAGICS: &[&str] = &["time", "timeit", "capture", "prun"];

/// Is `name` (without `%%`) a cell magic whose body is Python?
pub fn is_python_cell_magic(name: &str) -> bool {
    PYTHON_CELL_MAGICS.contains(&name)
}

/// The cell magic on the first non-empty line of `source`, with the byte range of
/// that line's text (without its line terminator).
pub(crate) fn find_cell_magic(source: &str) -> Option<(CellMagic, Range<usize>)> {
    let mut start = 0;
    for line in source.split_inclusive('\n') {
        let text = line.trim_end_matches(['\n', '\r']);
        if text.trim().is_empty() {
            start += line.len();
            continue;
        }
        let rest = text.strip_prefix("%%")?;
        let name_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let name = &rest[..name_end];
        if name.is_empty() {
            return None;
        }
        let magic = CellMagic {
            name: name.to_string(),
            args: rest[name_end..].trim().to_string(),
        };
        return Some((magic, start..start + text.len()));
    }
    None
}

/// `source` with the text of its cell-magic line removed (its line terminator kept,
/// so line numbers are unchanged). Unchanged when there is no cell magic.
pub(crate) fn blank_cell_magic(source: &str) -> Cow<'_, str> {
    match find_cell_magic(source) {
        Some((_, range)) => {
            let mut out = String::with_capacity(source.len());
            out.push_str(&source[..range.start]);
            out.push_str(&source[range.end..]);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(source),
    }
}

/// Uncomment the magics jupytext comments out in percent scripts: a line that starts
/// with `# %` or `# !` immediately followed by a non-space character (`# %matplotlib
/// inline`, `# !pip install x`, `# %%time`) loses its `# `. Lines such as `# % of rows`
/// are ordinary comments and stay. Line terminators and line count are unchanged.
pub(crate) fn uncomment_percent_magics(source: &str) -> Cow<'_, str> {
    let is_commented_magic = |line: &str| {
        line.strip_prefix("# ")
            .and_then(|rest| rest.strip_prefix(['%', '!']))
            .and_then(|rest| rest.chars().next())
            .is_some_and(|c| !c.is_whitespace())
    };
    if !source.split('\n').any(is_commented_magic) {
        return Cow::Borrowed(source);
    }
    let mut out = String::with_capacity(source.len());
    for line in source.split_inclusive('\n') {
        if is_commented_magic(line) {
            out.push_str(&line[2..]);
        } else {
            out.push_str(line);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_cell_magic_after_blank_lines() {
        let (m, r) = find_cell_magic("\n  \n%%capture out \nx = 1").unwrap();
        assert_eq!(m.name, "capture");
        assert_eq!(m.args, "out");
        assert_eq!(r, 4..18);
    }

    #[test]
    fn no_cell_magic() {
        assert!(find_cell_magic("x = 1\n%%time").is_none());
        assert!(find_cell_magic(" %%time\nx").is_none());
        assert!(find_cell_magic("%time x").is_none());
        assert!(find_cell_magic("%%\nx").is_none());
        assert!(find_cell_magic("").is_none());
    }

    #[test]
    fn blanking_keeps_line_numbers() {
        assert_eq!(blank_cell_magic("%%time\nx = 1\n"), "\nx = 1\n");
        assert_eq!(blank_cell_magic("\r\n%%timeit -n 3\r\nx"), "\r\n\r\nx");
        assert_eq!(blank_cell_magic("%%time"), "");
        assert!(matches!(blank_cell_magic("x"), Cow::Borrowed("x")));
    }

    #[test]
    fn uncomments_only_magics() {
        let src = "# %matplotlib inline\n# !pip install x\n# % of rows\n#%x\nx = 1  # %y";
        assert_eq!(
            uncomment_percent_magics(src),
            "%matplotlib inline\n!pip install x\n# % of rows\n#%x\nx = 1  # %y"
        );
        assert!(matches!(
            uncomment_percent_magics("x = 1"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn python_magics() {
        assert!(is_python_cell_magic("time"));
        assert!(is_python_cell_magic("capture"));
        assert!(!is_python_cell_magic("bash"));
    }
}
