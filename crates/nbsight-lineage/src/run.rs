//! What a tracer observed of one cell run (plain data: the Python module
//! fills it), and how a run changes the symbol graph: the statements that
//! ran, in source order, each setting what it writes from what it reads
//! (nbsafety §4: the static per-statement summaries say what a statement
//! reads and writes; the run says which statements ran, which functions
//! their calls reached and which names share one object).

use nbsight_dataflow::access::AccessKind;
use nbsight_dataflow::statements::{StmtKind, StmtSummary};
use nbsight_dataflow::symbol::{ANY_INDEX, Symbol, root};
use nbsight_notebook::OneIndexed;

use ruff_text_size::TextRange;

use crate::cells::CellFacts;
use crate::random::RandomUse;
use crate::shapes::{ElementOp, Part, Shape, Through, Trailer};
use crate::symbols::{ExecIdx, FunctionFacts, GraphSym, Read, SymbolGraph, Ts};

/// A user function a call reached, named as its code object names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FunctionRef {
    /// The execution counter of the run that defined it.
    pub defined_in: Ts,
    /// Its qualified name (`f`, `C.m`, `<lambda>`).
    pub qualname: String,
    /// The line of the cell its definition starts on.
    pub first_line: u32,
}

/// A call that reached a user function, made by the cell's code or by a
/// user function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallFact {
    /// The line of the call: in the running cell when `caller` is `None`,
    /// else in the cell that defined the caller (the first call of this
    /// callee it made in the run).
    pub line: u32,
    pub function: FunctionRef,
    /// The user function that made the call (`None`: the cell's own
    /// module-level code).
    pub caller: Option<FunctionRef>,
}

/// What the tracer observed of one run of a cell.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunFacts {
    pub cell_id: String,
    /// The source that ran (as the user wrote it).
    pub source: String,
    /// The session's clock for this run: larger than every earlier run's
    /// (the kernel's execution count when it grows, else one more).
    pub counter: Ts,
    /// The kernel's execution count (`[4]`), when the run stored history.
    pub execution_count: Option<u32>,
    /// The lines of the cell's module-level code that ran at least once;
    /// `None` when the run was not traced (every statement up to
    /// `error_line` is taken to have run).
    pub lines: Option<Vec<u32>>,
    /// Calls that reached user functions: from the cell's code, the first
    /// at each call site (each line and callee); from user functions, one
    /// per caller and callee.
    pub calls: Vec<CallFact>,
    /// The lines of each user function's code that ran during the run,
    /// sorted, once each (in the numbering of the cell that defined it;
    /// nested code such as a comprehension or a class body counts as its
    /// own function). Not known (empty) when the run was not traced.
    pub function_lines: Vec<(FunctionRef, Vec<u32>)>,
    /// The lines of a user function that ran while one line of the cell's
    /// code called it, where the tracer saw them all: `(cell line,
    /// function, lines)` (a function called from two lines that took two
    /// branches: each call's own). Empty when not known.
    pub site_lines: Vec<(u32, FunctionRef, Vec<u32>)>,
    /// The lines of the cell's module code where an exception was raised
    /// or passed through during the run (caught there or not), as far as
    /// the tracer saw; sorted, once each.
    pub raised: Vec<u32>,
    /// The run raised: the cell line the exception left the cell's code
    /// from, when known.
    pub failed: bool,
    pub error_line: Option<u32>,
    /// After the run: the root names asked for, each with the identity of
    /// the object it is bound to (`None`: unbound).
    pub bindings: Vec<(String, Option<u64>)>,
    /// The objects at [`PreRun::elements`](crate::PreRun::elements) before
    /// and after the run.
    pub elements: Vec<crate::ElementIdentity>,
    /// The names of `bindings` bound to a pandas frame after the run.
    pub frames: Vec<String>,
    /// The attributes of the frame type (`loc`, `shape`, methods), when the
    /// caller knows them (once is enough).
    pub frame_attributes: Vec<String>,
    /// The index values the tracer read at the probes of
    /// [`PreRun::probes`](crate::PreRun::probes) (empty: not read).
    pub keys: Vec<crate::ProbeKeys>,
    /// The run-time decisions logged for value provenance, when recording
    /// was on (`None`: not recorded).
    pub provenance: Option<Vec<crate::provenance::Event>>,
    /// Recording was on but the run's decisions were not all recorded (too
    /// many, or the tracer lost sight of the run): why. What it wrote is
    /// then its own input, and its provenance says so.
    pub not_recorded: Option<String>,
}

