//! Import bindings: which names a notebook binds to modules or to objects
//! imported from them, so calls like `np.random.shuffle(x)` can be looked up in
//! the library-effects knowledge base by their qualified name.

use ruff_python_ast::Expr;
use ruff_python_ast::name::Name;
use ruff_python_ast::statement_visitor::{self, StatementVisitor};

use crate::scope::for_each_target_name;
use ruff_python_ast::{ModModule, Stmt};
use rustc_hash::{FxHashMap, FxHashSet};

/// One name bound by an import statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportBinding {
    /// The name bound in the namespace (`np`).
    pub name: String,
    /// What it is bound to, qualified (`numpy`, `sklearn.preprocessing.MinMaxScaler`).
    pub qualified: String,
    /// How the import is reported (`numpy`, `os.path`, `pandas.*`).
    pub imported: String,
}

/// The bindings an import statement makes, in order (`from m import *` gives
/// one binding named `*`).
pub fn bindings_of(stmt: &Stmt) -> Vec<ImportBinding> {
    let mut out = Vec::new();
    for_each_binding(stmt, |binding| {
        out.push(ImportBinding {
            name: binding.name.to_string(),
            qualified: binding.qualified.to_string(),
            imported: binding.imported().to_string(),
        });
    });
    out
}

/// One binding of an import statement, borrowed (see [`ImportBinding`]).
#[derive(Debug, Clone, Copy)]
pub struct BindingRef<'a> {
    pub name: &'a str,
    pub qualified: &'a str,
    /// The dotted module of a plain `import a.b` (reported whole although
    /// only `a` is bound); `None` when it is `qualified`.
    dotted: Option<&'a str>,
}

impl<'a> BindingRef<'a> {
    /// How the import is reported (`numpy`, `os.path`, `pandas.*`).
    pub fn imported(&self) -> &'a str {
        self.dotted.unwrap_or(self.qualified)
    }
}

/// Calls `f` with each binding an import statement makes, in order, without
/// allocating for plain imports (the statements most cells hold).
pub fn for_each_binding(stmt: &Stmt, mut f: impl FnMut(BindingRef<'_>)) {
    match stmt {
        Stmt::Import(import) => {
            for alias in &import.names {
                let dotted = alias.name.as_str();
                f(match &alias.asname {
                    Some(asname) => BindingRef {
                        name: asname.as_str(),
                        qualified: dotted,
                        dotted: None,
                    },
                    None => {
                        let first = dotted.split('.').next().unwrap_or(dotted);
                        BindingRef {
                            name: first,
                            qualified: first,
                            dotted: Some(dotted),
                        }
                    }
                });
            }
        }
        Stmt::ImportFrom(import) => {
            let mut qualified = ".".repeat(import.level as usize);
            if let Some(name) = &import.module {
                qualified.push_str(name.as_str());
            }
            if !(qualified.ends_with('.') || qualified.is_empty()) {
                qualified.push('.');
            }
            let module_len = qualified.len();
            for alias in &import.names {
                qualified.truncate(module_len);
                qualified.push_str(alias.name.as_str());
                f(BindingRef {
                    name: alias.asname.as_ref().unwrap_or(&alias.name).as_str(),
                    qualified: &qualified,
                    dotted: None,
                });
            }
        }
        _ => {}
    }
}

/// The import bindings of a whole notebook: name -> qualified path. Built from
/// every import statement of every cell (at any depth); when a name is imported
/// twice differently, the first one seen wins.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportEnv {
    names: FxHashMap<String, String>,
    /// Names some cell binds at module level other than by importing them.
    assigned: FxHashSet<Name>,
}

impl ImportEnv {
    /// Collects the imports of the cells that parsed without errors.
    pub fn of_cells<'a>(cells: impl IntoIterator<Item = &'a nbsight_notebook::ParsedCell>) -> Self {
        Self::collect(
            cells
                .into_iter()
                .filter(|p| !p.has_errors())
                .map(|p| &p.module),
        )
    }

    /// Collects the imports of these modules.
    pub fn collect<'a>(modules: impl IntoIterator<Item = &'a ModModule>) -> Self {
        let mut env = ImportEnv::default();
        for module in modules {
            env.add_module(module);
        }
        env
    }

    /// Adds the imports of one module.
    pub fn add_module(&mut self, module: &ModModule) {
        let mut collector = Collector { env: self };
        collector.visit_body(&module.body);
        collect_assigned(&module.body, &mut self.assigned);
    }

    /// `true` when some cell binds `name` at module level otherwise than by
    /// an import (then `tf` is not assumed to be TensorFlow).
    pub fn is_assigned(&self, name: &str) -> bool {
        self.assigned.contains(name)
    }

    /// Adds one binding.
    pub fn add(&mut self, name: &str, qualified: &str) {
        if name != "*" && !self.names.contains_key(name) {
            self.names.insert(name.to_owned(), qualified.to_owned());
        }
    }

    /// The qualified path `name` was imported as.
    pub fn qualified(&self, name: &str) -> Option<&str> {
        self.names.get(name).map(String::as_str)
    }
}

