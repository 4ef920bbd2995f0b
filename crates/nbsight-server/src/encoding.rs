//! Positions as the client counts them: LSP positions are a line and a
//! column in UTF-16 code units unless the client offers UTF-8 or UTF-32
//! (`general.positionEncodings`; UTF-8 is chosen first, as ruff does). The
//! engines count columns in characters and texts are Rust strings.

use lsp_types::{ClientCapabilities, Position, PositionEncodingKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Utf8,
    Utf16,
    Utf32,
}

impl Encoding {
    /// The encoding to use with a client that has `capabilities`.
    pub(crate) fn negotiate(capabilities: &ClientCapabilities) -> Encoding {
        let offered = capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_deref())
            .unwrap_or_default();
        for (kind, encoding) in [
            (PositionEncodingKind::UTF8, Encoding::Utf8),
            (PositionEncodingKind::UTF16, Encoding::Utf16),
            (PositionEncodingKind::UTF32, Encoding::Utf32),
        ] {
            if offered.contains(&kind) {
                return encoding;
            }
        }
        Encoding::Utf16
    }

    pub(crate) fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }

    /// The width of `c` in this encoding's units.
    fn width(self, c: char) -> u32 {
        match self {
            Encoding::Utf8 => c.len_utf8() as u32,
            Encoding::Utf16 => c.len_utf16() as u32,
            Encoding::Utf32 => 1,
        }
    }

    /// The byte offset in `text` of `position` (clamped to the line's end
    /// and the text's end; a column inside a character stops before it).
    pub(crate) fn offset(self, text: &str, position: Position) -> usize {
        let Some(start) = line_start(text, position.line as usize) else {
            return text.len();
        };
        let line = line_text(&text[start..]);
        let mut units = 0;
        for (at, c) in line.char_indices() {
            if units >= position.character {
                return start + at;
            }
            units += self.width(c);
            if units > position.character {
                return start + at;
            }
        }
        start + line.len()
    }

    /// The position of byte `offset` in `text`.
    pub(crate) fn position(self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line = before.matches('\n').count();
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let character = before[line_start..].chars().map(|c| self.width(c)).sum();
        Position::new(line as u32, character)
    }

    /// The position of the 0-based character `column` on 0-based `line` of
    /// `text` (clamped to the line).
    pub(crate) fn at_char(self, text: &str, line: usize, column: usize) -> Position {
        let Some(start) = line_start(text, line) else {
            return self.position(text, text.len());
        };
        let units = line_text(&text[start..])
            .chars()
            .take(column)
            .map(|c| self.width(c))
            .sum();
        Position::new(line as u32, units)
    }
}

/// The byte offset where 0-based `line` starts, `None` past the last line.
pub(crate) fn line_start(text: &str, line: usize) -> Option<usize> {
    if line == 0 {
        return Some(0);
    }
    text.match_indices('\n').nth(line - 1).map(|(i, _)| i + 1)
}

/// The text up to the end of the first line (without `\r\n` or `\n`).
pub(crate) fn line_text(text: &str) -> &str {
    let line = text.split('\n').next().unwrap_or_default();
    line.strip_suffix('\r').unwrap_or(line)
}

/// Line `line` (0-based) of `text`, empty past the end.
pub(crate) fn nth_line(text: &str, line: usize) -> &str {
    line_start(text, line).map_or("", |start| line_text(&text[start..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_in_the_negotiated_units() {
        let text = "a = 1\né𝄞x = 2\n";
        let x = text.find('x').unwrap();
        assert_eq!(Encoding::Utf16.position(text, x), Position::new(1, 3));
        assert_eq!(Encoding::Utf8.position(text, x), Position::new(1, 6));
        assert_eq!(Encoding::Utf32.position(text, x), Position::new(1, 2));
        for encoding in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            let at = encoding.position(text, x);
            assert_eq!(encoding.offset(text, at), x);
            assert_eq!(encoding.at_char(text, 1, 2), at);
        }
        // Past the line's end: its end; past the text: its end.
        assert_eq!(Encoding::Utf16.offset(text, Position::new(0, 99)), 5);
        assert_eq!(
            Encoding::Utf16.offset(text, Position::new(9, 0)),
            text.len()
        );
    }
}
