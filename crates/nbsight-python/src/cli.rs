//! `cli_main`: the `nbsight` command line, callable from Python. The console
//! script `nbsight` and `python -m nbsight` run it, so the wheel needs no
//! separate binary and behaves exactly like the Rust one.

use std::ffi::OsString;

use pyo3::prelude::*;

/// Runs the nbsight command line on `argv` (`argv[0]` is the program name,
/// as in `sys.argv`) and returns its exit code: 0 clean, 1 problems found,
/// 2 usage or input errors.
///
/// Output goes to the process's standard output and error (file descriptors
/// 1 and 2), not to `sys.stdout`. The interpreter is released while the
/// command runs, so other Python threads go on.
#[pyfunction]
pub fn cli_main(py: Python<'_>, argv: Vec<OsString>) -> u8 {
    py.detach(|| nbsight_cli::main_with_args(argv))
}