/// What one statement did, in symbols.
#[derive(Debug, Default)]
pub(crate) struct StmtEffect {
    pub reads: Vec<Read>,
    /// Where each read is in the source (a read may be made in several
    /// places).
    pub read_at: Vec<(Read, TextRange)>,
    pub sets: Vec<GraphSym>,
    /// Targets that take a part of the value, each with what that part
    /// read (the rest of `sets` take every read), in order: a container
    /// before its elements.
    pub parts: Vec<(GraphSym, Vec<Read>)>,
    /// Read only by the functions its calls reached, not for their results:
    /// no parent of what the statement binds from them.
    pub side_reads: Vec<GraphSym>,
    /// Targets whose value is another path (`b = a`), with that path.
    pub aliases: Vec<(GraphSym, GraphSym)>,
    /// The target of an augmented assignment (`b += [3]`).
    pub augmented: Option<GraphSym>,
    /// An element operation on a container, instead of a change of the
    /// whole.
    pub elements: Option<(GraphSym, ElementOp)>,
    /// A `def` or `class` statement.
    pub definition: bool,
    /// An `import` statement.
    pub import: bool,
    pub mutates: Vec<GraphSym>,
    pub deletes: Vec<GraphSym>,
    /// Root names it may bind (checked against the run's bindings).
    pub may_bind: Vec<GraphSym>,
    /// Functions it defines: `(symbol, facts)`.
    pub defines: Vec<(GraphSym, FunctionFacts)>,
    /// Objects it makes members of containers: `(container, member)`.
    pub members: Vec<(GraphSym, GraphSym)>,
    /// Targets it binds to an instance of a class: `(target, class)`.
    pub instances: Vec<(GraphSym, GraphSym)>,
}

impl StmtEffect {
    /// What the value the statement binds to `target` was computed from:
    /// its part's reads, else every read.
    fn parents_of(&self, target: GraphSym) -> Vec<Read> {
        match self.parts.iter().find(|(t, _)| *t == target) {
            Some((_, parents)) => parents.clone(),
            None => self.reads.clone(),
        }
    }
}

/// Does `stmt`'s own code span the 1-based cell line `line` a tracer saw?
pub(crate) fn spans(stmt: &StmtSummary, line: u32) -> bool {
    OneIndexed::new(line as usize).is_some_and(|line| stmt.spans(line))
}

/// The statements of `facts` that ran, given the lines that ran and where
/// the exception left the cell; the statement that raised is left out (what
/// it would have bound was not bound).
pub(crate) fn ran_statements(facts: &CellFacts, run: &RunFacts) -> Vec<usize> {
    let raised_at = raised_at(facts, run);
    let caught = caught_at(facts, run);
    facts
        .statements
        .iter()
        .enumerate()
        .filter(|&(i, s)| {
            if Some(i) == raised_at || caught.contains(&i) {
                return false;
            }
            match &run.lines {
                Some(lines) => lines.iter().any(|&l| spans(s, l)),
                None => match (run.failed, run.error_line) {
                    (true, Some(line)) => s.first_line.get() < line as usize,
                    _ => true,
                },
            }
        })
        .map(|(i, _)| i)
        .collect()
}

/// The statements that raised an exception the cell caught (in `try`, or a
/// `with` that suppressed it): what they would have bound was not bound.
/// One inside a loop may have run to its end in another iteration (the
/// tracer sees a line once): it counts as having run.
pub(crate) fn caught_at(facts: &CellFacts, run: &RunFacts) -> Vec<usize> {
    if run.raised.is_empty() {
        return Vec::new();
    }
    run.raised
        .iter()
        .filter_map(|&line| innermost_at(facts, line))
        .filter(|&i| !in_loop(facts, run, i))
        .collect()
}

/// Is statement `i` of `facts` inside a `for` or `while` loop of the
/// cell's code (it may run more than once)?
pub(crate) fn in_loop(facts: &CellFacts, run: &RunFacts, i: usize) -> bool {
    let Some(statement) = facts.statements.get(i) else {
        return false;
    };
    let mut depth = statement.depth;
    facts.statements[..i].iter().rev().any(|h| {
        if h.kind != StmtKind::Header || h.depth >= depth {
            return false;
        }
        depth = h.depth;
        let text = run
            .source
            .lines()
            .nth(h.first_line.get() - 1)
            .map_or("", |l| l.trim_start());
        ["for ", "for(", "while ", "while(", "async for "]
            .iter()
            .any(|k| text.starts_with(k))
    })
}

