//! A live kernel's lineage: the notebook as the front end shows it, every
//! traced run, the symbol graph they built, and the answers the Python
//! module gives (the warning before a run, the highlights, `why`, `deps`).

use std::cell::RefCell;
use std::sync::Arc;

use nbsight_dataflow::Effects;
use nbsight_dataflow::access::AccessKind;
use nbsight_dataflow::statements::StmtKind;
use nbsight_dataflow::symbol::{Symbol, root};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::answers::StaleRead;
use crate::cells::{CellFacts, FactsCache};
use crate::highlights::{self, CellInput, Highlights};
use crate::provenance::{Deferred, ProvenanceReport, Waiting};
use crate::run::{self, FunctionRef, RunFacts};
use crate::shapes::ElementOp;
use crate::symbols::{ExecIdx, FunctionFacts, Read, Staleness, SymbolGraph, Ts};

/// The name IPython binds to the value a cell showed.
const OUTPUT: &str = "_";

/// One run of a cell, as the log keeps it.
#[derive(Debug, Clone)]
pub struct Execution {
    pub cell_id: String,
    pub counter: Ts,
    /// The kernel's execution count (`[4]`), when the run stored history.
    pub execution_count: Option<u32>,
    pub source: String,
    pub failed: bool,
    /// What it read: symbol and whether as a whole.
    pub reads: Vec<(Symbol, bool)>,
    /// What it set, changed in place or deleted.
    pub writes: Vec<Symbol>,
    /// The earlier executions that set what it read.
    pub depends_on: Vec<ExecIdx>,
    pub(crate) facts: Arc<CellFacts>,
}

/// The answer given before a cell runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PreRun {
    /// The stale symbols the cell is about to read, explained.
    pub stale: Vec<StaleRead>,
    /// The root names whose bindings the run's [`RunFacts::bindings`] must
    /// report.
    pub watch: Vec<String>,
    /// The cell may bind names the analysis cannot see: report every name
    /// of the namespace.
    pub scan_namespace: bool,
    /// Where the tracer reads the indexes of the cell's run-time subscripts
    /// (reported in [`RunFacts::keys`]).
    pub probes: Vec<crate::Probe>,
    /// The elements the cell stores into whose objects the run's
    /// [`RunFacts::elements`] compares before and after.
    pub elements: Vec<crate::WatchedElement>,
}

/// The highlights, as `nbsight.status()` reports them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Status {
    pub stale_cells: Vec<String>,
    pub fresh_cells: Vec<String>,
    pub refresher_cells: Vec<String>,
    pub stale_symbols: Vec<String>,
}

#[derive(Debug, Clone)]
pub(crate) struct CellRun {
    pub(crate) source: String,
    pub(crate) counter: Ts,
    /// Its live symbols as the run refined them.
    pub(crate) live: Vec<(Symbol, bool)>,
    /// Those of them it read whole only as an alias's object or to draw
    /// from it (not fresh when that object changes in place).
    pub(crate) binding_only: Vec<Symbol>,
}

/// The lineage of one kernel.
#[derive(Debug)]
pub struct Lineage {
    pub(crate) effects: Effects,
    pub(crate) facts: FactsCache,
    graph: SymbolGraph,
    /// The front end's view: `(cell id, source)` in notebook order.
    view: Option<Vec<(String, String)>>,
    pub(crate) runs: FxHashMap<String, CellRun>,
    /// Cell ids in the order they first ran (the order without a view).
    first_runs: Vec<String>,
    pub(crate) executions: Vec<Execution>,
    /// The object each watched root name was bound to after the last run.
    bindings: FxHashMap<String, u64>,
    warnings: FxHashMap<String, Vec<String>>,
    staleness: RefCell<Option<Arc<Staleness>>>,
    /// Value provenance, its runs replayed when first asked for.
    provenance: Deferred,
}

