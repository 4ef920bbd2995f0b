//! The information-flow analysis of a notebook run top to bottom once
//! (CRABS, issue 9): for every code cell a lower and an upper estimate of
//! its inputs and outputs, the ambiguities between them (with how each was
//! settled), the flows between cells labelled by variable, and the
//! transitive cell dependency graph.
//!
//! Estimates, from the per-cell summaries:
//! - a read is a *certain* input when no binding of the cell can reach it
//!   (`unbound_reads`), or when it is a free global of a user function the
//!   cell calls before binding it;
//! - a read that both the cell's entry and a binding of the cell reach is an
//!   ambiguity. In a cell without loops the binding is conditional (`if c:
//!   x = 1` then `x`), and the union-of-possible-flows convention makes it an
//!   input. In a cell with a loop, when every statement writing the name
//!   also reads it (`total = total + k`), the first read sees the incoming
//!   value: an input. Otherwise it may be loop-carried initialisation (the
//!   seed's `count`), which needs the first iteration's values: unresolved;
//! - a write is *definite* when the summary says it happens on every path
//!   (DEAD) or the value is changed in place by a known mutating call; other
//!   bindings are conditional writes, and calls of unknown effect on a
//!   variable (`may_mutate`) make it an output *candidate*, unresolved.
//!
//! A read flows from the last earlier cell that writes the name definitely
//! and from every later earlier cell that may write it. Names only imports
//! bind are not flows unless asked for; builtins are not inputs unless a
//! cell rebinds them (the model already treats them so).

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;
use serde::Serialize;

use nbsight_model::program::WriteKind;
use nbsight_model::vars::{Var, VarSet};
use nbsight_model::{CallChange, NamedCall, NotebookModel};
use nbsight_notebook::{CellIndex, OneIndexed, ParsedCell};

use super::objects::{CellSharing, Change, Objects};
use super::truth::{CodeCellId, Flow};
use nbsight_dataflow::first_pass::{FirstAccess, first_access};

/// What an ambiguity is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AmbiguityKind {
    /// A read some binding of the cell may precede (is it an input?).
    MaybeInput,
    /// A call of unknown effect on the variable (does the cell change it?).
    OutputCandidate,
}

/// How an ambiguity was settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResolvedBy {
    /// The binding before the read is conditional and the cell has no loop:
    /// the graph is the union of the possible flows.
    ConditionalWrite,
    /// Every statement of the cell that writes the name also reads it
    /// (`total = total + k` in a loop): the first such read sees the value
    /// from before the cell.
    SelfUpdate,
    /// The values known on the first iteration of a loop decide whether the
    /// read or a binding comes first (the seed's `count`: `for i in
    /// range(3): if i == 0: count = 0 else: count = count + 1` binds first).
    FirstIteration,
    /// Names that may share objects ([`super::objects`]): reading or
    /// changing one reads or changes the others.
    SharedObject,
    /// Answered by a language model (`--resolve llm`).
    Llm,
}

/// One question the estimates leave open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ambiguity {
    pub symbol: String,
    /// The line of the cell the question is about.
    pub line: OneIndexed,
    pub kind: AmbiguityKind,
    pub question: String,
    /// `Some(true)`: it is an input (or an output); `None`: unresolved.
    pub resolution: Option<bool>,
    pub resolved_by: Option<ResolvedBy>,
    /// For an open question, the earlier statements that made the name share
    /// objects with others (`cell 2: combine = [train_df, test_df]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub context: Vec<String>,
}

/// The flow facts of one code cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CellFlow {
    /// Position in the notebook's cell list.
    pub index: CellIndex,
    /// The CRABS annotation id (code cells counted from 1).
    pub code_id: CodeCellId,
    pub inputs: Vec<String>,
    pub outputs: Vec<String>,
    pub inputs_lower: Vec<String>,
    pub inputs_upper: Vec<String>,
    pub outputs_lower: Vec<String>,
    pub outputs_upper: Vec<String>,
    pub ambiguities: Vec<Ambiguity>,
}

/// A flow between two cells (notebook positions).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct CellEdge {
    pub from: CellIndex,
    pub to: CellIndex,
    pub symbol: String,
}

/// A dependency: `to` needs `from` to have run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Dependency {
    pub from: CellIndex,
    pub to: CellIndex,
}

/// The flow graph of a notebook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FlowGraph {
    pub cells: Vec<CellFlow>,
    pub flows: Vec<CellEdge>,
    pub dependencies: Vec<Dependency>,
}

