//! The files a cell reads and writes, for the re-run plan. The calls the
//! effects knowledge base gives a file role (`read-file`, `write-file`,
//! `delete-file`: `open`, `read_csv`, `to_csv`, `os.mkdir`, `os.rename`...)
//! are read off the cell's module-level calls; their paths are string
//! literals, names the notebook binds to one literal only, `os.path.join`
//! and `+` of those, or any file when not known. What each does:
//! - *read*: `open(p)`, `read_csv(p)`, `os.listdir(p)`;
//! - *write*: replaces `p` whatever it held (`open(p, 'w')`, `to_csv(p)`,
//!   `os.rename`'s destination);
//! - *ensure*: makes `p` exist and leaves it as it is when it does
//!   (`os.makedirs(p, exist_ok=True)`);
//! - *update*: a result that depends on what was there, so that running the
//!   call twice differs from running it once (`open(p, 'a')`, `os.mkdir(p)`,
//!   `os.rename`'s source, `os.remove(p)`);
//! - *delete*: removes `p` and what is under it whatever it held
//!   (`shutil.rmtree(p, ignore_errors=True)`).
//!
//! A name bound to a file open for writing (`with open(p, 'w') as f`) is a
//! handle: what a statement writes through it changes `p`.

use nbsight_dataflow::effects::Role;
use nbsight_model::Compiled;
use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, ExprCall, ModModule, Stmt};
use ruff_text_size::{Ranged, TextRange, TextSize};
use rustc_hash::FxHashMap;

/// A path, relative to the kernel's working directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FilePath {
    Known(String),
    /// A path the analysis does not know: any file.
    Any,
}

impl FilePath {
    fn known(path: &str) -> FilePath {
        let mut p = path.trim();
        while let Some(rest) = p.strip_prefix("./") {
            p = rest;
        }
        let p = p.trim_end_matches('/');
        FilePath::Known(if p.is_empty() { ".".into() } else { p.into() })
    }

    /// May one of the two be the other or a folder holding it?
    pub(super) fn overlaps(&self, other: &FilePath) -> bool {
        match (self, other) {
            (FilePath::Known(a), FilePath::Known(b)) => under(a, b) || under(b, a),
            _ => true,
        }
    }

    /// Is it surely `other` or under the folder `other`?
    pub(super) fn within(&self, other: &FilePath) -> bool {
        matches!((self, other), (FilePath::Known(a), FilePath::Known(b)) if under(a, b))
    }
}

/// `path` is `folder` or under it.
fn under(path: &str, folder: &str) -> bool {
    folder == "."
        || path
            .strip_prefix(folder)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// What a call does to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileAccess {
    Read,
    Write,
    Ensure,
    Update,
    Delete,
}

impl FileAccess {
    /// Reads what was there.
    pub(super) fn reads(self) -> bool {
        matches!(self, FileAccess::Read | FileAccess::Update)
    }

    /// Changes the file system.
    pub(super) fn writes(self) -> bool {
        !matches!(self, FileAccess::Read)
    }
}

/// One file access of a cell.
#[derive(Debug, Clone)]
pub(crate) struct FileOp {
    pub path: FilePath,
    pub access: FileAccess,
    /// Leaves nothing of what `path` held (a write, a removal), so that
    /// running the call rebuilds `path` as Run All has it there.
    pub resets: bool,
    /// Where the call starts in the cell.
    pub at: TextSize,
}

/// A cell's file accesses and the names it binds to files open for
/// writing.
#[derive(Debug, Clone, Default)]
pub(crate) struct FileOps {
    pub ops: Vec<FileOp>,
    pub handles: Vec<(String, FilePath)>,
}