/// What calling `f` reads, writes and changes, with the parameters it
/// changes (`facts`: the cell that defined it).
fn function_facts(
    facts: &CellFacts,
    f: &FunctionRef,
) -> Option<(FunctionFacts, Vec<nbsight_dataflow::Param>)> {
    let Some(summary) = facts.function_at(&f.qualname, f.first_line) else {
        // A function nested in another, which the cell's summaries fold
        // into the one around it: the globals its own code loads.
        let closure = facts.closures.iter().find(|k| k.function == f.qualname)?;
        let facts = FunctionFacts {
            reads: closure
                .globals
                .iter()
                .map(|g| Symbol::from(g.as_str()))
                .collect(),
            ..FunctionFacts::default()
        };
        return Some((facts, Vec::new()));
    };
    Some((
        FunctionFacts::of_summary(summary),
        summary.mutated_params.clone(),
    ))
}

/// What a call of the function `qualname` (defined in `defined`) read, as
/// its code and the run say: the globals its code loads on `lines` (the
/// lines of it that ran), the closure variables it reads and sets, and,
/// of those reads, the ones its result, each element of a returned
/// display and each attribute `__init__` sets are computed from
/// (`returns.rs`).
fn narrow(f: &mut FunctionFacts, defined: &CellFacts, qualname: &str, lines: Option<&Vec<u32>>) {
    if let Some(lines) = lines.filter(|l| !l.is_empty())
        && let Some(reads) = defined.reads_on_lines(qualname, &f.reads, lines)
    {
        f.reads = reads;
    }
    // The reads whose root is one of `names`.
    let named = |reads: &[Symbol], names: &[String]| -> Vec<Symbol> {
        reads
            .iter()
            .filter(|g| names.iter().any(|n| n == root(g)))
            .cloned()
            .collect()
    };
    let result = defined.function_result(qualname);
    if let Some(names) = result.and_then(|r| r.values.as_deref()) {
        f.value_reads = Some(named(&f.reads, names));
    }
    // The variables of enclosing functions it reads (part of what it
    // returns) and sets.
    if let Some(closure) = defined.closures.iter().find(|k| k.function == qualname) {
        for r in &closure.reads {
            let r = Symbol::from(r.as_str());
            if let Some(values) = &mut f.value_reads {
                values.push(r.clone());
            }
            f.reads.push(r);
        }
        f.writes
            .extend(closure.sets.iter().map(|w| Symbol::from(w.as_str())));
    }
    if let Some(elements) = result.and_then(|r| r.elements.as_deref()) {
        f.elements = Some(
            elements
                .iter()
                .map(|names| named(&f.reads, names))
                .collect(),
        );
    }
    if let Some(attributes) = defined.init_attributes(qualname) {
        f.attributes = Some(
            attributes
                .iter()
                .map(|(a, names)| (a.clone(), named(&f.reads, names)))
                .collect(),
        );
    }
}

impl Lineage {
    pub fn new(effects: Effects) -> Lineage {
        Lineage {
            effects,
            facts: FactsCache::default(),
            graph: SymbolGraph::default(),
            view: None,
            runs: FxHashMap::default(),
            first_runs: Vec::new(),
            executions: Vec::new(),
            bindings: FxHashMap::default(),
            warnings: FxHashMap::default(),
            staleness: RefCell::new(None),
            provenance: Deferred::default(),
        }
    }

    /// The library-effects knowledge base the session reads code with.
    pub fn effects(&self) -> &Effects {
        &self.effects
    }

    pub fn graph(&self) -> &SymbolGraph {
        &self.graph
    }

    pub fn executions(&self) -> &[Execution] {
        &self.executions
    }

    /// The front end's view of the notebook; a later call replaces it.
    pub fn sync_notebook(&mut self, cells: Vec<(String, String)>) {
        self.view = Some(cells);
    }

    /// Forgets every symbol (`%reset`); the log of executions stays.
    pub fn reset(&mut self) {
        self.graph = SymbolGraph::default();
        self.bindings.clear();
        self.runs.clear();
        self.invalidate();
    }

