//! Where a cell's source text sits in the JSON text of its `.ipynb` file.
//!
//! A finding says "cell 5, line 3, column 7"; a tool that shows the file
//! itself (GitHub code scanning, an editor opening the `.ipynb` as text)
//! needs the line and column of the *file*. [`IpynbPositions`] scans the JSON
//! text once, without recursion, and keeps for each element of the top-level
//! `cells` array the string tokens of its `source` (a string or a list of
//! strings) with the file position where each starts; [`IpynbPositions::locate`]
//! then decodes one cell's tokens, escapes included, up to the wanted source
//! position. Columns count Unicode code points, as the cell's do.
//!
//! Anything unexpected (invalid JSON, a `source` that is not text) leaves the
//! cells it touches without positions: `locate` answers `None`, never panics.

use ruff_source_file::OneIndexed;

/// A string token of a cell's `source`: its raw text between the quotes and
/// the byte offset of its first character (after the opening quote).
#[derive(Debug, Clone, Copy)]
struct Token<'a> {
    raw: &'a str,
    offset: usize,
}

/// The source tokens of every cell of an `.ipynb` text.
///
/// The scan only records byte offsets; lines and columns are counted when a
/// position is asked for (most of a notebook's text, its outputs, is never
/// asked about).
#[derive(Debug, Clone, Default)]
pub struct IpynbPositions<'a> {
    text: &'a str,
    /// Indexed by the cell's position in the `cells` array.
    cells: Vec<Vec<Token<'a>>>,
    /// The byte offset where each file line starts, made on the first
    /// [`IpynbPositions::locate`].
    line_starts: std::cell::OnceCell<Vec<usize>>,
}

/// One step of the path from the document's root to the current value.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// Inside an object; the key of the current member once read.
    Key(Option<String>),
    /// Inside an array, at this element.
    Index(usize),
}

impl<'a> IpynbPositions<'a> {
    /// Scans `text` (the whole `.ipynb` file, a leading BOM allowed).
    pub fn new(text: &'a str) -> Self {
        let mut positions = IpynbPositions {
            text,
            ..IpynbPositions::default()
        };
        let mut scanner = Scanner::new(text);
        let mut path: Vec<Step> = Vec::new();
        // An object member's key was read and its `:` not yet seen.
        let mut expecting_key = false;
        while let Some(byte) = scanner.peek() {
            match byte {
                b'{' => {
                    scanner.bump();
                    path.push(Step::Key(None));
                    expecting_key = true;
                }
                b'[' => {
                    scanner.bump();
                    path.push(Step::Index(0));
                }
                b'}' | b']' => {
                    scanner.bump();
                    path.pop();
                    expecting_key = false;
                }
                b',' => {
                    scanner.bump();
                    match path.last_mut() {
                        Some(Step::Index(i)) => *i += 1,
                        Some(Step::Key(key)) => {
                            *key = None;
                            expecting_key = true;
                        }
                        None => {}
                    }
                }
                b':' => {
                    scanner.bump();
                    expecting_key = false;
                }
                b'"' => {
                    let offset = scanner.at + 1;
                    let Some(raw) = scanner.string() else { break };
                    if expecting_key {
                        if let Some(Step::Key(key)) = path.last_mut() {
                            *key = Some(decode(raw));
                        }
                    } else if let Some(cell) = source_cell(&path) {
                        if positions.cells.len() <= cell {
                            positions.cells.resize_with(cell + 1, Vec::new);
                        }
                        positions.cells[cell].push(Token { raw, offset });
                    }
                }
                b' ' | b'\t' | b'\r' | b'\n' => scanner.bump(),
                // A number, a literal, a BOM or garbage: skipped.
                _ => scanner.bump(),
            }
        }
        positions
    }

    /// The file line and column of `line`, `column` (1-based, code points) of
    /// cell `cell`'s source; a column at the end of the line is the position
    /// just after its last character.
    pub fn locate(
        &self,
        cell: usize,
        line: OneIndexed,
        column: OneIndexed,
    ) -> Option<(OneIndexed, OneIndexed)> {
        let tokens = self.cells.get(cell)?;
        let (want_line, want_column) = (line.to_zero_indexed(), column.to_zero_indexed());
        let (mut src_line, mut src_column) = (0usize, 0usize);
        // Just after the last character of the wanted line seen so far.
        let mut end = None;
        for token in tokens {
            // Code points after the token's first character.
            let mut file_column = 0;
            let mut chars = token.raw.char_indices().peekable();
            while let Some((_, c)) = chars.next() {
                let start = file_column;
                let decoded = if c == '\\' {
                    let (escaped, width) = escape(&mut chars);
                    file_column += width;
                    escaped
                } else {
                    file_column += 1;
                    Some(c)
                };
                let Some(decoded) = decoded else { continue };
                if src_line == want_line && (src_column == want_column || decoded == '\n') {
                    // The character, or (a column past the end) the end of
                    // the line.
                    return Some(self.file_position(token, start));
                }
                if decoded == '\n' {
                    src_line += 1;
                    src_column = 0;
                } else {
                    src_column += 1;
                }
            }
            if src_line == want_line {
                end = Some(self.file_position(token, file_column));
            }
        }
        end
    }

    /// The 1-based file line and column of the character `after` code
    /// points past `token`'s first one (JSON strings never span lines).
    fn file_position(&self, token: &Token<'_>, after: usize) -> (OneIndexed, OneIndexed) {
        let starts = self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(|at| at + 1))
                .collect()
        });
        let line = starts.partition_point(|&start| start <= token.offset);
        let line_start = starts[line.saturating_sub(1)];
        let column = self
            .text
            .get(line_start..token.offset)
            .map_or(0, |before| before.chars().count());
        (one(line), one(column + 1 + after))
    }
}