/// Options of the analysis.
#[derive(Debug, Clone, Copy, Default)]
pub struct FlowOptions {
    /// Names bound by imports are flows too.
    pub import_flows: bool,
    /// Unresolved ambiguities count as yes.
    pub include_unresolved: bool,
}

/// Per-cell estimates before the cells are linked.
struct Estimate {
    index: usize,
    /// Reads that are certainly inputs (if an earlier cell writes them).
    reads_lower: VarSet,
    /// Every read from the incoming state.
    reads_upper: VarSet,
    /// Written on every path.
    writes_definite: VarSet,
    /// May be written (bindings, known in-place changes, function globals).
    writes_maybe: VarSet,
    /// Calls of unknown effect on these.
    write_candidates: VarSet,
    /// Bound without their old value being read (`x = 1`).
    rebinds: VarSet,
    /// Arguments of calls to user functions that change them in place.
    param_changes: Vec<CallChange>,
    /// Unbound by the cell's last statement writing them (`del x`).
    deleted: VarSet,
    /// The cell has a loop.
    cyclic: bool,
    /// The cell may bind names nbsight cannot see (`%run`, `exec`,
    /// `globals()[name] = ...`; star imports too with `--import-flows`).
    hidden_bindings: bool,
}

impl FlowGraph {
    /// The flows in code-cell ids (for scoring against CRABS annotations).
    pub fn code_flows(&self) -> Vec<Flow> {
        let id_of: FxHashMap<CellIndex, CodeCellId> =
            self.cells.iter().map(|c| (c.index, c.code_id)).collect();
        self.flows
            .iter()
            .filter_map(|f| {
                Some(Flow::new(
                    *id_of.get(&f.from)?,
                    *id_of.get(&f.to)?,
                    f.symbol.clone(),
                ))
            })
            .collect()
    }

    /// Ambiguities still unresolved.
    pub fn unresolved(&self) -> usize {
        self.cells
            .iter()
            .flat_map(|c| &c.ambiguities)
            .filter(|a| a.resolution.is_none())
            .count()
    }
}

/// Analyses `model`'s notebook as run top to bottom once.
pub fn analyze_flows(model: &NotebookModel, options: FlowOptions) -> FlowGraph {
    analyze_flows_with(model, options, &[])
}

/// An answer to an ambiguity: the cell's position, the ambiguity's index in
/// the cell's list, the answer and who gave it.
pub type Answer = (CellIndex, usize, bool, ResolvedBy);