impl FileOps {
    pub(super) fn of(compiled: &Compiled, module: &ModModule, literals: &Literals) -> FileOps {
        let mut out = FileOps::default();
        let file_role = |r: &Role| matches!(r, Role::ReadFile | Role::WriteFile | Role::DeleteFile);
        if !compiled
            .cfg
            .calls
            .iter()
            .any(|c| c.roles.iter().any(file_role))
        {
            return out;
        }
        let mut calls = CallsByRange::default();
        let mut handles = Handles {
            literals,
            found: Vec::new(),
        };
        for stmt in &module.body {
            calls.visit_stmt(stmt);
            handles.visit_stmt(stmt);
        }
        out.handles = handles.found;
        for site in &compiled.cfg.calls {
            if !site.roles.iter().any(file_role) {
                continue;
            }
            let at = site.range.start();
            let Some(call) = calls.0.get(&site.range) else {
                // A call the analysis sees where the source has none.
                let access = if site.roles.contains(&Role::ReadFile) {
                    FileAccess::Read
                } else {
                    FileAccess::Update
                };
                out.ops.push(FileOp {
                    path: FilePath::Any,
                    access,
                    resets: false,
                    at,
                });
                continue;
            };
            let name = site.callee.rsplit('.').next().unwrap_or(&site.callee);
            let default = if site.roles.contains(&Role::WriteFile) {
                FileAccess::Write
            } else if site.roles.contains(&Role::DeleteFile) {
                FileAccess::Update
            } else {
                FileAccess::Read
            };
            for (path, access, resets) in
                call_ops(name, site.method, default, call, literals, &out.handles)
            {
                out.ops.push(FileOp {
                    path,
                    access,
                    resets,
                    at,
                });
            }
        }
        out
    }
}

/// What a call of the file function `name` does, to which paths, and
/// whether it resets them; `default` is what its roles say.
fn call_ops(
    name: &str,
    method: bool,
    default: FileAccess,
    call: &ExprCall,
    literals: &Literals,
    handles: &[(String, FilePath)],
) -> Vec<(FilePath, FileAccess, bool)> {
    let mut out = Vec::new();
    let handle_names: Vec<&str> = handles.iter().map(|(n, _)| n.as_str()).collect();
    if method && STREAM_METHODS.contains(&name) {
        // Writing to a stream: a handle of the cell (or a writer made of
        // one), else a file the analysis does not know.
        let receiver = match &*call.func {
            Expr::Attribute(a) => nbsight_model::paths::path_root(&a.value),
            _ => None,
        };
        if receiver.is_some_and(|r| handle_names.contains(&r)) {
            return out;
        }
        if handles.is_empty() {
            out.push((FilePath::Any, FileAccess::Ensure, false));
        }
        for (_, file) in handles {
            out.push((file.clone(), FileAccess::Ensure, false));
        }
        return out;
    }
    let mut push = |path: FilePath, access: FileAccess| {
        let resets = matches!(access, FileAccess::Write | FileAccess::Delete)
            || matches!(
                name,
                "rename"
                    | "replace"
                    | "renames"
                    | "move"
                    | "remove"
                    | "unlink"
                    | "rmdir"
                    | "removedirs"
                    | "rmtree"
            ) && access == FileAccess::Update;
        out.push((path, access, resets));
    };
    let arg = |i: usize, keywords: &[&str]| argument(call, i, keywords);
    let path = |e: Option<&Expr>| e.map_or(FilePath::Any, |e| literals.path(e));
    match name {
        "open" | "ZipFile" => {
            let mode = arg(1, &["mode"]);
            push(
                path(arg(0, &["file", "filename", "name"])),
                open_access(mode),
            );
        }
        "mkdir" => push(path(arg(0, &["path"])), FileAccess::Update),
        "makedirs" => {
            let ok = arg(2, &["exist_ok"]).is_some_and(truthy);
            let access = if ok {
                FileAccess::Ensure
            } else {
                FileAccess::Update
            };
            push(path(arg(0, &["name"])), access);
        }
        "rename" | "replace" | "renames" | "move" => {
            push(path(arg(0, &["src"])), FileAccess::Update);
            push(path(arg(1, &["dst"])), FileAccess::Write);
        }
        "remove" | "unlink" | "rmdir" | "removedirs" => {
            push(path(arg(0, &["path"])), FileAccess::Update);
        }
        "rmtree" => {
            let ignore = arg(1, &["ignore_errors"]).is_some_and(truthy);
            let access = if ignore {
                FileAccess::Delete
            } else {
                FileAccess::Update
            };
            push(path(arg(0, &["path"])), access);
        }
        "copy" | "copy2" | "copyfile" | "copytree" => {
            push(path(arg(0, &["src"])), FileAccess::Read);
            push(path(arg(1, &["dst"])), FileAccess::Write);
        }
        "listdir" | "scandir" | "walk" if call.arguments.is_empty() => {
            push(FilePath::known("."), FileAccess::Read);
        }
        "glob" | "iglob" => {
            let folder = match arg(0, &["pathname"]).map(|e| literals.path(e)) {
                Some(FilePath::Known(pattern)) => {
                    let fixed = pattern
                        .split(['*', '?', '['])
                        .next()
                        .unwrap_or_default()
                        .rsplit_once('/')
                        .map_or(".", |(dir, _)| dir)
                        .to_string();
                    FilePath::known(&fixed)
                }
                _ => FilePath::Any,
            };
            push(folder, FileAccess::Read);
        }
        _ => {
            let access = default;
            // `to_csv(p, mode='a')` appends.
            let appends = access == FileAccess::Write
                && matches!(argument(call, usize::MAX, &["mode"]), Some(Expr::StringLiteral(m)) if m.value.to_str().contains('a'));
            let access = if appends { FileAccess::Update } else { access };
            if let Some(path) = generic_path(call, literals, &handle_names, access) {
                push(path, access);
            }
        }
    }
    out
}

