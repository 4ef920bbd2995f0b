//! Every repository path the documentation names exists: README.md,
//! ARCHITECTURE.md, docs/ and the fixture folders' READMEs, for paths that
//! start with a top-level folder of the repository (`crates/`, `tests/`,
//! `docs/`, `examples/`, `bench/`, `python/`, `scripts/`). A path a crate's
//! section names from inside the crate (`tests/replays.rs`) may be under any
//! crate; paths with wildcards or placeholders (`*`, `{`, `<`, capitals
//! such as `DIR`) are patterns, not paths; `../shared/` is outside the
//! repository and not checked.

use std::path::{Path, PathBuf};

mod common;
use common::repo;

const ROOTS: [&str; 7] = [
    "crates/",
    "tests/",
    "docs/",
    "examples/",
    "bench/",
    "python/",
    "scripts/",
];

fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_./-*{}<>+".contains(c)
}

/// `DIR`, `NAME.md`: a segment written in capitals stands for a name
/// (but the capital files repositories have).
fn is_placeholder(segment: &str) -> bool {
    let stem = segment.split('.').next().unwrap_or_default();
    stem.len() > 1
        && stem.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        && !["README", "ARCHITECTURE", "LICENSE", "CHANGELOG"].contains(&stem)
}

/// The repository paths a line names.
fn paths_in(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in line.char_indices() {
        let rest = &line[at..];
        let before = line[..at].chars().next_back();
        if before.is_some_and(|c| is_path_char(c) || c == '/') {
            continue;
        }
        if !ROOTS.iter().any(|root| rest.starts_with(root)) {
            continue;
        }
        let path: String = rest.chars().take_while(|&c| is_path_char(c)).collect();
        let path = path.trim_end_matches(['.', ',', ':', ';']).to_string();
        let pattern = path.contains(['*', '{', '<', '+']) || path.split('/').any(is_placeholder);
        if !pattern {
            found.push(path);
        }
    }
    found
}

fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    let mut stack = vec![root.join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("docs folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                docs.push(path);
            }
        }
    }
    for crate_dir in std::fs::read_dir(root.join("crates")).expect("crates") {
        let readme = crate_dir
            .expect("crate")
            .path()
            .join("tests/fixtures/README.md");
        if readme.exists() {
            docs.push(readme);
        }
    }
    docs.sort();
    docs
}

#[test]
fn every_repository_path_the_documentation_names_exists() {
    let root = repo();
    let crates: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .expect("crates")
        .map(|e| e.expect("crate").path())
        .collect();
    let mut missing = Vec::new();
    let mut checked = 0;
    for doc in documents(&root) {
        let text = std::fs::read_to_string(&doc).expect("readable");
        for (n, line) in text.lines().enumerate() {
            for path in paths_in(line) {
                checked += 1;
                let exists =
                    root.join(&path).exists() || crates.iter().any(|c| c.join(&path).exists());
                if !exists {
                    let doc = doc
                        .strip_prefix(&root)
                        .unwrap_or(&doc)
                        .display()
                        .to_string();
                    missing.push(format!("{doc}:{}: {path}", n + 1));
                }
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} paths found: is the scan broken?"
    );
    assert!(
        missing.is_empty(),
        "paths named but missing:\n{}",
        missing.join("\n")
    );
}

#[test]
fn paths_are_read_as_a_reader_would() {
    assert_eq!(
        paths_in("see `crates/nbsight-scan/src/run.rs`, and tests/fixtures/x.ipynb."),
        ["crates/nbsight-scan/src/run.rs", "tests/fixtures/x.ipynb"]
    );
    assert!(paths_in("../shared/corpus/pdsh and out/docs/x").is_empty());
    assert!(paths_in("crates/*/tests and docs/NAME.md? no: tests/fixtures/DIR").is_empty());
}
