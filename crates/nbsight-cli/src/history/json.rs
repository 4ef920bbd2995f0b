//! The JSON contract of `nbsight history --format json`: a list of
//! executions in the order they ran, session by session.

use nbsight_history::ExecutionRow;
use serde::Serialize;

use super::time::rfc3339;

#[derive(Debug, Serialize)]
pub struct ReadJson<'a> {
    pub symbol: &'a str,
    /// Read as a whole (`lst` in `print(lst)`), not only a part of it.
    pub whole: bool,
}

/// One execution.
#[derive(Debug, Serialize)]
pub struct ExecutionJson<'a> {
    pub session: i64,
    /// Its position in the session's log (0-based; what `depends_on` holds).
    pub index: u32,
    pub cell: &'a str,
    /// The kernel's execution count, `null` for a run that stored none.
    pub execution_count: Option<u32>,
    /// nbsight's counter (the lineage's clock).
    pub counter: u32,
    /// Unix seconds.
    pub started: f64,
    /// The same, RFC 3339 in UTC (`null` for a time no clock gives).
    pub time: Option<String>,
    pub seconds: f64,
    /// `ok` or `error`.
    pub status: &'static str,
    pub reads: Vec<ReadJson<'a>>,
    pub writes: &'a [String],
    /// The executions (indices in the same session) that set what it read.
    pub depends_on: &'a [u32],
    pub source: &'a str,
}

impl<'a> ExecutionJson<'a> {
    pub fn new(e: &'a ExecutionRow) -> Self {
        ExecutionJson {
            session: e.session.0,
            index: e.index,
            cell: &e.cell_id,
            execution_count: e.execution_count,
            counter: e.counter,
            started: e.started,
            time: rfc3339(e.started),
            seconds: e.seconds,
            status: e.status.as_str(),
            reads: e
                .reads
                .iter()
                .map(|(symbol, whole)| ReadJson {
                    symbol,
                    whole: *whole,
                })
                .collect(),
            writes: &e.writes,
            depends_on: &e.depends_on,
            source: &e.source,
        }
    }
}
