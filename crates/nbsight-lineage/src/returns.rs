//! What a user function's result is computed from: the names whose values
//! flow into its `return` statements through its own code (a local's
//! assignments, the tests guarding them, the objects changed in place on
//! the way, a nested function it calls), as opposed to every name its body
//! reads. A global it only prints, or uses for a local that never reaches
//! the result, is read by the call but is no parent of what the call
//! returns (ipyflow's dynamic slicing of a call).
//!
//! Flow-insensitive within the function (an assignment anywhere in its
//! body may reach a return), so a name is left out only when no path of
//! assignments joins it to a returned value. `__init__` gives the object it
//! sets up (its first parameter). A generator, or a function declaring
//! `global` or `nonlocal`, is not narrowed (`None`).

use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{self as ast, Expr, Stmt};
use rustc_hash::FxHashSet;

/// One statement of a function's own code.
#[derive(Default)]
struct Unit {
    /// Names it binds, or whose objects it changes (`lst.append(x)`,
    /// `d[k] = v`).
    defines: Vec<String>,
    /// Names it loads, with those of the headers it is nested in.
    uses: Vec<String>,
    /// A `return`.
    returns: bool,
    /// The nested functions whose definition it is (their results are
    /// what calling them gives).
    nested: Vec<String>,
    /// `(name, attribute)` of each `name.attribute = ...` it stores.
    attribute_stores: Vec<(String, String)>,
    /// `(name, attribute)` of each `name.attribute` it loads.
    attribute_loads: Vec<(String, String)>,
    /// A `return` of a tuple or list display (`return a, b`): the names
    /// each element loads.
    returned: Option<Vec<Vec<String>>>,
    /// A `return` of a path (`return lst`, `return self.inner`) or of an
    /// integer or string constant (`return 2`): the path, or the key the
    /// constant spells (`2`, `'k'`).
    returned_path: Option<String>,
    returned_constant: Option<String>,
    /// The names the headers around it load.
    controls: Vec<String>,
}

/// The names a function's own code loads and stores in one statement.
#[derive(Default)]
struct Names {
    loads: Vec<String>,
    stores: Vec<String>,
    /// A `yield` or `await`-less generator marker.
    yields: bool,
    attribute_stores: Vec<(String, String)>,
    attribute_loads: Vec<(String, String)>,
}

impl<'a> Visitor<'a> for Names {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        walk_stmt(self, stmt);
    }
    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            // Their bodies are their own; what they close over is loaded
            // when they run.
            Expr::Lambda(lambda) => {
                // Its defaults are evaluated here.
                if let Some(parameters) = &lambda.parameters {
                    for p in parameters.iter_non_variadic_params() {
                        if let Some(default) = &p.default {
                            self.visit_expr(default);
                        }
                    }
                }
                let mut inner = Names::default();
                inner.visit_expr(&lambda.body);
                self.loads.extend(inner.loads);
            }
            Expr::Yield(_) | Expr::YieldFrom(_) => {
                self.yields = true;
                walk_expr(self, expr);
            }
            Expr::Name(name) => {
                if name.ctx.is_load() {
                    self.loads.push(name.id.to_string());
                } else {
                    self.stores.push(name.id.to_string());
                }
            }
            // Storing into `a.x` or `a[k]` changes `a`; a method call
            // may change its receiver.
            Expr::Attribute(a) if !a.ctx.is_load() => {
                if let Some(root) = root_name(&a.value) {
                    if let Expr::Name(n) = &*a.value {
                        self.attribute_stores
                            .push((n.id.to_string(), a.attr.to_string()));
                    }
                    self.stores.push(root);
                }
                walk_expr(self, expr);
            }
            Expr::Attribute(a) => {
                if let Expr::Name(n) = &*a.value {
                    self.attribute_loads
                        .push((n.id.to_string(), a.attr.to_string()));
                }
                walk_expr(self, expr);
            }
            Expr::Subscript(s) if !s.ctx.is_load() => {
                if let Some(root) = root_name(&s.value) {
                    self.stores.push(root);
                }
                walk_expr(self, expr);
            }
            Expr::Call(call) => {
                if let Expr::Attribute(a) = &*call.func
                    && let Some(root) = root_name(&a.value)
                {
                    self.stores.push(root);
                }
                walk_expr(self, expr);
            }
            _ => walk_expr(self, expr),
        }
    }
}

