//! The inputs of a scan and the notebooks in them, streamed one at a time:
//!
//! - a folder of `.ipynb` files (searched recursively, sorted; the id is the
//!   path relative to the folder), or a single `.ipynb` file;
//! - a `.jsonl`, `.ndjson` or `.jsonl.gz` file: one notebook per line, either
//!   the nbformat JSON itself or an object holding it in `notebook_field`
//!   (as an object or as JSON text); the id is `id_field`, by default the
//!   line's `id` when it has one, else `FILE:LINE` (1-based);
//! - a Parquet file, or a folder of them, whose `column` holds each
//!   notebook's JSON text (any Arrow string or binary type); the id is
//!   `id_column`, by default the `id` column when there is one, else
//!   `FILE:ROW` (0-based within the file).
//!
//! A bad row is an [`Item`] whose body says why ([`Body::Unreadable`]): it
//! never stops the scan. Parquet files are read a row group at a time in
//! small batches, JSON Lines a line at a time, so memory stays bounded.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_schema::Schema;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use serde_json::value::RawValue;

use crate::column::{id_at, is_id, is_text, plain, text_at};
use crate::error::ScanError;

/// Rows read from a Parquet file at a time.
const PARQUET_BATCH: usize = 64;

/// Where the notebook and its id are in table rows.
#[derive(Debug, Clone)]
pub struct Fields {
    /// JSON Lines: the key holding the notebook (`None`: the line is it).
    pub notebook_field: Option<String>,
    /// JSON Lines: the key holding the id (`None`: `id` when present).
    pub id_field: Option<String>,
    /// Parquet and Arrow: the column holding the notebook's JSON text.
    pub column: String,
    /// Parquet and Arrow: the id column (`None`: `id` when present).
    pub id_column: Option<String>,
}

impl Default for Fields {
    fn default() -> Self {
        Fields {
            notebook_field: None,
            id_field: None,
            column: "content".to_string(),
            id_column: None,
        }
    }
}

/// The default id column or field.
pub const DEFAULT_ID: &str = "id";

/// One notebook to analyse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// Its id in the output tables.
    pub id: String,
    /// The name its findings carry as `file` (a path for files).
    pub file: String,
    pub body: Body,
}

/// Where a notebook's text is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// A file, read by the worker that analyses it.
    File(PathBuf),
    /// Its nbformat JSON text.
    Text(String),
    /// The row holds no readable notebook, for this reason.
    Unreadable(String),
}

/// One input of a scan, checked when opened.
#[derive(Debug, Clone)]
pub struct Source {
    path: PathBuf,
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    /// Notebook files: `(path, id)`.
    Notebooks(Vec<(PathBuf, String)>),
    Jsonl {
        gzip: bool,
    },
    Parquet(Vec<ParquetFile>),
}

#[derive(Debug, Clone)]
struct ParquetFile {
    path: PathBuf,
    /// The name ids are made of (`NAME:ROW`).
    name: String,
    id_column: Option<String>,
    /// Rows per row group.
    groups: Vec<usize>,
}

impl Source {
    /// Opens `path`, checking what can be checked before the scan starts
    /// (that a Parquet file has the notebook column, of a text type).
    pub fn open(path: &Path, fields: &Fields) -> Result<Source, ScanError> {
        let kind = if path.is_dir() {
            let (notebooks, parquet) = files_under(path)?;
            if !notebooks.is_empty() {
                let files = notebooks
                    .into_iter()
                    .map(|file| {
                        let id = file
                            .strip_prefix(path)
                            .unwrap_or(&file)
                            .components()
                            .map(|c| c.as_os_str().to_string_lossy())
                            .collect::<Vec<_>>()
                            .join("/");
                        (file, id)
                    })
                    .collect();
                Kind::Notebooks(files)
            } else if !parquet.is_empty() {
                let files = parquet
                    .iter()
                    .map(|file| {
                        let name = file.strip_prefix(path).unwrap_or(file);
                        ParquetFile::open(file, &name.to_string_lossy(), fields)
                    })
                    .collect::<Result<_, _>>()?;
                Kind::Parquet(files)
            } else {
                return Err(ScanError::input(
                    path,
                    "no .ipynb or .parquet files in this folder",
                ));
            }
        } else {
            let name = path.to_string_lossy().to_string();
            let lower = name.to_ascii_lowercase();
            if !path.is_file() {
                return Err(ScanError::input(path, "no such file or folder"));
            } else if lower.ends_with(".ipynb") {
                Kind::Notebooks(vec![(path.to_path_buf(), name)])
            } else if lower.ends_with(".jsonl.gz") || lower.ends_with(".ndjson.gz") {
                Kind::Jsonl { gzip: true }
            } else if lower.ends_with(".jsonl") || lower.ends_with(".ndjson") {
                Kind::Jsonl { gzip: false }
            } else if lower.ends_with(".parquet") || lower.ends_with(".pq") {
                Kind::Parquet(vec![ParquetFile::open(path, &name, fields)?])
            } else {
                return Err(ScanError::input(
                    path,
                    "not a notebook table: give a folder, an .ipynb, .jsonl, .jsonl.gz or .parquet file",
                ));
            }
        };
        Ok(Source {
            path: path.to_path_buf(),
            kind,
        })
    }

