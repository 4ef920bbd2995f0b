//! Ground truth for `nbsight flow --truth`: the annotation format of CRABS
//! (Meng et al., COLM 2025; repository `Meng6/crabs`, file
//! `data/ProspectiveCorrectGivenSpecification.json`) and the information flows
//! and cell execution dependencies an annotation stands for.
//!
//! # Format
//! A notebook's truth is a JSON list with one object per code cell,
//! `{"id": k, "inputs": [...], "outputs": [...]}`, `k` counting code cells
//! from 1; a missing key means an empty list. A name is a string (`"df"`,
//! `"df-2"`) or a pair `["df", "df-2"]`: the variable and its *version*, the
//! variable with a `-N` suffix telling apart the values successive cells give
//! it. `defines_code` / `refers_code` list the user functions a cell defines /
//! calls. The multi-notebook file is a list of such lists, each opened by a
//! header `{"id": "author:kernel-name", "code_cell_count": N}`; a single
//! notebook's list may carry the same header. Keys other than these are
//! rejected, so a misspelt key in a fixture fails instead of being ignored.
//!
//! # From annotations to flows
//! [`NotebookTruth::flows`] follows the authors' `extract_edges(records,
//! is_mapped=True)` in `1_model_and_eval.py` (a version is matched exactly;
//! the last cell that outputs a version is where it flows from), and
//! [`NotebookTruth::dependencies`] their `edges2transitivedependencies`
//! (networkx `transitive_closure_dag` of the flow graph without labels). Two
//! representation choices, neither of which changes a count on their data:
//! - cells are numbered by their `id`, the authors by position (`idx + 1`);
//!   the two agree because ids must be strictly increasing, and in all 50
//!   annotated notebooks they are 1..N;
//! - a flow is labelled by the bare name (`df`, `rmsle_cv`), the authors by
//!   `data:df` / `code:rmsle_cv`: an analysis labels a call of a user function
//!   by the function's name. No pair of cells in the 50 notebooks is joined by
//!   both a data and a code flow of the same name, so the flow sets have the
//!   same size.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use nbsight_notebook::OneIndexed;
use serde::Serialize;
use serde_json::{Map, Value};

use super::dependencies::transitive_dependencies;

/// A code cell as the CRABS annotations number it: code cells only
/// (markdown and raw cells are not counted), from 1. Not a position in the
/// notebook's cell list ([`nbsight_notebook::CellIndex`], 0-based, every
/// cell counted).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct CodeCellId(OneIndexed);

impl CodeCellId {
    /// Code cell `id` (1 is the first code cell).
    pub const fn new(id: OneIndexed) -> Self {
        CodeCellId(id)
    }

    /// Code cell `id` counting from 1, or `None` for 0.
    pub const fn from_one_based(id: usize) -> Option<Self> {
        match OneIndexed::new(id) {
            Some(id) => Some(CodeCellId(id)),
            None => None,
        }
    }

    /// The code cell with `n` code cells before it.
    pub const fn nth(n: usize) -> Self {
        CodeCellId(OneIndexed::from_zero_indexed(n))
    }

    /// The number, counting from 1.
    pub const fn get(self) -> usize {
        self.0.get()
    }
}

/// The number as the annotations write it (`3` for the third code cell).
impl fmt::Display for CodeCellId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// Information flowing from one code cell to a later one through a name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Flow {
    pub from: CodeCellId,
    pub to: CodeCellId,
    /// The variable or function name, without version suffix.
    pub symbol: String,
}

impl Flow {
    pub fn new(from: CodeCellId, to: CodeCellId, symbol: impl Into<String>) -> Flow {
        Flow {
            from,
            to,
            symbol: symbol.into(),
        }
    }
}

/// A name in an annotation: the variable and the version written.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Name {
    /// The variable, version suffix stripped (`df_train`).
    pub symbol: String,
    /// The version as written (`df_train-1`, or `df_train` for the first).
    pub version: String,
}

impl Name {
    /// The name a version denotes (`"df-2"` → `df`, version `df-2`).
    pub fn new(version: impl Into<String>) -> Name {
        let version = version.into();
        Name {
            symbol: strip_version(&version).to_owned(),
            version,
        }
    }
}

/// `name` without a trailing `-N` (N decimal digits); anything else is kept:
/// `df-12` → `df`, `df-` and `df-1a` unchanged.
pub fn strip_version(name: &str) -> &str {
    match name.rfind('-') {
        Some(dash)
            if dash > 0
                && dash + 1 < name.len()
                && name[dash + 1..].bytes().all(|b| b.is_ascii_digit()) =>
        {
            &name[..dash]
        }
        _ => name,
    }
}

