//! `nbsight-bench`: measures what nbsight's per-cell summaries cost next to parsing
//! on a corpus of `.ipynb` notebooks, then the notebook-level analyses built on
//! them.
//!
//! For every notebook it takes the median over the iterations of `load`
//! (`load_ipynb_bytes` from bytes in memory), `parse` (`parse_python` on each Python
//! cell) and `full` (load, then `analyze_notebook`); the summaries' own cost is
//! `full - load - parse`. It prints per-notebook median, p99, max and corpus totals,
//! the `full / parse` ratio against the target of 2.0, and the slowest notebooks.
//!
//! Then (issue 8) the what-if workload (`whatif.rs`: a session, then execute
//! and edit of every code cell, K unbounded), NBLyzer's cell classes
//! (`classes.rs`), `check` with the default rules (`check.rs`) and, with
//! `--compare-ruff`, the `nbsight check` process next to `ruff check --select F`
//! (`ruff.rs`), and (issue 9) static slicing (`slice.rs`: the backward slice
//! of every code cell, with the slice-size ratios). It never asserts anything
//! about time.
//!
//! Invariants: measures the library crates (and the `nbsight` binary against
//! `ruff` side by side) in the process set-up of the `nbsight` binary
//! (`nbsight_cli::no_huge_pages_before_main!`); prints tables, never
//! asserts on time.

/// nbsight allocates many small objects (AST nodes, symbols, CFG nodes);
/// mimalloc serves them faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod analysis;
mod check;
mod classes;
mod corpus;
mod flow;
mod measure;
mod report;
mod ruff;
mod slice;
mod stats;
mod table;
mod whatif;

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use nbsight_check::RuleSet;
use nbsight_dataflow::Effects;
use nbsight_notebook::{find_notebooks, load_ipynb_bytes};

use analysis::{Analysis, AnalysisRow};
use check::RuleCounts;
use classes::ClassCounts;
use corpus::Prepared;
use report::{Report, Row};
use table::Format;

/// Untimed runs of each phase before measuring a notebook.
const WARMUP: usize = 2;

/// Default of `--whatif-budget`, in seconds.
const DEFAULT_BUDGET: f64 = 60.0;

/// Benchmark nbsight on `.ipynb` notebooks: load, parse and summaries, the
/// what-if engine, check, and (with --compare-ruff) check next to ruff.
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
    /// Also time the `nbsight check` process (the release binary next to this
    /// one) against `ruff check --select F` on the same notebooks, alternating,
    /// --iterations times each
    #[arg(long)]
    compare_ruff: bool,
    /// The ruff executable for --compare-ruff [default: `ruff` on PATH]
    #[arg(long, value_name = "PATH", requires = "compare_ruff")]
    ruff: Option<PathBuf>,
    /// Stop a notebook's what-if run, between two queries, after this many
    /// seconds (its time is then reported as a lower bound)
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_BUDGET, value_parser = parse_budget)]
    whatif_budget: f64,
    /// Print each notebook's times to stderr as it is measured
    #[arg(long)]
    verbose: bool,
}

// Measured in the process set-up the `nbsight` binary runs in.
nbsight_cli::no_huge_pages_before_main!();

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
    // `--verbose` prints a line per notebook instead of the progress counter.
    let progress = !args.verbose && std::io::stderr().is_terminal();
    let mut rows = Vec::new();
    // The notebooks measured, kept (with their bytes) for the second pass.
    let mut loaded = Vec::new();
    let mut analysis = Analysis {
        rows: Vec::new(),
        classes: ClassCounts::default(),
        rules: RuleCounts::with_rules(RuleSet::default()),
        ratios: slice::RatioSums::default(),
        ruff: ruff::Outcome::NotRequested,
        skipped: Vec::new(),
        iterations,
        warmup: WARMUP,
        budget: Duration::from_secs_f64(args.whatif_budget),
    };
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
            Some(timing) => {
                if args.verbose {
                    eprintln!(
                        "[{}/{}] {}: full {}",
                        i + 1,
                        paths.len(),
                        path.display(),
                        table::fmt_duration(timing.full)
                    );
                }
                rows.push(Row {
                    python_cells: prepared.sources.len(),
                    source_bytes: prepared.source_bytes(),
                    code_cells: prepared.code_cells,
                    path: prepared.path.clone(),
                    timing,
                });
                loaded.push(prepared);
            }
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

    // The notebook-level analyses, in a second pass so that their long runs
    // do not disturb the phases above.
    for (i, prepared) in loaded.iter().enumerate() {
        if progress {
            eprint!(
                "\rwhat-if, check, slice and flow {}/{}",
                i + 1,
                loaded.len()
            );
        }
        if args.verbose {
            eprint!("[{}/{}] {}:", i + 1, loaded.len(), prepared.path.display());
        }
        measure_analysis(prepared, &effects, &mut analysis);
        if args.verbose {
            match analysis.rows.last().filter(|r| r.path == prepared.path) {
                Some(r) => eprintln!(
                    " what-if {}{} ({}/{} events, {} explored, {} truncated), check {}, slice {}, flow {}",
                    if r.whatif.incomplete() { ">= " } else { "" },
                    table::fmt_duration(r.whatif.total),
                    r.whatif.answered,
                    r.whatif.events,
                    r.whatif.visits,
                    r.whatif.truncated,
                    table::fmt_duration(r.check),
                    table::fmt_duration(r.slice),
                    table::fmt_duration(r.flow)
                ),
                None => eprintln!(" skipped"),
            }
        }
    }
    if progress {
        eprintln!();
    }

    if args.compare_ruff {
        if progress {
            eprintln!("running nbsight check and ruff check...");
        }
        if cfg!(debug_assertions) {
            eprintln!(
                "note: this is a debug build; --compare-ruff runs the `nbsight` beside it \
                 (build both with `cargo build --release -p nbsight-cli -p nbsight-bench`)"
            );
        }
        analysis.ruff = ruff::compare(args.ruff.as_deref(), &dirs, &paths, iterations);
    }

    let report = Report {
        rows,
        skipped,
        iterations,
        warmup: WARMUP,
        command: command_line(&cwd, &dirs, &args),
        analysis,
    };
    print!("{}", report.render(args.format));
    ExitCode::SUCCESS
}

