//! `nbsight slice NOTEBOOK --cell N [--forward] [--statements] [--gather OUT]`:
//! the backward slice of a cell (what reproducing its result needs, the
//! notebook running top to bottom) or its forward slice (what depends on
//! it), by cells or statements, with the slice-size ratio; `--gather` writes
//! the backward slice as a script or notebook that runs on its own.

mod json;
mod text;

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;
use nbsight_notebook::load_path;
use nbsight_slice::{GatherFormat, Granularity, Slice, Slicer, gather};

use crate::Outcome;
use crate::cells::Format;
use crate::effects_args::EffectsArgs;

/// Arguments of `nbsight slice`.
#[derive(Debug, Args)]
#[command(
    after_help = "Cell numbers N are 0-based positions in the notebook's cell list, markdown included (as in `nbsight cells`). The notebook is assumed to run top to bottom once.\n\nThe slice-size ratio is the number of statements in the slice over the number of statements in the notebook's Python cells.\n\nExit status: 0 when the slice was computed, 2 on usage or input errors (no such cell, not a code cell, unreadable notebook, a --gather file that cannot be written). Cells with syntax errors are reported on standard error and left out of slices."
)]
pub struct SliceArgs {
    /// The notebook: an .ipynb file or a percent-format script.
    pub notebook: PathBuf,
    /// The cell to slice from.
    #[arg(long, value_name = "N")]
    pub cell: usize,
    /// The forward slice: what depends on cell N (default: the backward
    /// slice, what cell N's result needs).
    #[arg(long)]
    pub forward: bool,
    /// Slice by statements, and list them (default: whole cells).
    #[arg(long)]
    pub statements: bool,
    /// Write the backward slice as a program that runs on its own: a Python
    /// script (OUT.py, the cell's displayed value printed) or a notebook
    /// (OUT.ipynb).
    #[arg(long, value_name = "OUT", value_parser = parse_gather, conflicts_with = "forward")]
    pub gather: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub effects: EffectsArgs,
}

fn parse_gather(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    match GatherFormat::from_path(&path) {
        Some(_) => Ok(path),
        None => Err(format!(
            "`{text}` must end in .py (a Python script) or .ipynb (a notebook)"
        )),
    }
}

pub fn run(args: &SliceArgs) -> anyhow::Result<Outcome> {
    let effects = args.effects.load()?;
    let notebook = load_path(&args.notebook)?;
    let slicer = Slicer::new(&notebook, &effects);
    let granularity = if args.statements {
        Granularity::Statements
    } else {
        Granularity::Cells
    };
    let slice = if args.forward {
        slicer.forward(args.cell, granularity)?
    } else {
        slicer.backward(args.cell, granularity)?
    };
    match args.format {
        Format::Json => {
            let report = json::SliceReport::new(&slice, args.statements);
            let out = serde_json::to_string_pretty(&report).context("cannot write JSON")?;
            println!("{out}");
        }
        Format::Text => print!("{}", text::render(&slice, args.statements)),
    }
    for diagnostic in &notebook.diagnostics {
        eprintln!("{diagnostic}");
    }
    for (cell, error) in slicer.broken_cells() {
        let consequence = if cell == slice.cell {
            "its dependences are unknown: the slice is the cell alone"
        } else {
            "the cell is left out of slices"
        };
        eprintln!(
            "{}:cell {cell}:{}:{}: syntax error: {} ({consequence})",
            notebook.path.display(),
            error.line,
            error.column,
            error.message
        );
    }
    if let Some(out) = &args.gather {
        write_gathered(&slice, out, &notebook.path)?;
    }
    Ok(Outcome::Clean)
}

/// Writes the gathered slice to `out` (never over the notebook itself).
fn write_gathered(slice: &Slice, out: &Path, notebook: &Path) -> anyhow::Result<()> {
    let Some(format) = GatherFormat::from_path(out) else {
        bail!(
            "--gather {}: the file name must end in .py or .ipynb",
            out.display()
        );
    };
    let same = match (out.canonicalize(), notebook.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        bail!(
            "--gather {}: that is the notebook being sliced; choose another file",
            out.display()
        );
    }
    let text = gather(slice, format).context("cannot gather the slice")?;
    std::fs::write(out, text)
        .with_context(|| format!("cannot write the gathered slice to {}", out.display()))?;
    eprintln!(
        "nbsight: wrote the backward slice of cell {} to {}",
        slice.cell,
        out.display()
    );
    Ok(())
}
