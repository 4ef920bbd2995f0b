//! `nbsight cells NOTEBOOK`: what every cell reads, writes, mutates and
//! imports, as a table for people or JSON for tools.

mod json;
mod text;

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, ValueEnum};
use nbsight_dataflow::analyze_notebook;
use nbsight_notebook::{Severity, load_path};

use crate::Outcome;
use crate::effects_args::EffectsArgs;

/// Arguments of `nbsight cells`.
#[derive(Debug, Args)]
#[command(
    after_help = "Cell numbers are 0-based positions in the notebook's cell list, markdown included.\n\nExit status: 0 when every cell was analysed, 1 when the notebook has cells with syntax errors (or other load errors, printed on stderr as file:cell N:line:col: message; the other cells are still shown), 2 on usage or input errors (a file that cannot be read, or is neither an .ipynb file nor a `# %%` script)."
)]
pub struct CellsArgs {
    /// The notebook: an .ipynb file or a percent-format script (`# %%` cells).
    pub notebook: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub effects: EffectsArgs,
}

/// Output formats of `nbsight cells` and `nbsight whatif`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

pub fn run(args: &CellsArgs) -> anyhow::Result<Outcome> {
    let effects = args.effects.load()?;
    let notebook = load_path(&args.notebook)?;
    let analysis = analyze_notebook(&notebook, &effects);
    let report = json::CellsReport::new(&notebook, &analysis);
    match args.format {
        Format::Json => {
            let out = serde_json::to_string_pretty(&report).context("cannot write JSON")?;
            println!("{out}");
        }
        Format::Text => print!("{}", text::render(&report)),
    }
    for diagnostic in &notebook.diagnostics {
        eprintln!("{diagnostic}");
    }
    for cell in &report.cells {
        for error in &cell.errors {
            eprintln!(
                "{}:cell {}:{}:{}: syntax error: {}",
                notebook.path.display(),
                cell.index,
                error.line,
                error.column,
                error.message
            );
        }
    }
    let has_errors = report.cells.iter().any(|c| !c.errors.is_empty())
        || notebook
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error);
    Ok(if has_errors {
        Outcome::Problems
    } else {
        Outcome::Clean
    })
}
