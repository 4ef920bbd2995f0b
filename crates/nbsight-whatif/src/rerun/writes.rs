//! What running a cell once more does to the values it finds, as the re-run
//! plan needs it: the roots it changes in place or computes from their own
//! old value (`xs.append(7)`, `t += 2`, `c.v += 1`, `add(data)` where the
//! user function `add` changes its argument). Running such a cell twice
//! differs from running it once, so the plan rebuilds those values first.
//! A field overwritten whatever its old value, by the old code and the new
//! (`d['a'] = 5` edited into `d['a'] = 6`, `for r in rows: r['y'] = r['x']`),
//! is not such a change. A user function the cell calls that both reads and
//! writes a global (`def note(m): log.append(m)`) changes it from its old
//! value too, and so does a `del` (it fails where it already ran).

use nbsight_dataflow::access::AccessKind;
use nbsight_dataflow::symbol::root;

use super::fields::Path;
use nbsight_model::paths::path_root;
use nbsight_model::{CellInfo, NotebookModel};
use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, ModModule, Stmt};
use rustc_hash::{FxHashMap, FxHashSet};

/// The user functions of a notebook that change an argument in place, with
/// the positions of those parameters.
#[derive(Debug, Default)]
pub(crate) struct ArgumentChanges(FxHashMap<String, Vec<usize>>);

impl ArgumentChanges {
    /// Reads every top-level `def` of the cells.
    pub(super) fn of<'a>(modules: impl Iterator<Item = &'a ModModule>) -> ArgumentChanges {
        let mut found = FxHashMap::default();
        for module in modules {
            for stmt in &module.body {
                if let Stmt::FunctionDef(f) = stmt {
                    let params: Vec<&str> = f
                        .parameters
                        .posonlyargs
                        .iter()
                        .chain(&f.parameters.args)
                        .map(|p| p.parameter.name.as_str())
                        .collect();
                    let mut changed = InPlace::default();
                    for s in &f.body {
                        changed.visit_stmt(s);
                    }
                    let positions: Vec<usize> = params
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| changed.roots.contains(**p))
                        .map(|(i, _)| i)
                        .collect();
                    if positions.is_empty() {
                        found.remove(f.name.as_str());
                    } else {
                        found.insert(f.name.to_string(), positions);
                    }
                }
            }
        }
        ArgumentChanges(found)
    }

    /// The roots of the arguments `module`'s calls of those functions pass
    /// where the function changes them.
    pub(super) fn changed_by(&self, module: &ModModule) -> FxHashSet<String> {
        // No such function: no call to look for (the common case).
        if self.0.is_empty() {
            return FxHashSet::default();
        }
        let mut calls = Calls {
            changes: self,
            roots: FxHashSet::default(),
        };
        for stmt in &module.body {
            calls.visit_stmt(stmt);
        }
        calls.roots
    }

    /// The same, for one statement.
    pub(super) fn changed_by_stmt(&self, stmt: &Stmt) -> FxHashSet<String> {
        if self.0.is_empty() {
            return FxHashSet::default();
        }
        let mut calls = Calls {
            changes: self,
            roots: FxHashSet::default(),
        };
        calls.visit_stmt(stmt);
        calls.roots
    }
}

