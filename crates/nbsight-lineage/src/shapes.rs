//! The shape of a statement, where the per-statement accesses are not
//! enough to say what each target was computed from or how a container
//! changed: augmented assignment (in place or a rebinding, decided by the
//! object the run left bound), assignments whose targets each take a part of
//! the value (`a, *mid, last = xs`, `x, y = f(p), g(q)`, `lst = [x, y]`,
//! `d = {'k': v}`), and element operations on a list (`append`, `insert`,
//! `pop`, `del lst[i]`), which change some elements and not others
//! (NBSlicer's custom handlers, seed 004 §3).
//!
//! Parts are source ranges: a read of the statement belongs to the part
//! whose range holds it (reads outside every part, such as a subscript in
//! a target, belong to all of them).

use nbsight_dataflow::symbol::{ANY_INDEX, Symbol, constant_index, static_path};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange, TextSize};

/// What a list method or `del` does to the elements of a container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ElementOp {
    /// New elements at the end (`append`, `extend`): existing elements keep
    /// their values.
    Grow,
    /// A new element at this index, the later ones move up (`insert(i,
    /// v)`); `None`: an unknown index (every element may move).
    Insert(Option<i64>),
    /// The element at this index goes, the later ones move down (`pop(i)`,
    /// `del lst[i]`).
    Remove(Option<i64>),
    /// The last element goes (`pop()`).
    DropLast,
    /// The entry at a key that is not an integer goes (`del d['k']`,
    /// `d.pop('k')`): the other entries keep their values.
    DropKey(Symbol),
}

/// One target of an assignment and the part of the value it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Part {
    pub target: Symbol,
    /// Where the part of the value this target takes is.
    pub value: TextRange,
    /// The element of a path the target takes (`t[0]` in `x, y = t`).
    pub element: Option<Symbol>,
    /// The value is this path itself (`b = a`): the target may be bound to
    /// the same object.
    pub alias: Option<Symbol>,
    /// An assignment expression (`(x := f(y))`): an outer one takes the
    /// value of those nested in it.
    pub named: bool,
    /// A dict display's entry whose key is a name (`{k: v}`): the target
    /// ends in `[*]`, the key the run reads at this range (`keys.rs`).
    pub key: Option<TextRange>,
    /// The value is this element of what the call at `value` returns
    /// (`a, b = f()`, `t = f()[1]`).
    pub returned: Option<usize>,
    /// The value is a path through what a call returns (`a.b().c`,
    /// `f()[g()]`, `f()[2]`).
    pub through: Option<Through>,
}

/// A path through the object a call returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Through {
    /// Where the call starts.
    pub call: TextSize,
    pub trailer: Trailer,
}

/// The step taken from a call's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Trailer {
    /// `.c`
    Attribute(String),
    /// `[2]`, `['k']`
    Key(String),
    /// `[g()]`: the key the call starting there returns.
    CallKey(TextSize),
}

/// The path through a call's result `value` is (`a.b().c`, `f()[g()]`).
fn through(value: &Expr) -> Option<Through> {
    let (base, trailer) = match value {
        Expr::Attribute(a) => (&*a.value, Trailer::Attribute(a.attr.to_string())),
        Expr::Subscript(sub) => match &*sub.slice {
            Expr::Call(key) => (&*sub.value, Trailer::CallKey(key.range().start())),
            slice => (&*sub.value, Trailer::Key(constant_index(slice)?)),
        },
        _ => return None,
    };
    let Expr::Call(call) = base else {
        return None;
    };
    Some(Through {
        call: call.range().start(),
        trailer,
    })
}

impl Part {
    /// `target` takes the value at `value`, nothing more known.
    fn new(target: Symbol, value: TextRange) -> Part {
        Part {
            target,
            value,
            element: None,
            alias: None,
            named: false,
            key: None,
            returned: None,
            through: None,
        }
    }
}

