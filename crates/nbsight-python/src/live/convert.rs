//! The Python shapes of the live API's answers (a contract other programs
//! read): `status()`, `why()`, `deps()` as dicts of strings, ints and
//! lists.

use nbsight_lineage::{Deps, InputRef, ProvenanceReport, StaleRead, Status, SymbolRef};
use pyo3::prelude::*;
use pyo3::types::PyDict;

pub(crate) fn status<'py>(py: Python<'py>, status: &Status) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("stale_cells", &status.stale_cells)?;
    d.set_item("fresh_cells", &status.fresh_cells)?;
    d.set_item("refresher_cells", &status.refresher_cells)?;
    d.set_item("stale_symbols", &status.stale_symbols)?;
    Ok(d)
}

pub(crate) fn stale_read<'py>(py: Python<'py>, read: &StaleRead) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("symbol", &read.symbol)?;
    d.set_item("set_by", &read.set_by)?;
    match &read.ancestor {
        Some(a) => {
            let ancestor = PyDict::new(py);
            ancestor.set_item("symbol", &a.symbol)?;
            ancestor.set_item("cell", &a.cell)?;
            ancestor.set_item("counter", a.counter)?;
            d.set_item("updated_ancestor", ancestor)?;
        }
        None => d.set_item("updated_ancestor", py.None())?,
    }
    d.set_item("rerun", &read.rerun)?;
    Ok(d)
}

pub(crate) fn why<'py>(
    py: Python<'py>,
    cell: &str,
    reads: &[StaleRead],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("cell", cell)?;
    let stale = reads
        .iter()
        .map(|r| stale_read(py, r))
        .collect::<PyResult<Vec<_>>>()?;
    d.set_item("stale", stale)?;
    d.set_item("rerun", nbsight_lineage::report::rerun_order(reads))?;
    Ok(d)
}

fn symbol_ref<'py>(py: Python<'py>, r: &SymbolRef) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("symbol", &r.symbol)?;
    d.set_item("cell", &r.cell)?;
    d.set_item("timestamp", r.timestamp)?;
    Ok(d)
}

pub(crate) fn deps<'py>(py: Python<'py>, deps: &Deps) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("symbol", &deps.symbol)?;
    d.set_item("cell", &deps.cell)?;
    d.set_item("timestamp", deps.timestamp)?;
    d.set_item("stale", deps.stale)?;
    let refs = |list: &[SymbolRef]| {
        list.iter()
            .map(|r| symbol_ref(py, r))
            .collect::<PyResult<Vec<_>>>()
    };
    d.set_item("parents", refs(&deps.parents)?)?;
    d.set_item("children", refs(&deps.children)?)?;
    Ok(d)
}

fn input_ref<'py>(py: Python<'py>, r: &InputRef) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("cell", &r.cell)?;
    d.set_item("symbol", &r.symbol)?;
    Ok(d)
}

pub(crate) fn provenance<'py>(
    py: Python<'py>,
    r: &ProvenanceReport,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let refs = |list: &[InputRef]| {
        list.iter()
            .map(|i| input_ref(py, i))
            .collect::<PyResult<Vec<_>>>()
    };
    d.set_item("where", refs(&r.where_)?)?;
    d.set_item("why", refs(&r.why)?)?;
    d.set_item("files", &r.files)?;
    d.set_item("recorded", r.recorded)?;
    d.set_item("followed", r.followed)?;
    d.set_item("reason", &r.reason)?;
    Ok(d)
}
