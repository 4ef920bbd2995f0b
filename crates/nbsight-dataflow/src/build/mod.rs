//! Builds the IR of one scope: walks a body of statements and produces its CFG
//! whose nodes hold accesses in evaluation order, plus what the scope exports
//! (functions defined, imports, magics). Statements are in `stmt`, expressions in
//! `expr`, calls and their library effects in `call`, IPython escapes in `magic`.

mod call;
mod expr;
mod magic;
mod nested;
mod stmt;

pub use magic::magic_code;

use std::collections::BTreeSet;

use ruff_python_ast::Stmt;
use ruff_text_size::TextRange;
use rustc_hash::FxHashSet;

use crate::access::{Access, AccessKind};
use crate::cfg::{Cfg, NodeId};
use crate::effects::Effects;
use crate::imports::ImportEnv;
use crate::scope::{Resolution, ScopeChain};
use crate::symbol::{Lineage, SymId, Symbol, SymbolTable};
use crate::symbol_set::SymbolSet;

/// What the analysis knows beyond the code of the cell itself.
#[derive(Debug, Clone, Copy)]
pub struct Context<'c> {
    /// The library-effects knowledge base.
    pub effects: &'c Effects,
    /// The notebook's import bindings.
    pub imports: &'c ImportEnv,
    /// The cell's source (offsets in the AST point into it).
    pub source: &'c str,
}

/// Which kind of scope a builder walks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ScopeKind {
    /// A cell's module-level code: every name is global.
    Module,
    /// A class body: names it binds are class attributes; the others resolve
    /// through the enclosing chain.
    Class { bound: FxHashSet<String> },
    /// A function or lambda body: only names resolving to globals are kept.
    Function,
}

/// The free globals of a function: what calling it reads and changes.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct FunctionSummary {
    /// Globals (and paths under them) it may read, live at its entry.
    pub reads: SymbolSet,
    /// Globals it may bind or unbind (declared `global`).
    pub writes: SymbolSet,
    /// Globals it changes in place.
    pub mutates: SymbolSet,
    /// Of `writes` and `mutates`, those it binds or changes on every path
    /// (assuming its loops run); nested functions' effects are not here.
    #[serde(skip_serializing_if = "SymbolSet::is_empty")]
    pub always_writes: SymbolSet,
    /// Globals it calls methods of whose effect is unknown.
    pub may_mutate: SymbolSet,
    /// Parameters whose objects its own body may change in place
    /// (`p['x'] = 1`, `del p[k]`, `p.append(1)`, a method of `p` the
    /// knowledge base does not know): a call changes its arguments there.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mutated_params: Vec<Param>,
    /// It runs code nbsight cannot read (`eval(expr)`, `exec(expr)`) or
    /// reads the global namespace as a dict (`globals()`): it may read any
    /// global.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reads_namespace: bool,
    /// Builtin names it reads (left out of `reads`): a notebook may bind
    /// one (`from IPython.display import display`), and the body then reads
    /// that binding.
    #[serde(skip)]
    pub builtins: SymbolSet,
}

/// A parameter of a function, as a call passes it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Param {
    /// Its index among the positional parameters (`None`: keyword-only).
    pub position: Option<usize>,
    pub name: String,
}

impl Param {
    /// The positional and keyword-only parameters of a `def` or `lambda`.
    pub fn all_of(parameters: &ruff_python_ast::Parameters) -> Vec<Param> {
        let positional = parameters
            .posonlyargs
            .iter()
            .chain(&parameters.args)
            .enumerate()
            .map(|(i, p)| Param {
                position: Some(i),
                name: p.parameter.name.to_string(),
            });
        let keyword = parameters.kwonlyargs.iter().map(|p| Param {
            position: None,
            name: p.parameter.name.to_string(),
        });
        positional.chain(keyword).collect()
    }
}

impl FunctionSummary {
    /// Adds everything `other` does to `self` (a nested function's effects
    /// become its parent's: calling the parent may call it). `always_writes`
    /// stays: what a nested function does is not done on every call.
    pub fn absorb(&mut self, other: &FunctionSummary) {
        self.reads.extend(other.reads.iter().cloned());
        self.writes.extend(other.writes.iter().cloned());
        self.mutates.extend(other.mutates.iter().cloned());
        self.may_mutate.extend(other.may_mutate.iter().cloned());
        self.reads_namespace |= other.reads_namespace;
        self.builtins.extend(other.builtins.iter().cloned());
        for param in &other.mutated_params {
            if !self.mutated_params.contains(param) {
                self.mutated_params.push(param.clone());
            }
        }
    }
}

