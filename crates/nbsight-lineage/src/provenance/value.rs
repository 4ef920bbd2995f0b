//! The abstract values of the value-less replay (seed 002 §3): a value is
//! not a number or a string but the inputs it depends on, split into
//! *where* (inputs copied or computed into it) and *why* (inputs read by
//! the decisions that let it, or kept something out of it); containers
//! keep one abstract value per element, so provenance goes down to
//! `numbers[2]` and `d['k']`. Values the replay knows without running the
//! code ([`Known`]) and user functions ([`Function`]: parameters, code,
//! defaults, closure) are values too: a function holds the values of its
//! defaults, so the two types live together.

use std::sync::{Arc, Mutex, MutexGuard};

use ruff_python_ast::{Expr, Stmt};
use rustc_hash::FxHashMap;

pub(crate) use super::ids::{Ids, InputId};
use super::position::Positions;

/// What a value depends on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Deps {
    pub where_: Ids,
    pub why: Ids,
}

impl Deps {
    pub(crate) fn input(id: InputId) -> Deps {
        Deps {
            where_: Ids::unit(id),
            why: Ids::new(),
        }
    }

    pub(crate) fn union(&mut self, other: &Deps) {
        if !other.where_.is_empty() {
            self.where_ = std::mem::take(&mut self.where_).union(other.where_.clone());
        }
        if !other.why.is_empty() {
            self.why = std::mem::take(&mut self.why).union(other.why.clone());
        }
    }

    /// These dependencies as the reason for a decision: everything they
    /// depend on becomes *why*.
    pub(crate) fn as_why(&self) -> Deps {
        Deps {
            where_: Ids::new(),
            why: self.where_.clone().union(self.why.clone()),
        }
    }

    pub(crate) fn with_why(mut self, why: &Deps) -> Deps {
        self.union(&why.as_why());
        self
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.where_.is_empty() && self.why.is_empty()
    }
}

/// A container shared by the names bound to it (a value's elements change
/// through any of them). A mutex rather than a `RefCell` so that a session
/// can move between threads; the replay is single-threaded, and a poisoned
/// lock (a panic elsewhere) still gives its data.
#[derive(Debug, Default)]
pub(crate) struct Shared<T>(Arc<Mutex<T>>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

/// A container told that it may change (`Shared::borrow_mut`).
pub(crate) trait Changing {
    fn changing(&mut self) {}
}

impl<T: Changing> Shared<T> {
    pub(crate) fn new(value: T) -> Shared<T> {
        Shared(Arc::new(Mutex::new(value)))
    }

    pub(crate) fn borrow(&self) -> MutexGuard<'_, T> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn borrow_mut(&self) -> MutexGuard<'_, T> {
        let mut guard = self.borrow();
        guard.changing();
        guard
    }

    /// Identifies the container (for cycles).
    pub(crate) fn key(&self) -> *const () {
        Arc::as_ptr(&self.0) as *const ()
    }

    pub(crate) fn ptr_eq(a: &Shared<T>, b: &Shared<T>) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }
}

/// A list, tuple or set: its elements, and what decided which elements
/// there are (its structure).
#[derive(Debug, Clone, Default)]
pub(crate) struct Sequence {
    pub items: Vec<Value>,
    pub structure: Deps,
    /// The elements' values, when it is a literal of constants not changed
    /// since (`names = ['ana', 'bo']`): they name the keys a loop over it
    /// binds (`replay/known.rs`).
    pub known: Option<Vec<Known>>,
    /// How many times it may have changed (a [`Known::Element`] of it holds
    /// while this stays).
    pub generation: u32,
    /// A frame's column (`replay/frames/`): arithmetic on it is
    /// element-wise.
    pub column: bool,
}

impl Changing for Sequence {
    fn changing(&mut self) {
        self.known = None;
        self.generation = next_generation();
    }
}

