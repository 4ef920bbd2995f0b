//! The native half of the `nbsight` Python package: the module
//! `nbsight._nbsight`, which `python/nbsight/__init__.py` re-exports.
//!
//! This is the only crate that knows Python. It converts Python values to
//! Rust, forwards to the library crates and converts the answers back; it
//! holds no analysis of its own. One Rust module per area of the Python API:
//!
//! - [`cli`]: `cli_main`, the `nbsight` command line (the console script).
//! - [`graph`]: `static_graph_json`, the JupyterLab panel's graph when the
//!   kernel has no nbsight.
//! - [`live`]: `Session`, the tracer and lineage behind `%load_ext nbsight`.
//! - [`scan`]: `scan_ipc`, `scan_json`, behind `nbsight.scan_batch`.
//!
//! Invariant: nothing here changes what user code computes. A binding that
//! fails raises a Python exception; it never aborts the interpreter.
//!
//! Built by maturin from the root `pyproject.toml` (abi3, CPython >= 3.10);
//! `python/nbsight/_nbsight.pyi` carries the types of what is exported here
//! and must be kept in step with it.

mod cli;
mod graph;
mod live;
mod scan;

/// The module's Rust allocations (the lineage's and the replay's, many and
/// small) go to mimalloc, as the `nbsight` binary's do; Python's own
/// objects stay with CPython's allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// nbsight's native module. Import `nbsight`, not this module directly.
#[pyo3::pymodule]
mod _nbsight {
    use pyo3::prelude::*;

    #[pymodule_export]
    use crate::cli::cli_main;

    #[pymodule_export]
    use crate::live::Session;

    #[pymodule_export]
    use crate::live::CompileWatcher;

    #[pymodule_export]
    use crate::live::history_location;

    #[pymodule_export]
    use crate::graph::static_graph_json;

    #[pymodule_export]
    use crate::scan::{scan_ipc, scan_json};

    /// Adds what the macros cannot declare: `__version__`, the crate's
    /// version (the package's version too: pyproject.toml takes it from here).
    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