    /// How many notebooks it holds, when known without reading it all.
    pub fn count(&self) -> Option<u64> {
        match &self.kind {
            Kind::Notebooks(files) => Some(files.len() as u64),
            Kind::Jsonl { .. } => None,
            Kind::Parquet(files) => Some(
                files
                    .iter()
                    .map(|f| f.groups.iter().sum::<usize>() as u64)
                    .sum(),
            ),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its notebooks, in a stable order.
    pub fn items(
        &self,
        fields: &Fields,
    ) -> Result<Box<dyn Iterator<Item = Item> + Send>, ScanError> {
        Ok(match &self.kind {
            Kind::Notebooks(files) => Box::new(files.clone().into_iter().map(|(path, id)| Item {
                id,
                file: path.to_string_lossy().to_string(),
                body: Body::File(path),
            })),
            Kind::Jsonl { gzip } => {
                let file = File::open(&self.path).map_err(|e| ScanError::input(&self.path, e))?;
                let reader: Box<dyn BufRead + Send> = if *gzip {
                    Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(file)))
                } else {
                    Box::new(BufReader::new(file))
                };
                Box::new(JsonlItems {
                    name: self.path.to_string_lossy().to_string(),
                    reader: Some(reader),
                    line: 0,
                    fields: fields.clone(),
                })
            }
            Kind::Parquet(files) => Box::new(ParquetItems {
                files: files.clone().into(),
                column: fields.column.clone(),
                group: 0,
                row: 0,
                reader: None,
                buffer: VecDeque::new(),
            }),
        })
    }
}

/// The `.ipynb` and `.parquet` files under `dir`, sorted, skipping
/// Jupyter's `.ipynb_checkpoints`.
fn files_under(dir: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>), ScanError> {
    let found = nbsight_notebook::find_notebooks(dir);
    if let Some(problem) = found.problems.first()
        && found.notebooks.is_empty()
    {
        return Err(ScanError::input(dir, problem));
    }
    let mut parquet = Vec::new();
    if found.notebooks.is_empty() {
        let mut stack = vec![dir.to_path_buf()];
        while let Some(folder) = stack.pop() {
            let entries = std::fs::read_dir(&folder).map_err(|e| ScanError::input(&folder, e))?;
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("parquet"))
                {
                    parquet.push(path);
                }
            }
        }
        parquet.sort();
    }
    Ok((found.notebooks, parquet))
}

impl ParquetFile {
    fn open(path: &Path, name: &str, fields: &Fields) -> Result<ParquetFile, ScanError> {
        let file = File::open(path).map_err(|e| ScanError::input(path, e))?;
        let builder = ParquetRecordBatchReaderBuilder::try_new(file)
            .map_err(|e| ScanError::input(path, format!("not a readable Parquet file: {e}")))?;
        let id_column = notebook_columns(builder.schema(), fields)
            .map_err(|message| ScanError::input(path, message))?;
        let groups = builder
            .metadata()
            .row_groups()
            .iter()
            .map(|g| usize::try_from(g.num_rows()).unwrap_or(0))
            .collect();
        Ok(ParquetFile {
            path: path.to_path_buf(),
            name: name.to_string(),
            id_column,
            groups,
        })
    }

    /// A reader of row group `group`, projected on the two columns.
    fn reader(&self, column: &str, group: usize) -> Result<ParquetRecordBatchReader, String> {
        let file = File::open(&self.path).map_err(|e| e.to_string())?;
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| e.to_string())?;
        let mut names = vec![column];
        names.extend(self.id_column.as_deref());
        let mask = ProjectionMask::columns(builder.parquet_schema(), names);
        builder
            .with_projection(mask)
            .with_row_groups(vec![group])
            .with_batch_size(PARQUET_BATCH)
            .build()
            .map_err(|e| e.to_string())
    }
}

