//! Classes of the notebook the replay follows: a class whose body only
//! defines plain methods and binds class attributes (no decorator, base
//! class or metaclass) is an object whose parts are its methods and
//! attributes; calling it makes an instance whose parts are its attributes,
//! on which `__init__` is replayed; a method called on an instance is
//! replayed with the instance as `self` (the recorder logs the calls of
//! methods as of any function of the cell). So `cart.total()` depends on
//! what `total` reads of `cart`, not on every argument the instance was
//! made or changed with. Any other class stays an object of the cell that
//! defined it (`mod.rs`): a call of it depends on all its arguments.

use ruff_python_ast::{self as ast, Expr, Stmt};

use super::super::value::{Body, Deps, ObjectKind, Value};
use super::{Mode, R, Replay};

/// The part of an instance that holds its class.
const CLASS: &str = "<class>";

impl Replay<'_> {
    /// The class `c` defines, when the replay follows it (`None`: it is
    /// left to the caller as an object of the cell).
    pub(super) fn class_of(&mut self, c: &ast::StmtClassDef) -> R<Option<Value>> {
        let plain = c.decorator_list.is_empty()
            && c.type_params.is_none()
            && c.arguments.as_ref().is_none_or(|a| a.is_empty())
            && c.body.iter().all(|stmt| match stmt {
                Stmt::FunctionDef(f) => f.decorator_list.is_empty() && !f.is_async,
                // Data only: a value computed in the class body may read
                // its earlier names, a call may make a descriptor
                // (`property(get)`).
                Stmt::Assign(a) => {
                    matches!(a.targets.as_slice(), [Expr::Name(_)]) && literal(&a.value)
                }
                Stmt::Pass(_) => true,
                Stmt::Expr(e) => matches!(&*e.value, Expr::StringLiteral(_)),
                _ => false,
            });
        if !plain {
            return Ok(None);
        }
        let mut parts = Vec::new();
        for stmt in &c.body {
            match stmt {
                Stmt::FunctionDef(f) => {
                    let method = self.function_def(f, super::opaque::yields(&f.body))?;
                    parts.push((format!(".{}", f.name), method));
                }
                Stmt::Assign(a) => {
                    let [Expr::Name(n)] = a.targets.as_slice() else {
                        continue;
                    };
                    // A class attribute bound to a literal is data, named
                    // by its path (`Cart.rate`).
                    let value = self.eval(&a.value, Mode::Bound)?;
                    self.state
                        .inputs
                        .name(&value, &format!("{}.{}", c.name, n.id), &self.cell);
                    parts.push((format!(".{}", n.id), value));
                }
                _ => {}
            }
        }
        let class = Value::object(Deps::default(), None);
        if let Value::Object(o) = &class {
            let mut o = o.borrow_mut();
            o.kind = ObjectKind::Class;
            o.parts = parts;
        }
        Ok(Some(class))
    }

    /// `class(args)` of a class the replay follows: a new instance, on
    /// which `__init__` (when the class has one) is replayed.
    pub(super) fn instantiate(&mut self, class: &Value, c: &ast::ExprCall) -> R<Value> {
        let instance = Value::object(Deps::default(), None);
        if let Value::Object(o) = &instance {
            let mut o = o.borrow_mut();
            o.kind = ObjectKind::Instance;
            o.parts.push((CLASS.to_string(), class.clone()));
        }
        match class_part(class, ".__init__") {
            Some(Value::Function(init)) => {
                // Literals passed are bound to the parameters, as for any
                // user function.
                let (mut args, keywords) = self.arguments(c, Mode::Bound)?;
                args.insert(0, instance.clone());
                self.call_user(&init, args, keywords)?;
            }
            _ => {
                self.arguments(c, Mode::Control)?;
            }
        }
        Ok(instance)
    }

    /// `instance.name(...)` when `instance` is an instance of a class the
    /// replay follows and `name` one of its methods: the method replayed
    /// with the instance as `self` (`None`: not such a call).
    pub(super) fn method_call(
        &mut self,
        instance: &Value,
        name: &str,
        c: &ast::ExprCall,
    ) -> R<Option<Value>> {
        let Value::Object(o) = instance else {
            return Ok(None);
        };
        let key = format!(".{name}");
        let (own, class) = {
            let o = o.borrow();
            if o.kind != ObjectKind::Instance {
                return Ok(None);
            }
            let part = |k: &str| o.parts.iter().find(|(p, _)| p == k).map(|(_, v)| v.clone());
            (part(&key), part(CLASS))
        };
        // An attribute of the instance itself hides the class's method: a
        // function stored there is called as it is (no `self`).
        if let Some(own) = own {
            return match own {
                Value::Function(f) => {
                    let (args, keywords) = self.arguments(c, Mode::Bound)?;
                    self.call_user(&f, args, keywords).map(Some)
                }
                _ => Ok(None),
            };
        }
        let Some(Value::Function(method)) = class.and_then(|class| class_part(&class, &key)) else {
            return Ok(None);
        };
        let (mut args, keywords) = self.arguments(c, Mode::Bound)?;
        args.insert(0, instance.clone());
        self.call_user(&method, args, keywords).map(Some)
    }

    /// `instance.name` read: the instance's own attribute, else its class's
    /// (`None`: not an instance of a class the replay follows, or neither
    /// has it).
    pub(super) fn instance_attribute(&self, instance: &Value, name: &str) -> Option<Value> {
        let Value::Object(o) = instance else {
            return None;
        };
        let key = format!(".{name}");
        let o = o.borrow();
        if o.kind != ObjectKind::Instance {
            return None;
        }
        if let Some((_, v)) = o.parts.iter().find(|(k, _)| *k == key) {
            return Some(v.clone());
        }
        let class = o.parts.iter().find(|(k, _)| k == CLASS)?.1.clone();
        drop(o);
        class_part(&class, &key)
    }
}

