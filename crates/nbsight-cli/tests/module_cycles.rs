//! No module cycles inside a crate (ARCHITECTURE.md): within each
//! workspace crate, the modules that name each other (`use crate::a::X`,
//! `crate::a::f(..)`, `super::b::Y`) form no loop, so every module stands
//! above what it uses and a newcomer can read a crate from the bottom up.
//! A module and its own submodules are one unit (a child may use its
//! parent's private items, as Rust intends); test code is left out (test
//! modules and `*_tests.rs` files may reach anywhere).
//!
//! The reading is syntactic: paths starting with `crate::` or `super::`
//! outside comments, resolved to the longest module path the crate's files
//! declare. A path through a re-export resolves to the module that
//! re-exports it, which is what a reader follows too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path inside its crate (`[]` is the crate root).
type ModPath = Vec<String>;

/// The module path of a source file under `src`.
fn module_of(src: &Path, file: &Path) -> ModPath {
    let relative = file.strip_prefix(src).expect("a file under src");
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "lib" | "main" | "mod") {
        parts.push(stem.to_string());
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file's product code: comments dropped, and everything from the
/// first `#[cfg(test)]` item on (test modules sit at the end of a file).
fn product_code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            break;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths after `prefix::` at `at` in `code`: `a::b::C` gives one,
/// `{a::X, b}` one per item (nested braces stop at their first segment).
fn paths_at(code: &str) -> Vec<Vec<String>> {
    let code = code.trim_start();
    if let Some(rest) = code.strip_prefix('{') {
        // Top-level items of the group.
        let mut depth = 0;
        let mut items = Vec::new();
        let mut current = String::new();
        for c in rest.chars() {
            match c {
                '{' => {
                    depth += 1;
                    current.push(c);
                }
                '}' if depth == 0 => break,
                '}' => {
                    depth -= 1;
                    current.push(c);
                }
                ',' if depth == 0 => items.push(std::mem::take(&mut current)),
                _ => current.push(c),
            }
        }
        items.push(current);
        return items
            .iter()
            .flat_map(|item| paths_at(item))
            .filter(|p| !p.is_empty())
            .collect();
    }
    let mut segments = Vec::new();
    let mut rest = code;
    loop {
        let end = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        segments.push(rest[..end].to_string());
        rest = &rest[end..];
        match rest.strip_prefix("::") {
            Some(next) if !next.starts_with('{') => rest = next,
            _ => break,
        }
    }
    vec![segments]
}

/// Every module path `code` (in module `here`) names through `crate::` or
/// `super::`.
fn named_paths(code: &str, here: &ModPath) -> Vec<ModPath> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for (at, _) in code.match_indices("crate::") {
        if at > 0 && is_ident(bytes[at - 1] as char) {
            continue;
        }
        out.extend(paths_at(&code[at + "crate::".len()..]));
    }
    for (at, _) in code.match_indices("super::") {
        if at > 0 && (is_ident(bytes[at - 1] as char) || bytes[at - 1] == b':') {
            continue;
        }
        // `super::super::x` climbs twice.
        let mut base = here.clone();
        let mut rest = &code[at..];
        while let Some(next) = rest.strip_prefix("super::") {
            base.pop();
            rest = next;
        }
        for path in paths_at(rest) {
            let mut full = base.clone();
            full.extend(path);
            out.push(full);
        }
    }
    out
}

/// The longest declared module that `path` starts with.
fn resolve(path: &ModPath, modules: &BTreeSet<ModPath>) -> Option<ModPath> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|prefix| modules.contains(prefix))
}

