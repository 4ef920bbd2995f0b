//! Which attributes of its instance a method of a notebook class changes,
//! for the re-run plan: `run.log(2)` where `run = Run()` and `Run.log` only
//! appends to `self.history` changes `run.history`, not `run.name`. A
//! method that passes `self` on, or calls another method of it, may change
//! anything of it (unknown). The attributes the methods store into count as
//! fields the notebook assigns (so that reading `run.name` reads a field,
//! not the whole object).

use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, ModModule, Stmt};
use rustc_hash::{FxHashMap, FxHashSet};

use nbsight_dataflow::method_calls::method_calls;
use nbsight_model::paths::path_root;

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
                    let mut scan = SelfChanges {
                        me: &me,
                        attrs: Vec::new(),
                        unknown: false,
                    };
                    for s in &f.body {
                        scan.visit_stmt(s);
                    }
                    out.attributes.extend(scan.attrs.iter().cloned());
                    let changed = (!scan.unknown).then_some(scan.attrs);
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

/// The attributes of `me` a method body changes.
struct SelfChanges<'m> {
    me: &'m str,
    attrs: Vec<String>,
    unknown: bool,
}

impl SelfChanges<'_> {
    /// `self.x...` as a changed target: `x`.
    fn target(&mut self, target: &Expr) {
        if let Expr::Tuple(t) = target {
            t.elts.iter().for_each(|e| self.target(e));
            return;
        }
        if let Some(attr) = first_attribute(target, self.me)
            && !self.attrs.iter().any(|a| a == attr)
        {
            self.attrs.push(attr.to_string());
        }
    }
}

/// `x` in `self.x.y[0]`.
fn first_attribute<'e>(expr: &'e Expr, me: &str) -> Option<&'e str> {
    match expr {
        Expr::Attribute(a) => match &*a.value {
            Expr::Name(n) if n.id.as_str() == me => Some(a.attr.as_str()),
            inner => first_attribute(inner, me),
        },
        Expr::Subscript(s) => first_attribute(&s.value, me),
        _ => None,
    }
}

impl<'a> Visitor<'a> for SelfChanges<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return,
            Stmt::Assign(a) => a.targets.iter().for_each(|t| self.target(t)),
            Stmt::AugAssign(a) => self.target(&a.target),
            Stmt::AnnAssign(a) => self.target(&a.target),
            Stmt::Delete(d) => d.targets.iter().for_each(|t| self.target(t)),
            _ => {}
        }
        walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(c) = expr {
            // `self.items.append(x)` changes `items`; `self.reset()` or
            // `f(self)` may change anything.
            if let Expr::Attribute(a) = &*c.func {
                match first_attribute(&a.value, self.me) {
                    Some(attr) if !self.attrs.iter().any(|x| x == attr) => {
                        self.attrs.push(attr.to_string());
                    }
                    Some(_) => {}
                    None if matches!(&*a.value, Expr::Name(n) if n.id.as_str() == self.me) => {
                        self.unknown = true;
                    }
                    None => {}
                }
            }
            let passes_self = c
                .arguments
                .args
                .iter()
                .chain(c.arguments.keywords.iter().map(|k| &k.value))
                .any(|e| path_root(e) == Some(self.me) && matches!(e, Expr::Name(_)));
            self.unknown |= passes_self;
        }
        walk_expr(self, expr);
    }
}
