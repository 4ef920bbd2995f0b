//! The value-less replay (seed 002 §3.3): a cell's code interpreted again
//! with abstract values (`value.rs`) instead of real ones, following the
//! recorded run-time decisions (`events.rs`): which branch ran, how many
//! times a loop turned, which key a subscript used. Data flows into
//! *where*, conditions into *why*: a value assigned under a condition gets
//! the condition's inputs as why, and so does a name the branch not taken
//! would have assigned (the decision kept a value out).
//!
//! Covered: assignments (names, subscripts, attributes, unpacking), `if`,
//! `while`, `for`, `break`, `continue`, user functions and lambdas (calls
//! replay their bodies; closures, `nonlocal`), generator functions (replayed
//! where they are made, as far as their run went), comprehensions, the
//! common builtins, list and dict methods (dicts filled through keys
//! computed at run time keep those keys as the decisions of every entry),
//! and library calls (their result depends on their receiver and
//! arguments; a reader of files brings its file; a call with no notebook
//! input makes an input). What is not covered makes the replay of the cell
//! give up (`Unsupported`): the caller then takes the cell's results as
//! inputs.

use std::sync::Arc;

use nbsight_dataflow::Effects;
use nbsight_dataflow::effects::Role;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use rustc_hash::FxHashMap;

mod classes;
mod conditions;
use conditions::describe;
mod exceptions;
mod frames;
mod known;
mod log;
use log::Log;
mod matching;
mod opaque;
pub(crate) use opaque::GlobalEffects;
use opaque::{global_effects, names, yields};

use super::State;
use super::events::{At, Event, What, code_key};
use super::position::Positions;
pub(crate) use super::value::Known;
use super::value::{Body, Closure, Function};
use super::value::{Deps, Fresh, Mapping, ObjectKind, Shared, Value};

/// Why the replay of a cell gave up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unsupported(pub String);

/// Why the replay of some code stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stop {
    /// It gives up (the cell is not followed).
    Unsupported(String),
    /// The code raised an exception there (the log says so): it unwinds to
    /// a handler of the same code, or to the caller (`exceptions.rs`).
    Raised,
    /// The function's calls stopped being logged (it was called too often
    /// in the run): the call being replayed is opaque from here.
    Saturated,
    /// A generator's log ends here: its consumer took no more.
    Suspended,
}

type R<T> = Result<T, Stop>;

/// Positional and keyword arguments of a call.
type Arguments = (Vec<Value>, Vec<(String, Value)>);

/// `map[name] = value`, allocating the key only for a new name.
pub(super) fn set<V>(map: &mut FxHashMap<String, V>, name: &str, value: V) {
    match map.get_mut(name) {
        Some(slot) => *slot = value,
        None => {
            map.insert(name.to_string(), value);
        }
    }
}

fn unsupported<T>(what: impl Into<String>) -> R<T> {
    Err(Stop::Unsupported(what.into()))
}

/// How a statement list ended.
enum Flow {
    Normal,
    Break,
    Continue,
    Return(Value),
}

/// Where a literal is evaluated: as the value bound (an assignment's value,
/// or an element of a literal container that is: at a cell's top level it
/// is an input, data that entered the notebook), inside an expression that
/// computes data (`* 3`: code, a constant), or to decide something (a
/// condition, a key, a library call's argument: a constant).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Bound,
    Data,
    Control,
}

impl Mode {
    /// The mode of a part of an expression computed in this mode.
    fn inner(self) -> Mode {
        match self {
            Mode::Bound => Mode::Data,
            other => other,
        }
    }
}

struct Frame {
    locals: FxHashMap<String, Value>,
    globals: Vec<String>,
    /// Locals whose value the replay knows (`known.rs`).
    known: FxHashMap<String, Known>,
    /// The running function's closure (`Function::closure`).
    closure: Option<Arc<Closure>>,
    /// Names its `nonlocal` statements declared: bound in the closure.
    nonlocals: Vec<String>,
    /// A generator's frame: what it yielded, and what decided that it
    /// yielded them.
    yields: Option<(Vec<Value>, Deps)>,
    /// The code object it runs, when it is a function's.
    code: Option<u32>,
}

impl Frame {
    fn new(locals: FxHashMap<String, Value>) -> Frame {
        Frame {
            locals,
            globals: Vec::new(),
            known: FxHashMap::default(),
            closure: None,
            nonlocals: Vec::new(),
            yields: None,
            code: None,
        }
    }
}

/// Where the log has a user function's call being replayed.
enum Start {
    /// Its `Enter`, at this index.
    Logged(usize),
    /// Its calls are no longer logged: the call is opaque.
    Opaque,
    /// No `Enter` logged for it: its events, if any, follow.
    Unmarked,
}

/// The deepest chain of user-function calls replayed.
const MAX_DEPTH: usize = 64;

/// The deepest nesting of expressions replayed (and of what the replay
/// knows of one, `known.rs`).
const MAX_NESTING: usize = 120;

pub(crate) struct Replay<'s> {
    state: &'s mut State,
    effects: &'s Effects,
    log: Log<'s>,
    next: usize,
    cell: Arc<str>,
    positions: Arc<Positions>,
    /// The cell whose code is being replayed (the running cell, or the
    /// one that defined the function being replayed).
    code_cell: Arc<str>,
    /// The code object being replayed, as events name it.
    code: u32,
    frames: Vec<Frame>,
    /// The conditions the code being replayed runs under.
    control: Vec<Deps>,
    /// The `and`/`or` just evaluated stopped before its last operand: its
    /// start and the truth of the operand it stopped at (`conditions.rs`).
    short_circuit: Option<(ruff_text_size::TextSize, bool)>,
    /// How deep the expression being replayed is nested.
    nesting: usize,
    /// Decisions that kept a body from binding a name not bound yet (or
    /// from returning, `RETURN`), by frame depth and name: the binding
    /// that comes later depends on them too (`for x in xs: if x > 3:
    /// found = x; break` reads every element tested).
    kept_out: FxHashMap<(usize, String), Deps>,
    /// Code whose calls stopped being logged (`What::Saturated` passed).
    saturated: rustc_hash::FxHashSet<u32>,
    /// The generator expression replayed last was stopped by its consumer
    /// before its end (`any`/`all` found their answer).
    generator_stopped: bool,
    /// The decisions of the `if` just replayed whose branches hold a
    /// `break`, `continue` or `return` (and whether one is a `break` or
    /// `return`): the rest of the block ran, or was skipped, because of
    /// them (`block`).
    exit_decision: Option<(Deps, bool)>,
    /// The decisions in the running loop's iterations so far that could
    /// have ended it and did not: what its later iterations bound depends
    /// on them (`loop_went_on`).
    went_on: Deps,
    /// Per `try` body being replayed, what the names it read held: whether
    /// it raised depends on them (`exceptions.rs`).
    try_reads: Vec<TryReads>,
    /// The call about to be replayed is a statement of its own (its result
    /// is dropped: `buf.write(text)` is done for its effect).
    statement_call: bool,
    /// Global names the replay bound.
    bound: rustc_hash::FxHashSet<String>,
    /// The cell called code the replay cannot see into (a function of a
    /// cell it did not follow, one defined before recording, a class):
    /// that code may have changed any global.
    blind_call: bool,
    /// Globals that code the replay does not run changed (its body says
    /// it may: `log.append(x)` in a generator function).
    changed_unseen: Vec<String>,
    /// Per generator function's code, where the log of its last replayed
    /// run ended (its runs are replayed when created, out of the log's
    /// order: the next one starts after it).
    generator_ends: FxHashMap<u32, usize>,
    /// What the selections replayed last chose, by code and the call's
    /// start: a position (`np.argmax(xs)`) or an element of a list
    /// (`min(xs)`), for what the replay knows (`known.rs`: `ys[int(np.
    /// argmax(xs))]`, `xs.index(min(xs))`). A call replayed without a
    /// logged choice forgets its entry.
    chosen: FxHashMap<(u32, u32), Known>,
    /// While a comprehension's `if` is tested, the lines its decisions
    /// may be logged on besides its own: CPython places the jumps of a
    /// comprehension's conditions at its element (3.12+: `[f(c) for c in
    /// cs\n    if c > 0]` decides on the first line).
    condition_lines: Option<(u32, u32)>,
}

/// The name `kept_out` gives a function's return value.
const RETURN: &str = "<return>";