/// A number no list's generation had before (so that a list made where a
/// freed one was is not taken for it).
fn next_generation() -> u32 {
    static GENERATIONS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    GENERATIONS
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        .wrapping_add(1)
}

/// A dict: its items by key (the key's `repr`), and its structure.
#[derive(Debug, Clone, Default)]
pub(crate) struct Mapping {
    pub items: Vec<(String, Value)>,
    pub structure: Deps,
    /// Its structure is a literal's keys (data, an input named after the
    /// dict): every value read by key depends on them.
    pub literal_keys: bool,
    /// What the keys computed at run time that reached it depend on
    /// (`by_region[region]`): which entry a key reaches was decided by
    /// them all, so every value read by key depends on them.
    pub keys: Deps,
    /// A `defaultdict`'s factory: what reading a missing key puts there.
    pub default: Option<Fresh>,
    /// What a key computed at run time was made of, by the key of the
    /// entry it made (`freq[w] = ...`: `w`'s inputs). A key not here came
    /// with the dict (a literal's, or one the replay did not know): its
    /// structure is all it knows of it.
    pub key_inputs: rustc_hash::FxHashMap<String, Deps>,
    /// A `Counter` of elements the replay knew, until it changes: per
    /// entry, how many there were and the first of them (the dict's key
    /// is that element), for `most_common`.
    pub tally: Option<Vec<(u64, Value)>>,
    /// The values of its entries a literal gave as constants (`{'id':
    /// 101}`), by key, until it changes: they name the keys a record's
    /// field makes (`{s['id']: s for s in roster}`, `replay/known.rs`).
    pub known: FxHashMap<String, Known>,
}

/// What a `defaultdict`'s factory makes for a missing key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fresh {
    /// An empty list or set (`list`, `set`).
    Sequence,
    /// An empty dict (`dict`, `lambda: defaultdict(int)`...).
    Mapping,
    /// A constant (`int`, `float`, `str`, `lambda: 0`).
    Constant,
}

impl Fresh {
    pub(crate) fn make(self) -> Value {
        match self {
            Fresh::Sequence => Value::sequence(Vec::new(), Deps::default()),
            Fresh::Mapping => Value::mapping(Vec::new(), Deps::default()),
            Fresh::Constant => Value::constant(),
        }
    }
}

/// An object of a library (a frame, an array, a model): what it depends
/// on, the input it came from (its parts are named after it) and the parts
/// read so far (`df['a']`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Object {
    pub deps: Deps,
    pub origin: Option<InputId>,
    pub parts: Vec<(String, Value)>,
    /// What its parts are (`replay/frames/`).
    pub kind: ObjectKind,
}

/// What an object's parts are.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum ObjectKind {
    /// Parts read so far, or a frame's known columns.
    #[default]
    Plain,
    /// `df.groupby(by)`: its parts are the columns' groupings.
    GroupedFrame,
    /// A column of a `groupby`: its parts are the groups (`['red']`), each
    /// a sequence of the column's elements in the group's rows.
    Groups,
    /// A class of the notebook the replay follows (`replay/classes.rs`):
    /// its parts are its methods and class attributes (`.total`, `.rate`).
    Class,
    /// An instance of such a class: its parts are its attributes (`.items`),
    /// and `<class>` its class.
    Instance,
}

/// An abstract value.
#[derive(Debug, Clone)]
pub(crate) enum Value {
    /// A number, string, bool, `None`...
    Scalar(Deps),
    Sequence(Shared<Sequence>),
    Mapping(Shared<Mapping>),
    Object(Shared<Object>),
    /// `range(...)`: its elements are positions, decided by its arguments.
    Range(Deps),
    /// A user function.
    Function(Arc<Function>),
    /// A module or a name in one (`numpy`, `numpy.random.rand`).
    Module(String),
}

impl Value {
    pub(crate) fn scalar(deps: Deps) -> Value {
        Value::Scalar(deps)
    }