/// [`analyze_flows`] with answers to ambiguities the analysis left open (from
/// an LLM); everything that depends on them follows.
pub fn analyze_flows_with(
    model: &NotebookModel,
    options: FlowOptions,
    answers: &[Answer],
) -> FlowGraph {
    let mut estimates: Vec<Estimate> = model
        .code_cells()
        .filter_map(|cell| estimate(model, cell.index, options))
        .collect();
    // Writers of each variable: its last definite writer and the cells
    // after it that may write it.
    let mut writers: FxHashMap<Var, Vec<usize>> = FxHashMap::default();
    let mut cells = Vec::with_capacity(estimates.len());
    let mut flows: BTreeSet<CellEdge> = BTreeSet::new();
    let mut objects = Objects::default();
    // The last cell that may bind names nbsight cannot see: names no cell
    // binds visibly come from there.
    let mut hidden_writer: Option<usize> = None;
    let imported = VarSet::from_iter(
        model
            .code_cells()
            .filter_map(|c| c.compiled.as_deref())
            .flat_map(|c| c.imports.iter().map(|(v, _)| *v)),
    );
    // Names only imports bind (`matplotlib.rcParams[...] = ...` changes a
    // module, not a value of the notebook) are not flows.
    let mut import_only = imported.clone();
    if options.import_flows {
        import_only.clear();
    }
    for c in model.code_cells().filter_map(|c| c.compiled.as_deref()) {
        for symbol in c.summary.defs.iter() {
            let name = nbsight_dataflow::symbol::root(symbol);
            if name == symbol.as_str()
                && let Some(v) = model.vars.get(name)
                && !c.imports.iter().any(|(i, _)| *i == v)
            {
                import_only.remove(v);
            }
        }
    }
    for (code_id, est) in estimates.iter_mut().enumerate() {
        if let Some(cell) = hidden_writer {
            for v in est.reads_upper.iter() {
                if imported.contains(v) {
                    continue;
                }
                let list = writers.entry(v).or_default();
                if list.is_empty() {
                    list.push(cell);
                }
            }
        }
        for set in [
            &mut est.writes_definite,
            &mut est.writes_maybe,
            &mut est.write_candidates,
        ] {
            set.difference_with(&import_only);
        }
        let sharing = objects.cell(
            model,
            est.index,
            &est.reads_upper,
            &est.rebinds,
            &est.param_changes,
        );
        let program = model.cells[est.index].program();
        let line_of = |v: Var| {
            program
                .and_then(|p| p.first_read(&VarSet::from_iter([v])))
                .map_or(OneIndexed::MIN, |(line, _)| line)
        };
        let produced = |v: Var| writers.get(&v).is_some_and(|w| !w.is_empty());
        let mut ambiguities = Vec::new();
        let mut inputs = VarSet::new();
        let mut inputs_lower = VarSet::new();
        let mut inputs_upper = VarSet::new();
        for v in est.reads_upper.iter() {
            if !produced(v) {
                continue;
            }
            inputs_upper.insert(v);
            if est.reads_lower.contains(v) {
                inputs_lower.insert(v);
                inputs.insert(v);
                continue;
            }
            let name = model.vars.name(v).to_string();
            let (resolution, resolved_by) = if !est.cyclic {
                (Some(true), Some(ResolvedBy::ConditionalWrite))
            } else if only_self_updates(model, est.index, v) {
                (Some(true), Some(ResolvedBy::SelfUpdate))
            } else {
                match model.cells[est.index]
                    .parsed
                    .as_deref()
                    .map(|p| first_access(&p.module.body, &name))
                {
                    Some(FirstAccess::Read) => (Some(true), Some(ResolvedBy::FirstIteration)),
                    Some(FirstAccess::Bound) => (Some(false), Some(ResolvedBy::FirstIteration)),
                    _ => (None, None),
                }
            };
            let mut ambiguity = Ambiguity {
                question: format!("is `{name}` an input of this cell?"),
                symbol: name,
                line: line_of(v),
                kind: AmbiguityKind::MaybeInput,
                resolution,
                resolved_by,
                context: if resolution.is_none() {
                    objects.alias_context(v, est.index)
                } else {
                    Vec::new()
                },
            };
            apply_answer(&mut ambiguity, est.index, ambiguities.len(), answers);
            if ambiguity.resolution == Some(true)
                || (ambiguity.resolution.is_none() && options.include_unresolved)
            {
                inputs.insert(v);
            }
            ambiguities.push(ambiguity);
        }
        shared_objects(
            model,
            &sharing,
            est,
            &mut ambiguities,
            &mut inputs,
            &mut inputs_upper,
            &produced,
            &line_of,
        );
        for v in inputs.iter() {
            for &from in writers.get(&v).into_iter().flatten() {
                flows.insert(CellEdge {
                    from: CellIndex::new(from),
                    to: CellIndex::new(est.index),
                    symbol: model.vars.name(v).to_string(),
                });
            }
        }
        // Output candidates: a later reader would read them from here.
        for v in est.write_candidates.iter() {
            let name = model.vars.name(v).to_string();
            let mut ambiguity = Ambiguity {
                question: format!("does this cell change `{name}` (an output candidate)?"),
                symbol: name,
                line: line_of(v),
                kind: AmbiguityKind::OutputCandidate,
                resolution: None,
                resolved_by: None,
                context: objects.alias_context(v, est.index),
            };
            apply_answer(&mut ambiguity, est.index, ambiguities.len(), answers);
            ambiguities.push(ambiguity);
        }
        if est.hidden_bindings {
            hidden_writer = Some(est.index);
        }
        // This cell's writes become the writers of what follows.
        let candidates = ambiguities.iter().filter(|a| {
            a.kind == AmbiguityKind::OutputCandidate
                && (a.resolution == Some(true)
                    || (a.resolution.is_none() && options.include_unresolved))
        });
        let written = est
            .writes_maybe
            .iter()
            .chain(candidates.filter_map(|a| model.vars.get(&a.symbol)));
        for v in written {
            let list = writers.entry(v).or_default();
            if est.writes_definite.contains(v) {
                list.clear();
                if est.deleted.contains(v) {
                    // `del x`: no value of `x` is left to flow.
                    continue;
                }
            }
            if !list.contains(&est.index) {
                list.push(est.index);
            }
        }
        cells.push(CellFlow {
            index: CellIndex::new(est.index),
            code_id: CodeCellId::nth(code_id),
            inputs: model.names(&inputs),
            outputs: Vec::new(),
            inputs_lower: model.names(&inputs_lower),
            inputs_upper: model.names(&inputs_upper),
            outputs_lower: Vec::new(),
            outputs_upper: Vec::new(),
            ambiguities,
        });
    }
    // Outputs: what later cells read from each cell.
    let position: FxHashMap<CellIndex, usize> = cells
        .iter()
        .enumerate()
        .map(|(i, c)| (c.index, i))
        .collect();
    let mut outputs: Vec<BTreeSet<String>> = vec![BTreeSet::new(); cells.len()];
    for f in &flows {
        if let Some(&i) = position.get(&f.from) {
            outputs[i].insert(f.symbol.clone());
        }
    }
    // Upper outputs: anything the cell may write that a later cell may read.
    let mut later_reads: BTreeSet<String> = BTreeSet::new();
    let mut uppers: Vec<BTreeSet<String>> = vec![BTreeSet::new(); cells.len()];
    for (i, est) in estimates.iter().enumerate().rev() {
        let mut writes = est.writes_maybe.clone();
        writes.union_with(&est.write_candidates);
        for name in model.names(&writes) {
            if later_reads.contains(&name) {
                uppers[i].insert(name);
            }
        }
        later_reads.extend(cells[i].inputs_upper.iter().cloned());
    }
    for (i, cell) in cells.iter_mut().enumerate() {
        cell.outputs = outputs[i].iter().cloned().collect();
        cell.outputs_lower = cell.outputs.clone();
        cell.outputs_upper = uppers[i].iter().cloned().collect();
    }
    let flows: Vec<CellEdge> = flows.into_iter().collect();
    let dependencies = transitive(&flows);
    FlowGraph {
        cells,
        flows,
        dependencies,
    }
}

