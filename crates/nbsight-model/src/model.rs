//! The notebook as the analyses see it: every cell with its id, status, cell
//! magic, parse, compiled program (with the dataflow CFG it came from) and
//! pre-summary (the variables it needs from the notebook state), the
//! notebook's user functions with their free globals (`functions`), and a
//! cache of compiled cells keyed by source so an edit recomputes only that
//! cell.

use std::sync::Arc;

use nbsight_dataflow::builtins::is_builtin;
use nbsight_dataflow::cfg::Cfg;
use nbsight_dataflow::effects::Role;
use nbsight_dataflow::symbol::{SymbolTable, root};
use nbsight_dataflow::{CellSummary, Context, Effects, ImportEnv, ModuleAnalysis, analyze_cell};
use nbsight_notebook::{
    Cell, CellIndex, CellKind, CellMagic, CodeForm, Notebook, OneIndexed, ParsedCell, SyntaxIssue,
};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::functions::{self, FunctionInfo};
use crate::program::Program;
use crate::sites::SiteTable;
use crate::vars::{Var, VarSet, Vars};

/// Why a cell has no program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CellStatus {
    /// A Python cell that parsed.
    Code,
    /// Markdown or raw (`kind`).
    NotCode(&'static str),
    /// A code cell nbsight does not analyse (`%%bash`, another language),
    /// and why.
    Opaque(String),
    /// A Python cell with a syntax error (the first one).
    Broken {
        line: OneIndexed,
        column: OneIndexed,
        message: String,
    },
}

impl CellStatus {
    /// The status of `cell`, given its parse (`None`: not Python).
    pub fn of(cell: &Cell, parsed: Option<&ParsedCell>) -> CellStatus {
        match (&cell.kind, &cell.form, parsed) {
            (CellKind::Code, _, Some(p)) if p.has_errors() => {
                let first = &p.errors[0];
                CellStatus::Broken {
                    line: first.line,
                    column: first.column,
                    message: first.message.clone(),
                }
            }
            (CellKind::Code, _, Some(_)) => CellStatus::Code,
            (CellKind::Code, CodeForm::Opaque { reason }, _) => {
                CellStatus::Opaque(reason.to_string())
            }
            (CellKind::Code, _, None) => CellStatus::Opaque("not Python".to_string()),
            (kind, _, _) => CellStatus::NotCode(kind.as_str()),
        }
    }
}

/// What analysing one cell source produced (shared by the cache).
#[derive(Debug)]
pub struct Compiled {
    pub program: Program,
    pub summary: CellSummary,
    /// The cell's module-level control-flow graph, its accesses on
    /// field-granular symbols (what slicing reads; `program` is its root
    /// variables).
    pub cfg: Cfg,
    /// The symbols of `cfg`'s accesses.
    pub table: SymbolTable,
    /// Roots of `summary.uses` (and of rebound builtins, added per notebook).
    pub uses: VarSet,
    pub defs: VarSet,
    pub dead: VarSet,
    /// Roots bound, deleted or changed in place on every path.
    pub written: VarSet,
    /// Changed in place (or perhaps).
    pub mutated: VarSet,
    /// Builtin names read.
    pub builtins: VarSet,
    /// Names bound by top-level imports, with what they are bound to.
    pub imports: Vec<(Var, String)>,
    /// Defs that are not only import bindings: the values the cell computes.
    pub computed: VarSet,
    /// Uses some read of which no binding in the cell may reach (read
    /// before any binding on every path): with no earlier cell defining
    /// them, these fail. A name bound in a loop and read after it is not here.
    pub unbound_reads: VarSet,
    /// The cell makes calls with ML roles (fit, split, predict...).
    pub ml_calls: bool,
    /// It has calls where the leakage domain can raise an alarm (train,
    /// predict, evaluate, cross-validate).
    pub ml_sinks: bool,
    /// It has predict or evaluate calls (which look up the models trained).
    pub evaluates: bool,
    /// The cell has Python statements other than IPython escapes (`%magic`).
    pub has_python: bool,
    /// The cell may bind names nbsight cannot see (`from m import *`, `%run`,
    /// `%store -r`, `exec`).
    pub unknown_defs: bool,
    /// Of those, the bindings that are not star imports: code nbsight does
    /// not see runs (`%run`, `exec`, `globals()[name] = ...`).
    pub hidden_bindings: bool,
    /// The in-place changes calls make at the cell's top level, where they
    /// happen (for the flow analysis's shared objects).
    pub call_changes: Vec<CallChange>,
}