    pub(crate) fn constant() -> Value {
        Value::Scalar(Deps::default())
    }

    pub(crate) fn sequence(items: Vec<Value>, structure: Deps) -> Value {
        Value::Sequence(Shared::new(Sequence {
            items,
            structure,
            known: None,
            generation: next_generation(),
            column: false,
        }))
    }

    pub(crate) fn mapping(items: Vec<(String, Value)>, structure: Deps) -> Value {
        Value::Mapping(Shared::new(Mapping {
            items,
            structure,
            literal_keys: false,
            keys: Deps::default(),
            default: None,
            key_inputs: rustc_hash::FxHashMap::default(),
            tally: None,
            known: FxHashMap::default(),
        }))
    }

    pub(crate) fn object(deps: Deps, origin: Option<InputId>) -> Value {
        Value::Object(Shared::new(Object {
            deps,
            origin,
            parts: Vec::new(),
            kind: ObjectKind::Plain,
        }))
    }

    /// Everything the value depends on, as one set: for a container, its
    /// elements' dependencies (where and why) and its structure (why).
    pub(crate) fn deps(&self) -> Deps {
        let mut d = Deps::default();
        self.walk(
            &mut |deps, decided| {
                if decided {
                    d.union(&deps.as_why());
                } else {
                    d.union(deps);
                }
            },
            false,
            &mut rustc_hash::FxHashSet::default(),
        );
        d
    }

    /// [`Value::deps`] as two sorted lists (where, why), gathered without
    /// building a set: what an answer lists, for a container of any size.
    pub(crate) fn ids(&self) -> (Vec<InputId>, Vec<InputId>) {
        let (mut where_, mut why) = (Vec::new(), Vec::new());
        self.walk(
            &mut |deps, decided| {
                if decided {
                    why.extend(deps.where_.iter());
                } else {
                    where_.extend(deps.where_.iter());
                }
                why.extend(deps.why.iter());
            },
            false,
            &mut rustc_hash::FxHashSet::default(),
        );
        for ids in [&mut where_, &mut why] {
            ids.sort_unstable();
            ids.dedup();
        }
        (where_, why)
    }

    /// Calls `f` with every input the value holds: its dependencies, its
    /// elements', and (unlike [`Value::deps`]) its parts', its origin and
    /// those of the functions in it (defaults, closures).
    /// `seen`: the containers and functions already walked.
    pub(crate) fn each_input(
        &self,
        f: &mut dyn FnMut(InputId),
        seen: &mut rustc_hash::FxHashSet<*const ()>,
    ) {
        self.walk(
            &mut |deps, _| {
                for &id in deps.where_.iter().chain(deps.why.iter()) {
                    f(id);
                }
            },
            true,
            seen,
        );
    }

    /// Calls `visit` with each set of dependencies the value holds, and
    /// whether it decided which elements a container has (its structure);
    /// each container and function once (`seen`). `deep`: also an object's
    /// parts and origin, and a function's defaults and closure.
    fn walk(
        &self,
        visit: &mut dyn FnMut(&Deps, bool),
        deep: bool,
        seen: &mut rustc_hash::FxHashSet<*const ()>,
    ) {
        match self {
            Value::Scalar(d) | Value::Range(d) => visit(d, false),
            Value::Sequence(s) => {
                if !seen.insert(s.key()) {
                    return;
                }
                let s = s.borrow();
                visit(&s.structure, true);
                for item in &s.items {
                    item.walk(visit, deep, seen);
                }
            }
            Value::Mapping(m) => {
                if !seen.insert(m.key()) {
                    return;
                }
                let m = m.borrow();
                visit(&m.structure, true);
                for (_, item) in &m.items {
                    item.walk(visit, deep, seen);
                }
            }
            Value::Object(o) => {
                if !seen.insert(o.key()) {
                    return;
                }
                let o = o.borrow();
                visit(&o.deps, false);
                if deep {
                    if let Some(origin) = o.origin {
                        visit(&Deps::input(origin), false);
                    }
                    for (_, part) in &o.parts {
                        part.walk(visit, deep, seen);
                    }
                }
            }
            Value::Function(function) if deep => {
                if !seen.insert(Arc::as_ptr(function) as *const ()) {
                    return;
                }
                for (_, default) in &function.params {
                    if let Some(default) = default {
                        default.walk(visit, deep, seen);
                    }
                }
                if let Some(closure) = &function.closure
                    && seen.insert(Arc::as_ptr(closure) as *const ())
                {
                    for value in closure.variables().values() {
                        value.walk(visit, deep, seen);
                    }
                }
            }
            Value::Function(_) | Value::Module(_) => {}
        }
    }

