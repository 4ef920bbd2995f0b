//! `nbsight scan INPUT... -o OUT` (issue 35): an analysis over corpora of
//! notebooks stored as tables (Parquet, JSON Lines) or folders, into
//! tables (`OUT/status.parquet`, `OUT/findings.parquet`, ...), resumable
//! with `--resume`. The engine is `nbsight-scan`; this module holds the
//! arguments, the rules' configuration (as `nbsight check` resolves it), the
//! progress bar and the summary. See docs/scale.md.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nbsight_scan::source::Body;
use nbsight_scan::{Analyser, Analysis, Counts, Fields, Format, Options, Source, Store};

use crate::Outcome;
use crate::effects_args::EffectsArgs;
use nbsight_check::config::{CommandLine, Resolver, check_selector};

/// Arguments of `nbsight scan`.
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub struct ScanArgs {
    /// Folders of .ipynb files, .jsonl/.jsonl.gz files (one notebook per
    /// line), Parquet files or folders of them (one notebook per row).
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,
    /// The output folder (created; it holds status.parquet and the
    /// analysis's tables).
    #[arg(short, long = "output", value_name = "OUT")]
    pub output: PathBuf,
    /// What to run on each notebook.
    #[arg(long, value_enum, default_value_t = AnalysisArg::Check)]
    pub analysis: AnalysisArg,
    /// The tables' format.
    #[arg(long, value_enum, default_value_t = FormatArg::Parquet)]
    pub format: FormatArg,
    /// Go on with the scan in OUT: skip the notebooks it has a status for.
    #[arg(long)]
    pub resume: bool,
    /// JSON Lines: the key holding the notebook (an object or JSON text);
    /// by default each line is the notebook.
    #[arg(long, value_name = "KEY")]
    pub notebook_field: Option<String>,
    /// JSON Lines: the key holding the id (default: `id` when the line has
    /// one, else FILE:LINE).
    #[arg(long, value_name = "KEY")]
    pub id_field: Option<String>,
    /// Parquet: the column holding each notebook's JSON text.
    #[arg(long, value_name = "NAME", default_value = "content")]
    pub column: String,
    /// Parquet: the id column (default: `id` when there is one, else
    /// FILE:ROW).
    #[arg(long, value_name = "NAME")]
    pub id_column: Option<String>,
    /// The time budget per notebook, in seconds (0: none); a notebook over
    /// it gets the status `timeout`.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Notebooks per part written to OUT/parts (what a killed scan loses
    /// at most).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub commit_every: usize,
    /// check: rules to run instead of the configured or default ones.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = check_selector)]
    pub select: Option<Vec<String>>,
    /// check: rules to run in addition to the selected ones.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = check_selector)]
    pub extend_select: Vec<String>,
    /// check: rules not to run.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = check_selector)]
    pub ignore: Vec<String>,
    /// check: the pyproject.toml to read [tool.nbsight] from (default: the
    /// nearest one above each notebook file, or above the current folder
    /// for table rows).
    #[arg(long, value_name = "PYPROJECT")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub effects: EffectsArgs,
    /// Never show the progress bar (shown on a terminal).
    #[arg(long)]
    pub no_progress: bool,
    /// No summary line.
    #[arg(short, long)]
    pub quiet: bool,
}

const AFTER_HELP: &str = "\
Every input notebook gets one row in OUT/status.parquet (status ok,
syntax-error, unreadable or timeout); `--analysis check` writes one row per
finding to OUT/findings.parquet, with the keys of `nbsight check
--output-format json` (cells, flow, whatif, slice: OUT/cells, flows,
events, slices). A scan killed at any moment goes on with --resume.
See docs/scale.md.";

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum AnalysisArg {
    /// The rules of `nbsight check`: OUT/findings (a row per finding).
    Check,
    /// Each cell's summary, as `nbsight cells`: OUT/cells (a row per cell).
    Cells,
    /// Information flows between cells, as `nbsight flow`: OUT/flows (a
    /// row per flow).
    Flow,
    /// Opening the notebook and executing each code cell from its saved
    /// history, as `nbsight whatif`: OUT/events (a row per event).
    Whatif,
    /// Backward and forward slices of each code cell, as `nbsight slice
    /// --statements`: OUT/slices (a row per code cell).
    Slice,
}