/// An in-place change a call makes (`df.dropna(inplace=True)`,
/// `add_col(df)` when `add_col` changes its parameter, `d.mystery()`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallChange {
    /// The root variable changed.
    pub var: Var,
    /// The call's source range in the cell.
    pub range: ruff_text_size::TextRange,
    /// How deep the changed path is under the root (0: the object itself,
    /// 1: `x[0]` or `x.a`...).
    pub depth: u32,
    /// The knowledge base says it changes (`false`: a call of unknown effect).
    pub definite: bool,
}

/// What a cell reads from and writes to the notebook state once the
/// notebook's user functions are known (the [`CellInfo`] fields of the same
/// names).
struct Links {
    pre: VarSet,
    outputs: VarSet,
    computed: VarSet,
    reads: VarSet,
    feeds: VarSet,
}

impl Links {
    fn of(
        compiled: &Compiled,
        functions: &FxHashMap<Var, FunctionInfo>,
        all_defs: &VarSet,
        vars: &Vars,
    ) -> Links {
        let pre = pre_with(compiled, all_defs, vars, |v| {
            functions.get(&v).map(|i| &i.reads)
        });
        let mut outputs = compiled.defs.clone();
        outputs.union_with(&compiled.mutated);
        // Globals the user functions it calls bind or change.
        let mut computed = compiled.computed.clone();
        for stmt in &compiled.program.stmts {
            for v in &stmt.reads {
                if let Some(info) = functions.get(v) {
                    outputs.union_with(&info.writes);
                    computed.union_with(&info.writes);
                }
            }
        }
        let mut reads_all = pre.clone();
        let mut feeds = VarSet::new();
        let program = &compiled.program;
        for stmt in &program.stmts {
            let flows = !stmt.writes.is_empty() || !stmt.calls.is_empty();
            for &v in stmt.reads.iter().chain(&stmt.free_reads) {
                reads_all.insert(v);
                if flows {
                    feeds.insert(v);
                }
                if let Some(info) = functions.get(&v) {
                    reads_all.union_with(&info.reads);
                }
            }
        }
        for call in &program.calls {
            for &v in call
                .args
                .iter()
                .chain([&call.receiver])
                .flat_map(|op| op.vars())
            {
                reads_all.insert(v);
                feeds.insert(v);
            }
        }
        Links {
            pre,
            outputs,
            computed,
            reads: reads_all,
            feeds,
        }
    }
}

/// What `compiled` reads from the notebook state: its uses, the builtins
/// some cell rebinds (`all_defs`), and the free globals of the user
/// functions it references (`call_reads`: what a call of a name reads, when
/// the name is a user function), unless the cell bound them before.
pub(crate) fn pre_with<R: std::borrow::Borrow<VarSet>>(
    compiled: &Compiled,
    all_defs: &VarSet,
    vars: &Vars,
    call_reads: impl Fn(Var) -> Option<R>,
) -> VarSet {
    let mut pre = compiled.uses.clone();
    for b in compiled.builtins.iter() {
        if all_defs.contains(b) {
            pre.insert(b);
        }
    }
    // Calling a user function reads its free globals, unless the cell
    // bound them before the call.
    let mut written = VarSet::new();
    for stmt in &compiled.program.stmts {
        for &v in &stmt.reads {
            if let Some(reads) = call_reads(v) {
                for g in reads.borrow().iter() {
                    if !written.contains(g) {
                        pre.insert(g);
                    }
                }
            }
        }
        for &(v, kind) in &stmt.writes {
            if kind == crate::program::WriteKind::Strong {
                written.insert(v);
            }
        }
    }
    // An anonymous lambda is passed on to be called (`df.apply(lambda
    // x: clean(x))`): its free globals, and those of the user
    // functions it calls, are read unless the cell bound them before.
    for (name, summary) in &compiled.summary.functions {
        let Some(at) = name
            .strip_prefix("<lambda@")
            .and_then(|rest| rest.split(':').next())
            .and_then(|line| line.parse::<usize>().ok())
        else {
            continue;
        };
        let mut bound_before = VarSet::new();
        for stmt in compiled.program.stmts.iter().filter(|s| s.line.get() < at) {
            for &(v, kind) in &stmt.writes {
                if kind == crate::program::WriteKind::Strong {
                    bound_before.insert(v);
                }
            }
        }
        for s in summary.reads.iter() {
            let Some(v) = vars.get(root(s)) else {
                continue;
            };
            let mut read = VarSet::from_iter([v]);
            if let Some(reads) = call_reads(v) {
                read.union_with(reads.borrow());
            }
            read.difference_with(&bound_before);
            pre.union_with(&read);
        }
    }
    pre
}

