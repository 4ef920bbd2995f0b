//! Which names may share an object, for the re-run plan: the model's
//! may-aliases ([`nbsight_model::aliases`]) over every cell's statements,
//! by name, and whether a cell binds a name to a value nothing can change
//! in place (a number, a string, a tuple of them), so that `p += (4,)`
//! rebinds `p` and leaves the names that shared the old tuple alone.

use nbsight_dataflow::index::IndexVec;
use nbsight_dataflow::symbol::SymId;
use nbsight_model::CellInfo;
use nbsight_model::aliases::{Aliases, Fact, alias_facts};
use ruff_python_ast::visitor::{Visitor, walk_stmt};
use ruff_python_ast::{Expr, ModModule, Stmt};
use rustc_hash::FxHashMap;

#[derive(Debug)]
pub(crate) struct Sharing {
    /// The other names of each name that has some.
    groups: FxHashMap<String, Vec<String>>,
}

impl Sharing {
    pub fn of<'a>(modules: impl Iterator<Item = &'a ModModule>) -> Sharing {
        let mut facts = Vec::new();
        for module in modules {
            let mut collect = Facts(&mut facts);
            for stmt in &module.body {
                collect.visit_stmt(stmt);
            }
        }
        let mut ids: FxHashMap<String, SymId> = FxHashMap::default();
        let mut names: IndexVec<SymId, String> = IndexVec::new();
        let aliases = Aliases::build(&facts, |name| {
            *ids.entry(name.to_string())
                .or_insert_with(|| names.push(name.to_string()))
        });
        let mut groups = FxHashMap::default();
        for (name, &id) in &ids {
            let group: Vec<String> = aliases
                .same(id)
                .iter()
                .chain(aliases.containers(id))
                .chain(aliases.contents(id))
                .filter(|&&other| other != id)
                .map(|&other| names[other].clone())
                .collect();
            if !group.is_empty() {
                groups.insert(name.clone(), group);
            }
        }
        Sharing { groups }
    }

    /// The other names whose objects a change of `name`'s object may be
    /// seen through.
    pub fn group(&self, name: &str) -> &[String] {
        self.groups.get(name).map_or(&[], Vec::as_slice)
    }

    /// Whether `cell` binds `name` (last, at its top level) to a value that
    /// cannot change in place.
    pub fn immutable_in(&self, cell: &CellInfo, name: &str) -> bool {
        let Some(parsed) = cell.parsed.as_deref() else {
            return false;
        };
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
        value.is_some_and(immutable)
    }
}

fn immutable(expr: &Expr) -> bool {
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
