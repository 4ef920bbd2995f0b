//! Values the replay knows without running the code: integers and strings a
//! cell computes from literals (`i = 0`, `i = i + 1`, `key = 'a'`), tuples
//! of them, the positions a loop over `range(...)` or `enumerate(...)`
//! takes, the elements of a literal list a loop walks (`for region, amount
//! in sales`), and the keys of a dict. They name the element a subscript with a
//! computed key reads or writes (`numbers[i]`, `d[k]`), which the recorder
//! does not log (it reads nothing from the program's values).

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::Ranged;
use rustc_hash::FxHashMap;

use super::super::value::{Known, Value};
use super::{Replay, constant_key, python_repr};

/// The values a loop's target takes, iteration by iteration.
#[derive(Debug, Clone)]
pub(super) enum Keys {
    /// `start + k * step`.
    Range { start: i64, step: i64 },
    /// The `k`-th of a list.
    List(Vec<Known>),
    /// `(key, value)` pairs of a dict whose keys are known (`d.items()`).
    Pairs(Vec<Known>),
    /// `enumerate(xs, start)`: `(start + k, xs[k])`.
    Enumerate { start: i64, of: Option<Box<Keys>> },
    /// `zip(xs, ys, ...)`: `(xs[k], ys[k], ...)`.
    Zip(Vec<Option<Keys>>),
}

