//! The schema of a history file and its versions (`PRAGMA user_version`):
//! creating it in an empty file, migrating an older one forward, refusing a
//! newer one. `docs/history.md` documents the same tables; a change here is
//! a new version with a migration in [`MIGRATIONS`] and a line there.

use std::path::Path;

use rusqlite::{Connection, TransactionBehavior};

use crate::HistoryError;

/// The version this nbsight writes (and the newest it reads).
pub const SCHEMA_VERSION: i64 = 3;

/// `recordings` as version 2 made it: a `WITHOUT ROWID` table, whose
/// large rows (a run's events, megabytes) an insert's search of its key
/// read whole, at every step, so writing a run got slower as the file grew.
macro_rules! recordings_v2_table {
    () => {
        "
CREATE TABLE recordings (
    session   INTEGER NOT NULL,
    execution INTEGER NOT NULL,
    events    TEXT NOT NULL,
    PRIMARY KEY (session, execution),
    FOREIGN KEY (session, execution) REFERENCES executions (session, execution)
) WITHOUT ROWID;
"
    };
}

/// `recordings` since version 3: a rowid table, its key in a separate
/// index that holds only the key.
macro_rules! recordings_table {
    ($name:literal) => {
        concat!(
            "
CREATE TABLE ",
            $name,
            " (
    session   INTEGER NOT NULL,
    execution INTEGER NOT NULL,
    events    TEXT NOT NULL,
    PRIMARY KEY (session, execution),
    FOREIGN KEY (session, execution) REFERENCES executions (session, execution)
);
"
        )
    };
}

/// `unbound`, added by version 2.
macro_rules! unbound_table {
    () => {
        "
CREATE TABLE unbound (
    session   INTEGER NOT NULL,
    execution INTEGER NOT NULL,
    name      TEXT NOT NULL,
    PRIMARY KEY (session, execution, name),
    FOREIGN KEY (session, execution) REFERENCES executions (session, execution)
) WITHOUT ROWID;
"
    };
}

/// The whole schema at [`SCHEMA_VERSION`], for a new file.
const CREATE: &str = concat!(
    "
CREATE TABLE sessions (
    id              INTEGER PRIMARY KEY,
    notebook        TEXT,
    python          TEXT NOT NULL,
    nbsight_version TEXT NOT NULL,
    started         REAL NOT NULL,
    effects         TEXT NOT NULL DEFAULT ''
);
CREATE TABLE executions (
    session         INTEGER NOT NULL REFERENCES sessions (id),
    execution       INTEGER NOT NULL,
    cell_id         TEXT NOT NULL,
    counter         INTEGER NOT NULL,
    execution_count INTEGER,
    started         REAL NOT NULL,
    seconds         REAL NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('ok', 'error')),
    source          TEXT NOT NULL,
    PRIMARY KEY (session, execution)
) WITHOUT ROWID;
CREATE INDEX executions_cell ON executions (cell_id, session);
CREATE TABLE reads (
    session   INTEGER NOT NULL,
    execution INTEGER NOT NULL,
    position  INTEGER NOT NULL,
    symbol    TEXT NOT NULL,
    whole     INTEGER NOT NULL CHECK (whole IN (0, 1)),
    PRIMARY KEY (session, execution, position),
    FOREIGN KEY (session, execution) REFERENCES executions (session, execution)
) WITHOUT ROWID;
CREATE TABLE writes (
    session   INTEGER NOT NULL,
    execution INTEGER NOT NULL,
    position  INTEGER NOT NULL,
    symbol    TEXT NOT NULL,
    PRIMARY KEY (session, execution, position),
    FOREIGN KEY (session, execution) REFERENCES executions (session, execution)
) WITHOUT ROWID;
CREATE INDEX writes_symbol ON writes (symbol);
CREATE TABLE depends_on (
    session      INTEGER NOT NULL,
    execution    INTEGER NOT NULL,
    on_execution INTEGER NOT NULL,
    PRIMARY KEY (session, execution, on_execution),
    FOREIGN KEY (session, execution) REFERENCES executions (session, execution)
) WITHOUT ROWID;
CREATE TABLE views (
    session INTEGER PRIMARY KEY REFERENCES sessions (id),
    after   INTEGER NOT NULL
);
CREATE TABLE view_cells (
    session  INTEGER NOT NULL REFERENCES views (session),
    position INTEGER NOT NULL,
    cell_id  TEXT NOT NULL,
    source   TEXT NOT NULL,
    PRIMARY KEY (session, position)
) WITHOUT ROWID;
",
    recordings_table!("recordings"),
    unbound_table!()
);

