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

use std::cell::RefCell;
use std::rc::Rc;

use nbsight_dataflow::effects::{Effects, Role};
use nbsight_model::NotebookModel;
use nbsight_model::vars::Var;
use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextSize};
use rustc_hash::FxHashMap;

/// What a function's body does with its arguments.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct FunctionLeak {
    /// Fits statistics on the data it is given.
    pub fits: bool,
    /// Cross-validates on the data it is given.
    pub cross_validates: bool,
    /// The positional parameters (bit `i` for the `i`-th) a model in its
    /// body is fitted on, and those it is evaluated on (`def log_reg(X_tr,
    /// y_tr, X_te, y_te)`: fit on bits 0 and 1, scored on 2 and 3).
    pub trains: u32,
    pub tests: u32,
    /// The parameters it predicts on (`model.predict(X_te)`): test data
    /// once its predictions are scored (`tests` not empty).
    pub predicts: u32,
    /// The parameters whose `predict` or `score` it calls (`def show(X, y,
    /// fitted_model): fitted_model.score(X, y)`): models passed to it.
    pub models: u32,
}

impl FunctionLeak {
    pub(crate) fn is_none(self) -> bool {
        !self.fits && !self.cross_validates && !self.evaluates() && !self.evaluates_passed()
    }

    /// It fits no model but evaluates (a metric or `score`) a model passed
    /// to it on other arguments: a helper that reports a trained model's
    /// test score.
    pub(crate) fn evaluates_passed(self) -> bool {
        self.trains == 0 && self.models != 0 && self.tests & !self.models != 0
    }

    /// It fits a model on some of its arguments and evaluates it (a
    /// metric or `score`, not predictions alone) on others.
    pub(crate) fn evaluates(self) -> bool {
        self.trains != 0 && self.tests & !self.trains != 0
    }

    /// The parameters the evaluation reads: scored or predicted on, not
    /// trained on.
    pub(crate) fn tested(self) -> u32 {
        (self.tests | self.predicts) & !self.trains
    }
}

/// What the function bound to `var`, defined in the nearest cell at or
/// above `cell` that defines it (else the first that does), does.
pub(crate) fn function_leak(model: &NotebookModel, cell: usize, var: Var) -> FunctionLeak {
    match definition_cell(model, cell, var) {
        Some(def_cell) => defined_leak(model, def_cell, var),
        None => FunctionLeak::default(),
    }
}

/// What the user functions of one model do, read once per definition: a
/// call's [`function_leak`] reads the function's body and resolves every
/// callee in it through the notebook's imports, and the leakage domain
/// interprets the same calls at every run of their cells.
///
/// Kept by (defining cell, variable): the answer depends on nothing else
/// but the model (the defining cell's syntax, the variable's name, the
/// imports of the notebook's cells), so one cache serves one model: the
/// session's, or one query's (see [`super::Leak::keep_function_leaks`]),
/// or, shared, a model that differs from the session's only in the code of
/// one edited cell whose imports are the same (variables keep their ids in
/// an edit made in place): the edited cell's own definitions are then read
/// at every call.
#[derive(Debug, Default)]
pub(crate) struct FunctionLeaks {
    known: Rc<RefCell<FxHashMap<(usize, Var), FunctionLeak>>>,
    /// The edited cell, whose definitions `known` does not hold for this
    /// model, and what they do in it.
    edited: Option<(usize, RefCell<FxHashMap<Var, FunctionLeak>>)>,
}

impl FunctionLeaks {
    /// The same kept answers, for a model that differs from this one's
    /// only in the code of cell `edited`, with the same imports.
    pub(crate) fn for_edit(&self, edited: usize) -> FunctionLeaks {
        FunctionLeaks {
            known: self.known.clone(),
            edited: Some((edited, RefCell::default())),
        }
    }

    /// [`function_leak`], read once per definition.
    pub(crate) fn get(&self, model: &NotebookModel, cell: usize, var: Var) -> FunctionLeak {
        let Some(def_cell) = definition_cell(model, cell, var) else {
            return FunctionLeak::default();
        };
        match &self.edited {
            Some((edited, own)) if *edited == def_cell => *own
                .borrow_mut()
                .entry(var)
                .or_insert_with(|| defined_leak(model, def_cell, var)),
            _ => *self
                .known
                .borrow_mut()
                .entry((def_cell, var))
                .or_insert_with(|| defined_leak(model, def_cell, var)),
        }
    }
}

/// The cell whose definition of `var` a call in `cell` runs: the nearest
/// at or above it, else the first.
pub(super) fn definition_cell(model: &NotebookModel, cell: usize, var: Var) -> Option<usize> {
    let defs = model.function_definitions.get(&var)?;
    defs.iter()
        .rev()
        .find(|(c, _)| *c <= cell)
        .or_else(|| defs.first())
        .map(|&(c, _)| c)
}

