//! nbsight's scoping agrees with CPython's own `symtable` (DESIGN.md, "Lessons
//! from peers": Python's symtable rules are the truth; test against them).
//!
//! Every Python cell of every `.ipynb` under `tests/fixtures/` and of the shared
//! corpus (`../shared/corpus` beside the repository; skipped when absent) that
//! nbsight parses and CPython's `compile()` accepts as it is (cells with IPython
//! escapes, `%%timeit` bodies (run inside a function) or that fail to compile
//! are skipped and counted) is handed, all in one
//! batch, to `tests/symtable_dump.py`, which reports what `symtable` says. The
//! test is skipped with a notice when `python3` is missing or is not 3.10 or
//! 3.11 (from 3.12 on, symtable inlines comprehensions into their parent).
//! Names are compared by root (`df` for `df.col`, `lst` for `lst[3]`);
//! Python's `dir(builtins)` is removed from symtable's side, as nbsight keeps
//! builtins out of `reads`.
//! symtable (3.11) marks the target of `x += 1` as assigned but not referenced
//! although the statement loads `x`; the helper adds such names to its side.
//!
//! For each function listed in a cell summary (top-level `def`s, methods as
//! `C.m`, lambdas by assigned name or `<lambda@OFFSET>`), with its nested
//! functions, classes, lambdas and comprehensions:
//! - nbsight's `reads` ⊆ the names symtable resolves to module level and that
//!   are referenced (`is_global() and is_referenced()`, plus class-body locals,
//!   which `LOAD_NAME` looks up in the globals until the class binds them);
//! - every such name is in `reads`, except the tolerated classes below;
//! - nbsight's plain-name `writes` ⊆ the names bound while declared `global`
//!   (`is_declared_global()` and assigned or imported), and every such name is in
//!   `writes` except when bound only in unreachable code.
//!
//! For the cell's module-level code:
//! - `uses` ⊆ names referenced at module level or in code run at definition
//!   time (class bodies, comprehensions; defaults and decorators are in the
//!   module's table);
//! - every name bound at module level (assigned, imported, deleted; or bound
//!   while declared global by a class body or comprehension it runs) is in
//!   `defs`;
//! - every name a load may read from before the cell (the liveness walk below)
//!   is in `uses` (or is a builtin to nbsight).
//!
//! Which references may legitimately be missing is decided by a small walk of
//! the AST in the Python helper, using symtable's resolution of each name and
//! mirroring nbsight's control-flow graph; each tolerated name is counted under
//! its class:
//! - `liveness`: a name declared `global` that is bound on every path before it
//!   is read is not live at entry, so it is not a read;
//! - `class-attribute`: a class-body name read after the class bound it reads
//!   the class namespace, not a global;
//! - `unreachable`: names read (or bound) only in code after `return`, `raise`,
//!   `break`, `continue` or an endless `while True:`;
//! - `annotation`: names only used in annotations of local variables inside
//!   function bodies (`x: T = 1`), which are never evaluated;
//! - `annotation-only`: `x: int` at module level is "assigned" for symtable but
//!   binds nothing;
//! - `ipython-builtin`: `display`, `get_ipython` (and builtins newer than the
//!   running Python) are builtins to nbsight, as a kernel provides them;
//! - `query-variable`: `@name` in the string of a pandas `query`/`eval` reads
//!   `name`, which symtable cannot see;
//! - `code-string`: a name in a string literal given to `eval`/`exec`, or a
//!   `globals()['name']` key, is read, which symtable cannot see.
//!
//! Any other difference fails the test, with the notebook, cell, scope, both
//! sets and the cell source (the first 30 are printed).

#![allow(clippy::print_stdout, clippy::print_stderr)] // a test says what it compared or skipped

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use nbsight_dataflow::builtins::is_builtin;
use nbsight_dataflow::symbol::root;
use nbsight_dataflow::{CellSummary, Effects, analyze_notebook};

type Names = BTreeSet<String>;

/// A cell sent to the helper.
struct Input {
    notebook: PathBuf,
    index: usize,
    source: String,
    summary: CellSummary,
}

/// What the helper says about one cell.
#[derive(Default)]
struct Report {
    skipped: Option<String>,
    module: BTreeMap<String, Names>,
    /// function -> field (G, W, LIVE, WREACH, WUNREACH, WHY) -> names
    functions: BTreeMap<String, BTreeMap<String, Names>>,
    /// Other spellings of function names (a lambda by byte offset).
    aliases: BTreeMap<String, String>,
}

impl Report {
    fn module(&self, field: &str) -> Names {
        self.module.get(field).cloned().unwrap_or_default()
    }
}

struct Disagreement {
    notebook: PathBuf,
    index: usize,
    scope: String,
    what: &'static str,
    names: Names,
    nbsight: Names,
    symtable: Names,
    source: String,
}

