//! Values the replay knows without running the code: integers and strings a
//! cell computes from literals (`i = 0`, `i = i + 1`, `key = 'a'`), the
//! positions a loop over `range(...)` or `enumerate(...)` takes, and the keys
//! of a dict a loop walks. They name the element a subscript with a
//! computed key reads or writes (`numbers[i]`, `d[k]`), which the recorder
//! does not log (it reads nothing from the program's values).

use ruff_python_ast::{self as ast, Expr};
use rustc_hash::FxHashMap;

use super::super::value::Value;
use super::{Replay, python_repr};

/// A known value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Known {
    Int(i64),
    /// Any other value, by its `repr` (a string's quoted form).
    Repr(String),
}

impl Known {
    pub fn repr(&self) -> String {
        match self {
            Known::Int(i) => i.to_string(),
            Known::Repr(r) => r.clone(),
        }
    }

    /// A key as containers spell it (`3`, `'a'`).
    pub(super) fn of_key(key: &str) -> Known {
        match key.parse::<i64>() {
            Ok(i) => Known::Int(i),
            Err(_) => Known::Repr(key.to_string()),
        }
    }
}

/// The values the targets of a loop take, iteration by iteration.
#[derive(Debug, Clone)]
pub(super) enum Keys {
    /// `start + k * step`.
    Range { start: i64, step: i64 },
    /// The `k`-th of a list.
    List(Vec<Known>),
}

/// Which part of the target the known value binds: the whole (`for i in
/// range(n)`, `for k in d`) or the first of a pair (`for i, x in
/// enumerate(xs)`, `for k, v in d.items()`).
#[derive(Debug, Clone)]
pub(super) struct IteratedKeys {
    keys: Keys,
    first_of_pair: bool,
}

/// `l op r` on known integers, as Python computes it.
pub(super) fn apply(op: ast::Operator, l: Known, r: Known) -> Option<Known> {
    let (Known::Int(l), Known::Int(r)) = (l, r) else {
        return None;
    };
    let v = match op {
        ast::Operator::Add => l.checked_add(r)?,
        ast::Operator::Sub => l.checked_sub(r)?,
        ast::Operator::Mult => l.checked_mul(r)?,
        // Python floors toward negative infinity; its `%` takes the
        // divisor's sign.
        ast::Operator::FloorDiv if r != 0 => {
            let q = l.checked_div(r)?;
            if (l % r != 0) && ((l < 0) != (r < 0)) {
                q - 1
            } else {
                q
            }
        }
        ast::Operator::Mod if r != 0 => {
            let m = l.checked_rem(r)?;
            if m != 0 && (m < 0) != (r < 0) {
                m + r
            } else {
                m
            }
        }
        _ => return None,
    };
    Some(Known::Int(v))
}

impl Keys {
    fn get(&self, k: usize) -> Option<Known> {
        match self {
            Keys::Range { start, step } => {
                let k = i64::try_from(k).ok()?;
                Some(Known::Int(start.checked_add(k.checked_mul(*step)?)?))
            }
            Keys::List(list) => list.get(k).cloned(),
        }
    }
}