/// `l op r` on known numbers, as Python computes it (integers exactly;
/// `+ - * /` with a float, or `/`, in floating point).
pub(super) fn apply(op: ast::Operator, l: Known, r: Known) -> Option<Known> {
    let (Known::Int(l), Known::Int(r)) = (&l, &r) else {
        let (l, r) = (float(&l)?, float(&r)?);
        let v = match op {
            ast::Operator::Add => l + r,
            ast::Operator::Sub => l - r,
            ast::Operator::Mult => l * r,
            ast::Operator::Div if r != 0.0 => l / r,
            _ => return None,
        };
        return v.is_finite().then(|| Known::Float(v.to_bits()));
    };
    let (l, r) = (*l, *r);
    if op == ast::Operator::Div {
        return apply(
            op,
            Known::Float(float(&Known::Int(l))?.to_bits()),
            Known::Int(r),
        );
    }
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

/// A known number as a float (an integer up to 2^53, exactly).
pub(super) fn float(k: &Known) -> Option<f64> {
    const EXACT: i64 = 1 << 53;
    match k {
        #[allow(clippy::cast_precision_loss)]
        Known::Int(i) if (-EXACT..=EXACT).contains(i) => Some(*i as f64),
        Known::Float(bits) => Some(f64::from_bits(*bits)).filter(|x| x.is_finite()),
        _ => None,
    }
}

impl Keys {
    /// The value of the `k`-th iteration.
    pub(super) fn get(&self, k: usize) -> Option<Known> {
        let position = |start: i64, step: i64| {
            let k = i64::try_from(k).ok()?;
            Some(Known::Int(start.checked_add(k.checked_mul(step)?)?))
        };
        match self {
            Keys::Range { start, step } => position(*start, *step),
            Keys::List(list) => list.get(k).cloned(),
            Keys::Pairs(keys) => Some(Known::Tuple(vec![Some(keys.get(k)?.clone()), None])),
            Keys::Enumerate { start, of } => Some(Known::Tuple(vec![
                position(*start, 1),
                of.as_ref().and_then(|of| of.get(k)),
            ])),
            Keys::Zip(each) => Some(Known::Tuple(
                each.iter()
                    .map(|keys| keys.as_ref().and_then(|keys| keys.get(k)))
                    .collect(),
            )),
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
                ast::Number::Float(x) => Some(Known::Float(x.to_bits())),
                ast::Number::Complex { .. } => None,
            },
            Expr::StringLiteral(s) => Some(Known::Repr(python_repr(s.value.to_str()))),
            Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => {
                match self.known_at(&u.operand, depth + 1)? {
                    Known::Int(i) => i.checked_neg().map(Known::Int),
                    Known::Float(bits) => Some(Known::Float((-f64::from_bits(bits)).to_bits())),
                    _ => None,
                }
            }
            // A field of a record a literal gave (`s['id']`), unchanged
            // since.
            Expr::Subscript(s)
                if let Expr::Name(n) = &*s.value
                    && let Some(Value::Mapping(m)) = self.peek_name(n.id.as_str()) =>
            {
                let key = match constant_key(&s.slice) {
                    Some(key) => key?,
                    None => self.known_at(&s.slice, depth + 1)?.repr()?,
                };
                m.borrow().known.get(&key).cloned()
            }
            // `w[0]` of a known str, `pair[1]` of a known tuple.
            Expr::Subscript(s) => {
                let Known::Int(i) = self.known_at(&s.slice, depth + 1)? else {
                    return None;
                };
                match self.known_at(&s.value, depth + 1)? {
                    Known::Tuple(items) => {
                        let len = i64::try_from(items.len()).ok()?;
                        let i = if i < 0 { i + len } else { i };
                        items.get(usize::try_from(i).ok()?).cloned().flatten()
                    }
                    Known::Repr(r) => {
                        let chars: Vec<char> = plain_str(&r)?.chars().collect();
                        let len = i64::try_from(chars.len()).ok()?;
                        let i = if i < 0 { i + len } else { i };
                        let c = chars.get(usize::try_from(i).ok()?)?;
                        Some(Known::Repr(python_repr(&c.to_string())))
                    }
                    Known::Int(_) | Known::Float(_) | Known::Element { .. } => None,
                }
            }
            Expr::Tuple(t) if !t.elts.is_empty() => {
                let items: Vec<Option<Known>> =
                    t.elts.iter().map(|e| self.known_at(e, depth + 1)).collect();
                items
                    .iter()
                    .any(Option::is_some)
                    .then_some(Known::Tuple(items))
            }
            Expr::Name(n) => self.known_name(n.id.as_str()).cloned(),
            Expr::BinOp(b) => apply(
                b.op,
                self.known_at(&b.left, depth + 1)?,
                self.known_at(&b.right, depth + 1)?,
            ),
            // What a selection replayed just before chose (`np.argmax(xs)`,
            // `min(xs)`).
            Expr::Call(c) if let Some(choice) = self.chosen.get(&self.call_key(c)) => {
                Some(choice.clone())
            }
            // `xs.index(v)` of the element a `max`/`min` chose from `xs`:
            // its position (they take the first of the largest or smallest,
            // `index` the first equal).
            Expr::Call(c)
                if c.arguments.keywords.is_empty()
                    && let [arg] = c.arguments.args.as_ref()
                    && let Expr::Attribute(a) = &*c.func
                    && a.attr.as_str() == "index"
                    && let Expr::Name(xs) = &*a.value =>
            {
                let Known::Element {
                    list,
                    generation,
                    position,
                } = self.known_at(arg, depth + 1)?
                else {
                    return None;
                };
                let Value::Sequence(s) = self.peek_name(xs.id.as_str())? else {
                    return None;
                };
                (s.key() as usize == list && s.borrow().generation == generation)
                    .then_some(Known::Int(i64::from(position)))
            }
            // A str method changing letters or spaces, of a known ASCII str
            // (`a.strip().lower()`).
            Expr::Call(c)
                if c.arguments.is_empty()
                    && let Expr::Attribute(a) = &*c.func
                    && matches!(
                        a.attr.as_str(),
                        "strip" | "lstrip" | "rstrip" | "lower" | "upper" | "casefold"
                    ) =>
            {
                let Known::Repr(r) = self.known_at(&a.value, depth + 1)? else {
                    return None;
                };
                let text = plain_str(&r).filter(|t| t.is_ascii())?;
                let spaces: &[char] = &[
                    ' ', '\t', '\n', '\r', '\x0b', '\x0c', '\x1c', '\x1d', '\x1e', '\x1f',
                ];
                let changed = match a.attr.as_str() {
                    "strip" => text.trim_matches(spaces).to_string(),
                    "lstrip" => text.trim_start_matches(spaces).to_string(),
                    "rstrip" => text.trim_end_matches(spaces).to_string(),
                    "upper" => text.to_ascii_uppercase(),
                    _ => text.to_ascii_lowercase(),
                };
                Some(Known::Repr(python_repr(&changed)))
            }
            // `int(i)` of a known integer.
            Expr::Call(c)
                if c.arguments.keywords.is_empty()
                    && let [arg] = c.arguments.args.as_ref()
                    && let Expr::Name(f) = &*c.func
                    && f.id.as_str() == "int"
                    && !self.is_bound("int") =>
            {
                match self.known_at(arg, depth + 1)? {
                    Known::Int(i) => Some(Known::Int(i)),
                    _ => None,
                }
            }
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

    /// The value of `e` the replay knows through what a selection call in
    /// it chose, once `e` was replayed (`None` when it holds no such call:
    /// what it knows otherwise was known before).
    pub(super) fn chosen_in(&self, e: &Expr) -> Option<Known> {
        use ruff_python_ast::visitor::{Visitor, walk_expr};
        struct Calls<'r, 's>(&'r Replay<'s>, bool);
        impl<'a> Visitor<'a> for Calls<'_, '_> {
            fn visit_expr(&mut self, expr: &'a Expr) {
                if let Expr::Call(c) = expr
                    && self.0.chosen.contains_key(&self.0.call_key(c))
                {
                    self.1 = true;
                }
                if !self.1 {
                    walk_expr(self, expr);
                }
            }
        }
        if self.chosen.is_empty() {
            return None;
        }
        let mut calls = Calls(self, false);
        calls.visit_expr(e);
        if calls.1 { self.known(e) } else { None }
    }

    /// The key of the call `c` in [`Replay::chosen`].
    fn call_key(&self, c: &ast::ExprCall) -> (u32, u32) {
        (self.code, c.start().to_u32())
    }

    /// The selection call `c` chose `choice` (`None`: what it chose is not
    /// known).
    pub(super) fn note_choice(&mut self, c: &ast::ExprCall, choice: Option<Known>) {
        let key = self.call_key(c);
        match choice {
            Some(choice) => {
                self.chosen.insert(key, choice);
            }
            None => {
                self.chosen.remove(&key);
            }
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
    pub(super) fn iterated_keys(&self, iter: &Expr, value: &Value) -> Option<Keys> {
        of_value(value).or_else(|| self.keys_of_call(iter))
    }

    /// What iterating `e` gives, when the replay knows it: a name bound
    /// to a dict or a literal list, or a call of `range`, `enumerate`,
    /// `zip`, `.keys()` or `.items()` over such.
    fn keys_of(&self, e: &Expr) -> Option<Keys> {
        match e {
            Expr::Name(n) => of_value(self.peek_name(n.id.as_str())?),
            _ => self.keys_of_call(e),
        }
    }

    fn keys_of_call(&self, e: &Expr) -> Option<Keys> {
        let Expr::Call(c) = e else { return None };
        // (`enumerate(xs, start=1)`: its one keyword.)
        let start_keyword = match c.arguments.keywords.as_ref() {
            [] => None,
            [k] if k.arg.as_ref().is_some_and(|a| a.as_str() == "start") => Some(&k.value),
            _ => return None,
        };
        let args = &c.arguments.args;
        let int = |a: &Expr| match self.known(a)? {
            Known::Int(i) => Some(i),
            _ => None,
        };
        match &*c.func {
            Expr::Name(f)
                if f.id.as_str() == "range"
                    && !self.is_bound("range")
                    && start_keyword.is_none() =>
            {
                let ints: Option<Vec<i64>> = args.iter().map(int).collect();
                let (start, step) = match ints?.as_slice() {
                    [_] => (0, 1),
                    [start, _] => (*start, 1),
                    [start, _, step] if *step != 0 => (*start, *step),
                    _ => return None,
                };
                Some(Keys::Range { start, step })
            }
            Expr::Name(f) if f.id.as_str() == "enumerate" && !self.is_bound("enumerate") => {
                let start = match (args.as_ref(), start_keyword) {
                    ([_], None) => 0,
                    ([_], Some(start)) | ([_, start], None) => int(start)?,
                    _ => return None,
                };
                Some(Keys::Enumerate {
                    start,
                    of: self.keys_of(&args[0]).map(Box::new),
                })
            }
            Expr::Name(f)
                if f.id.as_str() == "zip" && !self.is_bound("zip") && start_keyword.is_none() =>
            {
                let each: Vec<Option<Keys>> = args.iter().map(|a| self.keys_of(a)).collect();
                each.iter().any(Option::is_some).then_some(Keys::Zip(each))
            }
            Expr::Attribute(a) if args.is_empty() && start_keyword.is_none() => {
                let Expr::Name(n) = &*a.value else {
                    return None;
                };
                let Some(Keys::List(keys)) = mapping_keys(self.peek_name(n.id.as_str())?) else {
                    return None;
                };
                match a.attr.as_str() {
                    "keys" => Some(Keys::List(keys)),
                    "items" => Some(Keys::Pairs(keys)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// After an iteration bound `target` to a value the replay knows: what
    /// it knows of the names in it. (`None`: nothing to do, binding the
    /// target forgot what was known of its names; a loop of unknown
    /// values pays nothing here.)
    pub(super) fn know_target(&mut self, target: &Expr, known: Option<Known>) {
        let Some(known) = known else { return };
        match (target, known) {
            (Expr::Name(n), known) => self.set_known(n.id.as_str(), Some(known)),
            (
                Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::List(ast::ExprList { elts, .. }),
                Known::Tuple(items),
            ) if items.len() == elts.len() => {
                for (e, part) in elts.iter().zip(items) {
                    self.know_target(e, part);
                }
            }
            _ => {}
        }
    }
}

/// The keys of a dict, or the elements of a literal of constants.
fn of_value(value: &Value) -> Option<Keys> {
    match value {
        Value::Mapping(_) => mapping_keys(value),
        Value::Sequence(s) => s.borrow().known.clone().map(Keys::List),
        _ => None,
    }
}

fn mapping_keys(value: &Value) -> Option<Keys> {
    match value {
        Value::Mapping(m) => Some(Keys::List(
            m.borrow()
                .items
                .iter()
                .map(|(k, _)| Known::of_key(k))
                .collect(),
        )),
        _ => None,
    }
}

/// What a literal element of a list or tuple display is, when it is a
/// constant or a tuple of constants (`('north', 120)`; a float is there
/// but unknown).
pub(super) fn literal_known(e: &Expr) -> Option<Known> {
    match e {
        Expr::Tuple(t) if !t.elts.is_empty() => {
            let items: Option<Vec<Option<Known>>> = t
                .elts
                .iter()
                .map(|e| match e {
                    Expr::Tuple(_) => Some(literal_known(e)),
                    _ => constant_key(e).map(|k| k.map(|k| Known::of_key(&k))),
                })
                .collect();
            Some(Known::Tuple(items?))
        }
        Expr::NumberLiteral(ast::ExprNumberLiteral {
            value: ast::Number::Float(x),
            ..
        }) => Some(Known::Float(x.to_bits())),
        Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => match &*u.operand {
            Expr::NumberLiteral(ast::ExprNumberLiteral {
                value: ast::Number::Float(x),
                ..
            }) => Some(Known::Float((-x).to_bits())),
            _ => constant_key(e).flatten().map(|k| Known::of_key(&k)),
        },
        _ => constant_key(e).flatten().map(|k| Known::of_key(&k)),
    }
}

/// The text of a str's `repr` with nothing escaped in it (`'apple'`).
fn plain_str(repr: &str) -> Option<&str> {
    let inner = repr
        .strip_prefix('\'')
        .and_then(|r| r.strip_suffix('\''))
        .or_else(|| repr.strip_prefix('"').and_then(|r| r.strip_suffix('"')))?;
    (!inner.contains('\\')).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tuple_is_spelled_as_python_spells_it_when_all_of_it_is_known() {
        let a = Known::Repr("'a'".into());
        let pair = Known::Tuple(vec![Some(a.clone()), Some(Known::Int(2))]);
        assert_eq!(pair.repr().as_deref(), Some("('a', 2)"));
        let one = Known::Tuple(vec![Some(Known::Int(-1))]);
        assert_eq!(one.repr().as_deref(), Some("(-1,)"));
        let partly = Known::Tuple(vec![Some(a.clone()), None]);
        assert_eq!(partly.repr(), None);
        assert_eq!(partly.nth(0), Some(a));
        assert_eq!(partly.nth(1), None);
    }

    #[test]
    fn the_iterations_of_enumerate_and_zip_are_tuples() {
        let names = Keys::List(vec![Known::Repr("'x'".into()), Known::Repr("'y'".into())]);
        let e = Keys::Enumerate {
            start: 1,
            of: Some(Box::new(names.clone())),
        };
        assert_eq!(e.get(1).and_then(|k| k.repr()).as_deref(), Some("(2, 'y')"));
        let z = Keys::Zip(vec![Some(names), None]);
        assert_eq!(
            z.get(0).and_then(|k| k.nth(0)),
            Some(Known::Repr("'x'".into()))
        );
        assert_eq!(z.get(0).and_then(|k| k.nth(1)), None);
        assert_eq!(z.get(2).and_then(|k| k.nth(0)), None);
    }

    #[test]
    fn only_a_str_with_nothing_escaped_is_read_back() {
        assert_eq!(plain_str("'apple'"), Some("apple"));
        assert_eq!(plain_str("\"it's\""), Some("it's"));
        assert_eq!(plain_str("'a\\nb'"), None);
        assert_eq!(plain_str("3"), None);
    }
}