/// The migrations: `MIGRATIONS[i]` takes a file from version `i + 1` to
/// `i + 2`.
const MIGRATIONS: &[&str] = &[
    // 1 -> 2: provenance is replayed from the recorded events (and the
    // kernel's effects files) instead of stored per symbol; version 1's
    // per-symbol reports cannot be replayed and are dropped.
    concat!(
        "
ALTER TABLE sessions ADD COLUMN effects TEXT NOT NULL DEFAULT '';
DROP TABLE provenance;
",
        recordings_v2_table!(),
        unbound_table!()
    ),
    // 2 -> 3: `recordings` becomes a rowid table (its rows copied).
    concat!(
        recordings_table!("recordings_v3"),
        "
INSERT INTO recordings_v3 (session, execution, events)
    SELECT session, execution, events FROM recordings;
DROP TABLE recordings;
ALTER TABLE recordings_v3 RENAME TO recordings;
"
    ),
];

const _: () = assert!(MIGRATIONS.len() as i64 == SCHEMA_VERSION - 1);

/// Checks the schema of the file at `path`: creates it in an empty file
/// when `create`, migrates an older one when `writable`; an error for a
/// newer version, a file with other tables, an empty one not to be created
/// or an older one that cannot be written. Two
/// kernels opening one new file at once: the second sees the first's schema
/// (the check is repeated under the write lock).
pub(crate) fn prepare(
    conn: &mut Connection,
    path: &Path,
    writable: bool,
    create: bool,
) -> Result<(), HistoryError> {
    let sql = |e| HistoryError::sqlite(path, e);
    let version = check(conn, path)?;
    if version == SCHEMA_VERSION {
        return Ok(());
    }
    if !writable || (version == 0 && !create) {
        let reason = if version == 0 {
            "it is empty".to_string()
        } else {
            format!(
                "its schema version {version} needs migrating to {SCHEMA_VERSION}, and the file cannot be written"
            )
        };
        return Err(HistoryError::NotHistory {
            path: path.to_path_buf(),
            reason,
        });
    }
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sql)?;
    let version = check(&tx, path)?;
    if version == SCHEMA_VERSION {
        return Ok(());
    }
    if version == 0 {
        tx.execute_batch(CREATE).map_err(sql)?;
    }
    for (from, migration) in (1..).zip(MIGRATIONS) {
        if version > 0 && from >= version {
            tx.execute_batch(migration).map_err(sql)?;
        }
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)
        .map_err(sql)?;
    tx.commit().map_err(sql)
}

/// The file's schema version, when nbsight can work with it (0: an empty
/// file).
pub(crate) fn check(conn: &Connection, path: &Path) -> Result<i64, HistoryError> {
    let sql = |e| HistoryError::sqlite(path, e);
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(sql)?;
    if version > SCHEMA_VERSION {
        return Err(HistoryError::Newer {
            path: path.to_path_buf(),
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    if version < 0 {
        return Err(HistoryError::NotHistory {
            path: path.to_path_buf(),
            reason: format!("its schema version is {version}"),
        });
    }
    if version == 0 {
        let tables: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
                [],
                |row| row.get(0),
            )
            .map_err(sql)?;
        if tables > 0 {
            return Err(HistoryError::NotHistory {
                path: path.to_path_buf(),
                reason: "it is an SQLite database with other tables".to_string(),
            });
        }
    }
    Ok(version)
}
