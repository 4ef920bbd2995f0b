//! The output tables (a contract other programs read; docs/scale.md has
//! their columns): `status` (a row per input notebook) and one table per
//! analysis, `findings` (`check`), `cells`, `flows`, `events` (`whatif`)
//! and `slices`. Each row type derives `Serialize`; arrow-json's decoder
//! turns rows into record batches of the table's schema, so a row type and
//! its schema are the whole definition of a table.

use std::sync::{Arc, LazyLock};

use arrow_array::RecordBatch;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use serde::Serialize;

use crate::outcome::Done;
use crate::rows::Rows;

#[derive(Serialize)]
struct StatusRow<'a> {
    id: &'a str,
    status: &'static str,
    message: Option<&'a str>,
    seconds: f64,
}

/// A row of an analysis's table, with its notebook's id first.
#[derive(Serialize)]
struct WithId<'a, R> {
    id: &'a str,
    #[serde(flatten)]
    row: &'a R,
}

fn text(name: &str) -> Field {
    Field::new(name, DataType::Utf8, false)
}

fn int(name: &str) -> Field {
    Field::new(name, DataType::Int64, false)
}

fn float(name: &str) -> Field {
    Field::new(name, DataType::Float64, false)
}

fn list(name: &str, of: DataType) -> Field {
    Field::new(
        name,
        DataType::List(Arc::new(Field::new_list_field(of, true))),
        false,
    )
}

fn schema(fields: Vec<Field>) -> SchemaRef {
    Arc::new(Schema::new(fields))
}

static STATUS: LazyLock<SchemaRef> = LazyLock::new(|| {
    schema(vec![
        text("id"),
        text("status"),
        Field::new("message", DataType::Utf8, true),
        float("seconds"),
    ])
});

static FINDINGS: LazyLock<SchemaRef> = LazyLock::new(|| {
    schema(vec![
        text("id"),
        text("file"),
        text("code"),
        text("name"),
        text("message"),
        int("cell"),
        int("line"),
        int("column"),
        list("path", DataType::Int64),
        text("severity"),
    ])
});

static CELLS: LazyLock<SchemaRef> = LazyLock::new(|| {
    schema(vec![
        text("id"),
        int("cell"),
        text("cell_id"),
        text("kind"),
        Field::new("execution_count", DataType::Int64, true),
        list("uses", DataType::Utf8),
        list("defs", DataType::Utf8),
        list("dead", DataType::Utf8),
        list("mutated", DataType::Utf8),
        list("imports", DataType::Utf8),
        int("syntax_errors"),
    ])
});

static FLOWS: LazyLock<SchemaRef> =
    LazyLock::new(|| schema(vec![text("id"), int("from"), int("to"), text("symbol")]));

static EVENTS: LazyLock<SchemaRef> = LazyLock::new(|| {
    schema(vec![
        text("id"),
        text("event"),
        Field::new("cell", DataType::Int64, true),
        int("impacted"),
        int("findings"),
        list("codes", DataType::Utf8),
        int("rerun_plan"),
        int("safe_next"),
        int("visits"),
        Field::new("truncated", DataType::Boolean, false),
    ])
});

static SLICES: LazyLock<SchemaRef> = LazyLock::new(|| {
    schema(vec![
        text("id"),
        int("cell"),
        int("backward_cells"),
        int("backward_statements"),
        float("backward_ratio"),
        int("forward_cells"),
        int("forward_statements"),
        float("forward_ratio"),
        int("statements"),
    ])
});

/// The schema of table `name`.
pub fn schema_of(name: &str) -> Option<SchemaRef> {
    let schema: &SchemaRef = match name {
        "status" => &STATUS,
        "findings" => &FINDINGS,
        "cells" => &CELLS,
        "flows" => &FLOWS,
        "events" => &EVENTS,
        "slices" => &SLICES,
        _ => return None,
    };
    Some(schema.clone())
}

/// Record batch of `rows` in `schema` (rows made here always fit it: a
/// failure is a bug, reported as an empty batch rather than a panic).
fn decode<S: Serialize>(schema: &SchemaRef, rows: &[S]) -> RecordBatch {
    let batch = arrow_json::ReaderBuilder::new(schema.clone())
        .with_batch_size(rows.len().max(1))
        .build_decoder()
        .and_then(|mut decoder| {
            decoder.serialize(rows)?;
            decoder.flush()
        });
    match batch {
        Ok(Some(batch)) => batch,
        _ => RecordBatch::new_empty(schema.clone()),
    }
}

/// The analysis rows of `done` with their ids.
fn tagged<'a, R>(
    done: &'a [Done],
    pick: impl Fn(&'a Rows) -> Option<&'a [R]>,
) -> Vec<WithId<'a, R>> {
    done.iter()
        .flat_map(|d| {
            pick(&d.outcome.rows)
                .unwrap_or_default()
                .iter()
                .map(move |row| WithId { id: &d.id, row })
        })
        .collect()
}

/// The rows of table `name` for `done`.
pub fn table_batch(name: &str, done: &[Done]) -> Option<RecordBatch> {
    let schema = schema_of(name)?;
    // The rows of one `Rows` variant, with their ids.
    macro_rules! analysis_rows {
        ($variant:ident) => {
            decode(
                &schema,
                &tagged(done, |r| match r {
                    Rows::$variant(rows) => Some(rows.as_slice()),
                    _ => None,
                }),
            )
        };
    }
    Some(match name {
        "status" => {
            let rows: Vec<StatusRow<'_>> = done
                .iter()
                .map(|d| StatusRow {
                    id: &d.id,
                    status: d.outcome.status.as_str(),
                    message: d.outcome.message.as_deref(),
                    seconds: d.seconds,
                })
                .collect();
            decode(&schema, &rows)
        }
        "findings" => analysis_rows!(Findings),
        "cells" => analysis_rows!(Cells),
        "flows" => analysis_rows!(Flows),
        "events" => analysis_rows!(Events),
        "slices" => analysis_rows!(Slices),
        _ => return None,
    })
}
