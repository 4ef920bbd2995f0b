//! What the leakage domain reads from a cell's syntax beyond its compiled
//! program: the parts of a split made without a split function, one
//! statement per part (`X_train = X[:n]`, `test = df.iloc[n:]`,
//! `train = df.sample(frac=0.8)`, `test = df.drop(train.index)`), data
//! stacked onto altered copies of itself (`np.vstack([X, X + noise])`), an
//! attribute bound instead of its object (`best = search.best_estimator_`),
//! and the keyword arguments of a split call (two `train_test_split` calls
//! of the same data with the same `random_state` hold out the same rows).

use nbsight_model::NotebookModel;
use nbsight_notebook::{OneIndexed, ParsedCell};
use ruff_python_ast::{self as ast, Expr, Number, Stmt};
use ruff_text_size::Ranged;

/// The part of some data an assignment binds to one name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Part {
    /// The head of `base` (`base[:n]`, `base.iloc[:n]`; `bound` is the text
    /// of `n`, blanks left out) or a sample of its rows
    /// (`base.sample(frac=0.8)`, no bound): a training part.
    Head { base: String, bound: Option<String> },
    /// The tail of `base` (`base[n:]`): a held-out part.
    Tail { base: String, bound: String },
    /// The rows of `base` not in `other` (`base.drop(other.index)`).
    Rest { base: String, other: String },
}

impl Part {
    pub(crate) fn base(&self) -> &str {
        match self {
            Part::Head { base, .. } | Part::Tail { base, .. } | Part::Rest { base, .. } => base,
        }
    }

    /// Whether `other` is the rest of the rows this part leaves: `x[:n]`
    /// and `x[n:]` (the same `n`), a sample and the rows it left out. Lag
    /// features (`s[:-1]`, `s[1:]`) are not a split.
    fn complements(&self, other: &Part) -> bool {
        if self.base() != other.base() {
            return false;
        }
        match (self, other) {
            (Part::Head { bound: Some(a), .. }, Part::Tail { bound: b, .. })
            | (Part::Tail { bound: a, .. }, Part::Head { bound: Some(b), .. }) => a == b,
            (Part::Head { bound: None, .. }, Part::Tail { .. }) => true,
            (Part::Head { .. }, Part::Rest { .. }) => true,
            _ => false,
        }
    }
}

/// The part bound by the single-name assignment of `parsed` that spans
/// `line`, `column`, if it binds one.
pub(crate) fn part_at(parsed: &ParsedCell, line: OneIndexed, column: OneIndexed) -> Option<Part> {
    let value = assigned_at(parsed, &parsed.module.body, (line, column))?;
    part_of(value, parsed.source())
}

/// The name whose rows the single-name assignment spanning `line`, `column`
/// stacks twice, when it augments data with altered copies of its own rows
/// (`np.vstack([X, X + noise])`, `pd.concat([df, df.sample(frac=0.3)])`;
/// not along columns, `axis=1`).
/// `is_module` tells the names bound by imports (`np`), whose functions take
/// the rows as their first argument (`np.flip(X)`).
pub(crate) fn repeated_rows_at(
    parsed: &ParsedCell,
    line: OneIndexed,
    column: OneIndexed,
    is_module: &dyn Fn(&str) -> bool,
) -> Option<String> {
    let Expr::Call(call) = assigned_at(parsed, &parsed.module.body, (line, column))? else {
        return None;
    };
    let func = match &*call.func {
        Expr::Attribute(a) => a.attr.as_str(),
        Expr::Name(n) => n.id.as_str(),
        _ => return None,
    };
    if !matches!(func, "vstack" | "row_stack" | "concatenate" | "concat") {
        return None;
    }
    if let Some(axis) = call.arguments.find_keyword("axis")
        && !matches!(&axis.value, Expr::NumberLiteral(n) if matches!(&n.value, Number::Int(i) if i.as_u64() == Some(0)))
    {
        return None;
    }
    let elts = match call.arguments.args.first()? {
        Expr::List(l) => &l.elts,
        Expr::Tuple(t) => &t.elts,
        _ => return None,
    };
    let roots: Vec<String> = elts
        .iter()
        .filter_map(|e| root_name(e, is_module))
        .collect();
    roots
        .iter()
        .enumerate()
        .find(|(i, r)| roots[..*i].contains(r))
        .map(|(_, r)| r.clone())
}

/// The name an expression's rows come from: `X`, `X + noise`, `X * 1.1`,
/// `df.sample(...)`, `X[mask]`, `np.flip(X)` (its first argument).
fn root_name(expr: &Expr, is_module: &dyn Fn(&str) -> bool) -> Option<String> {
    match expr {
        Expr::Name(n) if is_module(n.id.as_str()) => None,
        Expr::Name(n) => Some(n.id.to_string()),
        Expr::BinOp(b) => root_name(&b.left, is_module).or_else(|| root_name(&b.right, is_module)),
        Expr::UnaryOp(u) => root_name(&u.operand, is_module),
        Expr::Attribute(a) => root_name(&a.value, is_module),
        Expr::Subscript(s) => root_name(&s.value, is_module),
        Expr::Call(c) => {
            let receiver = match &*c.func {
                Expr::Attribute(a) => root_name(&a.value, is_module),
                _ => None,
            };
            receiver.or_else(|| {
                c.arguments
                    .args
                    .first()
                    .and_then(|a| root_name(a, is_module))
            })
        }
        _ => None,
    }
}

/// The single-name assignment spanning `line`, `column` binds an attribute
/// of an object (`best = search.best_estimator_`), not the object.
pub(crate) fn assigns_attribute(parsed: &ParsedCell, line: OneIndexed, column: OneIndexed) -> bool {
    matches!(
        assigned_at(parsed, &parsed.module.body, (line, column)),
        Some(Expr::Attribute(_))
    )
}