/// Checks that `schema` has the notebook column (of a text type) and the
/// id column when one is named; the id column to read (`id` by default,
/// when there is one).
pub fn notebook_columns(schema: &Schema, fields: &Fields) -> Result<Option<String>, String> {
    let columns = || {
        schema
            .fields()
            .iter()
            .map(|f| format!("{} ({})", f.name(), f.data_type()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match schema.field_with_name(&fields.column) {
        Ok(field) if is_text(field.data_type()) => {}
        Ok(field) => {
            return Err(format!(
                "column `{}` is {}, not JSON text",
                fields.column,
                field.data_type()
            ));
        }
        Err(_) => {
            return Err(format!(
                "no column `{}` (the column of the notebooks' JSON text; columns: {})",
                fields.column,
                columns()
            ));
        }
    }
    match &fields.id_column {
        Some(name) => match schema.field_with_name(name) {
            Ok(field) if is_id(field.data_type()) => Ok(Some(name.clone())),
            _ => Err(format!(
                "no string or integer column `{name}` (columns: {})",
                columns()
            )),
        },
        None => Ok(schema
            .field_with_name(DEFAULT_ID)
            .ok()
            .filter(|f| is_id(f.data_type()))
            .map(|_| DEFAULT_ID.to_string())),
    }
}

/// The notebooks of Parquet files, row group by row group.
struct ParquetItems {
    files: VecDeque<ParquetFile>,
    column: String,
    /// The row group being read, in the first file.
    group: usize,
    /// Rows of the first file handed out so far.
    row: usize,
    reader: Option<(ParquetRecordBatchReader, usize)>,
    buffer: VecDeque<Item>,
}

impl ParquetItems {
    /// Fills the buffer; `false` when every file is done.
    fn fill(&mut self) -> bool {
        while self.buffer.is_empty() {
            let Some(file) = self.files.front() else {
                return false;
            };
            if self.reader.is_none() {
                let Some(&rows) = file.groups.get(self.group) else {
                    self.files.pop_front();
                    (self.group, self.row) = (0, 0);
                    continue;
                };
                match file.reader(&self.column, self.group) {
                    Ok(reader) => self.reader = Some((reader, rows)),
                    Err(error) => {
                        self.unreadable_rows(rows, &error);
                        self.group += 1;
                        continue;
                    }
                }
            }
            let Some((reader, left)) = &mut self.reader else {
                continue;
            };
            match reader.next() {
                Some(Ok(batch)) => {
                    *left = left.saturating_sub(batch.num_rows());
                    let items = items_of_batch(
                        &batch,
                        &self.column,
                        file.id_column.as_deref(),
                        Some(&file.name),
                        self.row,
                    );
                    self.row += batch.num_rows();
                    self.buffer.extend(items);
                }
                Some(Err(error)) => {
                    let left = *left;
                    self.reader = None;
                    self.unreadable_rows(left, &error.to_string());
                    self.group += 1;
                }
                None => {
                    let left = *left;
                    self.reader = None;
                    // Fewer rows than the metadata says: each missing one
                    // still has a status.
                    self.unreadable_rows(left, "the row group ended early");
                    self.group += 1;
                }
            }
        }
        true
    }

    /// `count` rows of the current file from `self.row` on that could not
    /// be read.
    fn unreadable_rows(&mut self, count: usize, error: &str) {
        let Some(file) = self.files.front() else {
            return;
        };
        for _ in 0..count {
            let id = format!("{}:{}", file.name, self.row);
            self.buffer.push_back(Item {
                file: id.clone(),
                id,
                body: Body::Unreadable(format!("row group {} cannot be read: {error}", self.group)),
            });
            self.row += 1;
        }
    }
}

impl Iterator for ParquetItems {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        if !self.fill() {
            return None;
        }
        self.buffer.pop_front()
    }
}

/// The notebooks of an Arrow batch (rows `first..` of table `name`): the
/// notebook in `column`, the id in `id_column` (else `NAME:ROW`, or the row
/// number for a table without a name).
pub fn items_of_batch(
    batch: &RecordBatch,
    column: &str,
    id_column: Option<&str>,
    name: Option<&str>,
    first: usize,
) -> Vec<Item> {
    let notebooks = batch.column_by_name(column).map(plain);
    let ids = id_column.and_then(|c| batch.column_by_name(c)).map(plain);
    (0..batch.num_rows())
        .map(|row| {
            let id = ids
                .as_ref()
                .and_then(|ids| id_at(ids, row))
                .unwrap_or_else(|| match name {
                    Some(name) => format!("{name}:{}", first + row),
                    None => (first + row).to_string(),
                });
            let body = match notebooks.as_ref().map(|n| text_at(n, row)) {
                Some(Ok(Some(text))) => Body::Text(text),
                Some(Ok(None)) => Body::Unreadable(format!("`{column}` is null")),
                Some(Err(error)) => Body::Unreadable(format!("`{column}`: {error}")),
                None => Body::Unreadable(format!("no column `{column}`")),
            };
            Item {
                file: id.clone(),
                id,
                body,
            }
        })
        .collect()
}

/// The notebooks of a JSON Lines file, line by line.
struct JsonlItems {
    name: String,
    /// `None` once the file is done (or could not be read on).
    reader: Option<Box<dyn BufRead + Send>>,
    line: usize,
    fields: Fields,
}

impl Iterator for JsonlItems {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        loop {
            let reader = self.reader.as_mut()?;
            let mut bytes = Vec::new();
            self.line += 1;
            let fallback = format!("{}:{}", self.name, self.line);
            match reader.read_until(b'\n', &mut bytes) {
                Ok(0) => {
                    self.reader = None;
                    return None;
                }
                Ok(_) => {}
                Err(error) => {
                    // A broken file (a truncated gzip stream): what is left
                    // cannot be told apart into lines.
                    self.reader = None;
                    return Some(Item {
                        file: fallback.clone(),
                        id: fallback,
                        body: Body::Unreadable(format!(
                            "cannot read on from this line ({error}); the rest of the file was not scanned"
                        )),
                    });
                }
            }
            if bytes.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            return Some(line_item(bytes, fallback, &self.fields));
        }
    }
}

/// One JSON Lines line as a notebook.
fn line_item(bytes: Vec<u8>, fallback: String, fields: &Fields) -> Item {
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => {
            return Item {
                file: fallback.clone(),
                id: fallback,
                body: Body::Unreadable(format!("the line is not UTF-8 text ({error})")),
            };
        }
    };
    let object: std::collections::HashMap<String, Box<RawValue>> = match serde_json::from_str(&text)
    {
        Ok(object) => object,
        Err(error) => {
            return Item {
                file: fallback.clone(),
                id: fallback,
                body: Body::Unreadable(format!("the line is not a JSON object: {error}")),
            };
        }
    };
    let id_key = fields.id_field.as_deref().unwrap_or(DEFAULT_ID);
    let id = object
        .get(id_key)
        .and_then(|raw| match serde_json::from_str(raw.get()) {
            Ok(serde_json::Value::String(s)) => Some(s),
            Ok(serde_json::Value::Number(n)) => Some(n.to_string()),
            _ => None,
        })
        .unwrap_or(fallback);
    let body = match &fields.notebook_field {
        None if object.contains_key("cells") => Body::Text(text),
        None => Body::Unreadable(
            "the line is not a notebook (no `cells`); --notebook-field names the key holding it"
                .to_string(),
        ),
        Some(key) => match object.get(key) {
            None => Body::Unreadable(format!("the line has no `{key}`")),
            Some(raw) => match serde_json::from_str::<serde_json::Value>(raw.get()) {
                Ok(serde_json::Value::String(s)) => Body::Text(s),
                Ok(serde_json::Value::Object(_)) => Body::Text(raw.get().to_string()),
                Ok(serde_json::Value::Null) => Body::Unreadable(format!("`{key}` is null")),
                _ => Body::Unreadable(format!("`{key}` holds neither a notebook nor JSON text")),
            },
        },
    };
    Item {
        file: id.clone(),
        id,
        body,
    }
}