/// What sharing objects adds: names read or changed through another name
/// are inputs (if an earlier cell produced them), changed ones are written.
#[allow(clippy::too_many_arguments)]
fn shared_objects(
    model: &NotebookModel,
    sharing: &CellSharing,
    est: &mut Estimate,
    ambiguities: &mut Vec<Ambiguity>,
    inputs: &mut VarSet,
    inputs_upper: &mut VarSet,
    produced: &dyn Fn(Var) -> bool,
    line_of: &dyn Fn(Var) -> OneIndexed,
) {
    let mut add_input = |y: Var, via: Var, ambiguities: &mut Vec<Ambiguity>| {
        if !produced(y) || inputs.contains(y) {
            return;
        }
        let (name, other) = (model.vars.name(y), model.vars.name(via));
        inputs_upper.insert(y);
        inputs.insert(y);
        ambiguities.push(Ambiguity {
            symbol: name.to_string(),
            line: line_of(via),
            kind: AmbiguityKind::MaybeInput,
            question: format!(
                "is `{name}` an input of this cell (it may share objects with `{other}`)?"
            ),
            resolution: Some(true),
            resolved_by: Some(ResolvedBy::SharedObject),
            context: Vec::new(),
        });
    };
    for &(y, via) in &sharing.reads {
        add_input(y, via, ambiguities);
    }
    // A call of unknown effect through a name sharing `y`'s objects: an
    // output candidate, asked like the others.
    for &(y, _) in &sharing.maybe_changes {
        if !est.writes_maybe.contains(y) {
            est.write_candidates.insert(y);
        }
    }
    for &Change {
        name: y,
        via,
        owner,
        certain,
    } in &sharing.changes
    {
        if owner {
            add_input(y, via, ambiguities);
        }
        if est.writes_definite.contains(y) {
            continue;
        }
        let (name, other) = (model.vars.name(y), model.vars.name(via));
        ambiguities.push(Ambiguity {
            symbol: name.to_string(),
            line: line_of(via),
            kind: AmbiguityKind::OutputCandidate,
            question: format!(
                "does this cell change `{name}` (it may share objects with `{other}`, which the cell changes)?"
            ),
            resolution: Some(true),
            resolved_by: Some(ResolvedBy::SharedObject),
            context: Vec::new(),
        });
        est.writes_maybe.insert(y);
        est.write_candidates.remove(y);
        if certain && est.writes_definite.contains(via) {
            est.writes_definite.insert(y);
        }
    }
}

