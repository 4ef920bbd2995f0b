//! The notebook's kernel language.

use std::fmt;

use serde::Serialize;

/// The language a notebook's code cells are written in.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub enum Language {
    Python,
    /// Any other language, spelled as the file spells it (e.g. `"R"`, `"julia"`).
    Other(String),
}

impl Language {
    /// Classify a language name from notebook metadata. Names are compared
    /// case-insensitively; `python`, `python3`, `Python 2`, `ipython` are Python.
    pub fn from_name(name: &str) -> Language {
        let lower = name.trim().to_ascii_lowercase();
        if lower.is_empty() || lower.starts_with("python") || lower.starts_with("ipython") {
            Language::Python
        } else {
            Language::Other(name.trim().to_string())
        }
    }

    pub fn is_python(&self) -> bool {
        matches!(self, Language::Python)
    }

    pub fn name(&self) -> &str {
        match self {
            Language::Python => "python",
            Language::Other(name) => name,
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_names() {
        assert_eq!(Language::from_name("python"), Language::Python);
        assert_eq!(Language::from_name("Python3"), Language::Python);
        assert_eq!(Language::from_name("PYTHON"), Language::Python);
        assert_eq!(Language::from_name("R"), Language::Other("R".into()));
        assert_eq!(Language::from_name("julia").name(), "julia");
        assert!(!Language::from_name("julia").is_python());
    }
}