    fn invalidate(&mut self) {
        *self.staleness.get_mut() = None;
    }

    pub(crate) fn staleness(&self) -> Arc<Staleness> {
        let mut cached = self.staleness.borrow_mut();
        cached
            .get_or_insert_with(|| Arc::new(Staleness::compute(&self.graph)))
            .clone()
    }

    /// Before `cell_id` runs `source`: the stale symbols it would read, and
    /// what the run's facts must report.
    pub fn before_run(&mut self, cell_id: &str, source: &str) -> PreRun {
        let facts = self.facts.facts(source, &self.effects);
        let stale = self.stale_reads_of(cell_id, source, &facts);
        self.warnings.insert(
            cell_id.to_string(),
            stale.iter().map(|s| s.symbol.clone()).collect(),
        );
        let mut watch: FxHashSet<String> = self
            .graph
            .ids()
            .map(|s| self.graph.node(s))
            // Symbols no name of the namespace stands for (a random
            // generator's state, a closure variable) are spelled `<...>`.
            .filter(|n| n.container.is_none() && !n.path.starts_with('<'))
            .map(|n| n.path.to_string())
            .collect();
        for stmt in &facts.statements {
            for access in &stmt.accesses {
                // What it binds or changes, and what it reads (a name it
                // reads first existed before: its binding is recorded).
                watch.insert(root(&access.symbol).to_string());
            }
        }
        // IPython's displayhook binds `_` to the value a cell's last
        // expression shows.
        if facts
            .statements
            .last()
            .is_some_and(|s| s.kind == StmtKind::Expression && s.depth == 0)
        {
            watch.insert(OUTPUT.to_string());
        }
        let mut watch: Vec<String> = watch.into_iter().collect();
        watch.sort_unstable();
        PreRun {
            stale,
            watch,
            scan_namespace: facts.hidden_bindings,
            probes: facts.probes(),
            elements: crate::elements::watched(&facts),
        }
    }

    /// The stale symbols named by the warning before `cell_id`'s latest
    /// run (empty when there was none).
    pub fn last_warning(&self, cell_id: &str) -> Vec<String> {
        self.warnings.get(cell_id).cloned().unwrap_or_default()
    }