/// What calling each top-level user function does to files, read off its
/// body by name (the knowledge base's calls are the module level's): the
/// same calls as at the top level of a cell, and the common pandas and
/// numpy readers and writers.
pub(crate) fn function_files<'a>(
    modules: impl Iterator<Item = &'a ModModule>,
    literals: &Literals,
) -> FxHashMap<String, Vec<(FilePath, FileAccess, bool)>> {
    let mut out = FxHashMap::default();
    for module in modules {
        for stmt in &module.body {
            let Stmt::FunctionDef(f) = stmt else {
                continue;
            };
            let mut calls = BodyCalls::default();
            let mut handles = Handles {
                literals,
                found: Vec::new(),
            };
            for s in &f.body {
                calls.visit_stmt(s);
                handles.visit_stmt(s);
            }
            let mut ops = Vec::new();
            for call in calls.0 {
                let (name, method) = match &*call.func {
                    Expr::Name(n) => (n.id.as_str(), false),
                    Expr::Attribute(a) => (a.attr.as_str(), true),
                    _ => continue,
                };
                let default = match name {
                    _ if READERS.contains(&name) => FileAccess::Read,
                    _ if WRITERS.contains(&name) || STREAM_METHODS.contains(&name) => {
                        FileAccess::Write
                    }
                    "open" | "mkdir" | "makedirs" | "rename" | "replace" | "remove" | "unlink"
                    | "rmtree" | "copy" | "copyfile" | "listdir" => FileAccess::Read,
                    _ => continue,
                };
                ops.extend(call_ops(
                    name,
                    method,
                    default,
                    call,
                    literals,
                    &handles.found,
                ));
            }
            if ops.is_empty() {
                out.remove(f.name.as_str());
            } else {
                out.insert(f.name.to_string(), ops);
            }
        }
    }
    out
}

/// Readers and writers a user function's body is read for.
const READERS: &[&str] = &[
    "read_csv",
    "read_json",
    "read_parquet",
    "read_pickle",
    "read_excel",
    "read_table",
    "load",
    "loadtxt",
    "genfromtxt",
];
const WRITERS: &[&str] = &[
    "to_csv",
    "to_json",
    "to_parquet",
    "to_pickle",
    "to_excel",
    "savefig",
    "save",
    "savetxt",
    "savez",
    "dump",
];