/// Does some cell of `model` bind the complement of a head of `base` (its
/// tail, or the rows a `drop` leaves)? A head alone (`X = X[:10000]`, a
/// shuffle `df.sample(frac=1)`) is a subsample, not a split.
pub(crate) fn has_complement(model: &NotebookModel, part: &Part) -> bool {
    model.code_cells().any(|cell| {
        cell.parsed.as_deref().is_some_and(|parsed| {
            let mut found = false;
            each_assigned(&parsed.module.body, &mut |value| {
                if let Some(other) = part_of(value, parsed.source()) {
                    found |= part.complements(&other);
                }
            });
            found
        })
    })
}

/// The keyword arguments (name and source text, sorted) of the call of
/// `parsed` that starts at `line`, `column`.
pub(crate) fn keywords_at(
    parsed: &ParsedCell,
    line: OneIndexed,
    column: OneIndexed,
) -> Option<Vec<(String, String)>> {
    let mut found = None;
    find_call(parsed, &parsed.module.body, (line, column), &mut found);
    let call = found?;
    let source = parsed.source();
    let mut out: Vec<(String, String)> = call
        .arguments
        .keywords
        .iter()
        .filter_map(|k| {
            let name = k.arg.as_ref()?.to_string();
            let text = source
                .get(usize::from(k.value.start())..usize::from(k.value.end()))?
                .to_string();
            Some((name, text))
        })
        .collect();
    out.sort();
    Some(out)
}

/// The entries (key, value text) of the dicts the `**name` arguments of
/// the call at `line`, `column` unpack, where the notebook binds `name`
/// only to dict literals with string keys or `dict(key=value)` calls
/// (`fit_params = {"eval_set": [(X_test, y_test)]}`; `fit(X, y,
/// **fit_params)`).
pub(crate) fn unpacked_entries_at(
    model: &NotebookModel,
    parsed: &ParsedCell,
    line: OneIndexed,
    column: OneIndexed,
) -> Vec<(String, String)> {
    let mut found = None;
    find_call(parsed, &parsed.module.body, (line, column), &mut found);
    let Some(call) = found else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for keyword in &call.arguments.keywords {
        if keyword.arg.is_some() {
            continue;
        }
        // `**{"eval_set": [...]}` written in the call.
        if let Expr::Dict(d) = &keyword.value {
            let text = parsed.source();
            for item in &d.items {
                if let Some(Expr::StringLiteral(k)) = &item.key {
                    let value = text
                        .get(usize::from(item.value.start())..usize::from(item.value.end()))
                        .unwrap_or_default();
                    out.push((k.value.to_str().to_string(), value.to_string()));
                }
            }
            continue;
        }
        let Expr::Name(name) = &keyword.value else {
            continue;
        };
        let mut entries: Vec<(String, String)> = Vec::new();
        let mut only_dicts = true;
        for p in model.code_cells().filter_map(|c| c.parsed.as_deref()) {
            let text = p.source();
            let text_of = |e: &Expr| {
                text.get(usize::from(e.start())..usize::from(e.end()))
                    .unwrap_or_default()
                    .to_string()
            };
            each_assignment(&p.module.body, &mut |target, value| {
                if target != name.id.as_str() {
                    return;
                }
                match value {
                    Expr::Dict(d) => {
                        for item in &d.items {
                            match &item.key {
                                Some(Expr::StringLiteral(k)) => {
                                    entries
                                        .push((k.value.to_str().to_string(), text_of(&item.value)));
                                }
                                _ => only_dicts = false,
                            }
                        }
                    }
                    Expr::Call(c)
                        if name_of(&c.func).as_deref() == Some("dict")
                            && c.arguments.args.is_empty() =>
                    {
                        for k in &c.arguments.keywords {
                            match &k.arg {
                                Some(arg) => entries.push((arg.to_string(), text_of(&k.value))),
                                None => only_dicts = false,
                            }
                        }
                    }
                    _ => only_dicts = false,
                }
            });
        }
        if only_dicts {
            out.extend(entries);
        }
    }
    out
}

/// The text of the simple statement of `parsed` spanning `at`.
pub(crate) fn statement_text_at(parsed: &ParsedCell, at: (OneIndexed, OneIndexed)) -> Option<&str> {
    let stmt = simple_statement_at(parsed, &parsed.module.body, at)?;
    parsed
        .source()
        .get(usize::from(stmt.start())..usize::from(stmt.end()))
}

/// Whether every call of the function `name` in the statement of `parsed`
/// spanning `at` applies it to one element of data at a time: each
/// positional argument is the target of an enclosing `for` or of a
/// comprehension (`for doc in docs: f(doc)`, `[f(d) for d in docs]`), or
/// an element indexed by one (`for i in range(n): f(docs[i])`). A
/// statistic such a function takes is one element's, not all rows'.
pub(crate) fn called_per_element(
    parsed: &ParsedCell,
    at: (OneIndexed, OneIndexed),
    name: &str,
) -> bool {
    struct Calls<'n> {
        name: &'n str,
        elements: Elements,
        calls: usize,
        per_element: usize,
    }
    impl<'a> ruff_python_ast::visitor::Visitor<'a> for Calls<'_> {
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::ListComp(ast::ExprListComp { generators, .. })
                | Expr::SetComp(ast::ExprSetComp { generators, .. })
                | Expr::Generator(ast::ExprGenerator { generators, .. })
                | Expr::DictComp(ast::ExprDictComp { generators, .. }) => {
                    for g in generators {
                        self.elements.bind(&g.target, &g.iter);
                    }
                }
                Expr::Call(call) if matches!(&*call.func, Expr::Name(f) if f.id.as_str() == self.name) =>
                {
                    self.calls += 1;
                    if !call.arguments.args.is_empty()
                        && call
                            .arguments
                            .args
                            .iter()
                            .all(|a| self.elements.is_element(a))
                    {
                        self.per_element += 1;
                    }
                }
                _ => {}
            }
            ruff_python_ast::visitor::walk_expr(self, expr);
        }
    }
    let mut calls = Calls {
        name,
        elements: Elements::default(),
        calls: 0,
        per_element: 0,
    };
    for f in enclosing_loops(parsed, at) {
        calls.elements.bind(&f.target, &f.iter);
    }
    walk_simple_statement_at(parsed, at, &mut calls);
    calls.calls > 0 && calls.per_element == calls.calls
}

