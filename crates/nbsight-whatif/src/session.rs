//! What-if queries (NBLyzer's event handler, Algorithm 1): given a notebook,
//! the state its kernel is in (an execution history) and an event (open,
//! execute, edit, insert, delete), what can follow: which cells the event
//! impacts and at which depth, which findings some continuation reaches, the
//! cells to re-run so the notebook ends as Run All would leave it, and which
//! cells are safe to run next.

use std::cell::OnceCell;

use nbsight_dataflow::Effects;
use nbsight_notebook::{Cell, CellIndex, Notebook, OneIndexed};

use crate::consequences::{ConsequenceCache, Relation, explore_candidate};
use crate::engine::{Bounds, Start, Visit, explore};
use crate::readers::Readers;
use crate::rerun::{RerunFacts, rerun_plan};
use crate::sinks::{self, SinkReach};
use crate::state::{Domains, Executed, NotebookState};
use nbsight_absint::{Alarm, AlarmKind, Domain};
use nbsight_model::vars::{Var, VarSet};
use nbsight_model::{CellStatus, NotebookModel};

use crate::event::Event;

/// Options of a what-if query.
#[derive(Debug, Clone, Default)]
pub struct WhatIfOptions {
    /// The cells run before the event.
    pub executed: Executed,
    /// Depth bound K (`None`: unbounded).
    pub k: Option<usize>,
}

/// A query the engine cannot answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WhatIfError {
    #[error(
        "cell {cell} does not exist: the notebook has {len} cells (0-based indices, markdown included)"
    )]
    NoSuchCell { cell: usize, len: usize },
    #[error("cell {cell} is not a code cell")]
    NotCode { cell: usize },
    #[error("cell {cell} in the history does not exist: the notebook has {len} cells")]
    NoSuchHistoryCell { cell: usize, len: usize },
}

/// The event, as reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventReport {
    pub kind: &'static str,
    pub cell: Option<CellIndex>,
}

/// A cell whose inputs the event changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Impacted {
    pub cell: CellIndex,
    pub depth: usize,
    /// The changed variables it reads.
    pub symbols: Vec<String>,
}

/// A problem some continuation of the event reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WhatIfFinding {
    pub kind: AlarmKind,
    pub message: String,
    pub cell: CellIndex,
    /// The line and column inside the cell.
    pub line: OneIndexed,
    pub column: OneIndexed,
    /// The cells, in execution order, that lead to the finding (ending with
    /// `cell`).
    pub path: Vec<CellIndex>,
}

/// The answer to a what-if query (the CLI's JSON keeps its field names).
/// Cells are positions in the notebook as the user knows it (for an
/// insertion, with the inserted cell).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WhatIfReport {
    pub notebook: String,
    pub event: EventReport,
    pub history: Vec<CellIndex>,
    pub impacted: Vec<Impacted>,
    pub findings: Vec<WhatIfFinding>,
    pub rerun_plan: Vec<CellIndex>,
    pub safe_next: Vec<CellIndex>,
    /// The depth bound used (`null`: unbounded).
    pub k: Option<usize>,
    /// Cells whose syntax errors stop paths (never successors).
    pub broken_cells: Vec<CellIndex>,
    /// Cells explored (with repetitions), for the curious: the event's
    /// exploration and the candidates' consequences not kept from an
    /// earlier query (the code-impact explorations that settle a candidate
    /// once per session are not counted).
    pub visits: usize,
    /// The exploration stopped at its budget of cell executions before
    /// reaching a fixpoint: deeper orders were not explored.
    pub truncated: bool,
}

/// Cell executions one query may explore before it stops (and says so).
pub const MAX_VISITS: usize = 4096;

/// Answers a what-if query on `notebook`.
pub fn what_if(
    notebook: &Notebook,
    effects: &Effects,
    event: &Event,
    options: &WhatIfOptions,
) -> Result<WhatIfReport, WhatIfError> {
    WhatIfSession::new(notebook, effects, &options.executed)?.query(event, options.k)
}