#[derive(Default)]
struct Tally {
    cells: usize,
    compared: usize,
    skipped: BTreeMap<String, usize>,
    functions: usize,
    tolerated: BTreeMap<String, usize>,
    disagreements: Vec<Disagreement>,
}

/// The root names of symbols (`df` for `df.col`).
fn roots<'a, S: AsRef<str> + 'a>(symbols: impl IntoIterator<Item = &'a S>) -> Names {
    symbols
        .into_iter()
        .map(|s| root(s.as_ref()).to_string())
        .collect()
}

/// The symbols that are plain names (not `df.col` or `lst[3]`).
fn plain<'a, S: AsRef<str> + 'a>(symbols: impl IntoIterator<Item = &'a S>) -> Names {
    symbols
        .into_iter()
        .map(AsRef::as_ref)
        .filter(|s| root(s) == *s)
        .map(str::to_string)
        .collect()
}

/// A JSON string literal, ASCII only (so the pipe's encoding never matters).
fn json_string(text: &str, out: &mut String) {
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || (c as u32) >= 0x7f => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Runs the helper once on every cell; `None` when `python3` cannot be run
/// or is not a version the helper supports.
fn run_helper(inputs: &[Input]) -> Option<Vec<Report>> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/symtable_dump.py");
    let mut json = String::from("[");
    for (key, input) in inputs.iter().enumerate() {
        if key > 0 {
            json.push(',');
        }
        json.push_str(&format!("{{\"key\":{key},\"src\":"));
        json_string(&input.source, &mut json);
        json.push('}');
    }
    json.push(']');
    let mut child = match Command::new("python3")
        .arg(&script)
        .env("PYTHONIOENCODING", "utf-8")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            eprintln!("symtable agreement: cannot run python3 ({e}); test skipped");
            return None;
        }
    };
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(json.as_bytes()));
    let output = child.wait_with_output().expect("python3 runs");
    writer
        .join()
        .expect("writer thread")
        .expect("cells written to python3");
    assert!(
        output.status.success(),
        "symtable_dump.py failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("helper prints UTF-8");
    let mut reports: Vec<Report> = (0..inputs.len()).map(|_| Report::default()).collect();
    let mut current: Option<usize> = None;
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let names = |field: &str| -> Names {
            field
                .split(' ')
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .collect()
        };
        match fields.as_slice() {
            ["UNSUPPORTED", version] => {
                eprintln!(
                    "symtable agreement: {version} not supported by symtable_dump.py \
                     (needs 3.10 or 3.11); test skipped"
                );
                return None;
            }
            ["CELL", key, "ok"] => current = Some(key.parse().expect("cell key")),
            ["CELL", key, "skip", reason] => {
                let key: usize = key.parse().expect("cell key");
                reports[key].skipped = Some(reason.to_string());
                current = None;
            }
            ["END"] => current = None,
            ["MOD", field, list] => {
                let key = current.expect("MOD line inside a cell");
                reports[key].module.insert(field.to_string(), names(list));
            }
            ["ALIAS", alias, name] => {
                let key = current.expect("ALIAS line inside a cell");
                reports[key]
                    .aliases
                    .insert(alias.to_string(), name.to_string());
            }
            ["FN", name, field, list] => {
                let key = current.expect("FN line inside a cell");
                reports[key]
                    .functions
                    .entry(name.to_string())
                    .or_default()
                    .insert(field.to_string(), names(list));
            }
            _ => panic!("unexpected helper line: {line:?}"),
        }
    }
    Some(reports)
}

impl Tally {
    fn tolerate(&mut self, class: &str) {
        *self.tolerated.entry(class.to_string()).or_default() += 1;
    }

    fn disagree(
        &mut self,
        input: &Input,
        scope: &str,
        what: &'static str,
        names: Names,
        nbsight: &Names,
        symtable: &Names,
    ) {
        if names.is_empty() {
            return;
        }
        self.disagreements.push(Disagreement {
            notebook: input.notebook.clone(),
            index: input.index,
            scope: scope.to_string(),
            what,
            names,
            nbsight: nbsight.clone(),
            symtable: symtable.clone(),
            source: input.source.clone(),
        });
    }