/// The part `key` of the class `class` (a method, `.total`, or a class
/// attribute).
fn class_part(class: &Value, key: &str) -> Option<Value> {
    let Value::Object(o) = class else {
        return None;
    };
    let o = o.borrow();
    (o.kind == ObjectKind::Class)
        .then(|| {
            o.parts
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
        })
        .flatten()
}

/// The attributes of `self` the method `method` of the instance `object`
/// stores to (none when `object` is not an instance of a class the replay
/// follows, or has no such method).
pub(super) fn stored_by_method(object: &Value, method: &str) -> Vec<String> {
    let Value::Object(o) = object else {
        return Vec::new();
    };
    let class = {
        let o = o.borrow();
        if o.kind != ObjectKind::Instance {
            return Vec::new();
        }
        o.parts
            .iter()
            .find(|(k, _)| k == CLASS)
            .map(|(_, v)| v.clone())
    };
    let Some(Value::Function(f)) = class.and_then(|c| class_part(&c, &format!(".{method}"))) else {
        return Vec::new();
    };
    let (Some((this, _)), Body::Block(body)) = (f.params.first(), &f.body) else {
        return Vec::new();
    };
    nbsight_dataflow::method_calls::attribute_changes(body, this).attrs
}

/// A literal: a constant, or a list, tuple, set or dict display of them.
fn literal(e: &Expr) -> bool {
    match e {
        Expr::NumberLiteral(_)
        | Expr::StringLiteral(_)
        | Expr::BytesLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_) => true,
        Expr::UnaryOp(u) => matches!(&*u.operand, Expr::NumberLiteral(_)),
        Expr::List(l) => l.elts.iter().all(literal),
        Expr::Tuple(t) => t.elts.iter().all(literal),
        Expr::Set(s) => s.elts.iter().all(literal),
        Expr::Dict(d) => d
            .items
            .iter()
            .all(|i| i.key.as_ref().is_some_and(literal) && literal(&i.value)),
        _ => false,
    }
}

/// The names `body` reads an attribute of (`self` in `self.items.append(x)`),
/// outside nested functions and lambdas: the objects it may change.
pub(super) fn attribute_roots(body: &[Stmt]) -> Vec<String> {
    use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
    struct Roots(Vec<String>);
    impl<'a> Visitor<'a> for Roots {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            if !matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
                walk_stmt(self, stmt);
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::Attribute(a) => {
                    if let Expr::Name(n) = &*a.value
                        && !self.0.iter().any(|r| r == n.id.as_str())
                    {
                        self.0.push(n.id.to_string());
                    }
                    walk_expr(self, expr);
                }
                Expr::Lambda(_) => {}
                _ => walk_expr(self, expr),
            }
        }
    }
    let mut roots = Roots(Vec::new());
    for stmt in body {
        roots.visit_stmt(stmt);
    }
    roots.0
}