/// A notebook open in a kernel: the model, the execution history and the
/// abstract state it leads to. Real executions update it one by one
/// (maintenance); queries ask what an event could lead to.
#[derive(Debug, Clone)]
pub struct WhatIfSession<'n> {
    notebook: &'n Notebook,
    effects: &'n Effects,
    base: NotebookModel,
    history: Vec<usize>,
    state: NotebookState,
    /// Candidate next cells' consequences on `state`.
    consequences: ConsequenceCache,
    /// What the re-run plans read off the cells, made at the first query.
    rerun_facts: OnceCell<std::rc::Rc<RerunFacts>>,
    /// The cells of the session's model that can lead to an alarm, found
    /// at the first query that asks.
    sinks: OnceCell<SinkReach>,
}

impl<'n> WhatIfSession<'n> {
    pub fn new(
        notebook: &'n Notebook,
        effects: &'n Effects,
        history: &Executed,
    ) -> Result<Self, WhatIfError> {
        let base = NotebookModel::new(notebook, effects);
        let len = base.cells.len();
        let history = history.cells(&base);
        if let Some(&cell) = history.iter().find(|&&c| c >= len) {
            return Err(WhatIfError::NoSuchHistoryCell { cell, len });
        }
        let mut state = NotebookState::fresh(&base);
        // The states of the session's model share what its functions do.
        state.keep_function_leaks();
        for &cell in &history {
            state.execute(&base, cell);
        }
        // Queries run the same cells on states that agree on what they read.
        state.remember_runs();
        Ok(WhatIfSession {
            notebook,
            effects,
            base,
            history,
            state,
            consequences: ConsequenceCache::default(),
            rerun_facts: OnceCell::new(),
            sinks: OnceCell::new(),
        })
    }

    /// Stops replaying kept cell runs: every query interprets every cell
    /// it runs (the answers are the same; replays only make them faster).
    pub fn forget_runs(&mut self) {
        self.state.forget_runs();
    }

    /// The model of the notebook as it is.
    pub fn model(&self) -> &NotebookModel {
        &self.base
    }

    /// Maintenance: the user really ran `cell`.
    pub fn execute(&mut self, cell: usize) -> Result<(), WhatIfError> {
        let len = self.base.cells.len();
        if cell >= len {
            return Err(WhatIfError::NoSuchCell { cell, len });
        }
        self.history.push(cell);
        self.state.execute(&self.base, cell);
        self.consequences.clear();
        Ok(())
    }

    /// What can `event` lead to, exploring to depth `k`?
    pub fn query(&self, event: &Event, k: Option<usize>) -> Result<WhatIfReport, WhatIfError> {
        let base = &self.base;
        let len = base.cells.len();
        if let Some(cell) = event.cell() {
            let limit = if matches!(event, Event::Insert { .. }) {
                len + 1
            } else {
                len
            };
            if cell >= limit {
                return Err(WhatIfError::NoSuchCell { cell, len });
            }
            if matches!(event, Event::Execute(_) | Event::Edit { .. })
                && matches!(base.cells[cell].status, CellStatus::NotCode(_))
            {
                return Err(WhatIfError::NotCode { cell });
            }
        }
        let facts = self
            .rerun_facts
            .get_or_init(|| std::rc::Rc::new(RerunFacts::of(base)))
            .clone();
        let query = Query::new(
            self.notebook,
            self.effects,
            base,
            event,
            &self.history,
            facts,
        );
        let model = query.model();
        let mut before = match (&query.owned, event) {
            (Some(_), Event::Insert { .. } | Event::Delete(_)) => {
                NotebookState::after(model, &query.history)
            }
            _ => self.state.clone(),
        };
        if !query.replays_runs() {
            before.forget_runs();
        }
        match query.relation {
            _ if query.owned.is_none() => {}
            Some(Relation::Edited { cell }) if same_imports(base, model, cell) => {
                before.move_to_edit(cell);
            }
            // Another model than the session's: its own functions.
            _ => before.keep_function_leaks(),
        }
        Ok(answer(
            &query,
            event,
            &before,
            &self.history,
            Bounds {
                k,
                max_visits: Some(MAX_VISITS),
                stop_at_alarm: false,
            },
            self,
        ))
    }
}