/// The statement the exception left the cell from, if the run failed and
/// the line is known.
pub(crate) fn raised_at(facts: &CellFacts, run: &RunFacts) -> Option<usize> {
    run.error_line
        .filter(|_| run.failed)
        .and_then(|line| innermost_at(facts, line))
}

/// The innermost statement spanning `line`.
fn innermost_at(facts: &CellFacts, line: u32) -> Option<usize> {
    facts
        .statements
        .iter()
        .enumerate()
        .filter(|(_, s)| spans(s, line))
        .max_by_key(|(_, s)| s.depth)
        .map(|(i, _)| i)
}

/// The symbol a path stands for: a path through an unknown subscript
/// (`lst[*]`, `d[*].x`) stands for the container before it, read or changed
/// as a whole.
pub(crate) fn concrete(path: &str) -> (&str, bool) {
    match path.find(ANY_INDEX) {
        Some(at) => (&path[..at], true),
        None => (path, false),
    }
}

/// What a call of a statement returned, as the called function's code
/// says: the object at a path, or a constant key.
#[derive(Debug, Clone, Default)]
pub(crate) struct CallResult {
    /// Where the call starts.
    pub start: ruff_text_size::TextSize,
    pub path: Option<String>,
    pub constant: Option<String>,
}

/// The user functions a statement's calls reached.
pub(crate) struct Reached<'a> {
    /// What each reads and changes.
    pub facts: Vec<&'a FunctionFacts>,
    /// Their qualified names.
    pub names: Vec<&'a str>,
    /// What the calls returned, where known.
    pub results: Vec<CallResult>,
}