/// The elements of data the enclosing loops and comprehensions go over,
/// one at a time.
#[derive(Default)]
struct Elements {
    /// Loop and comprehension targets: elements.
    targets: Vec<String>,
    /// Those over a `range(...)`: positions (`docs[i]` is an element;
    /// `df[col]` over column names is a column of all rows).
    positions: Vec<String>,
}

impl Elements {
    fn is_element(&self, arg: &Expr) -> bool {
        let named = |e: &Expr, names: &[String]| matches!(e, Expr::Name(n) if names.iter().any(|t| t == n.id.as_str()));
        match arg {
            Expr::Subscript(sub) => named(&sub.slice, &self.positions),
            e => named(e, &self.targets),
        }
    }

    fn bind(&mut self, target: &Expr, iter: &Expr) {
        // Over a frame's columns (`X.items()`, `X.columns`, `X.T`) or
        // a literal list (of column names), the elements are columns
        // of all rows.
        // Over groups or windows of rows (`df.groupby("city")`,
        // `np.array_split(df, 4)`), each element holds many rows.
        let over_columns = match iter {
            Expr::Call(c) => {
                matches!(&*c.func, Expr::Attribute(a) if matches!(a.attr.as_str(), "items" | "iteritems" | "keys" | "groupby" | "resample" | "rolling" | "expanding" | "array_split" | "split"))
            }
            Expr::Attribute(a) => matches!(a.attr.as_str(), "columns" | "T"),
            Expr::List(_) | Expr::Tuple(_) | Expr::Set(_) => true,
            _ => false,
        };
        if !over_columns {
            names_in(target, &mut self.targets);
        }
        // `range(n)`, `trange(n)`, or a progress bar over one
        // (`tqdm(range(n))`).
        let range = |e: &Expr| matches!(e, Expr::Call(c) if matches!(&*c.func, Expr::Name(f) if matches!(f.id.as_str(), "range" | "trange")));
        let over_range = range(iter)
            || matches!(iter, Expr::Call(c) if c.arguments.args.first().is_some_and(range));
        if over_range {
            names_in(target, &mut self.positions);
        }
    }
}

/// The method call starting at `at` (a statistic, `img.mean()`) is made on
/// one element of data at a time: in a `for` loop, its receiver is the
/// loop's element (`for doc in docs: doc.mean()`, `docs[i].mean()` over a
/// range), or a name the loop's body binds from one (`img =
/// cv2.imread(paths[i])`, then `img.mean()`). Its statistic is that
/// element's own.
pub(crate) fn method_of_element(parsed: &ParsedCell, at: (OneIndexed, OneIndexed)) -> bool {
    let loops = enclosing_loops(parsed, at);
    let Some(innermost) = loops.last() else {
        return false;
    };
    let mut elements = Elements::default();
    for f in &loops {
        elements.bind(&f.target, &f.iter);
    }
    let mut found = None;
    find_call(parsed, &parsed.module.body, at, &mut found);
    let Some(Expr::Attribute(method)) = found.map(|c| &*c.func) else {
        return false;
    };
    let receiver = &*method.value;
    if elements.is_element(receiver) {
        return true;
    }
    let Expr::Name(name) = receiver else {
        return false;
    };
    let mut bindings = 0;
    let mut from_elements = 0;
    each_assignment(&innermost.body, &mut |target, value| {
        if target == name.id.as_str() {
            bindings += 1;
            let of_element = elements.is_element(value)
                || matches!(value, Expr::Call(c) if c.arguments.args.first().is_some_and(|a| elements.is_element(a)));
            from_elements += usize::from(of_element);
        }
    });
    bindings > 0 && bindings == from_elements
}

/// The call at `at` (a `fit`) takes as its labels, its second positional
/// argument, a column chosen by the target of a `for` loop enclosing it
/// (`for category in categories: pipe.fit(X_train, train[category])`):
/// each iteration another target.
pub(crate) fn labels_chosen_by_loop(parsed: &ParsedCell, at: (OneIndexed, OneIndexed)) -> bool {
    let mut found = None;
    find_call(parsed, &parsed.module.body, at, &mut found);
    let Some(Expr::Subscript(labels)) = found.and_then(|c| c.arguments.args.get(1)) else {
        return false;
    };
    let Expr::Name(index) = &*labels.slice else {
        return false;
    };
    enclosing_loop_targets(parsed, at)
        .iter()
        .any(|n| n == index.id.as_str())
}

/// The names the `for` loops enclosing the statement of `parsed` spanning
/// `at` bind.
pub(crate) fn enclosing_loop_targets(
    parsed: &ParsedCell,
    at: (OneIndexed, OneIndexed),
) -> Vec<String> {
    let mut names = Vec::new();
    for f in enclosing_loops(parsed, at) {
        names_in(&f.target, &mut names);
    }
    names
}

/// The names the innermost `for` loop enclosing the statement of `parsed`
/// spanning `at` binds again at each iteration: its target, the targets of
/// the loops nested in it, the names its body assigns; but not those the
/// statement at `at` binds (none outside a `for` loop).
pub(crate) fn bound_in_innermost_loop(
    parsed: &ParsedCell,
    at: (OneIndexed, OneIndexed),
) -> Vec<String> {
    let Some(f) = enclosing_loops(parsed, at).last().copied() else {
        return Vec::new();
    };
    let mut names = Vec::new();
    names_in(&f.target, &mut names);
    each_stmt(&f.body, &mut |s| match s {
        Stmt::For(inner) => names_in(&inner.target, &mut names),
        Stmt::Assign(a) if !spans(parsed, a, at) => {
            for t in &a.targets {
                names_in(t, &mut names);
            }
        }
        Stmt::AugAssign(a) => names_in(&a.target, &mut names),
        Stmt::AnnAssign(a) => names_in(&a.target, &mut names),
        _ => {}
    });
    names
}

