//! Which attributes of its instance a method of a notebook class changes,
//! for the re-run plan: `run.log(2)` where `run = Run()` and `Run.log` only
//! appends to `self.history` changes `run.history`, not `run.name`. A
//! method that passes `self` on, or calls another method of it, may change
//! anything of it (unknown). The attributes the methods store into count as
//! fields the notebook assigns (so that reading `run.name` reads a field,
//! not the whole object).

use ruff_python_ast::{Expr, ModModule, Stmt};
use rustc_hash::{FxHashMap, FxHashSet};

use nbsight_dataflow::method_calls::{attribute_changes, method_calls};

/// The notebook's classes and instances.
#[derive(Debug, Default)]
pub(crate) struct Methods {
    /// `(class, method)` to the attributes of `self` it changes (`None`:
    /// perhaps any).
    changes: FxHashMap<(String, String), Option<Vec<String>>>,
    /// Names bound to an instance of one notebook class only.
    instances: FxHashMap<String, Option<String>>,
    /// Every attribute a method stores into.
    pub attributes: FxHashSet<String>,
}

impl Methods {
    pub(super) fn of<'a>(modules: impl Iterator<Item = &'a ModModule> + Clone) -> Methods {
        let mut out = Methods::default();
        for module in modules.clone() {
            for stmt in &module.body {
                let Stmt::ClassDef(class) = stmt else {
                    continue;
                };
                for item in &class.body {
                    let Stmt::FunctionDef(f) = item else {
                        continue;
                    };
                    let Some(me) = f
                        .parameters
                        .posonlyargs
                        .iter()
                        .chain(&f.parameters.args)
                        .next()
                        .map(|p| p.parameter.name.to_string())
                    else {
                        continue;
                    };
                    let scan = attribute_changes(&f.body, &me);
                    out.attributes.extend(scan.attrs.iter().cloned());
                    let changed = scan.known().then_some(scan.attrs);
                    out.changes
                        .insert((class.name.to_string(), f.name.to_string()), changed);
                }
            }
        }
        let classes: FxHashSet<String> = out.changes.keys().map(|(c, _)| c.clone()).collect();
        for module in modules {
            for stmt in &module.body {
                let Stmt::Assign(a) = stmt else {
                    continue;
                };
                let class = match &*a.value {
                    Expr::Call(c) => match &*c.func {
                        Expr::Name(n) if classes.contains(n.id.as_str()) => Some(n.id.to_string()),
                        _ => None,
                    },
                    _ => None,
                };
                for t in &a.targets {
                    if let Expr::Name(n) = t {
                        out.instances
                            .entry(n.id.to_string())
                            .and_modify(|c| {
                                if *c != class {
                                    *c = None;
                                }
                            })
                            .or_insert_with(|| class.clone());
                    }
                }
            }
        }
        out
    }

    /// The attributes `obj.method(...)` changes, when known.
    pub(super) fn changed_by(&self, obj: &str, method: &str) -> Option<&[String]> {
        let class = self.instances.get(obj)?.as_ref()?;
        self.changes
            .get(&(class.clone(), method.to_string()))?
            .as_deref()
    }

    /// The calls `obj.method(...)` of `stmt`'s own code whose changes are
    /// known, with those changes.
    pub(super) fn calls_in(&self, stmt: &Stmt) -> Vec<(String, Vec<String>)> {
        method_calls([stmt])
            .into_iter()
            .filter_map(|(obj, method)| {
                let attrs = self.changed_by(&obj, &method)?;
                Some((obj, attrs.to_vec()))
            })
            .collect()
    }
}