fn answer(
    query: &Query<'_>,
    event: &Event,
    before: &NotebookState,
    history: &[usize],
    bounds: Bounds,
    session: &WhatIfSession<'_>,
) -> WhatIfReport {
    let model = query.model();
    let mut report = WhatIfReport {
        notebook: model.path.clone(),
        event: EventReport {
            kind: event.kind(),
            cell: event.cell().map(CellIndex::new),
        },
        history: history.iter().map(|&c| CellIndex::new(c)).collect(),
        impacted: Vec::new(),
        findings: Vec::new(),
        rerun_plan: Vec::new(),
        safe_next: Vec::new(),
        k: bounds.k,
        truncated: false,
        broken_cells: model
            .cells
            .iter()
            .filter(|c| matches!(c.status, CellStatus::Broken { .. }))
            .map(|c| query.report_index(c.index))
            .collect(),
        visits: 0,
    };

    // The event's own exploration.
    let (visits, after) = match (event, query.source) {
        (Event::Open, _) => {
            let mut visits = Vec::new();
            for cell in model.code_cells() {
                if before.can_run(model, cell.index) {
                    let found = explore(
                        model,
                        Start::Cell(cell.index),
                        before.domains(),
                        &VarSet::new(),
                        bounds,
                    );
                    report.truncated |= found.truncated;
                    visits.extend(found.visits);
                }
            }
            (visits, before.clone())
        }
        (_, Some(source)) => {
            let found = explore(
                model,
                Start::Cell(source),
                before.domains(),
                &query.extra,
                bounds,
            );
            report.truncated |= found.truncated;
            let visits = found.visits;
            let mut after = before.clone();
            if matches!(event, Event::Execute(_)) {
                after.execute(model, source);
            }
            (visits, after)
        }
        (_, None) => {
            let found = explore(model, Start::State, before.domains(), &query.extra, bounds);
            report.truncated |= found.truncated;
            (found.visits, before.clone())
        }
    };
    report.visits = visits.len();
    let event_cell = query.source;
    report.impacted = impacted(model, &visits, event_cell)
        .into_iter()
        .map(|i| Impacted {
            cell: query.report_index(i.cell.index()),
            ..i
        })
        .collect();
    let mut findings = Vec::new();
    collect_alarms(query, &visits, &mut findings);
    let mut findings: Vec<(WhatIfFinding, Option<Stale>)> =
        findings.into_iter().map(|f| (f, None)).collect();
    if !matches!(event, Event::Open) {
        stale_risks(query, &visits, event_cell, &mut findings);
    }
    report.findings = dedup(findings)
        .into_iter()
        .map(|(mut finding, stale)| {
            if let Some(stale) = stale {
                finding.message = stale.message(query, event);
            }
            finding
        })
        .collect();

    // Safe next: runnable, reading nothing stale, and leading to no finding.
    // The event's exploration already ran every cell it reaches at depth 1
    // on the state after the event: the paths through it tell. Any other
    // cell's consequences (the cells depending on what it changes) are
    // explored here.
    let stale = stale_variables(model, &visits, event, event_cell);
    let n = model.cells.len();
    let (mut covered, mut leaky) = (vec![false; n], vec![false; n]);
    for visit in &visits {
        if let Some(&next) = visit.path.get(1) {
            covered[next] = true;
            leaky[next] |= !visit.alarms.is_empty();
        }
    }
    let any_alarm = visits.iter().any(|v| !v.alarms.is_empty());
    // The session's kept consequences hold when the model is (almost) the
    // session's and the state after the event is the session's, or differs
    // from it in facts the exploration did not look at.
    let reuse = query.relation.and_then(|relation| {
        if after.same_domains(&session.state) {
            Some((relation, None))
        } else {
            after
                .difference(&session.state)
                .map(|d| (relation, Some(d)))
        }
    });
    // Can a run starting at cell `i` reach a cell where an alarm is
    // possible? The cells that can are found at the first candidate that
    // asks: the session's when the event's model agrees with its model on
    // what decides them.
    let leakage_active = after.domains().1.is_active();
    let (shared_sinks, own_sinks) = (OnceCell::new(), OnceCell::new());
    let may_alarm = |i: usize| {
        if !leakage_active {
            return false;
        }
        let reach = if *shared_sinks.get_or_init(|| sinks::same_inputs(&session.base, model)) {
            session.sinks.get_or_init(|| SinkReach::of(&session.base))
        } else {
            own_sinks.get_or_init(|| SinkReach::of(model))
        };
        reach.from(i)
    };
    // The cells reading each variable, for the candidates' explorations.
    let readers = OnceCell::new();
    let readers = || readers.get_or_init(|| Readers::of(model));
    for cell in model.code_cells() {
        let i = cell.index;
        if !after.can_run(model, i) {
            continue;
        }
        if Some(i) != event_cell && cell.pre.intersects(&stale) {
            continue;
        }
        let safe = if Some(i) == event_cell {
            !any_alarm
        } else if covered[i] {
            !leaky[i]
        } else if !may_alarm(i) {
            true
        } else {
            let (safe, visits) = match reuse {
                Some((relation, ref difference)) => session.consequences.get_or_explore(
                    &session.base,
                    model,
                    readers(),
                    relation,
                    after.domains(),
                    difference.as_ref(),
                    i,
                    bounds.k,
                ),
                None => {
                    let found = explore_candidate(model, readers(), after.domains(), i, bounds.k);
                    (found.safe, found.visits)
                }
            };
            report.visits += visits;
            safe
        };
        if safe {
            report.safe_next.push(query.report_index(i));
        }
    }
    report.rerun_plan = rerun_plan(
        model,
        &query.history,
        event,
        event_cell,
        &query.extra,
        query.old_cell.map(|c| &*query.base.cells[c]),
        match query.relation {
            Some(Relation::Edited { cell }) => query.base.cells.get(cell).map(|c| &**c),
            _ => None,
        },
        &query.rerun_facts,
        // Variables keep their ids in the session's model and in an edit
        // made in place.
        matches!(
            query.relation,
            Some(Relation::Same | Relation::Edited { .. })
        ),
    )
    .into_iter()
    .map(|c| query.report_index(c))
    .collect();
    report
}