/// The `for` loops of `parsed` enclosing the statement spanning `at`,
/// outermost first.
fn enclosing_loops(parsed: &ParsedCell, at: (OneIndexed, OneIndexed)) -> Vec<&ast::StmtFor> {
    fn walk<'a>(
        parsed: &ParsedCell,
        body: &'a [Stmt],
        at: (OneIndexed, OneIndexed),
        out: &mut Vec<&'a ast::StmtFor>,
    ) {
        for stmt in body.iter().filter(|s| spans(parsed, *s, at)) {
            if let Stmt::For(f) = stmt {
                out.push(f);
            }
            for inner in children(stmt) {
                walk(parsed, inner, at, out);
            }
        }
    }
    let mut loops = Vec::new();
    walk(parsed, &parsed.module.body, at, &mut loops);
    loops
}

/// The names a binding target binds (`x`, `(i, row)`).
/// The names an assignment target binds (`a`, `a, (b, c)`).
pub(crate) fn names_in(target: &Expr, out: &mut Vec<String>) {
    match target {
        Expr::Name(n) => out.push(n.id.to_string()),
        Expr::Tuple(t) => t.elts.iter().for_each(|e| names_in(e, out)),
        Expr::List(l) => l.elts.iter().for_each(|e| names_in(e, out)),
        _ => {}
    }
}

fn starts_at(parsed: &ParsedCell, node: &impl Ranged, at: (OneIndexed, OneIndexed)) -> bool {
    parsed.line_column(node.start()) == at
}

fn spans(parsed: &ParsedCell, node: &impl Ranged, at: (OneIndexed, OneIndexed)) -> bool {
    parsed.line_column(node.start()) <= at && at < parsed.line_column(node.end())
}

/// The comparisons of two values in the simple statement of `parsed`
/// spanning `at` (`pred != y_test`, `y_test - a`, `(a == b).mean()`): the
/// names the two sides' rows come from (see [`root_name`]) and the text of
/// the comparison. A prediction compared with labels so is an evaluation
/// without a metric function.
pub(crate) fn comparisons_at(
    parsed: &ParsedCell,
    at: (OneIndexed, OneIndexed),
    is_module: &dyn Fn(&str) -> bool,
) -> Vec<(String, String, String)> {
    use ruff_python_ast::visitor::{Visitor, walk_expr};
    struct Comparisons<'p> {
        source: &'p str,
        is_module: &'p dyn Fn(&str) -> bool,
        found: Vec<(String, String, String)>,
    }
    impl<'a> Visitor<'a> for Comparisons<'_> {
        fn visit_expr(&mut self, expr: &'a Expr) {
            let sides = match expr {
                Expr::Compare(c)
                    if c.comparators.len() == 1
                        && matches!(c.ops.first(), Some(ast::CmpOp::Eq | ast::CmpOp::NotEq)) =>
                {
                    Some((&*c.left, &c.comparators[0]))
                }
                Expr::BinOp(b) if b.op == ast::Operator::Sub => Some((&*b.left, &*b.right)),
                _ => None,
            };
            if let Some((left, right)) = sides
                && let (Some(l), Some(r)) = (
                    root_name(left, self.is_module),
                    root_name(right, self.is_module),
                )
            {
                let text = self
                    .source
                    .get(usize::from(expr.start())..usize::from(expr.end()))
                    .unwrap_or_default();
                self.found.push((l, r, text.to_string()));
            }
            walk_expr(self, expr);
        }
        fn visit_stmt(&mut self, _: &'a Stmt) {}
    }
    let mut visitor = Comparisons {
        source: parsed.source(),
        is_module,
        found: Vec::new(),
    };
    walk_simple_statement_at(parsed, at, &mut visitor);
    visitor.found
}

/// `a, b = x[...], y[...]` spanning `at`: a tuple of names bound to a
/// tuple display of as many elements, none starred: the names each element
/// reads, in the order of the targets. Each target gets its own element.
pub(crate) fn tuple_display_at(
    parsed: &ParsedCell,
    at: (OneIndexed, OneIndexed),
) -> Option<Vec<Vec<String>>> {
    let Stmt::Assign(a) = simple_statement_at(parsed, &parsed.module.body, at)? else {
        return None;
    };
    let targets = match a.targets.as_slice() {
        [Expr::Tuple(t)] => &t.elts,
        [Expr::List(l)] => &l.elts,
        _ => return None,
    };
    let values = match &*a.value {
        Expr::Tuple(t) => &t.elts,
        Expr::List(l) => &l.elts,
        _ => return None,
    };
    if targets.len() != values.len()
        || !targets.iter().all(|t| matches!(t, Expr::Name(_)))
        || values.iter().any(|v| matches!(v, Expr::Starred(_)))
    {
        return None;
    }
    struct Names(Vec<String>);
    impl<'a> ruff_python_ast::visitor::Visitor<'a> for Names {
        fn visit_expr(&mut self, expr: &'a Expr) {
            if let Expr::Name(n) = expr {
                self.0.push(n.id.to_string());
            }
            ruff_python_ast::visitor::walk_expr(self, expr);
        }
    }
    Some(
        values
            .iter()
            .map(|v| {
                let mut names = Names(Vec::new());
                ruff_python_ast::visitor::Visitor::visit_expr(&mut names, v);
                names.0
            })
            .collect(),
    )
}