    fn compare_module(&mut self, input: &Input, report: &Report) {
        let s = &input.summary;
        let uses = roots(&s.uses);
        let referenced = report.module("REF");
        let (query, extra): (Names, Names) = uses
            .difference(&referenced)
            .cloned()
            .partition(|n| input.source.contains(&format!("@{n}")));
        for _ in &query {
            self.tolerate("query-variable");
        }
        let (in_strings, extra): (Names, Names) = extra
            .into_iter()
            .partition(|n| reads_code_string(&input.source, n));
        for _ in &in_strings {
            self.tolerate("code-string");
        }
        self.disagree(
            input,
            "<module>",
            "use that symtable says is never referenced",
            extra,
            &uses,
            &referenced,
        );

        let live = report.module("LIVE");
        let mut missed = Names::new();
        for name in live.difference(&uses) {
            if is_builtin(name) {
                self.tolerate("ipython-builtin");
            } else {
                missed.insert(name.clone());
            }
        }
        self.disagree(
            input,
            "<module>",
            "global read before any binding, missing from uses",
            missed,
            &uses,
            &live,
        );

        let defs = roots(&s.defs);
        let assigned = report.module("ASSIGNED");
        let (reach, unreach, annot) = (
            report.module("REACH"),
            report.module("UNREACH"),
            report.module("ANNOT"),
        );
        let (mut missed, mut unexplained) = (Names::new(), Names::new());
        for name in assigned.difference(&defs) {
            if reach.contains(name) {
                missed.insert(name.clone());
            } else if unreach.contains(name) {
                self.tolerate("unreachable");
            } else if annot.contains(name) {
                self.tolerate("annotation-only");
            } else {
                unexplained.insert(name.clone());
            }
        }
        self.disagree(
            input,
            "<module>",
            "name bound at module level, missing from defs",
            missed,
            &defs,
            &assigned,
        );
        self.disagree(
            input,
            "<module>",
            "HARNESS: binding the helper's walk does not explain",
            unexplained,
            &defs,
            &assigned,
        );
    }

    fn compare_function(&mut self, input: &Input, name: &str, fields: &BTreeMap<String, Names>) {
        let get = |field: &str| fields.get(field).cloned().unwrap_or_default();
        let summary = &input.summary.functions[name];
        self.functions += 1;

        let reads = roots(&summary.reads);
        let (global, live) = (get("G"), get("LIVE"));
        let why: BTreeMap<String, String> = get("WHY")
            .into_iter()
            .filter_map(|entry| {
                let (n, reasons) = entry.split_once('=')?;
                Some((n.to_string(), reasons.to_string()))
            })
            .collect();
        let extra = reads.difference(&global).cloned().collect();
        self.disagree(
            input,
            name,
            "read of a name symtable does not resolve to a global",
            extra,
            &reads,
            &global,
        );
        let (mut missed, mut unexplained) = (Names::new(), Names::new());
        for n in global.difference(&reads) {
            if live.contains(n) {
                if is_builtin(n) {
                    self.tolerate("ipython-builtin");
                } else {
                    missed.insert(n.clone());
                }
            } else if let Some(reasons) = why.get(n) {
                for reason in reasons.split(',') {
                    self.tolerate(reason);
                }
            } else if is_builtin(n) {
                self.tolerate("ipython-builtin");
            } else {
                unexplained.insert(n.clone());
            }
        }
        let not_global: Names = live.difference(&global).cloned().collect();
        unexplained.extend(not_global);
        self.disagree(
            input,
            name,
            "global read before any binding, missing from reads",
            missed,
            &reads,
            &global,
        );
        self.disagree(
            input,
            name,
            "HARNESS: reference the helper's walk does not explain",
            unexplained,
            &reads,
            &global,
        );

        let writes = plain(&summary.writes);
        let (assigned, reach, unreach) = (get("W"), get("WREACH"), get("WUNREACH"));
        let extra = writes.difference(&assigned).cloned().collect();
        self.disagree(
            input,
            name,
            "write of a name symtable does not bind as global",
            extra,
            &writes,
            &assigned,
        );
        let (mut missed, mut unexplained) = (Names::new(), Names::new());
        for n in assigned.difference(&writes) {
            if reach.contains(n) {
                missed.insert(n.clone());
            } else if unreach.contains(n) {
                self.tolerate("unreachable");
            } else {
                unexplained.insert(n.clone());
            }
        }
        self.disagree(
            input,
            name,
            "global bound in reachable code, missing from writes",
            missed,
            &writes,
            &assigned,
        );
        self.disagree(
            input,
            name,
            "HARNESS: global binding the helper's walk does not explain",
            unexplained,
            &writes,
            &assigned,
        );
    }

