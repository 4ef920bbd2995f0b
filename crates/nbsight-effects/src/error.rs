//! Errors raised while loading effects files.

use std::fmt;
use std::path::PathBuf;

use nbsight_notebook::OneIndexed;

/// A line and column (in characters) in an effects file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    pub line: OneIndexed,
    /// The column in characters.
    pub column: OneIndexed,
}

impl Location {
    /// The location of byte `offset` in `text` (clamped to the text).
    pub fn of_offset(text: &str, offset: usize) -> Location {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Location {
            line: OneIndexed::from_zero_indexed(before.matches('\n').count()),
            column: OneIndexed::from_zero_indexed(before[line_start..].chars().count()),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Why an effects file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum EffectsError {
    /// The file could not be read.
    #[error("cannot read effects file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid TOML, or an entry is malformed.
    #[error("{origin}{}: {message}", LocationSuffix(*location))]
    Invalid {
        /// Where the text came from (a path, or `<builtin>`).
        origin: String,
        /// Where in the text the problem is, when known.
        location: Option<Location>,
        /// What is wrong.
        message: String,
    },
}

/// Displays `:line:column` or nothing.
struct LocationSuffix(Option<Location>);

impl fmt::Display for LocationSuffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(location) => write!(f, ":{location}"),
            None => Ok(()),
        }
    }
}