    /// A cell ran: its statements that ran set what they write.
    pub fn after_run(&mut self, mut run: RunFacts) {
        let facts = self.facts.facts(&run.source, &self.effects);
        self.facts.ran(&run.source);
        let exec = self.executions.len() as ExecIdx;
        let ts = run.counter;
        let new_bindings: FxHashMap<&str, Option<u64>> = run
            .bindings
            .iter()
            .map(|(name, id)| (name.as_str(), *id))
            .collect();
        let mut by_object: FxHashMap<u64, Vec<&str>> = FxHashMap::default();
        for (name, id) in &run.bindings {
            if let Some(id) = id {
                by_object.entry(*id).or_default().push(name);
            }
        }
        let aliases = |name: &str| -> Vec<String> {
            match new_bindings.get(name).copied().flatten() {
                Some(id) => by_object
                    .get(&id)
                    .into_iter()
                    .flatten()
                    .filter(|n| **n != name)
                    .map(|n| n.to_string())
                    .collect(),
                None => Vec::new(),
            }
        };
        let old_bindings = &self.bindings;
        let changed = |name: &str| match new_bindings.get(name) {
            Some(Some(id)) => old_bindings.get(name) != Some(id),
            _ => false,
        };
        let mut reads: Vec<(Symbol, bool)> = Vec::new();
        // Symbols some statement that ran read as a value (not only its
        // binding: not the list an element operation changed, not the
        // object an alias was bound to).
        let mut value_reads: FxHashSet<Symbol> = FxHashSet::default();
        let mut writes: Vec<Symbol> = Vec::new();
        let mut depends_on: Vec<ExecIdx> = Vec::new();
        let mut written_roots: FxHashSet<String> = FxHashSet::default();
        let mut call_globals: Vec<(Symbol, bool)> = Vec::new();
        let same_binding = |name: &str| match (
            old_bindings.get(name),
            new_bindings.get(name).copied().flatten(),
        ) {
            (Some(old), Some(new)) => *old == new,
            _ => false,
        };
        // A name, or a watched element of a name whose object stayed, that
        // holds the object it held before the run.
        let same_object = |path: &str| match run.elements.iter().find(|e| e.path == path) {
            Some(element) => element.unchanged() && same_binding(root(path)),
            None => same_binding(path),
        };
        // The last statement that ran, with what it read (what `_` shows).
        let mut shown_reads: (Option<usize>, Vec<crate::symbols::Read>) = (None, Vec::new());
        // The headers enclosing the statement at hand, with what they read.
        let mut controls: Vec<(u32, Vec<crate::symbols::Read>)> = Vec::new();
        // Which names are frames decides how a column attribute is spelled.
        self.graph.frames.add_attributes(&run.frame_attributes);
        for (name, _) in &run.bindings {
            self.graph.frames.bound(name, run.frames.contains(name));
        }
        let resolved = crate::keys::resolved(&facts.keyed, &run.keys);
        for index in run::ran_statements(&facts, &run) {
            let stmt = &facts.statements[index];
            let shape = facts.shapes.get(index).and_then(Option::as_ref);
            // The user functions the statement's own code reached.
            let reaching: Vec<&run::CallFact> = run
                .calls
                .iter()
                .filter(|c| c.caller.is_none() && run::spans(stmt, c.line))
                .collect();
            // Each call's facts and, where the function's code fixes it,
            // what it returned; the defining cell looked up once per call.
            let mut called: Vec<FunctionFacts> = Vec::new();
            let mut results: Vec<run::CallResult> = Vec::new();
            for c in &reaching {
                let Some(defined) = self.defining_facts(&c.function, (ts, &facts)) else {
                    continue;
                };
                let qualname = c.function.qualname.as_str();
                let Some((mut f, params)) = function_facts(&defined, &c.function) else {
                    continue;
                };
                // The branch it took: only what the lines that ran read
                // (those it ran when this line called it, where known, for
                // a statement that runs once).
                let at_site = run
                    .site_lines
                    .iter()
                    .find(|(site, f, _)| c.caller.is_none() && *site == c.line && *f == c.function)
                    .filter(|_| !run::in_loop(&facts, &run, index))
                    .map(|(_, _, lines)| lines);
                let all = run
                    .function_lines
                    .iter()
                    .find(|(r, _)| *r == c.function)
                    .map(|(_, lines)| lines);
                narrow(&mut f, &defined, qualname, at_site.or(all));
                // What the function changes through its parameters is what
                // the call passed for them.
                f.mutates
                    .extend(facts.call_arguments(c.line, qualname, &params));
                called.push(f);
                if let Some(call) = facts.call_at(c.line, qualname)
                    && let Some(result) = defined.function_result(qualname)
                {
                    let path = match &result.path {
                        Some(crate::returns::ResultPath::Global(p)) => Some(p.clone()),
                        Some(crate::returns::ResultPath::Receiver(rest)) => {
                            call.receiver.as_ref().map(|r| format!("{r}{rest}"))
                        }
                        None => None,
                    };
                    results.push(run::CallResult {
                        start: call.start,
                        path,
                        constant: result.constant.clone(),
                    });
                }
            }
            let reached = run::Reached {
                facts: called.iter().collect(),
                names: reaching
                    .iter()
                    .map(|c| c.function.qualname.as_str())
                    .collect(),
                results,
            };
            let mut effect =
                run::effect_of(&mut self.graph, stmt, shape, &facts, &reached, &resolved);
            // Importing a module again binds the same module: nothing changed.
            if stmt.kind == StmtKind::Import {
                effect
                    .sets
                    .retain(|&s| changed(&self.graph.node(s).path) || !self.graph.node(s).exists);
            }
            // Control dependence: what a statement inside `if`, `while` or
            // `for` computes depends on the tests that let it run.
            while controls
                .last()
                .is_some_and(|(depth, _)| *depth >= stmt.depth)
            {
                controls.pop();
            }
            let own_reads = effect.reads.clone();
            for (_, tests) in &controls {
                for r in tests {
                    if !effect.reads.iter().any(|q| q.sym == r.sym) {
                        effect.reads.push(*r);
                    }
                }
            }
            if stmt.kind == StmtKind::Header {
                controls.push((stmt.depth, own_reads));
            }
            shown_reads = (Some(index), effect.reads.clone());
            for read in &effect.reads {
                let alias_of_target = effect.aliases.iter().any(|&(target, alias)| {
                    alias == read.sym && {
                        let t = self.graph.node(target).path.as_str();
                        aliases(self.graph.node(alias).path.as_str())
                            .iter()
                            .any(|a| a == t)
                    }
                });
                // An element operation (`lst.append(2)`) changes its list
                // without reading its values.
                let element_op = read.drawn
                    && effect
                        .elements
                        .as_ref()
                        .is_some_and(|(container, _)| *container == read.sym);
                if read.whole && !alias_of_target && !element_op {
                    value_reads.insert(self.graph.node(read.sym).path.clone());
                }
                let node = self.graph.node(read.sym);
                let entry = (node.path.clone(), read.whole);
                if !reads.contains(&entry) {
                    reads.push(entry);
                }
                // The paths above it: who set them, and who changed them
                // in a way every reader sees (a move of an element).
                let mut writers: Vec<ExecIdx> = Vec::new();
                for s in self.graph.prefixes(read.sym) {
                    let node = self.graph.node(s);
                    writers.extend(node.set_by);
                    if node.ts >= node.grown_ts {
                        writers.extend(node.grown_by);
                    }
                }
                if read.whole && !read.drawn {
                    if !read.elements {
                        writers.extend(self.graph.node(read.sym).grown_by);
                    }
                    writers.extend(
                        self.graph
                            .descendants(read.sym)
                            .into_iter()
                            .filter_map(|s| self.graph.node(s).changed_by()),
                    );
                }
                for w in writers {
                    if w != exec && !depends_on.contains(&w) {
                        depends_on.push(w);
                    }
                }
            }
            // Growing a container (`lst.append(3)`) makes its next state
            // from its current one: it depends on the growth before it (a
            // reader of it as a whole then slices to every append; a reader
            // of one element, to what set or moved that element).
            if let Some((container, ElementOp::Grow | ElementOp::DropLast | ElementOp::DropKey(_))) =
                &effect.elements
                && let Some(w) = self.graph.node(*container).grown_by
                && w != exec
                && !depends_on.contains(&w)
            {
                depends_on.push(w);
            }
            for f in &called {
                for g in &f.reads {
                    if !written_roots.contains(root(g)) {
                        call_globals.push((g.clone(), true));
                    }
                }
            }
            let bound: Vec<_> = effect
                .may_bind
                .iter()
                .copied()
                .filter(|&s| changed(&self.graph.node(s).path))
                .collect();
            run::apply(
                &mut self.graph,
                &effect,
                ts,
                exec,
                &bound,
                &aliases,
                &same_object,
            );
            for &sym in effect
                .sets
                .iter()
                .chain(&effect.mutates)
                .chain(&effect.deletes)
                .chain(&bound)
            {
                let path = self.graph.node(sym).path.clone();
                written_roots.insert(root(&path).to_string());
                if !writes.contains(&path) {
                    writes.push(path);
                }
            }
        }
        // The value the cell showed is `_` now: computed from what its
        // last expression read.
        if changed(OUTPUT)
            && let Some(last) = facts.statements.len().checked_sub(1)
            && facts.statements[last].kind == StmtKind::Expression
            && shown_reads.0 == Some(last)
        {
            let sym = self.graph.intern(OUTPUT);
            self.graph.set(sym, ts, shown_reads.1.clone(), exec);
            written_roots.insert(OUTPUT.to_string());
            writes.push(Symbol::from(OUTPUT));
        }
        // Bindings the statements did not explain: names unbound (`del`
        // through `exec`, `%reset`, garbage) and names bound out of sight.
        for (name, id) in &run.bindings {
            match id {
                None => {
                    if let Some(sym) = self.graph.get(name)
                        && self.graph.node(sym).exists
                    {
                        self.graph.delete(sym);
                    }
                }
                // A name this run read that was not watched before existed
                // already: its binding is recorded, not taken as a change.
                Some(_)
                    if changed(name)
                        && !written_roots.contains(name.as_str())
                        && (self.bindings.contains_key(name.as_str())
                            || !reads.iter().any(|(r, _)| root(r) == name.as_str())) =>
                {
                    let sym = self.graph.intern(name);
                    self.graph.set(sym, ts, Vec::new(), exec);
                    writes.push(Symbol::from(name.as_str()));
                }
                Some(_) => {}
            }
        }
        for (name, id) in &run.bindings {
            match id {
                Some(id) => {
                    self.bindings.insert(name.clone(), *id);
                }
                None => {
                    self.bindings.remove(name);
                }
            }
        }
        // Value provenance: replay the recorded run, or take what it wrote
        // as inputs.
        let unbound: Vec<String> = run
            .bindings
            .iter()
            .filter(|(_, id)| id.is_none())
            .map(|(name, _)| name.clone())
            .collect();
        self.provenance.ran(
            Waiting {
                cell_id: run.cell_id.clone(),
                source: run.source.clone(),
                events: run.provenance.take(),
                failed: run.failed,
                writes: writes.iter().map(|w| w.to_string()).collect(),
                unbound,
                not_recorded: run.not_recorded.take(),
            },
            &self.effects,
        );
        // The run's live symbols: the static ones its statements read, and
        // the globals of the functions it called.
        // The statement that raised read too (a name not bound yet, a
        // module not imported): the cell is fresh once that input appears.
        // So did those that raised an exception the cell caught.
        let raised_reads: Vec<&Symbol> = run::raised_at(&facts, &run)
            .into_iter()
            .chain(run::caught_at(&facts, &run))
            .flat_map(|i| {
                facts.statements[i]
                    .accesses
                    .iter()
                    .filter(|a| matches!(a.kind, AccessKind::Read | AccessKind::BaseRead))
                    .map(|a| &a.symbol)
            })
            .collect();
        let mut live: Vec<(Symbol, bool)> = facts
            .live
            .iter()
            .filter(|(u, _)| {
                raised_reads.contains(&u) || {
                    let u = self.graph.frames.canonical(u);
                    reads.iter().any(|(r, _)| **r == *u)
                }
            })
            .map(|(u, whole)| (Symbol::from(&*self.graph.frames.canonical(u)), *whole))
            .collect();
        // Read whole only as the object an alias was bound to, or as the
        // list an element operation changed: a change of that object leaves
        // the cell as it is (not fresh), though a stale value there still
        // makes it stale.
        let binding_only: Vec<Symbol> = live
            .iter()
            .filter(|(u, whole)| *whole && !value_reads.contains(u) && !raised_reads.contains(&u))
            .map(|(u, _)| u.clone())
            .collect();
        for g in call_globals {
            if !live.contains(&g) {
                live.push(g);
            }
        }
        // The view now shows what the cell ran; a cell it lacks is appended.
        if let Some(view) = &mut self.view {
            match view.iter_mut().find(|(id, _)| *id == run.cell_id) {
                Some((_, source)) => source.clone_from(&run.source),
                None => view.push((run.cell_id.clone(), run.source.clone())),
            }
        }
        if !self.runs.contains_key(&run.cell_id) && !self.first_runs.contains(&run.cell_id) {
            self.first_runs.push(run.cell_id.clone());
        }
        self.runs.insert(
            run.cell_id.clone(),
            CellRun {
                source: run.source.clone(),
                counter: ts,
                live,
                binding_only,
            },
        );
        self.executions.push(Execution {
            cell_id: run.cell_id,
            counter: ts,
            execution_count: run.execution_count,
            source: run.source,
            failed: run.failed,
            reads,
            writes,
            depends_on,
            facts,
        });
        self.invalidate();
    }