    /// The value with `why` added to what decided it (a copy for scalars; a
    /// container shares its elements and gets `why` in its structure).
    pub(crate) fn with_why(&self, why: &Deps) -> Value {
        if why.is_empty() {
            return self.clone();
        }
        match self {
            Value::Scalar(d) => Value::Scalar(d.clone().with_why(why)),
            Value::Range(d) => Value::Range(d.clone().with_why(why)),
            Value::Sequence(s) => {
                s.borrow_mut().structure.union(&why.as_why());
                self.clone()
            }
            Value::Mapping(m) => {
                m.borrow_mut().structure.union(&why.as_why());
                self.clone()
            }
            Value::Object(o) => {
                o.borrow_mut().deps.union(&why.as_why());
                self.clone()
            }
            Value::Function(_) | Value::Module(_) => self.clone(),
        }
    }

    /// The elements iterating over the value yields, when it holds them.
    pub(crate) fn elements(&self) -> Option<Vec<Value>> {
        match self {
            Value::Sequence(s) => Some(s.borrow().items.clone()),
            Value::Mapping(m) => {
                let m = m.borrow();
                Some(m.items.iter().map(|(k, _)| m.key_value(k)).collect())
            }
            _ => None,
        }
    }

    /// What decides how many elements iterating yields.
    pub(crate) fn structure(&self) -> Deps {
        match self {
            Value::Sequence(s) => s.borrow().structure.clone(),
            // (Which keys there are was decided by every key computed at
            // run time that reached it: one equal to another made none.)
            Value::Mapping(m) => {
                let m = m.borrow();
                m.structure.clone().with_why(&m.keys)
            }
            Value::Range(d) => d.clone(),
            other => other.deps(),
        }
    }
}

impl Changing for Mapping {
    fn changing(&mut self) {
        self.tally = None;
        self.known.clear();
    }
}

impl Mapping {
    /// What decided which value a read by key finds: the literal's keys
    /// and the keys computed at run time ([`Mapping::keys`]).
    pub(crate) fn read_by_key(&self) -> Deps {
        let mut d = self.keys.clone();
        if self.literal_keys {
            d.union(&self.structure.as_why());
        }
        d
    }

    /// The key `k` as a value (iterating the dict, `keys()`, `items()`):
    /// made of what made it, when a key computed at run time did, and
    /// decided by the dict's structure; otherwise it came with the dict.
    pub(crate) fn key_value(&self, k: &str) -> Value {
        match self.key_inputs.get(k) {
            Some(own) => Value::Scalar(own.clone().with_why(&self.structure)),
            None => Value::Scalar(self.structure.clone()),
        }
    }

    /// The entry at `k` was made by a key computed at run time that
    /// depends on `key` (the first such key stays: the dict keeps it).
    pub(crate) fn made_by(&mut self, k: &str, key: &Deps) {
        if !key.is_empty() && !self.key_inputs.contains_key(k) {
            self.key_inputs.insert(k.to_string(), key.clone());
        }
    }

    /// A key computed at run time (depending on `key`) reached it.
    pub(crate) fn reached_by(&mut self, key: &Deps) {
        self.keys.union(&key.as_why());
    }
}