impl<'s> Replay<'s> {
    pub(super) fn new(
        state: &'s mut State,
        effects: &'s Effects,
        events: &'s [Event],
        cell: &str,
        positions: Arc<Positions>,
    ) -> Replay<'s> {
        Replay {
            state,
            effects,
            log: Log::new(events),
            next: 0,
            cell: Arc::from(cell),
            positions,
            code_cell: Arc::from(cell),
            code: code_key(cell, 0),
            frames: Vec::new(),
            control: Vec::new(),
            short_circuit: None,
            nesting: 0,
            kept_out: FxHashMap::default(),
            saturated: rustc_hash::FxHashSet::default(),
            generator_stopped: false,
            exit_decision: None,
            went_on: Deps::default(),
            try_reads: Vec::new(),
            statement_call: false,
            bound: rustc_hash::FxHashSet::default(),
            blind_call: false,
            changed_unseen: Vec::new(),
            generator_ends: FxHashMap::default(),
            chosen: FxHashMap::default(),
            condition_lines: None,
        }
    }

    /// Replays a cell's statements; `Ok` when the log was followed, to the
    /// end (`false`) or to where the cell raised an exception it did not
    /// catch (`true`).
    /// The names of `written` (the globals the run wrote, as the lineage
    /// saw them) that the replay did not bind, when the cell called code
    /// the replay cannot see into: it may have changed them, unseen.
    pub(super) fn unseen_writes(&self, written: &[String]) -> Vec<String> {
        let mut unseen: Vec<String> = self.changed_unseen.clone();
        if self.blind_call {
            unseen.extend(written.iter().filter(|w| !self.bound.contains(*w)).cloned());
        }
        unseen.sort_unstable();
        unseen.dedup();
        unseen
    }

    pub(super) fn run(&mut self, body: &[Stmt]) -> Result<bool, Unsupported> {
        match self.block(body) {
            Ok(Flow::Normal) => Ok(false),
            Err(Stop::Raised) => Ok(true),
            Ok(_) => Err(Unsupported(
                "break, continue or return outside a loop or function".into(),
            )),
            Err(Stop::Unsupported(why)) => Err(Unsupported(why)),
            Err(Stop::Saturated) => Err(Unsupported(
                "the log ended a function's calls outside any call".into(),
            )),
            Err(Stop::Suspended) => {
                Err(Unsupported("a generator suspended outside any call".into()))
            }
        }
    }

    // ----- the log ---------------------------------------------------

    fn at(&self, node: &impl Ranged) -> At {
        self.positions.at(node.start())
    }

    /// The first and last line of `node`.
    fn lines(&self, node: &impl Ranged) -> (u32, u32) {
        (
            self.positions.at(node.start()).0,
            self.positions.at(node.end()).0,
        )
    }

    /// The next event of the code being replayed, and where it is: events
    /// of other code (user code run where the replay sees an opaque call,
    /// such as a function a library calls back) and keys of older logs are
    /// passed over, and dropped when a later event is taken (`take`). A
    /// call of the same code (`Enter`) is where this call's events end.
    fn peek_at(&self) -> Option<(usize, &'s Event)> {
        self.log.of(self.code, self.next).find(|(_, e)| {
            !matches!(
                e.what,
                What::Key(_) | What::Unlogged | What::Order(_) | What::Ranks(_)
            )
        })
    }

    /// What the selection call `c` (`max(xs)`, `sorted(xs)`, `xs.sort()`)
    /// chose, when the recorder logged it: the next event of this code,
    /// at the call's start (3.12+, plain elements only).
    /// `name` is the call's (`max`, `min`, `sorted`, `sort`): from logged
    /// ranks it chooses as CPython does (the first of the largest or
    /// smallest; a stable order).
    fn order_at(&mut self, c: &ast::ExprCall, name: &str, reverse: bool) -> Option<Vec<u32>> {
        let at = self.at(c);
        let (i, e) = self
            .log
            .of(self.code, self.next)
            .find(|(_, e)| !matches!(e.what, What::Key(_) | What::Unlogged))?;
        // (CPython 3.10 logs no columns: the line says where.)
        let here = e.at == at || (e.at.1 == 0 && e.at.0 == at.0);
        let order = match &e.what {
            What::Order(order) if here && !reverse => order.clone(),
            What::Ranks(ranks) if here => from_ranks(name, ranks, reverse)?,
            _ => return None,
        };
        self.take(i);
        Some(order)
    }

    /// The position `np.argmax(v)` (or `v.argmax()`, `argmin`) returns:
    /// known when the recorder logged it, decided by every element.
    fn position_chosen(&mut self, c: &ast::ExprCall, v: &Value) -> Value {
        let position = match self.order_at(c, "max", false).as_deref() {
            Some(&[p]) => Some(Known::Int(i64::from(p))),
            _ => None,
        };
        self.note_choice(c, position);
        Value::scalar(v.deps().as_why())
    }

    /// The calls the running statement of the cell makes from here are not
    /// logged: the tracer stopped for the rest of it (an `Unlogged` marker
    /// comes before any further event of the cell's own code).
    fn unlogged_here(&self) -> bool {
        // The marker is an event of the cell's code.
        let module = code_key(&self.cell, 0);
        self.log
            .of(module, self.next)
            .next()
            .is_some_and(|(_, e)| e.what == What::Unlogged)
    }

    fn peek(&self) -> Option<&'s Event> {
        self.peek_at().map(|(_, e)| e)
    }

    /// Takes the event at `index` (and drops those before it; a function
    /// whose calls stopped being logged among them stays so).
    fn take(&mut self, index: usize) {
        let events: &'s [Event] = self.log.events();
        for e in events.get(self.next..index).unwrap_or_default() {
            if e.what == What::Saturated {
                self.saturated.insert(e.code);
            }
        }
        self.next = index + 1;
    }

    /// The code being replayed has no more events in the log: its calls
    /// stopped being logged (a marker here or passed earlier).
    fn saturated_here(&self) -> bool {
        self.saturated.contains(&self.code)
            || self.peek().is_some_and(|e| e.what == What::Saturated)
    }

    /// The jump CPython took testing a part of a condition on the lines of
    /// `node`.
    fn jump(&mut self, node: &impl Ranged) -> R<What> {
        let (first, last) = self.lines(node);
        let also = self.condition_lines.unwrap_or((first, last));
        match self.peek_at() {
            Some((i, e))
                if ((first..=last).contains(&e.at.0) || (also.0..=also.1).contains(&e.at.0))
                    && matches!(e.what, What::Decision(_) | What::NoneTest(_)) =>
            {
                self.take(i);
                Ok(e.what.clone())
            }
            // The code raised before it decided.
            Some((_, e)) if e.what == What::Raised => Err(Stop::Raised),
            _ if self.saturated_here() => Err(Stop::Saturated),
            _ if self.generator_suspended() => Err(Stop::Suspended),
            other => unsupported(format!(
                "expected a decision on line {first}, found {}",
                describe(other.map(|(_, e)| e))
            )),
        }
    }

    /// `Some(true)`: one more iteration; `Some(false)`: exhausted; `None`:
    /// the loop was left another way (`break`, an error) and the log goes on
    /// elsewhere. `lines`: where the loop's header is.
    fn iteration(&mut self, lines: (u32, u32)) -> Option<bool> {
        let (i, e) = self.peek_at()?;
        if !(lines.0..=lines.1).contains(&e.at.0) {
            return None;
        }
        let more = match e.what {
            What::Iteration => true,
            What::Exhausted => false,
            _ => return None,
        };
        self.take(i);
        Some(more)
    }

    /// The next step of the loop or comprehension (`what`) whose header is
    /// on `lines`: `true` one more iteration, `false` exhausted; the code
    /// raised or stopped being logged there; otherwise the log does not fit.
    fn step(&mut self, lines: (u32, u32), what: &str) -> R<bool> {
        match self.iteration(lines) {
            Some(more) => Ok(more),
            None if self.peek().is_some_and(|e| e.what == What::Raised) => Err(Stop::Raised),
            None if self.saturated_here() => Err(Stop::Saturated),
            None if self.generator_suspended() => Err(Stop::Suspended),
            None => unsupported(format!(
                "the {what} on line {} not logged, found {}",
                lines.0,
                describe(self.peek())
            )),
        }
    }

    /// The code being replayed is a generator's whose log ends here (no
    /// later event of it, or its next run's start): it was not resumed.
    fn generator_suspended(&self) -> bool {
        self.in_generator() && self.peek().is_none_or(|e| e.what == What::Enter)
    }

    fn in_generator(&self) -> bool {
        self.frames.last().is_some_and(|f| f.yields.is_some())
    }

    /// The running generator yielded `items`.
    fn yielded(&mut self, items: Vec<Value>) {
        let why = self.control();
        let items: Vec<Value> = items.into_iter().map(|v| v.with_why(&why)).collect();
        if let Some(frame) = self.frames.last_mut()
            && let Some((out, structure)) = &mut frame.yields
        {
            structure.union(&why.as_why());
            out.extend(items);
        }
    }

    fn control(&self) -> Deps {
        let mut d = Deps::default();
        for c in &self.control {
            d.union(c);
        }
        d
    }

    // ----- names -----------------------------------------------------

    fn top_level(&self) -> bool {
        self.frames.is_empty()
    }

    fn lookup(&mut self, name: &str) -> Value {
        let value = self.lookup_value(name);
        if let Some(reads) = self.try_reads.last_mut() {
            reads.read(&value);
        }
        value
    }

    fn lookup_value(&mut self, name: &str) -> Value {
        if let Some(frame) = self.frames.last()
            && !frame.globals.iter().any(|g| g == name)
            && let Some(v) = frame.locals.get(name)
        {
            return v.clone();
        }
        if let Some(frame) = self.frames.last()
            && let Some(v) = frame.closure.as_ref().and_then(|c| c.get(name))
        {
            return v;
        }
        if let Some(v) = self.state.globals.get(name) {
            return v.clone();
        }
        if is_builtin_name(name) {
            return Value::Module(format!("builtins.{name}"));
        }
        // Bound before provenance was recorded, or out of sight: an input.
        let id = self
            .state
            .inputs
            .add(None, Some(name.to_string()), Vec::new());
        let v = Value::object(Deps::input(id), Some(id));
        self.state.globals.insert(name.to_string(), v.clone());
        v
    }

    fn bind_name(&mut self, name: &str, value: Value) {
        self.set_known(name, None);
        self.state.inputs.name(&value, name, &self.cell);
        let mut value = value.with_why(&self.control());
        if !self.kept_out.is_empty()
            && let Some(kept) = self.kept_out.remove(&(self.frames.len(), name.to_string()))
        {
            value = value.with_why(&kept);
        }
        // (A name bound again, as a loop's target is, costs no new key.)
        if let Some(frame) = self.frames.last()
            && frame.nonlocals.iter().any(|n| n == name)
            && let Some(closure) = &frame.closure
        {
            closure.set(name, value);
            return;
        }
        match self.frames.last_mut() {
            Some(frame) if !frame.globals.iter().any(|g| g == name) => {
                set(&mut frame.locals, name, value);
            }
            _ => {
                if !self.bound.contains(name) {
                    self.bound.insert(name.to_string());
                }
                set(&mut self.state.globals, name, value);
            }
        }
    }

    /// `del name`.
    fn unbind(&mut self, name: &str) {
        self.set_known(name, None);
        match self.frames.last_mut() {
            Some(frame) if !frame.globals.iter().any(|g| g == name) => {
                frame.locals.remove(name);
            }
            _ => {
                self.state.globals.remove(name);
            }
        }
    }

    /// Assigns `value` to `target` (names, unpacking, subscripts,
    /// attributes).
    fn bind(&mut self, target: &Expr, value: Value) -> R<()> {
        match target {
            Expr::Name(n) => {
                self.bind_name(n.id.as_str(), value);
                Ok(())
            }
            Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::List(ast::ExprList { elts, .. }) => {
                let items = value.elements();
                let whole = value.deps();
                for (i, t) in elts.iter().enumerate() {
                    if let Expr::Starred(s) = t {
                        let rest = match &items {
                            Some(items) => Value::sequence(
                                items.iter().skip(i).cloned().collect(),
                                value.structure(),
                            ),
                            None => Value::scalar(whole.clone()),
                        };
                        self.bind(&s.value, rest)?;
                        continue;
                    }
                    let item = match &items {
                        Some(items) if items.len() == elts.len() => items[i].clone(),
                        _ => Value::scalar(whole.clone()),
                    };
                    self.bind(t, item)?;
                }
                Ok(())
            }
            Expr::Subscript(s) => {
                let container = self.eval(&s.value, Mode::Control)?;
                let key = self.key_of(&s.slice)?;
                if let (Some(path), Some(k)) = (symbol_path(&s.value), &key.0) {
                    self.state
                        .inputs
                        .name(&value, &format!("{path}[{k}]"), &self.cell);
                }
                reached(&container, &key.1);
                // The key is data of the dict's keys (iterating it).
                if let Value::Mapping(m) = &container {
                    let mut m = m.borrow_mut();
                    m.structure.union(&key.1);
                    if let Some(k) = &key.0 {
                        m.made_by(k, &key.1);
                    }
                }
                let value = value.with_why(&self.control().union_with(&key.1));
                self.store(&container, key.0, value);
                Ok(())
            }
            Expr::Attribute(a) => {
                let object = self.eval(&a.value, Mode::Control)?;
                if let Some(path) = symbol_path(&a.value) {
                    self.state
                        .inputs
                        .name(&value, &format!("{path}.{}", a.attr), &self.cell);
                }
                let value = value.with_why(&self.control());
                self.store(&object, Some(format!(".{}", a.attr)), value);
                Ok(())
            }
            Expr::Starred(s) => self.bind(&s.value, value),
            _ => unsupported("an assignment target"),
        }
    }

    /// `container[key] = value` (`key` a repr, or `.attr`; `None`: unknown).
    fn store(&mut self, container: &Value, key: Option<String>, value: Value) {
        // Computed before any lock: the value may hold the container.
        let deps = value.deps();
        match (container, key) {
            (Value::Sequence(s), Some(k)) => {
                let mut s = s.borrow_mut();
                let len = s.items.len() as i64;
                match k.parse::<i64>() {
                    Ok(i) if (-len..len).contains(&i) => {
                        let i = if i < 0 { i + len } else { i } as usize;
                        s.items[i] = value;
                    }
                    _ => s.structure.union(&deps),
                }
            }
            (Value::Mapping(m), Some(k)) => {
                let mut m = m.borrow_mut();
                match m.items.iter_mut().find(|(key, _)| *key == k) {
                    Some((_, v)) => *v = value,
                    None => m.items.push((k, value)),
                }
            }
            (Value::Object(o), Some(k)) => {
                // Parts are named as read: `['k']` for a key, `.a` for an
                // attribute.
                let k = if k.starts_with('.') {
                    k
                } else {
                    format!("[{k}]")
                };
                // A frame's column read both ways (`df['a']`, `df.a`) is one.
                let twin = frames::twin(&k);
                let mut o = o.borrow_mut();
                // The object as a whole (a method of it, a copy) now
                // holds the part too.
                o.deps.union(&deps);
                if let Some(twin) = twin
                    && let Some((_, v)) = o.parts.iter_mut().find(|(key, _)| *key == twin)
                {
                    *v = value.clone();
                }
                match o.parts.iter_mut().find(|(key, _)| *key == k) {
                    Some((_, v)) => *v = value,
                    None => o.parts.push((k, value)),
                }
            }
            (Value::Sequence(s), None) => s.borrow_mut().structure.union(&deps),
            (Value::Mapping(m), None) => m.borrow_mut().structure.union(&deps),
            (Value::Object(o), None) => o.borrow_mut().deps.union(&deps),
            _ => {}
        }
    }

    // ----- statements ------------------------------------------------

    fn block(&mut self, body: &[Stmt]) -> R<Flow> {
        let base = self.control.len();
        let flow = self.statements(body);
        self.control.truncate(base);
        flow
    }

    /// `body`'s statements in order. After an `if` that could have left
    /// the block (`break`, `continue`, `return`), the rest of the block
    /// ran because it did not (its decisions are control of the rest, and
    /// of the loop's later iterations when it could have ended the loop),
    /// or was skipped because it did.
    fn statements(&mut self, body: &[Stmt]) -> R<Flow> {
        for (i, stmt) in body.iter().enumerate() {
            let flow = self.stmt(stmt);
            // The statement raised (the log has this code's raise on its
            // lines): it ends here, whatever the replay made of it.
            let raised = self.take_raised(stmt);
            let exit = self.exit_decision.take();
            match flow {
                Ok(_) if raised => return Err(Stop::Raised),
                Ok(Flow::Normal) => {
                    if let Some((decided, ends_loop)) = exit {
                        if ends_loop {
                            self.went_on.union(&decided);
                        }
                        self.control.push(decided);
                    }
                }
                Ok(other) => {
                    if let Some((decided, ends_loop)) = exit {
                        self.skipped(&body[i + 1..], &decided);
                        self.exit_decision = Some((decided, ends_loop));
                    }
                    return Ok(other);
                }
                Err(e) => return Err(e),
            }
        }
        Ok(Flow::Normal)
    }

    fn stmt(&mut self, stmt: &Stmt) -> R<Flow> {
        match stmt {
            Stmt::Expr(s) => {
                self.statement_call = matches!(&*s.value, Expr::Call(_));
                self.eval(&s.value, Mode::Data)?;
                self.statement_call = false;
            }
            Stmt::Assign(s) => {
                let known = self.known(&s.value);
                let value = self.eval(&s.value, Mode::Bound)?;
                // Computing the value raised: nothing is bound.
                if self.take_raised(s) {
                    return Err(Stop::Raised);
                }
                // What a selection in it chose is known once it ran.
                let known = known.or_else(|| self.chosen_in(&s.value));
                for t in &s.targets {
                    self.bind(t, value.clone())?;
                    if let Expr::Name(n) = t {
                        self.set_known(n.id.as_str(), known.clone());
                    }
                }
            }
            Stmt::AnnAssign(s) => {
                if let Some(v) = &s.value {
                    let value = self.eval(v, Mode::Bound)?;
                    if self.take_raised(s) {
                        return Err(Stop::Raised);
                    }
                    self.bind(&s.target, value)?;
                }
            }
            Stmt::AugAssign(s) => {
                let known = match &*s.target {
                    Expr::Name(n) => self
                        .known_name(n.id.as_str())
                        .cloned()
                        .zip(self.known(&s.value))
                        .and_then(|(l, r)| known::apply(s.op, l, r)),
                    _ => None,
                };
                self.aug_assign(s)?;
                if let Expr::Name(n) = &*s.target {
                    self.set_known(n.id.as_str(), known);
                }
            }
            Stmt::If(s) => return self.if_(s),
            Stmt::While(s) => return self.while_(s),
            Stmt::For(s) => return self.for_(s),
            Stmt::Break(_) => return Ok(Flow::Break),
            Stmt::Continue(_) => return Ok(Flow::Continue),
            Stmt::Pass(_) => {}
            Stmt::Return(s) => {
                let value = match &s.value {
                    Some(v) => self.eval(v, Mode::Data)?,
                    None => Value::constant(),
                };
                let mut value = value.with_why(&self.control());
                if let Some(kept) = self
                    .kept_out
                    .remove(&(self.frames.len(), RETURN.to_string()))
                {
                    value = value.with_why(&kept);
                }
                return Ok(Flow::Return(value));
            }
            Stmt::Raise(s) => {
                for e in [&s.exc, &s.cause].into_iter().flatten() {
                    self.eval(e, Mode::Control)?;
                }
                return Err(Stop::Raised);
            }
            Stmt::FunctionDef(f) => {
                // A function the replay does not run (decorated, async, a
                // generator that makes others of itself): an object of this
                // cell, as a class is; what a call of it changes is not seen
                // (`blind_call`).
                let generator = yields(&f.body);
                if !f.decorator_list.is_empty()
                    || f.is_async
                    || (generator && names(&f.body, f.name.as_str()))
                {
                    for d in &f.decorator_list {
                        self.eval(&d.expression, Mode::Control)?;
                    }
                    let id = self.state.inputs.add(
                        Some(self.cell.clone()),
                        Some(f.name.to_string()),
                        Vec::new(),
                    );
                    self.state.changes.insert(id, global_effects(f));
                    self.bind_name(f.name.as_str(), Value::object(Deps::input(id), Some(id)));
                    return Ok(Flow::Normal);
                }
                let function = self.function_def(f, generator)?;
                self.bind_name(f.name.as_str(), function);
            }
            Stmt::ClassDef(c) => {
                if let Some(class) = self.class_of(c)? {
                    self.bind_name(c.name.as_str(), class);
                    return Ok(Flow::Normal);
                }
                let id = self.state.inputs.add(
                    Some(self.cell.clone()),
                    Some(c.name.to_string()),
                    Vec::new(),
                );
                self.bind_name(c.name.as_str(), Value::object(Deps::input(id), Some(id)));
            }
            Stmt::Import(s) => {
                for alias in &s.names {
                    let full = alias.name.as_str();
                    match &alias.asname {
                        Some(as_) => self.bind_name(as_.as_str(), Value::Module(full.to_string())),
                        None => {
                            let first = full.split('.').next().unwrap_or(full);
                            self.bind_name(first, Value::Module(first.to_string()));
                        }
                    }
                }
            }
            Stmt::ImportFrom(s) => {
                let module = s.module.as_ref().map(|m| m.as_str()).unwrap_or("");
                for alias in &s.names {
                    if alias.name.as_str() == "*" {
                        return unsupported("a star import");
                    }
                    let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                    self.bind_name(
                        bound.as_str(),
                        Value::Module(format!("{module}.{}", alias.name)),
                    );
                }
            }
            Stmt::Delete(s) => {
                for t in &s.targets {
                    if let Expr::Name(n) = t {
                        self.unbind(n.id.as_str());
                    }
                }
            }
            Stmt::Global(g) => {
                if let Some(frame) = self.frames.last_mut() {
                    frame.globals.extend(g.names.iter().map(|n| n.to_string()));
                }
            }
            Stmt::Nonlocal(n) => match self.frames.last_mut() {
                Some(frame) if frame.closure.is_some() => {
                    frame
                        .nonlocals
                        .extend(n.names.iter().map(|n| n.to_string()));
                }
                _ => return unsupported("a nonlocal outside a closure"),
            },
            Stmt::With(s) => return self.with_(s),
            Stmt::Try(s) => return self.try_(s),
            Stmt::Match(s) => return self.match_(s),
            Stmt::Assert(s) => {
                self.test(&s.test)?;
            }
            Stmt::IpyEscapeCommand(_) => {}
            _ => {
                return unsupported("a statement the replay does not know (a type alias, ...)");
            }
        }
        Ok(Flow::Normal)
    }

    /// `target op= value`.
    fn aug_assign(&mut self, s: &ast::StmtAugAssign) -> R<()> {
        // Python evaluates a subscript or attribute target's object
        // and key once.
        let place = match &*s.target {
            Expr::Subscript(sub) => {
                let container = self.eval(&sub.value, Mode::Control)?;
                let (key, key_deps) = self.key_of(&sub.slice)?;
                reached(&container, &key_deps);
                Some((container, key, key_deps, Some(&*sub.slice)))
            }
            Expr::Attribute(a) => {
                let object = self.eval(&a.value, Mode::Control)?;
                Some((object, Some(format!(".{}", a.attr)), Deps::default(), None))
            }
            _ => None,
        };
        let old = match &place {
            Some((container, key, key_deps, Some(slice))) => self
                .load(container, key.as_deref(), slice)?
                .with_why(key_deps),
            Some((object, attr, _, None)) => match (object, attr) {
                (Value::Object(_), Some(attr)) => self.part(object, attr),
                (other, _) => Value::scalar(other.deps()),
            },
            None => self.eval(&s.target, Mode::Control)?,
        };
        let add = self.eval(&s.value, Mode::Data)?;
        if let Some((container, key, key_deps, _)) = place {
            let in_place = matches!((&old, &add), (Value::Sequence(o), Value::Sequence(a)) if !Shared::ptr_eq(o, a));
            if !in_place {
                let mut deps = old.deps();
                deps.union(&add.deps());
                let value = Value::scalar(deps).with_why(&self.control().union_with(&key_deps));
                self.store(&container, key, value);
                return Ok(());
            }
        }
        match (&old, &add) {
            // `lst += [...]` extends the list in place.
            (Value::Sequence(o), Value::Sequence(a)) if !Shared::ptr_eq(o, a) => {
                let items = a.borrow().items.clone();
                let structure = a.borrow().structure.clone();
                let mut o = o.borrow_mut();
                o.items.extend(items);
                o.structure.union(&structure);
                o.structure.union(&self.control().as_why());
            }
            _ => {
                let mut deps = old.deps();
                deps.union(&add.deps());
                self.bind(&s.target, Value::scalar(deps))?;
            }
        }
        Ok(())
    }

    /// Every name `body` may assign or change in place (for the implicit
    /// flow of a decision that skipped it).
    fn assigned_names(body: &[Stmt], out: &mut Vec<String>) {
        use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
        struct Names<'o>(&'o mut Vec<String>);
        impl<'a> Visitor<'a> for Names<'_> {
            fn visit_stmt(&mut self, stmt: &'a Stmt) {
                match stmt {
                    Stmt::FunctionDef(f) => self.0.push(f.name.to_string()),
                    Stmt::ClassDef(c) => self.0.push(c.name.to_string()),
                    Stmt::Return(_) => {
                        self.0.push(RETURN.to_string());
                        walk_stmt(self, stmt);
                    }
                    _ => walk_stmt(self, stmt),
                }
            }
            fn visit_expr(&mut self, expr: &'a Expr) {
                match expr {
                    Expr::Name(n) if n.ctx.is_store() => self.0.push(n.id.to_string()),
                    // What the body would have changed in place: a method
                    // call's receiver (`out.append(x)`), an element or
                    // attribute stored to (`out[k] = x`).
                    Expr::Call(ast::ExprCall { func, .. }) => {
                        if let Expr::Attribute(a) = &**func
                            && let Expr::Name(n) = &*a.value
                        {
                            self.0.push(n.id.to_string());
                        }
                        walk_expr(self, expr);
                    }
                    Expr::Subscript(ast::ExprSubscript { value, ctx, .. })
                    | Expr::Attribute(ast::ExprAttribute { value, ctx, .. })
                        if ctx.is_store() =>
                    {
                        if let Expr::Name(n) = &**value {
                            self.0.push(n.id.to_string());
                        }
                        walk_expr(self, expr);
                    }
                    Expr::Lambda(_)
                    | Expr::ListComp(_)
                    | Expr::SetComp(_)
                    | Expr::DictComp(_)
                    | Expr::Generator(_) => {}
                    _ => walk_expr(self, expr),
                }
            }
        }
        let mut names = Names(out);
        for stmt in body {
            names.visit_stmt(stmt);
        }
    }

    /// A decision kept `body` from running (again): what it would have
    /// assigned now also depends on the decision.
    fn skipped(&mut self, body: &[Stmt], why: &Deps) {
        let mut names = Vec::new();
        Self::assigned_names(body, &mut names);
        // An attribute it would have stored (`self.balance += amount`), or
        // a method it would have called would have (`acct.deposit(x)`):
        // the object's part, when it has one, is decided too.
        let current = |r: &Self, name: &str| match r.frames.last() {
            Some(frame) if !frame.globals.iter().any(|g| g == name) => {
                frame.locals.get(name).cloned()
            }
            _ => r.state.globals.get(name).cloned(),
        };
        let mut stores = Vec::new();
        for name in &classes::attribute_roots(body) {
            let Some(object @ Value::Object(_)) = current(self, name) else {
                continue;
            };
            let changes = nbsight_dataflow::method_calls::attribute_changes(body, name);
            for method in &changes.own_methods {
                stores.extend(classes::stored_by_method(&object, method));
            }
            stores.extend(changes.attrs);
            stores.sort_unstable();
            stores.dedup();
            let Value::Object(o) = &object else { continue };
            for attr in stores.drain(..) {
                let key = format!(".{attr}");
                let part = o.borrow().parts.iter().position(|(k, _)| *k == key);
                if let Some(i) = part {
                    // (Not under the object's lock: the part may be the
                    // object itself.)
                    let value = o.borrow().parts[i].1.clone();
                    let decided = value.with_why(why);
                    o.borrow_mut().parts[i].1 = decided;
                }
            }
        }
        for name in names {
            match current(self, &name) {
                Some(v) => {
                    let v = v.with_why(why);
                    match self.frames.last_mut() {
                        Some(frame) if !frame.globals.contains(&name) => {
                            frame.locals.insert(name, v);
                        }
                        _ => {
                            self.state.globals.insert(name, v);
                        }
                    }
                }
                None => self
                    .kept_out
                    .entry((self.frames.len(), name))
                    .or_default()
                    .union(why),
            }
        }
    }

    fn if_(&mut self, s: &ast::StmtIf) -> R<Flow> {
        let (flow, decided) = self.branches(s);
        self.exit_after(decided, if_exits(s));
        flow
    }

    /// After a statement choosing between blocks (`if`, `match`) that
    /// `decided` chose: when a block may leave (`exits`), what follows
    /// depends on that decision (`statements`), with any exit decision of
    /// the block that ran.
    fn exit_after(&mut self, decided: Option<Deps>, (leaves, ends_loop): (bool, bool)) {
        let inner = self.exit_decision.take();
        if leaves && let Some(mut decided) = decided {
            let mut ends = ends_loop;
            if let Some((d, e)) = inner {
                decided.union(&d);
                ends |= e;
            }
            self.exit_decision = Some((decided, ends));
        }
    }

    /// The branch taken, run; and the decisions that chose it (none when
    /// a test raised).
    fn branches(&mut self, s: &ast::StmtIf) -> (R<Flow>, Option<Deps>) {
        let mut branches: Vec<(Option<&Expr>, &[Stmt])> = vec![(Some(&s.test), &s.body)];
        for clause in &s.elif_else_clauses {
            branches.push((clause.test.as_ref(), &clause.body));
        }
        let mut decided = Deps::default();
        for (i, (test, body)) in branches.iter().enumerate() {
            let taken = match test {
                Some(test) => match self.test(test) {
                    Ok((taken, deps)) => {
                        decided.union(&deps.as_why());
                        taken
                    }
                    Err(stop) => return (Err(stop), None),
                },
                None => true,
            };
            if taken {
                for (_, other) in branches.iter().enumerate().filter(|(j, _)| *j != i) {
                    self.skipped(other.1, &decided);
                }
                self.control.push(decided.clone());
                let flow = self.block(body);
                self.control.pop();
                return (flow, Some(decided));
            }
        }
        for (_, body) in &branches {
            self.skipped(body, &decided);
        }
        (Ok(Flow::Normal), Some(decided))
    }

    fn while_(&mut self, s: &ast::StmtWhile) -> R<Flow> {
        let outer = std::mem::take(&mut self.went_on);
        let flow = self.while_loop(s);
        self.loop_went_on(&s.body, outer);
        flow
    }

    /// After a loop: what its body bound depends on the decisions that
    /// could have ended it earlier and did not (applied once, not at each
    /// iteration: a loop of many steps stays linear).
    fn loop_went_on(&mut self, body: &[Stmt], outer: Deps) {
        let went_on = std::mem::replace(&mut self.went_on, outer);
        if !went_on.is_empty() {
            self.skipped(body, &went_on.as_why());
        }
    }

    fn while_loop(&mut self, s: &ast::StmtWhile) -> R<Flow> {
        let mut decided = Deps::default();
        loop {
            let (taken, deps) = self.test(&s.test)?;
            decided.union(&deps.as_why());
            if !taken {
                self.skipped(&s.body, &decided);
                return self.block(&s.orelse);
            }
            if let Some(end) = self.iterate(&s.body, decided.clone())? {
                return Ok(end);
            }
        }
    }

    /// One run of a loop's body under `control`: `Some` with how the loop
    /// ends when the body leaves it (`break`, `return`, `raise`).
    fn iterate(&mut self, body: &[Stmt], control: Deps) -> R<Option<Flow>> {
        self.control.push(control);
        let flow = self.block(body);
        self.control.pop();
        // A `break` or `continue` ends here; a `return` goes on leaving.
        if !matches!(flow, Ok(Flow::Return(_))) {
            // The decision that broke out of the loop decided what its
            // body bound last (it ran no more).
            if let (Ok(Flow::Break), Some((decided, true))) = (&flow, self.exit_decision.take()) {
                self.went_on.union(&decided);
            }
            self.exit_decision = None;
        }
        Ok(match flow? {
            Flow::Break => Some(Flow::Normal),
            Flow::Normal | Flow::Continue => None,
            end => Some(end),
        })
    }

    fn for_(&mut self, s: &ast::StmtFor) -> R<Flow> {
        let outer = std::mem::take(&mut self.went_on);
        let flow = self.for_loop(s);
        self.loop_went_on(&s.body, outer);
        flow
    }

    fn for_loop(&mut self, s: &ast::StmtFor) -> R<Flow> {
        if s.is_async {
            return unsupported("an async for");
        }
        let iterable = self.eval(&s.iter, Mode::Control)?;
        let lines = (self.lines(s).0, self.lines(&*s.iter).1);
        let structure = iterable.structure().as_why();
        let elements = iterable.elements();
        let keys = self.iterated_keys(&s.iter, &iterable);
        let mut k = 0;
        loop {
            match self.step(lines, "loop")? {
                true => {}
                false => {
                    self.skipped(&s.body, &structure);
                    return self.block(&s.orelse);
                }
            }
            let item = element(&iterable, elements.as_deref(), k);
            self.control.push(structure.clone());
            let bound = self.bind(&s.target, item);
            self.control.pop();
            bound?;
            self.know_target(&s.target, keys.as_ref().and_then(|keys| keys.get(k)));
            k += 1;
            if let Some(end) = self.iterate(&s.body, structure.clone())? {
                return Ok(end);
            }
        }
    }

    // ----- functions -------------------------------------------------

    /// The function a `def` makes (`generator`: its body yields).
    fn function_def(&mut self, f: &ast::StmtFunctionDef, generator: bool) -> R<Value> {
        let first_line = self.lines(f).0;
        self.function_of(
            &f.parameters,
            Body::Block(f.body.to_vec()),
            first_line,
            generator,
        )
    }

    fn function_of(
        &mut self,
        params: &ast::Parameters,
        body: Body,
        first_line: u32,
        generator: bool,
    ) -> R<Value> {
        if params.vararg.is_some() || params.kwarg.is_some() {
            return unsupported("a function with *args or **kwargs");
        }
        let mut list = Vec::new();
        for p in params
            .posonlyargs
            .iter()
            .chain(&params.args)
            .chain(&params.kwonlyargs)
        {
            let default = match &p.default {
                Some(d) => Some(self.eval(d, Mode::Data)?),
                None => None,
            };
            list.push((p.parameter.name.to_string(), default));
        }
        // Defined in a function: what it sees of the enclosing scopes.
        let closure = self.frames.last().map(|frame| {
            let mut seen = frame
                .closure
                .as_deref()
                .map(Closure::variables)
                .unwrap_or_default();
            seen.extend(frame.locals.iter().map(|(k, v)| (k.clone(), v.clone())));
            Arc::new(Closure::new(seen))
        });
        Ok(Value::Function(Arc::new(Function {
            params: list,
            body,
            positions: self.positions.clone(),
            code: code_key(&self.code_cell, first_line),
            cell: self.code_cell.clone(),
            closure,
            generator,
        })))
    }

    fn call_user(
        &mut self,
        f: &Function,
        args: Vec<Value>,
        keywords: Vec<(String, Value)>,
    ) -> R<Value> {
        if self.frames.len() >= MAX_DEPTH {
            return unsupported("calls nested too deep");
        }
        // (A comprehension's condition calling it: its own decisions are
        // where its code says.)
        let outer = self.condition_lines.take();
        let called = self.call_user_here(f, args, keywords);
        self.condition_lines = outer;
        called
    }

    fn call_user_here(
        &mut self,
        f: &Function,
        args: Vec<Value>,
        keywords: Vec<(String, Value)>,
    ) -> R<Value> {
        let args_all: Vec<Value> = args
            .iter()
            .cloned()
            .chain(keywords.iter().map(|(_, v)| v.clone()))
            .collect();
        // A generator runs as its consumer takes from it. It is replayed
        // here, where it is made, when the log shows its run starting
        // before the caller's code logs anything more (`list(gen(xs))`,
        // `for x in gen(xs)`, `g = gen(xs)` then `next(g)`): from its
        // start, out of the log's order (the caller's own events stay
        // where they are); otherwise it is opaque.
        let resumed_at = if f.generator {
            // A generator made while one of the same function runs (a
            // recursive walk, `yield from walk(child)`): the log does not
            // tell apart the events of the two runs of one code.
            if self
                .frames
                .iter()
                .any(|frame| frame.yields.is_some() && frame.code == Some(f.code))
            {
                return unsupported("a generator function that makes another of itself");
            }
            let from = self
                .generator_ends
                .get(&f.code)
                .copied()
                .unwrap_or(0)
                .max(self.next);
            let caller_next = self.peek_at().map(|(j, _)| j);
            match self.log.of(f.code, from).next() {
                Some((i, e)) if e.what == What::Enter && caller_next.is_none_or(|j| j > i) => {
                    Some(std::mem::replace(&mut self.next, i))
                }
                _ => {
                    // (What its run does to the globals is not seen.)
                    self.blind_call = true;
                    return Ok(opaque_call(&args_all));
                }
            }
        } else {
            None
        };
        // The call's start, when the log has it (it bounds where this call's
        // events end: `peek_at`), looked at before the frame is built (an
        // opaque call needs none). No `Enter`, and the caller's code raised
        // next: the call never happened (an argument, or what came before
        // it in the statement, raised).
        let outer_code = std::mem::replace(&mut self.code, f.code);
        let start = match self.peek_at() {
            Some((i, e)) if e.what == What::Enter => Start::Logged(i),
            // Not logged any more: the call is opaque.
            _ if self.saturated_here() || self.unlogged_here() => Start::Opaque,
            _ => {
                self.code = outer_code;
                if self.peek().is_some_and(|e| e.what == What::Raised) {
                    return Err(Stop::Raised);
                }
                self.code = f.code;
                Start::Unmarked
            }
        };
        let mut locals = FxHashMap::default();
        for (i, (name, default)) in f.params.iter().enumerate() {
            let value = args
                .get(i)
                .cloned()
                .or_else(|| {
                    keywords
                        .iter()
                        .find(|(k, _)| k == name)
                        .map(|(_, v)| v.clone())
                })
                .or_else(|| default.clone())
                .unwrap_or_else(Value::constant);
            self.state.inputs.name(&value, name, &self.cell);
            locals.insert(name.clone(), value);
        }
        match start {
            Start::Logged(i) => self.take(i),
            Start::Opaque => {
                self.code = outer_code;
                return Ok(opaque_call(&args_all));
            }
            Start::Unmarked => {}
        }
        let outer = std::mem::replace(&mut self.positions, f.positions.clone());
        let mut frame = Frame::new(locals);
        frame.closure = f.closure.clone();
        frame.yields = f.generator.then(Default::default);
        frame.code = Some(f.code);
        self.frames.push(frame);
        let outer_cell = std::mem::replace(&mut self.code_cell, f.cell.clone());
        let depth = self.frames.len();
        let outer_went_on = std::mem::take(&mut self.went_on);
        let result = match &f.body {
            Body::Block(body) => self.block(body).map(|flow| match flow {
                Flow::Return(v) => v,
                // Falling off the end: the decisions that kept a `return`
                // from running decided the `None`.
                _ => match self.kept_out.get(&(depth, RETURN.to_string())) {
                    Some(kept) => Value::scalar(kept.as_why()),
                    None => Value::constant(),
                },
            }),
            Body::Lambda(expr) => self.eval(expr, Mode::Data),
        };
        self.kept_out.retain(|(d, _), _| *d < depth);
        self.went_on = outer_went_on;
        self.exit_decision = None;
        let frame = self.frames.pop();
        self.positions = outer;
        self.code_cell = outer_cell;
        self.code = outer_code;
        if let Some(caller_at) = resumed_at {
            self.generator_ends.insert(f.code, self.next);
            self.next = caller_at;
            let (items, structure) = frame.and_then(|f| f.yields).unwrap_or_default();
            return match result {
                // It ended, its consumer stopped taking, or it raised (to
                // its consumer, whose own log says so).
                Ok(_) | Err(Stop::Suspended | Stop::Raised) => {
                    Ok(Value::sequence(items, structure))
                }
                Err(Stop::Saturated) => Ok(opaque_call(&args_all)),
                Err(other) => Err(other),
            };
        }
        match result {
            // Its events stopped being logged: the rest of it is opaque.
            Err(Stop::Saturated) => Ok(opaque_call(&args_all)),
            other => other,
        }
    }

    // ----- expressions -----------------------------------------------

    /// A subscript key: its repr (`None` when unknown) and what it depends
    /// on.
    fn key_of(&mut self, slice: &Expr) -> R<(Option<String>, Deps)> {
        if let Some(key) = constant_key(slice) {
            return Ok((key, Deps::default()));
        }
        if let Expr::Slice(_) = slice {
            let deps = self.eval(slice, Mode::Control)?.deps();
            return Ok((None, deps));
        }
        let key = self.known(slice);
        let deps = self.eval(slice, Mode::Control)?.deps();
        let key = key.or_else(|| self.chosen_in(slice)).and_then(|k| k.repr());
        Ok((key, deps))
    }

    fn literal(&mut self, mode: Mode) -> Value {
        if mode == Mode::Bound && self.top_level() {
            let id = self
                .state
                .inputs
                .add(Some(self.cell.clone()), None, Vec::new());
            Value::scalar(Deps::input(id))
        } else {
            Value::constant()
        }
    }

    /// A list, tuple or set display; `ordered`: iterating it takes the
    /// elements in the source's order (what a loop over a literal of
    /// constants binds is then known).
    fn display(&mut self, elts: &[Expr], mode: Mode, ordered: bool) -> R<Value> {
        let mut items = Vec::with_capacity(elts.len());
        for e in elts {
            if let Expr::Starred(s) = e {
                let v = self.eval(&s.value, mode)?;
                match v.elements() {
                    Some(inner) => items.extend(inner),
                    None => items.push(Value::scalar(v.deps())),
                }
                continue;
            }
            items.push(self.eval(e, mode)?);
        }
        // How many elements there are is code, not data.
        let value = Value::sequence(items, Deps::default());
        let known: Option<Vec<Known>> = elts.iter().map(known::literal_known).collect();
        if let (Value::Sequence(s), Some(known), true) = (&value, known, ordered) {
            s.borrow().known.replace(known);
        }
        Ok(value)
    }

    fn eval(&mut self, expr: &Expr, mode: Mode) -> R<Value> {
        self.nested(|r| r.eval_here(expr, mode))
    }

    /// Runs `f` one expression level deeper: a cell whose expressions nest
    /// deeper than [`MAX_NESTING`] (`1+1+...+1` a thousand times) is not
    /// followed, rather than overflowing the stack.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        if self.nesting >= MAX_NESTING {
            return unsupported("an expression nested too deep");
        }
        self.nesting += 1;
        let out = f(self);
        self.nesting -= 1;
        out
    }

    fn eval_here(&mut self, expr: &Expr, mode: Mode) -> R<Value> {
        Ok(match expr {
            Expr::NumberLiteral(_)
            | Expr::StringLiteral(_)
            | Expr::BytesLiteral(_)
            | Expr::BooleanLiteral(_) => self.literal(mode),
            // `b = None` bound is data as `b = 1` is.
            Expr::NoneLiteral(_) => self.literal(mode),
            Expr::EllipsisLiteral(_) | Expr::IpyEscapeCommand(_) => Value::constant(),
            Expr::Name(n) => self.lookup(n.id.as_str()),
            Expr::BinOp(b) => {
                let left = self.eval(&b.left, mode.inner())?;
                let right = self.eval(&b.right, mode.inner())?;
                if let Some(column) = frames::elementwise(
                    &left,
                    &right,
                    b.op,
                    self.known(&b.left),
                    self.known(&b.right),
                ) {
                    return Ok(column);
                }
                match (&left, &right, b.op) {
                    (Value::Sequence(l), Value::Sequence(r), ast::Operator::Add) => {
                        let mut items = l.borrow().items.clone();
                        items.extend(r.borrow().items.iter().cloned());
                        let mut structure = l.borrow().structure.clone();
                        structure.union(&r.borrow().structure);
                        Value::sequence(items, structure)
                    }
                    _ => {
                        let mut deps = left.deps();
                        deps.union(&right.deps());
                        Value::scalar(deps)
                    }
                }
            }
            // `-1` bound is a literal; `-x` computes.
            Expr::UnaryOp(u) => {
                let literal = matches!(u.op, ast::UnaryOp::USub | ast::UnaryOp::UAdd)
                    && matches!(&*u.operand, Expr::NumberLiteral(_));
                let mode = if literal { mode } else { mode.inner() };
                Value::scalar(self.eval(&u.operand, mode)?.deps())
            }
            Expr::Compare(c) => {
                let left = self.eval(&c.left, Mode::Control)?;
                let mut elementwise = matches!(left, Value::Object(_));
                let mut deps = left.deps();
                let mut rights = Vec::with_capacity(c.comparators.len());
                for e in &c.comparators {
                    let right = self.eval(e, Mode::Control)?;
                    elementwise |= matches!(right, Value::Object(_));
                    deps.union(&right.deps());
                    rights.push(right);
                }
                // A frame's column of known values tested against a known
                // number: which rows pass is known.
                if let ([op], [right], [e]) =
                    (c.ops.as_ref(), rights.as_slice(), c.comparators.as_ref())
                    && let Some(mask) = frames::mask(&left, *op, self.known(e).as_ref(), right)
                {
                    return Ok(mask);
                }
                // A library object compared (`arr > 3`, `df['a'] == x`) is
                // a test of each element: which are true is decided by
                // them (a count of them, `.sum()`, is not made of them).
                if elementwise {
                    Value::object(deps.as_why(), None)
                } else {
                    Value::scalar(deps)
                }
            }
            Expr::BoolOp(b) => {
                let mut decided = Deps::default();
                let last = b.values.len().saturating_sub(1);
                let mut result = Value::constant();
                for (i, v) in b.values.iter().enumerate() {
                    let value = self.eval(v, mode.inner())?;
                    if i == last {
                        result = value.with_why(&decided);
                        break;
                    }
                    decided.union(&value.deps().as_why());
                    let truthy = self.operand_truth(b, v)?;
                    let stops = match b.op {
                        ast::BoolOp::And => !truthy,
                        ast::BoolOp::Or => truthy,
                    };
                    if stops {
                        result = value.with_why(&decided);
                        self.short_circuit = Some((b.range.start(), truthy));
                        break;
                    }
                }
                result
            }
            Expr::If(e) => {
                let (taken, deps) = self.test(&e.test)?;
                let why = deps.as_why();
                let chosen = if taken { &e.body } else { &e.orelse };
                // A literal chosen is code: the value bound is computed.
                self.eval(chosen, mode.inner())?.with_why(&why)
            }
            Expr::List(l) => self.display(&l.elts, mode, true)?,
            Expr::Tuple(t) => self.display(&t.elts, mode, true)?,
            // A set's iteration order is not the source's.
            Expr::Set(s) => self.display(&s.elts, mode, false)?,
            Expr::Dict(d) => {
                let mut items = Vec::new();
                for item in &d.items {
                    // Python evaluates each key before its value.
                    match &item.key {
                        Some(k) => {
                            let (key, key_deps) = self.key_of(k)?;
                            let value = self.eval(&item.value, mode)?.with_why(&key_deps);
                            items.push((key.unwrap_or_else(|| "?".to_string()), value));
                        }
                        None => {
                            let value = self.eval(&item.value, mode)?;
                            if let Value::Mapping(m) = &value {
                                items.extend(m.borrow().items.iter().cloned());
                            }
                        }
                    }
                }
                // A dict literal's keys are data (a list's length is code):
                // bound at a cell's top level they are an input, named
                // after the dict.
                let structure = match self.literal(mode) {
                    Value::Scalar(d) => d,
                    _ => Deps::default(),
                };
                let literal_keys = !structure.is_empty();
                let dict = Value::mapping(items, structure);
                if let Value::Mapping(m) = &dict {
                    m.borrow_mut().literal_keys = literal_keys;
                    // (Set after the change above, which forgets them.)
                    m.borrow().known = d
                        .items
                        .iter()
                        .filter_map(|item| {
                            let key = constant_key(item.key.as_ref()?).flatten()?;
                            Some((key, known::literal_known(&item.value)?))
                        })
                        .collect();
                }
                dict
            }
            Expr::ListComp(ast::ExprListComp {
                elt, generators, ..
            })
            | Expr::SetComp(ast::ExprSetComp {
                elt, generators, ..
            })
            | Expr::Generator(ast::ExprGenerator {
                elt, generators, ..
            }) => {
                let first = self.lines(expr).0;
                // A generator runs as far as its consumer takes it (`any`,
                // `all`, `next` may stop it early): what it yielded.
                let lazy = matches!(expr, Expr::Generator(_));
                // The elements' values, where the replay knows them all.
                let mut known = Vec::new();
                let (items, structure) =
                    self.comprehension(first, generators, lazy, &mut |r, _| {
                        known.push(r.known(elt));
                        r.eval(elt, Mode::Data)
                    })?;
                let ordered = !matches!(expr, Expr::SetComp(_));
                let known: Option<Vec<Known>> = known.into_iter().collect();
                let value = Value::sequence(items, structure);
                if let (Value::Sequence(s), Some(known), true) = (&value, known, ordered) {
                    s.borrow().known = Some(known);
                }
                value
            }
            Expr::DictComp(c) => {
                let Some(key) = c.key.as_deref() else {
                    return unsupported("a dict comprehension without a key");
                };
                let mut keys = Vec::new();
                let first = self.lines(c).0;
                let items = self.comprehension(first, &c.generators, false, &mut |r, _| {
                    let shown = r.known(key).and_then(|k| k.repr());
                    let deps = r.eval(key, Mode::Control)?.deps();
                    let v = r.eval(&c.value, Mode::Data)?.with_why(&deps);
                    keys.push((shown, deps));
                    Ok(v)
                })?;
                // The keys are the mapping's structure: what they were
                // computed from is data of it (`keys()`, iteration).
                let mut structure = items.1;
                for (_, deps) in &keys {
                    structure.union(deps);
                }
                // An entry stays unless a later key equals its own: the
                // later keys decided it (exactly, up to a few hundred).
                let mut items = items.0;
                if items.len() <= 256 {
                    let mut later = Deps::default();
                    for (item, (_, deps)) in items.iter_mut().zip(&keys).rev() {
                        *item = item.with_why(&later);
                        later.union(deps);
                    }
                }
                let mut entries = Vec::new();
                let mut made = Vec::new();
                for ((key, deps), item) in keys.into_iter().zip(items) {
                    let key = key.unwrap_or_else(|| "?".to_string());
                    made.push((key.clone(), deps));
                    put(&mut entries, key, item);
                }
                made_by(Value::mapping(entries, structure), made)
            }
            Expr::Subscript(s) => {
                let container = match &*s.value {
                    // `df.iloc[0]`, `df['a'].iloc[-1]` of known rows.
                    Expr::Attribute(a) if a.attr.as_str() == "iloc" => {
                        let frame = self.eval(&a.value, Mode::Control)?;
                        if let Some(Known::Int(k)) = self.known(&s.slice)
                            && let Some(row) = frames::row(&frame, k)
                        {
                            return Ok(row);
                        }
                        self.attribute(&frame, a.attr.as_str())
                    }
                    _ => self.eval(&s.value, Mode::Control)?,
                };
                // `df[df['temp'] > 15]`, `df[keep]`: the rows a mask of
                // known truths keeps.
                let (key, key_deps) = if matches!(&*s.slice, Expr::Compare(_) | Expr::Name(_))
                    && frames::has_known_columns(&container)
                {
                    // (`key_of`, with the key's value at hand.)
                    let key = self.known(&s.slice);
                    let slice = self.eval(&s.slice, Mode::Control)?;
                    if let Some(rows) = frames::masked(&container, &slice) {
                        return Ok(rows);
                    }
                    (key.and_then(|k| k.repr()), slice.deps())
                } else {
                    self.key_of(&s.slice)?
                };
                if key.is_none()
                    && let Some(rows) = frames::rows(&container, &key_deps)
                {
                    return Ok(rows);
                }
                let value = self.load(&container, key.as_deref(), &s.slice)?;
                // An entry that may be changed in place through the read
                // (`d[k].append(x)`): the key reached the dict.
                if matches!(
                    value,
                    Value::Sequence(_) | Value::Mapping(_) | Value::Object(_)
                ) {
                    reached(&container, &key_deps);
                }
                // A `defaultdict`'s read made the entry. (Checked before
                // the dict is changed: a change forgets a `Counter`'s tally.)
                if let (Value::Mapping(m), Some(k)) = (&container, &key)
                    && !key_deps.is_empty()
                    && m.borrow().default.is_some()
                    && !m.borrow().key_inputs.contains_key(k.as_str())
                {
                    m.borrow_mut().made_by(k, &key_deps);
                }
                value.with_why(&key_deps)
            }
            Expr::Attribute(a) => {
                let object = self.eval(&a.value, Mode::Control)?;
                self.attribute(&object, a.attr.as_str())
            }
            Expr::Call(c) => self.call(c)?,
            Expr::FString(f) => {
                let mut deps = Deps::default();
                for part in f.value.elements() {
                    if let ast::InterpolatedStringElement::Interpolation(i) = part {
                        deps.union(&self.eval(&i.expression, Mode::Data)?.deps());
                    }
                }
                Value::scalar(deps)
            }
            Expr::Lambda(l) => {
                let params = l.parameters.as_deref().cloned().unwrap_or_default();
                let first_line = self.lines(l).0;
                let generator = matches!(&*l.body, Expr::Yield(_) | Expr::YieldFrom(_));
                self.function_of(&params, Body::Lambda(l.body.clone()), first_line, generator)?
            }
            Expr::Named(n) => {
                let v = self.eval(&n.value, mode)?;
                self.bind(&n.target, v.clone())?;
                v
            }
            Expr::Starred(s) => self.eval(&s.value, mode)?,
            Expr::Slice(s) => {
                let mut deps = Deps::default();
                for part in [&s.lower, &s.upper, &s.step].into_iter().flatten() {
                    deps.union(&self.eval(part, Mode::Control)?.deps());
                }
                Value::scalar(deps)
            }
            Expr::Yield(y) if self.in_generator() => {
                let value = match &y.value {
                    Some(v) => self.eval(v, Mode::Data)?,
                    None => Value::constant(),
                };
                self.yielded(vec![value]);
                // What the consumer sends back: none of the notebook's data.
                Value::constant()
            }
            Expr::YieldFrom(y) if self.in_generator() => {
                let inner = self.eval(&y.value, Mode::Data)?;
                let items = inner
                    .elements()
                    .unwrap_or_else(|| vec![Value::scalar(inner.deps())]);
                self.yielded(items);
                Value::scalar(inner.structure().as_why())
            }
            _ => return unsupported("an expression the replay does not know (await, yield, ...)"),
        })
    }

    /// `container[key]`.
    fn load(&mut self, container: &Value, key: Option<&str>, slice: &Expr) -> R<Value> {
        Ok(match (container, key) {
            (_, Some(k)) => self.load_key(container, k),
            (Value::Sequence(s), None) if matches!(slice, Expr::Slice(_)) => {
                // The bounds the replay knows (literals, `queue[:position]`
                // after a loop that counted), read before the list is
                // locked (`xs[:len(xs) - 1]` reads it).
                let len = s.borrow().items.len();
                let positions = match slice {
                    Expr::Slice(bounds) => known_slice(bounds, len, |e| match self.known(e) {
                        Some(Known::Int(i)) => Some(i),
                        _ => None,
                    }),
                    _ => None,
                };
                let s = s.borrow();
                let items = match positions {
                    Some(positions) => positions
                        .into_iter()
                        .filter_map(|i| s.items.get(i).cloned())
                        .collect(),
                    None => s.items.clone(),
                };
                Value::sequence(items, s.structure.clone())
            }
            (Value::Object(_), None) => Value::object(container.deps(), None),
            // A key not known: the one entry of such keys (`?`), when the
            // dict has no other (a `defaultdict` filled in a loop).
            (Value::Mapping(m), None) => {
                let only = {
                    let m = m.borrow();
                    match m.items.as_slice() {
                        [(k, v)] if k == "?" => Some(v.clone()),
                        _ => None,
                    }
                };
                only.or_else(|| self.missing(m, "?"))
                    .unwrap_or_else(|| Value::scalar(container.deps()))
            }
            (Value::Module(_), _) | (Value::Function(_), _) => Value::constant(),
            _ => Value::scalar(container.deps()),
        })
    }

    /// `object.attr`, read.
    fn attribute(&mut self, object: &Value, attr: &str) -> Value {
        if let Some(v) = self.instance_attribute(object, attr) {
            return v;
        }
        match object {
            Value::Module(path) => Value::Module(format!("{path}.{attr}")),
            Value::Object(_) => self.part(object, &format!(".{attr}")),
            other => Value::scalar(other.deps()),
        }
    }

    /// `container[k]` for a key whose repr is `k` (`2`, `'name'`).
    /// A value found by its key in a dict literal is the one there because
    /// of the literal's keys. (A value of a dict built by code, or an
    /// element found by its position, carries its own decisions: those
    /// about other keys or later elements decide nothing about it.)
    fn load_key(&mut self, container: &Value, k: &str) -> Value {
        match container {
            Value::Sequence(s) => {
                let found = {
                    let s = s.borrow();
                    let len = s.items.len() as i64;
                    match k.parse::<i64>() {
                        Ok(i) if (-len..len).contains(&i) => {
                            let i = if i < 0 { i + len } else { i } as usize;
                            Some(s.items[i].clone())
                        }
                        _ => None,
                    }
                };
                found.unwrap_or_else(|| Value::scalar(container.deps()))
            }
            Value::Mapping(m) => {
                let found = {
                    let m = m.borrow();
                    m.items
                        .iter()
                        .find(|(key, _)| key == k)
                        .map(|(_, v)| (v.clone(), m.read_by_key()))
                };
                match found {
                    Some((v, keys)) => v.with_why(&keys),
                    None => self
                        .missing(m, k)
                        .unwrap_or_else(|| Value::scalar(container.deps())),
                }
            }
            Value::Object(_) => self.part(container, &format!("[{k}]")),
            Value::Module(_) | Value::Function(_) => Value::constant(),
            _ => Value::scalar(container.deps()),
        }
    }

    /// The entry a `defaultdict` makes for the missing key `k` (`None`:
    /// `m` has no factory, or already has an entry that is not `?`).
    fn missing(&mut self, m: &Shared<Mapping>, k: &str) -> Option<Value> {
        let fresh = {
            let m = m.borrow();
            if k == "?" && !m.items.is_empty() {
                return None;
            }
            m.default?
        };
        let value = fresh.make();
        let control = self.control().as_why();
        let mut m = m.borrow_mut();
        m.items.push((k.to_string(), value.clone()));
        m.structure.union(&control);
        // The keys computed so far decided that this one is new.
        let keys = m.keys.clone();
        m.structure.union(&keys);
        Some(value)
    }

    /// `dict(pairs)` (`dict(zip(names, prices))`): each pair's value at
    /// its key, when the replay knows the key (`?` otherwise); the keys
    /// decided which entries there are and which value each holds.
    fn dict_of_pairs(&mut self, arg: &Expr, pairs: &Value, items: Vec<Value>) -> Value {
        let keys = self.iterated_keys(arg, pairs);
        let mut structure = pairs.structure();
        let mut entries: Vec<(String, Value)> = Vec::new();
        let mut made = Vec::new();
        for (k, pair) in items.into_iter().enumerate() {
            let (key_deps, value) = match pair.elements().as_deref() {
                Some([key, value]) => (key.deps(), value.clone()),
                _ => (pair.deps(), Value::scalar(pair.deps())),
            };
            let key = keys
                .as_ref()
                .and_then(|keys| keys.get(k))
                .and_then(|known| known.nth(0))
                .and_then(|known| known.repr())
                .unwrap_or_else(|| "?".to_string());
            structure.union(&key_deps);
            made.push((key.clone(), key_deps.clone()));
            put(&mut entries, key, value.with_why(&key_deps));
        }
        let dict = made_by(Value::mapping(entries, structure.clone()), made);
        reached(&dict, &structure);
        dict
    }

    /// A part of a library object (`df['a']`, `df.a`): named after the
    /// input the object came from, when it came from one.
    fn part(&mut self, object: &Value, key: &str) -> Value {
        let Value::Object(o) = object else {
            return Value::scalar(object.deps());
        };
        if let Some((_, v)) = o.borrow().parts.iter().find(|(k, _)| k == key) {
            return v.clone();
        }
        let (origin, deps) = {
            let o = o.borrow();
            (o.origin, o.deps.clone())
        };
        let value = match origin {
            Some(origin) => {
                let (cell, symbol, files) = self.state.inputs.parts(origin);
                let id = self
                    .state
                    .inputs
                    .add(cell, symbol.map(|s| format!("{s}{key}")), files);
                let mut d = deps;
                d.where_.remove(&origin);
                d.where_.insert(id);
                Value::object(d, Some(id))
            }
            None => Value::object(deps, None),
        };
        o.borrow_mut().parts.push((key.to_string(), value.clone()));
        value
    }

    /// The comprehension's generators (with their conditions), calling
    /// `each` for every element produced; the elements and the structure
    /// (what decided which elements there are).
    /// The elements a comprehension made and its structure; `lazy` (a
    /// generator expression): its consumer may have stopped taking
    /// elements before the end, where the log has no step of it.
    fn comprehension(
        &mut self,
        first_line: u32,
        generators: &[ast::Comprehension],
        lazy: bool,
        each: &mut dyn FnMut(&mut Self, usize) -> R<Value>,
    ) -> R<(Vec<Value>, Deps)> {
        let mut out = Vec::new();
        let mut structure = Deps::default();
        let mut frame = Frame::new(
            self.frames
                .last()
                .map(|f| f.locals.clone())
                .unwrap_or_default(),
        );
        frame.known = self
            .frames
            .last()
            .map(|f| f.known.clone())
            .unwrap_or_default();
        frame.closure = self.frames.last().and_then(|f| f.closure.clone());
        self.frames.push(frame);
        let mut generation = Generation {
            first_line,
            generators,
            lazy,
            stopped: false,
            filtered: generators.iter().any(|g| !g.ifs.is_empty()),
        };
        let result = self.generate(&mut generation, 0, each, &mut out, &mut structure);
        self.generator_stopped = generation.stopped;
        let depth = self.frames.len();
        self.kept_out.retain(|(d, _), _| *d < depth);
        self.frames.pop();
        result.map(|()| (out, structure))
    }

    fn generate(
        &mut self,
        generation: &mut Generation<'_>,
        depth: usize,
        each: &mut dyn FnMut(&mut Self, usize) -> R<Value>,
        out: &mut Vec<Value>,
        structure: &mut Deps,
    ) -> R<()> {
        let first_line = generation.first_line;
        let Some(g) = generation.generators.get(depth) else {
            let mut why = self.control();
            // Behind a filter, the elements kept before it decided where
            // it lands (`clean[1]` is another element when `raw[0]` goes).
            if generation.filtered {
                why.union(structure);
            }
            let v = each(self, out.len())?;
            out.push(v.with_why(&why));
            return Ok(());
        };
        if g.is_async {
            return unsupported("an async comprehension");
        }
        let iterable = self.eval(&g.iter, Mode::Control)?;
        let lines = (first_line, self.lines(&g.iter).1);
        let iter_structure = iterable.structure().as_why();
        structure.union(&iter_structure);
        let elements = iterable.elements();
        let keys = self.iterated_keys(&g.iter, &iterable);
        let mut k = 0;
        loop {
            let more = match self.iteration(lines) {
                Some(more) => more,
                // No step of it where the log goes on: its consumer took
                // no more.
                None if generation.lazy
                    && !self.peek().is_some_and(|e| e.what == What::Raised)
                    && !self.saturated_here() =>
                {
                    generation.stopped = true;
                    return Ok(());
                }
                None => self.step(lines, "comprehension")?,
            };
            if !more {
                return Ok(());
            }
            let item = element(&iterable, elements.as_deref(), k);
            self.bind(&g.target, item)?;
            self.know_target(&g.target, keys.as_ref().and_then(|keys| keys.get(k)));
            k += 1;
            let mut decided = iter_structure.clone();
            let mut kept = true;
            for cond in &g.ifs {
                let lines = (first_line, self.lines(cond).1);
                let outer = self.condition_lines.replace(lines);
                let tested = self.test(cond);
                self.condition_lines = outer;
                let (taken, deps) = tested?;
                decided.union(&deps.as_why());
                if !taken {
                    kept = false;
                    break;
                }
            }
            // A condition decides which elements there are, kept or not.
            structure.union(&decided);
            if kept {
                self.control.push(decided);
                let r = self.generate(generation, depth + 1, each, out, structure);
                self.control.pop();
                r?;
                if generation.stopped {
                    return Ok(());
                }
            }
        }
    }

    // ----- calls -----------------------------------------------------

    fn call(&mut self, c: &ast::ExprCall) -> R<Value> {
        let for_effect = std::mem::take(&mut self.statement_call);
        // A method of a list or dict the replay follows.
        if let Expr::Attribute(a) = &*c.func {
            let receiver = self.eval(&a.value, Mode::Control)?;
            if let Some(v) = self.method_call(&receiver, a.attr.as_str(), c)? {
                return Ok(v);
            }
            if let Some(v) = self.container_method(&receiver, a.attr.as_str(), c)? {
                return Ok(v);
            }
            let callee = match &receiver {
                Value::Module(path) => Value::Module(format!("{path}.{}", a.attr)),
                _ => {
                    // A method of a library object: the result depends on
                    // the receiver and the arguments.
                    let mut deps = receiver.deps();
                    let (args, keywords) = self.arguments(c, Mode::Control)?;
                    let (args, keywords) = self.functions_as_reads(args, keywords);
                    if let Some(rows) = frames::reordered(&receiver, a.attr.as_str(), c, &args) {
                        return Ok(rows);
                    }
                    if let Some(groups) = frames::grouped(&receiver, a.attr.as_str(), c) {
                        return Ok(groups);
                    }
                    if args.is_empty()
                        && keywords.is_empty()
                        && let Some(per_group) = frames::aggregated(&receiver, a.attr.as_str())
                    {
                        return Ok(per_group);
                    }
                    if matches!(a.attr.as_str(), "argmax" | "argmin")
                        && args.is_empty()
                        && keywords.is_empty()
                    {
                        return Ok(self.position_chosen(c, &receiver));
                    }
                    for v in args.iter().chain(keywords.iter().map(|(_, v)| v)) {
                        deps.union(&v.deps());
                    }
                    // A list's `index(v)` and `count(v)`: a position or a
                    // number, decided by the elements compared, none copied.
                    if matches!(a.attr.as_str(), "index" | "count")
                        && matches!(receiver, Value::Sequence(_))
                    {
                        return Ok(Value::scalar(deps.as_why()));
                    }
                    // How many rows or values a library object has
                    // (`df.groupby(k).size()`, `s.count()`): decided by its
                    // values, none copied.
                    if matches!(a.attr.as_str(), "size" | "count" | "nunique")
                        && matches!(receiver, Value::Object(_))
                        && args.is_empty()
                    {
                        return Ok(Value::object(deps.as_why(), None));
                    }
                    // A test of each element (`s.isna()`): which are true
                    // is decided by the elements; none of them is copied.
                    if matches!(
                        a.attr.as_str(),
                        "isna" | "isnull" | "notna" | "notnull" | "duplicated" | "isin" | "between"
                    ) && matches!(receiver, Value::Object(_) | Value::Sequence(_))
                    {
                        return Ok(Value::object(deps.as_why(), None));
                    }
                    // A method changing its object: one that returns
                    // None, or whose result the statement drops. A frame's
                    // rows may be anywhere now (`sort_values(inplace=True)`).
                    if let Value::Object(o) = &receiver
                        && (for_effect || returns_none(a.attr.as_str(), c))
                    {
                        frames::shuffled_in_place(&receiver, &deps);
                        o.borrow_mut().deps.union(&deps);
                        return Ok(Value::constant());
                    }
                    return Ok(Value::object(deps, None));
                }
            };
            return self.call_value(&callee, c);
        }
        let callee = self.eval(&c.func, Mode::Control)?;
        self.call_value(&callee, c)
    }

    /// Arguments passed to library code: a user function among them (a
    /// `map` or `apply` callback, a `key=`) is opaque there; its results
    /// depend on the variables it reads from outside (`discount` in
    /// `lambda p: p * discount`).
    fn functions_as_reads(
        &mut self,
        args: Vec<Value>,
        keywords: Vec<(String, Value)>,
    ) -> (Vec<Value>, Vec<(String, Value)>) {
        let reads = |r: &mut Self, v: Value| match v {
            Value::Function(f) => Value::scalar(r.outside_reads(&f)),
            other => other,
        };
        let args = args.into_iter().map(|v| reads(self, v)).collect();
        let keywords = keywords
            .into_iter()
            .map(|(k, v)| (k, reads(self, v)))
            .collect();
        (args, keywords)
    }

    /// What the variables `f` reads from its closure and the globals hold
    /// now (names it binds itself, its parameters and builtins aside).
    fn outside_reads(&self, f: &Function) -> Deps {
        use ruff_python_ast::visitor::{Visitor, walk_expr};
        #[derive(Default)]
        struct Names(Vec<String>, rustc_hash::FxHashSet<String>);
        impl<'a> Visitor<'a> for Names {
            fn visit_expr(&mut self, expr: &'a Expr) {
                if let Expr::Name(n) = expr {
                    if n.ctx.is_store() {
                        self.1.insert(n.id.to_string());
                    } else {
                        self.0.push(n.id.to_string());
                    }
                }
                walk_expr(self, expr);
            }
        }
        let mut names = Names::default();
        match &f.body {
            Body::Block(body) => {
                for stmt in body {
                    names.visit_stmt(stmt);
                }
            }
            Body::Lambda(expr) => names.visit_expr(expr),
        }
        let mut deps = Deps::default();
        for name in &names.0 {
            if names.1.contains(name) || f.params.iter().any(|(p, _)| p == name) {
                continue;
            }
            let value = f
                .closure
                .as_ref()
                .and_then(|c| c.get(name))
                .or_else(|| self.state.globals.get(name).cloned());
            if let Some(v) = &value
                && !matches!(v, Value::Function(_) | Value::Module(_))
            {
                deps.union(&v.deps());
            }
        }
        deps
    }

    fn arguments(&mut self, c: &ast::ExprCall, mode: Mode) -> R<Arguments> {
        let mut args = Vec::new();
        for a in &c.arguments.args {
            args.push(self.eval(a, mode)?);
        }
        let mut keywords = Vec::new();
        for k in &c.arguments.keywords {
            let v = self.eval(&k.value, mode)?;
            match &k.arg {
                Some(name) => keywords.push((name.to_string(), v)),
                None => args.push(v),
            }
        }
        Ok((args, keywords))
    }

    fn call_value(&mut self, callee: &Value, c: &ast::ExprCall) -> R<Value> {
        match callee {
            Value::Function(f) => {
                // A literal a cell passes to a user function is bound to its
                // parameter: data, named after it (the thesis's
                // `sumUpMultiples(numbers, 3)` answers `factor`).
                let (args, keywords) = self.arguments(c, Mode::Bound)?;
                let f = f.clone();
                self.call_user(&f, args, keywords)
            }
            Value::Module(path) => {
                let (args, keywords) = self.arguments(c, Mode::Control)?;
                let (args, keywords) = self.functions_as_reads(args, keywords);
                let mut deps = Deps::default();
                for v in args.iter().chain(keywords.iter().map(|(_, v)| v)) {
                    deps.union(&v.deps());
                }
                let reads_file = self
                    .effects
                    .function(path)
                    .is_some_and(|e| e.roles.contains(&Role::ReadFile));
                if reads_file && !opens_for_writing(c) {
                    let file = c.arguments.args.first().and_then(|a| match a {
                        Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
                        _ => None,
                    });
                    let id = self.state.inputs.add(
                        Some(self.cell.clone()),
                        None,
                        file.into_iter().collect(),
                    );
                    deps.where_.insert(id);
                    return Ok(Value::object(deps, Some(id)));
                }
                if let Some(empty) = empty_container(path, c, &args, &keywords) {
                    return Ok(empty);
                }
                if path == "collections.Counter"
                    && let ([elements], []) = (args.as_slice(), keywords.as_slice())
                    && let Some(counter) = counter_of(elements)
                {
                    return Ok(counter);
                }
                if path == "builtins.dict"
                    && let ([pairs], [], [arg]) = (
                        args.as_slice(),
                        keywords.as_slice(),
                        c.arguments.args.as_ref(),
                    )
                    && !matches!(pairs, Value::Mapping(_))
                    && let Some(items) = pairs.elements()
                {
                    return Ok(self.dict_of_pairs(arg, pairs, items));
                }
                if let Some(frame) = frames::frame(path, &args, &keywords, &deps) {
                    return Ok(frame);
                }
                if matches!(path.as_str(), "numpy.argmax" | "numpy.argmin")
                    && let ([v], []) = (args.as_slice(), keywords.as_slice())
                {
                    return Ok(self.position_chosen(c, v));
                }
                if let Some(name) = path.strip_prefix("builtins.") {
                    // `any`/`all` over a generator they stopped: the last
                    // element taken decided; those before let them go on.
                    if matches!(name, "any" | "all")
                        && self.generator_stopped
                        && let ([Expr::Generator(_)], [], [v]) = (
                            c.arguments.args.as_ref(),
                            c.arguments.keywords.as_ref(),
                            args.as_slice(),
                        )
                        && let Some(items) = v.elements()
                        && let Some((last, before)) = items.split_last()
                    {
                        let mut went_on = v.structure();
                        for item in before {
                            went_on.union(&item.deps());
                        }
                        return Ok(Value::scalar(last.deps().with_why(&went_on)));
                    }
                    // What the recorder saw chosen (with a `key=`, the
                    // key's inputs decided too).
                    if matches!(name, "max" | "min" | "sorted")
                        && let [v] = args.as_slice()
                        && let Some((key, reverse)) = selection_keywords(&keywords, c)
                        && let Some(order) = self.order_at(c, name, reverse)
                        && let Some(chosen) = selected(name, v, &order, &key)
                    {
                        let element = match (name, v, order.as_slice()) {
                            ("max" | "min", Value::Sequence(s), &[position]) => {
                                Some(Known::Element {
                                    list: s.key() as usize,
                                    generation: s.borrow().generation,
                                    position,
                                })
                            }
                            _ => None,
                        };
                        self.note_choice(c, element);
                        return Ok(chosen);
                    }
                    self.note_choice(c, None);
                    return Ok(builtin(name, &args, &keywords));
                }
                // A list the function changes in place (`random.shuffle(xs)`,
                // as the effects knowledge base says): its elements may be
                // anywhere now, decided by what the call read.
                if let Some(effect) = self.effects.function(path) {
                    for (i, arg) in args.iter().enumerate() {
                        if mutates_arg(effect, i, c) {
                            frames::shuffled_in_place(arg, &deps);
                        }
                    }
                }
                if deps.is_empty() {
                    // No notebook input: what it makes enters the notebook.
                    let id = self
                        .state
                        .inputs
                        .add(Some(self.cell.clone()), None, Vec::new());
                    return Ok(Value::object(Deps::input(id), Some(id)));
                }
                Ok(Value::object(deps, None))
            }
            Value::Object(o) if o.borrow().kind == ObjectKind::Class => self.instantiate(callee, c),
            Value::Object(o) => {
                // A user's function or class the replay does not have.
                let origin = o.borrow().origin;
                let mut effects = None;
                if let Some(id) = origin
                    && self.state.inputs.is_named(id)
                {
                    self.blind_call = true;
                    effects = self.state.changes.get(&id).cloned();
                }
                let (args, keywords) = self.arguments(c, Mode::Control)?;
                let mut deps = callee.deps();
                for v in args.iter().chain(keywords.iter().map(|(_, v)| v)) {
                    deps.union(&v.deps());
                }
                if let Some(effects) = effects {
                    self.opaque_effects(&effects, &deps);
                }
                Ok(Value::object(deps, None))
            }
            _ => unsupported("a call of something that is not callable here"),
        }
    }

    /// A call of a function the replay does not run, with arguments that
    /// depend on `deps`: the globals it rebinds are changed unseen; those
    /// it changes in place get what went in (`opaque.rs`).
    fn opaque_effects(&mut self, effects: &GlobalEffects, deps: &Deps) {
        // (Modules and functions it calls into are not data it changes.)
        let data = |r: &Self, n: &String| {
            !matches!(
                r.state.globals.get(n.as_str()),
                Some(Value::Module(_) | Value::Function(_)) | None
            )
        };
        let rebound: Vec<String> = effects
            .rebound
            .iter()
            .filter(|n| data(self, n))
            .cloned()
            .collect();
        self.changed_unseen.extend(rebound);
        let mut went_in = deps.clone();
        for name in &effects.reads {
            let target = effects.added_to.contains(name) || effects.changed.contains(name);
            if !target && data(self, name) {
                went_in.union(&self.lookup_value(name).deps());
            }
        }
        for (names, added) in [(&effects.added_to, true), (&effects.changed, false)] {
            for name in names {
                if !data(self, name) {
                    continue;
                }
                if let Some(value) = self.state.globals.get(name).cloned() {
                    opaque::apply(&value, added, &went_in);
                    self.bound.insert(name.clone());
                }
            }
        }
    }

    /// Methods of lists and dicts whose effect on elements the replay
    /// follows (`None`: not one of them).
    fn container_method(
        &mut self,
        receiver: &Value,
        name: &str,
        c: &ast::ExprCall,
    ) -> R<Option<Value>> {
        let control = self.control().as_why();
        match receiver {
            Value::Sequence(s) => {
                // Arguments are evaluated once: by the method followed here,
                // or by the caller for any other.
                if !matches!(
                    name,
                    "append" | "extend" | "insert" | "pop" | "copy" | "sort" | "reverse"
                ) {
                    return Ok(None);
                }
                let (args, keywords) = self.arguments(c, Mode::Data)?;
                // An argument (or the method) raised: nothing changed.
                if self.take_raised(c) {
                    return Err(Stop::Raised);
                }
                // Values are prepared before the list is locked: they may
                // hold the list itself.
                let value = match (name, args.as_slice()) {
                    ("append", [v]) => {
                        // Which elements came before decided where it lands.
                        let before = s.borrow().structure.clone();
                        let item = v.with_why(&control.clone().union_with(&before));
                        let mut s = s.borrow_mut();
                        s.items.push(item);
                        s.structure.union(&control);
                        Value::constant()
                    }
                    ("extend", [v]) => {
                        let items: Vec<Value> = v
                            .elements()
                            .unwrap_or_else(|| vec![Value::scalar(v.deps())])
                            .into_iter()
                            .map(|i| i.with_why(&control))
                            .collect();
                        let structure = v.structure();
                        let mut s = s.borrow_mut();
                        s.items.extend(items);
                        s.structure.union(&control);
                        s.structure.union(&structure);
                        Value::constant()
                    }
                    ("insert", [i, v]) => {
                        // `list.insert` shifts the elements after the
                        // position: a literal position is followed; any
                        // other puts the element last and makes every
                        // position depend on it.
                        let item = v.with_why(&control);
                        let position = i.deps().as_why();
                        let literal = c.arguments.args.first().and_then(literal_index);
                        let mut s = s.borrow_mut();
                        let len = s.items.len();
                        let at = match literal {
                            Some(k) if k >= 0 => (k as usize).min(len),
                            Some(k) => len.saturating_sub(k.unsigned_abs() as usize),
                            None => len,
                        };
                        s.items.insert(at, item);
                        s.structure.union(&position);
                        s.structure.union(&control);
                        Value::constant()
                    }
                    ("pop", []) => s.borrow_mut().items.pop().unwrap_or_else(Value::constant),
                    ("copy", []) => {
                        let s = s.borrow();
                        Value::sequence(s.items.clone(), s.structure.clone())
                    }
                    ("reverse", []) => {
                        s.borrow_mut().items.reverse();
                        Value::constant()
                    }
                    ("sort", [])
                        if let Some((key, reverse)) = selection_keywords(&keywords, c)
                            && let Some(order) = self.order_at(c, "sort", reverse) =>
                    {
                        // The order the recorder saw: each position holds
                        // the element it logged, decided by comparing them
                        // all.
                        if let Some(Value::Sequence(sorted)) =
                            selected("sorted", receiver, &order, &key)
                        {
                            let sorted = sorted.borrow();
                            let mut s = s.borrow_mut();
                            s.items.clone_from(&sorted.items);
                            s.structure.union(&sorted.structure);
                        }
                        Value::constant()
                    }
                    ("sort", _) => {
                        // Which element lands where is decided by comparing
                        // them all (and the key's inputs): each position may
                        // hold any of them.
                        let mut all = receiver.deps();
                        for (_, v) in &keywords {
                            all.union(&v.deps().as_why());
                        }
                        let chosen = Value::scalar(all.clone().with_why(&all));
                        let mut s = s.borrow_mut();
                        for item in s.items.iter_mut() {
                            *item = chosen.clone();
                        }
                        s.structure.union(&all.as_why());
                        Value::constant()
                    }
                    ("pop", [i]) => {
                        let at = c.arguments.args.first().and_then(literal_index);
                        let mut s = s.borrow_mut();
                        let len = s.items.len() as i64;
                        match at {
                            Some(k) if (-len..len).contains(&k) => {
                                let k = if k < 0 { k + len } else { k } as usize;
                                s.items.remove(k)
                            }
                            // Any element may be the one taken.
                            _ => {
                                s.structure.union(&i.deps().as_why());
                                let mut d = s.structure.as_why();
                                for item in &s.items {
                                    d.union(&item.deps());
                                }
                                Value::scalar(d)
                            }
                        }
                    }
                    // Another arity: what the arguments read, once.
                    _ => opaque(receiver, &args, &keywords),
                };
                Ok(Some(value))
            }
            Value::Mapping(m) => {
                if !matches!(
                    name,
                    "keys"
                        | "values"
                        | "items"
                        | "get"
                        | "setdefault"
                        | "update"
                        | "copy"
                        | "most_common"
                ) {
                    return Ok(None);
                }
                let known_key = c
                    .arguments
                    .args
                    .first()
                    .and_then(|k| self.known(k))
                    .and_then(|k| k.repr());
                let (args, keywords) = self.arguments(c, Mode::Data)?;
                if self.take_raised(c) {
                    return Err(Stop::Raised);
                }
                let literal_key = || known_key.clone();
                let value = match (name, args.as_slice()) {
                    ("keys", []) => {
                        let keys = {
                            let m = m.borrow();
                            Value::sequence(
                                m.items.iter().map(|(k, _)| m.key_value(k)).collect(),
                                m.structure.clone(),
                            )
                        };
                        known_keys(&keys, m, |key| key);
                        keys
                    }
                    // Each value was decided by the keys computed at run
                    // time that reached the dict (which of them it got).
                    ("values", []) => {
                        let (values, structure, keys) = entries(m);
                        Value::sequence(
                            values.into_iter().map(|v| v.with_why(&keys)).collect(),
                            structure,
                        )
                    }
                    ("items", []) => {
                        let (values, structure, keys) = entries(m);
                        let names: Vec<Value> = {
                            let m = m.borrow();
                            m.items.iter().map(|(k, _)| m.key_value(k)).collect()
                        };
                        let items = Value::sequence(
                            names
                                .into_iter()
                                .zip(values)
                                .map(|(name, v)| {
                                    Value::sequence(vec![name, v.with_why(&keys)], Deps::default())
                                })
                                .collect(),
                            structure,
                        );
                        known_keys(&items, m, |key| Known::Tuple(vec![Some(key), None]));
                        items
                    }
                    // The entry at the key, made from the default when
                    // missing; what is done to it is done to the dict's
                    // entry, decided by the keys that reached the dict. A
                    // key the replay does not know is one entry `?` (as a
                    // dict comprehension's): every such key's values go
                    // there.
                    ("setdefault", [key, rest @ ..]) => {
                        let default = rest.first().cloned().unwrap_or_else(Value::constant);
                        let known = literal_key();
                        let key_deps = key.deps();
                        let (entry, read_by_key) = {
                            let mut m = m.borrow_mut();
                            m.structure.union(&control);
                            if !key_deps.is_empty() {
                                m.reached_by(&key_deps);
                            }
                            // A key not known may be a new one: data of
                            // the dict's keys, as a new known key is.
                            if known.is_none() {
                                m.structure.union(&key_deps);
                            }
                            let slot = known.unwrap_or_else(|| "?".to_string());
                            let entry = match m.items.iter().find(|(k, _)| *k == slot) {
                                Some((_, v)) => v.clone(),
                                None => {
                                    m.structure.union(&key_deps);
                                    m.made_by(&slot, &key_deps);
                                    m.items.push((slot, default.clone()));
                                    default
                                }
                            };
                            (entry, m.read_by_key())
                        };
                        // (Changed once the dict is no longer locked: the
                        // entry may be the dict.)
                        entry.with_why(&key_deps.as_why().union_with(&read_by_key))
                    }
                    ("copy", []) => copy_of(m),
                    // A `Counter` of known elements: its entries by count,
                    // the first to come first among equal counts; each key
                    // is the first of its elements, chosen by comparing
                    // every count.
                    ("most_common", [] | [_]) => {
                        let (tally, structure) = {
                            let m = m.borrow();
                            (m.tally.clone(), m.structure.clone())
                        };
                        let n = c.arguments.args.first().map(literal_index);
                        match (tally, n) {
                            (Some(tally), None | Some(Some(_))) => {
                                let decided = structure.as_why();
                                let mut order: Vec<usize> = (0..tally.len()).collect();
                                order.sort_by_key(|&i| std::cmp::Reverse(tally[i].0));
                                if let Some(Some(n)) = n {
                                    order.truncate(usize::try_from(n).unwrap_or(0));
                                }
                                let pairs = order
                                    .into_iter()
                                    .map(|i| {
                                        Value::sequence(
                                            vec![
                                                tally[i].1.with_why(&decided),
                                                Value::scalar(decided.clone()),
                                            ],
                                            Deps::default(),
                                        )
                                    })
                                    .collect();
                                Value::sequence(pairs, decided)
                            }
                            _ => opaque(receiver, &args, &[]),
                        }
                    }
                    // `d.update(other)`, `d.update(k=v)`: each entry put at
                    // its key (an unknown key `?` leaves every value
                    // possible there).
                    ("update", [] | [_]) => {
                        let mut entries: Vec<(String, Value)> = keywords
                            .iter()
                            .map(|(k, v)| (python_repr(k), v.with_why(&control)))
                            .collect();
                        let mut structure = control.clone();
                        match args.first() {
                            Some(Value::Mapping(other)) if !Shared::ptr_eq(m, other) => {
                                // (Each value is there because of the
                                // other dict's keys.)
                                let (items, keys) = {
                                    let other = other.borrow();
                                    structure.union(&other.structure);
                                    (other.items.clone(), other.read_by_key())
                                };
                                let why = control.clone().union_with(&keys);
                                entries
                                    .extend(items.into_iter().map(|(k, v)| (k, v.with_why(&why))));
                            }
                            Some(Value::Mapping(_)) | None => {}
                            Some(other) => {
                                structure.union(&other.deps());
                                entries.push(("?".to_string(), Value::scalar(other.deps())));
                            }
                        }
                        let mut m = m.borrow_mut();
                        m.structure.union(&structure);
                        for (k, v) in entries {
                            put(&mut m.items, k, v);
                        }
                        Value::constant()
                    }
                    // The entry at the key, or the default: which one is
                    // decided by the key and the dict's keys.
                    ("get", [key, rest @ ..]) => {
                        let default = rest.first().cloned().unwrap_or_else(Value::constant);
                        let key_why = key.deps().as_why();
                        let (entry, read_by_key, unknown_keys, keys) = {
                            let m = m.borrow();
                            let entry = literal_key().and_then(|k| {
                                m.items
                                    .iter()
                                    .find(|(key, _)| *key == k)
                                    .map(|(_, v)| v.clone())
                            });
                            (
                                entry,
                                m.read_by_key(),
                                m.items.iter().any(|(k, _)| k == "?"),
                                m.structure.as_why(),
                            )
                        };
                        match entry {
                            Some(v) => v.with_why(&key_why.union_with(&read_by_key)),
                            // Absent: the default, because no key equals it.
                            None if literal_key().is_some() && !unknown_keys => {
                                default.with_why(&key_why.union_with(&keys))
                            }
                            None => {
                                let mut d = receiver.deps();
                                d.union(&default.deps());
                                Value::scalar(d.union_with(&key_why))
                            }
                        }
                    }
                    _ => opaque(receiver, &args, &[]),
                };
                Ok(Some(value))
            }
            _ => Ok(None),
        }
    }
}

