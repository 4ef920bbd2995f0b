//! Writing a history: a session per kernel, one transaction per execution
//! (its row, reads, writes, dependences, and what the provenance replay
//! needs: the recorded events and the names it left unbound), and the
//! notebook view the front end synced.

use nbsight_lineage::Execution;
use rusqlite::params;

use crate::{History, HistoryError, RecordedEvents, SessionId};

/// What a run leaves for value provenance beside the lineage's log: what
/// `nbsight_lineage::provenance::Provenance::after_run` takes, so that a
/// reader replays the session as the kernel did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunProvenance {
    /// The events the recorder logged (`None`: the run was not recorded).
    pub events: Option<RecordedEvents>,
    /// The names the run left unbound.
    pub unbound: Vec<String>,
}

impl History {
    /// Starts a session: a kernel (`python` its version) with nbsight
    /// `nbsight_version`, started at `started` (Unix seconds), running the
    /// notebook at `notebook` when it is known.
    pub fn start_session(
        &mut self,
        notebook: Option<&str>,
        python: &str,
        nbsight_version: &str,
        started: f64,
    ) -> Result<SessionId, HistoryError> {
        self.start_session_with_effects(notebook, python, nbsight_version, started, &[])
    }

    /// [`History::start_session`] for a kernel that reads the user
    /// library-effects files `effects` (their paths, kept so that a reader
    /// replays provenance with the same knowledge).
    pub fn start_session_with_effects(
        &mut self,
        notebook: Option<&str>,
        python: &str,
        nbsight_version: &str,
        started: f64,
        effects: &[String],
    ) -> Result<SessionId, HistoryError> {
        let effects = effects.join("\n");
        self.conn
            .prepare_cached(
                "INSERT INTO sessions (notebook, python, nbsight_version, started, effects)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![notebook, python, nbsight_version, started, effects])
            })
            .map_err(|e| self.error(e))?;
        Ok(SessionId(self.conn.last_insert_rowid()))
    }

    /// The notebook a session runs, learned after it started (a front end
    /// said it).
    pub fn set_notebook(&mut self, session: SessionId, notebook: &str) -> Result<(), HistoryError> {
        self.conn
            .prepare_cached("UPDATE sessions SET notebook = ?2 WHERE id = ?1")
            .and_then(|mut stmt| stmt.execute(params![session.0, notebook]))
            .map_err(|e| self.error(e))?;
        Ok(())
    }

    /// Records execution `index` of the session's log (its position, what
    /// later executions' `depends_on` refer to), which started at `started`
    /// (Unix seconds) and took `seconds`, with what it left for provenance,
    /// in one transaction.
    pub fn record_execution(
        &mut self,
        session: SessionId,
        index: u32,
        execution: &Execution,
        (started, seconds): (f64, f64),
        provenance: &RunProvenance,
    ) -> Result<(), HistoryError> {
        let path = self.path.clone();
        let sql = |e| HistoryError::sqlite(&path, e);
        let tx = self.conn.transaction().map_err(sql)?;
        {
            let status = if execution.failed { "error" } else { "ok" };
            tx.prepare_cached(
                "INSERT INTO executions (session, execution, cell_id, counter, execution_count,
                                         started, seconds, status, source)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    session.0,
                    index,
                    execution.cell_id,
                    execution.counter,
                    execution.execution_count,
                    started,
                    seconds,
                    status,
                    execution.source,
                ])
            })
            .map_err(sql)?;
            let mut reads = tx
                .prepare_cached(
                    "INSERT INTO reads (session, execution, position, symbol, whole)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(sql)?;
            for (position, (symbol, whole)) in execution.reads.iter().enumerate() {
                reads
                    .execute(params![
                        session.0,
                        index,
                        position as i64,
                        symbol.as_str(),
                        whole
                    ])
                    .map_err(sql)?;
            }
            let mut writes = tx
                .prepare_cached(
                    "INSERT INTO writes (session, execution, position, symbol)
                     VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(sql)?;
            for (position, symbol) in execution.writes.iter().enumerate() {
                writes
                    .execute(params![session.0, index, position as i64, symbol.as_str()])
                    .map_err(sql)?;
            }
            let mut depends = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO depends_on (session, execution, on_execution)
                     VALUES (?1, ?2, ?3)",
                )
                .map_err(sql)?;
            for on in &execution.depends_on {
                depends
                    .execute(params![session.0, index, on])
                    .map_err(sql)?;
            }
            if let Some(events) = &provenance.events {
                tx.prepare_cached(
                    "INSERT INTO recordings (session, execution, events) VALUES (?1, ?2, ?3)",
                )
                .and_then(|mut stmt| stmt.execute(params![session.0, index, events.as_str()]))
                .map_err(sql)?;
            }
            let mut unbound = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO unbound (session, execution, name) VALUES (?1, ?2, ?3)",
                )
                .map_err(sql)?;
            for name in &provenance.unbound {
                unbound
                    .execute(params![session.0, index, name])
                    .map_err(sql)?;
            }
        }
        tx.commit().map_err(sql)
    }

    /// The notebook as the front end shows it, `(cell id, source)` in
    /// order, synced when the session had recorded `after` executions;
    /// replaces the session's earlier view.
    pub fn record_view(
        &mut self,
        session: SessionId,
        after: u32,
        cells: &[(String, String)],
    ) -> Result<(), HistoryError> {
        let path = self.path.clone();
        let sql = |e| HistoryError::sqlite(&path, e);
        let tx = self.conn.transaction().map_err(sql)?;
        tx.execute("DELETE FROM view_cells WHERE session = ?1", [session.0])
            .map_err(sql)?;
        tx.execute(
            "INSERT INTO views (session, after) VALUES (?1, ?2)
             ON CONFLICT (session) DO UPDATE SET after = excluded.after",
            params![session.0, after],
        )
        .map_err(sql)?;
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO view_cells (session, position, cell_id, source)
                     VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(sql)?;
            for (position, (cell_id, source)) in cells.iter().enumerate() {
                insert
                    .execute(params![session.0, position as i64, cell_id, source])
                    .map_err(sql)?;
            }
        }
        tx.commit().map_err(sql)
    }
}