/// The roots `cell`'s run changes in place or computes from themselves, as
/// names. `new` is the cell's code after an edit (`None`: the same code).
pub(crate) fn repeated_writes(
    model: &NotebookModel,
    cell: &CellInfo,
    new: Option<&CellInfo>,
    changes: &ArgumentChanges,
) -> FxHashSet<String> {
    let mut out = FxHashSet::default();
    let Some(compiled) = cell.compiled.as_deref() else {
        return out;
    };
    let summary = &compiled.summary;
    // Read before written: `t += 2`, `t = t + 1`, `c.v += 1`.
    for s in summary.uses.iter() {
        if summary.defs.contains(s) {
            out.insert(root(s).to_string());
        }
    }
    // Fields a statement binds from a value that holds them
    // (`counts[w] = counts.get(w, 0) + 1`).
    let mut self_derived: FxHashSet<&str> = FxHashSet::default();
    for c in [Some(compiled), new.and_then(|n| n.compiled.as_deref())]
        .into_iter()
        .flatten()
    {
        for node in &c.cfg.nodes {
            let mut reads: Vec<&str> = Vec::new();
            for access in &node.accesses {
                if access.starts_statement {
                    reads.clear();
                }
                let name = c.table.name(access.symbol);
                match access.kind {
                    AccessKind::Read => reads.push(name),
                    AccessKind::Write | AccessKind::MayWrite
                        if reads.iter().any(|r| {
                            // `counts.get(...)` reads `counts` as a whole.
                            Path::parse(r)
                                .read_through(|_| false)
                                .overlaps(&Path::parse(name))
                        }) =>
                    {
                        if let Some(own) = summary.defs.iter().find(|d| d.as_str() == name) {
                            self_derived.insert(own.as_str());
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    // Roots changed in place below themselves by a call (`d['k'].append(1)`),
    // not only as the paths a binding goes through (`df.loc` in
    // `df.loc[0, 'a'] = 1`).
    let mut changed_inside: FxHashSet<&str> = FxHashSet::default();
    for node in &compiled.cfg.nodes {
        for access in &node.accesses {
            let name = compiled.table.name(access.symbol);
            let r = root(name);
            if matches!(access.kind, AccessKind::Mutate | AccessKind::MayMutate)
                && !access.implied
                && r != name
            {
                changed_inside.insert(r);
            }
        }
    }
    let new_summary = new
        .and_then(|n| n.compiled.as_deref())
        .map_or(summary, |c| &c.summary);
    // Written by the new code as surely as by the old, from values that
    // do not hold it.
    let rewritten = |f: &str| {
        new_summary.defs.contains(f)
            && (!summary.dead.contains(f) || new_summary.dead.contains(f))
            && !self_derived.contains(f)
    };
    for s in summary.mutated.iter().chain(summary.may_mutate.iter()) {
        let r = root(s);
        let fields: Vec<&str> = summary
            .defs
            .iter()
            .map(|d| d.as_str())
            .filter(|d| root(d) == r && *d != r)
            .collect();
        let overwritten = !fields.is_empty()
            && !summary.may_mutate.iter().any(|m| root(m) == r)
            && !changed_inside.contains(r)
            && fields.iter().all(|f| rewritten(f));
        if !overwritten {
            out.insert(r.to_string());
        }
    }
    if let Some(parsed) = cell.parsed.as_deref() {
        out.extend(changes.changed_by(&parsed.module));
    }
    // `del d['a']` or `del x` fails where it already ran.
    for node in &compiled.cfg.nodes {
        for access in &node.accesses {
            if access.kind == AccessKind::Delete {
                out.insert(root(compiled.table.name(access.symbol)).to_string());
            }
        }
    }
    for stmt in &compiled.program.stmts {
        for v in &stmt.reads {
            if let Some(info) = model.functions.get(v) {
                for g in info.writes.iter() {
                    if info.reads.contains(g) {
                        out.insert(model.vars.name(g).to_string());
                    }
                }
            }
        }
    }
    out
}

/// Roots a function body changes in place (not rebinding).
#[derive(Default)]
struct InPlace {
    roots: FxHashSet<String>,
}

impl<'a> Visitor<'a> for InPlace {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
            Stmt::AugAssign(a) => {
                if let Some(r) = path_root(&a.target) {
                    self.roots.insert(r.to_string());
                }
                walk_stmt(self, stmt);
            }
            Stmt::Assign(a) => {
                for t in &a.targets {
                    if matches!(t, Expr::Attribute(_) | Expr::Subscript(_))
                        && let Some(r) = path_root(t)
                    {
                        self.roots.insert(r.to_string());
                    }
                }
                walk_stmt(self, stmt);
            }
            _ => walk_stmt(self, stmt),
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(c) = expr
            && let Expr::Attribute(a) = &*c.func
            && let Some(r) = path_root(&a.value)
        {
            self.roots.insert(r.to_string());
        }
        walk_expr(self, expr);
    }
}

/// Calls of functions that change an argument.
struct Calls<'c> {
    changes: &'c ArgumentChanges,
    roots: FxHashSet<String>,
}

impl<'a> Visitor<'a> for Calls<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if !matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
            walk_stmt(self, stmt);
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(c) = expr
            && let Expr::Name(f) = &*c.func
            && let Some(positions) = self.changes.0.get(f.id.as_str())
        {
            for &i in positions {
                if let Some(r) = c.arguments.args.get(i).and_then(path_root) {
                    self.roots.insert(r.to_string());
                }
            }
        }
        walk_expr(self, expr);
    }
}
