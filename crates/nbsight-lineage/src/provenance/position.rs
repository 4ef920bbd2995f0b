//! Code positions as the recorder names them: the line (1-based) and the
//! UTF-8 byte column (0-based) where an expression starts, as Python's `ast`
//! gives them, computed from the byte offsets ruff's parser gives.

use ruff_text_size::TextSize;

/// The starts of the lines of one cell's source.
#[derive(Debug, Clone)]
pub(crate) struct Positions {
    line_starts: Vec<u32>,
}

impl Positions {
    pub(crate) fn of(source: &str) -> Positions {
        let mut line_starts = vec![0];
        for (i, b) in source.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        Positions { line_starts }
    }

    /// `(line, column)` of byte `offset`.
    pub(crate) fn at(&self, offset: TextSize) -> (u32, u32) {
        let offset = offset.to_u32();
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self.line_starts[line.saturating_sub(1)];
        (line as u32, offset - start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_byte_columns() {
        let p = Positions::of("a = 1\nif é == b:\n    pass\n");
        assert_eq!(p.at(TextSize::from(0)), (1, 0));
        assert_eq!(p.at(TextSize::from(9)), (2, 3));
        // After the two-byte é, the column counts bytes.
        assert_eq!(p.at(TextSize::from(12)), (2, 6));
    }
}