/// `Counter(xs)` of a list whose elements the replay knows (a literal of
/// constants): an entry per distinct element, in the order they first
/// come; each count is decided by every element (compared to it), and
/// made of none.
fn counter_of(elements: &Value) -> Option<Value> {
    let Value::Sequence(s) = elements else {
        return None;
    };
    let (items, known, structure) = {
        let s = s.borrow();
        (s.items.clone(), s.known.clone()?, s.structure.clone())
    };
    let mut all = structure.as_why();
    for item in &items {
        all.union(&item.deps().as_why());
    }
    let mut keys: Vec<String> = Vec::new();
    let mut tally: Vec<(u64, Value)> = Vec::new();
    for (known, item) in known.iter().zip(&items) {
        let key = known.repr()?;
        match keys.iter().position(|k| *k == key) {
            Some(i) => tally[i].0 += 1,
            None => {
                keys.push(key);
                tally.push((1, item.clone()));
            }
        }
    }
    let count = Value::scalar(all.clone());
    let counter = Value::mapping(keys.into_iter().map(|k| (k, count.clone())).collect(), all);
    if let Value::Mapping(m) = &counter {
        let mut m = m.borrow_mut();
        m.default = Some(Fresh::Constant);
        for ((k, _), (_, first)) in m.items.clone().iter().zip(&tally) {
            m.made_by(k, &first.deps());
        }
        m.tally = Some(tally);
    }
    Some(counter)
}