/// The name a chain of attributes and subscripts starts from.
fn root_name(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Name(n) => Some(n.id.to_string()),
        Expr::Attribute(a) => root_name(&a.value),
        Expr::Subscript(s) => root_name(&s.value),
        _ => None,
    }
}

/// The units of `body` (a function's own code), with `controls` the names
/// the headers around it load. `None`: the function is not narrowed.
fn units(body: &[Stmt], controls: &[String], out: &mut Vec<Unit>) -> Option<()> {
    for stmt in body {
        let header = |exprs: &[&Expr]| {
            let mut names = Names::default();
            for e in exprs {
                names.visit_expr(e);
            }
            names
        };
        // A compound statement's header: a unit binding what it binds (a
        // loop's target, `as` names); the bodies run under its names.
        let nested = |out: &mut Vec<Unit>, bodies: &[&[Stmt]], more: Names| -> Option<()> {
            if more.yields {
                return None;
            }
            let mut controls = controls.to_vec();
            controls.extend(more.loads);
            out.push(Unit {
                defines: more.stores,
                uses: controls.clone(),
                attribute_stores: more.attribute_stores,
                attribute_loads: more.attribute_loads,
                ..Unit::default()
            });
            for inner in bodies {
                units(inner, &controls, out)?;
            }
            Some(())
        };
        match stmt {
            Stmt::Global(_) | Stmt::Nonlocal(_) => return None,
            Stmt::FunctionDef(def) => {
                let mut names = Names::default();
                for d in &def.decorator_list {
                    names.visit_expr(&d.expression);
                }
                for p in def.parameters.iter_non_variadic_params() {
                    if let Some(default) = &p.default {
                        names.visit_expr(default);
                    }
                }
                out.push(Unit {
                    defines: vec![def.name.to_string()],
                    uses: names
                        .loads
                        .into_iter()
                        .chain(controls.iter().cloned())
                        .collect(),
                    nested: vec![def.name.to_string()],
                    ..Unit::default()
                });
            }
            Stmt::ClassDef(class) => {
                // A class body runs here: every name it loads may make it.
                let mut names = Names::default();
                for s in &class.body {
                    names.visit_stmt(s);
                }
                out.push(Unit {
                    defines: vec![class.name.to_string()],
                    uses: names
                        .loads
                        .into_iter()
                        .chain(controls.iter().cloned())
                        .collect(),
                    ..Unit::default()
                });
            }
            Stmt::If(s) => {
                let mut tests: Vec<&Expr> = vec![&s.test];
                tests.extend(s.elif_else_clauses.iter().filter_map(|c| c.test.as_ref()));
                let mut bodies: Vec<&[Stmt]> = vec![&s.body];
                bodies.extend(s.elif_else_clauses.iter().map(|c| c.body.as_slice()));
                nested(out, &bodies, header(&tests))?;
            }
            Stmt::For(s) => {
                let mut names = header(&[&s.iter]);
                let mut target = Names::default();
                target.visit_expr(&s.target);
                names.stores.extend(target.stores);
                names.stores.extend(target.loads);
                nested(out, &[&s.body, &s.orelse], names)?;
            }
            Stmt::While(s) => nested(out, &[&s.body, &s.orelse], header(&[&s.test]))?,
            Stmt::With(s) => {
                let mut names = Names::default();
                for item in &s.items {
                    names.visit_expr(&item.context_expr);
                    if let Some(v) = &item.optional_vars {
                        let mut target = Names::default();
                        target.visit_expr(v);
                        names.stores.extend(target.stores);
                        names.stores.extend(target.loads);
                    }
                }
                nested(out, &[&s.body], names)?;
            }
            Stmt::Try(s) => {
                units(&s.body, controls, out)?;
                for h in &s.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    units(&h.body, controls, out)?;
                }
                units(&s.orelse, controls, out)?;
                units(&s.finalbody, controls, out)?;
            }
            Stmt::Match(s) => {
                let bodies: Vec<&[Stmt]> = s.cases.iter().map(|c| c.body.as_slice()).collect();
                nested(out, &bodies, header(&[&s.subject]))?;
            }
            _ => {
                let mut names = Names::default();
                names.visit_stmt(stmt);
                if names.yields {
                    return None;
                }
                let returns = matches!(stmt, Stmt::Return(_));
                let returned = match stmt {
                    Stmt::Return(ast::StmtReturn {
                        value: Some(value), ..
                    }) => match &**value {
                        Expr::Tuple(ast::ExprTuple { elts, .. })
                        | Expr::List(ast::ExprList { elts, .. })
                            if !elts.iter().any(Expr::is_starred_expr) =>
                        {
                            Some(
                                elts.iter()
                                    .map(|e| {
                                        let mut names = Names::default();
                                        names.visit_expr(e);
                                        names.loads
                                    })
                                    .collect(),
                            )
                        }
                        _ => None,
                    },
                    _ => None,
                };
                // `x += v` loads its target too.
                if let Stmt::AugAssign(aug) = stmt
                    && let Some(root) = root_name(&aug.target)
                {
                    names.loads.push(root);
                }
                out.push(Unit {
                    defines: names.stores,
                    uses: names
                        .loads
                        .into_iter()
                        .chain(controls.iter().cloned())
                        .collect(),
                    returns,
                    nested: Vec::new(),
                    attribute_stores: names.attribute_stores,
                    attribute_loads: names.attribute_loads,
                    returned,
                    returned_path: match stmt {
                        Stmt::Return(ast::StmtReturn { value: Some(v), .. }) => {
                            nbsight_dataflow::symbol::static_path(v).map(|p| p.to_string())
                        }
                        _ => None,
                    },
                    returned_constant: match stmt {
                        Stmt::Return(ast::StmtReturn { value: Some(v), .. }) => {
                            nbsight_dataflow::symbol::constant_index(v)
                        }
                        _ => None,
                    },
                    controls: controls.to_vec(),
                });
            }
        }
    }
    Some(())
}