/// What a statement's shape says beyond its accesses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `target op= value`.
    AugAssign { target: Symbol },
    /// Targets that each take a part of the value.
    Parts(Vec<Part>),
    /// An element operation on `container`.
    Elements { container: Symbol, op: ElementOp },
}

/// A call of a cell's module code, with the paths its arguments name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CallShape {
    /// Where the call starts.
    pub start: TextSize,
    /// The last name of what is called (`f` in `m.f(x)`).
    pub callee: Option<String>,
    /// The path a method is called on (`foo` in `foo.set_x(10)`).
    pub receiver: Option<Symbol>,
    /// Each positional argument's path, if it is one.
    pub args: Vec<Option<Symbol>>,
    /// Each keyword argument's name and path.
    pub keywords: Vec<(String, Option<Symbol>)>,
}

/// Every call of the module code of `body` (function and lambda bodies
/// left out), in source order.
pub(crate) fn calls(body: &[Stmt]) -> Vec<CallShape> {
    use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
    struct Finder(Vec<CallShape>);
    impl<'a> Visitor<'a> for Finder {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(def) => {
                    for decorator in &def.decorator_list {
                        self.visit_expr(&decorator.expression);
                    }
                }
                _ => walk_stmt(self, stmt),
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::Lambda(_) => {}
                Expr::Call(call) => {
                    let callee = match &*call.func {
                        Expr::Name(n) => Some(n.id.to_string()),
                        Expr::Attribute(a) => Some(a.attr.to_string()),
                        _ => None,
                    };
                    let receiver = match &*call.func {
                        Expr::Attribute(a) => static_path(&a.value),
                        _ => None,
                    };
                    self.0.push(CallShape {
                        start: call.range().start(),
                        callee,
                        receiver,
                        args: call.arguments.args.iter().map(static_path).collect(),
                        keywords: call
                            .arguments
                            .keywords
                            .iter()
                            .filter_map(|k| {
                                Some((k.arg.as_ref()?.to_string(), static_path(&k.value)))
                            })
                            .collect(),
                    });
                    walk_expr(self, expr);
                }
                _ => walk_expr(self, expr),
            }
        }
    }
    let mut finder = Finder(Vec::new());
    for stmt in body {
        finder.visit_stmt(stmt);
    }
    finder.0
}

/// The lambdas `body` binds to a name (`lam = lambda: f()`, at any depth
/// of its module code), each with the line the lambda starts on.
pub(crate) fn named_lambdas(
    body: &[Stmt],
    line_of: &dyn Fn(TextSize) -> u32,
) -> Vec<(u32, String)> {
    use ruff_python_ast::visitor::{Visitor, walk_stmt};
    struct Finder<'l> {
        line_of: &'l dyn Fn(TextSize) -> u32,
        found: Vec<(u32, String)>,
    }
    impl<'a> Visitor<'a> for Finder<'_> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
                Stmt::Assign(assign) => {
                    if let ([Expr::Name(name)], Expr::Lambda(lambda)) =
                        (assign.targets.as_slice(), &*assign.value)
                    {
                        self.found
                            .push(((self.line_of)(lambda.start()), name.id.to_string()));
                    }
                }
                _ => walk_stmt(self, stmt),
            }
        }
    }
    let mut finder = Finder {
        line_of,
        found: Vec::new(),
    };
    for stmt in body {
        finder.visit_stmt(stmt);
    }
    finder.found
}

