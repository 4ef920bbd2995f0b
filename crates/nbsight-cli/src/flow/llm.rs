//! `--resolve llm`: the ambiguities the static analysis leaves open are
//! asked, one question each, to the configured chat-completions endpoint
//! (crate `nbsight-llm`: strict Yes/No answers, a disk cache, bounded
//! concurrency). A failure leaves the ambiguity unresolved, with a message.

use anyhow::Context;
use nbsight_flow::{AmbiguityKind, Answer, FlowGraph, FlowOptions, ResolvedBy, analyze_flows_with};
use nbsight_llm::{LlmConfig, Question, QuestionKind, Resolution, Resolver};
use nbsight_model::NotebookModel;
use nbsight_notebook::{CellIndex, Notebook};

use super::FlowArgs;

/// The resolver the flags and the environment configure.
pub fn resolver(args: &FlowArgs) -> anyhow::Result<Resolver> {
    let config = LlmConfig::from_env_and_flags(
        args.llm_endpoint.clone(),
        args.llm_model.clone(),
        args.llm_key.clone(),
    )
    .context("--resolve llm needs an endpoint (--llm-endpoint or NBSIGHT_LLM_ENDPOINT) and a model (--llm-model or NBSIGHT_LLM_MODEL)")?;
    Resolver::new(config).context("cannot set up the LLM client")
}

/// Asks about every unresolved ambiguity of `graph` and re-runs the analysis
/// with the answers.
pub fn resolve(
    resolver: &Resolver,
    notebook: &Notebook,
    model: &NotebookModel,
    graph: FlowGraph,
    options: FlowOptions,
    notes: &mut Vec<String>,
) -> FlowGraph {
    let mut asked: Vec<(CellIndex, usize)> = Vec::new();
    let mut questions = Vec::new();
    for cell in &graph.cells {
        for (i, amb) in cell.ambiguities.iter().enumerate() {
            if amb.resolution.is_some() {
                continue;
            }
            asked.push((cell.index, i));
            questions.push(Question {
                kind: match amb.kind {
                    AmbiguityKind::MaybeInput => QuestionKind::Input,
                    AmbiguityKind::OutputCandidate => QuestionKind::OutputCandidate,
                },
                symbol: amb.symbol.clone(),
                cell_source: notebook
                    .cells
                    .get(cell.index.index())
                    .map(|c| c.source.clone())
                    .unwrap_or_default(),
                context: (!amb.context.is_empty()).then(|| amb.context.join("\n")),
                cell_label: format!("cell {}", cell.index),
            });
        }
    }
    if questions.is_empty() {
        return graph;
    }
    let resolutions = resolver.resolve(&questions);
    for warning in resolver.take_warnings() {
        notes.push(warning);
    }
    let mut answers: Vec<Answer> = Vec::new();
    for ((cell, i), resolution) in asked.into_iter().zip(resolutions) {
        match resolution {
            Resolution::Answered { answer, .. } => answers.push((cell, i, answer, ResolvedBy::Llm)),
            Resolution::Failed { error } => {
                notes.push(format!("cell {cell}: question left unresolved: {error}"))
            }
        }
    }
    if answers.is_empty() {
        return graph;
    }
    analyze_flows_with(model, options, &answers)
}