/// `a2, b2 = a.align(b, ...)` spanning `at`: the two frames aligned, in
/// the order of the targets. Each target keeps its own frame's rows (only
/// labels are matched up).
pub(crate) fn aligned_at(
    parsed: &ParsedCell,
    at: (OneIndexed, OneIndexed),
) -> Option<(String, String)> {
    let Stmt::Assign(a) = simple_statement_at(parsed, &parsed.module.body, at)? else {
        return None;
    };
    let [Expr::Tuple(targets)] = a.targets.as_slice() else {
        return None;
    };
    let Expr::Call(call) = &*a.value else {
        return None;
    };
    let Expr::Attribute(method) = &*call.func else {
        return None;
    };
    if targets.elts.len() != 2 || method.attr.as_str() != "align" {
        return None;
    }
    Some((
        name_of(&method.value)?,
        name_of(call.arguments.args.first()?)?,
    ))
}

/// Code that makes an early-stopping callback (`lgb.early_stopping(10)`,
/// `EarlyStopping(monitor="val_loss")`).
pub(crate) fn makes_early_stopping(text: &str) -> bool {
    text.contains("early_stopping(") || text.contains("EarlyStopping(")
}

/// `parsed` binds one of `names` to an early-stopping callback
/// (`es = EarlyStopping(patience=5)`).
pub(crate) fn binds_early_stopping(parsed: &ParsedCell, names: &[&str]) -> bool {
    let text = parsed.source();
    let mut found = false;
    each_assignment(&parsed.module.body, &mut |target, value| {
        if names.contains(&target) {
            let code = text
                .get(usize::from(value.start())..usize::from(value.end()))
                .unwrap_or_default();
            found |= makes_early_stopping(code);
        }
    });
    found
}

/// The columns a selection keeps or drops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Columns {
    /// `df[["a", "b"]]`, `df["a"]`, `df[features]`: these, no others.
    Kept(Vec<String>),
    /// `df.drop(["y", "a"], axis=1)`, `df.drop(columns=...)`: all but these.
    Dropped(Vec<String>),
}

/// The frame and the columns of the single-name assignment spanning `at`
/// when its value selects columns by name: a subscript (`X = df[features]`)
/// or a `drop` of columns (`X = df.drop(columns=["y"])`); the names are
/// literal strings, or a name bound once in the notebook to a list of them.
pub(crate) fn selected_columns_at(
    model: &NotebookModel,
    parsed: &ParsedCell,
    at: (OneIndexed, OneIndexed),
) -> Option<(String, Columns)> {
    match assigned_at(parsed, &parsed.module.body, at)? {
        Expr::Subscript(sub) => Some((
            name_of(&sub.value)?,
            Columns::Kept(column_names(model, &sub.slice)?),
        )),
        Expr::Call(call) => {
            let Expr::Attribute(attr) = &*call.func else {
                return None;
            };
            if attr.attr.as_str() != "drop" {
                return None;
            }
            let keyword = |name: &str| {
                call.arguments
                    .keywords
                    .iter()
                    .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == name))
                    .map(|k| &k.value)
            };
            let along_columns = keyword("axis").is_some_and(|axis| match axis {
                Expr::NumberLiteral(n) => {
                    matches!(n.value, ast::Number::Int(ref i) if i.as_u8() == Some(1))
                }
                Expr::StringLiteral(s) => s.value.to_str() == "columns",
                _ => false,
            });
            let dropped = match (keyword("columns"), call.arguments.args.first()) {
                (Some(columns), _) => columns,
                (None, Some(labels)) if along_columns => labels,
                _ => return None,
            };
            Some((
                name_of(&attr.value)?,
                Columns::Dropped(column_names(model, dropped)?),
            ))
        }
        _ => None,
    }
}

