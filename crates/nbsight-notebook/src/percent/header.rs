//! The jupytext YAML header of a percent script (`# ---` ... `# ---`).
//!
//! The header is skipped; only `jupyter.kernelspec.language` is read, by a small
//! indentation-aware scan (no YAML parser is needed for one key).

/// Find the header among the first lines. Returns the declared kernel language, if
/// any, and the index of the first line after the header (0 when there is none).
///
/// The header may be preceded by blank lines, a `#!` line and a coding comment; it
/// must be closed by a second `# ---`, and every line in it must be a comment.
pub(crate) fn split_header(lines: &[&str]) -> (Option<String>, usize) {
    let Some(open) = lines.iter().position(|l| !is_preamble(l)) else {
        return (None, 0);
    };
    if lines[open].trim_end() != "# ---" {
        return (None, 0);
    }
    let mut close = None;
    for (i, line) in lines.iter().enumerate().skip(open + 1) {
        if line.trim_end() == "# ---" {
            close = Some(i);
            break;
        }
        if !line.starts_with('#') {
            return (None, 0);
        }
    }
    let Some(close) = close else {
        return (None, 0);
    };
    (kernel_language(&lines[open + 1..close]), close + 1)
}

fn is_preamble(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with("#!") || (t.starts_with('#') && t.contains("coding"))
}

/// `kernelspec.language` from the commented YAML lines.
fn kernel_language(yaml: &[&str]) -> Option<String> {
    let mut kernelspec_indent: Option<usize> = None;
    for line in yaml {
        let text = line
            .strip_prefix("# ")
            .or_else(|| line.strip_prefix('#'))
            .unwrap_or(line);
        let content = text.trim();
        if content.is_empty() {
            continue;
        }
        let indent = text.len() - text.trim_start().len();
        if let Some(k) = kernelspec_indent {
            if indent <= k {
                kernelspec_indent = None;
            } else if let Some(value) = content.strip_prefix("language:") {
                let value = value.trim().trim_matches(['"', '\'']).trim();
                return (!value.is_empty()).then(|| value.to_string());
            }
        }
        if content == "kernelspec:" {
            kernelspec_indent = Some(indent);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "# ---\n# jupyter:\n#   jupytext:\n#     text_representation:\n#       extension: .py\n#       format_name: percent\n#   kernelspec:\n#     display_name: R\n#     language: R\n#     name: ir\n# ---\n\n# %%\nx <- 1";

    #[test]
    fn reads_kernel_language_and_skips_header() {
        let lines: Vec<&str> = HEADER.lines().collect();
        let (lang, start) = split_header(&lines);
        assert_eq!(lang.as_deref(), Some("R"));
        assert_eq!(start, 11);
    }

    #[test]
    fn language_outside_kernelspec_is_ignored() {
        let text =
            "# ---\n# jupyter:\n#   language: julia\n#   kernelspec:\n#     name: x\n# ---\n";
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(split_header(&lines), (None, 6));
    }

    #[test]
    fn no_header() {
        let lines: Vec<&str> = "x = 1\n# ---\n# ---".lines().collect();
        assert_eq!(split_header(&lines), (None, 0));
        let lines: Vec<&str> = "# ---\nx = 1\n# ---".lines().collect();
        assert_eq!(split_header(&lines), (None, 0));
        let lines: Vec<&str> = "# ---\n# a: 1".lines().collect();
        assert_eq!(split_header(&lines), (None, 0));
        assert_eq!(split_header(&[]), (None, 0));
    }

    #[test]
    fn shebang_before_header() {
        let lines: Vec<&str> = "#!/usr/bin/env python\n# ---\n# a: 1\n# ---\nx"
            .lines()
            .collect();
        assert_eq!(split_header(&lines), (None, 4));
    }
}