/// The names the result of the function with body `body` is computed
/// from; `nested_values` gives those of a function nested in it by name.
fn value_names(
    body: &[Stmt],
    result: Option<&str>,
    nested_values: &dyn Fn(&str) -> Option<Vec<String>>,
) -> Option<Vec<String>> {
    let mut all = Vec::new();
    units(body, &[], &mut all)?;
    let mut needed: FxHashSet<String> = FxHashSet::default();
    needed.extend(result.map(str::to_string));
    for unit in all.iter().filter(|u| u.returns) {
        needed.extend(unit.uses.iter().cloned());
    }
    close(&all, needed, nested_values)
}

/// When every `return` of the function with body `body` returns a display
/// of one length (`return a, b`), the names each element is computed from
/// (with the tests guarding the returns).
fn element_names(
    body: &[Stmt],
    nested_values: &dyn Fn(&str) -> Option<Vec<String>>,
) -> Option<Vec<Vec<String>>> {
    let mut all = Vec::new();
    units(body, &[], &mut all)?;
    let returns: Vec<&Unit> = all.iter().filter(|u| u.returns).collect();
    let length = returns.first()?.returned.as_ref()?.len();
    let mut elements: Vec<Vec<String>> = Vec::with_capacity(length);
    for i in 0..length {
        let mut needed: FxHashSet<String> = FxHashSet::default();
        for unit in &returns {
            let returned = unit.returned.as_ref().filter(|r| r.len() == length)?;
            needed.extend(returned[i].iter().cloned());
            needed.extend(unit.controls.iter().cloned());
        }
        elements.push(close(&all, needed, nested_values)?);
    }
    Some(elements)
}