/// An unfinished loop: where `continue` and `break` go.
#[derive(Debug, Clone, Copy)]
struct LoopTargets {
    head: NodeId,
    exit: NodeId,
}

/// A jump out of the statement being walked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Jump {
    Return,
    Break,
    Continue,
}

/// A `try` with a `finally` whose body, `else` or handlers are being walked:
/// a jump leaving it runs the `finally` body first. The nodes each kind of
/// jump goes to are made when a jump first needs them; the `try` statement
/// then builds a copy of its `finally` body from each (as CPython does) and
/// carries on with the jump.
#[derive(Debug, Clone, Copy, Default)]
struct FinallyFrame {
    /// How many loops enclosed the `try`: `break` and `continue` of a loop
    /// opened inside it do not leave it.
    loops_depth: usize,
    returns: Option<NodeId>,
    breaks: Option<NodeId>,
    continues: Option<NodeId>,
}

impl FinallyFrame {
    fn slot(&mut self, jump: Jump) -> &mut Option<NodeId> {
        match jump {
            Jump::Return => &mut self.returns,
            Jump::Break => &mut self.breaks,
            Jump::Continue => &mut self.continues,
        }
    }
}

/// Walks one scope and builds its CFG.
pub(crate) struct ScopeBuilder<'c> {
    ctx: Context<'c>,
    kind: ScopeKind,
    /// Enclosing function scopes (and this one, for a function).
    chain: ScopeChain,
    /// Prefix for the names of functions defined here (`C.` in class `C`).
    qualname: String,
    pub(crate) cfg: Cfg,
    pub(crate) table: SymbolTable,
    /// The node the next accesses are appended to.
    current: NodeId,
    /// Positive while inside code that may not run (short-circuit operands,
    /// conditional expressions, comprehension bodies).
    conditional: u32,
    /// Names bound by the comprehensions being walked (innermost last).
    comprehension_locals: Vec<FxHashSet<String>>,
    /// Type parameters (PEP 695) in scope while walking a definition header.
    pub(crate) type_params: Vec<FxHashSet<String>>,
    /// Global names read where the scope's own bindings are invisible (a
    /// comprehension inside a class body reads the global, not the class
    /// attribute): they bypass this scope's liveness.
    pub(crate) escaping_reads: BTreeSet<Symbol>,
    loops: Vec<LoopTargets>,
    /// Where an exception raised at this point goes (innermost handler last).
    raise_targets: Vec<NodeId>,
    /// The `try ... finally` statements being walked (innermost last).
    finallies: Vec<FinallyFrame>,
    /// Replaces access ranges while walking code parsed out of a magic.
    range_override: Option<TextRange>,
    /// The next access starts a statement appended to a block.
    statement_start: bool,
    /// Name given to the next lambda (`f = lambda: ...`).
    lambda_name: Option<String>,
    pub(crate) functions: Vec<(String, FunctionSummary)>,
    /// The functions of `functions` (by qualified name) whose global reads
    /// were read where this function scope uses their name (see
    /// `nested_function_used`).
    pub(crate) read_where_used: FxHashSet<String>,
    pub(crate) imports: BTreeSet<String>,
    pub(crate) magics: BTreeSet<String>,
    /// Set when the scope runs code nbsight cannot read (`eval(expr)`,
    /// `exec(expr)`) or reads the namespace as a dict (`globals()`, and
    /// `locals()` / `vars()` at module level): it may read any global.
    pub(crate) reads_namespace: bool,
    /// Library calls that change library or interpreter state
    /// ([`crate::global_state`]), qualified.
    pub(crate) global_changes: BTreeSet<String>,
    /// The parameters of the function walked.
    pub(crate) params: Vec<Param>,
    /// Those whose objects the body may change in place.
    pub(crate) mutated_params: BTreeSet<String>,
    /// Set when a path was cut at [`crate::symbol::MAX_PATH_DEPTH`]: the
    /// symbol returned stands for a path nested in it.
    pub(crate) path_cut: bool,
    /// Buffer for the qualified name of the call being walked.
    call_name: String,
}

