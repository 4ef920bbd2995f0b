//! `nbsight flow NOTEBOOK...`: each code cell's inputs and outputs (lower
//! and upper estimates, the ambiguities between them), the information-flow
//! graph and the transitive cell dependency graph, for a notebook run top to
//! bottom once (CRABS); with `--truth` / `--truth-dir`, scored against
//! CRABS-format annotations; with `--resolve llm`, the ambiguities left are
//! asked to an OpenAI-compatible endpoint.

mod evaluate;
mod llm;
mod render;

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use nbsight_flow::{FlowGraph, FlowOptions, analyze_flows};
use nbsight_model::NotebookModel;
use nbsight_notebook::{Notebook, load_path};

use crate::Outcome;
use crate::effects_args::EffectsArgs;

/// Output formats of `nbsight flow`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FlowFormat {
    Text,
    Json,
    Dot,
    Mermaid,
    /// One self-contained page: the flow and dependency graphs drawn, a
    /// cell's code, inputs, outputs and slices on click (docs/graph.md).
    Html,
}

/// Whether unresolved ambiguities count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Unresolved {
    /// Leave them out of inputs, outputs and flows (the default).
    Exclude,
    /// Count them as yes.
    Include,
}

/// How to resolve what the static analysis leaves open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Resolve {
    /// Nothing beyond the static analysis.
    None,
    /// Ask an OpenAI-compatible chat-completions endpoint.
    Llm,
}

/// Arguments of `nbsight flow`.
#[derive(Debug, Args)]
#[command(
    after_help = "Cell numbers are 0-based positions in the notebook's cell list, markdown included (as in `nbsight cells`); truth files count code cells from 1 (the CRABS annotation format).\n\nExit status: 0 on success, 2 on usage or input errors."
)]
pub struct FlowArgs {
    /// Notebooks (.ipynb or percent scripts), or directories to scan (with
    /// --truth-dir or --truth).
    #[arg(required = true)]
    pub notebooks: Vec<PathBuf>,
    /// Output format (the graph formats need one notebook).
    #[arg(long, value_enum, default_value_t = FlowFormat::Text)]
    pub format: FlowFormat,
    /// Names bound by imports are flows too.
    #[arg(long)]
    pub import_flows: bool,
    /// Count unresolved ambiguities as inputs/outputs.
    #[arg(long, value_enum, default_value_t = Unresolved::Exclude)]
    pub unresolved: Unresolved,
    /// Score against CRABS annotations: a file for one notebook, or a file
    /// with many notebooks matched by file name.
    #[arg(long, value_name = "FILE", conflicts_with = "truth_dir")]
    pub truth: Option<PathBuf>,
    /// Score against annotations named NOTEBOOK_STEM.truth.json in DIR.
    #[arg(long, value_name = "DIR")]
    pub truth_dir: Option<PathBuf>,
    /// Resolve the ambiguities left with an LLM (nothing is sent otherwise).
    #[arg(long, value_enum, default_value_t = Resolve::None)]
    pub resolve: Resolve,
    /// The chat-completions base URL (or NBSIGHT_LLM_ENDPOINT).
    #[arg(long, value_name = "URL")]
    pub llm_endpoint: Option<String>,
    /// The model (or NBSIGHT_LLM_MODEL).
    #[arg(long, value_name = "NAME")]
    pub llm_model: Option<String>,
    /// The API key (or NBSIGHT_LLM_API_KEY / OPENAI_API_KEY).
    #[arg(long, value_name = "KEY")]
    pub llm_key: Option<String>,
    #[command(flatten)]
    pub effects: EffectsArgs,
}

impl FlowArgs {
    fn options(&self) -> FlowOptions {
        FlowOptions {
            import_flows: self.import_flows,
            include_unresolved: self.unresolved == Unresolved::Include,
        }
    }
}

/// One analysed notebook.
pub struct Analysed {
    pub path: PathBuf,
    pub notebook: Notebook,
    pub graph: FlowGraph,
    /// The model, kept for the HTML page (its slices).
    pub model: Option<NotebookModel>,
    /// Messages for the user (broken cells, LLM failures).
    pub notes: Vec<String>,
}

pub fn run(args: &FlowArgs) -> anyhow::Result<Outcome> {
    let effects = args.effects.load()?;
    let inputs = crate::check::inputs::collect_files(&args.notebooks);
    for problem in &inputs.unreadable {
        eprintln!("nbsight: {problem}");
    }
    let paths = inputs.notebooks;
    let evaluating = args.truth.is_some() || args.truth_dir.is_some();
    if !evaluating && paths.len() != 1 {
        bail!(
            "give one notebook (or --truth / --truth-dir to score {} notebooks)",
            paths.len()
        );
    }
    let resolver = match args.resolve {
        Resolve::Llm => Some(llm::resolver(args)?),
        Resolve::None => None,
    };
    let mut analysed = Vec::with_capacity(paths.len());
    for path in paths {
        let notebook = load_path(&path)?;
        let model = NotebookModel::new(&notebook, &effects);
        let mut notes = broken_cells(&path, &model);
        let mut graph = analyze_flows(&model, args.options());
        if let Some(resolver) = &resolver {
            graph = llm::resolve(
                resolver,
                &notebook,
                &model,
                graph,
                args.options(),
                &mut notes,
            );
        }
        let model = (args.format == FlowFormat::Html && !evaluating).then_some(model);
        analysed.push(Analysed {
            path,
            notebook,
            graph,
            model,
            notes,
        });
    }
    for a in &analysed {
        for note in &a.notes {
            eprintln!("nbsight: {note}");
        }
    }
    if evaluating {
        evaluate::run(args, &analysed)?;
        return Ok(Outcome::Clean);
    }
    let Some(one) = analysed.first() else {
        bail!("no notebook to analyse");
    };
    print!("{}", render::render(one, args.format)?);
    Ok(Outcome::Clean)
}

/// Diagnostics for cells that do not parse (they are left out of the graph).
fn broken_cells(path: &Path, model: &NotebookModel) -> Vec<String> {
    model
        .cells
        .iter()
        .filter_map(|c| match &c.status {
            nbsight_model::CellStatus::Broken {
                line,
                column,
                message,
            } => Some(format!(
                "{}:cell {}:{line}:{column}: syntax error, cell left out of the flow graph: {message}",
                path.display(),
                c.index
            )),
            _ => None,
        })
        .collect()
}

/// The notebook's file stem, for truth lookups.
pub fn stem(path: &Path) -> anyhow::Result<String> {
    path.file_stem()
        .and_then(|s| s.to_str())
        .map(str::to_string)
        .with_context(|| format!("{}: no file name", path.display()))
}
