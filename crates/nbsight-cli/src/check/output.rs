//! The output formats of `nbsight check` (`--output-format`, alias
//! `--format`) and the writing of the report in one of them, with colour as
//! `--color` says.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use clap::ValueEnum;

use super::report::Report;
use super::{concise, github, gitlab, json, sarif, statistics, text};

/// Output formats of `nbsight check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// For people: each finding with its source line, caret and cells.
    #[value(alias = "text")]
    Full,
    /// One line per finding.
    Concise,
    /// A JSON list of findings.
    Json,
    /// One JSON object per finding and line.
    JsonLines,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// A GitLab code quality report.
    Gitlab,
}

/// When to colour the text formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// When stdout is a terminal (and `NO_COLOR` is not set).
    Auto,
    Always,
    Never,
}

impl Color {
    fn choice(self) -> anstream::ColorChoice {
        match self {
            Color::Auto => anstream::ColorChoice::Auto,
            Color::Always => anstream::ColorChoice::Always,
            Color::Never => anstream::ColorChoice::Never,
        }
    }
}

/// How the report is written.
#[derive(Debug, Clone, Copy)]
pub struct Output<'a> {
    pub format: OutputFormat,
    pub statistics: bool,
    pub quiet: bool,
    pub color: Color,
    /// Where relative URIs start (the current directory).
    pub base: Option<&'a Path>,
}

/// Writes `report` to stdout.
pub fn write(report: &Report, output: Output<'_>) -> anyhow::Result<()> {
    let mut styled = anstream::AutoStream::new(std::io::stdout(), output.color.choice());
    if output.statistics {
        let mut out = statistics::render(report);
        if !output.quiet {
            out.push_str(&text::summary(report));
            out.push('\n');
        }
        return emit(&mut styled, &out);
    }
    let plain = &mut std::io::stdout();
    match output.format {
        OutputFormat::Full => {
            let out = if output.quiet {
                text::render_findings(report)
            } else {
                text::render(report)
            };
            emit(&mut styled, &out)
        }
        OutputFormat::Concise => emit(&mut styled, &concise::render(report, output.quiet)),
        OutputFormat::Json => {
            let out = json::render(report).context("cannot write JSON")?;
            emit(plain, &format!("{out}\n"))
        }
        OutputFormat::JsonLines => emit(
            plain,
            &json::render_lines(report).context("cannot write JSON")?,
        ),
        OutputFormat::Sarif => {
            let out = sarif::render(report, output.base).context("cannot write SARIF")?;
            emit(plain, &format!("{out}\n"))
        }
        OutputFormat::Github => emit(plain, &github::render(report, output.base)),
        OutputFormat::Gitlab => {
            let out = gitlab::render(report, output.base).context("cannot write JSON")?;
            emit(plain, &format!("{out}\n"))
        }
    }
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