    /// The facts of the cell run that defined `f` (`current`: the run
    /// under way, whose execution is not logged yet).
    fn defining_facts(
        &self,
        f: &FunctionRef,
        current: (Ts, &Arc<CellFacts>),
    ) -> Option<Arc<CellFacts>> {
        if f.defined_in == current.0 {
            return Some(current.1.clone());
        }
        self.executions
            .iter()
            .rev()
            .find(|e| e.counter == f.defined_in)
            .map(|e| e.facts.clone())
    }

    /// The live symbols of `cell_id` with `source`: as its last run
    /// refined them when it ran this source, else the static ones (with the
    /// free globals of the user functions they name).
    pub(crate) fn live_of(
        &self,
        cell_id: &str,
        source: &str,
        facts: &CellFacts,
    ) -> Vec<(Symbol, bool)> {
        if let Some(run) = self.runs.get(cell_id)
            && run.source == source
        {
            return run.live.clone();
        }
        let mut live = facts.live.clone();
        for (u, _) in &facts.live {
            // A user function it names, by its name or through a path
            // that holds it (`lst[0]` after `lst = [f, g]`).
            let mut functions: Vec<crate::symbols::GraphSym> =
                self.graph.get(root(u)).into_iter().collect();
            if let Some(sym) = self.graph.get(u) {
                functions.extend(
                    self.graph
                        .sharing(sym)
                        .into_iter()
                        .filter(|(_, member)| !member)
                        .map(|(s, _)| s),
                );
            }
            for sym in functions {
                let Some(f) = &self.graph.node(sym).function else {
                    continue;
                };
                for g in &f.reads {
                    let entry = (g.clone(), true);
                    if !live.contains(&entry) {
                        live.push(entry);
                    }
                }
            }
        }
        live
    }

