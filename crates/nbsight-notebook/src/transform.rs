//! IPython's clean-up of a cell before it runs (`inputtransformer2`'s
//! `leading_indent`, `classic_prompt` and `ipython_prompt`): the indentation
//! common to every line is removed, and pasted prompts are stripped, the
//! doctest `>>> ` / `... ` ones and IPython's own `In [3]: ` / `   ...: `.
//! A cell IPython runs is therefore no syntax error for nbsight.
//!
//! Only prefixes of lines are removed: the text keeps its line count and
//! line terminators, so line numbers still map to the cell's lines (columns
//! of a stripped line are shifted by what was stripped).

use std::borrow::Cow;
use std::sync::LazyLock;

/// `source` as IPython cleans it up before running it, line for line.
/// Borrowed when nothing applies (the common case, checked cheaply).
pub fn ipython_cleanup(source: &str) -> Cow<'_, str> {
    let first = source
        .split('\n')
        .find(|line| !line.trim().is_empty())
        .unwrap_or_default();
    let indented = first.starts_with([' ', '\t']);
    let prompts = may_have_prompts(source);
    if !indented && !prompts {
        return Cow::Borrowed(source);
    }
    let mut lines: Vec<String> = source.split_inclusive('\n').map(str::to_string).collect();
    let all: Vec<usize> = (0..lines.len()).collect();
    dedent(&mut lines, &all);
    if prompts {
        classic_prompt(&mut lines);
        ipython_prompt(&mut lines);
    }
    let out: String = lines.concat();
    if out == source {
        Cow::Borrowed(source)
    } else {
        Cow::Owned(out)
    }
}

