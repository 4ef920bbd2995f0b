//! The output folder of a scan and how it survives being killed.
//!
//! ```text
//! OUT/scan.json               what was scanned how (checked on --resume)
//! OUT/parts/status-00000007.parquet
//! OUT/parts/findings-00000007.parquet
//! OUT/status.parquet          every part's rows, in order (at the end)
//! OUT/findings.parquet
//! ```
//!
//! The rows of each batch of notebooks are one *part*: its analysis table
//! first, then its status table, each written to a temporary name and
//! renamed, so that a part whose status file exists is whole (a rename is
//! atomic). A killed scan leaves whole parts and debris; `--resume` deletes
//! the debris, skips every notebook a whole part has a status row for, and
//! appends new parts. At the end the parts are concatenated into the final
//! tables (again through temporary names), which is idempotent: a scan
//! killed while merging merges again. The parts stay (they are what a
//! resumed scan reads); delete `OUT/parts` once the scan is done.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use parquet::arrow::ArrowWriter;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

use crate::error::ScanError;
use crate::outcome::{Done, DoneIds, Sink};
use crate::tables::table_batch;

/// Rows per row group of the tables written.
const ROW_GROUP: usize = 65_536;

/// How the tables are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Parquet,
    /// JSON Lines, one object per row (nulls written as `null`).
    Jsonl,
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Parquet => "parquet",
            Format::Jsonl => "jsonl",
        }
    }
}

/// An output folder being written.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    parts: PathBuf,
    format: Format,
    /// `status` and the analysis's tables.
    tables: Vec<&'static str>,
    /// The next part's number.
    next: u64,
}

const MANIFEST: &str = "scan.json";

impl Store {
    /// Opens `dir` for a scan described by `manifest` writing `tables`
    /// (the analysis's, beside `status`). Without `resume`, a folder that
    /// holds a scan already is an error; with it, the scan goes on, and the
    /// ids already done are returned.
    pub fn open(
        dir: &Path,
        format: Format,
        tables: &[&'static str],
        manifest: &serde_json::Value,
        resume: bool,
    ) -> Result<(Store, DoneIds), ScanError> {
        let io = |e: std::io::Error| ScanError::output(dir, e);
        std::fs::create_dir_all(dir).map_err(io)?;
        let parts = dir.join("parts");
        let manifest_path = dir.join(MANIFEST);
        let exists = manifest_path.exists() || parts.exists();
        if exists && !resume {
            return Err(ScanError::output(
                dir,
                "holds a scan already: give --resume to go on with it, or another folder",
            ));
        }
        if exists && manifest_path.exists() {
            let text = std::fs::read_to_string(&manifest_path).map_err(io)?;
            let old: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| ScanError::output(&manifest_path, format!("unreadable: {e}")))?;
            if &old != manifest {
                return Err(ScanError::Usage(format!(
                    "{} was written by a different scan ({}); --resume goes on only with the same inputs, analysis and options (now {})",
                    dir.display(),
                    old,
                    manifest
                )));
            }
        }
        std::fs::create_dir_all(&parts).map_err(io)?;
        write_atomic(&manifest_path, |w| {
            serde_json::to_writer_pretty(&mut *w, manifest).map_err(std::io::Error::other)?;
            w.write_all(b"\n")
        })?;
        let mut store = Store {
            dir: dir.to_path_buf(),
            parts,
            format,
            tables: std::iter::once("status")
                .chain(tables.iter().copied())
                .collect(),
            next: 0,
        };
        let whole = store.clean()?;
        store.next = whole.last().map_or(0, |n| n + 1);
        let mut done = DoneIds::new();
        for &part in &whole {
            for id in store.read_ids(&store.part_path("status", part))? {
                *done.entry(id).or_default() += 1;
            }
        }
        Ok((store, done))
    }

    fn part_path(&self, table: &str, part: u64) -> PathBuf {
        self.parts
            .join(format!("{table}-{part:08}.{}", self.format.extension()))
    }

    /// Deletes what a killed scan left half-written; the numbers of the
    /// whole parts, sorted.
    fn clean(&self) -> Result<Vec<u64>, ScanError> {
        let io = |e: std::io::Error| ScanError::output(&self.parts, e);
        let ext = format!(".{}", self.format.extension());
        let mut files = Vec::new();
        for entry in std::fs::read_dir(&self.parts).map_err(io)? {
            let entry = entry.map_err(io)?;
            files.push(entry.file_name().to_string_lossy().to_string());
        }
        let number = |name: &str, table: &str| -> Option<u64> {
            name.strip_prefix(table)?
                .strip_prefix('-')?
                .strip_suffix(&ext)?
                .parse()
                .ok()
        };
        let whole: BTreeSet<u64> = files.iter().filter_map(|f| number(f, "status")).collect();
        for name in &files {
            let keep = self
                .tables
                .iter()
                .any(|t| number(name, t).is_some_and(|n| whole.contains(&n)));
            if !keep {
                std::fs::remove_file(self.parts.join(name)).map_err(io)?;
            }
        }
        Ok(whole.into_iter().collect())
    }

