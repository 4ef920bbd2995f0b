//! How much a problem matters: the one scale that load diagnostics and
//! `nbsight check`'s findings share, ordered from least to most severe.

use std::fmt;

use serde::Serialize;

/// How much a problem matters; `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Informational (isolated cells, unused definitions).
    Info,
    /// Likely wrong results (staleness, leakage), or a cell read with a
    /// guess (a load warning).
    Warning,
    /// Run All would fail, or a cell could not be read.
    Error,
}

impl Severity {
    /// `info`, `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_from_least_to_most_severe() {
        assert!(Severity::Info < Severity::Warning && Severity::Warning < Severity::Error);
        assert_eq!(Severity::Error.to_string(), "error");
        assert_eq!(
            serde_json::to_string(&Severity::Warning).ok().as_deref(),
            Some("\"warning\"")
        );
    }
}