/// `needed` and every name the units that define one of them use, to a
/// fixed point (sorted); `None` when a nested function they define is not
/// narrowed.
fn close(
    all: &[Unit],
    mut needed: FxHashSet<String>,
    nested_values: &dyn Fn(&str) -> Option<Vec<String>>,
) -> Option<Vec<String>> {
    loop {
        let before = needed.len();
        for unit in all {
            if unit.defines.iter().any(|d| needed.contains(d)) {
                needed.extend(unit.uses.iter().cloned());
                for f in &unit.nested {
                    needed.extend(nested_values(f)?);
                }
            }
        }
        if needed.len() == before {
            break;
        }
    }
    let mut names: Vec<String> = needed.into_iter().collect();
    names.sort_unstable();
    Some(names)
}

/// What a function's result is computed from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ResultNames {
    /// The names its result is computed from (`None`: not narrowed).
    pub values: Option<Vec<String>>,
    /// Every `return` gives a display of one length (`return a, b`): the
    /// names each element is computed from.
    pub elements: Option<Vec<Vec<String>>>,
    /// Every `return` gives the object at one path (`return lst`, `return
    /// self.inner`).
    pub path: Option<ResultPath>,
    /// Every `return` gives one integer or string constant, as a key
    /// spells it (`2`, `'k'`).
    pub constant: Option<String>,
}

/// The object a function returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ResultPath {
    /// The object at a global path (`lst`, `cfg.items`).
    Global(String),
    /// The object at a path below the object a method was called on
    /// (`.inner` for `return self.inner`).
    Receiver(String),
}

/// What every `return` of the function with body `body` and parameters
/// `params` (the first one, `receiver`, for a method) gives, when it is one
/// path or one constant.
fn returned(
    body: &[Stmt],
    params: &[&str],
    receiver: Option<&str>,
) -> (Option<ResultPath>, Option<String>) {
    let mut all = Vec::new();
    if units(body, &[], &mut all).is_none() {
        return (None, None);
    }
    let returns: Vec<&Unit> = all.iter().filter(|u| u.returns).collect();
    let same = |get: &dyn Fn(&Unit) -> Option<&String>| -> Option<String> {
        let first = get(returns.first()?)?;
        returns
            .iter()
            .all(|u| get(u) == Some(first))
            .then(|| first.clone())
    };
    let path = same(&|u: &Unit| u.returned_path.as_ref()).and_then(|path| {
        let name = nbsight_dataflow::symbol::root(&path);
        if Some(name) == receiver {
            return Some(ResultPath::Receiver(path[name.len()..].to_string()));
        }
        let local =
            params.contains(&name) || all.iter().any(|u| u.defines.iter().any(|d| d == name));
        (!local).then(|| ResultPath::Global(path.clone()))
    });
    (path, same(&|u: &Unit| u.returned_constant.as_ref()))
}

/// For each function of `body` (at any depth, by CPython's qualified name:
/// `f`, `C.m`, `f.<locals>.g`), what its result is computed from.
pub(crate) fn function_values(body: &[Stmt]) -> Vec<(String, ResultNames)> {
    let mut out: Vec<(String, ResultNames)> = Vec::new();
    // Nested functions come first: the outer one may call them.
    for (name, def) in crate::shapes::functions(body) {
        let inner = format!("{name}.<locals>.");
        let lookup = |f: &str| -> Option<Vec<String>> {
            let qualname = format!("{inner}{f}");
            out.iter()
                .find(|(n, _)| *n == qualname)
                .and_then(|(_, v)| v.values.clone())
        };
        // What `__init__` gives is the object it sets up.
        let result = (def.name.as_str() == "__init__")
            .then(|| def.parameters.iter_non_variadic_params().next())
            .flatten()
            .map(|p| p.parameter.name.as_str());
        let names = if def.is_async {
            ResultNames::default()
        } else {
            let params: Vec<&str> = def.parameters.iter().map(|p| p.name().as_str()).collect();
            // A method's first parameter is the object it was called on.
            let receiver = (name.contains('.') && !name.contains("<locals>"))
                .then(|| params.first().copied())
                .flatten();
            let (path, constant) = returned(&def.body, &params, receiver);
            ResultNames {
                values: value_names(&def.body, result, &lookup),
                elements: element_names(&def.body, &lookup),
                path,
                constant,
            }
        };
        out.push((name, names));
    }
    out
}

