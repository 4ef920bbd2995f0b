//! A scan of notebooks held in memory, for the Python API
//! (`nbsight.scan_batch`): Arrow record batches (or JSON texts) in, the
//! same rows as `nbsight scan` out, run by the same workers (time budget
//! included), with Arrow IPC streams as the bytes that cross to Python.

use std::io::Cursor;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_ipc::reader::StreamReader;
use arrow_ipc::writer::StreamWriter;

use crate::analysis::Analyser;
use crate::error::ScanError;
use crate::outcome::{Done, DoneIds, Sink};
use crate::run::{Options, run};
use crate::source::{Body, Fields, Item, items_of_batch, notebook_columns};
use crate::tables::table_batch;

/// Gathers the rows in memory.
#[derive(Debug, Default)]
struct Memory {
    done: Vec<Done>,
}

impl Sink for Memory {
    fn commit(&mut self, done: &[Done]) -> Result<(), ScanError> {
        self.done.extend_from_slice(done);
        Ok(())
    }
}

/// The status table and the analysis's table of a batch scan.
#[derive(Debug, Clone)]
pub struct Tables {
    pub status: RecordBatch,
    /// `(name, rows)` of the analysis's table.
    pub table: (&'static str, RecordBatch),
}

fn scan(
    items: Box<dyn Iterator<Item = Item> + Send>,
    analyser: Arc<Analyser>,
    options: &Options,
) -> Result<Tables, ScanError> {
    let name = analyser.analysis.table();
    let mut memory = Memory::default();
    run(
        items,
        DoneIds::new(),
        analyser,
        options,
        &mut memory,
        &mut |_| {},
    )?;
    let status = table_batch("status", &memory.done)
        .ok_or_else(|| ScanError::Usage("no status table".to_string()))?;
    let table = table_batch(name, &memory.done)
        .ok_or_else(|| ScanError::Usage(format!("no table {name}")))?;
    Ok(Tables {
        status,
        table: (name, table),
    })
}

/// Scans the notebooks of `batches` (`fields.column`, ids from
/// `fields.id_column`, by default `id` when there is one, else the row
/// number).
pub fn scan_batches(
    batches: Vec<RecordBatch>,
    fields: &Fields,
    analyser: Arc<Analyser>,
    options: &Options,
) -> Result<Tables, ScanError> {
    let id_column = match batches.first() {
        Some(first) => notebook_columns(&first.schema(), fields).map_err(ScanError::Usage)?,
        None => None,
    };
    let column = fields.column.clone();
    let mut first = 0;
    let items: Vec<Item> = batches
        .iter()
        .flat_map(|batch| {
            let items = items_of_batch(batch, &column, id_column.as_deref(), None, first);
            first += batch.num_rows();
            items
        })
        .collect();
    scan(Box::new(items.into_iter()), analyser, options)
}

/// Scans notebooks given as JSON texts, with their ids (else the
/// positions).
pub fn scan_texts(
    texts: Vec<String>,
    ids: Option<Vec<String>>,
    analyser: Arc<Analyser>,
    options: &Options,
) -> Result<Tables, ScanError> {
    if let Some(ids) = &ids
        && ids.len() != texts.len()
    {
        return Err(ScanError::Usage(format!(
            "{} ids for {} notebooks",
            ids.len(),
            texts.len()
        )));
    }
    let ids = ids.unwrap_or_else(|| (0..texts.len()).map(|i| i.to_string()).collect());
    let items: Vec<Item> = texts
        .into_iter()
        .zip(ids)
        .map(|(text, id)| Item {
            file: id.clone(),
            id,
            body: Body::Text(text),
        })
        .collect();
    scan(Box::new(items.into_iter()), analyser, options)
}

/// The batches of an Arrow IPC stream.
pub fn from_ipc(bytes: &[u8]) -> Result<Vec<RecordBatch>, ScanError> {
    let bad =
        |e: arrow_schema::ArrowError| ScanError::Usage(format!("not an Arrow IPC stream: {e}"));
    let reader = StreamReader::try_new(Cursor::new(bytes), None).map_err(bad)?;
    reader.collect::<Result<Vec<_>, _>>().map_err(bad)
}

/// `batch` as an Arrow IPC stream.
pub fn to_ipc(batch: &RecordBatch) -> Result<Vec<u8>, ScanError> {
    let fail =
        |e: arrow_schema::ArrowError| ScanError::Usage(format!("cannot write Arrow IPC: {e}"));
    let mut out = Vec::new();
    let mut writer = StreamWriter::try_new(&mut out, &batch.schema()).map_err(fail)?;
    writer.write(batch).map_err(fail)?;
    writer.finish().map_err(fail)?;
    drop(writer);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{Array, StringArray, cast::AsArray};
    use arrow_schema::{DataType, Field, Schema};

    use super::*;
    use crate::analysis::Analysis;

    const GOOD: &str = r#"{"cells": [{"cell_type": "code", "source": "print(x)", "metadata": {}, "outputs": [], "execution_count": null}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"#;

    #[test]
    fn arrow_in_arrow_out_with_a_status_per_row() {
        let schema = Arc::new(Schema::new(vec![
            Field::new("id", DataType::Utf8, false),
            Field::new("content", DataType::Utf8, true),
        ]));
        let batch = RecordBatch::try_new(
            schema,
            vec![
                Arc::new(StringArray::from(vec!["a", "b", "c"])),
                Arc::new(StringArray::from(vec![Some(GOOD), Some("{oops"), None])),
            ],
        )
        .unwrap();
        let bytes = to_ipc(&batch).unwrap();
        let batches = from_ipc(&bytes).unwrap();
        let options = Options {
            threads: 2,
            ..Options::default()
        };
        let tables = scan_batches(
            batches,
            &Fields::default(),
            Arc::new(Analyser::new(Analysis::Check)),
            &options,
        )
        .unwrap();
        let status = tables.status.column(1).as_string::<i32>();
        let got: Vec<_> = status.iter().map(|s| s.unwrap_or_default()).collect();
        assert_eq!(got, ["ok", "unreadable", "unreadable"]);
        let messages = tables.status.column(2);
        assert!(messages.is_null(0) && !messages.is_null(1));
        let (name, findings) = &tables.table;
        assert_eq!(*name, "findings");
        // `x` is read and never defined: NBS001 in notebook `a`.
        assert_eq!(findings.num_rows(), 1);
        assert_eq!(findings.column(0).as_string::<i32>().value(0), "a");
        assert_eq!(findings.column(2).as_string::<i32>().value(0), "NBS001");
        let missing = Fields {
            column: "nb".to_string(),
            ..Fields::default()
        };
        let error = scan_batches(
            vec![batch],
            &missing,
            Arc::new(Analyser::new(Analysis::Check)),
            &options,
        )
        .unwrap_err();
        assert!(error.to_string().contains("no column `nb`"), "{error}");
    }

    #[test]
    fn a_zero_budget_times_every_notebook_out() {
        let options = Options {
            threads: 1,
            timeout: Some(std::time::Duration::ZERO),
            commit_every: 1,
        };
        let tables = scan_texts(
            vec![GOOD.to_string(); 3],
            None,
            Arc::new(Analyser::new(Analysis::Check)),
            &options,
        )
        .unwrap();
        let status = tables.status.column(1).as_string::<i32>();
        assert!(status.iter().all(|s| s == Some("timeout")));
        assert_eq!(tables.table.1.num_rows(), 0);
        let ids = tables.status.column(0).as_string::<i32>();
        assert_eq!(ids.iter().flatten().collect::<Vec<_>>(), ["0", "1", "2"]);
    }
}
