//! The crate graph ARCHITECTURE.md draws, as a test over `cargo metadata`:
//! every crate has a layer, a crate depends only on crates of lower layers
//! (so the engines of one layer never depend on each other), and the crates
//! that reach the outside world (Python, SQLite, the network, Arrow files,
//! the command line's `anyhow` and `clap`) are used only where
//! ARCHITECTURE.md says. Dev-dependencies are free (tests may drive
//! anything).

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::Value;

/// Each workspace crate's layer: lower layers never depend on higher ones.
const LAYERS: &[(&str, u32)] = &[
    ("nbsight-notebook", 0),
    ("nbsight-llm", 0),
    ("nbsight-effects", 1),
    ("nbsight-dataflow", 2),
    ("nbsight-model", 3),
    ("nbsight-lineage", 3),
    ("nbsight-absint", 4),
    ("nbsight-flow", 4),
    ("nbsight-slice", 4),
    ("nbsight-history", 4),
    ("nbsight-leakage", 5),
    ("nbsight-graph", 5),
    ("nbsight-whatif", 6),
    ("nbsight-check", 7),
    ("nbsight-scan", 8),
    ("nbsight-server", 8),
    ("nbsight-cli", 9),
    ("nbsight-bench", 10),
    ("nbsight-python", 10),
];

/// Dependencies only these crates may have (normal dependencies).
const CONFINED: &[(&str, &[&str])] = &[
    ("pyo3", &["nbsight-python"]),
    // The one crate that calls ruff's parser (others' tests may).
    ("ruff_python_parser", &["nbsight-notebook"]),
    ("anyhow", &["nbsight-cli", "nbsight-bench"]),
    ("clap", &["nbsight-cli", "nbsight-bench"]),
    ("indicatif", &["nbsight-cli"]),
    ("rusqlite", &["nbsight-history"]),
    ("ureq", &["nbsight-llm"]),
    ("nbsight-llm", &["nbsight-cli"]),
    ("parquet", &["nbsight-scan"]),
    ("arrow-array", &["nbsight-scan"]),
    ("arrow-ipc", &["nbsight-scan"]),
    ("lsp-server", &["nbsight-server"]),
    ("lsp-types", &["nbsight-server"]),
];

/// `crate -> its normal dependencies`, from `cargo metadata`.
fn graph() -> BTreeMap<String, Vec<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml");
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .args(["--manifest-path", manifest])
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON");
    let mut graph = BTreeMap::new();
    for package in metadata["packages"].as_array().expect("packages") {
        let deps = package["dependencies"]
            .as_array()
            .expect("dependencies")
            .iter()
            .filter(|d| d["kind"].is_null())
            .map(|d| d["name"].as_str().unwrap_or_default().to_string())
            .collect();
        graph.insert(
            package["name"].as_str().unwrap_or_default().to_string(),
            deps,
        );
    }
    graph
}

fn layer(name: &str) -> Option<u32> {
    LAYERS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

#[test]
fn lower_crates_never_depend_on_higher_ones() {
    let graph = graph();
    let mut wrong = Vec::new();
    for (name, deps) in &graph {
        let Some(own) = layer(name) else {
            wrong.push(format!(
                "{name} has no layer in LAYERS: place it (and in ARCHITECTURE.md)"
            ));
            continue;
        };
        for dep in deps.iter().filter(|d| d.starts_with("nbsight-")) {
            match layer(dep) {
                Some(l) if l < own => {}
                _ => wrong.push(format!(
                    "{name} (layer {own}) depends on {dep} ({:?})",
                    layer(dep)
                )),
            }
        }
    }
    assert!(graph.len() >= LAYERS.len(), "{} crates", graph.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_outside_world_is_reached_only_where_the_architecture_says() {
    let graph = graph();
    let mut wrong = Vec::new();
    for (name, deps) in &graph {
        for dep in deps {
            if let Some((_, allowed)) = CONFINED.iter().find(|(d, _)| d == dep)
                && !allowed.contains(&name.as_str())
            {
                wrong.push(format!(
                    "{name} depends on {dep}, which only {allowed:?} may"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
