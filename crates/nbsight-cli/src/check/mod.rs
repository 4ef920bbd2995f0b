//! `nbsight check NOTEBOOK_OR_DIR...` (issue 8): runs the rules of
//! `nbsight-check` over notebooks and directories of notebooks and reports
//! the findings in one of the formats of `output.rs`. This module holds the
//! arguments and the run; the exit status is described in `help.rs`.

mod analyse;
mod concise;
mod github;
mod gitlab;
mod help;
pub(crate) mod inputs;
pub(crate) mod json;
mod output;
mod progress;
mod report;
mod sarif;
mod statistics;
mod text;

use std::path::{Path, PathBuf};

use anyhow::bail;
use clap::Args;
use nbsight_check::config;

use crate::Outcome;
use crate::effects_args::EffectsArgs;

use output::{Color, Output, OutputFormat};

/// Arguments of `nbsight check`.
#[derive(Debug, Args)]
#[command(after_help = help::AFTER_HELP, after_long_help = help::after_long_help())]
pub struct CheckArgs {
    /// Notebooks (.ipynb files or percent scripts) and directories, which are
    /// scanned recursively for .ipynb files (default: the current directory);
    /// `-` reads one notebook from standard input.
    #[arg(value_name = "NOTEBOOK_OR_DIR")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long = "output-format", visible_alias = "format", value_enum, default_value_t = OutputFormat::Full)]
    pub format: OutputFormat,
    /// Rules to run instead of the configured or default ones: ALL, rule
    /// names, codes or code prefixes (NBS1). Comma-separated, repeatable.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = config::check_selector)]
    pub select: Option<Vec<String>>,
    /// Rules to run in addition to the selected ones.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = config::check_selector)]
    pub extend_select: Vec<String>,
    /// Rules not to run.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = config::check_selector)]
    pub ignore: Vec<String>,
    /// Files and folders not to scan, replacing the defaults (.venv, venv,
    /// node_modules, build, dist, site-packages, .ipynb_checkpoints): glob
    /// patterns, comma-separated, repeatable.
    #[arg(long, value_name = "PATTERN", value_delimiter = ',')]
    pub exclude: Option<Vec<String>>,
    /// Files and folders not to scan, in addition to the excluded ones.
    #[arg(long, value_name = "PATTERN", value_delimiter = ',')]
    pub extend_exclude: Vec<String>,
    /// Apply the exclusions to files named on the command line (and to
    /// --stdin-filename) too, as pre-commit hooks need: they pass every
    /// changed file.
    #[arg(long)]
    pub force_exclude: bool,
    /// The name of the notebook read from standard input (`-`): its format
    /// (.ipynb or percent script), the configuration that applies to it and
    /// the name in the output.
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,
    #[command(flatten)]
    pub effects: EffectsArgs,
    /// The pyproject.toml to read [tool.nbsight] from for every notebook,
    /// instead of the nearest one above each notebook.
    #[arg(long, value_name = "PYPROJECT")]
    pub config: Option<PathBuf>,
    /// Print how many findings each rule has instead of the findings.
    #[arg(long)]
    pub statistics: bool,
    /// Exit 0 even when there are findings (input and usage errors still
    /// exit 2).
    #[arg(long)]
    pub exit_zero: bool,
    /// Print the findings only: no summary line, no warnings.
    #[arg(short, long)]
    pub quiet: bool,
    /// Colour the text output.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Color::Auto)]
    pub color: Color,
    /// Never show the progress bar (shown on a terminal when checking more
    /// than one notebook).
    #[arg(long)]
    pub no_progress: bool,
}

impl CheckArgs {
    fn command_line(&self) -> config::CommandLine {
        config::CommandLine {
            select: self.select.clone(),
            extend_select: self.extend_select.clone(),
            ignore: self.ignore.clone(),
        }
    }
}

pub fn run(args: &CheckArgs) -> anyhow::Result<Outcome> {
    // The built-in knowledge base is parsed (a few milliseconds) while the
    // configuration is read and the inputs are found.
    std::thread::spawn(|| {
        let _ = nbsight_dataflow::Effects::shared_builtin();
    });
    let cwd = std::env::current_dir().ok();
    let start = cwd.as_deref().unwrap_or(Path::new("."));
    // The run's own configuration (the current directory's, or --config) is
    // read before anything else, so a bad one is a usage error; it decides
    // the exclusions.
    let resolver = config::Resolver::new(args.command_line(), args.config.as_deref(), start)?;
    let run_config = resolver.run_config()?;

    let excludes = inputs::Excludes::new(
        args.exclude.as_deref().or(run_config.exclude.as_deref()),
        &[run_config.extend_exclude.as_slice(), &args.extend_exclude].concat(),
    )?
    .forced(args.force_exclude || run_config.force_exclude);
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let stdin_given = paths.iter().any(|p| inputs::is_stdin(p));
    if args.stdin_filename.is_some() && !stdin_given {
        bail!(
            "--stdin-filename names the notebook read from standard input: give `-` as a path too"
        );
    }
    let inputs = inputs::collect(
        &paths,
        &excludes,
        args.stdin_filename.as_deref(),
        &mut std::io::stdin().lock(),
    );
    if !args.quiet {
        for dir in &inputs.empty_dirs {
            eprintln!(
                "nbsight: warning: {}: no notebooks found (directories are scanned for .ipynb files)",
                dir.display()
            );
        }
    }
    let effects = args.effects.load()?;
    let bar = progress::bar(inputs.notebooks.len(), !args.no_progress);
    let mut report = analyse::check_all(&inputs.notebooks, &effects, &resolver, &bar);
    let inputs_given = inputs.notebooks.len() + inputs.unreadable.len();
    report.unreadable.splice(0..0, inputs.unreadable);

    for problem in &report.problems {
        eprintln!("{problem}");
    }
    for message in &report.unreadable {
        eprintln!("nbsight: error: {message}");
    }
    output::write(
        &report,
        Output {
            format: args.format,
            statistics: args.statistics,
            quiet: args.quiet,
            color: args.color,
            base: cwd.as_deref(),
        },
    )?;

    if !report.unreadable.is_empty() {
        bail!(
            "{} of {} inputs could not be read (the others were checked)",
            report.unreadable.len(),
            inputs_given
        );
    }
    Ok(if report.has_problems() && !args.exit_zero {
        Outcome::Problems
    } else {
        Outcome::Clean
    })
}