/// The what-if workload, cell classes, check and slicing of one notebook, added to
/// `analysis` (a notebook whose session cannot be built is listed as skipped).
fn measure_analysis(prepared: &Prepared, effects: &Effects, analysis: &mut Analysis) {
    let iterations = analysis.iterations;
    // A notebook that no longer loads is already listed as skipped by `measure`.
    let Ok(notebook) = load_ipynb_bytes(&prepared.path, &prepared.bytes) else {
        return;
    };
    let run = match whatif::measure(&notebook, effects, WARMUP, iterations, analysis.budget) {
        Ok(run) => run,
        Err(e) => {
            analysis
                .skipped
                .push(format!("{}: what-if: {e}", prepared.path.display()));
            return;
        }
    };
    let (check, findings) = check::measure(&notebook, effects, WARMUP, iterations);
    let (slice, ratios) = slice::measure(&notebook, effects, WARMUP, iterations);
    let flow = flow::measure(&notebook, effects, WARMUP, iterations);
    analysis.ratios.add(ratios);
    analysis.classes.add(&run.classes);
    analysis.rules.add(&findings);
    analysis.rows.push(AnalysisRow {
        path: prepared.path.clone(),
        code_cells: prepared.code_cells,
        whatif: run.timing,
        check,
        slice,
        flow,
    });
}

/// A positive number of seconds.
fn parse_budget(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e9 => Ok(v),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

/// The shell command that reproduces this run.
fn command_line(cwd: &str, dirs: &[PathBuf], args: &Args) -> String {
    let mut parts = vec![
        "cd".to_string(),
        shell_quote(cwd),
        "&&".into(),
        "cargo run --release -p nbsight-bench --".into(),
    ];
    parts.extend(dirs.iter().map(|d| shell_quote(&d.display().to_string())));
    parts.push(format!("--iterations {}", args.iterations));
    parts.push(
        match args.format {
            Format::Text => "--format text",
            Format::Markdown => "--format markdown",
        }
        .into(),
    );
    if args.compare_ruff {
        parts.push("--compare-ruff".into());
    }
    if let Some(ruff) = &args.ruff {
        parts.push(format!(
            "--ruff {}",
            shell_quote(&ruff.display().to_string())
        ));
    }
    if args.whatif_budget != DEFAULT_BUDGET {
        parts.push(format!("--whatif-budget {}", args.whatif_budget));
    }
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
        let args = Args::try_parse_from(["nbsight-bench", "c", "--format", "markdown"]).unwrap();
        let c = command_line("/w", &[PathBuf::from("c")], &args);
        assert_eq!(
            c,
            "cd /w && cargo run --release -p nbsight-bench -- c --iterations 15 --format markdown"
        );
        let args = Args::try_parse_from([
            "nbsight-bench",
            "c",
            "--iterations",
            "3",
            "--compare-ruff",
            "--ruff",
            "/opt/my ruff",
            "--whatif-budget",
            "0.5",
        ])
        .unwrap();
        let c = command_line("/w", &[PathBuf::from("c")], &args);
        assert_eq!(
            c,
            "cd /w && cargo run --release -p nbsight-bench -- c --iterations 3 --format text \
             --compare-ruff --ruff '/opt/my ruff' --whatif-budget 0.5"
        );
    }

    #[test]
    fn args_parse() {
        let a = Args::try_parse_from(["nbsight-bench", "x", "--iterations", "3"]);
        assert!(a.is_ok_and(|a| a.iterations == 3 && a.format == Format::Text));
        assert!(Args::try_parse_from(["nbsight-bench", "--iterations", "0"]).is_err());
        let a = Args::try_parse_from(["nbsight-bench", "x"]).unwrap();
        assert!(!a.compare_ruff && a.ruff.is_none());
        assert_eq!(a.whatif_budget, DEFAULT_BUDGET);
        let a = Args::try_parse_from(["nbsight-bench", "--whatif-budget", "2.5"]).unwrap();
        assert_eq!(a.whatif_budget, 2.5);
        for bad in ["0", "-1", "inf", "x"] {
            assert!(Args::try_parse_from(["nbsight-bench", "--whatif-budget", bad]).is_err());
        }
        // --ruff only means something with --compare-ruff.
        assert!(Args::try_parse_from(["nbsight-bench", "--ruff", "r"]).is_err());
        let a = Args::try_parse_from(["nbsight-bench", "--compare-ruff", "--ruff", "r"]).unwrap();
        assert_eq!(a.ruff, Some(PathBuf::from("r")));
    }
}