/// The notebook after the event and how its indices map back.
struct Query<'m> {
    base: &'m NotebookModel,
    /// The model after an edit, insert or delete (`None`: the base).
    owned: Option<NotebookModel>,
    /// The history in the event model's indices.
    history: Vec<usize>,
    /// The cell the event runs first (none for open and delete).
    source: Option<usize>,
    /// What the event changes besides the source's outputs.
    extra: VarSet,
    /// The event cell as it ran in the history, in the base model's indices
    /// (edit, delete, repeated execution; `None`: it never ran).
    old_cell: Option<usize>,
    /// The session's re-run facts.
    rerun_facts: std::rc::Rc<RerunFacts>,
    /// A deleted cell's index (indices at or after it are shifted back).
    deleted: Option<usize>,
    /// How the event's model relates to the session's (`None`: cells were
    /// added, removed or relinked).
    relation: Option<Relation>,
}

impl<'m> Query<'m> {
    fn model(&self) -> &NotebookModel {
        self.owned.as_ref().unwrap_or(self.base)
    }

    /// Can the session's kept cell runs be replayed in the event's model?
    /// The cells they ran must be the same (an edit changes only its own
    /// cell's program, which then has no kept run), and the alarms they
    /// raised must read the same: the edited cell's calls, which their
    /// messages may cite, keep their places.
    fn replays_runs(&self) -> bool {
        match self.relation {
            Some(Relation::Same) => true,
            Some(Relation::Edited { cell }) => {
                match (
                    self.base.cells[cell].program(),
                    self.model().cells[cell].program(),
                ) {
                    (Some(old), Some(new)) => {
                        old.calls.len() == new.calls.len()
                            && old.calls.iter().zip(&new.calls).all(|(a, b)| {
                                (a.line, a.column, &a.callee) == (b.line, b.column, &b.callee)
                            })
                    }
                    (None, None) => true,
                    _ => false,
                }
            }
            None => false,
        }
    }