/// The calls of a function body (nested definitions left out).
#[derive(Default)]
struct BodyCalls<'a>(Vec<&'a ExprCall>);

impl<'a> Visitor<'a> for BodyCalls<'a> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if !matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
            walk_stmt(self, stmt);
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(c) = expr {
            self.0.push(c);
        }
        walk_expr(self, expr);
    }
}

/// Methods writing to the stream they are called on.
const STREAM_METHODS: &[&str] = &[
    "write",
    "writelines",
    "writerow",
    "writerows",
    "writeheader",
];

/// The mode of `open(path, mode)`: what opening does to the file.
fn open_access(mode: Option<&Expr>) -> FileAccess {
    let Some(mode) = mode else {
        return FileAccess::Read;
    };
    let Expr::StringLiteral(s) = mode else {
        return FileAccess::Update;
    };
    let mode = s.value.to_str();
    if mode.contains(['a', 'x', '+']) {
        FileAccess::Update
    } else if mode.contains('w') {
        FileAccess::Write
    } else {
        FileAccess::Read
    }
}

/// The path a call of another file function names: its first argument that
/// is a path, or none when it writes through a handle or a file opened in
/// the call (`json.dump(d, f)`, `pickle.dump(m, open(p, 'wb'))`) or reads
/// nothing of the notebook's (`load_iris()`).
fn generic_path(
    call: &ExprCall,
    literals: &Literals,
    handles: &[&str],
    access: FileAccess,
) -> Option<FilePath> {
    const KEYWORDS: &[&str] = &[
        "path",
        "path_or_buf",
        "filepath_or_buffer",
        "fname",
        "file",
        "filename",
        "io",
        "f",
        "fp",
    ];
    let args = call.arguments.args.iter().chain(
        call.arguments
            .keywords
            .iter()
            .filter(|k| {
                k.arg
                    .as_ref()
                    .is_some_and(|a| KEYWORDS.contains(&a.as_str()))
            })
            .map(|k| &k.value),
    );
    let mut unknown = false;
    for arg in args {
        match arg {
            Expr::Name(n) if handles.contains(&n.id.as_str()) => return None,
            Expr::Call(_) => {}
            Expr::Name(n) => match literals.get(n.id.as_str()) {
                Some(p) => return Some(FilePath::known(p)),
                None => unknown = true,
            },
            e => {
                if let FilePath::Known(p) = literals.path(e) {
                    return Some(FilePath::Known(p));
                }
                unknown = true;
            }
        }
    }
    let no_arguments = call.arguments.is_empty();
    match access {
        FileAccess::Read if no_arguments => None,
        _ if no_arguments => None,
        _ => unknown.then_some(FilePath::Any),
    }
}

/// Argument `i` of a call, or the keyword argument of one of `keywords`.
fn argument<'a>(call: &'a ExprCall, i: usize, keywords: &[&str]) -> Option<&'a Expr> {
    call.arguments.args.get(i).or_else(|| {
        call.arguments
            .keywords
            .iter()
            .find(|k| {
                k.arg
                    .as_ref()
                    .is_some_and(|a| keywords.contains(&a.as_str()))
            })
            .map(|k| &k.value)
    })
}

fn truthy(e: &Expr) -> bool {
    match e {
        Expr::BooleanLiteral(b) => b.value,
        Expr::NumberLiteral(n) => !matches!(
            &n.value,
            ruff_python_ast::Number::Int(i) if i.as_u8() == Some(0)
        ),
        _ => false,
    }
}

/// The names the notebook binds to one string literal only, at the top
/// level of its cells (`path = 'data/train.csv'`).
#[derive(Debug, Default)]
pub(crate) struct Literals(FxHashMap<String, Option<String>>);