/// Turns a statement's accesses into symbols of `graph`, given the user
/// functions its calls `reached` (a reference to one that was not called
/// reads its free globals).
pub(crate) fn effect_of(
    graph: &mut SymbolGraph,
    stmt: &StmtSummary,
    shape: Option<&Shape>,
    facts: &CellFacts,
    reached: &Reached<'_>,
    resolved: &[crate::keys::Resolved<'_>],
) -> StmtEffect {
    let called: &[&FunctionFacts] = &reached.facts;
    let results = &reached.results;
    let reached = &reached.names;
    let mut effect = StmtEffect {
        definition: stmt.kind == StmtKind::Definition,
        import: stmt.kind == StmtKind::Import,
        ..StmtEffect::default()
    };
    let read = |graph: &mut SymbolGraph, effect: &mut StmtEffect, path: &str, whole: bool| {
        let (path, any) = concrete(path);
        let sym = graph
            .class_attribute(path)
            .unwrap_or_else(|| graph.intern(path));
        // A name bound by `def` or `class` is read for its binding: what
        // calling it reads comes from its function facts.
        let whole = (whole || any) && !(graph.node(sym).definition && root(path) == path);
        let read = Read {
            elements: any && whole,
            ..Read::new(sym, whole)
        };
        if !effect.reads.contains(&read) {
            effect.reads.push(read);
        }
        read
    };
    let builtin = |path: &str| facts.builtins.iter().any(|b| b == root(path));
    for access in &stmt.accesses {
        if access.implied {
            continue;
        }
        // A subscript whose keys the run read stands for those elements;
        // storing into them binds them.
        let expanded = crate::keys::expand(&access.symbol, access.range, resolved);
        let kind = match (&expanded, access.kind) {
            (Some(_), AccessKind::MayWrite) => AccessKind::Write,
            (_, kind) => kind,
        };
        let paths: Vec<std::borrow::Cow<'_, str>> = match expanded {
            Some(paths) => paths.into_iter().map(Into::into).collect(),
            None => vec![access.symbol.as_str().into()],
        };
        for path in &paths {
            let path: &str = path;
            match kind {
                AccessKind::Read | AccessKind::BaseRead => {
                    if builtin(path) {
                        continue;
                    }
                    let made = read(graph, &mut effect, path, kind == AccessKind::Read);
                    let sym = made.sym;
                    effect.read_at.push((made, access.range));
                    // A user function named where something is called may be
                    // called (`df.apply(f)`): it reads its free globals.
                    // A function the tracer saw called is read as it ran
                    // (`called`), not as its whole body.
                    if !stmt.calls || reached.contains(&path) {
                        continue;
                    }
                    if let Some(f) = graph.node(sym).function.clone() {
                        for g in calls_closure(graph, &f.reads) {
                            read(graph, &mut effect, &g, true);
                        }
                    }
                }
                AccessKind::Write | AccessKind::MayWrite => {
                    let (concrete_path, any) = concrete(path);
                    let sym = graph.intern(concrete_path);
                    if any {
                        effect.mutates.push(sym);
                    } else if kind == AccessKind::MayWrite && root(path) == path {
                        effect.may_bind.push(sym);
                    } else {
                        effect.sets.push(sym);
                    }
                }
                AccessKind::Delete => {
                    let (concrete_path, any) = concrete(path);
                    let sym = graph.intern(concrete_path);
                    if any {
                        effect.mutates.push(sym);
                    } else {
                        effect.deletes.push(sym);
                    }
                }
                AccessKind::Mutate => effect.mutates.push(graph.intern(concrete(path).0)),
                // A call of unknown effect whose value is discarded changes its
                // receiver (one that returns a value does not).
                // A module's function called for its effect (`plt.show()`,
                // `mon.restart_events()`) does not change the module.
                AccessKind::MayMutate if stmt.kind == StmtKind::Expression => {
                    let module = graph.get(root(path)).is_some_and(|s| graph.node(s).module);
                    if !module {
                        effect.mutates.push(graph.intern(concrete(path).0));
                    }
                }
                AccessKind::MayMutate => {}
            }
        }
    }
    // `inplace=flag`: a change of the receiver exactly when the flag was
    // true.
    for (receiver, inplace) in crate::keys::inplace_flags(stmt.range, resolved) {
        let sym = graph.intern(concrete(receiver).0);
        if inplace {
            if !effect.mutates.contains(&sym) {
                effect.mutates.push(sym);
            }
        } else {
            effect.mutates.retain(|&m| m != sym);
        }
    }
    for m in &facts.members {
        if m.start == stmt.range.start() {
            let container = graph.intern(&m.container);
            let member = graph.intern(&m.member);
            effect.members.push((container, member));
        }
    }
    // A global random generator it draws from or seeds.
    for call in &facts.random {
        if stmt.range.contains_range(call.range) {
            match call.used {
                RandomUse::Draw => {
                    read(graph, &mut effect, call.state, true);
                }
                RandomUse::Seed => effect.sets.push(graph.intern(call.state)),
            }
        }
    }
    // A lambda the statement makes and passes to a call (`map(lambda x:
    // f(x), xs)`) may run: it reads its free globals.
    if stmt.calls {
        for (line, summary) in facts.lambdas() {
            if spans(stmt, line) {
                for g in summary.reads.iter() {
                    read(graph, &mut effect, g, true);
                }
            }
        }
    }
    // What the called functions read only for their own ends (printed, or
    // for a local that never reaches their result).
    let mut value_reads: Vec<Symbol> = Vec::new();
    let mut other_reads: Vec<Symbol> = Vec::new();
    for f in called {
        let all = calls_closure(graph, &f.reads);
        let values = f.value_reads.as_ref().map(|v| calls_closure(graph, v));
        for g in &all {
            read(graph, &mut effect, g, true);
            match &values {
                Some(values) if !values.contains(g) => other_reads.push(g.clone()),
                _ => value_reads.push(g.clone()),
            }
        }
        for w in &f.writes {
            let sym = graph.intern(concrete(w).0);
            effect.sets.push(sym);
        }
        for m in &f.mutates {
            let sym = graph.intern(concrete(m).0);
            effect.mutates.push(sym);
        }
    }
    for g in other_reads {
        if !value_reads.contains(&g) {
            let sym = graph.intern(concrete(&g).0);
            if !effect.side_reads.contains(&sym) {
                effect.side_reads.push(sym);
            }
        }
    }
    // A statement that reads an object and changes it drew from its state.
    for read in &mut effect.reads {
        if effect.mutates.contains(&read.sym) {
            read.drawn = true;
        }
    }
    match shape {
        Some(Shape::AugAssign { target }) => effect.augmented = Some(graph.intern(target)),
        Some(Shape::Parts(parts)) => {
            // An entry whose key the run read is the entry at each key it
            // held (`{k: v}` binds `d[5]`); unread, it is no part (its value
            // is the container's).
            let parts: Vec<(&Part, Vec<GraphSym>)> = parts
                .iter()
                .map(|part| {
                    let targets = match part.key {
                        Some(key) => crate::keys::display_entry(&part.target, key, resolved)
                            .unwrap_or_default()
                            .iter()
                            .map(|t| graph.intern(t))
                            .collect(),
                        None => vec![graph.intern(part.target.as_str())],
                    };
                    (part, targets)
                })
                .filter(|(_, targets)| !targets.is_empty())
                .collect();
            // A single target whose value is a path through what a call
            // returned (`s = a.b().c`, `x = f()[g()]`): it reads the object
            // at that path, and what the path goes through for its binding.
            if let [(part, _)] = parts.as_slice()
                && let Some(path) = part.through.as_ref().and_then(|t| through_path(t, results))
            {
                let sym = graph.intern(concrete(&path).0);
                if graph.reachable(sym) {
                    let above: Vec<GraphSym> = graph.prefixes(sym).skip(1).collect();
                    for r in effect
                        .reads
                        .iter_mut()
                        .chain(effect.read_at.iter_mut().map(|(r, _)| r))
                    {
                        if above.contains(&r.sym) {
                            r.whole = false;
                        }
                    }
                    let read = Read::new(sym, true);
                    if !effect.reads.contains(&read) {
                        effect.reads.push(read);
                    }
                    effect.read_at.push((read, part.value));
                }
            }
            let in_some_part =
                |at: TextRange| parts.iter().any(|(p, _)| p.value.contains_range(at));
            // The one called function that returns a display on every
            // return: what it reads, and what each element is computed from.
            let returning: Option<(Vec<GraphSym>, Vec<Vec<GraphSym>>)> = {
                let mut found = called
                    .iter()
                    .filter_map(|f| Some((*f, f.elements.as_ref()?)));
                match (found.next(), found.next()) {
                    (Some((f, elements)), None) => {
                        let mut syms = |reads: &[Symbol]| -> Vec<GraphSym> {
                            calls_closure(graph, reads)
                                .iter()
                                .map(|g| graph.intern(concrete(g).0))
                                .collect()
                        };
                        let all = syms(&f.reads);
                        let elements = elements.iter().map(|e| syms(e)).collect();
                        Some((all, elements))
                    }
                    _ => None,
                }
            };
            // A global of that function that is no parent of the element a
            // part takes.
            let other_element = |part: &Part, sym: GraphSym| match (part.returned, &returning) {
                (Some(k), Some((all, elements))) => elements
                    .get(k)
                    .is_some_and(|e| all.contains(&sym) && !e.contains(&sym)),
                _ => false,
            };
            for (part, targets) in &parts {
                let target = targets[0];
                if let Some(alias) = &part.alias {
                    let alias = graph.intern(alias);
                    for &target in targets {
                        effect.aliases.push((target, alias));
                    }
                }
                // A read inside an element of a display bound to the target
                // is that element's, not the container's: the container is
                // made of its elements.
                let in_element = |at: TextRange| {
                    parts.iter().any(|(q, _)| {
                        q.value != part.value
                            && part.value.contains_range(q.value)
                            && q.value.contains_range(at)
                    })
                };
                let mut parents: Vec<Read> = Vec::new();
                // The element the part takes, when the path's elements are
                // known; else what its value reads (all of the path).
                let by_element = match part.element.as_ref().and_then(|e| graph.get(e)) {
                    Some(e) if graph.node(e).exists => {
                        parents.push(Read::new(e, true));
                        true
                    }
                    _ => false,
                };
                for &(r, at) in &effect.read_at {
                    let mine =
                        (part.value.contains_range(at) && !in_element(at)) || !in_some_part(at);
                    // The read made there (`lst[k]` reads `lst` as a whole,
                    // not only the path its subscript goes through).
                    // (As the statement's reads hold it: `drawn` is set there.)
                    let same =
                        |q: &&Read| (q.sym, q.whole, q.elements) == (r.sym, r.whole, r.elements);
                    let r = effect.reads.iter().find(same).copied().unwrap_or(r);
                    if mine && !by_element && !parents.contains(&r) {
                        parents.push(r);
                    }
                }
                // An assignment expression takes the values of those
                // nested in it (`x := (y := 1) + 1` reads `y`).
                if part.named {
                    for (q, _) in &parts {
                        if q.named && q.value != part.value && part.value.contains_range(q.value) {
                            let inner = Read::new(graph.intern(q.target.as_str()), true);
                            if !parents.contains(&inner) {
                                parents.push(inner);
                            }
                        }
                    }
                }
                // What no place of the statement reads itself (the globals
                // of the functions its calls reached) is read for every part.
                for r in &effect.reads {
                    if !effect.read_at.iter().any(|(q, _)| q.sym == r.sym)
                        && !effect.side_reads.contains(&r.sym)
                        && !other_element(part, r.sym)
                        && !parents.contains(r)
                    {
                        parents.push(*r);
                    }
                }
                for &other in &targets[1..] {
                    effect.parts.push((other, parents.clone()));
                }
                effect.parts.push((target, parents));
            }
        }
        Some(Shape::Elements { container, op }) => {
            let sym = graph.intern(container);
            // `remove(v)` at the index the run found.
            let found = match op {
                ElementOp::Remove(None) => {
                    crate::keys::removed_index(container, stmt.range, resolved)
                        .map(|i| ElementOp::Remove(Some(i)))
                }
                _ => None,
            };
            let op = found.as_ref().unwrap_or(op);
            // `del lst[i]` deletes the element: the list loses it.
            let element = match op {
                ElementOp::Remove(Some(i)) => Some(graph.intern(&format!("{container}[{i}]"))),
                ElementOp::DropKey(key) => Some(graph.intern(&format!("{container}[{key}]"))),
                _ => None,
            };
            if let Some(element) = element
                && (effect.deletes.contains(&element) || effect.mutates.contains(&sym))
            {
                // The entry at a key goes away with it; a list's element
                // is moved out by the shift.
                if !matches!(op, ElementOp::DropKey(_)) {
                    effect.deletes.retain(|&d| d != element);
                } else if !effect.deletes.contains(&element) {
                    effect.deletes.push(element);
                }
                if !effect.mutates.contains(&sym) {
                    effect.mutates.push(sym);
                }
            }
            if effect.mutates.contains(&sym) {
                effect.elements = Some((sym, op.clone()));
            }
        }
        None => {}
    }
    init_parts(graph, &mut effect, called);
    instances(graph, &mut effect, shape, facts);
    if stmt.kind == StmtKind::Definition {
        for (name, summary) in &facts.functions {
            if name.contains(['.', '<']) {
                continue;
            }
            let sym = graph.intern(name);
            if !effect.sets.contains(&sym) {
                continue;
            }
            effect
                .defines
                .push((sym, FunctionFacts::of_summary(summary)));
        }
    }
    effect
}