    /// The ids of a status file.
    fn read_ids(&self, path: &Path) -> Result<Vec<String>, ScanError> {
        let bad = |e: String| ScanError::output(path, e);
        let mut ids = Vec::new();
        match self.format {
            Format::Parquet => {
                let file = File::open(path).map_err(|e| bad(e.to_string()))?;
                let builder = ParquetRecordBatchReaderBuilder::try_new(file)
                    .map_err(|e| bad(e.to_string()))?;
                let mask = ProjectionMask::columns(builder.parquet_schema(), ["id"]);
                for batch in builder
                    .with_projection(mask)
                    .build()
                    .map_err(|e| bad(e.to_string()))?
                {
                    let batch = batch.map_err(|e| bad(e.to_string()))?;
                    let column = batch
                        .column_by_name("id")
                        .and_then(|c| c.as_string_opt::<i32>())
                        .ok_or_else(|| bad("no id column".to_string()))?;
                    ids.extend(column.iter().map(|id| id.unwrap_or_default().to_string()));
                }
            }
            Format::Jsonl => {
                let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
                for line in text.lines().filter(|l| !l.trim().is_empty()) {
                    let row: serde_json::Value =
                        serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
                    ids.push(row["id"].as_str().unwrap_or_default().to_string());
                }
            }
        }
        Ok(ids)
    }

    /// Writes the rows of `done` as the next part.
    pub fn commit(&mut self, done: &[Done]) -> Result<(), ScanError> {
        if done.is_empty() {
            return Ok(());
        }
        // The status table last: its file makes the part whole.
        for table in self.tables.iter().skip(1).chain(self.tables.first()) {
            let Some(batch) = table_batch(table, done) else {
                continue;
            };
            let path = self.part_path(table, self.next);
            write_batches(&path, self.format, &batch.schema(), [Ok(batch)].into_iter())?;
        }
        self.next += 1;
        Ok(())
    }

    /// Concatenates the parts into the final tables; their paths.
    pub fn finish(&self) -> Result<Vec<PathBuf>, ScanError> {
        let whole = self.clean()?;
        let mut written = Vec::new();
        for table in &self.tables {
            let Some(schema) = crate::tables::schema_of(table) else {
                continue;
            };
            let path = self
                .dir
                .join(format!("{table}.{}", self.format.extension()));
            let parts: Vec<PathBuf> = whole.iter().map(|&n| self.part_path(table, n)).collect();
            match self.format {
                Format::Parquet => {
                    let batches = parts.iter().flat_map(|part| read_parquet(part));
                    write_batches(&path, self.format, &schema, batches)?;
                }
                Format::Jsonl => {
                    write_atomic(&path, |w| {
                        for part in &parts {
                            std::io::copy(&mut File::open(part)?, w)?;
                        }
                        Ok(())
                    })?;
                }
            }
            written.push(path);
        }
        Ok(written)
    }
}

impl Sink for Store {
    fn commit(&mut self, done: &[Done]) -> Result<(), ScanError> {
        Store::commit(self, done)
    }
}

/// The batches of a Parquet file (an error as the last item).
fn read_parquet(path: &Path) -> Box<dyn Iterator<Item = Result<RecordBatch, ScanError>>> {
    let fail = |e: String| -> Box<dyn Iterator<Item = _>> {
        Box::new(std::iter::once(Err(ScanError::output(path, e))))
    };
    let builder = match File::open(path)
        .map_err(|e| e.to_string())
        .and_then(|f| ParquetRecordBatchReaderBuilder::try_new(f).map_err(|e| e.to_string()))
    {
        Ok(builder) => builder,
        Err(e) => return fail(e),
    };
    match builder.with_batch_size(8192).build() {
        Ok(reader) => {
            let path = path.to_path_buf();
            Box::new(reader.map(move |b| b.map_err(|e| ScanError::output(&path, e))))
        }
        Err(e) => fail(e.to_string()),
    }
}

/// Writes `batches` to `path` (through a temporary name).
fn write_batches(
    path: &Path,
    format: Format,
    schema: &arrow_schema::SchemaRef,
    batches: impl Iterator<Item = Result<RecordBatch, ScanError>>,
) -> Result<(), ScanError> {
    let mut failure = None;
    write_atomic(path, |w| {
        let each = |write: &mut dyn FnMut(&RecordBatch) -> std::io::Result<()>| {
            for batch in batches {
                match batch {
                    Ok(batch) => write(&batch)?,
                    Err(e) => {
                        failure = Some(e);
                        return Err(std::io::Error::other("a part could not be read"));
                    }
                }
            }
            Ok(())
        };
        match format {
            Format::Parquet => {
                let props = WriterProperties::builder()
                    .set_compression(Compression::SNAPPY)
                    .set_max_row_group_row_count(Some(ROW_GROUP))
                    .build();
                let mut writer = ArrowWriter::try_new(&mut *w, schema.clone(), Some(props))
                    .map_err(std::io::Error::other)?;
                each(&mut |b| writer.write(b).map_err(std::io::Error::other))?;
                writer.close().map_err(std::io::Error::other)?;
            }
            Format::Jsonl => {
                let mut writer = arrow_json::WriterBuilder::new()
                    .with_explicit_nulls(true)
                    .build::<_, arrow_json::writer::LineDelimited>(&mut *w);
                each(&mut |b| writer.write(b).map_err(std::io::Error::other))?;
                writer.finish().map_err(std::io::Error::other)?;
            }
        }
        Ok(())
    })
    .map_err(|e| failure.take().unwrap_or(e))
}

/// Writes `path` through `write` into a temporary file renamed over it.
fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), ScanError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let result = (|| {
        let mut out = std::io::BufWriter::new(File::create(&tmp)?);
        write(&mut out)?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        ScanError::output(path, e)
    })
}
