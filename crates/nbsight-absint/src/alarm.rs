//! Alarms: the problems a domain finds while interpreting a statement, of
//! the kinds the engines know, collected on the pass after a fixpoint.

use nbsight_notebook::OneIndexed;

/// What kind of problem an alarm reports. `nbsight-check` gives each kind
/// its rule (code, name, severity); the order is that of their codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AlarmKind {
    /// After the event, a cell run before the cell it depends on reads a
    /// stale value (what-if only: the impact domain's paths).
    StaleState,
    /// Statistics fitted on data later split into train and test.
    PreprocessingLeakage,
    /// Test rows reach the training data (resampling before the split).
    OverlapLeakage,
    /// One test set used to choose among models.
    MultiTestLeakage,
}

/// A problem a domain finds while interpreting a statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alarm {
    pub kind: AlarmKind,
    /// Where in the cell: the line and column of the statement or call.
    pub line: OneIndexed,
    pub column: OneIndexed,
    pub message: String,
    /// The cells whose code the problem involves (besides the alarm's own):
    /// positions in the model's cell list.
    pub involved: Vec<usize>,
    /// Alarms of one kind with the same key, along one order of runs, are
    /// one problem: see [`Joins`]. `None` for an alarm that stands alone.
    pub joins: Option<Joins>,
}

/// How an alarm belongs to one problem raised along one order of runs (a
/// third model scored on a test set already used to choose among two): the
/// first alarm that opens it is reported, and each later alarm of the same
/// kind and key adds its cells to that one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Joins {
    /// What the problem is about (a split's site).
    pub key: u32,
    /// How much of the problem the alarm sees (the models it counts): the
    /// one finding keeps the message of the alarm that sees the most.
    pub weight: u32,
    /// Whether this alarm opens the problem when none is open yet; an
    /// alarm that does not is dropped then.
    pub opens: bool,
}

/// Collects alarms when `on` (the final pass after a fixpoint).
#[derive(Debug, Default)]
pub struct Alarms {
    pub on: bool,
    pub list: Vec<Alarm>,
}

impl Alarms {
    pub fn push(&mut self, alarm: Alarm) {
        if self.on
            && !self
                .list
                .iter()
                .any(|a| a.kind == alarm.kind && a.line == alarm.line)
        {
            self.list.push(alarm);
        }
    }
}