/// The path a value through a call's result stands for (`a.inner.c` for
/// `a.b().c` when `b` returns `self.inner`, `lst[2]` for `f()[g()]` when
/// `f` returns `lst` and `g` returns `2`), when the calls' code says.
fn through_path(through: &Through, results: &[CallResult]) -> Option<String> {
    let base = results
        .iter()
        .find(|r| r.start == through.call)?
        .path
        .clone()?;
    Some(match &through.trailer {
        Trailer::Attribute(a) => format!("{base}.{a}"),
        Trailer::Key(k) => format!("{base}[{k}]"),
        Trailer::CallKey(at) => {
            let key = results.iter().find(|r| r.start == *at)?.constant.clone()?;
            format!("{base}[{key}]")
        }
    })
}

/// The targets a statement binds to a new instance of a class a cell
/// defined (`foo = Foo(10)`).
fn instances(
    graph: &mut SymbolGraph,
    effect: &mut StmtEffect,
    shape: Option<&Shape>,
    facts: &CellFacts,
) {
    let Some(Shape::Parts(parts)) = shape else {
        return;
    };
    for part in parts {
        let Some((_, call)) = facts
            .calls
            .iter()
            .find(|(_, c)| c.start == part.value.start() && c.receiver.is_none())
        else {
            continue;
        };
        let Some(class) = call.callee.as_deref().and_then(|c| graph.get(c)) else {
            continue;
        };
        let node = graph.node(class);
        // A class statement's name: a definition with no function facts.
        if node.exists && node.definition && node.function.is_none() && part.returned.is_none() {
            let target = graph.intern(part.target.as_str());
            effect.instances.push((target, class));
        }
    }
}

