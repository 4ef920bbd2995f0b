//! Names across cells: where each top-level name is bound and read, for
//! hover ("defined in cell 2, computed from `a`, read in cells 3 and 5"),
//! go to definition and find references. Scopes are Python's: a function's
//! parameters and the names its body binds are its own, as are
//! comprehension and lambda variables; a name a function reads without
//! binding it is a reference to the global.

use lsp_types::{Location, Position, Range, Uri};
use nbsight_model::NotebookModel;
use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, ExprContext, Stmt};
use ruff_text_size::TextSize;
use rustc_hash::FxHashSet;

use crate::analysis::Locator;

/// One occurrence of a top-level name.
#[derive(Debug, Clone)]
pub(crate) struct Occurrence {
    pub(crate) name: String,
    pub(crate) cell: usize,
    pub(crate) uri: Uri,
    pub(crate) range: Range,
    /// A binding (assignment target, `def`, `class`, import, loop target).
    pub(crate) binds: bool,
    /// For a binding: the names its statement read.
    pub(crate) reads: Vec<String>,
}

/// Every occurrence of a top-level name in a notebook, in cell order.
#[derive(Debug, Default)]
pub(crate) struct Names {
    occurrences: Vec<Occurrence>,
}

impl Names {
    pub(crate) fn build(model: &NotebookModel, locate: &Locator<'_>) -> Names {
        let mut occurrences = Vec::new();
        for info in &model.cells {
            let Some(parsed) = info.parsed.as_deref() else {
                continue;
            };
            let mut collector = Collector::default();
            for stmt in &parsed.module.body {
                collector.visit_stmt(stmt);
            }
            for found in collector.found {
                let (line, column) = parsed.line_column(found.offset);
                let Some((uri, range)) = locate.at_in(info.index, parsed.source(), line, column)
                else {
                    continue;
                };
                occurrences.push(Occurrence {
                    name: found.name,
                    cell: info.index,
                    uri,
                    range,
                    binds: found.binds,
                    reads: found.reads,
                });
            }
        }
        Names { occurrences }
    }

    /// The occurrence at `position` of document `uri`.
    pub(crate) fn at(&self, uri: &Uri, position: Position) -> Option<&Occurrence> {
        self.occurrences.iter().find(|o| {
            &o.uri == uri
                && o.range.start.line == position.line
                && o.range.start.character <= position.character
                && position.character <= o.range.end.character
        })
    }

    fn of<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Occurrence> + 'a {
        self.occurrences.iter().filter(move |o| o.name == name)
    }

    /// The bindings a read at `at` sees, by notebook order: the last one
    /// before it in its own cell, else those of the nearest cell above;
    /// when no cell above binds it, every binding (it can only come from a
    /// cell run out of order).
    pub(crate) fn definitions(&self, at: &Occurrence) -> Vec<Location> {
        let bindings: Vec<&Occurrence> = self.of(&at.name).filter(|o| o.binds).collect();
        let before = |o: &&Occurrence| {
            o.cell < at.cell
                || (o.cell == at.cell && o.range.start < at.range.start && !at.binds)
                || (o.cell == at.cell && o.range.start == at.range.start)
        };
        let chosen: Vec<&Occurrence> = match bindings
            .iter()
            .copied()
            .filter(before)
            .max_by_key(|o| (o.cell, o.range.start))
        {
            Some(last) => bindings
                .iter()
                .copied()
                .filter(|o| o.cell == last.cell && (o.cell != at.cell || before(o)))
                .collect(),
            None => bindings,
        };
        chosen
            .into_iter()
            .map(|o| Location::new(o.uri.clone(), o.range))
            .collect()
    }

    pub(crate) fn references(&self, at: &Occurrence, with_bindings: bool) -> Vec<Location> {
        self.of(&at.name)
            .filter(|o| with_bindings || !o.binds)
            .map(|o| Location::new(o.uri.clone(), o.range))
            .collect()
    }

    /// The hover text (markdown) of the name at `at`.
    pub(crate) fn hover(&self, at: &Occurrence) -> String {
        let name = &at.name;
        let mut bound: Vec<String> = Vec::new();
        let mut inputs: Vec<&str> = Vec::new();
        for o in self.of(name).filter(|o| o.binds) {
            let place = format!("cell {} (line {})", o.cell, o.range.start.line + 1);
            if !bound.contains(&place) {
                bound.push(place);
            }
            for read in &o.reads {
                if read != name && !inputs.contains(&read.as_str()) {
                    inputs.push(read);
                }
            }
        }
        let mut readers: Vec<usize> = self.of(name).filter(|o| !o.binds).map(|o| o.cell).collect();
        readers.dedup();
        let mut lines = vec![format!("**`{name}`** (nbsight)")];
        lines.push(match bound.is_empty() {
            true => "bound by no cell (a builtin, or defined outside the notebook)".into(),
            false => format!("bound in {}", bound.join(", ")),
        });
        if !inputs.is_empty() {
            let inputs: Vec<String> = inputs.iter().map(|i| format!("`{i}`")).collect();
            lines.push(format!("computed from {}", inputs.join(", ")));
        }
        if !readers.is_empty() {
            let cells: Vec<String> = readers.iter().map(usize::to_string).collect();
            lines.push(format!(
                "read in cell{} {}",
                if cells.len() == 1 { "" } else { "s" },
                cells.join(", ")
            ));
        }
        lines.join("\n\n")
    }
}

