//! One notebook cell: its identity, kind, source, saved state and code form.

use std::borrow::Cow;

use serde::Serialize;

use crate::OneIndexed;
use crate::automagic::automagic;
pub use crate::cell_kind::CellKind;
use crate::form::{CodeForm, classify};
use crate::language::Language;
use crate::magic::{blank_cell_magic, uncomment_percent_magics};
use crate::parse::{ParsedCell, parse_python};
use crate::transform::ipython_cleanup;

/// Where a cell's source came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum CellOrigin {
    /// A cell of an `.ipynb` document.
    Ipynb,
    /// A cell of a percent script whose source starts at file line
    /// `first_line`. Its code may hold jupytext-commented magics (`# %time x`).
    Percent { first_line: OneIndexed },
}

/// A notebook cell. Every cell of the document is kept, whatever its kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// 0-based position in the notebook's cell list (markdown and raw included).
    pub index: usize,
    /// The file's id when present (nbformat >= 4.5), else a content-derived one (see
    /// [`crate::content_id`]). Unique within the notebook.
    pub id: String,
    pub id_from_file: bool,
    pub kind: CellKind,
    /// The source text exactly as in the file (list-of-lines sources joined).
    pub source: String,
    /// The cell's tags (`metadata.tags`; `tags=[...]` on a percent marker).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    pub execution_count: Option<i64>,
    /// Number of saved outputs (code cells of `.ipynb` files).
    pub output_count: usize,
    pub form: CodeForm,
    pub origin: CellOrigin,
}

impl Cell {
    /// A code cell with `source` that has never run (an inserted cell), at
    /// position `index` of a notebook in `language`.
    pub fn new_code(index: usize, source: &str, language: &Language) -> Cell {
        Cell {
            index,
            id: crate::ids::content_id(CellKind::Code, source),
            id_from_file: false,
            kind: CellKind::Code,
            source: source.to_string(),
            tags: Vec::new(),
            execution_count: None,
            output_count: 0,
            form: classify(CellKind::Code, source, language, false),
            origin: CellOrigin::Ipynb,
        }
    }

    /// This cell with its source replaced (an edit): same id and position,
    /// form recomputed; saved count and outputs kept (they belong to the old
    /// source until it runs).
    pub fn edited(&self, source: &str, language: &Language) -> Cell {
        Cell {
            source: source.to_string(),
            form: classify(self.kind, source, language, false),
            origin: CellOrigin::Ipynb,
            ..self.clone()
        }
    }

    /// Does the cell have saved outputs?
    pub fn has_outputs(&self) -> bool {
        self.output_count > 0
    }

    /// Is this a code cell analysed as Python?
    pub fn is_python(&self) -> bool {
        self.kind == CellKind::Code && self.form.is_python()
    }