/// An object set up by a user `__init__` that only stores attributes
/// (`foo = Foo(a)`): each attribute it set takes what its own value was
/// computed from, the object itself what no attribute alone took (so
/// `foo.x` is not stale when a global only `foo.y` read changes).
fn init_parts(graph: &mut SymbolGraph, effect: &mut StmtEffect, called: &[&FunctionFacts]) {
    let [target] = effect.sets[..] else {
        return;
    };
    let mut with_attributes = called.iter().filter_map(|f| f.attributes.as_ref());
    let (Some(attributes), None) = (with_attributes.next(), with_attributes.next()) else {
        return;
    };
    let attributes: Vec<(String, Vec<GraphSym>)> = attributes
        .iter()
        .map(|(a, reads)| {
            let syms = reads.iter().map(|g| graph.intern(concrete(g).0)).collect();
            (a.clone(), syms)
        })
        .collect();
    // Read by the statement's own code too (`Foo(y)`), it is the object's.
    let only_attributes = |sym: GraphSym| {
        attributes.iter().any(|(_, syms)| syms.contains(&sym))
            && !effect.read_at.iter().any(|(r, _)| r.sym == sym)
    };
    let mut own = effect.parents_of(target);
    own.retain(|r| !only_attributes(r.sym));
    let path = graph.node(target).path.clone();
    let mut parts = Vec::new();
    for (attribute, syms) in &attributes {
        let mut parents = own.clone();
        for r in &effect.reads {
            if syms.contains(&r.sym) && !parents.contains(r) {
                parents.push(*r);
            }
        }
        parts.push((graph.intern(&format!("{path}.{attribute}")), parents));
    }
    effect.parts.retain(|(t, _)| *t != target);
    effect.parts.push((target, own));
    effect.parts.extend(parts);
}

