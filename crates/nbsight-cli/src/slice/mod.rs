//! `nbsight slice NOTEBOOK --cell N [--forward] [--statements] [--gather OUT]`:
//! the backward slice of a cell (what reproducing its result needs, the
//! notebook running top to bottom) or its forward slice (what depends on
//! it), by cells or statements, with the slice-size ratio; `--gather` writes
//! the backward slice as a script or notebook that runs on its own. With
//! `--history DB_OR_NOTEBOOK --cell ID`, the dynamic slice over the real
//! execution history a live kernel wrote (`history.rs`).

mod history;
mod json;
mod text;

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;
use nbsight_flow::{FlowOptions, analyze_flows};
use nbsight_model::NotebookModel;
use nbsight_notebook::load_path;
use nbsight_slice::{GatherFormat, Granularity, Slice, Slicer, gather};

use crate::Outcome;
use crate::effects_args::EffectsArgs;

/// Output formats of `nbsight slice`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SliceFormat {
    Text,
    Json,
    /// The notebook's dependency graph as one self-contained page, the
    /// slice highlighted (docs/graph.md).
    Html,
}

/// Arguments of `nbsight slice`.
#[derive(Debug, Args)]
#[command(
    after_help = "Cell numbers N are 0-based positions in the notebook's cell list, markdown included (as in `nbsight cells`). The notebook is assumed to run top to bottom once.\n\nThe slice-size ratio is the number of statements in the slice over the number of statements in the notebook's Python cells.\n\nWith --history, the slice is the dynamic one over the executions a live kernel really ran (NBSlicer's Definition 1 at cell granularity, as `nbsight.backward_slice` answers in the kernel): the cells whose latest executions set, transitively, what the cell's latest execution read (--forward: those whose latest executions depend on it), failed executions left out, in the notebook's order as the front end last showed it (else the order cells first ran). --cell is then the cell's id (in a terminal session, its execution count); the session is the latest in which the cell ran unless --session says.\n\nExit status: 0 when the slice was computed, 2 on usage or input errors (no such cell, not a code cell, unreadable notebook, a --gather file that cannot be written, no history there, a cell that never ran in the session). Cells with syntax errors are reported on standard error and left out of slices."
)]
pub struct SliceArgs {
    /// The notebook: an .ipynb file or a percent-format script.
    #[arg(required_unless_present = "history")]
    pub notebook: Option<PathBuf>,
    /// The cell to slice from (with --history: the cell's id).
    #[arg(long, value_name = "N")]
    pub cell: String,
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
    #[arg(long, value_enum, default_value_t = SliceFormat::Text)]
    pub format: SliceFormat,
    #[command(flatten)]
    pub effects: EffectsArgs,
    /// Slice the execution history a live kernel wrote instead of the
    /// notebook run top to bottom: its SQLite file, a notebook (its history
    /// is .nbsight/NAME.sqlite beside it) or a folder.
    #[arg(
        long,
        value_name = "DB_OR_NOTEBOOK",
        conflicts_with_all = ["notebook", "statements", "gather"]
    )]
    pub history: Option<PathBuf>,
    /// With --history: the session (default: the latest in which the cell ran).
    #[arg(long, value_name = "N", requires = "history", value_parser = crate::history::parse_session_id)]
    pub session: Option<nbsight_history::SessionId>,
}

impl SliceArgs {
    /// Checks what the parser cannot: without --history, `--cell` is a
    /// number (the error is clap's, as when the option was a number).
    pub fn validate(&self) -> Result<(), clap::Error> {
        if self.history.is_some() {
            return Ok(());
        }
        self.cell.parse::<usize>().map(|_| ()).map_err(|error| {
            let mut command = <crate::Cli as clap::CommandFactory>::command();
            command.build();
            let slice = command
                .find_subcommand_mut("slice")
                .map(|c| c.clone())
                .unwrap_or_default();
            let message = format!(
                "invalid value '{}' for '--cell <N>': {error}\n\nFor more information, try '--help'.\n",
                self.cell
            );
            clap::Error::raw(clap::error::ErrorKind::ValueValidation, message).with_cmd(&slice)
        })
    }
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
    if let Some(db) = &args.history {
        return history::run(args, db);
    }
    let (Some(path), Ok(cell)) = (&args.notebook, args.cell.parse::<usize>()) else {
        // `validate` and the parser rule both out.
        bail!("nbsight slice: a notebook and a cell number are needed");
    };
    let effects = args.effects.load()?;
    let notebook = load_path(path)?;
    let model = NotebookModel::new(&notebook, &effects);
    let slicer = Slicer::from_model(&model);
    let granularity = if args.statements {
        Granularity::Statements
    } else {
        Granularity::Cells
    };
    let slice = if args.forward {
        slicer.forward(cell, granularity)?
    } else {
        slicer.backward(cell, granularity)?
    };
    match args.format {
        SliceFormat::Html => {
            let flows = analyze_flows(&model, FlowOptions::default());
            let title = notebook.path.display().to_string();
            let view = nbsight_graph::static_view(
                &title,
                &notebook,
                &model,
                &slicer,
                &flows,
                Some(&slice),
            );
            print!("{}", nbsight_graph::page(&view));
        }
        SliceFormat::Json => {
            let report = json::SliceReport::new(&slice, args.statements);
            let out = serde_json::to_string_pretty(&report).context("cannot write JSON")?;
            println!("{out}");
        }
        SliceFormat::Text => print!("{}", text::render(&slice, args.statements)),
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
