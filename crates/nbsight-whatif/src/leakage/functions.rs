//! What a user function does to the data it is given, for the leakage
//! domain: a call of the function stands for what its body does with its
//! arguments. Read from the definition's syntax, with the knowledge base's
//! roles for the library calls in it (resolved through the notebook's
//! imports):
//! - it *fits statistics* on its arguments when it fits a stateful
//!   transformer (`StandardScaler().fit_transform(d)`, `scale(d)`) or takes
//!   a statistic of them (`frame.fillna(frame.mean())`);
//! - it *cross-validates* when it calls a cross-validation function, or
//!   splits into folds (`KFold(...).split(X)`) and fits and scores a model.
//!
//! The built-in knowledge base is used (user effects files refine the
//! cells' own calls, not function bodies read here).

use nbsight_dataflow::effects::{Effects, Role};
use nbsight_model::NotebookModel;
use nbsight_model::vars::Var;
use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{self as ast, Expr, Stmt};

/// What a function's body does with its arguments.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FunctionLeak {
    /// Fits statistics on the data it is given.
    pub fits: bool,
    /// Cross-validates on the data it is given.
    pub cross_validates: bool,
}

impl FunctionLeak {
    pub fn is_none(self) -> bool {
        !self.fits && !self.cross_validates
    }
}

/// What the function bound to `var`, defined in the nearest cell at or
/// above `cell` that defines it (else the first that does), does.
pub fn function_leak(model: &NotebookModel, cell: usize, var: Var) -> FunctionLeak {
    let Some(defs) = model.function_definitions.get(&var) else {
        return FunctionLeak::default();
    };
    let Some(&(def_cell, _)) = defs
        .iter()
        .rev()
        .find(|(c, _)| *c <= cell)
        .or_else(|| defs.first())
    else {
        return FunctionLeak::default();
    };
    let name = model.vars.name(var);
    let Some(def) = model
        .cells
        .get(def_cell)
        .and_then(|c| c.parsed.as_deref())
        .and_then(|p| find_def(&p.module.body, name))
    else {
        return FunctionLeak::default();
    };
    let mut reader = BodyReader {
        model,
        effects: Effects::shared_builtin(),
        transformers: Vec::new(),
        fits: false,
        cross_validates: false,
        folds: false,
        fits_model: false,
        scores: false,
    };
    for stmt in &def.body {
        reader.visit_stmt(stmt);
    }
    FunctionLeak {
        fits: reader.fits,
        cross_validates: reader.cross_validates
            || (reader.folds && reader.fits_model && reader.scores),
    }
}

/// The top-level (or compound-nested) definition of `name` in `body`, the
/// last one.
fn find_def<'a>(body: &'a [Stmt], name: &str) -> Option<&'a ast::StmtFunctionDef> {
    let mut found = None;
    for stmt in body {
        match stmt {
            Stmt::FunctionDef(f) if f.name.as_str() == name => found = Some(f),
            Stmt::If(s) => {
                if let Some(f) = find_def(&s.body, name) {
                    found = Some(f);
                }
            }
            Stmt::Try(s) => {
                if let Some(f) = find_def(&s.body, name) {
                    found = Some(f);
                }
            }
            _ => {}
        }
    }
    found
}

struct BodyReader<'m> {
    model: &'m NotebookModel,
    effects: &'static Effects,
    /// Local names bound to a stateful transformer's constructor.
    transformers: Vec<String>,
    fits: bool,
    cross_validates: bool,
    folds: bool,
    fits_model: bool,
    scores: bool,
}

impl BodyReader<'_> {
    /// The qualified name of a dotted callee through the notebook's imports
    /// (`StandardScaler` → `sklearn.preprocessing.StandardScaler`).
    fn qualified(&self, expr: &Expr) -> Option<String> {
        let dotted = dotted(expr)?;
        let (head, rest) = match dotted.split_once('.') {
            Some((h, r)) => (h, Some(r)),
            None => (dotted.as_str(), None),
        };
        let target = self.model.code_cells().find_map(|c| {
            let compiled = c.compiled.as_deref()?;
            compiled
                .imports
                .iter()
                .find(|(v, _)| self.model.vars.name(*v) == head)
                .map(|(_, t)| t.clone())
        });
        let base = target
            .or_else(|| self.effects.alias(head).map(str::to_string))
            .unwrap_or_else(|| head.to_string());
        Some(match rest {
            Some(r) => format!("{base}.{r}"),
            None => base,
        })
    }

    fn function_roles(&self, func: &Expr) -> Vec<Role> {
        self.qualified(func)
            .and_then(|q| self.effects.function(&q))
            .map(|e| e.roles.to_vec())
            .unwrap_or_default()
    }

    /// The receiver is a stateful transformer: a constructor call of one,
    /// or a local name bound to one.
    fn is_transformer(&self, receiver: &Expr) -> Option<bool> {
        match receiver {
            Expr::Call(c) => {
                let roles = self.function_roles(&c.func);
                if roles.contains(&Role::Transformer) || roles.contains(&Role::Pipeline) {
                    Some(!roles.contains(&Role::Stateless))
                } else {
                    None
                }
            }
            Expr::Name(n) if self.transformers.iter().any(|t| t == n.id.as_str()) => Some(true),
            _ => None,
        }
    }
}

impl<'a> Visitor<'a> for BodyReader<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if let Stmt::Assign(a) = stmt
            && let [Expr::Name(target)] = a.targets.as_slice()
            && self.is_transformer(&a.value) == Some(true)
        {
            self.transformers.push(target.id.to_string());
        }
        walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(call) = expr {
            match &*call.func {
                Expr::Attribute(method) => {
                    let roles = self
                        .effects
                        .method(method.attr.as_str())
                        .map(|e| e.roles.to_vec())
                        .unwrap_or_default();
                    let transformer = self.is_transformer(&method.value);
                    if roles.contains(&Role::FitTransform) && transformer != Some(false) {
                        self.fits = true;
                    } else if roles.contains(&Role::Fit) {
                        match transformer {
                            Some(true) => self.fits = true,
                            Some(false) => {}
                            None => self.fits_model = true,
                        }
                    }
                    if roles.contains(&Role::Predict) || roles.contains(&Role::Evaluate) {
                        self.scores = true;
                    }
                    let qualified = self.function_roles(&call.func);
                    self.note_function(&qualified);
                }
                func => {
                    let roles = self.function_roles(func);
                    self.note_function(&roles);
                }
            }
        }
        walk_expr(self, expr);
    }
}

impl BodyReader<'_> {
    fn note_function(&mut self, roles: &[Role]) {
        if roles.contains(&Role::FitTransform) {
            self.fits = true;
        }
        if roles.contains(&Role::CrossValidate) && !roles.contains(&Role::Transformer) {
            self.cross_validates = true;
        }
        if roles.contains(&Role::Evaluate) {
            self.scores = true;
        }
        if roles.contains(&Role::Split) {
            self.folds = true;
        }
    }
}

/// `a.b.c` for a chain of attributes on a name.
fn dotted(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Name(n) => Some(n.id.to_string()),
        Expr::Attribute(a) => Some(format!("{}.{}", dotted(&a.value)?, a.attr)),
        _ => None,
    }
}