/// The globals `reads` names and, for each bound to a user function, what
/// calling it reads, transitively (`foo` calls `bar`, which reads `x`).
fn calls_closure(graph: &SymbolGraph, reads: &[Symbol]) -> Vec<Symbol> {
    let mut out: Vec<Symbol> = reads.to_vec();
    let mut i = 0;
    while i < out.len() {
        if let Some(sym) = graph.get(root(&out[i]))
            && let Some(f) = &graph.node(sym).function
        {
            for g in &f.reads {
                if !out.contains(g) {
                    out.push(g.clone());
                }
            }
        }
        i += 1;
    }
    out
}

/// Applies one statement's effect at `ts` for execution `by`: `bound` are
/// the names of `may_bind` the run did bind; `aliases` gives the other names
/// bound to a root's object; `same_object` tells a root name (or a watched
/// element) still bound to the object it had before the run (an augmented
/// assignment then changed it in place: `+=` on a list, an array, a frame).
pub(crate) fn apply(
    graph: &mut SymbolGraph,
    effect: &StmtEffect,
    ts: Ts,
    by: ExecIdx,
    bound: &[GraphSym],
    aliases: &dyn Fn(&str) -> Vec<String>,
    same_object: &dyn Fn(&str) -> bool,
) {
    let mut mutates: Vec<GraphSym> = effect.mutates.clone();
    for &sym in &effect.sets {
        let path = graph.node(sym).path.clone();
        let is_root = root(&path) == path;
        if effect.augmented == Some(sym) && is_root && same_object(&path) {
            if !mutates.contains(&sym) {
                mutates.push(sym);
            }
            continue;
        }
        // Bound again to the object it had (`y = 7` again, `x = x`, `y[0] =
        // 8` where `y[0]` is that `8`): its value did not change.
        if same_object(&path)
            && !effect.definition
            && !mutates.contains(&sym)
            && graph.node(sym).exists
        {
            let mut parents = effect.parents_of(sym);
            parents.retain(|p| p.sym != sym);
            graph.recheck(sym, ts, parents, by);
            continue;
        }
        // `b = a` bound `b` to `a`'s object: `b` is that object, with its
        // lineage (changes through either name are seen by both).
        if let Some(&(_, alias)) = effect.aliases.iter().find(|(t, _)| *t == sym) {
            let alias_path = graph.node(alias).path.clone();
            if is_root
                && root(&alias_path) == alias_path
                && graph.node(alias).exists
                && aliases(&alias_path).iter().any(|a| *a == path)
            {
                // Rebinding `a` later leaves `b` with the old object: `b`
                // depends on `a`'s binding, not on changes to the object.
                let mut parents = vec![Read::new(alias, false)];
                parents.extend(graph.node(alias).parents.iter().copied());
                graph.set(sym, ts, parents, by);
                continue;
            }
        }
        let parents = effect.parents_of(sym);
        set_keeping_own(
            graph,
            sym,
            ts,
            parents.clone(),
            by,
            effect.augmented == Some(sym),
        );
        // An element or attribute set through one name of an object is set
        // for its other names too.
        if !is_root {
            let name = root(&path);
            for alias in aliases(name) {
                let aliased = graph.intern(&format!("{alias}{}", &path[name.len()..]));
                graph.set(aliased, ts, parents.clone(), by);
            }
        }
    }
    // Elements of a display bound to a path, after the path itself.
    for (sym, parents) in &effect.parts {
        if !effect.sets.contains(sym) {
            set_keeping_own(graph, *sym, ts, parents.clone(), by, false);
            if let Some(c) = graph.node(*sym).container {
                graph.set_composite(c);
            }
            // An element that is a name's object (`{'k': lst}`) shares it.
            if let Some(&(_, alias)) = effect.aliases.iter().find(|(t, _)| t == sym)
                && graph.node(alias).exists
                && graph.node(alias).container.is_none()
            {
                graph.share(*sym, alias);
            }
        }
    }
    for &sym in bound {
        graph.set(sym, ts, effect.reads.clone(), by);
    }
    for &(sym, ref facts) in &effect.defines {
        graph.set_function(sym, facts.clone());
    }
    if effect.definition {
        for &sym in &effect.sets {
            graph.set_definition(sym);
        }
    }
    if effect.import {
        for &sym in &effect.sets {
            graph.set_module(sym);
        }
    }
    for &sym in &mutates {
        let path = graph.node(sym).path.clone();
        // The same change seen through the other names of the object.
        let name = root(&path);
        let mut targets = vec![sym];
        for alias in aliases(name) {
            let aliased = format!("{alias}{}", &path[name.len()..]);
            targets.push(graph.intern(&aliased));
        }
        // And through the paths inside containers that hold the object
        // (the same change), and the containers it is a member of (a
        // change of one of their elements).
        let mut holders: Vec<GraphSym> = Vec::new();
        for t in targets.clone() {
            for (shared, member) in graph.sharing(t) {
                if targets.contains(&shared) || holders.contains(&shared) {
                    continue;
                }
                if member {
                    holders.push(shared);
                } else {
                    targets.push(shared);
                }
            }
        }
        for holder in holders {
            if !targets.contains(&holder) {
                graph.mutate(holder, ts, &effect.reads, by);
            }
        }
        for target in targets {
            match &effect.elements {
                Some((container, op)) if *container == sym => match op {
                    ElementOp::Grow | ElementOp::DropLast | ElementOp::DropKey(_) => {
                        graph.grow(target, ts, &effect.reads, by)
                    }
                    ElementOp::Insert(at) => graph.shift(target, *at, 1, ts, &effect.reads, by),
                    ElementOp::Remove(at) => graph.shift(target, *at, -1, ts, &effect.reads, by),
                },
                _ => graph.mutate(target, ts, &effect.reads, by),
            }
        }
    }
    for &sym in &effect.deletes {
        graph.delete(sym);
    }
    for &(target, class) in &effect.instances {
        if effect.sets.contains(&target) {
            graph.set_instance(target, class);
        }
    }
    for &(container, member) in &effect.members {
        if graph.node(container).exists && graph.node(member).exists {
            graph.hold(container, member);
        }
    }
}