fn apply_answer(ambiguity: &mut Ambiguity, cell: usize, position: usize, answers: &[Answer]) {
    if ambiguity.resolution.is_some() {
        return;
    }
    if let Some(&(_, _, yes, by)) = answers
        .iter()
        .find(|(c, p, _, _)| c.index() == cell && *p == position)
    {
        ambiguity.resolution = Some(yes);
        ambiguity.resolved_by = Some(by);
    }
}

/// Every statement of the cell that writes `v` also reads it.
fn only_self_updates(model: &NotebookModel, cell: usize, v: Var) -> bool {
    model.cells[cell].program().is_some_and(|p| {
        p.stmts
            .iter()
            .filter(|s| s.writes.iter().any(|(w, _)| *w == v))
            .all(|s| s.reads.contains(&v))
    })
}

/// The estimates of one code cell, or `None` when it did not compile.
fn estimate(model: &NotebookModel, index: usize, options: FlowOptions) -> Option<Estimate> {
    let info = &model.cells[index];
    let compiled = info.compiled.as_deref()?;
    let summary = &compiled.summary;
    let roots = |set: &nbsight_dataflow::SymbolSet| {
        VarSet::from_iter(
            set.iter()
                .filter_map(|s| model.vars.get(nbsight_dataflow::symbol::root(s))),
        )
    };
    // Reads: `pre` has the cell's uses, rebound builtins and the free
    // globals of the user functions it calls before binding them. The uses
    // some binding of the cell may precede are the ambiguous ones.
    let reads_upper = info.pre.clone();
    let mut maybe = compiled.uses.clone();
    maybe.difference_with(&compiled.unbound_reads);
    let mut reads_lower = reads_upper.clone();
    reads_lower.difference_with(&maybe);
    // Writes.
    let mutated = roots(&summary.mutated);
    let mut writes_definite = compiled.written.clone();
    let mut writes_maybe = compiled.defs.clone();
    writes_maybe.union_with(&mutated);
    // Globals written by the user functions the cell calls: on every path
    // when a top-level statement calls a function that always writes them.
    for stmt in compiled.program.stmts.iter() {
        for v in &stmt.reads {
            if let Some(f) = model.functions.get(v) {
                writes_maybe.union_with(&f.writes);
            }
        }
    }
    let mut param_changes = Vec::new();
    if let Some(parsed) = info.parsed.as_deref() {
        // The definition in force at this cell (a later redefinition does
        // not count).
        for name in top_level_calls(&parsed.module.body) {
            if let Some(f) = model.function_in_force(index, name) {
                for s in f.always_writes.iter() {
                    if let Some(v) = model.vars.get(nbsight_dataflow::symbol::root(s)) {
                        writes_definite.insert(v);
                    }
                }
            }
        }
        // Arguments user functions change in place (`add_col(df)`).
        param_changes = argument_changes(model, index, &parsed.module.body);
        for c in &param_changes {
            writes_maybe.insert(c.var);
        }
    }
    if !options.import_flows {
        // Names only imports bind are not flows.
        for (v, _) in &compiled.imports {
            if !compiled.computed.contains(*v) {
                writes_maybe.remove(*v);
                writes_definite.remove(*v);
            }
        }
    }
    let mut write_candidates = roots(&summary.may_mutate);
    write_candidates.difference_with(&writes_maybe);
    // A candidate the cell does not read from before is its own value.
    write_candidates.intersect_with(&reads_upper);
    Some(Estimate {
        index,
        param_changes,
        reads_lower,
        reads_upper,
        writes_definite,
        writes_maybe,
        write_candidates,
        rebinds: compiled.dead.clone(),
        deleted: deleted(model, &compiled.program, info.parsed.as_deref()),
        cyclic: !compiled.program.acyclic,
        hidden_bindings: compiled.hidden_bindings
            || (options.import_flows && compiled.unknown_defs),
    })
}

/// The transitive closure of the cell graph the flows induce (no self
/// dependencies).
fn transitive(flows: &[CellEdge]) -> Vec<Dependency> {
    super::dependencies::transitive_dependencies(flows.iter().map(|f| (f.from, f.to)))
        .into_iter()
        .map(|(from, to)| Dependency { from, to })
        .collect()
}