/// Names bound at module level by assignments, loops, `with`, `def`, `class`
/// (compound statements entered, function and class bodies not).
fn collect_assigned(body: &[Stmt], out: &mut FxHashSet<Name>) {
    fn targets(expr: &Expr, out: &mut FxHashSet<Name>) {
        for_each_target_name(expr, &mut |name| {
            out.insert(name.clone());
        });
    }
    for stmt in body {
        match stmt {
            Stmt::Assign(s) => s.targets.iter().for_each(|t| targets(t, out)),
            Stmt::AnnAssign(s) => targets(&s.target, out),
            Stmt::AugAssign(s) => targets(&s.target, out),
            Stmt::FunctionDef(s) => {
                out.insert(s.name.id.clone());
            }
            Stmt::ClassDef(s) => {
                out.insert(s.name.id.clone());
            }
            Stmt::For(s) => {
                targets(&s.target, out);
                collect_assigned(&s.body, out);
                collect_assigned(&s.orelse, out);
            }
            Stmt::While(s) => {
                collect_assigned(&s.body, out);
                collect_assigned(&s.orelse, out);
            }
            Stmt::If(s) => {
                collect_assigned(&s.body, out);
                for clause in &s.elif_else_clauses {
                    collect_assigned(&clause.body, out);
                }
            }
            Stmt::With(s) => {
                for item in &s.items {
                    if let Some(vars) = &item.optional_vars {
                        targets(vars, out);
                    }
                }
                collect_assigned(&s.body, out);
            }
            Stmt::Try(s) => {
                collect_assigned(&s.body, out);
                collect_assigned(&s.orelse, out);
                collect_assigned(&s.finalbody, out);
                for handler in &s.handlers {
                    let ruff_python_ast::ExceptHandler::ExceptHandler(h) = handler;
                    collect_assigned(&h.body, out);
                }
            }
            Stmt::Match(s) => {
                for case in &s.cases {
                    collect_assigned(&case.body, out);
                }
            }
            _ => {}
        }
    }
}

struct Collector<'e> {
    env: &'e mut ImportEnv,
}

impl<'a> StatementVisitor<'a> for Collector<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::Import(_) | Stmt::ImportFrom(_) => {
                for_each_binding(stmt, |b| self.env.add(b.name, b.qualified));
            }
            _ => statement_visitor::walk_stmt(self, stmt),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ruff_python_parser::parse_module;

    #[test]
    fn collects_all_forms() {
        let parsed = parse_module(
            "import numpy as np\nimport os.path\nfrom sklearn.preprocessing import MinMaxScaler as S\nfrom . import sib\nif x:\n    import pandas as pd\n",
        )
        .expect("parses");
        let env = ImportEnv::collect([parsed.syntax()]);
        assert_eq!(env.qualified("np"), Some("numpy"));
        assert_eq!(env.qualified("os"), Some("os"));
        assert_eq!(
            env.qualified("S"),
            Some("sklearn.preprocessing.MinMaxScaler")
        );
        assert_eq!(env.qualified("sib"), Some(".sib"));
        assert_eq!(env.qualified("pd"), Some("pandas"));
        assert_eq!(env.qualified("x"), None);
        assert!(!env.is_assigned("np"));
        let reported: Vec<String> = bindings_of(&parsed.syntax().body[1])
            .into_iter()
            .map(|b| b.imported)
            .collect();
        assert_eq!(reported, vec!["os.path".to_string()]);
    }

    #[test]
    fn remembers_assigned_names() {
        let parsed = parse_module("tf = make()\nfor a, (b, *c) in x: pass\nwith f() as w: pass\ndef g():\n    inner = 1\n")
            .expect("parses");
        let env = ImportEnv::collect([parsed.syntax()]);
        for name in ["tf", "a", "b", "c", "w", "g"] {
            assert!(env.is_assigned(name), "{name}");
        }
        assert!(!env.is_assigned("inner"));
    }
}