/// An occurrence found in one cell's syntax tree.
#[derive(Debug)]
struct Found {
    name: String,
    offset: TextSize,
    binds: bool,
    reads: Vec<String>,
}

/// Walks one cell's statements, tracking the scopes of functions,
/// classes, lambdas and comprehensions.
#[derive(Default)]
struct Collector {
    found: Vec<Found>,
    /// The names each enclosing local scope binds (empty at the top level).
    scopes: Vec<FxHashSet<String>>,
    /// What the current top-level statement reads (for its bindings).
    reads: Vec<String>,
}

impl Collector {
    fn top_level(&self) -> bool {
        self.scopes.is_empty()
    }

    fn is_local(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains(name))
    }

    fn bind(&mut self, name: &str, offset: TextSize) {
        let reads = self.reads.iter().filter(|r| *r != name).cloned().collect();
        self.found.push(Found {
            name: name.to_string(),
            offset,
            binds: true,
            reads,
        });
    }

    fn in_scope(&mut self, locals: FxHashSet<String>, body: impl FnOnce(&mut Self)) {
        self.scopes.push(locals);
        body(self);
        self.scopes.pop();
    }
}

/// The names `expr` loads (`ctx` Load: what it reads) or stores (`ctx`
/// Store: what a target binds, `a, (b, c)`), each once, in order.
fn names_in(expr: &Expr, ctx: ExprContext) -> Vec<String> {
    struct Names(Vec<String>, ExprContext);
    impl<'a> Visitor<'a> for Names {
        fn visit_expr(&mut self, expr: &'a Expr) {
            if let Expr::Name(name) = expr
                && name.ctx == self.1
                && !self.0.iter().any(|n| n == name.id.as_str())
            {
                self.0.push(name.id.to_string());
            }
            walk_expr(self, expr);
        }
    }
    let mut names = Names(Vec::new(), ctx);
    names.visit_expr(expr);
    names.0
}

/// The names `expr` reads.
fn loads(expr: &Expr) -> Vec<String> {
    names_in(expr, ExprContext::Load)
}

/// The names a local scope's body binds (not descending into nested
/// scopes, whose own names they are).
fn bound_in(body: &[Stmt]) -> FxHashSet<String> {
    /// The names bound, and those `global` gives to the module.
    struct Bound(FxHashSet<String>, Vec<String>);
    impl<'a> Visitor<'a> for Bound {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(f) => {
                    self.0.insert(f.name.to_string());
                }
                Stmt::ClassDef(c) => {
                    self.0.insert(c.name.to_string());
                }
                Stmt::Import(i) => {
                    for alias in &i.names {
                        let name = alias.asname.as_ref().unwrap_or(&alias.name);
                        let root = name.as_str().split('.').next().unwrap_or_default();
                        self.0.insert(root.to_string());
                    }
                }
                Stmt::ImportFrom(i) => {
                    for alias in &i.names {
                        self.0
                            .insert(alias.asname.as_ref().unwrap_or(&alias.name).to_string());
                    }
                }
                Stmt::Global(g) => self.1.extend(g.names.iter().map(|n| n.to_string())),
                _ => walk_stmt(self, stmt),
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::Name(name) if name.ctx == ExprContext::Store => {
                    self.0.insert(name.id.to_string());
                }
                Expr::Lambda(_)
                | Expr::ListComp(_)
                | Expr::SetComp(_)
                | Expr::DictComp(_)
                | Expr::Generator(_) => {}
                _ => walk_expr(self, expr),
            }
        }
    }
    let mut bound = Bound(FxHashSet::default(), Vec::new());
    for stmt in body {
        bound.visit_stmt(stmt);
    }
    // `global x` anywhere in the body makes `x` the module's.
    for name in &bound.1 {
        bound.0.remove(name);
    }
    bound.0
}