impl Replay<'_> {
    /// The value of `e`, when the replay knows it (nothing is evaluated).
    pub(super) fn known(&self, e: &Expr) -> Option<Known> {
        self.known_at(e, 0)
    }

    fn known_at(&self, e: &Expr, depth: usize) -> Option<Known> {
        if depth > super::MAX_NESTING {
            return None;
        }
        match e {
            Expr::NumberLiteral(n) => match &n.value {
                ast::Number::Int(i) => i.as_i64().map(Known::Int),
                _ => None,
            },
            Expr::StringLiteral(s) => Some(Known::Repr(python_repr(s.value.to_str()))),
            Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => {
                match self.known_at(&u.operand, depth + 1)? {
                    Known::Int(i) => i.checked_neg().map(Known::Int),
                    Known::Repr(_) => None,
                }
            }
            Expr::Name(n) => self.known_name(n.id.as_str()).cloned(),
            Expr::BinOp(b) => apply(
                b.op,
                self.known_at(&b.left, depth + 1)?,
                self.known_at(&b.right, depth + 1)?,
            ),
            Expr::Call(c) if c.arguments.keywords.is_empty() && c.arguments.args.len() == 1 => {
                let Expr::Name(f) = &*c.func else { return None };
                if f.id.as_str() != "len" || self.is_bound("len") {
                    return None;
                }
                let Expr::Name(n) = &c.arguments.args[0] else {
                    return None;
                };
                match self.peek_name(n.id.as_str())? {
                    Value::Sequence(s) => i64::try_from(s.borrow().items.len()).ok(),
                    Value::Mapping(m) => i64::try_from(m.borrow().items.len()).ok(),
                    _ => None,
                }
                .map(Known::Int)
            }
            _ => None,
        }
    }

    /// The known value of the name `name` in the code being replayed.
    pub(super) fn known_name(&self, name: &str) -> Option<&Known> {
        match self.frames.last() {
            Some(frame) if !frame.globals.iter().any(|g| g == name) => frame.known.get(name),
            _ => self.state.known.get(name),
        }
    }

    /// The value bound to `name`, without making an input of it.
    fn peek_name(&self, name: &str) -> Option<&Value> {
        match self.frames.last() {
            Some(frame) if !frame.globals.iter().any(|g| g == name) => frame
                .locals
                .get(name)
                .or_else(|| self.state.globals.get(name)),
            _ => self.state.globals.get(name),
        }
    }

    /// A user binding shadows the builtin `name`.
    fn is_bound(&self, name: &str) -> bool {
        self.peek_name(name)
            .is_some_and(|v| !matches!(v, Value::Module(m) if m == &format!("builtins.{name}")))
    }

    /// Sets (or forgets, with `None`) what the replay knows of `name`.
    pub(super) fn set_known(&mut self, name: &str, known: Option<Known>) {
        let map: &mut FxHashMap<String, Known> = match self.frames.last_mut() {
            Some(frame) if !frame.globals.iter().any(|g| g == name) => &mut frame.known,
            _ => &mut self.state.known,
        };
        match known {
            Some(k) => super::set(map, name, k),
            None => {
                map.remove(name);
            }
        }
    }

    /// The values a loop over `iter` (whose value is `value`) gives its
    /// target, when the replay knows them.
    pub(super) fn iterated_keys(&self, iter: &Expr, value: &Value) -> Option<IteratedKeys> {
        let whole = |keys| {
            Some(IteratedKeys {
                keys,
                first_of_pair: false,
            })
        };
        let mapping_keys = |v: &Value| match v {
            Value::Mapping(m) => Some(Keys::List(
                m.borrow()
                    .items
                    .iter()
                    .map(|(k, _)| Known::of_key(k))
                    .collect(),
            )),
            _ => None,
        };
        if let Value::Mapping(_) = value {
            return whole(mapping_keys(value)?);
        }
        // A literal list of constants: its elements.
        let literal = |v: &Value| match v {
            Value::Sequence(s) => s.borrow().known.clone().map(Keys::List),
            _ => None,
        };
        if let Some(keys) = literal(value) {
            return whole(keys);
        }
        let Expr::Call(c) = iter else { return None };
        if !c.arguments.keywords.is_empty() {
            return None;
        }
        let args = &c.arguments.args;
        match &*c.func {
            Expr::Name(f) if f.id.as_str() == "range" && !self.is_bound("range") => {
                let ints: Option<Vec<i64>> = args
                    .iter()
                    .map(|a| match self.known(a)? {
                        Known::Int(i) => Some(i),
                        Known::Repr(_) => None,
                    })
                    .collect();
                let (start, step) = match ints?.as_slice() {
                    [_] => (0, 1),
                    [start, _] => (*start, 1),
                    [start, _, step] if *step != 0 => (*start, *step),
                    _ => return None,
                };
                whole(Keys::Range { start, step })
            }
            Expr::Name(f) if f.id.as_str() == "enumerate" && !self.is_bound("enumerate") => {
                let start = match args.get(1) {
                    None if args.len() == 1 => 0,
                    Some(a) if args.len() == 2 => match self.known(a)? {
                        Known::Int(i) => i,
                        Known::Repr(_) => return None,
                    },
                    _ => return None,
                };
                Some(IteratedKeys {
                    keys: Keys::Range { start, step: 1 },
                    first_of_pair: true,
                })
            }
            // `for name, x in zip(names, xs)`: the first list's elements.
            Expr::Name(f) if f.id.as_str() == "zip" && !self.is_bound("zip") => {
                let Some(Expr::Name(first)) = args.first() else {
                    return None;
                };
                Some(IteratedKeys {
                    keys: literal(self.peek_name(first.id.as_str())?)?,
                    first_of_pair: true,
                })
            }
            Expr::Attribute(a) if args.is_empty() => {
                let Expr::Name(n) = &*a.value else {
                    return None;
                };
                let keys = mapping_keys(self.peek_name(n.id.as_str())?)?;
                match a.attr.as_str() {
                    "keys" => whole(keys),
                    "items" => Some(IteratedKeys {
                        keys,
                        first_of_pair: true,
                    }),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// After iteration `k` bound `target`: what the replay knows of it.
    pub(super) fn know_target(&mut self, target: &Expr, keys: Option<&IteratedKeys>, k: usize) {
        let Some(keys) = keys else { return };
        let name = match (target, keys.first_of_pair) {
            (Expr::Name(n), false) => n,
            (Expr::Tuple(t), true) if t.elts.len() == 2 => match &t.elts[0] {
                Expr::Name(n) => n,
                _ => return,
            },
            _ => return,
        };
        let known = keys.keys.get(k);
        self.set_known(name.id.as_str(), known);
    }
}