/// The annotation of one code cell.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CellTruth {
    pub id: CodeCellId,
    /// Values of earlier cells the cell reads or mutates.
    pub inputs: Vec<Name>,
    /// Values the cell produces or mutates that a later cell reads.
    pub outputs: Vec<Name>,
    /// User functions the cell defines (`defines_code`).
    pub defines_code: Vec<String>,
    /// User functions the cell calls (`refers_code`).
    pub refers_code: Vec<String>,
}

/// The annotation of one notebook.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct NotebookTruth {
    /// The header's id (`startupsci:titanic-data-science-solutions`), if any.
    pub name: Option<String>,
    /// The header's `code_cell_count`, if any.
    pub code_cells: Option<usize>,
    /// One entry per annotated code cell, ids strictly increasing.
    pub cells: Vec<CellTruth>,
}

impl NotebookTruth {
    /// The information flows the annotation stands for, sorted, without
    /// duplicates. Walking the cells in order:
    /// 1. each input whose version an earlier cell lists as an output flows
    ///    from the *last* such cell (labelled by the input's name without
    ///    suffix); an input no earlier cell outputs gives no flow (see
    ///    [`Self::unresolved_inputs`]);
    /// 2. then the cell's outputs become the last writers of their versions
    ///    (so an input never comes from its own cell);
    /// 3. then the functions in `defines_code` become defined by the cell;
    /// 4. then each function in `refers_code` flows from the last cell that
    ///    defined it, unless that is the cell itself.
    ///
    /// Several inputs of one cell may name different versions of a variable:
    /// that is how an annotation states the union of the possible flows when
    /// earlier cells write it conditionally.
    pub fn flows(&self) -> Vec<Flow> {
        let mut writer: BTreeMap<&str, CodeCellId> = BTreeMap::new();
        let mut definer: BTreeMap<&str, CodeCellId> = BTreeMap::new();
        let mut flows = BTreeSet::new();
        for cell in &self.cells {
            for input in &cell.inputs {
                if let Some(&from) = writer.get(input.version.as_str()) {
                    flows.insert(Flow::new(from, cell.id, input.symbol.as_str()));
                }
            }
            for output in &cell.outputs {
                writer.insert(output.version.as_str(), cell.id);
            }
            for function in &cell.defines_code {
                definer.insert(function.as_str(), cell.id);
            }
            for function in &cell.refers_code {
                if let Some(&from) = definer.get(function.as_str())
                    && from != cell.id
                {
                    flows.insert(Flow::new(from, cell.id, function.as_str()));
                }
            }
        }
        flows.into_iter().collect()
    }

    /// The transitive cell execution dependencies: `(a, b)` when a chain of
    /// flows leads from cell `a` to cell `b` (`b` depends on `a`), `a != b`.
    pub fn dependencies(&self) -> BTreeSet<(CodeCellId, CodeCellId)> {
        transitive_dependencies(self.flows().iter().map(|f| (f.from, f.to)))
    }

    /// Inputs whose version no earlier cell outputs and calls of functions no
    /// earlier cell defines, as `(cell id, version or function)`: the
    /// annotation names them but [`Self::flows`] drops them, as the authors'
    /// script does. Our own fixtures must have none.
    pub fn unresolved_inputs(&self) -> Vec<(CodeCellId, String)> {
        let mut written: BTreeSet<&str> = BTreeSet::new();
        let mut defined: BTreeSet<&str> = BTreeSet::new();
        let mut unresolved = Vec::new();
        for cell in &self.cells {
            for input in &cell.inputs {
                if !written.contains(input.version.as_str()) {
                    unresolved.push((cell.id, input.version.clone()));
                }
            }
            written.extend(cell.outputs.iter().map(|o| o.version.as_str()));
            defined.extend(cell.defines_code.iter().map(String::as_str));
            for function in &cell.refers_code {
                if !defined.contains(function.as_str()) {
                    unresolved.push((cell.id, function.clone()));
                }
            }
        }
        unresolved
    }

    /// The annotation of code cell `id`, if the truth lists it.
    pub fn cell(&self, id: CodeCellId) -> Option<&CellTruth> {
        self.cells.iter().find(|c| c.id == id)
    }
}