/// What iterating `keys` (a dict's `keys()` or `items()`) gives, when the
/// dict's keys are all known: each key as `each` makes it (`for k, v in
/// d.items()` knows `k`).
fn known_keys(keys: &Value, dict: &Shared<Mapping>, each: impl Fn(Known) -> Known) {
    let known: Option<Vec<Known>> = dict
        .borrow()
        .items
        .iter()
        .map(|(k, _)| (k != "?").then(|| each(Known::of_key(k))))
        .collect();
    if let (Value::Sequence(s), Some(known)) = (keys, known) {
        s.borrow().known = Some(known);
    }
}

/// `dict` whose keys `made` (each with what it depends on) were computed
/// at run time ([`Mapping::made_by`]; the unknown key `?` aside).
fn made_by(dict: Value, made: Vec<(String, Deps)>) -> Value {
    if let Value::Mapping(m) = &dict {
        let mut m = m.borrow_mut();
        for (k, deps) in made {
            if k != "?" {
                m.made_by(&k, &deps);
            }
        }
    }
    dict
}

/// A copy of a dict (`dict(d)`, `d.copy()`): its entries, and what
/// decided them.
fn copy_of(m: &Shared<Mapping>) -> Value {
    let m = m.borrow();
    let copy = Value::mapping(m.items.clone(), m.structure.clone());
    if let Value::Mapping(c) = &copy {
        let mut c = c.borrow_mut();
        c.literal_keys = m.literal_keys;
        c.keys = m.keys.clone();
        c.default = m.default;
        c.key_inputs = m.key_inputs.clone();
    }
    copy
}