/// Column names written as a string, a list of strings, or a name the
/// notebook binds once, to a list of strings.
fn column_names(model: &NotebookModel, names: &Expr) -> Option<Vec<String>> {
    match names {
        Expr::StringLiteral(one) => Some(vec![one.value.to_str().to_string()]),
        Expr::List(list) => strings(&list.elts),
        Expr::Name(n) => {
            let mut found: Vec<Option<Vec<String>>> = Vec::new();
            for cell in model.code_cells() {
                let Some(p) = cell.parsed.as_deref() else {
                    continue;
                };
                each_assignment(&p.module.body, &mut |target, value| {
                    if target == n.id.as_str() {
                        found.push(match value {
                            Expr::List(l) => strings(&l.elts),
                            _ => None,
                        });
                    }
                });
            }
            match found.as_slice() {
                [Some(columns)] => Some(columns.clone()),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The column a statement stores into (`df["age_mean"] = ...`,
/// `df.loc[rows, "age"] = ...`) when the
/// statement of `parsed` spanning `at` stores into one named column.
pub(crate) fn stored_column_at(
    parsed: &ParsedCell,
    at: (OneIndexed, OneIndexed),
) -> Option<String> {
    let Stmt::Assign(a) = simple_statement_at(parsed, &parsed.module.body, at)? else {
        return None;
    };
    match a.targets.as_slice() {
        [Expr::Subscript(s)] => match &*s.slice {
            Expr::StringLiteral(lit) => Some(lit.value.to_str().to_string()),
            // `df.loc[rows, "c"] = ...`, `df.at[i, "c"] = ...`.
            Expr::Tuple(t) if matches!(&*s.value, Expr::Attribute(at) if matches!(at.attr.as_str(), "loc" | "at")) => {
                match t.elts.as_slice() {
                    [_, Expr::StringLiteral(lit)] => Some(lit.value.to_str().to_string()),
                    _ => None,
                }
            }
            _ => None,
        },
        _ => None,
    }
}

/// A statistic bound to a name first (`mean_age = int(df["Age"].mean())`,
/// the statement of `parsed` spanning `at`) and stored from there into one
/// column (`df["Age"] = df["Age"].fillna(mean_age)`): that column, and the
/// statements storing it. `None` when a statement that writes something
/// reads the name without storing into that one column.
pub(crate) fn stored_through_name(
    model: &NotebookModel,
    parsed: &ParsedCell,
    at: (OneIndexed, OneIndexed),
) -> Option<(String, Vec<(usize, OneIndexed)>)> {
    let Stmt::Assign(a) = simple_statement_at(parsed, &parsed.module.body, at)? else {
        return None;
    };
    let [Expr::Name(target)] = a.targets.as_slice() else {
        return None;
    };
    let name = target.id.as_str();
    let named = |text: &str| {
        text.match_indices(name).any(|(i, _)| {
            let word = |c: char| c.is_alphanumeric() || c == '_';
            !text[..i].chars().next_back().is_some_and(word)
                && !text[i + name.len()..].chars().next().is_some_and(word)
        })
    };
    let mut column: Option<String> = None;
    let mut storing = Vec::new();
    for cell in model.code_cells() {
        let (Some(program), Some(p)) = (cell.program(), cell.parsed.as_deref()) else {
            continue;
        };
        if !named(p.source()) {
            continue;
        }
        // A function or class whose code reads the name may carry it
        // anywhere it is called.
        let mut in_definition = false;
        each_stmt(&p.module.body, &mut |s| {
            if matches!(s, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
                let text = p
                    .source()
                    .get(usize::from(s.start())..usize::from(s.end()))
                    .unwrap_or("");
                in_definition |= named(text);
            }
        });
        if in_definition {
            return None;
        }
        for stmt in &program.stmts {
            // Read anywhere in the statement's code, lambdas and function
            // bodies included; the binding itself aside.
            let at_binding = std::ptr::eq(p, parsed)
                && stmt.line == at.0
                && stmt
                    .writes
                    .iter()
                    .any(|&(w, _)| Some(w) == model.vars.get(name));
            if at_binding
                || stmt.writes.is_empty()
                || !statement_text_at(p, (stmt.line, stmt.column)).is_some_and(named)
            {
                continue;
            }
            let stored = stored_column_at(p, (stmt.line, stmt.column))?;
            if column.get_or_insert_with(|| stored.clone()) != &stored {
                return None;
            }
            storing.push((cell.index, stmt.line));
        }
    }
    column.map(|c| (c, storing))
}

/// The statements of the notebook (cell, first line) whose code names the
/// column `column` (`"c"`, `'c'`, `.c`).
pub(crate) fn statements_naming_column(
    model: &NotebookModel,
    column: &str,
) -> Vec<(usize, OneIndexed)> {
    let forms = [
        format!("\"{column}\""),
        format!("'{column}'"),
        format!(".{column}"),
    ];
    let named = |text: &str| {
        forms.iter().any(|form| {
            text.match_indices(form.as_str()).any(|(at, _)| {
                // `.c` is an attribute only when no letter follows.
                !form.starts_with('.')
                    || !text[at + form.len()..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        })
    };
    let mut found = Vec::new();
    for cell in model.code_cells() {
        let (Some(program), Some(parsed)) = (cell.program(), cell.parsed.as_deref()) else {
            continue;
        };
        if !named(parsed.source()) {
            continue;
        }
        for stmt in &program.stmts {
            if statement_text_at(parsed, (stmt.line, stmt.column)).is_some_and(named) {
                found.push((cell.index, stmt.line));
            }
        }
    }
    found
}

/// The columns some assignment of the notebook stores a value into whose
/// code names the column `source` (`df["above"] = df.age > df["age_mean"]`
/// for `age_mean`).
pub(crate) fn columns_derived_from(model: &NotebookModel, source: &str) -> Vec<String> {
    let forms = [
        format!("\"{source}\""),
        format!("'{source}'"),
        format!(".{source}"),
    ];
    let mut derived = Vec::new();
    for p in model.code_cells().filter_map(|c| c.parsed.as_deref()) {
        let text = p.source();
        each_stmt(&p.module.body, &mut |s: &Stmt| {
            if let Stmt::Assign(a) = s
                && let [Expr::Subscript(t)] = a.targets.as_slice()
                && let Expr::StringLiteral(lit) = &*t.slice
            {
                let value = text
                    .get(usize::from(a.value.start())..usize::from(a.value.end()))
                    .unwrap_or_default();
                let target = lit.value.to_str();
                if target != source
                    && forms.iter().any(|form| value.contains(form.as_str()))
                    && !derived.iter().any(|d| d == target)
                {
                    derived.push(target.to_string());
                }
            }
        });
    }
    derived
}

fn strings(elts: &[Expr]) -> Option<Vec<String>> {
    elts.iter()
        .map(|e| match e {
            Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
            _ => None,
        })
        .collect()
}

/// Calls `f` on every statement of `body` (compound ones' bodies too, not
/// function or class bodies).
fn each_stmt<'a>(body: &'a [Stmt], f: &mut impl FnMut(&'a Stmt)) {
    for stmt in body {
        f(stmt);
        for inner in children(stmt) {
            each_stmt(inner, f);
        }
    }
}

/// Calls `f` on the target name and value of every single-name assignment.
fn each_assignment<'a>(body: &'a [Stmt], f: &mut impl FnMut(&str, &'a Expr)) {
    each_stmt(body, &mut |s| {
        if let Stmt::Assign(a) = s
            && let [Expr::Name(n)] = a.targets.as_slice()
        {
            f(n.id.as_str(), &a.value);
        }
    });
}

/// Walks `visitor` over the simple statement of `parsed` spanning `at`
/// (nothing when there is none).
pub(crate) fn walk_simple_statement_at<'a>(
    parsed: &'a ParsedCell,
    at: (OneIndexed, OneIndexed),
    visitor: &mut impl ruff_python_ast::visitor::Visitor<'a>,
) {
    if let Some(stmt) = simple_statement_at(parsed, &parsed.module.body, at) {
        ruff_python_ast::visitor::walk_stmt(visitor, stmt);
    }
}

/// The innermost statement of `body` spanning `at` that is not compound
/// (the header of a compound statement spanning it is not looked in).
fn simple_statement_at<'a>(
    parsed: &ParsedCell,
    body: &'a [Stmt],
    at: (OneIndexed, OneIndexed),
) -> Option<&'a Stmt> {
    let stmt = body.iter().find(|s| spans(parsed, *s, at))?;
    let inner = children(stmt);
    if inner.is_empty() {
        return (!matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_))).then_some(stmt);
    }
    inner
        .into_iter()
        .find_map(|b| simple_statement_at(parsed, b, at))
}

/// The value of the single-name assignment (`name = value`) of `parsed`
/// spanning `at`.
pub(crate) fn assigned_value_at(
    parsed: &ParsedCell,
    at: (OneIndexed, OneIndexed),
) -> Option<&Expr> {
    assigned_at(parsed, &parsed.module.body, at)
}

/// The value of the single-name assignment spanning `at`.
fn assigned_at<'a>(
    parsed: &ParsedCell,
    body: &'a [Stmt],
    at: (OneIndexed, OneIndexed),
) -> Option<&'a Expr> {
    for stmt in body {
        match stmt {
            Stmt::Assign(a) if spans(parsed, a, at) => {
                return match a.targets.as_slice() {
                    [Expr::Name(_)] => Some(&a.value),
                    _ => None,
                };
            }
            _ => {
                for inner in children(stmt) {
                    if let Some(v) = assigned_at(parsed, inner, at) {
                        return Some(v);
                    }
                }
            }
        }
    }
    None
}

/// Calls `f` on the value of every single-name assignment of `body`.
fn each_assigned<'a>(body: &'a [Stmt], f: &mut impl FnMut(&'a Expr)) {
    for stmt in body {
        if let Stmt::Assign(a) = stmt
            && let [Expr::Name(_)] = a.targets.as_slice()
        {
            f(&a.value);
        }
        for inner in children(stmt) {
            each_assigned(inner, f);
        }
    }
}

/// The statement lists nested in a compound statement (not function or
/// class bodies: they do not run where they are written).
fn children(stmt: &Stmt) -> Vec<&[Stmt]> {
    match stmt {
        Stmt::If(s) => std::iter::once(&s.body[..])
            .chain(s.elif_else_clauses.iter().map(|c| &c.body[..]))
            .collect(),
        Stmt::For(s) => vec![&s.body, &s.orelse],
        Stmt::While(s) => vec![&s.body, &s.orelse],
        Stmt::With(s) => vec![&s.body],
        Stmt::Try(s) => std::iter::once(&s.body[..])
            .chain(s.handlers.iter().map(|h| match h {
                ast::ExceptHandler::ExceptHandler(h) => &h.body[..],
            }))
            .chain([&s.orelse[..], &s.finalbody[..]])
            .collect(),
        _ => Vec::new(),
    }
}

/// Finds the call starting at `at` in `body`'s statements (their
/// expressions, searched in source order).
fn find_call<'a>(
    parsed: &ParsedCell,
    body: &'a [Stmt],
    at: (OneIndexed, OneIndexed),
    found: &mut Option<&'a ast::ExprCall>,
) {
    use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
    struct Finder<'p, 'a> {
        parsed: &'p ParsedCell,
        at: (OneIndexed, OneIndexed),
        found: Option<&'a ast::ExprCall>,
    }
    impl<'a> Visitor<'a> for Finder<'_, 'a> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            if self.found.is_none() && !matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
                walk_stmt(self, stmt);
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            if self.found.is_some() {
                return;
            }
            if let Expr::Call(call) = expr
                && starts_at(self.parsed, call, self.at)
            {
                self.found = Some(call);
                return;
            }
            walk_expr(self, expr);
        }
    }
    let mut finder = Finder {
        parsed,
        at,
        found: None,
    };
    for stmt in body {
        finder.visit_stmt(stmt);
    }
    *found = finder.found;
}

