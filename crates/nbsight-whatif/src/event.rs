//! The notebook actions the what-if engine answers: open, execute, edit,
//! insert, delete a cell.

/// A notebook action. Cells are 0-based positions in the notebook's cell
/// list, as given (checked against the notebook when the query runs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The notebook is opened in a kernel in the history's state.
    Open,
    /// Cell N is executed.
    Execute(usize),
    /// Cell N's source is replaced.
    Edit { cell: usize, source: String },
    /// A new code cell is inserted at position N.
    Insert { cell: usize, source: String },
    /// Cell N is deleted.
    Delete(usize),
}

impl Event {
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Open => "open",
            Event::Execute(_) => "execute",
            Event::Edit { .. } => "edit",
            Event::Insert { .. } => "insert",
            Event::Delete(_) => "delete",
        }
    }

    pub fn cell(&self) -> Option<usize> {
        match self {
            Event::Open => None,
            Event::Execute(c) | Event::Delete(c) => Some(*c),
            Event::Edit { cell, .. } | Event::Insert { cell, .. } => Some(*cell),
        }
    }
}