/// A dict's values, structure and [`Mapping::keys`], read under one lock
/// (the values may hold the dict itself: they are changed after it).
fn entries(m: &Shared<Mapping>) -> (Vec<Value>, Deps, Deps) {
    let m = m.borrow();
    (
        m.items.iter().map(|(_, v)| v.clone()).collect(),
        m.structure.clone(),
        m.keys.clone(),
    )
}

/// `entries[key] = value` in a dict being built: a later equal key
/// replaces the value where the first put it; under the unknown key `?`
/// any of the values may be there.
fn put(entries: &mut Vec<(String, Value)>, key: String, value: Value) {
    match entries.iter_mut().find(|(e, _)| *e == key) {
        Some((e, old)) if e != "?" => *old = value,
        Some((_, old)) => *old = Value::scalar(old.deps().union_with(&value.deps())),
        None => entries.push((key, value)),
    }
}

/// A key computed at run time (depending on `key`) reached `container`.
fn reached(container: &Value, key: &Deps) {
    if let Value::Mapping(m) = container
        && !key.is_empty()
    {
        m.borrow_mut().reached_by(key);
    }
}

/// An empty container made by a call of `path` (`list()`, `dict()`,
/// `dict(a=1)`, `collections.defaultdict(list)`, `Counter()`, `deque()`):
/// code, not data that entered the notebook.
fn empty_container(
    path: &str,
    c: &ast::ExprCall,
    args: &[Value],
    keywords: &[(String, Value)],
) -> Option<Value> {
    match (path, args) {
        ("builtins.list" | "builtins.set" | "builtins.tuple" | "collections.deque", []) => keywords
            .is_empty()
            .then(|| Value::sequence(Vec::new(), Deps::default())),
        ("builtins.dict", []) => Some(Value::mapping(
            keywords
                .iter()
                .map(|(k, v)| (python_repr(k), v.clone()))
                .collect(),
            Deps::default(),
        )),
        ("collections.OrderedDict", []) if keywords.is_empty() => {
            Some(Value::mapping(Vec::new(), Deps::default()))
        }
        ("collections.Counter", []) if keywords.is_empty() => Some(defaulting(Fresh::Constant)),
        ("collections.defaultdict", [_]) if keywords.is_empty() => {
            Some(defaulting(factory(c.arguments.args.first()?)?))
        }
        _ => None,
    }
}

