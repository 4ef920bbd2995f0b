//! One-line excerpts of foreign text (model answers, HTTP bodies) for error messages.

/// `text` on one line: runs of whitespace (newlines included) become one space, and
/// past `max_chars` characters it is cut and ends with `…`.
pub(crate) fn excerpt(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    let mut chars = 0;
    for word in text.split_whitespace() {
        if !out.is_empty() {
            if chars == max_chars {
                out.push('…');
                return out;
            }
            out.push(' ');
            chars += 1;
        }
        for c in word.chars() {
            if chars == max_chars {
                out.push('…');
                return out;
            }
            out.push(c);
            chars += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::excerpt;

    #[test]
    fn collapses_whitespace_and_truncates() {
        assert_eq!(excerpt("  a\n\n b\tc  ", 80), "a b c");
        assert_eq!(excerpt("abcdef", 3), "abc…");
        assert_eq!(excerpt("ab cd", 3), "ab …");
        assert_eq!(excerpt("ab", 2), "ab");
        assert_eq!(excerpt("ééé", 2), "éé…");
        assert_eq!(excerpt("", 5), "");
    }
}
