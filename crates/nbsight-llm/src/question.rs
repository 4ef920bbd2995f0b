//! The questions asked about a cell: is a symbol an input, or an output candidate?

/// What a [`Question`] asks about its symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuestionKind {
    /// Is the symbol an input of the cell: a value produced by an earlier cell that
    /// this cell reads or mutates in place?
    Input,
    /// Is the symbol an output candidate of the cell: a value this cell produces or
    /// mutates in place that a later cell could read?
    OutputCandidate,
}

impl QuestionKind {
    /// The noun used in prompts and messages: `input` or `output candidate`.
    pub fn noun(self) -> &'static str {
        match self {
            QuestionKind::Input => "input",
            QuestionKind::OutputCandidate => "output candidate",
        }
    }
}

/// One ambiguity left by the static analysis, about one cell.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Question {
    pub kind: QuestionKind,
    /// The symbol asked about, as nbsight spells it (`df`, `df.col`, `d['k']`).
    pub symbol: String,
    /// The cell's source code.
    pub cell_source: String,
    /// Earlier statements that create an alias involved in the question, if any.
    pub context: Option<String>,
    /// How the cell is named to the model and in messages, e.g. `cell 7`.
    pub cell_label: String,
}

impl Question {
    /// The question in a few words, for messages: ``is `df` an input of cell 7``.
    pub fn describe(&self) -> String {
        format!(
            "is `{}` an {} of {}",
            self.symbol,
            self.kind.noun(),
            self.cell_label
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_itself() {
        let q = Question {
            kind: QuestionKind::OutputCandidate,
            symbol: "df".into(),
            cell_source: "df = 1".into(),
            context: None,
            cell_label: "cell 3".into(),
        };
        assert_eq!(q.describe(), "is `df` an output candidate of cell 3");
    }
}
