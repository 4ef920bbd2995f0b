//! The reports of `nbsight flow`: text (per cell, then the flows), JSON (the
//! issue's contract), Graphviz dot, Mermaid and the HTML page
//! (`nbsight-graph`).

use std::fmt::Write;

use nbsight_flow::FlowGraph;
use serde::Serialize;

use super::{Analysed, FlowFormat};

/// The JSON report: the contract keys and the notebook's path.
#[derive(Serialize)]
struct Report<'a> {
    notebook: String,
    #[serde(flatten)]
    graph: &'a FlowGraph,
    unresolved: usize,
}

pub fn render(a: &Analysed, format: FlowFormat) -> anyhow::Result<String> {
    let g = &a.graph;
    Ok(match format {
        FlowFormat::Json => {
            let mut s = serde_json::to_string_pretty(&Report {
                notebook: a.path.display().to_string(),
                graph: g,
                unresolved: g.unresolved(),
            })?;
            s.push('\n');
            s
        }
        FlowFormat::Dot => dot(g),
        FlowFormat::Mermaid => mermaid(g),
        FlowFormat::Text => text(a),
        FlowFormat::Html => {
            let Some(model) = &a.model else {
                anyhow::bail!("the HTML page needs the notebook's model");
            };
            let title = a.path.display().to_string();
            nbsight_graph::page(&nbsight_graph::static_view(
                &title,
                &a.notebook,
                model,
                &nbsight_slice::Slicer::from_model(model),
                g,
                None,
            ))
        }
    })
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "-".to_string()
    } else {
        names.join(", ")
    }
}

fn text(a: &Analysed) -> String {
    let g = &a.graph;
    let mut out = String::new();
    let _ = writeln!(out, "{}", a.path.display());
    for c in &g.cells {
        let _ = writeln!(
            out,
            "cell {} (code cell {}): inputs {}; outputs {}",
            c.index,
            c.code_id,
            list(&c.inputs),
            list(&c.outputs)
        );
        for amb in &c.ambiguities {
            let state = match (amb.resolution, amb.resolved_by) {
                (Some(yes), Some(by)) => format!(
                    "{} ({})",
                    if yes { "yes" } else { "no" },
                    serde_json::to_value(by)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default()
                ),
                (Some(yes), None) => (if yes { "yes" } else { "no" }).to_string(),
                (None, _) => "unresolved".to_string(),
            };
            let _ = writeln!(out, "  line {}: {} {state}", amb.line, amb.question);
        }
    }
    let _ = writeln!(out, "flows:");
    for f in &g.flows {
        let _ = writeln!(out, "  {} -> {}  {}", f.from, f.to, f.symbol);
    }
    let _ = writeln!(
        out,
        "{} flows, {} dependencies, {} ambiguities left",
        g.flows.len(),
        g.dependencies.len(),
        g.unresolved()
    );
    out
}

fn dot(g: &FlowGraph) -> String {
    let mut out = String::from("digraph flow {\n  rankdir=TB;\n  node [shape=box];\n");
    for c in &g.cells {
        let _ = writeln!(out, "  c{} [label=\"cell {}\"];", c.index, c.index);
    }
    for f in &g.flows {
        let _ = writeln!(
            out,
            "  c{} -> c{} [label=\"{}\"];",
            f.from,
            f.to,
            f.symbol.replace('"', "\\\"")
        );
    }
    out.push_str("}\n");
    out
}

fn mermaid(g: &FlowGraph) -> String {
    let mut out = String::from("flowchart TD\n");
    for c in &g.cells {
        let _ = writeln!(out, "  c{}[\"cell {}\"]", c.index, c.index);
    }
    for f in &g.flows {
        let _ = writeln!(out, "  c{} -->|{}| c{}", f.from, f.symbol, f.to);
    }
    out
}