/// `source` contains `>>>`, `In [` or `...:`. Searched as whole needles: their
/// single bytes (`[`, `:`) are everywhere in Python code, the needles rarely.
fn may_have_prompts(source: &str) -> bool {
    use memchr::memmem::Finder;
    static PROMPTS: LazyLock<[Finder<'static>; 3]> =
        LazyLock::new(|| [">>>", "In [", "...:"].map(Finder::new));
    PROMPTS
        .iter()
        .any(|finder| finder.find(source.as_bytes()).is_some())
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// Python's `textwrap.dedent` on the lines `which`: removes the leading
/// whitespace common to all of them that are not blank.
fn dedent(lines: &mut [String], which: &[usize]) {
    let mut margin: Option<&str> = None;
    for &i in which {
        let line = &lines[i];
        if is_blank(line) {
            continue;
        }
        let indent_len = line.len() - line.trim_start_matches([' ', '\t']).len();
        let indent = &line[..indent_len];
        margin = Some(match margin {
            None => indent,
            Some(m) => {
                let common = m
                    .bytes()
                    .zip(indent.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                &m[..common]
            }
        });
        if margin == Some("") {
            return;
        }
    }
    let Some(margin) = margin.map(str::len) else {
        return;
    };
    for &i in which {
        let line = &mut lines[i];
        if is_blank(line) {
            // `dedent` empties whitespace-only lines.
            let terminator = line.len() - line.trim_end_matches(['\n', '\r']).len();
            let keep = line.len() - terminator;
            line.drain(..keep);
        } else {
            line.drain(..margin);
        }
    }
}

/// The text of `line` after `prefix` and optional spaces or tabs before it.
fn after_indented(line: &str, prefix: &str) -> Option<usize> {
    let indent = line.len() - line.trim_start().len();
    line[indent..]
        .starts_with(prefix)
        .then_some(indent + prefix.len())
}

/// Doctest prompts (`>>> `, `... `, possibly indented), stripped from every
/// line outside triple-quoted strings when one line has `>>>`; the runs of
/// lines where a prompt went are then dedented.
fn classic_prompt(lines: &mut [String]) {
    let inside = triple_quoted(lines);
    let has_prompt = lines
        .iter()
        .zip(&inside)
        .any(|(line, &inside)| !inside && after_indented(line, ">>>").is_some());
    if !has_prompt {
        return;
    }
    let mut stripped = vec![false; lines.len()];
    for (i, line) in lines.iter_mut().enumerate() {
        if inside[i] {
            continue;
        }
        let Some(end) = after_indented(line, ">>>").or_else(|| after_indented(line, "...")) else {
            continue;
        };
        let end = if line[end..].starts_with([' ', '\t']) {
            end + 1
        } else {
            end
        };
        line.drain(..end);
        stripped[i] = true;
    }
    // Dedent each run of lines outside strings in which a prompt went.
    let mut i = 0;
    while i < lines.len() {
        let mut j = i;
        while j < lines.len() && inside[j] == inside[i] {
            j += 1;
        }
        if !inside[i] && stripped[i..j].iter().any(|&s| s) {
            let run: Vec<usize> = (i..j).collect();
            dedent(lines, &run);
        }
        i = j;
    }
}

/// Which lines start inside a triple-quoted string (a doctest in a
/// docstring keeps its prompts).
fn triple_quoted(lines: &[String]) -> Vec<bool> {
    let mut open: Option<&str> = None;
    lines
        .iter()
        .map(|line| {
            let starts_inside = open.is_some();
            let mut rest = line.as_str();
            while let Some(pos) = rest
                .find(r#"""""#)
                .into_iter()
                .chain(rest.find("'''"))
                .min()
            {
                let quote = &rest[pos..pos + 3];
                let escaped = pos > 0 && rest.as_bytes()[pos - 1] == b'\\';
                if !escaped {
                    match open {
                        None => open = Some(if quote == "'''" { "'''" } else { r#"""""# }),
                        Some(q) if q == quote => open = None,
                        Some(_) => {}
                    }
                }
                rest = &rest[pos + 3..];
            }
            starts_inside
        })
        .collect()
}

/// Length of IPython's prompt at the start of `line`: `In [12]: ` (after
/// an optional `[nav] ` or `[ins] `), or `...: ` with any indentation and
/// three or more dots.
fn ipython_prompt_len(line: &str) -> Option<usize> {
    let mut rest = line;
    for mode in ["[nav] ", "[ins] ", " "] {
        if let Some(after) = rest.strip_prefix(mode)
            && after.starts_with("In [")
        {
            rest = after;
            break;
        }
    }
    if let Some(after) = rest.strip_prefix("In [") {
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && after[digits..].starts_with("]: ") {
            return Some(line.len() - after.len() + digits + 3);
        }
    }
    let indent = line.len() - line.trim_start().len();
    let after = &line[indent..];
    let dots = after.bytes().take_while(|&b| b == b'.').count();
    if dots >= 3 && after[dots..].starts_with(':') {
        let end = indent + dots + 1;
        return Some(if line[end..].starts_with(' ') {
            end + 1
        } else {
            end
        });
    }
    None
}

/// IPython's own prompts, stripped from every line when the first line
/// (or the second) has one.
fn ipython_prompt(lines: &mut [String]) {
    let Some(first) = lines.iter().position(|l| !is_blank(l)) else {
        return;
    };
    let applies = ipython_prompt_len(&lines[first]).is_some()
        || lines
            .get(first + 1)
            .is_some_and(|l| ipython_prompt_len(l).is_some());
    if !applies {
        return;
    }
    for line in lines.iter_mut() {
        if let Some(len) = ipython_prompt_len(line) {
            line.drain(..len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_gate() {
        for text in [">>> x", "a\n In [3]: y", "  ...: z", "x = '>>>'"] {
            assert!(may_have_prompts(text), "{text}");
        }
        for text in ["", "x = a[0]", "d = {1: 2}", ">> 3", "In[3]", "..:"] {
            assert!(!may_have_prompts(text), "{text}");
        }
    }

    #[test]
    fn unchanged_cells_are_borrowed() {
        for source in ["x = 1\n", "", "\n\n", "if x:\n    y = 1\n", "s = '>> '\n"] {
            assert!(
                matches!(ipython_cleanup(source), Cow::Borrowed(_)),
                "{source:?}"
            );
        }
    }

    #[test]
    fn common_indentation_goes() {
        assert_eq!(ipython_cleanup("  a = 1\n  b = a\n"), "a = 1\nb = a\n");
        assert_eq!(
            ipython_cleanup("\n    if a:\n        b = 1\n\n    c = 2"),
            "\nif a:\n    b = 1\n\nc = 2"
        );
        // Only what every line has: a line at column 0 keeps the others.
        assert_eq!(ipython_cleanup("  a = 1\nb = 2\n"), "  a = 1\nb = 2\n");
        assert_eq!(ipython_cleanup("\ta\r\n\tb\r\n"), "a\r\nb\r\n");
    }

    #[test]
    fn doctest_prompts_go() {
        assert_eq!(
            ipython_cleanup(">>> c = 1\n>>> d = c + 1"),
            "c = 1\nd = c + 1"
        );
        assert_eq!(
            ipython_cleanup(">>> for i in r:\n...     print(i)\n"),
            "for i in r:\n    print(i)\n"
        );
        assert_eq!(ipython_cleanup("    >>> x = 1\n"), "x = 1\n");
        // `...` alone is Ellipsis when no line has `>>>`.
        assert_eq!(
            ipython_cleanup("def f():\n    ...\n"),
            "def f():\n    ...\n"
        );
        // A doctest in a docstring keeps its prompts.
        let docstring = "def f():\n    \"\"\"\n    >>> f()\n    \"\"\"\n";
        assert_eq!(ipython_cleanup(docstring), docstring);
    }

    #[test]
    fn ipython_prompts_go() {
        assert_eq!(
            ipython_cleanup("In [3]: e = 1\n   ...: f = e + 1\n"),
            "e = 1\nf = e + 1\n"
        );
        assert_eq!(
            ipython_cleanup("In [12]: for i in r:\n    ...:     print(i)\n"),
            "for i in r:\n    print(i)\n"
        );
        assert_eq!(ipython_cleanup("[ins] In [1]: x = 1\n"), "x = 1\n");
        // Not a prompt: no digits, or no space after the colon.
        assert_eq!(ipython_cleanup("In [x]: 1\n"), "In [x]: 1\n");
        assert_eq!(ipython_cleanup("y = d['In [1]:']\n"), "y = d['In [1]:']\n");
    }

    #[test]
    fn line_count_is_kept() {
        let source = "\n  >>> a = 1\n\n  >>> b = 2\n";
        let out = ipython_cleanup(source);
        assert_eq!(out.lines().count(), source.lines().count());
        assert_eq!(out, "\na = 1\n\nb = 2\n");
    }
}