fn is_within(a: &ModPath, b: &ModPath) -> bool {
    a.len() >= b.len() && a[..b.len()] == b[..]
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    struct State<'g> {
        graph: &'g BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<&'g ModPath, usize>,
        low: BTreeMap<&'g ModPath, usize>,
        stack: Vec<&'g ModPath>,
        on_stack: BTreeSet<&'g ModPath>,
        found: Vec<Vec<ModPath>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g ModPath) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(next) = s.graph.get(v) {
            for w in next {
                let Some((w, _)) = s.graph.get_key_value(w) else {
                    continue;
                };
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let low = s.low[v].min(s.low[w]);
                    s.low.insert(v, low);
                } else if s.on_stack.contains(w) {
                    let low = s.low[v].min(s.index[w]);
                    s.low.insert(v, low);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.found.sort();
    state.found
}

/// `crate -> module -> modules it names` for one crate's `src`.
fn module_graph(src: &Path) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.retain(|f| {
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned());
        !name.is_some_and(|n| n == "tests.rs" || n.ends_with("_tests.rs"))
    });
    let modules: BTreeSet<ModPath> = files.iter().map(|f| module_of(src, f)).collect();
    let mut graph = BTreeMap::new();
    for file in &files {
        let here = module_of(src, file);
        let text = std::fs::read_to_string(file).expect("a readable source file");
        let mut uses = BTreeSet::new();
        for path in named_paths(&product_code(&text), &here) {
            let Some(target) = resolve(&path, &modules) else {
                continue;
            };
            // A module and its submodules are one unit.
            if !is_within(&target, &here) && !is_within(&here, &target) {
                uses.insert(target);
            }
        }
        graph.insert(here, uses);
    }
    // A module holds its submodules: who uses it may use what they define
    // (re-exported or reached through it).
    for module in &modules {
        if let Some((_, parent)) = module.split_last()
            && let Some(uses) = graph.get_mut(parent)
        {
            uses.insert(module.clone());
        }
    }
    graph
}

#[test]
fn no_module_cycles_inside_a_crate() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    let mut crates_read = 0;
    for entry in std::fs::read_dir(&crates).expect("the crates folder") {
        let src = entry.expect("an entry").path().join("src");
        if !src.is_dir() {
            continue;
        }
        crates_read += 1;
        let graph = module_graph(&src);
        for cycle in cycles(&graph) {
            let names: Vec<String> = cycle.iter().map(|m| m.join("::")).collect();
            found.push(format!("{}: {}", src.display(), names.join(", ")));
        }
    }
    assert!(crates_read > 10, "the workspace's crates were read");
    assert!(
        found.is_empty(),
        "module cycles (each module uses the next, round): \n{}",
        found.join("\n")
    );
}

/// The reading itself: a cycle through `crate::` and `super::` paths, a
/// grouped import, a cycle through a module's submodule, and a child's use
/// of its parent (no edge) are found or left out as the rules above say.
#[test]
fn the_reading_finds_cycles_and_ignores_parents() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("a")).expect("folders");
    let write = |path: &str, text: &str| {
        std::fs::write(src.join(path), text).expect("a file");
    };
    write("lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\n");
    write("a/mod.rs", "mod inner;\nuse crate::{b::B, c};\n");
    write(
        "a/inner.rs",
        "use super::super::a::X;\n// crate::c::nothing\n",
    );
    write(
        "b.rs",
        "pub fn f() { crate::c::g(); }\n#[cfg(test)]\nmod tests { use crate::a; }\n",
    );
    write("c.rs", "use super::b;\nfn h() {}\n");
    // `d` uses `a`, which holds `inner`, which uses `d`: a cycle through a
    // module and its submodule.
    write("d.rs", "use crate::a::Y;\n");
    std::fs::write(
        src.join("a/inner.rs"),
        "use super::super::a::X;\nuse crate::d::Z;\n// crate::c::nothing\n",
    )
    .expect("a file");
    let graph = module_graph(&src);
    let cycles = cycles(&graph);
    let named = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<ModPath>();
    assert_eq!(
        cycles,
        vec![
            vec![named(&["a"]), named(&["a", "inner"]), named(&["d"])],
            vec![named(&["b"]), named(&["c"])],
        ]
    );
    assert_eq!(
        graph[&named(&["a", "inner"])],
        BTreeSet::from([named(&["d"])]),
        "the parent is no edge, the comment neither"
    );
    assert!(graph[&named(&["a"])].contains(&named(&["b"])));
}