/// What `__init__` (with body `body` and first parameter `receiver`)
/// sets on the object, when its own code changes the object only by
/// storing attributes (`self.x = v`, `self.n += 1`): each attribute with the
/// names its value is computed from (another attribute it loads gives
/// its names too). `None` otherwise (a method called on the object, an
/// element or a nested attribute stored, a nested function).
fn attribute_names(body: &[Stmt], receiver: &str) -> Option<AttributeNames> {
    let mut all = Vec::new();
    units(body, &[], &mut all)?;
    let mut attributes: Vec<&str> = Vec::new();
    for unit in &all {
        let mine: Vec<&str> = unit
            .attribute_stores
            .iter()
            .filter(|(r, _)| r == receiver)
            .map(|(_, a)| a.as_str())
            .collect();
        let changes = unit.defines.iter().filter(|d| *d == receiver).count();
        if changes != mine.len() || !unit.nested.is_empty() {
            return None;
        }
        attributes.extend(mine);
    }
    attributes.sort_unstable();
    attributes.dedup();
    let out = attributes
        .iter()
        .map(|&attribute| {
            let mut names: FxHashSet<&str> = FxHashSet::default();
            let mut wanted: FxHashSet<&str> = FxHashSet::from_iter([attribute]);
            loop {
                let before = (names.len(), wanted.len());
                for unit in &all {
                    let sets_wanted = unit
                        .attribute_stores
                        .iter()
                        .any(|(r, a)| r == receiver && wanted.contains(a.as_str()));
                    let defines_wanted = unit
                        .defines
                        .iter()
                        .any(|d| d != receiver && names.contains(d.as_str()));
                    if sets_wanted || defines_wanted {
                        names.extend(unit.uses.iter().map(String::as_str));
                        wanted.extend(
                            unit.attribute_loads
                                .iter()
                                .filter(|(r, _)| r == receiver)
                                .map(|(_, a)| a.as_str()),
                        );
                    }
                }
                if (names.len(), wanted.len()) == before {
                    break;
                }
            }
            names.remove(receiver);
            let mut names: Vec<String> = names.into_iter().map(str::to_string).collect();
            names.sort_unstable();
            (attribute.to_string(), names)
        })
        .collect();
    Some(out)
}

/// Each attribute an `__init__` sets, with the names its value is
/// computed from.
pub(crate) type AttributeNames = Vec<(String, Vec<String>)>;

