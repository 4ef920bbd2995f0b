//! What scanning one notebook gave: its [`Status`], and the rows of its
//! analysis ([`Outcome`]); [`Done`] adds its id and time, as the tables
//! record them; a [`Sink`] takes them a batch at a time, and [`DoneIds`]
//! says which notebooks a resumed scan has done already.

use std::collections::HashMap;

use crate::error::ScanError;
use crate::rows::Rows;

/// A notebook's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Analysed.
    Ok,
    /// Analysed, but a cell does not parse (the other cells were analysed).
    SyntaxError,
    /// Not a notebook nbsight can read (or the analysis failed on it).
    Unreadable,
    /// Its analysis took longer than the time budget.
    Timeout,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::SyntaxError => "syntax-error",
            Status::Unreadable => "unreadable",
            Status::Timeout => "timeout",
        }
    }
}

/// What one notebook gave.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub status: Status,
    /// Why it is not `ok` (`None` when it is).
    pub message: Option<String>,
    pub rows: Rows,
}

impl Outcome {
    pub fn failed(status: Status, message: impl Into<String>) -> Outcome {
        Outcome {
            status,
            message: Some(message.into()),
            rows: Rows::None,
        }
    }
}

/// A notebook's outcome after its run.
#[derive(Debug, Clone, PartialEq)]
pub struct Done {
    pub id: String,
    pub seconds: f64,
    pub outcome: Outcome,
}

/// How many times each id has a status row already (ids may repeat in
/// an input: each occurrence is a notebook).
pub type DoneIds = HashMap<String, u32>;

/// Where the rows go, a batch at a time, in input order.
pub trait Sink {
    fn commit(&mut self, done: &[Done]) -> Result<(), ScanError>;
}
