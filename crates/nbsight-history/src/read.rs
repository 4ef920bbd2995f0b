//! Reading a history back: sessions, executions as plain rows, the
//! notebook order of a session, dynamic slices (the stored log rebuilt as
//! `nbsight_lineage::Execution`s and sliced by the lineage's own functions)
//! and the provenance of a value (the session's runs replayed by the
//! lineage's provenance engine, as the kernel did). Every value read is
//! checked.

use std::collections::HashMap;
use std::path::Path;

use nbsight_dataflow::Effects;
use nbsight_lineage::provenance::Provenance;
use nbsight_lineage::{Execution, ProvenanceReport, slice_history};
use rusqlite::{OptionalExtension, Row};

use crate::{History, HistoryError, RecordedEvents, SessionId};

/// How an execution ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunStatus {
    Ok,
    /// It raised.
    Error,
}

impl RunStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Ok => "ok",
            RunStatus::Error => "error",
        }
    }
}

/// A session as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionRow {
    pub id: SessionId,
    /// The notebook's path as the kernel knew it.
    pub notebook: Option<String>,
    /// The Python version of the kernel.
    pub python: String,
    pub nbsight_version: String,
    /// Unix seconds.
    pub started: f64,
    /// How many executions it recorded.
    pub executions: u32,
    /// The user library-effects files the kernel read (paths).
    pub effects: Vec<String>,
}

/// An execution as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecutionRow {
    pub session: SessionId,
    /// Its position in the session's log (0-based).
    pub index: u32,
    pub cell_id: String,
    /// The lineage's clock when it ran.
    pub counter: u32,
    /// The kernel's execution count (`[4]`), when the run stored history.
    pub execution_count: Option<u32>,
    /// Unix seconds.
    pub started: f64,
    pub seconds: f64,
    pub status: RunStatus,
    pub source: String,
    /// What it read, in order: symbol and whether as a whole.
    pub reads: Vec<(String, bool)>,
    /// What it set, changed in place or deleted, in order.
    pub writes: Vec<String>,
    /// The earlier executions (of the same session) that set what it read.
    pub depends_on: Vec<u32>,
}

/// The notebook order a front end synced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// How many executions the session had recorded when it was synced.
    pub after: u32,
    /// `(cell id, source)` in notebook order.
    pub cells: Vec<(String, String)>,
}

/// The provenance of a value, as the session's kernel answered it.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionProvenance {
    pub session: SessionId,
    /// What `nbsight.provenance(symbol)` answered at the session's end.
    pub report: ProvenanceReport,
    /// The latest execution that set or changed the value's root name.
    pub last_set: Option<ExecutionRow>,
    /// The recorded executions whose replay gave up (what they wrote is
    /// then its own input) and that set the value's root name or one of
    /// its inputs, with the reason: `(index, reason)`.
    pub gave_up: Vec<(u32, String)>,
}

/// A count or index read from the file: a `u32`, or the file is damaged.
fn index(path: &Path, value: i64, what: &str) -> Result<u32, HistoryError> {
    u32::try_from(value)
        .map_err(|_| HistoryError::corrupt(path, format!("{what} {value} is out of range")))
}

/// The columns of `executions` the readers select, in [`execution_row`]'s
/// order.
const EXECUTION_COLUMNS: &str =
    "session, execution, cell_id, counter, execution_count, started, seconds, status, source";

/// The raw values of an execution row, checked by [`execution_row`].
type RawExecution = (i64, i64, String, i64, Option<i64>, f64, f64, String, String);

fn raw_execution(row: &Row<'_>) -> rusqlite::Result<RawExecution> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
        row.get(6)?,
        row.get(7)?,
        row.get(8)?,
    ))
}

fn execution_row(path: &Path, raw: RawExecution) -> Result<ExecutionRow, HistoryError> {
    let (session, execution, cell_id, counter, count, started, seconds, status, source) = raw;
    let status = match status.as_str() {
        "ok" => RunStatus::Ok,
        "error" => RunStatus::Error,
        other => {
            return Err(HistoryError::corrupt(
                path,
                format!("execution status `{other}` (expected ok or error)"),
            ));
        }
    };
    Ok(ExecutionRow {
        session: SessionId(session),
        index: index(path, execution, "execution index")?,
        cell_id,
        counter: index(path, counter, "counter")?,
        execution_count: count
            .map(|c| index(path, c, "execution count"))
            .transpose()?,
        started,
        seconds,
        status,
        source,
        reads: Vec::new(),
        writes: Vec::new(),
        depends_on: Vec::new(),
    })
}