impl<'a> Visitor<'a> for Collector {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        let top = self.top_level();
        match stmt {
            Stmt::FunctionDef(f) => {
                for decorator in &f.decorator_list {
                    self.visit_decorator(decorator);
                }
                self.visit_parameters(&f.parameters);
                if let Some(returns) = &f.returns {
                    self.visit_annotation(returns);
                }
                if top {
                    self.reads.clear();
                    self.bind(f.name.as_str(), f.name.range.start());
                }
                let mut locals = bound_in(&f.body);
                for p in f.parameters.iter() {
                    locals.insert(p.name().to_string());
                }
                self.in_scope(locals, |c| {
                    for s in &f.body {
                        c.visit_stmt(s);
                    }
                });
            }
            Stmt::ClassDef(class) => {
                for decorator in &class.decorator_list {
                    self.visit_decorator(decorator);
                }
                if let Some(arguments) = &class.arguments {
                    self.visit_arguments(arguments);
                }
                if top {
                    self.reads = class
                        .arguments
                        .as_ref()
                        .map_or_else(Vec::new, |a| a.args.iter().flat_map(loads).collect());
                    self.bind(class.name.as_str(), class.name.range.start());
                }
                let locals = bound_in(&class.body);
                self.in_scope(locals, |c| {
                    for s in &class.body {
                        c.visit_stmt(s);
                    }
                });
            }
            Stmt::Import(import) if top => {
                self.reads.clear();
                for alias in &import.names {
                    match &alias.asname {
                        Some(asname) => self.bind(asname.as_str(), asname.range.start()),
                        None => {
                            let root = alias.name.as_str().split('.').next().unwrap_or_default();
                            self.bind(root, alias.name.range.start());
                        }
                    }
                }
            }
            Stmt::ImportFrom(import) if top => {
                self.reads.clear();
                for alias in &import.names {
                    let name = alias.asname.as_ref().unwrap_or(&alias.name);
                    if name.as_str() != "*" {
                        self.bind(name.as_str(), name.range.start());
                    }
                }
            }
            Stmt::For(f) if top => {
                self.reads = loads(&f.iter);
                self.visit_expr(&f.iter);
                self.visit_expr(&f.target);
                for s in f.body.iter().chain(&f.orelse) {
                    self.visit_stmt(s);
                }
            }
            Stmt::Assign(_)
            | Stmt::AugAssign(_)
            | Stmt::AnnAssign(_)
            | Stmt::Expr(_)
            | Stmt::With(_)
                if top =>
            {
                self.reads = match stmt {
                    Stmt::Assign(a) => loads(&a.value),
                    Stmt::AugAssign(a) => [loads(&a.target), loads(&a.value)].concat(),
                    Stmt::AnnAssign(a) => a.value.as_deref().map_or_else(Vec::new, loads),
                    Stmt::With(w) => w
                        .items
                        .iter()
                        .flat_map(|i| loads(&i.context_expr))
                        .collect(),
                    _ => Vec::new(),
                };
                if let Stmt::AugAssign(a) = stmt
                    && let Expr::Name(name) = a.target.as_ref()
                {
                    // `x += 1` reads `x` and binds it again.
                    self.found.push(Found {
                        name: name.id.to_string(),
                        offset: name.range.start(),
                        binds: false,
                        reads: Vec::new(),
                    });
                    self.bind(name.id.as_str(), name.range.start());
                    self.visit_expr(&a.value);
                    return;
                }
                walk_stmt(self, stmt);
            }
            _ => walk_stmt(self, stmt),
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Name(name) => {
                let id = name.id.as_str();
                match name.ctx {
                    ExprContext::Load if !self.is_local(id) => self.found.push(Found {
                        name: id.to_string(),
                        offset: name.range.start(),
                        binds: false,
                        reads: Vec::new(),
                    }),
                    ExprContext::Store if self.top_level() => self.bind(id, name.range.start()),
                    _ => {}
                }
            }
            Expr::Lambda(lambda) => {
                let locals = lambda
                    .parameters
                    .iter()
                    .flat_map(|p| p.iter())
                    .map(|p| p.name().to_string())
                    .collect();
                self.in_scope(locals, |c| c.visit_expr(&lambda.body));
            }
            Expr::ListComp(_) | Expr::SetComp(_) | Expr::DictComp(_) | Expr::Generator(_) => {
                let generators = match expr {
                    Expr::ListComp(c) => &c.generators,
                    Expr::SetComp(c) => &c.generators,
                    Expr::DictComp(c) => &c.generators,
                    Expr::Generator(c) => &c.generators,
                    _ => return,
                };
                let mut locals = FxHashSet::default();
                for generator in generators {
                    for name in names_in(&generator.target, ExprContext::Store) {
                        locals.insert(name);
                    }
                }
                // The first iterable is evaluated in the enclosing scope.
                if let Some(first) = generators.first() {
                    self.visit_expr(&first.iter);
                }
                self.in_scope(locals, |c| {
                    for (i, generator) in generators.iter().enumerate() {
                        if i > 0 {
                            c.visit_expr(&generator.iter);
                        }
                        for condition in &generator.ifs {
                            c.visit_expr(condition);
                        }
                    }
                    match expr {
                        Expr::ListComp(x) => c.visit_expr(&x.elt),
                        Expr::SetComp(x) => c.visit_expr(&x.elt),
                        Expr::Generator(x) => c.visit_expr(&x.elt),
                        Expr::DictComp(x) => {
                            if let Some(key) = &x.key {
                                c.visit_expr(key);
                            }
                            c.visit_expr(&x.value);
                        }
                        _ => {}
                    }
                });
            }
            _ => walk_expr(self, expr),
        }
    }
}