/// An empty dict whose missing keys get `fresh`.
fn defaulting(fresh: Fresh) -> Value {
    let value = Value::mapping(Vec::new(), Deps::default());
    if let Value::Mapping(m) = &value {
        m.borrow_mut().default = Some(fresh);
    }
    value
}

/// What the `defaultdict` factory `e` makes, when the replay knows.
fn factory(e: &Expr) -> Option<Fresh> {
    match e {
        Expr::Name(n) => match n.id.as_str() {
            "list" | "set" => Some(Fresh::Sequence),
            "dict" | "OrderedDict" | "Counter" => Some(Fresh::Mapping),
            "int" | "float" | "str" | "bool" => Some(Fresh::Constant),
            _ => None,
        },
        Expr::Lambda(l) if l.parameters.is_none() => match &*l.body {
            Expr::NumberLiteral(_) | Expr::StringLiteral(_) | Expr::NoneLiteral(_) => {
                Some(Fresh::Constant)
            }
            Expr::List(_) | Expr::Set(_) => Some(Fresh::Sequence),
            Expr::Dict(_) => Some(Fresh::Mapping),
            Expr::Call(c) if c.arguments.is_empty() => match &*c.func {
                Expr::Name(n) if n.id.as_str() == "defaultdict" => None,
                other => factory(other),
            },
            _ => None,
        },
        _ => None,
    }
}