/// The arguments calls in `body` pass to user functions that change those
/// parameters in place (`def add_col(frame): frame['x'] = 1` then
/// `add_col(df)` changes `df`).
fn argument_changes(
    model: &NotebookModel,
    cell: usize,
    body: &[ruff_python_ast::Stmt],
) -> Vec<CallChange> {
    use ruff_python_ast::visitor::{Visitor, walk_expr};
    use ruff_python_ast::{Expr, ExprCall};

    #[derive(Default)]
    struct Calls<'a>(Vec<&'a ExprCall>);
    impl<'a> Visitor<'a> for Calls<'a> {
        fn visit_expr(&mut self, expr: &'a Expr) {
            if let Expr::Call(call) = expr
                && matches!(&*call.func, Expr::Name(_))
            {
                self.0.push(call);
            }
            walk_expr(self, expr);
        }
    }
    let mut calls = Calls::default();
    for stmt in body {
        calls.visit_stmt(stmt);
    }
    let mut changes = Vec::new();
    for call in calls.0 {
        let Expr::Name(f) = &*call.func else { continue };
        let Some(summary) = model.function_in_force(cell, f.id.as_str()) else {
            continue;
        };
        if summary.mutated_params.is_empty() {
            continue;
        }
        let Some(call) = NamedCall::of(call) else {
            continue;
        };
        for param in &summary.mutated_params {
            if let Some(v) = call.argument(param).and_then(|n| model.vars.get(n)) {
                changes.push(CallChange {
                    var: v,
                    range: call.range,
                    depth: 0,
                    definite: true,
                });
            }
        }
    }
    changes
}

/// The names the last statement writing them deletes (`del x`).
/// Only a top-level `del` (run on every path) counts.
fn deleted(
    model: &NotebookModel,
    program: &nbsight_model::program::Program,
    parsed: Option<&ParsedCell>,
) -> VarSet {
    use ruff_python_ast::{Expr, Stmt};
    let Some(parsed) = parsed else {
        return VarSet::new();
    };
    // (variable, line) of each top-level `del name`.
    let mut top: Vec<(Var, OneIndexed)> = Vec::new();
    for stmt in &parsed.module.body {
        if let Stmt::Delete(d) = stmt {
            let line = parsed
                .line_column(ruff_text_size::Ranged::range(d).start())
                .0;
            for target in &d.targets {
                if let Expr::Name(n) = target
                    && let Some(v) = model.vars.get(n.id.as_str())
                {
                    top.push((v, line));
                }
            }
        }
    }
    if top.is_empty() {
        return VarSet::new();
    }
    let mut last: FxHashMap<Var, (WriteKind, OneIndexed)> = FxHashMap::default();
    for stmt in &program.stmts {
        for &(v, kind) in &stmt.writes {
            last.insert(v, (kind, stmt.line));
        }
    }
    VarSet::from_iter(
        last.into_iter()
            .filter(|(v, (kind, line))| *kind == WriteKind::Delete && top.contains(&(*v, *line)))
            .map(|(v, _)| v),
    )
}

/// The names called directly (`f(...)`) by the cell's top-level simple
/// statements, which run on every path.
fn top_level_calls(body: &[ruff_python_ast::Stmt]) -> Vec<&str> {
    use ruff_python_ast::visitor::{Visitor, walk_expr};
    use ruff_python_ast::{Expr, Stmt};

    #[derive(Default)]
    struct Calls<'a>(Vec<&'a str>);
    impl<'a> Visitor<'a> for Calls<'a> {
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                // Short-circuits, conditionals and deferred bodies may not run.
                Expr::BoolOp(_) | Expr::If(_) | Expr::Lambda(_) => {}
                Expr::ListComp(_) | Expr::SetComp(_) | Expr::DictComp(_) | Expr::Generator(_) => {}
                _ => {
                    if let Expr::Call(call) = expr
                        && let Expr::Name(name) = &*call.func
                    {
                        self.0.push(name.id.as_str());
                    }
                    walk_expr(self, expr);
                }
            }
        }
    }
    let mut calls = Calls::default();
    for stmt in body {
        match stmt {
            Stmt::Expr(s) => calls.visit_expr(&s.value),
            Stmt::Assign(s) => calls.visit_expr(&s.value),
            Stmt::AugAssign(s) => calls.visit_expr(&s.value),
            Stmt::AnnAssign(s) => {
                if let Some(value) = &s.value {
                    calls.visit_expr(value);
                }
            }
            _ => {}
        }
    }
    calls.0
}