impl Literals {
    pub(super) fn of<'a>(modules: impl Iterator<Item = &'a ModModule>) -> Literals {
        let mut found: FxHashMap<String, Option<String>> = FxHashMap::default();
        let mut bind = |name: &str, value: Option<String>| {
            found
                .entry(name.to_string())
                .and_modify(|v| {
                    if *v != value {
                        *v = None;
                    }
                })
                .or_insert(value);
        };
        for module in modules {
            for stmt in &module.body {
                if let Stmt::Assign(a) = stmt {
                    for target in &a.targets {
                        if let Expr::Name(n) = target {
                            let value = match &*a.value {
                                Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
                                _ => None,
                            };
                            bind(n.id.as_str(), value);
                        }
                    }
                }
            }
        }
        Literals(found)
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).and_then(|v| v.as_deref())
    }

    /// The path `expr` names.
    pub(super) fn path(&self, expr: &Expr) -> FilePath {
        self.text(expr)
            .map_or(FilePath::Any, |p| FilePath::known(&p))
    }

    fn text(&self, expr: &Expr) -> Option<String> {
        match expr {
            Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
            Expr::Name(n) => self.get(n.id.as_str()).map(str::to_string),
            Expr::BinOp(b) if b.op == ruff_python_ast::Operator::Add => {
                Some(self.text(&b.left)? + &self.text(&b.right)?)
            }
            Expr::Call(c)
                if matches!(&*c.func, Expr::Attribute(a) if a.attr.as_str() == "join")
                    && c.arguments.keywords.is_empty()
                    && !c.arguments.args.is_empty() =>
            {
                let parts: Option<Vec<String>> =
                    c.arguments.args.iter().map(|a| self.text(a)).collect();
                Some(parts?.join("/"))
            }
            _ => None,
        }
    }
}

/// The calls of a cell's module-level code, by range.
#[derive(Default)]
struct CallsByRange<'a>(FxHashMap<TextRange, &'a ExprCall>);

impl<'a> Visitor<'a> for CallsByRange<'a> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if !matches!(stmt, Stmt::FunctionDef(_)) {
            walk_stmt(self, stmt);
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(c) = expr {
            self.0.insert(c.range(), c);
        }
        walk_expr(self, expr);
    }
}

/// Names bound to a file opened for writing.
struct Handles<'l> {
    literals: &'l Literals,
    found: Vec<(String, FilePath)>,
}

impl Handles<'_> {
    fn opened(&mut self, name: &Expr, value: &Expr) {
        let (Expr::Name(n), Expr::Call(c)) = (name, value) else {
            return;
        };
        let opens = match &*c.func {
            Expr::Name(f) => f.id.as_str() == "open",
            Expr::Attribute(a) => a.attr.as_str() == "open",
            _ => false,
        };
        if opens && open_access(argument(c, 1, &["mode"])).writes() {
            let path = argument(c, 0, &["file"]).map_or(FilePath::Any, |e| self.literals.path(e));
            self.found.push((n.id.to_string(), path));
        }
    }
}

impl<'a> Visitor<'a> for Handles<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return,
            Stmt::With(w) => {
                for item in &w.items {
                    if let Some(var) = &item.optional_vars {
                        self.opened(var, &item.context_expr);
                    }
                }
            }
            Stmt::Assign(a) => {
                for t in &a.targets {
                    self.opened(t, &a.value);
                }
            }
            _ => {}
        }
        walk_stmt(self, stmt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_overlap_by_folder() {
        let k = FilePath::known;
        assert!(k("out").overlaps(&k("out/a.txt")));
        assert!(k("./out/a.txt").overlaps(&k("out")));
        assert!(!k("out").overlaps(&k("outer")));
        assert!(!k("a.txt").overlaps(&k("b.txt")));
        assert!(k(".").overlaps(&k("b.txt")));
        assert!(FilePath::Any.overlaps(&k("b.txt")));
        assert!(k("out/a.txt").within(&k("out")));
        assert!(!FilePath::Any.within(&k("out")));
    }
}