impl AnalysisArg {
    fn analysis(self) -> Analysis {
        match self {
            AnalysisArg::Check => Analysis::Check,
            AnalysisArg::Cells => Analysis::Cells,
            AnalysisArg::Flow => Analysis::Flow,
            AnalysisArg::Whatif => Analysis::Whatif,
            AnalysisArg::Slice => Analysis::Slice,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    Parquet,
    Jsonl,
}

pub fn run(args: &ScanArgs) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let fields = Fields {
        notebook_field: args.notebook_field.clone(),
        id_field: args.id_field.clone(),
        column: args.column.clone(),
        id_column: args.id_column.clone(),
    };
    let sources = args
        .inputs
        .iter()
        .map(|path| Source::open(path, &fields))
        .collect::<Result<Vec<_>, _>>()?;
    let analysis = args.analysis.analysis();
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let resolver = Arc::new(Resolver::new(
        CommandLine {
            select: args.select.clone(),
            extend_select: args.extend_select.clone(),
            ignore: args.ignore.clone(),
        },
        args.config.as_deref(),
        &cwd,
    )?);
    // Table rows have no folder of their own: the run's settings, once.
    let run_settings = resolver.for_dir(&cwd)?;
    let run_rules = run_settings.rules;
    let rules_of = {
        let resolver = resolver.clone();
        move |item: &nbsight_scan::Item| {
            let settings = match &item.body {
                Body::File(path) => resolver.for_file(path).map_err(|e| format!("{e:#}"))?,
                _ => run_settings.clone(),
            };
            Ok(settings.rules_for(Path::new(&item.file)))
        }
    };
    let analyser = Arc::new(Analyser {
        analysis,
        effects: args.effects.load()?,
        rules: Box::new(rules_of),
    });
    let format = match args.format {
        FormatArg::Parquet => Format::Parquet,
        FormatArg::Jsonl => Format::Jsonl,
    };
    let manifest = serde_json::json!({
        "analysis": analysis.name(),
        "format": format.extension(),
        "inputs": args.inputs.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>(),
        "notebook_field": fields.notebook_field,
        "id_field": fields.id_field,
        "column": fields.column,
        "id_column": fields.id_column,
        "rules": run_rules.iter().map(|r| r.code()).collect::<Vec<_>>(),
    });
    let (mut store, done) = Store::open(
        &args.output,
        format,
        &[analysis.table()],
        &manifest,
        args.resume,
    )?;
    let total: Option<u64> = sources.iter().map(Source::count).sum();
    let items: Vec<_> = sources
        .iter()
        .map(|s| s.items(&fields))
        .collect::<Result<_, _>>()?;
    let items = Box::new(items.into_iter().flatten());
    let options = Options {
        threads: args
            .threads
            .unwrap_or_else(|| Options::default().threads)
            .max(1),
        timeout: (args.timeout > 0.0).then(|| Duration::from_secs_f64(args.timeout)),
        commit_every: args.commit_every.max(1),
    };
    let bar = progress_bar(total, !args.no_progress && !args.quiet);
    let counts = nbsight_scan::run::run(
        items,
        done,
        analyser,
        &options,
        &mut store,
        &mut |counts: &Counts| bar.set_position(counts.scanned + counts.skipped),
    )?;
    bar.finish_and_clear();
    let written = store
        .finish()
        .with_context(|| format!("cannot write the tables in {}", args.output.display()))?;
    if !args.quiet {
        eprintln!("{}", summary(&counts, started.elapsed(), &written));
    }
    Ok(Outcome::Clean)
}

/// The bar of a scan: position, rate and ETA (a spinner when the total is
/// not known), on a terminal only.
fn progress_bar(total: Option<u64>, wanted: bool) -> ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = match total {
        Some(total) => (
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()),
            "scanning {pos}/{len} notebooks [{bar:30}] {per_sec} ETA {eta}",
        ),
        None => (
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
            "scanning {spinner} {pos} notebooks {per_sec} {elapsed}",
        ),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// The line said when the scan is done.
fn summary(counts: &Counts, elapsed: Duration, written: &[PathBuf]) -> String {
    let seconds = elapsed.as_secs_f64();
    let rate = if seconds > 0.0 {
        counts.scanned as f64 / seconds
    } else {
        0.0
    };
    let mut text = format!(
        "nbsight: scanned {} notebooks in {seconds:.1} s ({rate:.0}/s): {} ok, {} syntax-error, {} unreadable, {} timeout",
        counts.scanned, counts.ok, counts.syntax_error, counts.unreadable, counts.timeout
    );
    if counts.skipped > 0 {
        text.push_str(&format!("; {} done before, skipped", counts.skipped));
    }
    let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    text.push_str(&format!("; wrote {}", names.join(", ")));
    text
}
