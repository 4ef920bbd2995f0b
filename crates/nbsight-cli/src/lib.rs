//! The `nbsight` command line as a library: argument parsing, dispatch to one
//! module per subcommand, and the mapping of outcomes to exit codes. The
//! `nbsight` binary (`main.rs`) and the Python package's console script
//! (`nbsight-python`) both call [`main_with_args`], so they behave the same.
//!
//! Exit codes: 0 success; 1 the input was analysed but has problems worth
//! failing a CI job for (cells with syntax errors, error diagnostics); 2 usage
//! errors or an input that could not be read at all.
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-cli`), the one place
//! they are written; each names the test that holds it, where one does.

mod cells;
mod check;
mod effects_args;
mod flow;
mod history;
pub mod process;
mod provenance;
mod scan;
mod slice;
mod stack;
mod whatif;

use std::ffi::OsString;
use std::io::Write;

use clap::{Parser, Subcommand};

/// Finds hidden-state bugs in Jupyter notebooks and explains where values come from.
///
/// `bin_name` is fixed so that usage and help say `nbsight` whatever the first
/// argument is (`python -m nbsight` passes the path of `__main__.py`).
#[derive(Debug, Parser)]
#[command(name = "nbsight", bin_name = "nbsight", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show what every cell reads, writes, mutates and imports.
    Cells(cells::CellsArgs),
    /// Ask what an event (open, execute, edit, insert, delete) can lead to:
    /// impacted cells, stale state, data leakage, the re-run plan, safe next cells.
    Whatif(whatif::WhatIfArgs),
    /// Check notebooks for hidden-state and data-leakage problems (exit 1 when
    /// something is found).
    Check(check::CheckArgs),
    /// Estimate the information flows between cells (CRABS) for a notebook
    /// run top to bottom once: each cell's inputs and outputs, the flows
    /// between cells and the ambiguities left; score them against truth
    /// files with --truth / --truth-dir.
    Flow(flow::FlowArgs),
    /// Slice the notebook from a cell: the cells (or statements) its result
    /// needs, or those depending on it; --gather writes the backward slice as
    /// a script or notebook that runs on its own; --history slices the
    /// executions a live kernel really ran.
    Slice(slice::SliceArgs),
    /// Show the executions a live kernel wrote to its history (cell, counter,
    /// time, status, symbols read and written), after the kernel is gone.
    History(history::HistoryArgs),
    /// Show the provenance a live kernel recorded for a symbol's value: the
    /// inputs it came from, those that decided it, the files it derives from.
    Provenance(provenance::ProvenanceArgs),
    /// Run an analysis over a corpus of notebooks (folders, JSON Lines or
    /// Parquet tables with a notebook per row) into tables: a status row
    /// per notebook and the analysis's rows; resumable (--resume).
    Scan(scan::ScanArgs),
    /// Serve editors as a language server (LSP 3.17) on stdin and stdout.
    ///
    /// Every check rule per notebook cell as you type, quick fixes, hover
    /// and navigation across cells, what an edit impacts (`nbsight/impact`)
    /// and the stale cells of a kernel running nbsight. Editors start it
    /// themselves; docs/server.md says how (VS Code, Neovim, Helix,
    /// JupyterLab).
    Server(ServerArgs),
    /// Register the Jupyter kernel "Python 3 (nbsight)" (python3-nbsight):
    /// IPython with nbsight loaded at start (the Python package's command;
    /// `nbsight install-kernel --help` there lists its options).
    #[command(disable_help_flag = true)]
    InstallKernel(InstallKernelArgs),
}

/// `install-kernel`'s arguments, read by the Python package (the Rust
/// binary alone has no Python to register).
#[derive(Debug, clap::Args)]
struct InstallKernelArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    args: Vec<String>,
}

/// `nbsight server`'s arguments.
#[derive(Debug, clap::Args)]
struct ServerArgs {
    /// Speak LSP on standard input and output (the only transport, and the
    /// default; accepted because editors' configurations often pass it).
    #[arg(long)]
    stdio: bool,
}

/// How a command ended.
pub enum Outcome {
    /// Everything was analysed and nothing is wrong.
    Clean,
    /// Analysed, but the input has problems (exit 1).
    Problems,
}

/// Runs the `nbsight` command line on `args` (the first one is the program
/// name, as in `std::env::args_os`) and returns the exit code.
///
/// It never exits the process itself: help, `--version` and usage errors are
/// printed and turned into a code too, so a host process (the Python console
/// script) can exit in its own way. Standard output is flushed before
/// returning, since a host that outlives the call never runs Rust's exit-time
/// flush.
pub fn main_with_args(args: impl IntoIterator<Item = OsString>) -> u8 {
    let args: Vec<OsString> = args.into_iter().collect();
    let code = stack::on_big_stack(move || parse_and_run(args));
    let _ = std::io::stdout().flush();
    code
}

/// Parses the arguments and runs the command (on the big stack).
fn parse_and_run(args: Vec<OsString>) -> u8 {
    match Cli::try_parse_from(args).and_then(validate) {
        Ok(cli) => run(cli),
        Err(error) => {
            // Help and version go to stdout with code 0, usage errors to
            // stderr with code 2, as `Cli::parse` would do before exiting.
            let _ = error.print();
            u8::try_from(error.exit_code()).unwrap_or(2)
        }
    }
}

/// What the parser cannot check, reported as its errors are.
fn validate(cli: Cli) -> Result<Cli, clap::Error> {
    if let Command::Slice(args) = &cli.command {
        args.validate()?;
    }
    Ok(cli)
}

fn run(cli: Cli) -> u8 {
    let result = match cli.command {
        Command::Cells(args) => cells::run(&args),
        Command::Whatif(args) => whatif::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Flow(args) => flow::run(&args),
        Command::Slice(args) => slice::run(&args),
        Command::History(args) => history::run(&args),
        Command::Provenance(args) => provenance::run(&args),
        Command::Scan(args) => scan::run(&args),
        Command::Server(_) => Ok(match nbsight_server::run_stdio() {
            nbsight_server::Outcome::Clean => Outcome::Clean,
            nbsight_server::Outcome::Unclean => Outcome::Problems,
        }),
        Command::InstallKernel(_) => Err(anyhow::anyhow!(
            "install-kernel registers a Jupyter kernel of a Python that has the nbsight package: \
             run it from there (`pip install 'nbsight[kernel]'`, then `nbsight install-kernel`)"
        )),
    };
    match result {
        Ok(Outcome::Clean) => 0,
        Ok(Outcome::Problems) => 1,
        Err(error) => {
            eprintln!("nbsight: error: {}", message_chain(&error));
            2
        }
    }
}

/// An error and its causes, each said once: a cause whose text the message
/// already holds (an OS error a load error names) is not repeated.
fn message_chain(error: &anyhow::Error) -> String {
    let mut text = error.to_string();
    for cause in error.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::{Cli, main_with_args, message_chain};

    #[test]
    fn causes_are_said_once() {
        let os = std::io::Error::from(std::io::ErrorKind::NotFound);
        let error = anyhow::Error::new(nbsight_notebook::LoadError::Io {
            path: "x.ipynb".into(),
            source: os,
        });
        let text = message_chain(&error);
        assert_eq!(text.matches("not found").count(), 1, "{text}");
        let error = anyhow::anyhow!("inner").context("outer");
        assert_eq!(message_chain(&error), "outer: inner");
    }

    #[test]
    fn usage_says_nbsight_whatever_the_program_path() {
        let error = Cli::try_parse_from(["/venv/lib/nbsight/__main__.py", "--no-such-flag"])
            .expect_err("an unknown flag is a usage error");
        assert!(error.render().to_string().contains("Usage: nbsight "));
    }

    #[test]
    fn usage_errors_and_version_are_exit_codes_not_exits() {
        assert_eq!(
            main_with_args(["nbsight", "--no-such-flag"].map(Into::into)),
            2
        );
        assert_eq!(main_with_args(["nbsight", "--version"].map(Into::into)), 0);
    }
}