/// One cell of the model.
#[derive(Debug, Clone)]
pub struct CellInfo {
    pub index: usize,
    /// The cell's id in the notebook.
    pub id: String,
    pub status: CellStatus,
    /// Its cell magic (`%%time`, `%%capture out`; `%%bash` of an opaque
    /// cell).
    pub cell_magic: Option<CellMagic>,
    pub compiled: Option<Arc<Compiled>>,
    /// The parsed Python cell (shared with the model's parse cache).
    pub parsed: Option<Arc<ParsedCell>>,
    /// The cache key of its Python text (`None`: not Python).
    key: Option<SourceKey>,
    /// The pre-summary: variables the cell reads from the notebook state,
    /// including the free globals of the user functions it references.
    pub pre: VarSet,
    /// Everything the cell may write: defs and in-place changes.
    pub outputs: VarSet,
    /// The outputs whose values running the cell again changes: all but the
    /// names only imports bind (re-importing binds the same module).
    pub computed: VarSet,
    /// Every variable the cell's run reads, directly or through the user
    /// functions it references: what its result can depend on in the state
    /// it runs on (the engine re-runs a cell only when one of them grew).
    pub reads: VarSet,
    /// The reads of statements that write something or make a call with a
    /// role: the variables whose values can reach what the cell writes, the
    /// models it trains or the alarms it raises (a `print(x)` reads `x`
    /// without it).
    pub feeds: VarSet,
    pub execution_count: Option<u32>,
    pub has_outputs: bool,
}

impl CellInfo {
    fn set_links(&mut self, links: Links) {
        let Links {
            pre,
            outputs,
            computed,
            reads,
            feeds,
        } = links;
        self.pre = pre;
        self.outputs = outputs;
        self.computed = computed;
        self.reads = reads;
        self.feeds = feeds;
    }

    /// A Python cell that parsed.
    pub fn is_code(&self) -> bool {
        self.compiled.is_some()
    }

    pub fn program(&self) -> Option<&Program> {
        self.compiled.as_deref().map(|c| &c.program)
    }
}

/// The notebook model.
#[derive(Debug, Clone)]
pub struct NotebookModel {
    pub path: String,
    pub cells: Vec<Arc<CellInfo>>,
    pub vars: Vars,
    pub functions: Arc<FxHashMap<Var, FunctionInfo>>,
    /// Each plain function definition's own free globals, by name: one
    /// entry per defining cell, in cell order (see
    /// [`crate::FunctionsInForce`]).
    pub function_definitions: Arc<FxHashMap<Var, Vec<(usize, VarSet)>>>,
    /// Call sites with ML roles (for the leakage domain's tags).
    pub sites: SiteTable,
    imports: Arc<ImportEnv>,
    /// Parsed cells by source (kept across edits).
    parsed: Arc<FxHashMap<SourceKey, Arc<ParsedCell>>>,
    /// Compiled cells by source (valid while the notebook's imports stay).
    cache: Arc<FxHashMap<SourceKey, Arc<Compiled>>>,
}

/// The cache key of a Python cell: its Python text and cell magic, as they
/// are (comparing texts costs less than hashing them into a digest, and two
/// keys are equal only when the cells are).
type SourceKey = Arc<str>;

/// The cache key of a Python cell.
fn source_key(cell: &Cell) -> Option<SourceKey> {
    let text = cell.python_source()?;
    Some(match cell.form.cell_magic() {
        None => Arc::from(&*text),
        Some(magic) => Arc::from(format!("{text}\0{}\0{}", magic.name, magic.args)),
    })
}