    /// The cells of the notebook: the view, else the cells run, in the
    /// order they first ran; each with its current source.
    pub(crate) fn cells(&self) -> Vec<(String, String)> {
        match &self.view {
            Some(view) => view.clone(),
            None => self
                .first_runs
                .iter()
                .filter_map(|id| self.runs.get(id).map(|r| (id.clone(), r.source.clone())))
                .collect(),
        }
    }

    fn highlights(&mut self) -> Highlights {
        /// A cell of the notebook with what the highlights need of it.
        struct Input {
            id: String,
            facts: Arc<CellFacts>,
            live: Vec<(Symbol, bool)>,
            binding_only: Vec<Symbol>,
            last_run: Option<Ts>,
        }
        let cells = self.cells();
        let inputs: Vec<Input> = cells
            .iter()
            .filter_map(|(id, source)| {
                let facts = self.facts.facts(source, &self.effects);
                // A cell that does not parse cannot run: no highlight.
                if !facts.parses {
                    return None;
                }
                let live = self.live_of(id, source, &facts);
                let run = self.runs.get(id).filter(|r| r.source == *source);
                Some(Input {
                    id: id.clone(),
                    facts,
                    live,
                    binding_only: run.map(|r| r.binding_only.clone()).unwrap_or_default(),
                    last_run: run.map(|r| r.counter),
                })
            })
            .collect();
        let staleness = self.staleness();
        let cells: Vec<CellInput<'_>> = inputs
            .iter()
            .map(|input| CellInput {
                id: &input.id,
                live: &input.live,
                binding_only: &input.binding_only,
                dead: &input.facts.dead,
                last_run: input.last_run,
            })
            .collect();
        highlights::highlights(&self.graph, &staleness, &cells)
    }