fn one(n: usize) -> OneIndexed {
    OneIndexed::new(n).unwrap_or(OneIndexed::MIN)
}

/// The cell whose source `path` is in: `cells[i].source` or
/// `cells[i].source[j]` at the document's top level.
fn source_cell(path: &[Step]) -> Option<usize> {
    let (Step::Key(Some(cells)), Step::Index(cell), Step::Key(Some(source))) =
        (path.first()?, path.get(1)?, path.get(2)?)
    else {
        return None;
    };
    let depth_ok = match path.len() {
        3 => true,
        4 => matches!(path[3], Step::Index(_)),
        _ => false,
    };
    (cells == "cells" && source == "source" && depth_ok).then_some(*cell)
}

/// The character after a backslash (`chars` is just past it) and the code
/// points the escape takes in the file, backslash included. A `\uXXXX`
/// surrogate half decodes to nothing (its pair counts as one character).
fn escape(chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>) -> (Option<char>, usize) {
    let Some((_, c)) = chars.next() else {
        return (None, 1);
    };
    let decoded = match c {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'b' => '\u{8}',
        'f' => '\u{c}',
        'u' => {
            let mut code = 0u32;
            let mut width = 2;
            for _ in 0..4 {
                match chars.peek().and_then(|(_, h)| h.to_digit(16)) {
                    Some(digit) => {
                        code = code * 16 + digit;
                        chars.next();
                        width += 1;
                    }
                    None => break,
                }
            }
            if (0xDC00..0xE000).contains(&code) {
                // The low half of a pair: the high half counted the char.
                return (None, width);
            }
            return (Some(char::from_u32(code).unwrap_or('\u{fffd}')), width);
        }
        other => other,
    };
    (Some(decoded), 2)
}

/// The decoded value of a short string (an object key).
fn decode(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c == '\\' {
            if let (Some(decoded), _) = escape(&mut chars) {
                out.push(decoded);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A byte cursor over the JSON text. It only ever stops on ASCII bytes
/// (structure, quotes) or steps one byte over anything else, so the slices
/// it hands out start and end on character boundaries.
struct Scanner<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner { text, at: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Steps over one byte.
    fn bump(&mut self) {
        self.at = (self.at + 1).min(self.text.len());
    }

    /// At a `"`: the raw text up to the closing quote, stepped over; `None`
    /// when the string does not end (or a raw line break comes first).
    fn string(&mut self) -> Option<&'a str> {
        self.bump();
        let start = self.at;
        let bytes = self.text.as_bytes();
        loop {
            let found = memchr::memchr3(b'"', b'\\', b'\n', bytes.get(self.at..)?)?;
            self.at += found;
            match bytes[self.at] {
                b'"' => {
                    let raw = self.text.get(start..self.at)?;
                    self.bump();
                    return Some(raw);
                }
                // A backslash: the escaped byte is stepped over with it.
                b'\\' => self.at += 2,
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(
        positions: &IpynbPositions<'_>,
        cell: usize,
        line: usize,
        column: usize,
    ) -> (usize, usize) {
        let (l, c) = positions
            .locate(cell, one(line), one(column))
            .expect("a position");
        (l.get(), c.get())
    }

    #[test]
    fn list_sources_map_each_line_to_its_element() {
        let text = "{\n \"cells\": [\n  {\n   \"cell_type\": \"markdown\",\n   \"source\": [\"# T\"]\n  },\n  {\n   \"cell_type\": \"code\",\n   \"source\": [\n    \"import os\\n\",\n    \"print(\\\"é\\\", y)\"\n   ]\n  }\n ]\n}\n";
        let positions = IpynbPositions::new(text);
        // `import os` on line 10, after 4 spaces and the quote.
        assert_eq!(at(&positions, 1, 1, 1), (10, 6));
        // `y` in `print(\"é\", y)`: source column 12, file column 6 + 11 + 2
        // (the two escaped quotes before it take two code points each).
        assert_eq!(at(&positions, 1, 2, 12), (11, 19));
        assert_eq!(text.lines().nth(10).unwrap(), "    \"print(\\\"é\\\", y)\"");
        assert_eq!(at(&positions, 0, 1, 1), (5, 16));
        assert_eq!(positions.locate(2, one(1), one(1)), None);
    }

    #[test]
    fn string_sources_stay_on_one_file_line() {
        let text =
            r#"{"metadata": {"source": "x"}, "cells": [{"source": "a = 1\nb = a\u00e9 + c"}]}"#;
        let positions = IpynbPositions::new(text);
        let start = text.find("a = 1").unwrap() + 1;
        assert_eq!(at(&positions, 0, 1, 1), (1, start));
        // `c`: after `a = 1\n` (6 + 1 extra for the escape) and `b = aé + `
        // (9 characters, the é written as 6).
        assert_eq!(at(&positions, 0, 2, 10), (1, start + 7 + 9 + 5));
        // A column past the end of a line: just after it.
        assert_eq!(at(&positions, 0, 1, 9), (1, start + 5));
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            "{",
            "{\"cells\": [{\"source\": \"abc",
            "[[[\"",
            "\u{feff}{}",
            "{\"cells\":[1,{\"source\":[\"\\u12\"]}]}",
        ] {
            let positions = IpynbPositions::new(text);
            let _ = positions.locate(1, one(1), one(1));
            let _ = positions.locate(0, one(3), one(9));
        }
    }
}