impl NotebookModel {
    /// The syntax errors of its Python cells, with their cells, in cell
    /// order (from the model's own parses).
    pub fn syntax_errors(&self) -> Vec<(CellIndex, SyntaxIssue)> {
        self.cells
            .iter()
            .filter_map(|info| Some((CellIndex::new(info.index), info.parsed.as_ref()?)))
            .flat_map(|(cell, parsed)| parsed.errors.iter().map(move |e| (cell, e.clone())))
            .collect()
    }

    /// Builds the model of `notebook`.
    pub fn new(notebook: &Notebook, effects: &Effects) -> Self {
        let mut model = NotebookModel {
            path: notebook.path.display().to_string(),
            cells: Vec::with_capacity(notebook.cells.len()),
            vars: Vars::default(),
            functions: Arc::default(),
            function_definitions: Arc::default(),
            sites: SiteTable::default(),
            imports: Arc::default(),
            parsed: Arc::default(),
            cache: Arc::default(),
        };
        let cells: Vec<&Cell> = notebook.cells.iter().collect();
        let keys = cells.iter().map(|c| source_key(c)).collect();
        model.rebuild(&cells, keys, effects);
        model
    }

    /// The model of the notebook with these cells (a new cell inserted, one
    /// deleted). Unchanged cells reuse their compiled programs.
    pub fn with_cells(&self, cells: &[Cell], effects: &Effects) -> Self {
        let mut model = self.clone();
        let cells: Vec<&Cell> = cells.iter().collect();
        let keys = cells.iter().map(|c| source_key(c)).collect();
        model.rebuild(&cells, keys, effects);
        model
    }

    /// The model after cell `index` of `cells` (the cells this model was
    /// built from) becomes `edited`. Only the edited cell is hashed, parsed
    /// and compiled again.
    pub fn with_edit(
        &self,
        cells: &[Cell],
        index: usize,
        edited: &Cell,
        effects: &Effects,
    ) -> Self {
        if self.cells.len() == cells.len()
            && let Some(model) = self.edit_in_place(index, edited, effects)
        {
            return model;
        }
        self.rebuilt_with_edit(cells, index, edited, effects)
    }