/// What the function bound to `var` as `def_cell` defines it does.
fn defined_leak(model: &NotebookModel, def_cell: usize, var: Var) -> FunctionLeak {
    let name = model.vars.name(var);
    let Some(def) = model
        .cells
        .get(def_cell)
        .and_then(|c| c.parsed.as_deref())
        .and_then(|p| find_def(&p.module.body, name))
    else {
        return FunctionLeak::default();
    };
    // What each imported name stands for: the first import of it in
    // notebook order.
    let mut imports: FxHashMap<&str, &str> = FxHashMap::default();
    for compiled in model.code_cells().filter_map(|c| c.compiled.as_deref()) {
        for (v, target) in &compiled.imports {
            imports.entry(model.vars.name(*v)).or_insert(target);
        }
    }
    let params = def
        .parameters
        .posonlyargs
        .iter()
        .chain(&def.parameters.args)
        .map(|p| p.parameter.name.to_string())
        .collect();
    let mut reader = BodyReader {
        imports,
        effects: Effects::shared_builtin(),
        transformers: Vec::new(),
        stateless: Vec::new(),
        selecting: row_selecting_calls(&def.body),
        fits: false,
        cross_validates: false,
        folds: false,
        fits_model: false,
        scores: false,
        params,
        trains: 0,
        tests: 0,
        predicts: 0,
        models: 0,
    };
    for stmt in &def.body {
        reader.visit_stmt(stmt);
    }
    FunctionLeak {
        fits: reader.fits,
        cross_validates: reader.cross_validates
            || (reader.folds && reader.fits_model && reader.scores),
        trains: reader.trains,
        tests: reader.tests,
        predicts: reader.predicts,
        models: reader.models,
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
    /// The notebook's imported names and what they stand for.
    imports: FxHashMap<&'m str, &'m str>,
    effects: &'static Effects,
    /// Local names bound to a stateful transformer's constructor.
    transformers: Vec<String>,
    /// Local names bound to a stateless transformer (`enc = OneHotEncoder()`).
    stateless: Vec<String>,
    /// Where the statistic calls start that only select rows (see
    /// [`row_selecting_calls`]).
    selecting: Vec<TextSize>,
    fits: bool,
    cross_validates: bool,
    folds: bool,
    fits_model: bool,
    scores: bool,
    /// The positional parameters' names.
    params: Vec<String>,
    /// See [`FunctionLeak::trains`], [`FunctionLeak::tests`],
    /// [`FunctionLeak::predicts`] and [`FunctionLeak::models`].
    trains: u32,
    tests: u32,
    predicts: u32,
    models: u32,
}

impl BodyReader<'_> {
    /// The parameters (as bits) `call`'s arguments read.
    fn params_read(&self, call: &ast::ExprCall) -> u32 {
        struct Names<'r> {
            params: &'r [String],
            found: u32,
        }
        impl<'a> Visitor<'a> for Names<'_> {
            fn visit_expr(&mut self, expr: &'a Expr) {
                if let Expr::Name(n) = expr
                    && let Some(i) = self.params.iter().position(|p| p == n.id.as_str())
                    && i < 32
                {
                    self.found |= 1 << i;
                }
                walk_expr(self, expr);
            }
        }
        let mut names = Names {
            params: &self.params,
            found: 0,
        };
        for arg in &call.arguments.args {
            names.visit_expr(arg);
        }
        for keyword in &call.arguments.keywords {
            names.visit_expr(&keyword.value);
        }
        names.found
    }

    /// The qualified name of a dotted callee through the notebook's imports
    /// (`StandardScaler` → `sklearn.preprocessing.StandardScaler`).
    fn qualified(&self, expr: &Expr) -> Option<String> {
        let dotted = dotted(expr)?;
        let (head, rest) = match dotted.split_once('.') {
            Some((h, r)) => (h, Some(r)),
            None => (dotted.as_str(), None),
        };
        let target = self.imports.get(head).map(|t| t.to_string());
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
            Expr::Name(n) if self.stateless.iter().any(|t| t == n.id.as_str()) => Some(false),
            _ => None,
        }
    }
}