/// Why a truth file was rejected.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TruthError {
    /// The file could not be read.
    #[error("{path}: cannot read file: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Not JSON; `line` and `column` are 1-based.
    #[error("{}{line}:{column}: invalid JSON: {message}", file_prefix(.file))]
    InvalidJson {
        file: Option<PathBuf>,
        line: usize,
        column: usize,
        message: String,
    },
    /// JSON, but not in the annotation format; `at` locates the entry.
    #[error("{}{at}: {message}", file_prefix(.file))]
    Invalid {
        file: Option<PathBuf>,
        at: String,
        message: String,
    },
}

fn file_prefix(file: &Option<PathBuf>) -> String {
    match file {
        Some(path) => format!("{}: ", path.display()),
        None => String::new(),
    }
}

impl TruthError {
    fn invalid(at: &str, message: impl Into<String>) -> TruthError {
        TruthError::Invalid {
            file: None,
            at: at.to_owned(),
            message: message.into(),
        }
    }

    fn in_file(self, path: &Path) -> TruthError {
        match self {
            TruthError::InvalidJson {
                line,
                column,
                message,
                ..
            } => TruthError::InvalidJson {
                file: Some(path.to_owned()),
                line,
                column,
                message,
            },
            TruthError::Invalid { at, message, .. } => TruthError::Invalid {
                file: Some(path.to_owned()),
                at,
                message,
            },
            other => other,
        }
    }
}

/// Parses a truth file: one notebook (a list of cell objects, optionally
/// opened by a header) or many (a list of such lists, each with a header).
pub fn parse_truth(json: &str) -> Result<Vec<NotebookTruth>, TruthError> {
    let value: Value = serde_json::from_str(json).map_err(|e| TruthError::InvalidJson {
        file: None,
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let Value::Array(items) = value else {
        return Err(TruthError::invalid(
            "top level",
            "expected a list of cell annotations or a list of notebooks",
        ));
    };
    if items.first().is_some_and(Value::is_array) {
        items
            .iter()
            .enumerate()
            .map(|(index, item)| {
                let at = format!("notebook {}", index + 1);
                match item {
                    Value::Array(entries) => parse_notebook(entries, &at),
                    _ => Err(TruthError::invalid(
                        &at,
                        "expected a list (the file is a list of notebooks)",
                    )),
                }
            })
            .collect()
    } else {
        Ok(vec![parse_notebook(&items, "")?])
    }
}

/// Parses `json`, the contents of the truth file at `path`
/// ([`parse_truth`]); errors name the file. Reading it is the caller's
/// (a failed read is [`TruthError::Io`]).
pub fn parse_truth_file(path: &Path, json: &str) -> Result<Vec<NotebookTruth>, TruthError> {
    parse_truth(json).map_err(|e| e.in_file(path))
}

/// The header id a corpus file stem stands for:
/// `03-startupsci--titanic-data-science-solutions` →
/// `startupsci:titanic-data-science-solutions` (a leading `NN-` dropped, the
/// first `--` turned into `:`). A stem without them is returned as is.
pub fn truth_key_for_file(file_stem: &str) -> String {
    let digits = file_stem.bytes().take_while(u8::is_ascii_digit).count();
    let rest = if digits > 0 && file_stem[digits..].starts_with('-') {
        &file_stem[digits + 1..]
    } else {
        file_stem
    };
    rest.replacen("--", ":", 1)
}

/// The notebook of a multi-notebook truth that annotates the file with this
/// stem: its header id equals the stem or [`truth_key_for_file`] of it.
pub fn find_truth<'a>(truths: &'a [NotebookTruth], file_stem: &str) -> Option<&'a NotebookTruth> {
    let key = truth_key_for_file(file_stem);
    truths.iter().find(|t| {
        t.name
            .as_deref()
            .is_some_and(|n| n == key || n == file_stem)
    })
}

/// `place, item`, or `item` when there is no place.
fn within(place: &str, item: &str) -> String {
    if place.is_empty() {
        item.to_owned()
    } else {
        format!("{place}, {item}")
    }
}

/// Parses one notebook's entries; `at` is `notebook N` in a multi-notebook
/// file and empty otherwise.
fn parse_notebook(entries: &[Value], at: &str) -> Result<NotebookTruth, TruthError> {
    let mut truth = NotebookTruth::default();
    let mut cells = entries;
    let mut at = at.to_owned();
    if let Some(Value::Object(first)) = entries.first()
        && first.get("id").is_some_and(Value::is_string)
    {
        parse_header(first, &mut truth, &within(&at, "header"))?;
        if let Some(name) = &truth.name {
            at = if at.is_empty() {
                name.clone()
            } else {
                format!("{at} ({name})")
            };
        }
        cells = &entries[1..];
    }
    let mut previous = 0;
    for entry in cells {
        let cell_at = match entry.get("id").and_then(Value::as_u64) {
            Some(id) => within(&at, &format!("cell {id}")),
            None => within(&at, &format!("entry after cell {previous}")),
        };
        let cell = parse_cell(entry, &cell_at)?;
        if cell.id.get() <= previous {
            return Err(TruthError::invalid(
                &cell_at,
                format!("cell ids must increase, found {} after {previous}", cell.id),
            ));
        }
        if let Some(count) = truth.code_cells
            && cell.id.get() > count
        {
            return Err(TruthError::invalid(
                &cell_at,
                format!("cell id beyond the header's code_cell_count {count}"),
            ));
        }
        previous = cell.id.get();
        truth.cells.push(cell);
    }
    Ok(truth)
}