impl<'c> ScopeBuilder<'c> {
    pub(crate) fn new(
        ctx: Context<'c>,
        kind: ScopeKind,
        chain: ScopeChain,
        qualname: String,
    ) -> Self {
        let mut cfg = Cfg::new();
        let first = cfg.add_node(TextRange::default());
        cfg.add_edge(Cfg::ENTRY, first);
        cfg.nodes[first].open = true;
        ScopeBuilder {
            ctx,
            kind,
            chain,
            qualname,
            cfg,
            table: SymbolTable::with_capacity(16),
            current: first,
            conditional: 0,
            comprehension_locals: Vec::new(),
            type_params: Vec::new(),
            escaping_reads: BTreeSet::new(),
            loops: Vec::new(),
            raise_targets: Vec::new(),
            finallies: Vec::new(),
            range_override: None,
            statement_start: false,
            lambda_name: None,
            functions: Vec::new(),
            read_where_used: FxHashSet::default(),
            imports: BTreeSet::new(),
            magics: BTreeSet::new(),
            reads_namespace: false,
            global_changes: BTreeSet::new(),
            params: Vec::new(),
            mutated_params: BTreeSet::new(),
            path_cut: false,
            call_name: String::new(),
        }
    }

    /// Walks `body` and closes the graph.
    pub(crate) fn build(mut self, body: &[Stmt]) -> Self {
        self.reserve(body);
        self.visit_body(body);
        self.finish()
    }

    /// Connects the current node to the normal exit.
    pub(crate) fn finish(mut self) -> Self {
        let current = self.current;
        self.cfg.add_edge(current, Cfg::EXIT);
        self
    }

    // ----- nodes ---------------------------------------------------------

    /// Makes room for the nodes a body of this size usually needs.
    pub(crate) fn reserve(&mut self, body: &[Stmt]) {
        self.cfg.nodes.reserve(body.len() + 2);
    }

    /// Continues the current basic block with a simple statement, or starts
    /// a new one. Inside `try` every statement gets its own node: an exception
    /// after one statement must not look as if the next ones ran.
    fn step(&mut self, range: TextRange) -> NodeId {
        let current = self.current;
        let node = &self.cfg.nodes[current];
        if node.open && node.succ.is_empty() && self.raise_targets.is_empty() {
            self.statement_start = true;
            return current;
        }
        let node = self.begin(range);
        self.cfg.nodes[node].open = true;
        node
    }

    /// Starts a new node for a statement, reached from the current one.
    fn begin(&mut self, range: TextRange) -> NodeId {
        let node = self.cfg.add_node(range);
        let current = self.current;
        self.cfg.add_edge(current, node);
        self.enter(node);
        node
    }

    /// Makes `node` the current node; inside a `try`, an exception raised in
    /// it (or before it) reaches the handlers.
    fn enter(&mut self, node: NodeId) {
        if let Some(&target) = self.raise_targets.last() {
            self.cfg.add_edge(node, target);
        }
        self.current = node;
    }

    /// A node nothing reaches (code after `return`, `raise`, `break`...).
    fn unreachable(&mut self) {
        self.current = self.cfg.add_node(TextRange::default());
    }

    /// A join point (no accesses) after the given nodes.
    fn join(&mut self, from: &[NodeId]) -> NodeId {
        let node = self.cfg.add_node(TextRange::default());
        for &pred in from {
            self.cfg.add_edge(pred, node);
        }
        node
    }

    /// Leaves the current node by `jump`: through the innermost `finally`
    /// the jump leaves, else to its target (the exit, or the innermost
    /// loop's exit or head).
    fn jump(&mut self, jump: Jump) {
        let current = self.current;
        let depth = self.loops.len();
        let through_finally = self
            .finallies
            .last()
            .is_some_and(|frame| jump == Jump::Return || frame.loops_depth == depth);
        let target = if through_finally {
            let existing = self.finallies.last_mut().and_then(|f| *f.slot(jump));
            match existing {
                Some(entry) => Some(entry),
                None => {
                    let entry = self.cfg.add_node(TextRange::default());
                    if let Some(frame) = self.finallies.last_mut() {
                        *frame.slot(jump) = Some(entry);
                    }
                    Some(entry)
                }
            }
        } else {
            match jump {
                Jump::Return => Some(Cfg::EXIT),
                Jump::Break => self.loops.last().map(|l| l.exit),
                Jump::Continue => self.loops.last().map(|l| l.head),
            }
        };
        if let Some(target) = target {
            self.cfg.add_edge(current, target);
        }
    }

    fn raise_target(&self) -> NodeId {
        self.raise_targets.last().copied().unwrap_or(Cfg::RAISE)
    }

    // ----- accesses ------------------------------------------------------