/// Reads a whole notebook file (the body of a [`Body::File`]).
pub fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    File::open(path)?.read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields() -> Fields {
        Fields::default()
    }

    #[test]
    fn json_lines_hold_notebooks_or_objects_holding_them() {
        let nb = r#"{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"#;
        let whole = line_item(nb.as_bytes().to_vec(), "f:1".into(), &fields());
        assert_eq!(whole.id, "f:1");
        assert_eq!(whole.body, Body::Text(nb.to_string()));
        let wrapped = format!(r#"{{"id": 42, "nb": {nb}}}"#);
        let mut f = fields();
        f.notebook_field = Some("nb".into());
        let item = line_item(wrapped.into_bytes(), "f:2".into(), &f);
        assert_eq!(item.id, "42");
        assert!(matches!(item.body, Body::Text(ref t) if t.contains("cells")));
        let as_text = format!(
            r#"{{"key": "a", "nb": {}}}"#,
            serde_json::to_string(nb).unwrap()
        );
        f.id_field = Some("key".into());
        let item = line_item(as_text.into_bytes(), "f:3".into(), &f);
        assert_eq!(
            (item.id.as_str(), item.body),
            ("a", Body::Text(nb.to_string()))
        );
        let broken = line_item(b"{not json".to_vec(), "f:4".into(), &f);
        assert_eq!(broken.id, "f:4");
        assert!(matches!(broken.body, Body::Unreadable(_)));
        let missing = line_item(br#"{"x": 1}"#.to_vec(), "f:5".into(), &fields());
        assert!(matches!(missing.body, Body::Unreadable(ref m) if m.contains("--notebook-field")));
    }
}
