//! Which names may share an object, for the re-run plan: the model's
//! may-aliases ([`nbsight_model::aliases`]) over every cell's statements,
//! by name and by relation (same object, containers, contents, and the
//! containers holding the object itself, which a shallow copy's source does
//! not), and whether a cell binds a name to a value nothing can change
//! in place (a number, a string, a tuple of them), so that `p += (4,)`
//! rebinds `p` and leaves the names that shared the old tuple alone.

use nbsight_dataflow::index::IndexVec;
use nbsight_dataflow::symbol::SymId;
use nbsight_model::CellInfo;
use nbsight_model::aliases::{Aliases, Fact, alias_facts};
use nbsight_model::paths::display_elements;
use ruff_python_ast::visitor::{Visitor, walk_stmt};
use ruff_python_ast::{Expr, ModModule, Stmt};
use rustc_hash::FxHashMap;

#[derive(Debug, Default)]
pub(crate) struct Sharing {
    /// The other names of each name that has some, by relation.
    names: FxHashMap<String, Related>,
}

/// The names related to one name.
#[derive(Debug, Default)]
struct Related {
    /// Every other name whose object a change may be seen through.
    group: Vec<String>,
    same: Vec<String>,
    containers: Vec<String>,
    contents: Vec<String>,
    holders: Vec<String>,
}

impl Sharing {
    pub(super) fn of<'a>(modules: impl Iterator<Item = &'a ModModule> + Clone) -> Sharing {
        let mut facts = Vec::new();
        for module in modules.clone() {
            let mut collect = Facts(&mut facts);
            for stmt in &module.body {
                collect.visit_stmt(stmt);
            }
        }
        // A slice of a list is a shallow copy of it; of anything else (an
        // array, a frame), perhaps a view: a part.
        let lists = list_names(modules);
        for fact in &mut facts {
            if let Fact::Slice { part, source } = fact {
                let (part, source) = (std::mem::take(part), std::mem::take(source));
                *fact = if lists.contains(&source) {
                    Fact::Copy { copy: part, source }
                } else {
                    Fact::Contains {
                        container: source,
                        item: part,
                    }
                };
            }
        }
        let mut ids: FxHashMap<String, SymId> = FxHashMap::default();
        let mut names: IndexVec<SymId, String> = IndexVec::new();
        let aliases = Aliases::build(&facts, |name| {
            *ids.entry(name.to_string())
                .or_insert_with(|| names.push(name.to_string()))
        });
        let named = |list: &[SymId], id: SymId| -> Vec<String> {
            list.iter()
                .filter(|&&other| other != id)
                .map(|&other| names[other].clone())
                .collect()
        };
        let mut out = FxHashMap::default();
        for (name, &id) in &ids {
            let mut related = Related {
                group: Vec::new(),
                same: named(aliases.same(id), id),
                containers: named(aliases.containers(id), id),
                contents: named(aliases.contents(id), id),
                holders: named(aliases.holders(id), id),
            };
            related.group = related
                .same
                .iter()
                .chain(&related.containers)
                .chain(&related.contents)
                .cloned()
                .collect();
            if !related.group.is_empty() {
                out.insert(name.clone(), related);
            }
        }
        Sharing { names: out }
    }

    fn related(&self, name: &str, pick: impl Fn(&Related) -> &Vec<String>) -> &[String] {
        self.names.get(name).map_or(&[], |r| pick(r).as_slice())
    }

    /// The other names whose objects a change of `name`'s object may be
    /// seen through.
    pub(super) fn group(&self, name: &str) -> &[String] {
        self.related(name, |r| &r.group)
    }

    /// Other names of `name`'s object.
    pub(super) fn same(&self, name: &str) -> &[String] {
        self.related(name, |r| &r.same)
    }

    /// Names of objects `name`'s object may hold (its parts, its shallow
    /// copies).
    pub(super) fn contents(&self, name: &str) -> &[String] {
        self.related(name, |r| &r.contents)
    }

    /// Names of containers that may hold `name`'s object itself.
    pub(super) fn holders(&self, name: &str) -> &[String] {
        self.related(name, |r| &r.holders)
    }

    /// What re-running the definer of `name` must make again besides it:
    /// the other names of its object, the containers holding it and the
    /// objects it holds (not the source it is a shallow copy of).
    pub(super) fn rebuilt_with(&self, name: &str) -> impl Iterator<Item = &String> {
        self.same(name)
            .iter()
            .chain(self.holders(name))
            .chain(self.contents(name))
    }

    /// The names a change of `name`'s object at `depth` under it may be
    /// seen through: its other names and the containers holding it; for a
    /// change inside it, what holds its items and what it holds.
    pub(super) fn changed_with(&self, name: &str, depth: usize) -> Vec<&String> {
        if depth == 0 {
            self.same(name).iter().chain(self.holders(name)).collect()
        } else {
            self.group(name).iter().collect()
        }
    }

    /// Whether `cell` binds `name` (last, at its top level) to a value that
    /// cannot change in place.
    pub(super) fn immutable_in(&self, cell: &CellInfo, name: &str) -> bool {
        bound_in(cell, name).is_some_and(immutable)
    }

    /// Whether `cell` binds `name` (last, at its top level) to a display
    /// of values that cannot change in place (`[1, 2]`, `{'a': 1}`): what
    /// holds its items holds nothing a new run makes anew.
    pub(super) fn items_immutable_in(&self, cell: &CellInfo, name: &str) -> bool {
        bound_in(cell, name).is_some_and(|value| {
            display_elements(value).is_some_and(|items| {
                items
                    .iter()
                    .all(|(item, unpacked)| !unpacked && immutable(item))
            }) && match value {
                Expr::Dict(d) => d.items.iter().all(|i| i.key.as_ref().is_none_or(immutable)),
                _ => true,
            }
        })
    }
}