    fn compare(&mut self, input: &Input, report: &Report) {
        if let Some(reason) = &report.skipped {
            let class = reason.split(':').next().unwrap_or(reason).to_string();
            if class == "mismatch" {
                // The helper could not pair the AST with symtable's tables:
                // a bug of the helper, not of nbsight, but never ignored.
                self.disagree(
                    input,
                    "<cell>",
                    "HARNESS: AST and symtable tables do not line up",
                    [reason.clone()].into(),
                    &Names::new(),
                    &Names::new(),
                );
            }
            *self.skipped.entry(class).or_default() += 1;
            return;
        }
        self.compared += 1;
        self.compare_module(input, report);
        // nbsight's name for each function, under the helper's spelling.
        let spelled: BTreeMap<String, String> = input
            .summary
            .functions
            .keys()
            .map(|k| {
                let k: &str = k.as_ref();
                let spelled = report.aliases.get(k).map_or(k, String::as_str);
                (spelled.to_string(), k.to_string())
            })
            .collect();
        let ours: Names = spelled.keys().cloned().collect();
        let theirs: Names = report.functions.keys().cloned().collect();
        self.disagree(
            input,
            "<cell>",
            "function the helper finds, missing from nbsight's functions",
            theirs.difference(&ours).cloned().collect(),
            &ours,
            &theirs,
        );
        self.disagree(
            input,
            "<cell>",
            "function nbsight lists that the helper does not find",
            ours.difference(&theirs).cloned().collect(),
            &ours,
            &theirs,
        );
        for (name, fields) in &report.functions {
            if let Some(nbsight_name) = spelled.get(name) {
                self.compare_function(input, nbsight_name, fields);
            }
        }
    }
}

fn show(names: &Names) -> String {
    let list: Vec<&str> = names.iter().map(String::as_str).collect();
    format!("{{{}}}", list.join(", "))
}

#[test]
fn function_and_cell_scopes_agree_with_python_symtable() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    paths
        .extend(nbsight_notebook::find_notebooks(&manifest.join("../../tests/fixtures")).notebooks);
    let fixtures = paths.len();
    let corpus = manifest.join("../../../shared/corpus");
    paths.extend(nbsight_notebook::find_notebooks(&corpus).notebooks);
    paths.sort();

    let effects = Effects::builtin();
    let mut tally = Tally::default();
    let mut inputs = Vec::new();
    for path in &paths {
        let Ok(notebook) = nbsight_notebook::load_path(path) else {
            continue;
        };
        let analysis = analyze_notebook(&notebook, &effects);
        for (cell, analysed) in notebook.cells.iter().zip(analysis.cells) {
            let Some(module) = analysed.module else {
                continue;
            };
            tally.cells += 1;
            // A `%%timeit` body runs inside a function: its module-level
            // symtable is not the truth for it.
            let timed = cell.form.cell_magic().is_some_and(|m| m.name == "timeit");
            if !module.summary.magics.is_empty() || timed {
                *tally.skipped.entry("ipython".into()).or_default() += 1;
                continue;
            }
            let source = cell.python_source().expect("a parsed cell is Python");
            inputs.push(Input {
                notebook: path.clone(),
                index: cell.index,
                source: source.into_owned(),
                summary: module.summary,
            });
        }
    }
    let Some(reports) = run_helper(&inputs) else {
        return;
    };
    for (input, report) in inputs.iter().zip(&reports) {
        tally.compare(input, report);
    }

    let skipped: Vec<String> = tally
        .skipped
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let tolerated: Vec<String> = tally
        .tolerated
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    eprintln!(
        "symtable agreement: {} notebooks ({fixtures} fixtures), {} Python cells, {} compared, \
         skipped [{}]; {} functions compared; tolerated [{}]; {} disagreements",
        paths.len(),
        tally.cells,
        tally.compared,
        skipped.join(", "),
        tally.functions,
        tolerated.join(", "),
        tally.disagreements.len(),
    );
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    for d in &tally.disagreements {
        *by_kind.entry(d.what).or_default() += 1;
    }
    for (what, count) in &by_kind {
        eprintln!("  {count:5}  {what}");
    }
    for d in tally.disagreements.iter().take(30) {
        eprintln!(
            "\n{} cell {} [{}]: {}: {}\n  nbsight:  {}\n  symtable: {}\n---\n{}\n---",
            d.notebook.display(),
            d.index,
            d.scope,
            d.what,
            show(&d.names),
            show(&d.nbsight),
            show(&d.symtable),
            d.source.trim_end(),
        );
    }
    assert!(
        tally.compared > 0,
        "no cell was compared (fixtures missing?)"
    );
    assert!(
        tally.disagreements.is_empty(),
        "{} disagreements with Python's symtable (first 30 above)",
        tally.disagreements.len()
    );
}

/// `name` is written in a string literal that the cell runs as code
/// (`eval('rate * 2')`) or uses as a namespace key (`globals()['limit']`).
fn reads_code_string(source: &str, name: &str) -> bool {
    ["eval(", "exec(", "globals()[", "locals()["]
        .iter()
        .any(|marker| {
            source.match_indices(marker).any(|(at, _)| {
                let rest = &source[at + marker.len()..];
                let quoted = rest.trim_start().starts_with(['\'', '"']);
                let end = rest.find(')').map_or(rest.len(), |e| e + 1);
                quoted
                    && rest[..end]
                        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .any(|w| w == name)
            })
        })
}
