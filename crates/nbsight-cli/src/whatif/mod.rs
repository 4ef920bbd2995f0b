//! `nbsight whatif NOTEBOOK EVENT`: what an event (open, execute, edit,
//! insert, delete) can lead to, from the state an execution history leaves
//! the kernel in: impacted cells, findings, the re-run plan, safe next cells.

mod json;
mod text;

use std::io::Read;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{ArgGroup, Args};
use nbsight_notebook::load_path;
use nbsight_whatif::{Event, Executed, WhatIfOptions, what_if};

use crate::Outcome;
use crate::cells::Format;
use crate::effects_args::EffectsArgs;

/// Arguments of `nbsight whatif`.
#[derive(Debug, Args)]
#[command(
    group(ArgGroup::new("event").required(true).args(["open", "execute", "edit", "insert", "delete"])),
    after_help = "Cell numbers N are 0-based positions in the notebook's cell list, markdown included (as in `nbsight cells`).\n\nExit status: 0 when the query was answered (findings are possibilities, not errors), 2 on usage or input errors."
)]
pub struct WhatIfArgs {
    /// The notebook: an .ipynb file or a percent-format script.
    pub notebook: PathBuf,
    /// The notebook is opened: what can each cell that can run now lead to?
    #[arg(long)]
    pub open: bool,
    /// Cell N is executed.
    #[arg(long, value_name = "N")]
    pub execute: Option<usize>,
    /// Cell N's source is replaced by the contents of --source.
    #[arg(long, value_name = "N", requires = "source")]
    pub edit: Option<usize>,
    /// A code cell with the contents of --source is inserted at position N.
    #[arg(long, value_name = "N", requires = "source")]
    pub insert: Option<usize>,
    /// Cell N is deleted.
    #[arg(long, value_name = "N")]
    pub delete: Option<usize>,
    /// The new cell source for --edit and --insert (`-` reads standard input);
    /// an error with the other events.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["open", "execute", "delete"])]
    pub source: Option<PathBuf>,
    /// The cells already run, in order: `saved` (cells with an execution
    /// count, in count order), `none` (a fresh kernel) or a list such as
    /// `1,2,4,5`. (`--history` is its former name, still accepted.)
    #[arg(
        long,
        value_name = "CELLS",
        alias = "history",
        default_value = "saved",
        value_parser = parse_executed
    )]
    pub executed: Executed,
    /// Explore cells up to depth K (the event's cell is depth 0); unbounded
    /// when omitted.
    #[arg(long = "k", value_name = "K")]
    pub k: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub effects: EffectsArgs,
}

fn parse_executed(text: &str) -> Result<Executed, String> {
    match text.trim() {
        "saved" => Ok(Executed::Saved),
        "none" | "fresh" | "" => Ok(Executed::Fresh),
        list => list
            .split(',')
            .map(|n| {
                n.trim().parse::<usize>().map_err(|_| {
                    format!("`{n}` is not a cell number: expected `saved`, `none` or a list such as 1,2,4,5")
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Executed::Cells),
    }
}

impl WhatIfArgs {
    fn event(&self) -> anyhow::Result<Event> {
        let source = || -> anyhow::Result<String> {
            let Some(path) = &self.source else {
                bail!("--edit and --insert need --source FILE");
            };
            if path.as_os_str() == "-" {
                let mut text = String::new();
                std::io::stdin()
                    .read_to_string(&mut text)
                    .context("cannot read the new source from standard input")?;
                return Ok(text);
            }
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the new source from {}", path.display()))
        };
        Ok(if self.open {
            Event::Open
        } else if let Some(n) = self.execute {
            Event::Execute(n)
        } else if let Some(n) = self.edit {
            Event::Edit {
                cell: n,
                source: source()?,
            }
        } else if let Some(n) = self.insert {
            Event::Insert {
                cell: n,
                source: source()?,
            }
        } else if let Some(n) = self.delete {
            Event::Delete(n)
        } else {
            bail!("give one event: --open, --execute N, --edit N, --insert N or --delete N")
        })
    }
}

pub fn run(args: &WhatIfArgs) -> anyhow::Result<Outcome> {
    let effects = args.effects.load()?;
    let notebook = load_path(&args.notebook)?;
    if !notebook.language.is_python() {
        eprintln!(
            "nbsight: warning: {}: the kernel's language is {}, not Python: its code cells are not analysed, so the answer says nothing about them",
            notebook.path.display(),
            notebook.language.name()
        );
    }
    let event = args.event()?;
    let options = WhatIfOptions {
        executed: args.executed.clone(),
        k: args.k,
    };
    let report = what_if(&notebook, &effects, &event, &options)
        .with_context(|| format!("cannot answer the query on {}", notebook.path.display()))?;
    match args.format {
        Format::Json => {
            let out = json::render(&report).context("cannot write JSON")?;
            println!("{out}");
        }
        Format::Text => print!("{}", text::render(&report, &notebook)),
    }
    for diagnostic in &notebook.diagnostics {
        eprintln!("{diagnostic}");
    }
    Ok(Outcome::Clean)
}
