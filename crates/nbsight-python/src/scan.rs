//! `nbsight.scan_batch`'s native half: notebooks as an Arrow IPC stream
//! (or JSON texts) in, the status table and the analysis's table out as
//! Arrow IPC streams, run by `nbsight-scan` with the interpreter released.

use std::sync::Arc;
use std::time::Duration;

use nbsight_check::RuleSet;
use nbsight_scan::batch::{Tables, from_ipc, scan_batches, scan_texts, to_ipc};
use nbsight_scan::{Analyser, Analysis, Fields, Options};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// The analyser and options the Python arguments describe.
fn setup(
    analysis: &str,
    select: Option<Vec<String>>,
    ignore: Vec<String>,
    timeout: Option<f64>,
    threads: Option<usize>,
) -> PyResult<(Arc<Analyser>, Options)> {
    let analysis = Analysis::from_name(analysis).ok_or_else(|| {
        let names: Vec<_> = Analysis::ALL.iter().map(|a| a.name()).collect();
        PyValueError::new_err(format!(
            "unknown analysis {analysis:?} (one of {})",
            names.join(", ")
        ))
    })?;
    let rules = RuleSet::resolve(select.as_deref(), &[], &ignore)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut analyser = Analyser::new(analysis);
    analyser.rules = Box::new(move |_| Ok(rules));
    let defaults = Options::default();
    let options = Options {
        threads: threads.unwrap_or(defaults.threads).max(1),
        timeout: timeout.filter(|t| *t > 0.0).map(Duration::from_secs_f64),
        commit_every: defaults.commit_every,
    };
    Ok((Arc::new(analyser), options))
}

/// `(status, table name, table)` with the tables as IPC bytes.
fn answer(
    py: Python<'_>,
    tables: Result<Tables, nbsight_scan::ScanError>,
) -> PyResult<(Py<PyBytes>, String, Py<PyBytes>)> {
    let error = |e: nbsight_scan::ScanError| PyValueError::new_err(e.to_string());
    let tables = tables.map_err(error)?;
    let status = to_ipc(&tables.status).map_err(error)?;
    let table = to_ipc(&tables.table.1).map_err(error)?;
    Ok((
        PyBytes::new(py, &status).unbind(),
        tables.table.0.to_string(),
        PyBytes::new(py, &table).unbind(),
    ))
}

/// Scans the notebooks of an Arrow IPC stream.
#[pyfunction]
#[pyo3(signature = (data, analysis, column, id_column, select, ignore, timeout, threads))]
#[allow(clippy::too_many_arguments)]
pub fn scan_ipc(
    py: Python<'_>,
    data: &[u8],
    analysis: &str,
    column: String,
    id_column: Option<String>,
    select: Option<Vec<String>>,
    ignore: Vec<String>,
    timeout: Option<f64>,
    threads: Option<usize>,
) -> PyResult<(Py<PyBytes>, String, Py<PyBytes>)> {
    let (analyser, options) = setup(analysis, select, ignore, timeout, threads)?;
    let fields = Fields {
        column,
        id_column,
        ..Fields::default()
    };
    // The bytes are read in place: a `bytes` object cannot change.
    let tables = py.detach(|| scan_batches(from_ipc(data)?, &fields, analyser, &options));
    answer(py, tables)
}

/// Scans notebooks given as JSON texts.
#[pyfunction]
#[pyo3(signature = (texts, ids, analysis, select, ignore, timeout, threads))]
#[allow(clippy::too_many_arguments)]
pub fn scan_json(
    py: Python<'_>,
    texts: Vec<String>,
    ids: Option<Vec<String>>,
    analysis: &str,
    select: Option<Vec<String>>,
    ignore: Vec<String>,
    timeout: Option<f64>,
    threads: Option<usize>,
) -> PyResult<(Py<PyBytes>, String, Py<PyBytes>)> {
    let (analyser, options) = setup(analysis, select, ignore, timeout, threads)?;
    let tables = py.detach(move || scan_texts(texts, ids, analyser, &options));
    answer(py, tables)
}