/// The names every top-level assignment of `modules` binds to a value that
/// cannot change in place.
pub(crate) fn immutable_names<'a>(
    modules: impl Iterator<Item = &'a ModModule>,
) -> rustc_hash::FxHashSet<String> {
    let mut found: FxHashMap<String, bool> = FxHashMap::default();
    for module in modules {
        for stmt in &module.body {
            if let Stmt::Assign(a) = stmt {
                for t in &a.targets {
                    if let Expr::Name(n) = t {
                        let entry = found.entry(n.id.to_string()).or_insert(true);
                        *entry &= immutable(&a.value);
                    }
                }
            }
        }
    }
    found
        .into_iter()
        .filter(|(_, immutable)| *immutable)
        .map(|(name, _)| name)
        .collect()
}

/// The names every top-level assignment of `modules` binds to a list.
fn list_names<'a>(modules: impl Iterator<Item = &'a ModModule>) -> rustc_hash::FxHashSet<String> {
    let mut found: FxHashMap<String, bool> = FxHashMap::default();
    for module in modules {
        for stmt in &module.body {
            if let Stmt::Assign(a) = stmt {
                let list = match &*a.value {
                    Expr::List(_) | Expr::ListComp(_) => true,
                    Expr::Call(c) => {
                        matches!(&*c.func, Expr::Name(f) if matches!(f.id.as_str(), "list" | "sorted"))
                    }
                    _ => false,
                };
                for t in &a.targets {
                    if let Expr::Name(n) = t {
                        *found.entry(n.id.to_string()).or_insert(true) &= list;
                    }
                }
            }
        }
    }
    found
        .into_iter()
        .filter(|(_, list)| *list)
        .map(|(name, _)| name)
        .collect()
}

/// The value `cell` binds `name` to last at its top level.
fn bound_in<'c>(cell: &'c CellInfo, name: &str) -> Option<&'c Expr> {
    let parsed = cell.parsed.as_deref()?;
    let mut value = None;
    for stmt in &parsed.module.body {
        if let Stmt::Assign(a) = stmt
            && a.targets
                .iter()
                .any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == name))
        {
            value = Some(&*a.value);
        }
    }
    value
}

/// A value nothing can change in place (a literal, a tuple of them).
pub(crate) fn immutable(expr: &Expr) -> bool {
    match expr {
        Expr::NumberLiteral(_)
        | Expr::StringLiteral(_)
        | Expr::BytesLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_)
        | Expr::FString(_) => true,
        Expr::Tuple(t) => t.elts.iter().all(immutable),
        Expr::UnaryOp(u) => immutable(&u.operand),
        _ => false,
    }
}

/// The aliasing facts of every statement outside function and class
/// bodies (those run only when called).
struct Facts<'f>(&'f mut Vec<Fact>);

impl<'a> Visitor<'a> for Facts<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
            return;
        }
        self.0.extend(alias_facts(stmt));
        walk_stmt(self, stmt);
    }
}
