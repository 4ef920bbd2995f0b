//! `nbsight check NOTEBOOK_OR_DIR...` (issue 8): runs the rules of
//! `nbsight-check` over notebooks and directories of notebooks and reports
//! the findings as compiler-like text, a JSON list or SARIF. This module holds
//! the arguments and the run; the exit status is described in `help.rs`.

mod analyse;
mod config;
mod help;
pub(crate) mod inputs;
pub(crate) mod json;
mod progress;
mod report;
mod sarif;
mod selection;
mod text;

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};

use crate::Outcome;
use crate::effects_args::EffectsArgs;

/// Arguments of `nbsight check`.
#[derive(Debug, Args)]
#[command(after_help = help::AFTER_HELP, after_long_help = help::after_long_help())]
pub struct CheckArgs {
    /// Notebooks (.ipynb files or percent scripts) and directories, which are
    /// scanned recursively for .ipynb files.
    #[arg(required = true, value_name = "NOTEBOOK_OR_DIR")]
    pub paths: Vec<PathBuf>,
    /// Output format: text for people; json, a list of findings; sarif, SARIF
    /// 2.1.0 for GitHub code scanning.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Rules to run instead of the configured or default ones: ALL, rule
    /// names, codes or code prefixes (NBS1). Comma-separated, repeatable.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = selection::check_selector)]
    pub select: Option<Vec<String>>,
    /// Rules to run in addition to the selected ones.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = selection::check_selector)]
    pub extend_select: Vec<String>,
    /// Rules not to run.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = selection::check_selector)]
    pub ignore: Vec<String>,
    #[command(flatten)]
    pub effects: EffectsArgs,
    /// The pyproject.toml to read [tool.nbsight] from, instead of searching
    /// from the current directory upwards.
    #[arg(long, value_name = "PYPROJECT")]
    pub config: Option<PathBuf>,
    /// Never show the progress bar (shown on a terminal when checking more
    /// than one notebook).
    #[arg(long)]
    pub no_progress: bool,
}

/// Output formats of `nbsight check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Sarif,
}

impl CheckArgs {
    fn command_line(&self) -> selection::CommandLine {
        selection::CommandLine {
            select: self.select.clone(),
            extend_select: self.extend_select.clone(),
            ignore: self.ignore.clone(),
        }
    }
}

pub fn run(args: &CheckArgs) -> anyhow::Result<Outcome> {
    let cwd = std::env::current_dir().ok();
    let start = cwd.as_deref().unwrap_or(Path::new("."));
    let loaded = config::load(args.config.as_deref(), start)?;
    let rules =
        selection::resolve(&args.command_line(), &loaded.config).with_context(
            || match &loaded.file {
                Some(file) => format!("{}: invalid rule selection", file.display()),
                None => "invalid rule selection".to_string(),
            },
        )?;
    let effects = args.effects.load()?;

    let inputs = inputs::collect(&args.paths);
    for dir in &inputs.empty_dirs {
        eprintln!(
            "nbsight: warning: {}: no notebooks found (directories are scanned for .ipynb files)",
            dir.display()
        );
    }
    let bar = progress::bar(inputs.notebooks.len(), !args.no_progress);
    let mut report = analyse::check_all(&inputs.notebooks, &effects, rules, &bar);
    let inputs_given = inputs.notebooks.len() + inputs.unreadable.len();
    report.unreadable.splice(0..0, inputs.unreadable);

    for problem in &report.problems {
        eprintln!("{problem}");
    }
    for message in &report.unreadable {
        eprintln!("nbsight: error: {message}");
    }
    match args.format {
        Format::Text => emit(&mut anstream::stdout(), &text::render(&report))?,
        Format::Json => {
            let out = json::render(&report).context("cannot write JSON")?;
            emit(&mut std::io::stdout(), &format!("{out}\n"))?;
        }
        Format::Sarif => {
            let out = sarif::render(&report, cwd.as_deref()).context("cannot write SARIF")?;
            emit(&mut std::io::stdout(), &format!("{out}\n"))?;
        }
    }

    if !report.unreadable.is_empty() {
        bail!(
            "{} of {} inputs could not be read (the others were checked)",
            report.unreadable.len(),
            inputs_given
        );
    }
    Ok(if report.has_problems() {
        Outcome::Problems
    } else {
        Outcome::Clean
    })
}

/// Writes the report; a closed pipe (`nbsight check . | head`) is not an error.
fn emit(out: &mut impl Write, text: &str) -> anyhow::Result<()> {
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(error).context("cannot write the report")
        }
        _ => Ok(()),
    }
}