    /// The Python text of a Python code cell, line-for-line with `source`: a Python
    /// cell magic line (`%%time`) is blanked to an empty line, in percent
    /// scripts jupytext-commented magics (`# %matplotlib inline`) are uncommented,
    /// and what IPython strips before running a cell (common indentation,
    /// `>>> ` and `In [N]: ` prompts) is stripped ([`ipython_cleanup`]); a
    /// one-line cell that is not Python but starts with a line magic's name
    /// (`pip install pandas`) gets the `%` IPython's automagic runs it with
    /// (its columns then shift by one).
    /// `None` for every other cell.
    pub fn python_source(&self) -> Option<Cow<'_, str>> {
        if !self.is_python() {
            return None;
        }
        let text = match self.origin {
            CellOrigin::Ipynb => Cow::Borrowed(self.source.as_str()),
            CellOrigin::Percent { .. } => uncomment_percent_magics(&self.source),
        };
        let text = match text {
            Cow::Borrowed(text) => blank_cell_magic(text),
            Cow::Owned(text) => Cow::Owned(blank_cell_magic(&text).into_owned()),
        };
        let text = match text {
            Cow::Borrowed(text) => ipython_cleanup(text),
            Cow::Owned(text) => Cow::Owned(ipython_cleanup(&text).into_owned()),
        };
        // A one-line cell that is not Python but a line magic's name and
        // arguments runs as that magic (IPython's automagic).
        if let Some(magic) = automagic(&text)
            && parse_python(&text).has_errors()
        {
            return Some(Cow::Owned(magic));
        }
        Some(text)
    }

    /// Parse the cell's Python text with ruff in IPython mode. `None` for cells that
    /// are not Python; syntax errors are in [`ParsedCell::errors`].
    pub fn parse(&self) -> Option<ParsedCell> {
        self.python_source().map(|text| parse_python(&text))
    }

    /// The file line of the cell's `line`, for percent scripts.
    pub fn file_line(&self, line: OneIndexed) -> Option<OneIndexed> {
        match self.origin {
            CellOrigin::Ipynb => None,
            CellOrigin::Percent { first_line } => {
                Some(first_line.saturating_add(line.to_zero_indexed()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::form::OpaqueReason;
    use crate::magic::CellMagic;

    fn cell(source: &str, form: CodeForm, origin: CellOrigin) -> Cell {
        Cell {
            index: 0,
            id: "x".into(),
            id_from_file: false,
            kind: CellKind::Code,
            source: source.into(),
            tags: Vec::new(),
            execution_count: None,
            output_count: 0,
            form,
            origin,
        }
    }

    #[test]
    fn python_source_blanks_python_cell_magic() {
        let magic = CellMagic {
            name: "time".into(),
            args: String::new(),
        };
        let c = cell(
            "%%time\nx = 1",
            CodeForm::Python {
                cell_magic: Some(magic),
            },
            CellOrigin::Ipynb,
        );
        assert_eq!(c.python_source().as_deref(), Some("\nx = 1"));
        assert!(c.parse().is_some_and(|p| !p.has_errors()));
    }

    /// A one-line cell IPython runs by automagic is its magic, not a syntax
    /// error; the same line in a longer cell stays one, and a one-line cell
    /// that is Python stays Python.
    #[test]
    fn one_line_automagic_cells_run_as_their_magic() {
        let python = CodeForm::Python { cell_magic: None };
        let c = cell("pip install pandas", python.clone(), CellOrigin::Ipynb);
        assert_eq!(c.python_source().as_deref(), Some("%pip install pandas"));
        assert!(c.parse().is_some_and(|p| !p.has_errors()));
        let c = cell(
            "import os\npip install pandas",
            python.clone(),
            CellOrigin::Ipynb,
        );
        assert!(c.parse().is_some_and(|p| p.has_errors()));
        let c = cell("ls", python, CellOrigin::Ipynb);
        assert_eq!(c.python_source().as_deref(), Some("ls"));
    }

    #[test]
    fn python_source_is_cleaned_up_as_ipython_does() {
        let plain = CodeForm::Python { cell_magic: None };
        let c = cell("  a = 1\n  b = a", plain.clone(), CellOrigin::Ipynb);
        assert_eq!(c.python_source().as_deref(), Some("a = 1\nb = a"));
        assert!(c.parse().is_some_and(|p| !p.has_errors()));
        let c = cell(">>> a = 1\n>>> b = a", plain.clone(), CellOrigin::Ipynb);
        assert!(c.parse().is_some_and(|p| !p.has_errors()));
        let c = cell(
            "In [1]: a = (1,\n   ...:      2)",
            plain.clone(),
            CellOrigin::Ipynb,
        );
        assert!(c.parse().is_some_and(|p| !p.has_errors()));
        // A real indentation error stays one.
        let c = cell("a = 1\n  b = a", plain, CellOrigin::Ipynb);
        assert!(c.parse().is_some_and(|p| p.has_errors()));
        let magic = CellMagic {
            name: "time".into(),
            args: String::new(),
        };
        let c = cell(
            "%%time\n    x = 1",
            CodeForm::Python {
                cell_magic: Some(magic),
            },
            CellOrigin::Ipynb,
        );
        assert_eq!(c.python_source().as_deref(), Some("\nx = 1"));
    }

    #[test]
    fn percent_cells_uncomment_magics() {
        let c = cell(
            "# %%time\n# %matplotlib inline\nx = 1",
            CodeForm::Python { cell_magic: None },
            CellOrigin::Percent {
                first_line: OneIndexed::new(5).unwrap(),
            },
        );
        assert_eq!(
            c.python_source().as_deref(),
            Some("\n%matplotlib inline\nx = 1")
        );
        let line = |n| OneIndexed::new(n).unwrap();
        assert_eq!(c.file_line(line(2)), Some(line(6)));
    }

    #[test]
    fn opaque_and_markdown_have_no_python() {
        let c = cell(
            "%%bash\nls",
            CodeForm::Opaque {
                reason: OpaqueReason::MissingCellType,
            },
            CellOrigin::Ipynb,
        );
        assert!(c.python_source().is_none());
        assert!(c.parse().is_none());
        let mut m = cell("# T", CodeForm::NotCode, CellOrigin::Ipynb);
        m.kind = CellKind::Markdown;
        assert!(!m.is_python());
        assert!(!m.has_outputs());
        assert_eq!(m.file_line(OneIndexed::MIN), None);
    }
}