    /// [`NotebookModel::with_edit`] by rebuilding every cell's links.
    pub fn rebuilt_with_edit(
        &self,
        cells: &[Cell],
        index: usize,
        edited: &Cell,
        effects: &Effects,
    ) -> Self {
        let mut model = self.clone();
        let same_cells = self.cells.len() == cells.len();
        let refs: Vec<&Cell> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| if i == index { edited } else { c })
            .collect();
        let keys = refs
            .iter()
            .enumerate()
            .map(|(i, c)| match &self.cells.get(i) {
                Some(info) if same_cells && i != index => info.key.clone(),
                _ => source_key(c),
            })
            .collect();
        model.rebuild(&refs, keys, effects);
        model
    }

    /// [`NotebookModel::with_edit`] when the edit leaves every other cell
    /// as it was: the edited cell parses before and after, imports and binds
    /// the same names and defines the same functions with the same free
    /// globals. Then only the edited cell is compiled and linked again;
    /// `None` otherwise.
    pub fn edit_in_place(&self, index: usize, edited: &Cell, effects: &Effects) -> Option<Self> {
        let old = self.cells.get(index)?;
        let old_compiled = old.compiled.as_deref()?;
        let old_parsed = old.parsed.as_deref()?;
        let key = source_key(edited)?;
        let parsed = match self.parsed.get(&key) {
            Some(hit) => hit.clone(),
            None => Arc::new(edited.parse()?),
        };
        if CellStatus::of(edited, Some(&parsed)) != CellStatus::Code
            || ImportEnv::collect([&old_parsed.module]) != ImportEnv::collect([&parsed.module])
        {
            return None;
        }
        let mut model = self.clone();
        // An edit that only appends to the parsed text (a trailing comment or
        // blank lines) and parses to the same statements at the same offsets
        // compiles to the old program: the analysis reads the statements and
        // the text at their offsets (lines and columns counted in the old
        // text, an unchanged prefix), under the same cell magic, imports and
        // effects. The old cell's program, call sites and links then stand.
        if edited.form.cell_magic() == old.cell_magic.as_ref()
            && parsed.source().starts_with(old_parsed.source())
            && parsed.module.body == old_parsed.module.body
        {
            let cell = Arc::make_mut(&mut model.cells[index]);
            cell.parsed = Some(parsed);
            cell.key = Some(key);
            return Some(model);
        }
        let imports = model.imports.clone();
        let ctx = Context {
            effects,
            imports: &imports,
            source: "",
        };
        // The edited model is short-lived: its cell stays out of the caches.
        let compiled = match model.cache.get(&key) {
            Some(hit) => hit.clone(),
            None => model.compile_new(edited, &parsed, ctx),
        };
        if compiled.summary.functions != old_compiled.summary.functions
            || !compiled.defs.same(&old_compiled.defs)
        {
            return None;
        }
        model.sites.intern_calls(index, &compiled.program);
        let links = Links::of(&compiled, &model.functions, &model.all_defs(), &model.vars);
        let cell = Arc::make_mut(&mut model.cells[index]);
        cell.compiled = Some(compiled);
        cell.parsed = Some(parsed);
        cell.cell_magic = edited.form.cell_magic().cloned();
        cell.key = Some(key);
        cell.set_links(links);
        Some(model)
    }

    /// Forgets the parses and compiled programs of sources no cell has now:
    /// a model an editor rebuilds at every keystroke ([`Self::with_cells`])
    /// would otherwise keep every text its cells ever had.
    pub fn forget_other_sources(&mut self) {
        let cells = &self.cells;
        let keys: FxHashSet<&str> = cells.iter().filter_map(|c| c.key.as_deref()).collect();
        let current = |key: &SourceKey| keys.contains(&**key);
        if self.parsed.len() > cells.len() {
            Arc::make_mut(&mut self.parsed).retain(|key, _| current(key));
        }
        if self.cache.len() > cells.len() {
            Arc::make_mut(&mut self.cache).retain(|key, _| current(key));
        }
    }

    /// The code cells that parsed.
    pub fn code_cells(&self) -> impl Iterator<Item = &CellInfo> {
        self.cells.iter().map(|c| &**c).filter(|c| c.is_code())
    }

    /// Rebuilds the cells from `cells`, whose cache keys are `keys`.
    fn rebuild(&mut self, cells: &[&Cell], keys: Vec<Option<SourceKey>>, effects: &Effects) {
        let parsed: Vec<Option<Arc<ParsedCell>>> = cells
            .iter()
            .zip(&keys)
            .map(|(cell, key)| {
                let key = key.as_ref()?;
                if let Some(hit) = self.parsed.get(key) {
                    return Some(hit.clone());
                }
                let parsed = Arc::new(cell.parse()?);
                Arc::make_mut(&mut self.parsed).insert(key.clone(), parsed.clone());
                Some(parsed)
            })
            .collect();
        let imports = ImportEnv::of_cells(parsed.iter().flatten().map(|p| &**p));
        if imports != *self.imports {
            self.cache = Arc::default();
            self.imports = Arc::new(imports);
        }
        let imports = self.imports.clone();
        let ctx = Context {
            effects,
            imports: &imports,
            source: "",
        };
        self.cells.clear();
        for (i, ((cell, shared), key)) in cells.iter().zip(&parsed).zip(&keys).enumerate() {
            let parsed = shared.as_deref();
            let status = CellStatus::of(cell, parsed);
            let compiled = match (&status, parsed, key) {
                (CellStatus::Code, Some(p), Some(key)) => Some(self.compile(cell, p, key, ctx)),
                _ => None,
            };
            self.cells.push(Arc::new(CellInfo {
                index: i,
                id: cell.id.clone(),
                status,
                cell_magic: cell.form.cell_magic().cloned(),
                compiled,
                parsed: shared.clone(),
                key: key.clone(),
                pre: VarSet::new(),
                outputs: VarSet::new(),
                computed: VarSet::new(),
                reads: VarSet::new(),
                feeds: VarSet::new(),
                execution_count: cell.execution_count.and_then(|c| u32::try_from(c).ok()),
                has_outputs: cell.has_outputs(),
            }));
        }
        self.imports = imports;
        for cell in &self.cells {
            if let Some(program) = cell.program() {
                self.sites.intern_calls(cell.index, program);
            }
        }
        self.link();
    }

    fn compile(
        &mut self,
        cell: &Cell,
        parsed: &ParsedCell,
        key: &SourceKey,
        ctx: Context<'_>,
    ) -> Arc<Compiled> {
        if let Some(hit) = self.cache.get(key) {
            return hit.clone();
        }
        let compiled = self.compile_new(cell, parsed, ctx);
        Arc::make_mut(&mut self.cache).insert(key.clone(), compiled.clone());
        compiled
    }

    /// Analyses and compiles `cell` (interning its names).
    fn compile_new(&mut self, cell: &Cell, parsed: &ParsedCell, ctx: Context<'_>) -> Arc<Compiled> {
        let analysis = analyze_cell(cell, parsed, ctx);
        let mut import_bindings = Vec::new();
        for stmt in &parsed.module.body {
            for binding in nbsight_dataflow::imports::bindings_of(stmt) {
                if binding.name != "*" {
                    import_bindings.push((self.vars.intern(&binding.name), binding.qualified));
                }
            }
        }
        let program = Program::compile(&analysis, parsed, &mut self.vars);
        let summary = &analysis.summary;
        let ml_calls = program
            .calls
            .iter()
            .any(|call| call.roles.iter().any(|r| r.is_ml()));
        // A user function may train and evaluate models in its body.
        let ml_sinks = program
            .calls
            .iter()
            .any(|call| call.user || call.roles.iter().any(|r| r.consumes_data()));
        let evaluates = program
            .calls
            .iter()
            .any(|call| call.has(Role::Predict) || call.has(Role::Evaluate));
        let vars = &mut self.vars;
        let mut roots = |set: &nbsight_dataflow::SymbolSet| {
            VarSet::from_iter(set.iter().map(|s| vars.intern(root(s))))
        };
        let uses = roots(&summary.uses);
        let defs = roots(&summary.defs);
        let dead = roots(&summary.dead);
        let written = roots(&summary.written);
        let mut mutated = roots(&summary.mutated);
        mutated.union_with(&roots(&summary.may_mutate));
        let builtins = roots(&summary.builtins);
        let mut unbound_reads = uses.clone();
        if uses.intersects(&defs) {
            // Some names are read before a binding in the cell on some path:
            // keep them only when no binding of the cell reaches some read.
            unbound_reads = VarSet::new();
            for read in analysis.reaching_definitions() {
                let name = analysis.table.name(read.symbol);
                if let Some(v) = self.vars.get(root(name))
                    && uses.contains(v)
                    && read
                        .defs
                        .iter()
                        .all(|d| matches!(d, nbsight_dataflow::solve::DefSite::Entry))
                {
                    unbound_reads.insert(v);
                }
            }
            for v in uses.iter() {
                if !defs.contains(v) {
                    unbound_reads.insert(v);
                }
            }
        }
        // A name is computed unless imports are its only bindings.
        let mut computed = defs.clone();
        computed.union_with(&mutated);
        for (v, _) in &import_bindings {
            let rebound = program
                .stmts
                .iter()
                .flat_map(|s| s.writes.iter())
                .filter(|(w, _)| w == v)
                .count()
                > import_bindings.iter().filter(|(x, _)| x == v).count();
            if !rebound {
                computed.remove(*v);
            }
        }
        let hidden_bindings = summary
            .magics
            .iter()
            .any(|m| matches!(m.as_str(), "%run" | "%store" | "%load" | "%reset"))
            || summary.builtins.iter().any(|b| b.as_str() == "exec")
            || (summary
                .builtins
                .iter()
                .any(|b| matches!(b.as_str(), "globals" | "vars" | "locals"))
                && writes_namespace(&parsed.module.body));
        let unknown_defs = hidden_bindings
            || summary
                .imports
                .iter()
                .any(|i| i.ends_with(".*") || i == "*");
        let mut call_changes = Vec::new();
        for node in &analysis.cfg.nodes {
            for access in node.accesses.iter().filter(|a| !a.implied) {
                let definite = match access.kind {
                    nbsight_dataflow::access::AccessKind::Mutate => true,
                    nbsight_dataflow::access::AccessKind::MayMutate => false,
                    _ => continue,
                };
                let name = analysis.table.name(access.symbol);
                let mut depth = 0;
                let mut part = nbsight_dataflow::symbol::parent(name);
                while let Some(p) = part {
                    depth += 1;
                    part = nbsight_dataflow::symbol::parent(p);
                }
                call_changes.push(CallChange {
                    var: self.vars.intern(root(name)),
                    range: access.range,
                    depth,
                    definite,
                });
            }
        }
        let ModuleAnalysis {
            cfg,
            table,
            summary,
        } = analysis;
        Arc::new(Compiled {
            program,
            summary,
            cfg,
            table,
            uses,
            defs,
            dead,
            written,
            mutated,
            builtins,
            imports: import_bindings,
            computed,
            unbound_reads,
            ml_calls,
            ml_sinks,
            evaluates,
            has_python: parsed
                .module
                .body
                .iter()
                .any(|s| !matches!(s, ruff_python_ast::Stmt::IpyEscapeCommand(_))),
            unknown_defs,
            hidden_bindings,
            call_changes,
        })
    }

    /// Computes function infos, pre-summaries and outputs.
    fn link(&mut self) {
        let summaries = self
            .cells
            .iter()
            .filter_map(|c| Some((c.index, &c.compiled.as_deref()?.summary)));
        let functions = functions::by_root(functions::definitions(summaries), &mut self.vars);
        let own = functions::own_reads(
            functions::definitions(
                self.cells
                    .iter()
                    .filter_map(|c| Some((c.index, &c.compiled.as_deref()?.summary))),
            ),
            &mut self.vars,
        );
        // Builtin names some cell rebinds are notebook variables.
        let all_defs = self.all_defs();
        for cell in &mut self.cells {
            if let Some(compiled) = cell.compiled.as_deref() {
                let links = Links::of(compiled, &functions, &all_defs, &self.vars);
                Arc::make_mut(cell).set_links(links);
            }
        }
        self.functions = Arc::new(functions);
        self.function_definitions = Arc::new(own);
    }

    /// Builtin names some cell rebinds (they are notebook variables) and
    /// every other name a cell binds.
    fn all_defs(&self) -> VarSet {
        let mut all_defs = VarSet::new();
        for compiled in self.cells.iter().filter_map(|c| c.compiled.as_deref()) {
            all_defs.union_with(&compiled.defs);
        }
        all_defs
    }

    /// Each cell's status and linked sets by name (`pre`, `outputs`,
    /// `computed`, `reads`, `feeds`): what two models of the same notebook agree on
    /// whatever their variable numbering (tests compare an edited model
    /// with one built from scratch).
    #[doc(hidden)]
    pub fn describe_links(&self) -> Vec<(CellStatus, [Vec<String>; 5])> {
        self.cells
            .iter()
            .map(|c| {
                let names =
                    [&c.pre, &c.outputs, &c.computed, &c.reads, &c.feeds].map(|s| self.names(s));
                (c.status.clone(), names)
            })
            .collect()
    }

    /// The names of `set`.
    pub fn names(&self, set: &VarSet) -> Vec<String> {
        self.vars.names_of(set)
    }

    /// `true` for a builtin name no cell rebinds.
    pub fn is_plain_builtin(&self, name: &str) -> bool {
        is_builtin(name)
            && !self
                .vars
                .get(name)
                .is_some_and(|v| self.code_cells().any(|c| c.outputs.contains(v)))
    }
}