impl<'a> Visitor<'a> for BodyReader<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        // The value is read before its name is bound again (`sc =
        // sc.fit(X)` fits the transformer `sc` was).
        let kind = match stmt {
            Stmt::Assign(a) => self.is_transformer(&a.value),
            _ => None,
        };
        walk_stmt(self, stmt);
        if let Stmt::Assign(a) = stmt
            && let [Expr::Name(target)] = a.targets.as_slice()
        {
            let name = target.id.to_string();
            // `sc = sc.fit(X)`: `fit` returns the transformer itself.
            let refit = matches!(&*a.value, Expr::Call(c) if matches!(&*c.func, Expr::Attribute(m) if m.attr.as_str() == "fit" && matches!(&*m.value, Expr::Name(n) if n.id == target.id)));
            if !refit {
                self.transformers.retain(|t| *t != name);
                self.stateless.retain(|t| *t != name);
                match kind {
                    Some(true) => self.transformers.push(name),
                    Some(false) => self.stateless.push(name),
                    None => {}
                }
            }
        }
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
                    let selects_rows = self.selecting.contains(&expr.start());
                    if roles.contains(&Role::FitTransform)
                        && transformer != Some(false)
                        && !along_rows(call)
                        && !selects_rows
                    {
                        self.fits = true;
                    } else if roles.contains(&Role::Fit) {
                        match transformer {
                            Some(true) => self.fits = true,
                            Some(false) => {}
                            None => {
                                self.fits_model = true;
                                self.trains |= self.params_read(call);
                            }
                        }
                    }
                    if roles.contains(&Role::Predict) || roles.contains(&Role::Evaluate) {
                        self.scores = true;
                        if let Expr::Name(receiver) = &*method.value
                            && let Some(i) =
                                self.params.iter().position(|p| p == receiver.id.as_str())
                            && i < 32
                        {
                            self.models |= 1 << i;
                        }
                    }
                    if roles.contains(&Role::Evaluate) {
                        self.tests |= self.params_read(call);
                    } else if roles.contains(&Role::Predict) {
                        self.predicts |= self.params_read(call);
                    }
                    // `metrics.accuracy_score(y, p)`: a module's function.
                    let qualified = self.function_roles(&call.func);
                    if qualified.contains(&Role::Evaluate) && !roles.contains(&Role::Evaluate) {
                        self.tests |= self.params_read(call);
                    }
                    self.note_function(&qualified, selects_rows);
                }
                func => {
                    let roles = self.function_roles(func);
                    if roles.contains(&Role::Evaluate) {
                        self.tests |= self.params_read(call);
                    }
                    let selects_rows = self.selecting.contains(&expr.start());
                    self.note_function(&roles, selects_rows);
                }
            }
        }
        walk_expr(self, expr);
    }
}

impl BodyReader<'_> {
    fn note_function(&mut self, roles: &[Role], selects_rows: bool) {
        if roles.contains(&Role::FitTransform) && !selects_rows {
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

/// The calls of a function body whose results only decide which rows are
/// kept, as [`crate::row_filters`] says of one statement: inside a
/// comparison in a subscript's index, or anywhere in the value of an
/// assignment whose names are read only that way, directly or through
/// other such names (`mean = np.mean(d.x)`, `std = ...`, then `d[(d.x >
/// mean - std) & (d.x < mean + std)]`; `Q1`, `Q3`, `IQR = Q3 - Q1`, then
/// `d[~((d < Q1 - 1.5 * IQR) | ...)]`).
fn row_selecting_calls(body: &[Stmt]) -> Vec<TextSize> {
    let mut statements: Vec<&Stmt> = Vec::new();
    let mut headers: Vec<&Expr> = Vec::new();
    let mut nested: Vec<&Stmt> = Vec::new();
    collect_simple(body, &mut statements, &mut headers, &mut nested);
    // Names read by compound statements' headers (`if m > 0:`, `for v in
    // m:`) are read as values.
    let mut header_reads: Vec<String> = Vec::new();
    {
        struct Names<'n>(&'n mut Vec<String>);
        impl<'x> Visitor<'x> for Names<'_> {
            fn visit_expr(&mut self, expr: &'x Expr) {
                if let Expr::Name(n) = expr {
                    self.0.push(n.id.to_string());
                }
                walk_expr(self, expr);
            }
        }
        for h in &headers {
            Names(&mut header_reads).visit_expr(h);
        }
        // Nested functions and classes read as values too.
        for d in &nested {
            walk_stmt(&mut Names(&mut header_reads), d);
        }
    }
    // A name read as a whole index selects rows only when every binding of
    // it in the body makes a boolean mask (`keep = d.x > m`), not a list
    // of columns (`cols = s[s > 0.1].index`).
    let binds_masks = |name: &str| {
        let mut any = false;
        for s in &statements {
            if let Stmt::Assign(a) = s
                && a.targets.iter().any(|t| {
                    let mut names = Vec::new();
                    crate::syntax::names_in(t, &mut names);
                    names.iter().any(|n| n == name)
                })
            {
                match a.targets.as_slice() {
                    [Expr::Name(_)] if crate::row_filters::is_mask(&a.value) => any = true,
                    _ => return false,
                }
            }
        }
        any
    };
    let analysed: Vec<_> = statements
        .iter()
        .map(|s| crate::row_filters::row_selection_of(s))
        .collect();
    // The names each statement binds when it is a plain assignment of names.
    let bound = |s: &Stmt| -> Option<Vec<String>> {
        let Stmt::Assign(a) = s else { return None };
        let mut names = Vec::new();
        for target in &a.targets {
            match target {
                Expr::Name(n) => names.push(n.id.to_string()),
                Expr::Tuple(t) => {
                    for e in &t.elts {
                        let Expr::Name(n) = e else { return None };
                        names.push(n.id.to_string());
                    }
                }
                _ => return None,
            }
        }
        Some(names)
    };
    // Names read only to select rows: start from every name some
    // statement binds, drop any read otherwise, until none is dropped.
    let mut selecting: Vec<String> = statements
        .iter()
        .filter_map(|s| bound(s))
        .flatten()
        .filter(|n| !header_reads.contains(n))
        .collect();
    loop {
        let before = selecting.len();
        let kept = selecting.clone();
        selecting.retain(|name| {
            statements
                .iter()
                .zip(&analysed)
                .all(|(s, (thresholds, masks, _, read))| {
                    !read.contains(name)
                        || thresholds.contains(name)
                        || (masks.contains(name) && binds_masks(name))
                        || bound(s)
                            .is_some_and(|b| !b.is_empty() && b.iter().all(|n| kept.contains(n)))
                })
        });
        if selecting.len() == before {
            break;
        }
    }
    let mut calls = Vec::new();
    for (s, (_, _, selecting_calls, _)) in statements.iter().zip(&analysed) {
        calls.extend(selecting_calls.iter().copied());
        if let (Some(b), Stmt::Assign(a)) = (bound(s), s)
            && !b.is_empty()
            && b.iter().all(|n| selecting.contains(n))
        {
            struct Calls<'c>(&'c mut Vec<TextSize>);
            impl<'x> Visitor<'x> for Calls<'_> {
                fn visit_expr(&mut self, expr: &'x Expr) {
                    if matches!(expr, Expr::Call(_)) {
                        self.0.push(expr.start());
                    }
                    walk_expr(self, expr);
                }
            }
            Calls(&mut calls).visit_expr(&a.value);
        }
    }
    calls
}