impl History {
    /// Every session, oldest first.
    pub fn sessions(&self) -> Result<Vec<SessionRow>, HistoryError> {
        let sql = |e| HistoryError::sqlite(&self.path, e);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT s.id, s.notebook, s.python, s.nbsight_version, s.started,
                        (SELECT count(*) FROM executions e WHERE e.session = s.id), s.effects
                 FROM sessions s ORDER BY s.id",
            )
            .map_err(sql)?;
        let rows = stmt
            .query_map([], |row| {
                Ok((
                    row.get::<_, i64>(0)?,
                    row.get::<_, Option<String>>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                    row.get::<_, f64>(4)?,
                    row.get::<_, i64>(5)?,
                    row.get::<_, String>(6)?,
                ))
            })
            .map_err(sql)?;
        let mut sessions = Vec::new();
        for row in rows {
            let (id, notebook, python, nbsight_version, started, count, effects) =
                row.map_err(sql)?;
            sessions.push(SessionRow {
                id: SessionId(id),
                notebook,
                python,
                nbsight_version,
                started,
                executions: index(&self.path, count, "execution count of a session")?,
                effects: effects
                    .split('\n')
                    .filter(|p| !p.is_empty())
                    .map(str::to_string)
                    .collect(),
            });
        }
        Ok(sessions)
    }

    /// The session's executions in the order they ran, each with its
    /// reads, writes and dependences.
    pub fn executions(&self, session: SessionId) -> Result<Vec<ExecutionRow>, HistoryError> {
        let path = &self.path;
        let sql = |e| HistoryError::sqlite(path, e);
        let mut stmt = self
            .conn
            .prepare_cached(&format!(
                "SELECT {EXECUTION_COLUMNS} FROM executions WHERE session = ?1 ORDER BY execution"
            ))
            .map_err(sql)?;
        let raw: Vec<RawExecution> = stmt
            .query_map([session.0], raw_execution)
            .map_err(sql)?
            .collect::<Result<_, _>>()
            .map_err(sql)?;
        let mut rows = raw
            .into_iter()
            .map(|r| execution_row(path, r))
            .collect::<Result<Vec<_>, _>>()?;
        let at: HashMap<u32, usize> = rows.iter().enumerate().map(|(i, r)| (r.index, i)).collect();
        // Each table of per-execution rows, added to its execution's row.
        type Add<'a> = &'a dyn Fn(&mut ExecutionRow, &rusqlite::Row) -> Result<(), HistoryError>;
        let mut attach = |query: &str, add: Add| -> Result<(), HistoryError> {
            let mut stmt = self.conn.prepare_cached(query).map_err(sql)?;
            let mut found = stmt.query([session.0]).map_err(sql)?;
            while let Some(row) = found.next().map_err(sql)? {
                let execution = row.get::<_, i64>(0).map_err(sql)?;
                if let Some(&i) = at.get(&index(path, execution, "execution index")?) {
                    add(&mut rows[i], row)?;
                }
            }
            Ok(())
        };
        attach(
            "SELECT execution, symbol, whole FROM reads WHERE session = ?1
             ORDER BY execution, position",
            &|r, row| {
                r.reads
                    .push((row.get(1).map_err(sql)?, row.get(2).map_err(sql)?));
                Ok(())
            },
        )?;
        attach(
            "SELECT execution, symbol FROM writes WHERE session = ?1
             ORDER BY execution, position",
            &|r, row| {
                r.writes.push(row.get(1).map_err(sql)?);
                Ok(())
            },
        )?;
        attach(
            "SELECT execution, on_execution FROM depends_on WHERE session = ?1
             ORDER BY execution, on_execution",
            &|r, row| {
                let on = row.get::<_, i64>(1).map_err(sql)?;
                r.depends_on.push(index(path, on, "execution index")?);
                Ok(())
            },
        )?;
        Ok(rows)
    }

    /// The notebook order the front end last synced in the session.
    pub fn view(&self, session: SessionId) -> Result<Option<View>, HistoryError> {
        let sql = |e| HistoryError::sqlite(&self.path, e);
        let after: Option<i64> = self
            .conn
            .query_row(
                "SELECT after FROM views WHERE session = ?1",
                [session.0],
                |row| row.get(0),
            )
            .optional()
            .map_err(sql)?;
        let Some(after) = after else {
            return Ok(None);
        };
        let mut stmt = self
            .conn
            .prepare("SELECT cell_id, source FROM view_cells WHERE session = ?1 ORDER BY position")
            .map_err(sql)?;
        let cells = stmt
            .query_map([session.0], |row| Ok((row.get(0)?, row.get(1)?)))
            .map_err(sql)?
            .collect::<Result<Vec<(String, String)>, _>>()
            .map_err(sql)?;
        Ok(Some(View {
            after: index(&self.path, after, "view position")?,
            cells,
        }))
    }

    /// The latest session in which `cell_id` ran.
    pub fn latest_session_of(&self, cell_id: &str) -> Result<Option<SessionId>, HistoryError> {
        self.conn
            .query_row(
                "SELECT max(session) FROM executions WHERE cell_id = ?1",
                [cell_id],
                |row| row.get::<_, Option<i64>>(0),
            )
            .map(|s| s.map(SessionId))
            .map_err(|e| self.error(e))
    }

    /// The cells of the session in notebook order, as the live session
    /// had them: the synced view, with the cells that ran after it and it
    /// lacks appended in the order they first ran; without a view, the
    /// cells in the order they first ran.
    pub fn cell_order(
        &self,
        session: SessionId,
        executions: &[ExecutionRow],
    ) -> Result<Vec<String>, HistoryError> {
        let mut order: Vec<String> = Vec::new();
        let after = match self.view(session)? {
            Some(view) => {
                order.extend(view.cells.into_iter().map(|(id, _)| id));
                view.after
            }
            None => 0,
        };
        for e in executions.iter().filter(|e| e.index >= after) {
            if !order.contains(&e.cell_id) {
                order.push(e.cell_id.clone());
            }
        }
        Ok(order)
    }

    /// The dynamic slice of `cell_id`'s latest execution in the session:
    /// the cells whose latest executions are in its backward slice (with
    /// `forward`, those that depend on it), the cell included, in notebook
    /// order; `None` when the cell did not run in that session. The same
    /// answer `nbsight.backward_slice` gave in the kernel.
    pub fn dynamic_slice(
        &self,
        session: SessionId,
        cell_id: &str,
        forward: bool,
    ) -> Result<Option<Vec<String>>, HistoryError> {
        let rows = self.executions(session)?;
        let order = self.cell_order(session, &rows)?;
        let log = rebuild(&rows);
        Ok(slice_history(&log, cell_id, forward, &order))
    }

    /// One execution of a session, with its reads, writes and dependences.
    pub fn execution(
        &self,
        session: SessionId,
        execution: u32,
    ) -> Result<Option<ExecutionRow>, HistoryError> {
        Ok(self
            .executions(session)?
            .into_iter()
            .find(|e| e.index == execution))
    }

    /// What each execution of the session left for provenance, by index.
    fn run_provenance(
        &self,
        session: SessionId,
    ) -> Result<HashMap<u32, crate::RunProvenance>, HistoryError> {
        let mut out: HashMap<u32, crate::RunProvenance> = HashMap::new();
        let recordings = self.execution_texts(
            "SELECT execution, events FROM recordings WHERE session = ?1",
            session,
        )?;
        for (execution, events) in recordings {
            out.entry(execution).or_default().events = Some(RecordedEvents::from_stored(events));
        }
        let unbound = self.execution_texts(
            "SELECT execution, name FROM unbound WHERE session = ?1 ORDER BY execution, name",
            session,
        )?;
        for (execution, name) in unbound {
            out.entry(execution).or_default().unbound.push(name);
        }
        Ok(out)
    }

    /// The (execution index, text) rows `sql` selects for `session`.
    fn execution_texts(
        &self,
        sql: &str,
        session: SessionId,
    ) -> Result<Vec<(u32, String)>, HistoryError> {
        let path = &self.path;
        let error = |e| HistoryError::sqlite(path, e);
        let mut stmt = self.conn.prepare_cached(sql).map_err(error)?;
        let rows = stmt
            .query_map([session.0], |row| {
                Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
            })
            .map_err(error)?;
        rows.map(|row| {
            let (execution, text) = row.map_err(error)?;
            Ok((index(path, execution, "execution index")?, text))
        })
        .collect()
    }

    /// The provenance of the value at `symbol` (`total`, `res[0]`,
    /// `d['k']`) at the end of the session, as `nbsight.provenance` answered
    /// it in the kernel: the session's runs replayed in order by the
    /// lineage's provenance engine with `effects` (the kernel's knowledge
    /// base: the built-in one and the session's `effects` files). `None`
    /// when the value was not bound at the end of the session.
    pub fn provenance(
        &self,
        session: SessionId,
        symbol: &str,
        effects: &Effects,
    ) -> Result<Option<SessionProvenance>, HistoryError> {
        let rows = self.executions(session)?;
        let mut extras = self.run_provenance(session)?;
        let mut engine = Provenance::default();
        let mut gave_up = Vec::new();
        for row in &rows {
            let extra = extras.remove(&row.index).unwrap_or_default();
            let events = extra
                .events
                .map(|e| {
                    e.decode().map_err(|what| {
                        HistoryError::corrupt(
                            &self.path,
                            format!(
                                "the provenance events of execution {} of session {session}: {what}",
                                row.index
                            ),
                        )
                    })
                })
                .transpose()?;
            let failed = row.status == RunStatus::Error;
            let error = engine.after_run(
                &row.cell_id,
                &row.source,
                events.as_deref(),
                failed,
                &row.writes,
                &extra.unbound,
                effects,
            );
            if let Some(reason) = error
                && events.is_some()
            {
                gave_up.push((row, reason));
            }
        }
        // Inputs bound out of sight: the cell of the latest run that set
        // that symbol (the kernel asks its symbol graph the same).
        let report = engine.report(symbol, |input| {
            rows.iter()
                .rev()
                .find(|r| r.writes.iter().any(|w| w == input))
                .map(|r| r.cell_id.clone())
        });
        let Some(report) = report else {
            return Ok(None);
        };
        let root = nbsight_dataflow::symbol::root(symbol);
        // The replays that gave up and matter here: those that set the
        // value's root name or an input it names.
        let inputs: Vec<(&str, &str)> = report
            .where_
            .iter()
            .chain(&report.why)
            .filter_map(|i| {
                let cell = i.cell.as_deref()?;
                Some((cell, nbsight_dataflow::symbol::root(&i.symbol)))
            })
            .collect();
        let gave_up: Vec<(u32, String)> = gave_up
            .into_iter()
            .filter(|(row, _)| {
                row.writes.iter().any(|w| {
                    let written = nbsight_dataflow::symbol::root(w);
                    written == root || inputs.contains(&(row.cell_id.as_str(), written))
                })
            })
            .map(|(row, reason)| (row.index, reason))
            .collect();
        let last_set = rows
            .iter()
            .rev()
            .find(|r| {
                r.writes
                    .iter()
                    .any(|w| nbsight_dataflow::symbol::root(w) == root)
            })
            .cloned();
        Ok(Some(SessionProvenance {
            session,
            report,
            last_set,
            gave_up,
        }))
    }
}

/// The stored log as the lineage's executions, in order; dependences
/// renumbered to positions in the log (a dependence on an execution the
/// file lacks is dropped).
fn rebuild(rows: &[ExecutionRow]) -> Vec<Execution> {
    let position: HashMap<u32, u32> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.index, i as u32))
        .collect();
    rows.iter()
        .map(|r| {
            let mut e = Execution::new(r.cell_id.clone(), r.counter, r.source.clone());
            e.execution_count = r.execution_count;
            e.failed = r.status == RunStatus::Error;
            e.reads = r
                .reads
                .iter()
                .map(|(s, w)| (s.as_str().into(), *w))
                .collect();
            e.writes = r.writes.iter().map(|s| s.as_str().into()).collect();
            // Only earlier executions: a dependence forward in time (a
            // damaged file) would not be one.
            e.depends_on = r
                .depends_on
                .iter()
                .filter(|&&d| d < r.index)
                .filter_map(|d| position.get(d).copied())
                .collect();
            e
        })
        .collect()
}
