//! `nbsight-bench`: measures what nbsight's per-cell summaries cost next to parsing
//! on a corpus of `.ipynb` notebooks.
//!
//! For every notebook it takes the median over the iterations of `load`
//! (`load_ipynb_bytes` from bytes in memory), `parse` (`parse_python` on each Python
//! cell) and `full` (load, then `analyze_notebook`); the summaries' own cost is
//! `full - load - parse`. It prints per-notebook median, p99, max and corpus totals,
//! the `full / parse` ratio against the target of 2.0, and the slowest notebooks.
//! It never asserts anything about time.

/// nbsight allocates many small objects (AST nodes, symbols, CFG nodes);
/// mimalloc serves them faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod corpus;
mod measure;
mod report;
mod stats;

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use nbsight_dataflow::Effects;

use corpus::Prepared;
use nbsight_notebook::find_notebooks;
use report::{Format, Report, Row};

/// Untimed runs of each phase before measuring a notebook.
const WARMUP: usize = 2;

/// Benchmark nbsight's load, parse and summary costs on `.ipynb` notebooks.
#[derive(Debug, Parser)]
#[command(name = "nbsight-bench")]
struct Args {
    /// Directories searched recursively for `.ipynb` files [default: ../shared/corpus]
    dirs: Vec<PathBuf>,
    /// Timed iterations per notebook (the median is reported)
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u16).range(1..))]
    iterations: u16,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let dirs = if args.dirs.is_empty() {
        vec![PathBuf::from("../shared/corpus")]
    } else {
        args.dirs.clone()
    };
    let cwd = std::env::current_dir().map_or_else(|_| ".".to_string(), |d| d.display().to_string());
    for dir in &dirs {
        if !dir.is_dir() {
            eprintln!(
                "error: corpus directory `{}` not found (relative to {cwd}); \
                 pass the directory holding the .ipynb files as DIR",
                dir.display()
            );
            return ExitCode::from(2);
        }
    }

    let mut skipped = Vec::new();
    let mut paths = Vec::new();
    for dir in &dirs {
        let nbsight_notebook::Discovery {
            notebooks: found,
            problems,
        } = find_notebooks(dir);
        paths.extend(found);
        skipped.extend(problems);
    }
    paths.sort();
    paths.dedup();
    if paths.is_empty() {
        eprintln!("error: no .ipynb files found under the given directories");
        return ExitCode::from(2);
    }

    let effects = Effects::builtin();
    let iterations = usize::from(args.iterations);
    let progress = std::io::stderr().is_terminal();
    let mut rows = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        if progress {
            eprint!("\rmeasuring {}/{}", i + 1, paths.len());
        }
        let prepared = match Prepared::read(path) {
            Ok(p) => p,
            Err(e) => {
                skipped.push(format!("{}: {e:#}", path.display()));
                continue;
            }
        };
        match measure::measure(&prepared, &effects, WARMUP, iterations) {
            Some(timing) => rows.push(Row {
                python_cells: prepared.sources.len(),
                source_bytes: prepared.source_bytes(),
                code_cells: prepared.code_cells,
                path: prepared.path,
                timing,
            }),
            None => skipped.push(format!(
                "{}: failed to load while measuring",
                path.display()
            )),
        }
    }
    if progress {
        eprintln!();
    }
    if rows.is_empty() {
        for s in &skipped {
            println!("skipped: {s}");
        }
        eprintln!("error: no notebook could be loaded");
        return ExitCode::from(2);
    }

    let report = Report {
        rows,
        skipped,
        iterations,
        warmup: WARMUP,
        command: command_line(&cwd, &dirs, args.iterations, args.format),
    };
    print!("{}", report.render(args.format));
    ExitCode::SUCCESS
}

/// The shell command that reproduces this run.
fn command_line(cwd: &str, dirs: &[PathBuf], iterations: u16, format: Format) -> String {
    let mut parts = vec![
        "cd".to_string(),
        shell_quote(cwd),
        "&&".into(),
        "cargo run --release -p nbsight-bench --".into(),
    ];
    parts.extend(dirs.iter().map(|d| shell_quote(&d.display().to_string())));
    parts.push(format!("--iterations {iterations}"));
    parts.push(
        match format {
            Format::Text => "--format text",
            Format::Markdown => "--format markdown",
        }
        .into(),
    );
    parts.join(" ")
}

/// Quotes `s` for a POSIX shell when it holds anything but safe characters.
fn shell_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c));
    if safe {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(shell_quote("../shared/corpus"), "../shared/corpus");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn command_line_is_complete() {
        let c = command_line("/w", &[PathBuf::from("c")], 15, Format::Markdown);
        assert_eq!(
            c,
            "cd /w && cargo run --release -p nbsight-bench -- c --iterations 15 --format markdown"
        );
    }

    #[test]
    fn args_parse() {
        let a = Args::try_parse_from(["nbsight-bench", "x", "--iterations", "3"]);
        assert!(a.is_ok_and(|a| a.iterations == 3 && a.format == Format::Text));
        assert!(Args::try_parse_from(["nbsight-bench", "--iterations", "0"]).is_err());
    }
}