    fn new(
        notebook: &Notebook,
        effects: &Effects,
        base: &'m NotebookModel,
        event: &Event,
        history: &[usize],
        facts: std::rc::Rc<RerunFacts>,
    ) -> Self {
        let language = &notebook.language;
        let old = |cell: usize| {
            let ran = history.contains(&cell);
            (base.cells[cell].computed.clone(), ran.then_some(cell))
        };
        let reindex = |cells: &mut Vec<Cell>| {
            for (i, c) in cells.iter_mut().enumerate() {
                c.index = i;
            }
        };
        match event {
            Event::Open | Event::Execute(_) => Query {
                base,
                owned: None,
                history: history.to_vec(),
                source: event.cell(),
                extra: VarSet::new(),
                old_cell: event.cell().and_then(|c| old(c).1),
                rerun_facts: facts.clone(),
                deleted: None,
                relation: Some(Relation::Same),
            },
            Event::Edit { cell, source } => {
                let edited = notebook.cells[*cell].edited(source, language);
                let (mut outputs, old_cell) = old(*cell);
                let (model, relation) = match base.edit_in_place(*cell, &edited, effects) {
                    Some(model) => (model, Some(Relation::Edited { cell: *cell })),
                    None => (
                        base.rebuilt_with_edit(&notebook.cells, *cell, &edited, effects),
                        None,
                    ),
                };
                outputs.union_with(&changed_imports(base, &model, *cell));
                Query {
                    base,
                    owned: Some(model),
                    history: history.to_vec(),
                    source: Some(*cell),
                    extra: outputs.clone(),
                    old_cell,
                    rerun_facts: facts.clone(),
                    deleted: None,
                    relation,
                }
            }
            Event::Insert { cell, source } => {
                let mut cells = notebook.cells.clone();
                cells.insert(*cell, Cell::new_code(*cell, source, language));
                reindex(&mut cells);
                Query {
                    base,
                    owned: Some(base.with_cells(&cells, effects)),
                    history: history
                        .iter()
                        .map(|&h| if h >= *cell { h + 1 } else { h })
                        .collect(),
                    source: Some(*cell),
                    extra: VarSet::new(),
                    old_cell: None,
                    rerun_facts: facts.clone(),
                    deleted: None,
                    relation: None,
                }
            }
            Event::Delete(cell) => {
                let mut cells = notebook.cells.clone();
                cells.remove(*cell);
                reindex(&mut cells);
                let (outputs, old_cell) = old(*cell);
                Query {
                    base,
                    owned: Some(base.with_cells(&cells, effects)),
                    history: history
                        .iter()
                        .filter(|&&h| h != *cell)
                        .map(|&h| if h > *cell { h - 1 } else { h })
                        .collect(),
                    source: None,
                    extra: outputs.clone(),
                    old_cell,
                    rerun_facts: facts.clone(),
                    deleted: Some(*cell),
                    relation: None,
                }
            }
        }
    }