/// The names each function of `body` loads in its own code, by line, keyed
/// by its qualified name as CPython spells it (`f`, `C.m`,
/// `f.<locals>.g`): with the lines a call ran, what it read on the branch
/// it took.
pub(crate) fn function_names(
    body: &[Stmt],
    line_of: &dyn Fn(TextSize) -> u32,
) -> Vec<(String, Vec<(u32, String)>)> {
    use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
    /// Names loaded by one function's own code (nested defs and lambdas
    /// left out: they are functions of their own).
    struct Names<'l> {
        line_of: &'l dyn Fn(TextSize) -> u32,
        out: Vec<(u32, String)>,
    }
    impl<'a> Visitor<'a> for Names<'_> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(def) => {
                    for d in &def.decorator_list {
                        self.visit_expr(&d.expression);
                    }
                    // Its name is bound here; its body is its own.
                }
                Stmt::ClassDef(_) => {}
                _ => walk_stmt(self, stmt),
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::Lambda(_) => {}
                Expr::Name(name) if name.ctx.is_load() => self
                    .out
                    .push(((self.line_of)(name.range.start()), name.id.to_string())),
                _ => walk_expr(self, expr),
            }
        }
    }
    functions(body)
        .into_iter()
        .map(|(name, def)| {
            let mut names = Names {
                line_of,
                out: Vec::new(),
            };
            for s in &def.body {
                names.visit_stmt(s);
            }
            (name, names.out)
        })
        .collect()
}