    /// The highlights of the notebook.
    pub fn status(&mut self) -> Status {
        let highlights = self.highlights();
        let staleness = self.staleness();
        let mut stale_symbols: Vec<String> = self
            .graph
            .ids()
            .filter(|&s| self.graph.node(s).exists && staleness.value_is_stale(&self.graph, s))
            .map(|s| self.graph.node(s).path.to_string())
            // IPython's output cache is not the user's symbol.
            .filter(|p| root(p) != OUTPUT)
            .collect();
        stale_symbols.sort_unstable();
        Status {
            stale_cells: highlights.stale,
            fresh_cells: highlights.fresh,
            refresher_cells: highlights.refreshers,
            stale_symbols,
        }
    }

    /// The provenance of the value at `symbol` (`None`: not bound, or not
    /// a path: `a[`).
    pub fn provenance(&mut self, symbol: &str) -> Option<ProvenanceReport> {
        let symbol = canonical_path(symbol)?;
        let symbol = symbol.as_str();
        // Inputs bound out of sight: the cell that last set them.
        let graph = &self.graph;
        let executions = &self.executions;
        let provenance = self.provenance.settled(&self.effects);
        provenance.report(symbol, |input| {
            let sym = graph.get(input)?;
            let exec = graph.node(sym).set_by?;
            executions.get(exec as usize).map(|e| e.cell_id.clone())
        })
    }

