//! The `nbsight` command-line tool: a thin shell over the library crates.
//! Each subcommand lives in its own module; this file only parses arguments,
//! dispatches, and maps outcomes to exit codes.
//!
//! Exit codes: 0 success; 1 the input was analysed but has problems worth
//! failing a CI job for (cells with syntax errors, error diagnostics); 2 usage
//! errors or an input that could not be read at all.

/// nbsight allocates many small objects (AST nodes, symbols, CFG nodes);
/// mimalloc serves them faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cells;
mod check;
mod effects_args;
mod flow;
mod slice;
mod whatif;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Finds hidden-state bugs in Jupyter notebooks and explains where values come from.
#[derive(Debug, Parser)]
#[command(name = "nbsight", version, about, long_about = None)]
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
    Flow(flow::FlowArgs),
    /// Slice the notebook from a cell: the cells (or statements) its result
    /// needs, or those depending on it; --gather writes the backward slice as
    /// a script or notebook that runs on its own.
    Slice(slice::SliceArgs),
}

/// How a command ended.
pub enum Outcome {
    /// Everything was analysed and nothing is wrong.
    Clean,
    /// Analysed, but the input has problems (exit 1).
    Problems,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Cells(args) => cells::run(&args),
        Command::Whatif(args) => whatif::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Flow(args) => flow::run(&args),
        Command::Slice(args) => slice::run(&args),
    };
    match result {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Problems) => ExitCode::from(1),
        Err(error) => {
            eprintln!("nbsight: error: {error:#}");
            ExitCode::from(2)
        }
    }
}