    /// A cell index of the event's model as the user knows it (the original
    /// notebook's, except for an inserted cell).
    fn report_index(&self, cell: usize) -> CellIndex {
        CellIndex::new(match self.deleted {
            Some(d) if cell >= d => cell + 1,
            _ => cell,
        })
    }
}

/// Does cell `cell` import the same names from the same modules in both
/// models?
fn same_imports(old: &NotebookModel, new: &NotebookModel, cell: usize) -> bool {
    fn imports(model: &NotebookModel, cell: usize) -> Option<&[(Var, String)]> {
        let compiled = model.cells.get(cell)?.compiled.as_deref()?;
        Some(&compiled.imports)
    }
    imports(old, cell) == imports(new, cell)
}

/// Names an edit imports differently (or no longer, or newly).
fn changed_imports(old: &NotebookModel, new: &NotebookModel, cell: usize) -> VarSet {
    let bindings = |m: &NotebookModel| {
        m.cells[cell]
            .compiled
            .as_deref()
            .map(|c| c.imports.clone())
            .unwrap_or_default()
    };
    let (a, b) = (bindings(old), bindings(new));
    VarSet::from_iter(
        a.iter()
            .filter(|x| !b.contains(x))
            .chain(b.iter().filter(|x| !a.contains(x)))
            .map(|(v, _)| *v),
    )
}

/// Cells whose inputs the event changes, at their least depth.
fn impacted(
    model: &NotebookModel,
    visits: &[Visit<Domains>],
    event_cell: Option<usize>,
) -> Vec<Impacted> {
    let mut best: Vec<Option<Impacted>> = vec![None; model.cells.len()];
    for visit in visits {
        if visit.depth == 0 || Some(visit.cell) == event_cell {
            continue;
        }
        let cell = &model.cells[visit.cell];
        let changed = &visit.before.0.changed;
        if !visit.before.0.phi(cell) {
            continue;
        }
        let mut read = cell.pre.clone();
        read.intersect_with(changed);
        let slot = &mut best[visit.cell];
        match slot {
            Some(old) if old.depth <= visit.depth => {
                if old.depth == visit.depth {
                    let mut names = old.symbols.clone();
                    names.extend(model.names(&read));
                    names.sort_unstable();
                    names.dedup();
                    old.symbols = names;
                }
            }
            _ => {
                *slot = Some(Impacted {
                    cell: CellIndex::new(visit.cell),
                    depth: visit.depth,
                    symbols: model.names(&read),
                })
            }
        }
    }
    best.into_iter().flatten().collect()
}

/// Findings from the domains' alarms, with the path that reached them.
fn collect_alarms(query: &Query<'_>, visits: &[Visit<Domains>], findings: &mut Vec<WhatIfFinding>) {
    for visit in visits {
        for alarm in &visit.alarms {
            findings.push(finding(query, visit.cell, &visit.path, alarm));
        }
    }
}

fn finding(query: &Query<'_>, cell: usize, path: &[usize], alarm: &Alarm) -> WhatIfFinding {
    WhatIfFinding {
        kind: alarm.kind,
        message: alarm.message.clone(),
        cell: query.report_index(cell),
        line: alarm.line,
        column: alarm.column,
        path: path.iter().map(|&c| query.report_index(c)).collect(),
    }
}