/// `globals()[name] = value`, `globals().update(...)` (and `vars()`,
/// `locals()` at top level): the cell binds names nbsight cannot see.
/// Reading the namespace (`'x' in globals()`) binds nothing.
fn writes_namespace(body: &[ruff_python_ast::Stmt]) -> bool {
    use ruff_python_ast::Expr;
    use ruff_python_ast::visitor::{Visitor, walk_expr};
    fn is_namespace(expr: &Expr) -> bool {
        matches!(expr, Expr::Call(c) if matches!(&*c.func,
            Expr::Name(n) if matches!(n.id.as_str(), "globals" | "vars" | "locals")))
    }
    #[derive(Default)]
    struct Finder(bool);
    impl<'a> Visitor<'a> for Finder {
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::Subscript(s) if s.ctx.is_store() || s.ctx.is_del() => {
                    self.0 |= is_namespace(&s.value);
                }
                Expr::Call(c) => {
                    if let Expr::Attribute(a) = &*c.func {
                        self.0 |= is_namespace(&a.value)
                            && matches!(
                                a.attr.as_str(),
                                "update" | "setdefault" | "pop" | "__setitem__"
                            );
                    }
                }
                _ => {}
            }
            walk_expr(self, expr);
        }
    }
    let mut finder = Finder::default();
    for stmt in body {
        finder.visit_stmt(stmt);
    }
    finder.0
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