fn parse_header(
    header: &Map<String, Value>,
    truth: &mut NotebookTruth,
    at: &str,
) -> Result<(), TruthError> {
    for (key, value) in header {
        match key.as_str() {
            "id" => truth.name = value.as_str().map(str::to_owned),
            "code_cell_count" => {
                let count = value.as_u64().ok_or_else(|| {
                    TruthError::invalid(at, "code_cell_count must be a non-negative integer")
                })?;
                truth.code_cells = Some(to_usize(count, at)?);
            }
            other => {
                return Err(TruthError::invalid(
                    at,
                    format!("unknown header key `{other}`"),
                ));
            }
        }
    }
    Ok(())
}

fn parse_cell(entry: &Value, at: &str) -> Result<CellTruth, TruthError> {
    let Value::Object(object) = entry else {
        return Err(TruthError::invalid(at, "expected an object"));
    };
    let id = object
        .get("id")
        .and_then(Value::as_u64)
        .filter(|&id| id >= 1)
        .ok_or_else(|| TruthError::invalid(at, "`id` must be an integer counting from 1"))?;
    let mut cell = CellTruth {
        id: CodeCellId::from_one_based(to_usize(id, at)?)
            .expect("ids were checked to count from 1"),
        ..CellTruth::default()
    };
    for (key, value) in object {
        match key.as_str() {
            "id" => {}
            "inputs" => cell.inputs = parse_names(value, &format!("{at}, inputs"))?,
            "outputs" => cell.outputs = parse_names(value, &format!("{at}, outputs"))?,
            "defines_code" => {
                cell.defines_code = parse_strings(value, &format!("{at}, defines_code"))?;
            }
            "refers_code" => {
                cell.refers_code = parse_strings(value, &format!("{at}, refers_code"))?;
            }
            other => {
                return Err(TruthError::invalid(
                    at,
                    format!(
                        "unknown key `{other}` (expected id, inputs, outputs, defines_code, refers_code)"
                    ),
                ));
            }
        }
    }
    Ok(cell)
}

fn list<'v>(value: &'v Value, at: &str) -> Result<&'v [Value], TruthError> {
    match value {
        Value::Array(items) => Ok(items),
        _ => Err(TruthError::invalid(at, "expected a list")),
    }
}

fn non_empty<'v>(value: &'v Value, at: &str) -> Result<&'v str, TruthError> {
    match value.as_str() {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(TruthError::invalid(
            at,
            format!("expected a non-empty string, found {value}"),
        )),
    }
}

fn parse_names(value: &Value, at: &str) -> Result<Vec<Name>, TruthError> {
    list(value, at)?
        .iter()
        .map(|item| match item {
            Value::Array(pair) => match pair.as_slice() {
                [name, version] => {
                    let name = non_empty(name, at)?;
                    let version = non_empty(version, at)?;
                    if strip_version(version) != name {
                        return Err(TruthError::invalid(
                            at,
                            format!(
                                "[\"{name}\", \"{version}\"]: the version must be `{name}` or `{name}-N`"
                            ),
                        ));
                    }
                    Ok(Name::new(version))
                }
                _ => Err(TruthError::invalid(
                    at,
                    format!("a pair must be [name, version], found {item}"),
                )),
            },
            _ => Ok(Name::new(non_empty(item, at)?)),
        })
        .collect()
}

fn parse_strings(value: &Value, at: &str) -> Result<Vec<String>, TruthError> {
    list(value, at)?
        .iter()
        .map(|item| non_empty(item, at).map(str::to_owned))
        .collect()
}

fn to_usize(n: u64, at: &str) -> Result<usize, TruthError> {
    usize::try_from(n).map_err(|_| TruthError::invalid(at, format!("{n} is too large")))
}

#[cfg(test)]
#[path = "truth_tests.rs"]
mod tests;