impl Changing for Object {}

/// A known value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Known {
    Int(i64),
    /// Any other value, by its `repr` (a string's quoted form).
    Repr(String),
    /// A tuple (`('north', 120)`): its elements, `None` where unknown.
    Tuple(Vec<Option<Known>>),
    /// A float literal's value (its bits: `Known` compares exactly); it
    /// names no key ([`Known::repr`] is `None`), it only compares.
    Float(u64),
    /// The element at `position` of the list `list` (its [`Shared::key`])
    /// as it was at `generation`, which a `max`/`min` chose: the first of
    /// the largest or smallest, so `list.index` of it is `position`. Its
    /// value is not known ([`Known::repr`] is `None`).
    Element {
        list: usize,
        generation: u32,
        position: u32,
    },
}

impl Known {
    /// Its `repr`, as containers spell their keys; a tuple's only when
    /// every element is known.
    pub(crate) fn repr(&self) -> Option<String> {
        match self {
            Known::Int(i) => Some(i.to_string()),
            Known::Repr(r) => Some(r.clone()),
            Known::Element { .. } | Known::Float(_) => None,
            Known::Tuple(items) => {
                let items: Option<Vec<String>> = items
                    .iter()
                    .map(|i| i.as_ref().and_then(Known::repr))
                    .collect();
                match items?.as_slice() {
                    [one] => Some(format!("({one},)")),
                    all => Some(format!("({})", all.join(", "))),
                }
            }
        }
    }

    /// The `k`-th element of a known tuple.
    pub(crate) fn nth(&self, k: usize) -> Option<Known> {
        match self {
            Known::Tuple(items) => items.get(k).cloned().flatten(),
            _ => None,
        }
    }

    /// A key as containers spell it (`3`, `'a'`).
    pub(crate) fn of_key(key: &str) -> Known {
        match key.parse::<i64>() {
            Ok(i) => Known::Int(i),
            Err(_) => Known::Repr(key.to_string()),
        }
    }
}

/// What a function runs.
#[derive(Debug, Clone)]
pub(crate) enum Body {
    Block(Vec<Stmt>),
    Lambda(Box<Expr>),
}

/// A user function.
#[derive(Debug, Clone)]
pub(crate) struct Function {
    /// Positional (and keyword-only) parameter names, in order, with the
    /// values of their defaults.
    pub params: Vec<(String, Option<Value>)>,
    pub body: Body,
    /// The positions of the defining cell's code.
    pub positions: Arc<Positions>,
    /// The cell that defined it.
    pub cell: Arc<str>,
    /// Its code object as events name it (`events::code_key`).
    pub code: u32,
    /// The enclosing function's variables when it was defined (a closure's
    /// free variables: `make_scaler(k)`'s `factor`).
    pub closure: Option<Arc<Closure>>,
    /// A generator function (its body yields): a call replays the body as
    /// far as the log shows it ran, and gives what it yielded.
    pub generator: bool,
}

/// The variables of the enclosing functions a function sees, shared by
/// its calls: what one call assigns to a `nonlocal` the next one reads
/// (`make_counter`'s `count`). A mutex as `value::Shared` is; nothing
/// else is locked while it is held.
#[derive(Debug, Default)]
pub(crate) struct Closure(Mutex<FxHashMap<String, Value>>);

impl Closure {
    pub(crate) fn new(variables: FxHashMap<String, Value>) -> Closure {
        Closure(Mutex::new(variables))
    }

    fn lock(&self) -> MutexGuard<'_, FxHashMap<String, Value>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn get(&self, name: &str) -> Option<Value> {
        self.lock().get(name).cloned()
    }

    pub(crate) fn set(&self, name: &str, value: Value) {
        self.lock().insert(name.to_string(), value);
    }

    /// A copy of its variables.
    pub(crate) fn variables(&self) -> FxHashMap<String, Value> {
        self.lock().clone()
    }
}