/// For each `__init__` of `body` (at any depth, by CPython's qualified
/// name) that only stores attributes on the object it sets up, what each
/// attribute is computed from ([`attribute_names`]).
pub(crate) fn init_attributes(body: &[Stmt]) -> Vec<(String, AttributeNames)> {
    crate::shapes::functions(body)
        .into_iter()
        .filter(|(_, def)| def.name.as_str() == "__init__" && !def.is_async)
        .filter_map(|(name, def)| {
            let receiver = def.parameters.iter_non_variadic_params().next()?;
            let attributes = attribute_names(&def.body, receiver.parameter.name.as_str())?;
            Some((name, attributes))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_notebook::parse_python;

    fn values(source: &str, function: &str) -> Option<Vec<String>> {
        let parsed = parse_python(source);
        function_values(&parsed.module.body)
            .into_iter()
            .find(|(n, _)| n == function)
            .and_then(|(_, v)| v.values)
    }

    #[test]
    fn printed_and_dead_names_are_not_in_the_result() {
        let f = "def func(x, y=a):\n    print(b[0])\n    e = [c[0] + d[0]]\n    f = [x[0] + y[0]]\n    return f";
        assert_eq!(
            values(f, "func"),
            Some(vec!["f".into(), "x".into(), "y".into()])
        );
    }

    #[test]
    fn tests_guarding_a_return_and_changes_in_place_are() {
        let f = "def g():\n    out = []\n    for v in xs:\n        if v > k:\n            out.append(v * s)\n    print(p)\n    return out";
        let names = values(f, "g").expect("narrowed");
        for n in ["out", "xs", "v", "k", "s"] {
            assert!(names.contains(&n.to_string()), "{n} in {names:?}");
        }
        assert!(!names.contains(&"p".to_string()));
    }

    #[test]
    fn a_nested_function_called_for_the_result_gives_its_names() {
        let f = "def f():\n    def g():\n        print(a)\n        return x\n    return g()";
        let names = values(f, "f").expect("narrowed");
        assert!(
            names.contains(&"x".to_string()) && !names.contains(&"a".to_string()),
            "{names:?}"
        );
    }

    #[test]
    fn a_returned_lambdas_defaults_are_in_the_result() {
        let f = "def foo(x):\n    lam = lambda t=w: t + x + 5\n    return lam";
        let names = values(f, "foo").expect("narrowed");
        assert!(names.contains(&"w".to_string()), "{names:?}");
    }

    #[test]
    fn what_init_sets_on_self_is_in_the_result() {
        let f = "class Foo:\n    def __init__(self):\n        self.y = y\n        print(p)";
        let names = values(f, "Foo.__init__").expect("narrowed");
        assert!(
            names.contains(&"y".to_string()) && !names.contains(&"p".to_string()),
            "{names:?}"
        );
    }

    #[test]
    fn each_attribute_init_sets_has_its_own_names() {
        let source = "class Foo:\n    def __init__(self, a):\n        self.x = 10\n        t = y * 2\n        self.y = t\n        self.z = self.y + a\n        print(p)";
        let parsed = parse_python(source);
        let found = init_attributes(&parsed.module.body);
        let [(name, attributes)] = found.as_slice() else {
            panic!("{found:?}")
        };
        assert_eq!(name, "Foo.__init__");
        let of = |a: &str| {
            attributes
                .iter()
                .find(|(n, _)| n == a)
                .map(|(_, names)| names.clone())
                .unwrap_or_default()
        };
        assert!(of("x").is_empty(), "{attributes:?}");
        assert_eq!(of("y"), ["t", "y"]);
        assert_eq!(of("z"), ["a", "t", "y"]);
        // A method called on the object may set anything: not narrowed.
        let parsed = parse_python(
            "class Foo:\n    def __init__(self):\n        self.setup(y)\n        self.x = 1",
        );
        assert!(init_attributes(&parsed.module.body).is_empty());
    }

    #[test]
    fn each_element_of_a_returned_display_has_its_own_names() {
        let source = "def foo(p):\n    t = b * 2\n    if k:\n        return a, t\n    return p, t";
        let parsed = parse_python(source);
        let found = function_values(&parsed.module.body);
        let elements = found[0].1.elements.clone().expect("a display");
        assert_eq!(elements, [vec!["a", "k", "p"], vec!["b", "k", "t"]]);
        let parsed = parse_python("def foo():\n    if k:\n        return a, b\n    return c");
        assert_eq!(function_values(&parsed.module.body)[0].1.elements, None);
    }

    #[test]
    fn a_returned_path_or_constant_is_known() {
        let source = "def f():\n    return lst\ndef g():\n    return 2\nclass A:\n    def b(self):\n        return self.inner\ndef h(p):\n    if p:\n        return lst\n    return p";
        let parsed = parse_python(source);
        let found = function_values(&parsed.module.body);
        let of = |name: &str| {
            found
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, r)| (r.path.clone(), r.constant.clone()))
                .expect("a function")
        };
        assert_eq!(of("f"), (Some(ResultPath::Global("lst".into())), None));
        assert_eq!(of("g"), (None, Some("2".into())));
        assert_eq!(
            of("A.b"),
            (Some(ResultPath::Receiver(".inner".into())), None)
        );
        assert_eq!(of("h"), (None, None));
    }

    #[test]
    fn generators_and_global_writers_are_not_narrowed() {
        assert_eq!(values("def f():\n    yield a", "f"), None);
        assert_eq!(
            values("def f():\n    global a\n    a = 1\n    return b", "f"),
            None
        );
    }
}