/// The result of a user function's call that was not logged: it may
/// depend on any of its arguments (decided by them too).
fn opaque_call(args: &[Value]) -> Value {
    let mut deps = Deps::default();
    for v in args {
        deps.union(&v.deps());
    }
    Value::scalar(deps.clone().with_why(&deps))
}

/// A method's result that depends on its receiver and all its arguments.
fn opaque(receiver: &Value, args: &[Value], keywords: &[(String, Value)]) -> Value {
    let mut deps = receiver.deps();
    for v in args.iter().chain(keywords.iter().map(|(_, v)| v)) {
        deps.union(&v.deps());
    }
    Value::object(deps, None)
}

/// The `k`-th element iterating `iterable` yields.
fn element(iterable: &Value, elements: Option<&[Value]>, k: usize) -> Value {
    match (iterable, elements) {
        (_, Some(items)) if k < items.len() => items[k].clone(),
        // A position: decided by the range's bounds.
        (Value::Range(d), _) => Value::scalar(d.as_why()),
        (other, _) => Value::scalar(other.deps()),
    }
}

/// The symbol a target's object is (`cfg`, `a.b`, `d['k']`), when it is
/// a name or a path of attributes and constant keys from one.
fn symbol_path(e: &Expr) -> Option<String> {
    match e {
        Expr::Name(n) => Some(n.id.to_string()),
        Expr::Attribute(a) => Some(format!("{}.{}", symbol_path(&a.value)?, a.attr)),
        Expr::Subscript(s) => Some(format!(
            "{}[{}]",
            symbol_path(&s.value)?,
            constant_key(&s.slice)??
        )),
        _ => None,
    }
}

/// Does a call with `effect` change its positional argument `i` in place
/// (an `inplace=True` switch included)?
fn mutates_arg(effect: &nbsight_dataflow::effects::Effect, i: usize, c: &ast::ExprCall) -> bool {
    use nbsight_dataflow::effects::Target;
    let switched = effect.inplace.as_deref().is_some_and(|kw| {
        c.arguments
            .find_keyword(kw)
            .is_some_and(|k| matches!(&k.value, Expr::BooleanLiteral(b) if b.value))
    });
    effect
        .mutates
        .iter()
        .any(|t| matches!(t, Target::AllArgs) || *t == Target::Arg(i))
        || (switched && i == 0)
}