    /// `true` when accesses to `name` belong in this scope's graph.
    fn tracks(&self, name: &str) -> bool {
        if self
            .comprehension_locals
            .iter()
            .chain(&self.type_params)
            .any(|locals| locals.contains(name))
        {
            return false;
        }
        match &self.kind {
            ScopeKind::Module => true,
            ScopeKind::Class { bound } => {
                bound.contains(name) || self.chain.resolve(name) == Resolution::Global
            }
            ScopeKind::Function => self.chain.resolve(name) == Resolution::Global,
        }
    }

    /// Records an access in the current node; returns the symbol's id.
    fn emit(&mut self, symbol: &str, kind: AccessKind, range: TextRange) -> SymId {
        self.emit_in(symbol, Lineage::Unknown, kind, range)
    }

    /// [`ScopeBuilder::emit`] for a plain name (an identifier).
    fn emit_name(&mut self, name: &str, kind: AccessKind, range: TextRange) -> SymId {
        self.emit_in(name, Lineage::Root, kind, range)
    }

    /// [`ScopeBuilder::emit`] for a symbol whose place among the paths is
    /// known.
    fn emit_in(
        &mut self,
        symbol: &str,
        lineage: Lineage,
        kind: AccessKind,
        range: TextRange,
    ) -> SymId {
        let id = self.table.intern_in(symbol, lineage);
        self.emit_access(id, kind, range, false);
        id
    }

    /// Records an access; `implied` marks the in-place change of an object
    /// that only reflects a change of a path nested in it.
    fn emit_access(&mut self, symbol: SymId, kind: AccessKind, range: TextRange, implied: bool) {
        let range = self.range_override.unwrap_or(range);
        let current = self.current;
        let node = &mut self.cfg.nodes[current];
        let starts_statement =
            std::mem::take(&mut self.statement_start) || node.accesses.is_empty();
        // A node that outgrows its inline room usually holds a run of
        // statements: room for 16 at once, not doubling from 2.
        if !node.accesses.spilled() && node.accesses.len() == node.accesses.inline_size() {
            node.accesses.reserve(16 - node.accesses.len());
        }
        node.accesses.push(Access {
            symbol,
            kind,
            starts_statement,
            implied,
            range,
        });
    }

    /// Records an in-place change of `symbol` and of every path it is nested
    /// in (changing `df.col` changes `df`; those are marked `implied`).
    fn emit_mutation(&mut self, symbol: &str, kind: AccessKind, range: TextRange) {
        let id = self.emit(symbol, kind, range);
        self.emit_parent_mutations(id, kind, range);
    }

    /// Records the implied in-place change of every path `symbol` is nested
    /// in, after an access to `symbol` itself.
    fn emit_parent_mutations(&mut self, symbol: SymId, kind: AccessKind, range: TextRange) {
        let mut part = self.table.parent(symbol);
        while let Some(current) = part {
            self.emit_access(current, kind, range, true);
            part = self.table.parent(current);
        }
    }

    /// The kind of a binding at this point.
    fn write_kind(&self) -> AccessKind {
        if self.conditional > 0 {
            AccessKind::MayWrite
        } else {
            AccessKind::Write
        }
    }

    /// Notes a change in place of the object `expr` (a path) starts with,
    /// when that is a parameter of the function walked.
    fn note_param_change(&mut self, expr: &ruff_python_ast::Expr) {
        use ruff_python_ast::Expr;
        if self.params.is_empty() {
            return;
        }
        let mut root = expr;
        loop {
            match root {
                Expr::Attribute(attr) => root = &attr.value,
                Expr::Subscript(sub) => root = &sub.value,
                _ => break,
            }
        }
        if let Expr::Name(name) = root
            && !self.tracks(name.id.as_str())
            && self.params.iter().any(|p| p.name == name.id.as_str())
        {
            self.mutated_params.insert(name.id.to_string());
        }
    }

    /// Records a function summary produced by a nested scope.
    fn add_function(&mut self, name: &str, summary: FunctionSummary) {
        let qualified = format!("{}{}", self.qualname, name);
        self.functions.push((qualified, summary));
    }
}

impl ScopeBuilder<'_> {
    /// Walks a lambda's body expression and closes the graph.
    pub(crate) fn build_expr(mut self, body: &ruff_python_ast::Expr) -> Self {
        use ruff_python_ast::visitor::Visitor;
        use ruff_text_size::Ranged;
        self.begin(body.range());
        self.visit_expr(body);
        self.finish()
    }

    /// Adds a final node binding `name` (e.g. the variable `%%capture out`
    /// stores its output in).
    pub(crate) fn bind_at_end(&mut self, name: &str) {
        self.begin(TextRange::default());
        if self.tracks(name) {
            self.emit(name, AccessKind::Write, TextRange::default());
        }
    }
}