/// The simple statements of `body`, in compound ones too (not in nested
/// functions or classes), the expressions of the compound ones' headers,
/// and the nested functions and classes.
fn collect_simple<'a>(
    body: &'a [Stmt],
    out: &mut Vec<&'a Stmt>,
    headers: &mut Vec<&'a Expr>,
    nested: &mut Vec<&'a Stmt>,
) {
    for stmt in body {
        match stmt {
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => nested.push(stmt),
            Stmt::If(s) => {
                headers.push(&s.test);
                collect_simple(&s.body, out, headers, nested);
                for clause in &s.elif_else_clauses {
                    headers.extend(clause.test.as_ref());
                    collect_simple(&clause.body, out, headers, nested);
                }
            }
            Stmt::For(s) => {
                headers.push(&s.iter);
                collect_simple(&s.body, out, headers, nested);
                collect_simple(&s.orelse, out, headers, nested);
            }
            Stmt::While(s) => {
                headers.push(&s.test);
                collect_simple(&s.body, out, headers, nested);
                collect_simple(&s.orelse, out, headers, nested);
            }
            Stmt::With(s) => {
                headers.extend(s.items.iter().map(|i| &i.context_expr));
                collect_simple(&s.body, out, headers, nested);
            }
            Stmt::Try(s) => {
                collect_simple(&s.body, out, headers, nested);
                for h in &s.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    collect_simple(&h.body, out, headers, nested);
                }
                collect_simple(&s.orelse, out, headers, nested);
                collect_simple(&s.finalbody, out, headers, nested);
            }
            Stmt::Match(m) => {
                headers.push(&m.subject);
                for case in &m.cases {
                    collect_simple(&case.body, out, headers, nested);
                }
            }
            simple => out.push(simple),
        }
    }
}

/// `df[cols].mean(axis=1)`, `.std(axis="columns")`: a statistic of each
/// row's own values, not of all rows (as the dataflow takes it).
fn along_rows(call: &ast::ExprCall) -> bool {
    call.arguments.keywords.iter().any(|k| {
        k.arg.as_ref().is_some_and(|a| a.as_str() == "axis")
            && match &k.value {
                Expr::NumberLiteral(n) => {
                    matches!(&n.value, ast::Number::Int(i) if i.as_u8() == Some(1))
                }
                Expr::StringLiteral(v) => v.value.to_str() == "columns",
                Expr::BooleanLiteral(b) => b.value,
                _ => false,
            }
    })
}

/// `a.b.c` for a chain of attributes on a name.
fn dotted(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Name(n) => Some(n.id.to_string()),
        Expr::Attribute(a) => Some(format!("{}.{}", dotted(&a.value)?, a.attr)),
        _ => None,
    }
}