/// Binds `sym` from `parents`; a value computed from the old value of the
/// same symbol (`z = z + y`, `z += y` rebinding) keeps what the old value
/// was computed from.
fn set_keeping_own(
    graph: &mut SymbolGraph,
    sym: GraphSym,
    ts: Ts,
    mut parents: Vec<Read>,
    by: ExecIdx,
    augmented: bool,
) {
    let reads_itself =
        (augmented || parents.iter().any(|p| p.sym == sym)) && graph.node(sym).exists;
    let before = graph.node(sym).changed_ts();
    let used: Vec<Read> = parents.iter().filter(|p| p.sym != sym).copied().collect();
    if reads_itself {
        for p in graph.node(sym).parents.clone() {
            if !parents.iter().any(|q| q.sym == p.sym) {
                parents.push(p);
            }
        }
    }
    parents.retain(|p| p.sym != sym);
    // A value computed from the object that holds it (`df['area'] =
    // df.apply(f, axis=1)`) is part of that object: later changes of its
    // siblings do not make it stale, a new binding of the object does.
    let containers: Vec<GraphSym> = graph.prefixes(sym).skip(1).collect();
    for p in &mut parents {
        if containers.contains(&p.sym) {
            p.whole = false;
        }
    }
    graph.set(sym, ts, parents, by);
    if reads_itself {
        graph.set_update(sym, before, &used);
    }
}