    /// Why the replay of the latest recorded run gave up (its results are
    /// then their own inputs).
    pub fn provenance_error(&mut self) -> Option<&str> {
        self.provenance.error(&self.effects)
    }

    /// The cell id of execution `exec`.
    pub(crate) fn cell_of(&self, exec: ExecIdx) -> Option<&str> {
        self.executions
            .get(exec as usize)
            .map(|e| e.cell_id.as_str())
    }

    /// Is `read` of a symbol stale now?
    pub fn read_is_stale(&self, symbol: &str, whole: bool) -> bool {
        let staleness = self.staleness();
        self.graph
            .get(symbol)
            .is_some_and(|sym| staleness.read_is_stale(&self.graph, Read::new(sym, whole)))
    }
}

/// The canonical spelling of a path a person typed (`d["k"]` is `d['k']`,
/// `d[("a", 1)]` is `d[('a', 1)]`), or `None` when it is not a name,
/// attribute or constant-subscript path.
pub(crate) fn canonical_path(text: &str) -> Option<Symbol> {
    let parsed = nbsight_notebook::parse_python(text.trim());
    if parsed.has_errors() {
        return None;
    }
    match parsed.module.body.as_slice() {
        [ruff_python_ast::Stmt::Expr(e)] => asked_path(&e.value),
        _ => None,
    }
}

/// [`nbsight_dataflow::symbol::static_path`], with a tuple of constants
/// as a key too (a dict keyed by pairs), spelled as Python's `repr`.
fn asked_path(expr: &ruff_python_ast::Expr) -> Option<Symbol> {
    use nbsight_dataflow::symbol::{constant_index, static_path};
    use ruff_python_ast::Expr;
    match expr {
        Expr::Attribute(attr) => {
            let mut path = asked_path(&attr.value)?;
            path.push('.');
            path.push_str(attr.attr.as_str());
            Some(path)
        }
        Expr::Subscript(sub) => {
            let mut path = asked_path(&sub.value)?;
            let index = match &*sub.slice {
                Expr::Tuple(t) if !t.elts.is_empty() => {
                    let items: Option<Vec<String>> = t.elts.iter().map(constant_index).collect();
                    match items?.as_slice() {
                        [one] => format!("({one},)"),
                        all => format!("({})", all.join(", ")),
                    }
                }
                slice => constant_index(slice)?,
            };
            path.push('[');
            path.push_str(&index);
            path.push(']');
            Some(path)
        }
        other => static_path(other),
    }
}