/// The value of an integer literal used as a list position (`2`, `-1`).
fn literal_index(expr: &Expr) -> Option<i64> {
    match expr {
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => i.as_i64(),
            _ => None,
        },
        Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => literal_index(&u.operand).map(|k| -k),
        _ => None,
    }
}

/// The positions `seq[lower:upper:step]` takes from a sequence of `len`
/// elements, when `index` knows every bound given (Python's slicing
/// rules); `None` otherwise.
fn known_slice(
    bounds: &ast::ExprSlice,
    len: usize,
    index: impl Fn(&Expr) -> Option<i64>,
) -> Option<Vec<usize>> {
    let bound = |b: &Option<Box<Expr>>| match b.as_deref() {
        None => Some(None),
        Some(e) => index(e).map(Some),
    };
    let (lower, upper, step) = (
        bound(&bounds.lower)?,
        bound(&bounds.upper)?,
        bound(&bounds.step)?,
    );
    let step = step.unwrap_or(1);
    if step == 0 {
        return None;
    }
    let len = i64::try_from(len).ok()?;
    let clamp = |v: i64, lo: i64, hi: i64| {
        let v = if v < 0 { v + len } else { v };
        v.clamp(lo, hi)
    };
    let mut out = Vec::new();
    if step > 0 {
        let start = lower.map_or(0, |v| clamp(v, 0, len));
        let stop = upper.map_or(len, |v| clamp(v, 0, len));
        let mut i = start;
        while i < stop {
            out.push(usize::try_from(i).ok()?);
            i += step;
        }
    } else {
        let start = lower.map_or(len - 1, |v| clamp(v, -1, len - 1));
        let stop = upper.map_or(-1, |v| clamp(v, -1, len - 1));
        let mut i = start;
        while i > stop {
            out.push(usize::try_from(i).ok()?);
            i += step;
        }
    }
    Some(out)
}

/// `open(path, mode)` with a mode that writes (`"w"`, `"a"`, `"x"`, `"+"`):
/// what it makes is no file's content.
fn opens_for_writing(c: &ast::ExprCall) -> bool {
    let mode = c.arguments.args.get(1).or_else(|| {
        c.arguments
            .keywords
            .iter()
            .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "mode"))
            .map(|k| &k.value)
    });
    matches!(mode, Some(Expr::StringLiteral(m))
        if m.value.to_str().contains(['w', 'a', 'x', '+']))
}

/// A library method whose value is discarded and that returns `None`
/// changes its receiver (`df.dropna(inplace=True)`, `model.fit(X)`): what
/// it read flows into the receiver.
fn returns_none(name: &str, c: &ast::ExprCall) -> bool {
    let inplace = c.arguments.keywords.iter().any(|k| {
        k.arg.as_ref().is_some_and(|a| a.as_str() == "inplace")
            && matches!(&k.value, Expr::BooleanLiteral(b) if b.value)
    });
    inplace
        || matches!(
            name,
            "update" | "fit" | "sort" | "append" | "extend" | "insert"
        )
}

/// The key a constant subscript or dict key shows (`Some(None)` for a
/// constant without a shown form, such as `None`), or `None` when the
/// key is not a constant: the recorder logs exactly the keys that are not.
fn constant_key(expr: &Expr) -> Option<Option<String>> {
    match expr {
        Expr::NumberLiteral(n) => Some(number_repr(&n.value)),
        Expr::StringLiteral(s) => Some(Some(python_repr(s.value.to_str()))),
        Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_)
        | Expr::BytesLiteral(_)
        | Expr::EllipsisLiteral(_) => Some(None),
        Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => match &*u.operand {
            Expr::NumberLiteral(n) => Some(number_repr(&n.value).map(|v| format!("-{v}"))),
            Expr::BooleanLiteral(_)
            | Expr::NoneLiteral(_)
            | Expr::BytesLiteral(_)
            | Expr::EllipsisLiteral(_)
            | Expr::StringLiteral(_) => Some(None),
            _ => None,
        },
        _ => None,
    }
}

fn number_repr(n: &ast::Number) -> Option<String> {
    match n {
        ast::Number::Int(i) => Some(i.to_string()),
        _ => None,
    }
}

/// Python's `repr` of a str (as symbols spell constant keys).
fn python_repr(s: &str) -> String {
    nbsight_dataflow::symbol::python_str_repr(s)
}

fn is_builtin_name(name: &str) -> bool {
    nbsight_dataflow::builtins::is_builtin(name)
}

/// What `max`/`min` (`name`) returned or `sorted` made from `v`, given the
/// positions the recorder logged (`order`): the element(s) chosen, each
/// decided by comparing all of them. `None` when the log does not fit the
/// elements the replay knows.
fn selected(name: &str, v: &Value, order: &[u32], key: &Deps) -> Option<Value> {
    // (A dict with keys the replay does not know (`?`) lists its keys in
    // another order than the program's.)
    if let Value::Mapping(m) = v
        && m.borrow().items.iter().any(|(k, _)| k == "?")
    {
        return None;
    }
    let items = v.elements()?;
    let mut compared = v.deps().as_why();
    compared.union(&key.as_why());
    let at = |p: &u32| {
        items
            .get(*p as usize)
            .map(|item| decided_by(item, &compared, 0))
    };
    match name {
        "max" | "min" => match order {
            [p] => at(p),
            _ => None,
        },
        _ if order.len() == items.len() => {
            let chosen: Option<Vec<Value>> = order.iter().map(at).collect();
            let mut structure = v.structure();
            structure.union(&compared);
            Some(Value::sequence(chosen?, structure))
        }
        _ => None,
    }
}

/// The positions a selection `name` takes from elements whose keys have
/// `ranks`: `max` the first of the highest, `min` the first of the lowest,
/// sorting a stable order.
fn from_ranks(name: &str, ranks: &[u32], reverse: bool) -> Option<Vec<u32>> {
    let positions = 0..u32::try_from(ranks.len()).ok()?;
    let first = |best: u32| positions.clone().find(|&p| ranks[p as usize] == best);
    match name {
        "max" => Some(vec![first(*ranks.iter().max()?)?]),
        "min" => Some(vec![first(*ranks.iter().min()?)?]),
        _ => {
            // `reverse=True` keeps equal elements in their order too.
            let mut order: Vec<u32> = positions.collect();
            if reverse {
                order.sort_by_key(|&p| std::cmp::Reverse(ranks[p as usize]));
            } else {
                order.sort_by_key(|&p| ranks[p as usize]);
            }
            Some(order)
        }
    }
}

/// The dependencies of a selection's `key=` (empty without one) and
/// whether it sorts in reverse, when its keywords are at most `key=` and
/// `reverse=` with a literal bool; `None` with any other.
fn selection_keywords(keywords: &[(String, Value)], c: &ast::ExprCall) -> Option<(Deps, bool)> {
    let mut key = Deps::default();
    let mut reverse = false;
    for (name, value) in keywords {
        match name.as_str() {
            "key" => key = value.deps(),
            "reverse" => match c.arguments.find_keyword("reverse").map(|k| &k.value) {
                Some(Expr::BooleanLiteral(b)) => reverse = b.value,
                _ => return None,
            },
            _ => return None,
        }
    }
    Some((key, reverse))
}

/// A copy of `v` whose every part was also decided by `why` (an element a
/// selection chose: its parts stay apart, `pairs[0][0]`); library objects
/// and deep nesting become one value.
fn decided_by(v: &Value, why: &Deps, depth: usize) -> Value {
    match v {
        Value::Sequence(s) if depth < 8 => {
            let s = s.borrow();
            let items = s
                .items
                .iter()
                .map(|i| decided_by(i, why, depth + 1))
                .collect();
            Value::sequence(items, s.structure.clone().with_why(why))
        }
        Value::Mapping(m) if depth < 8 => {
            let m = m.borrow();
            let items = m
                .items
                .iter()
                .map(|(k, i)| (k.clone(), decided_by(i, why, depth + 1)))
                .collect();
            Value::mapping(items, m.structure.clone().with_why(why))
        }
        Value::Function(_) | Value::Module(_) => v.clone(),
        other => Value::scalar(other.deps().with_why(why)),
    }
}

/// [`exits`] of any branch of `s`.
fn if_exits(s: &ast::StmtIf) -> (bool, bool) {
    std::iter::once(&s.body)
        .chain(s.elif_else_clauses.iter().map(|c| &c.body))
        .map(|b| exits(b))
        .fold((false, false), |a, b| (a.0 || b.0, a.1 || b.1))
}

/// Whether `body` may leave its block (a `break`, `continue` or `return`
/// in it or in its `if`s, `with`s and `try`s; not in a nested loop or
/// definition), and whether by a `break` or `return`.
fn exits(body: &[Stmt]) -> (bool, bool) {
    let mut found = (false, false);
    for stmt in body {
        let inner = match stmt {
            Stmt::Continue(_) => (true, false),
            Stmt::Break(_) | Stmt::Return(_) => (true, true),
            Stmt::If(s) => if_exits(s),
            Stmt::With(s) => exits(&s.body),
            Stmt::Match(s) => s
                .cases
                .iter()
                .map(|c| exits(&c.body))
                .fold((false, false), |a, b| (a.0 || b.0, a.1 || b.1)),
            Stmt::Try(s) => std::iter::once(&s.body)
                .chain(s.handlers.iter().map(|h| {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    &h.body
                }))
                .chain([&s.orelse, &s.finalbody])
                .map(|b| exits(b))
                .fold((false, false), |a, b| (a.0 || b.0, a.1 || b.1)),
            _ => (false, false),
        };
        found = (found.0 || inner.0, found.1 || inner.1);
    }
    found
}

/// What a `try` body read (`Replay::try_reads`): each container once, so
/// that a loop reading one element at a time stays linear.
#[derive(Default)]
pub(super) struct TryReads {
    pub deps: Deps,
    seen: rustc_hash::FxHashSet<*const ()>,
}

impl TryReads {
    fn read(&mut self, value: &Value) {
        let key = match value {
            Value::Sequence(s) => Some(s.key()),
            Value::Mapping(m) => Some(m.key()),
            Value::Object(o) => Some(o.key()),
            _ => None,
        };
        if key.is_none_or(|k| self.seen.insert(k)) {
            self.deps.union(&value.deps());
        }
    }
}

/// One comprehension being replayed.
struct Generation<'a> {
    /// The line its first `for` is on.
    first_line: u32,
    generators: &'a [ast::Comprehension],
    /// A generator expression: its consumer may stop taking elements.
    lazy: bool,
    /// Its consumer stopped taking elements.
    stopped: bool,
    /// It has a condition (`if`) that may leave elements out.
    filtered: bool,
}

/// A call of a builtin.
fn builtin(name: &str, args: &[Value], keywords: &[(String, Value)]) -> Value {
    let all = || {
        let mut d = Deps::default();
        for v in args.iter().chain(keywords.iter().map(|(_, v)| v)) {
            d.union(&v.deps());
        }
        d
    };
    match (name, args) {
        // A count: decided by which elements there are, not made of them
        // (a library object's length too: the rows a filter kept).
        ("len", [Value::Object(o)]) => Value::scalar(o.borrow().deps.as_why()),
        ("len", [v]) => Value::scalar(v.structure()),
        ("range", _) => Value::Range(all()),
        ("list" | "tuple" | "set" | "sorted" | "reversed", [v]) => match v.elements() {
            Some(mut items) => {
                let mut structure = v.structure();
                match name {
                    // Each position may hold any element, chosen by
                    // comparing them all (with the key's inputs).
                    "sorted" => {
                        let mut all = v.deps();
                        for (_, k) in keywords {
                            all.union(&k.deps().as_why());
                        }
                        let chosen = Value::scalar(all.clone().with_why(&all));
                        items = vec![chosen; items.len()];
                        structure.union(&all.as_why());
                    }
                    // Which elements are equal decides how many remain.
                    "set" => structure.union(&v.deps().as_why()),
                    "reversed" => items.reverse(),
                    _ => {}
                }
                Value::sequence(items, structure)
            }
            None => Value::object(v.deps(), None),
        },
        ("dict", [Value::Mapping(m)]) => copy_of(m),
        ("enumerate", [v, ..]) => match v.elements() {
            Some(items) => Value::sequence(
                items
                    .into_iter()
                    .map(|i| {
                        Value::sequence(
                            vec![Value::scalar(v.structure().as_why()), i],
                            Deps::default(),
                        )
                    })
                    .collect(),
                v.structure(),
            ),
            None => Value::object(v.deps(), None),
        },
        ("zip", [a, b]) => match (a.elements(), b.elements()) {
            (Some(x), Some(y)) => {
                let mut structure = a.structure();
                structure.union(&b.structure());
                Value::sequence(
                    x.into_iter()
                        .zip(y)
                        .map(|(p, q)| Value::sequence(vec![p, q], Deps::default()))
                        .collect(),
                    structure,
                )
            }
            _ => Value::scalar(all()),
        },
        // `map(f, xs, ...)`: the k-th result is `f` of the k-th elements,
        // with what `f` reads from outside (`f` here is those reads:
        // `functions_as_reads`).
        ("map", [f, iterables @ ..]) if !iterables.is_empty() => {
            let columns: Option<Vec<Vec<Value>>> = iterables.iter().map(|v| v.elements()).collect();
            match columns {
                Some(columns) => {
                    let len = columns.iter().map(Vec::len).min().unwrap_or(0);
                    let reads = f.deps();
                    let mut structure = Deps::default();
                    for v in iterables {
                        structure.union(&v.structure());
                    }
                    let items = (0..len)
                        .map(|k| {
                            let mut d = reads.clone();
                            for column in &columns {
                                d.union(&column[k].deps());
                            }
                            Value::scalar(d)
                        })
                        .collect();
                    Value::sequence(items, structure)
                }
                None => Value::scalar(all()),
            }
        }
        ("print", _) => Value::constant(),
        // The element chosen (not logged: a key, 3.10/3.11) may be any of
        // them, decided by comparing them all.
        ("max" | "min", _) => {
            let all = all();
            Value::scalar(all.clone().with_why(&all))
        }
        _ => Value::scalar(all()),
    }
}

trait UnionWith {
    fn union_with(self, other: &Deps) -> Deps;
}

impl UnionWith for Deps {
    fn union_with(mut self, other: &Deps) -> Deps {
        self.union(other);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::from_ranks;

    #[test]
    fn ranks_choose_as_cpython_does() {
        let ranks = [1, 1, 0, 2, 2];
        assert_eq!(from_ranks("max", &ranks, false), Some(vec![3]));
        assert_eq!(from_ranks("min", &ranks, false), Some(vec![2]));
        assert_eq!(
            from_ranks("sorted", &ranks, false),
            Some(vec![2, 0, 1, 3, 4])
        );
        // `sorted(xs, reverse=True)` is stable too: `[4, 4, 2, 2, 1]` from
        // `xs = [2, 2, 1, 4, 4]` takes the first 4 first.
        assert_eq!(
            from_ranks("sorted", &ranks, true),
            Some(vec![3, 4, 0, 1, 2])
        );
        assert_eq!(from_ranks("max", &[], false), None);
    }
}