/// Every function `body` defines, at any depth (in compound statements,
/// class bodies and other functions), with its qualified name as CPython
/// spells it (`f`, `C.m`, `f.<locals>.g`); a function nested in another
/// comes before it.
pub(crate) fn functions(body: &[Stmt]) -> Vec<(String, &ast::StmtFunctionDef)> {
    fn walk<'a>(body: &'a [Stmt], prefix: &str, out: &mut Vec<(String, &'a ast::StmtFunctionDef)>) {
        for stmt in body {
            match stmt {
                Stmt::FunctionDef(def) => {
                    let name = format!("{prefix}{}", def.name);
                    walk(&def.body, &format!("{name}.<locals>."), out);
                    out.push((name, def));
                }
                Stmt::ClassDef(class) => {
                    walk(&class.body, &format!("{prefix}{}.", class.name), out)
                }
                Stmt::If(s) => {
                    walk(&s.body, prefix, out);
                    for c in &s.elif_else_clauses {
                        walk(&c.body, prefix, out);
                    }
                }
                Stmt::For(s) => {
                    walk(&s.body, prefix, out);
                    walk(&s.orelse, prefix, out);
                }
                Stmt::While(s) => {
                    walk(&s.body, prefix, out);
                    walk(&s.orelse, prefix, out);
                }
                Stmt::With(s) => walk(&s.body, prefix, out),
                Stmt::Try(s) => {
                    walk(&s.body, prefix, out);
                    for h in &s.handlers {
                        let ast::ExceptHandler::ExceptHandler(h) = h;
                        walk(&h.body, prefix, out);
                    }
                    walk(&s.orelse, prefix, out);
                    walk(&s.finalbody, prefix, out);
                }
                Stmt::Match(s) => {
                    for case in &s.cases {
                        walk(&case.body, prefix, out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(body, "", &mut out);
    out
}

/// Calls `f` on every statement of `body`'s module code, in source order:
/// a compound statement, then the statements of its blocks (function and
/// class bodies left out: they run in frames of their own).
pub(crate) fn each_statement<'a>(body: &'a [Stmt], f: &mut dyn FnMut(&'a Stmt)) {
    for stmt in body {
        f(stmt);
        let blocks: Vec<&'a [Stmt]> = match stmt {
            Stmt::If(s) => std::iter::once(s.body.as_slice())
                .chain(s.elif_else_clauses.iter().map(|c| c.body.as_slice()))
                .collect(),
            Stmt::For(s) => vec![&s.body, &s.orelse],
            Stmt::While(s) => vec![&s.body, &s.orelse],
            Stmt::With(s) => vec![&s.body],
            Stmt::Try(s) => std::iter::once(s.body.as_slice())
                .chain(s.handlers.iter().map(|h| {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    h.body.as_slice()
                }))
                .chain([s.orelse.as_slice(), s.finalbody.as_slice()])
                .collect(),
            Stmt::Match(s) => s.cases.iter().map(|c| c.body.as_slice()).collect(),
            _ => Vec::new(),
        };
        for block in blocks {
            each_statement(block, f);
        }
    }
}

/// The shapes of the statements of `body` (at any depth, function bodies
/// left out), each with the start of its range.
pub(crate) fn shapes(body: &[Stmt]) -> Vec<(TextSize, Shape)> {
    let mut out = Vec::new();
    collect(body, &mut out);
    out
}

fn collect(body: &[Stmt], out: &mut Vec<(TextSize, Shape)>) {
    each_statement(body, &mut |stmt| {
        let start = stmt.range().start();
        let named = named_parts(stmt);
        if !named.is_empty() {
            match out.iter_mut().find(|(at, _)| *at == start) {
                Some((_, Shape::Parts(parts))) => parts.extend(named),
                _ => out.push((start, Shape::Parts(named))),
            }
        }
        match stmt {
            Stmt::AugAssign(aug) => {
                if let Some(target) = static_path(&aug.target) {
                    out.push((start, Shape::AugAssign { target }));
                }
            }
            Stmt::Assign(assign) => {
                let mut parts = Vec::new();
                for target in &assign.targets {
                    split(target, &assign.value, &mut parts);
                }
                if !parts.is_empty() {
                    out.push((start, Shape::Parts(parts)));
                }
            }
            Stmt::AnnAssign(assign) => {
                if let Some(value) = &assign.value {
                    let mut parts = Vec::new();
                    split(&assign.target, value, &mut parts);
                    if !parts.is_empty() {
                        out.push((start, Shape::Parts(parts)));
                    }
                }
            }
            Stmt::Expr(e) => {
                if let Some(shape) = element_call(&e.value) {
                    out.push((start, shape));
                }
            }
            Stmt::Delete(del) => {
                if let [Expr::Subscript(sub)] = del.targets.as_slice()
                    && let Some(container) = static_path(&sub.value)
                {
                    out.push((
                        start,
                        Shape::Elements {
                            container,
                            op: removal(constant_index(&sub.slice)),
                        },
                    ));
                }
            }
            _ => {}
        }
    });
}

/// The assignment expressions of a statement's own code (a compound
/// statement's header; not function bodies, lambdas or nested blocks),
/// each binding its name to its value.
fn named_parts(stmt: &Stmt) -> Vec<Part> {
    use ruff_python_ast::visitor::{Visitor, walk_expr};
    struct Finder(Vec<Part>);
    impl<'a> Visitor<'a> for Finder {
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::Lambda(_) => {}
                Expr::Named(named) => {
                    if let Some(target) = static_path(&named.target) {
                        self.0.push(Part {
                            alias: static_path(&named.value),
                            named: true,
                            ..Part::new(target, named.value.range())
                        });
                    }
                    walk_expr(self, expr);
                }
                _ => walk_expr(self, expr),
            }
        }
    }
    let mut finder = Finder(Vec::new());
    let exprs: Vec<&Expr> = match stmt {
        Stmt::Expr(e) => vec![&e.value],
        Stmt::Assign(a) => vec![&a.value],
        Stmt::AugAssign(a) => vec![&a.value],
        Stmt::AnnAssign(a) => a.value.iter().map(|v| &**v).collect(),
        Stmt::Return(r) => r.value.iter().map(|v| &**v).collect(),
        Stmt::If(s) => {
            let mut tests = vec![&*s.test];
            tests.extend(s.elif_else_clauses.iter().filter_map(|c| c.test.as_ref()));
            tests
        }
        Stmt::While(s) => vec![&*s.test],
        Stmt::For(s) => vec![&*s.iter],
        Stmt::With(s) => s.items.iter().map(|i| &i.context_expr).collect(),
        _ => Vec::new(),
    };
    for e in exprs {
        finder.visit_expr(e);
    }
    finder.0
}

/// The parts `target = value` splits into: each name or path of a tuple
/// or list target takes its element of a display of the same length (a
/// starred target the elements it covers), and a display bound to a path
/// gives each element (a list's index, a dict's constant key) its own part.
fn split(target: &Expr, value: &Expr, parts: &mut Vec<Part>) {
    match target {
        Expr::Tuple(ast::ExprTuple { elts: targets, .. })
        | Expr::List(ast::ExprList { elts: targets, .. }) => {
            if let Expr::Call(_) = value
                && !targets.iter().any(Expr::is_starred_expr)
            {
                // `x, y = f()`: each target takes its element of what the
                // call returns.
                for (i, t) in targets.iter().enumerate() {
                    if let Some(path) = static_path(t) {
                        parts.push(Part {
                            returned: Some(i),
                            ..Part::new(path, value.range())
                        });
                    }
                }
                return;
            }
            let Some(values) = display_elements(value) else {
                // `x, y = t`: each target takes its element of the path.
                if let Some(source) = static_path(value)
                    && !targets.iter().any(Expr::is_starred_expr)
                {
                    for (i, t) in targets.iter().enumerate() {
                        if let Some(path) = static_path(t) {
                            parts.push(Part {
                                element: Some(Symbol::from(format!("{source}[{i}]"))),
                                ..Part::new(path, TextRange::empty(value.range().end()))
                            });
                        }
                    }
                }
                return;
            };
            let starred = targets.iter().position(Expr::is_starred_expr);
            if let Some(first_star) = values.iter().position(Expr::is_starred_expr) {
                // `s, *t = [a, b, *rest]`: the targets before the star take
                // their elements, the starred one the rest (its leading
                // elements known); any other shape is not split.
                let Some(at) = starred.filter(|&at| at + 1 == targets.len() && at <= first_star)
                else {
                    if starred.is_none() {
                        spread_parts(targets, values, first_star, parts);
                    }
                    return;
                };
                for (t, v) in targets[..at].iter().zip(values) {
                    split(t, v, parts);
                }
                starred_parts(
                    &targets[at],
                    &values[at..],
                    &values[at..first_star],
                    value,
                    parts,
                );
                return;
            }
            match starred {
                None if targets.len() == values.len() => {
                    for (t, v) in targets.iter().zip(values) {
                        split(t, v, parts);
                    }
                }
                Some(at) if values.len() + 1 >= targets.len() => {
                    let after = targets.len() - at - 1;
                    for (t, v) in targets[..at].iter().zip(values) {
                        split(t, v, parts);
                    }
                    let covered = &values[at..values.len() - after];
                    starred_parts(&targets[at], covered, covered, value, parts);
                    for (t, v) in targets[at + 1..]
                        .iter()
                        .zip(&values[values.len() - after..])
                    {
                        split(t, v, parts);
                    }
                }
                _ => {}
            }
        }
        _ => {
            let Some(path) = static_path(target) else {
                return;
            };
            // `t = f()[1]`: the element of what the call returns.
            let returned = match value {
                Expr::Subscript(sub) if sub.value.is_call_expr() => {
                    constant_index(&sub.slice).and_then(|k| k.parse::<usize>().ok())
                }
                _ => None,
            };
            parts.push(Part {
                alias: static_path(value),
                returned,
                through: through(value),
                ..Part::new(path.clone(), value.range())
            });
            elements(&path, value, parts);
        }
    }
}

/// The parts of `a, b, c = [x, *rest, y]`, a display with one starred
/// path (at `star`) unpacked into as many plain targets: those before and
/// after it take their own values, those it covers each take their
/// element of the path (`b` takes `rest[0]`).
fn spread_parts(targets: &[Expr], values: &[Expr], star: usize, parts: &mut Vec<Part>) {
    let after = values.len() - star - 1;
    let Expr::Starred(spread) = &values[star] else {
        return;
    };
    let Some(source) = static_path(&spread.value) else {
        return;
    };
    if values[star + 1..].iter().any(Expr::is_starred_expr) || targets.len() < star + after {
        return;
    }
    for (t, v) in targets[..star].iter().zip(values) {
        split(t, v, parts);
    }
    let covered = targets.len() - after;
    for (k, t) in targets[star..covered].iter().enumerate() {
        if let Some(path) = static_path(t) {
            parts.push(Part {
                element: Some(Symbol::from(format!("{source}[{k}]"))),
                ..Part::new(path, spread.range())
            });
        }
    }
    for (t, v) in targets[covered..].iter().zip(&values[star + 1..]) {
        split(t, v, parts);
    }
}

/// The part a starred target (`*rest`) takes: the values it covers, and
/// each of `known` (its leading elements whose positions are known) as its
/// element.
fn starred_parts(
    target: &Expr,
    covered: &[Expr],
    known: &[Expr],
    value: &Expr,
    parts: &mut Vec<Part>,
) {
    let Expr::Starred(star) = target else {
        return;
    };
    let Some(path) = static_path(&star.value) else {
        return;
    };
    let range = match (covered.first(), covered.last()) {
        (Some(first), Some(last)) => TextRange::new(first.range().start(), last.range().end()),
        _ => TextRange::empty(value.range().end()),
    };
    parts.push(Part::new(path.clone(), range));
    for (k, v) in known.iter().enumerate() {
        parts.push(Part {
            alias: static_path(v),
            ..Part::new(Symbol::from(format!("{path}[{k}]")), v.range())
        });
    }
}

/// Each element of a list, tuple or dict display bound to `path`, as a
/// part of its own (`path[0]`, `path['k']`), nested displays too.
fn elements(path: &str, value: &Expr, parts: &mut Vec<Part>) {
    match value {
        Expr::List(ast::ExprList { elts, .. }) | Expr::Tuple(ast::ExprTuple { elts, .. }) => {
            if elts.iter().any(Expr::is_starred_expr) {
                return;
            }
            for (i, element) in elts.iter().enumerate() {
                let target = Symbol::from(format!("{path}[{i}]"));
                parts.push(Part {
                    alias: static_path(element),
                    ..Part::new(target.clone(), element.range())
                });
                elements(&target, element, parts);
            }
        }
        Expr::Dict(dict) => {
            for item in &dict.items {
                let (index, key) = match item.key.as_ref() {
                    Some(Expr::Name(name)) => (ANY_INDEX.to_string(), Some(name.range())),
                    Some(key) => match constant_index(key) {
                        Some(index) => (format!("[{index}]"), None),
                        None => continue,
                    },
                    None => continue,
                };
                let target = Symbol::from(format!("{path}{index}"));
                parts.push(Part {
                    alias: static_path(&item.value),
                    key,
                    ..Part::new(target.clone(), item.value.range())
                });
                if key.is_some() {
                    continue;
                }
                elements(&target, &item.value, parts);
            }
        }
        _ => {}
    }
}

/// The elements of a tuple or list display.
fn display_elements(value: &Expr) -> Option<&[Expr]> {
    match value {
        Expr::Tuple(t) => Some(&t.elts),
        Expr::List(l) => Some(&l.elts),
        _ => None,
    }
}

/// Removing the element at a constant index or key (`None`: not a
/// constant).
fn removal(index: Option<String>) -> ElementOp {
    match index {
        Some(i) => match i.parse::<i64>() {
            Ok(i) => ElementOp::Remove(Some(i)),
            Err(_) => ElementOp::DropKey(Symbol::from(i)),
        },
        None => ElementOp::Remove(None),
    }
}

/// `lst.append(v)`, `lst.extend(vs)`, `lst.insert(i, v)`, `lst.pop(i)`.
fn element_call(value: &Expr) -> Option<Shape> {
    let Expr::Call(call) = value else {
        return None;
    };
    let Expr::Attribute(method) = &*call.func else {
        return None;
    };
    let container = static_path(&method.value)?;
    let args = &call.arguments.args;
    let literal = |e: Option<&Expr>| {
        e.and_then(constant_index)
            .and_then(|i| i.parse::<i64>().ok())
    };
    let op = match (method.attr.as_str(), args.len()) {
        ("append" | "extend", 1) => ElementOp::Grow,
        ("insert", 2) => ElementOp::Insert(literal(args.first())),
        ("pop", 0) => ElementOp::DropLast,
        ("pop", 1 | 2) => removal(args.first().and_then(constant_index)),
        // Where the value is only the run knows (`keys.rs`).
        ("remove", 1) => ElementOp::Remove(None),
        _ => return None,
    };
    if !call.arguments.keywords.is_empty() {
        return None;
    }
    Some(Shape::Elements { container, op })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_notebook::parse_python;

    fn of(source: &str) -> Vec<Shape> {
        let parsed = parse_python(source);
        shapes(&parsed.module.body)
            .into_iter()
            .map(|(_, s)| s)
            .collect()
    }

    fn targets(source: &str) -> Vec<String> {
        match of(source).as_slice() {
            [Shape::Parts(parts)] => parts.iter().map(|p| p.target.to_string()).collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unpacking_gives_each_target_its_part() {
        assert_eq!(targets("x, y = f(p), g(q)"), ["x", "y"]);
        assert_eq!(
            targets("a, *mid, last = 1, 2, 3, 4"),
            ["a", "mid", "mid[0]", "mid[1]", "last"]
        );
        assert_eq!(
            targets("s, *t = [x, y, z, *lst]"),
            ["s", "t", "t[0]", "t[1]"]
        );
        // A spread path: the targets it covers take its elements.
        let spread = match of("a, b, c, d = [x, *lst, y]").as_slice() {
            [Shape::Parts(parts)] => parts
                .iter()
                .map(|p| {
                    (
                        p.target.to_string(),
                        p.element.as_ref().map(|e| e.to_string()),
                    )
                })
                .collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            spread,
            [
                ("a".into(), None),
                ("b".into(), Some("lst[0]".into())),
                ("c".into(), Some("lst[1]".into())),
                ("d".into(), None)
            ]
        );
        assert!(of("a, b = [*xs, *ys]").is_empty());
        assert_eq!(targets("lst = [x, y]"), ["lst", "lst[0]", "lst[1]"]);
        assert_eq!(targets("d = {'k': v, 'j': w}"), ["d", "d['k']", "d['j']"]);
        // A path: each target takes its element.
        assert_eq!(targets("x, y = t"), ["x", "y"]);
        // A call: each target takes its element of what it returns.
        match of("x, y = f()").as_slice() {
            [Shape::Parts(parts)] => assert_eq!(
                parts.iter().map(|p| p.returned).collect::<Vec<_>>(),
                [Some(0), Some(1)]
            ),
            other => panic!("{other:?}"),
        }
        // Any other value: no parts.
        assert!(of("x, y = a + b").is_empty());
    }

    #[test]
    fn a_path_through_a_calls_result() {
        let trailer = |source: &str| match of(source).as_slice() {
            [Shape::Parts(parts)] => parts[0].through.as_ref().map(|t| t.trailer.clone()),
            other => panic!("{other:?}"),
        };
        assert_eq!(trailer("s = a.b().c"), Some(Trailer::Attribute("c".into())));
        assert_eq!(trailer("x = f()[2]"), Some(Trailer::Key("2".into())));
        assert!(matches!(trailer("x = f()[g()]"), Some(Trailer::CallKey(_))));
        assert_eq!(trailer("x = a.b.c"), None);
    }

    #[test]
    fn augmented_assignment_and_element_operations() {
        assert_eq!(of("b += [3]"), [Shape::AugAssign { target: "b".into() }]);
        assert_eq!(
            of("lst.insert(0, 5)"),
            [Shape::Elements {
                container: "lst".into(),
                op: ElementOp::Insert(Some(0))
            }]
        );
        assert_eq!(
            of("lst.append(5)"),
            [Shape::Elements {
                container: "lst".into(),
                op: ElementOp::Grow
            }]
        );
        assert_eq!(
            of("del lst[2]"),
            [Shape::Elements {
                container: "lst".into(),
                op: ElementOp::Remove(Some(2))
            }]
        );
    }
}