/// The part an assigned value is, through arithmetic on it (`X[:n] / 255.`),
/// `.values` and copies.
fn part_of(value: &Expr, source: &str) -> Option<Part> {
    match value {
        Expr::BinOp(b) => part_of(&b.left, source),
        Expr::Attribute(a) if matches!(a.attr.as_str(), "values" | "T") => {
            part_of(&a.value, source)
        }
        Expr::Subscript(s) => {
            let Expr::Slice(slice) = &*s.slice else {
                return None;
            };
            if slice.step.is_some() {
                return None;
            }
            let base = base_name(&s.value)?;
            let text = |bound: &Expr| -> Option<String> {
                let text = source.get(usize::from(bound.start())..usize::from(bound.end()))?;
                Some(text.chars().filter(|c| !c.is_whitespace()).collect())
            };
            match (&slice.lower, &slice.upper) {
                (None, Some(upper)) => Some(Part::Head {
                    base,
                    bound: Some(text(upper)?),
                }),
                (Some(lower), None) => Some(Part::Tail {
                    base,
                    bound: text(lower)?,
                }),
                _ => None,
            }
        }
        Expr::Call(call) => {
            let Expr::Attribute(method) = &*call.func else {
                return None;
            };
            match method.attr.as_str() {
                "copy" | "reset_index" | "to_numpy" => part_of(&method.value, source),
                "sample" => {
                    let base = name_of(&method.value)?;
                    let frac = call.arguments.find_keyword("frac");
                    let n = call.arguments.find_keyword("n");
                    // `frac=1` shuffles every row: not a part.
                    let part = match (frac, n) {
                        (Some(f), _) => !is_number_at_least_one(&f.value),
                        (None, Some(_)) => true,
                        (None, None) => false,
                    };
                    part.then_some(Part::Head { base, bound: None })
                }
                "drop" => {
                    let base = name_of(&method.value)?;
                    let dropped = call
                        .arguments
                        .args
                        .first()
                        .or_else(|| call.arguments.find_keyword("index").map(|k| &k.value))?;
                    match dropped {
                        Expr::Attribute(a) if a.attr.as_str() == "index" => Some(Part::Rest {
                            base,
                            other: name_of(&a.value)?,
                        }),
                        _ => None,
                    }
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// `X`, `df.iloc`, `df.loc`, `df.values`: the root name sliced.
fn base_name(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Attribute(a) if matches!(a.attr.as_str(), "iloc" | "loc" | "values") => {
            name_of(&a.value)
        }
        _ => name_of(expr),
    }
}

fn name_of(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Name(n) => Some(n.id.to_string()),
        _ => None,
    }
}

fn is_number_at_least_one(expr: &Expr) -> bool {
    match expr {
        Expr::NumberLiteral(n) => match &n.value {
            Number::Int(i) => i.as_u64().is_some_and(|i| i >= 1),
            Number::Float(f) => *f >= 1.0,
            Number::Complex { .. } => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(source: &str) -> Option<Part> {
        let parsed = nbsight_notebook::parse_python(source);
        part_at(&parsed, OneIndexed::MIN, OneIndexed::MIN)
    }

    #[test]
    fn parts_of_data() {
        let head = |base: &str, bound: &str| Part::Head {
            base: base.into(),
            bound: Some(bound.into()),
        };
        let tail = |base: &str, bound: &str| Part::Tail {
            base: base.into(),
            bound: bound.into(),
        };
        assert_eq!(part("X_train = X[:600]"), Some(head("X", "600")));
        assert_eq!(part("test = df.iloc[n:]"), Some(tail("df", "n")));
        assert_eq!(part("a = X[600:] / 255."), Some(tail("X", "600")));
        assert_eq!(
            part("a = X[int(0.8 * len(X)):]"),
            Some(tail("X", "int(0.8*len(X))"))
        );
        // A split is a complementary pair; lag features are not.
        assert!(head("X", "n").complements(&tail("X", "n")));
        assert!(tail("X", "n").complements(&head("X", "n")));
        assert!(!head("s", "-1").complements(&tail("s", "1")));
        assert!(!head("s", "n").complements(&tail("t", "n")));
        assert_eq!(
            part("train = df.sample(frac=0.8, random_state=1)"),
            Some(Part::Head {
                base: "df".into(),
                bound: None
            })
        );
        assert_eq!(part("df = df.sample(frac=1)"), None);
        assert_eq!(
            part("test = df.drop(train.index)"),
            Some(Part::Rest {
                base: "df".into(),
                other: "train".into()
            })
        );
        assert_eq!(part("X = df.drop(columns=['y'])"), None);
        assert_eq!(part("a = X[::2]"), None);
        assert_eq!(part("a, b = X[:2], X[2:]"), None);
    }

    #[test]
    fn aligned_frames() {
        let parsed = nbsight_notebook::parse_python(
            "X_train, X_test = X_train.align(X_test, join='left', axis=1)",
        );
        assert_eq!(
            aligned_at(&parsed, (OneIndexed::MIN, OneIndexed::MIN)),
            Some(("X_train".into(), "X_test".into()))
        );
        let parsed = nbsight_notebook::parse_python("a, b = f(x, y)");
        assert_eq!(
            aligned_at(&parsed, (OneIndexed::MIN, OneIndexed::MIN)),
            None
        );
    }

    #[test]
    fn comparisons() {
        let parsed = nbsight_notebook::parse_python(
            "x = 1\nfor k in ks:\n    err.append(np.mean(pred_k != y_test))\nrmse = np.sqrt(np.mean((y_test - a.reshape(-1)) ** 2))",
        );
        let at = |line: usize, column: usize| {
            comparisons_at(
                &parsed,
                (
                    OneIndexed::from_zero_indexed(line),
                    OneIndexed::from_zero_indexed(column),
                ),
                &|n| n == "np",
            )
        };
        assert_eq!(
            at(2, 4),
            vec![("pred_k".into(), "y_test".into(), "pred_k != y_test".into())]
        );
        assert_eq!(
            at(3, 0),
            vec![("y_test".into(), "a".into(), "y_test - a.reshape(-1)".into())]
        );
        assert!(at(0, 0).is_empty());
    }

    #[test]
    fn stacked_copies() {
        let at = |source: &str| {
            let parsed = nbsight_notebook::parse_python(source);
            repeated_rows_at(&parsed, OneIndexed::MIN, OneIndexed::MIN, &|n| {
                matches!(n, "np" | "pd")
            })
        };
        assert_eq!(at("a = np.vstack([X, X + noise])"), Some("X".into()));
        assert_eq!(
            at("a = pd.concat([df, df.sample(frac=0.3)])"),
            Some("df".into())
        );
        assert_eq!(at("a = pd.concat([df, dummies], axis=1)"), None);
        assert_eq!(at("a = pd.concat([df, df ** 2], axis=1)"), None);
        assert_eq!(at("a = np.concatenate([X_train, X_test])"), None);
        assert_eq!(
            at("a = np.vstack([X, np.flip(X, axis=1)])"),
            Some("X".into())
        );
    }

    #[test]
    fn keywords_of_a_call() {
        let parsed = nbsight_notebook::parse_python(
            "a, b = train_test_split(X, test_size=0.2, random_state=7)",
        );
        let column = OneIndexed::from_zero_indexed(7);
        assert_eq!(
            keywords_at(&parsed, OneIndexed::MIN, column),
            Some(vec![
                ("random_state".to_string(), "7".to_string()),
                ("test_size".to_string(), "0.2".to_string())
            ])
        );
    }
}