/// Stale-state risks: a cell reached at depth ≥ 2 reads a variable an
/// intermediate impacted cell computes; run before that cell, it would read
/// the stale value (NBLyzer sec. 4.1.2). Their findings' messages are left
/// to [`Stale::message`], written only for the findings that [`dedup`]
/// keeps.
fn stale_risks(
    query: &Query<'_>,
    visits: &[Visit<Domains>],
    event_cell: Option<usize>,
    findings: &mut Vec<(WhatIfFinding, Option<Stale>)>,
) {
    let model = query.model();
    for visit in visits {
        // The cell before this one on the path, unless it is the event's
        // own cell (reading the source's outputs is not stale).
        let Some(&via) = visit.path.iter().rev().nth(1) else {
            continue;
        };
        let cell = &model.cells[visit.cell];
        if Some(via) == event_cell
            || via == visit.cell
            || Some(visit.cell) == event_cell
            || !visit.before.0.phi(cell)
        {
            continue;
        }
        let mut stale = model.cells[via].outputs.clone();
        stale.intersect_with(&cell.pre);
        stale.intersect_with(&visit.before.0.changed);
        if stale.is_clear() {
            continue;
        }
        let (line, column) = model.cells[visit.cell]
            .program()
            .and_then(|p| p.first_read(&stale))
            .unwrap_or((OneIndexed::MIN, OneIndexed::MIN));
        let alarm = Alarm {
            kind: AlarmKind::StaleState,
            line,
            column,
            message: String::new(),
            involved: vec![via],
            joins: None,
        };
        findings.push((
            finding(query, visit.cell, &visit.path, &alarm),
            Some(Stale {
                via,
                cell: visit.cell,
                stale,
            }),
        ));
    }
}

/// A stale-state risk's facts, for its message: cell `cell` reads `stale`,
/// which cell `via` computes (event model's indices).
struct Stale {
    via: usize,
    cell: usize,
    stale: VarSet,
}

impl Stale {
    /// The message (written only for the findings [`dedup`] keeps).
    fn message(&self, query: &Query<'_>, event: &Event) -> String {
        let names = query.model().names(&self.stale);
        let what = names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let origin = match event.cell() {
            Some(cell) => format!("the {} of cell {cell}", event_noun(event)),
            None => "the event".to_string(),
        };
        format!(
            "run before cell {via}, cell {} reads stale {what}: cell {via} computes {} from values {origin} changes; re-run cell {via} first",
            query.report_index(self.cell),
            if names.len() == 1 { "it" } else { "them" },
            via = query.report_index(self.via),
        )
    }
}

/// The event as a noun, for messages.
fn event_noun(event: &Event) -> &'static str {
    match event {
        Event::Open => "opening",
        Event::Execute(_) => "execution",
        Event::Edit { .. } => "edit",
        Event::Insert { .. } => "insertion",
        Event::Delete(_) => "deletion",
    }
}

/// Variables whose kernel values are stale after the event: what impacted
/// cells computed (and, for an edit or insert, what the source cell wrote)
/// until they run again.
fn stale_variables(
    model: &NotebookModel,
    visits: &[Visit<Domains>],
    event: &Event,
    event_cell: Option<usize>,
) -> VarSet {
    let mut stale = VarSet::new();
    for visit in visits {
        if visit.depth >= 1
            && Some(visit.cell) != event_cell
            && visit.before.0.phi(&model.cells[visit.cell])
        {
            stale.union_with(&model.cells[visit.cell].outputs);
        }
    }
    if let (Event::Edit { .. } | Event::Insert { .. }, Some(cell)) = (event, event_cell) {
        stale.union_with(&model.cells[cell].outputs);
    }
    stale
}

/// Keeps one finding per (rule, cell): the first in the cell, reached by the
/// shortest path (a leak seen by `predict` is seen again by the metric).
/// Each finding carries a `T` along (the order and the choice read only the
/// findings, not what they carry).
fn dedup<T>(mut findings: Vec<(WhatIfFinding, T)>) -> Vec<(WhatIfFinding, T)> {
    findings.sort_by(|(a, _), (b, _)| {
        (a.cell, a.kind, a.line, a.column, a.path.len(), &a.path).cmp(&(
            b.cell,
            b.kind,
            b.line,
            b.column,
            b.path.len(),
            &b.path,
        ))
    });
    findings.dedup_by(|(b, _), (a, _)| a.cell == b.cell && a.kind == b.kind);
    findings.sort_by(|(a, _), (b, _)| {
        (a.cell, a.line, a.column, a.kind).cmp(&(b.cell, b.line, b.column, b.kind))
    });
    findings
}
