//! A cell compiled for the abstract domains: the reachable basic blocks of its
//! CFG in reverse post-order (`nbsight-dataflow`'s [`Order`], the walk its
//! solvers use), each a run of statements, each statement the
//! notebook variables it reads and writes and the role-carrying calls it
//! makes. Built once per cell source and cached (see `model`).

use std::ops::Range;

use compact_str::CompactString;
use nbsight_dataflow::access::AccessKind;
use nbsight_dataflow::cfg::Cfg;
use nbsight_dataflow::cfg::NodeId;
use nbsight_dataflow::effects::Role;
use nbsight_dataflow::index::IndexVec;
use nbsight_dataflow::solve::Order;
use nbsight_dataflow::symbol::{SymId, root};
use nbsight_dataflow::{ModuleAnalysis, Operand};
use nbsight_notebook::{OneIndexed, ParsedCell};
use ruff_text_size::TextRange;
use smallvec::SmallVec;

use crate::vars::{Var, VarSet, Vars};

/// How a statement writes a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteKind {
    /// Rebinds the name on this path (the old value is gone).
    Strong,
    /// May rebind it, or changes part of it in place.
    Weak,
    /// Unbinds it (`del`).
    Delete,
}

/// What a call operand is, in notebook variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// A variable (the root of the path passed).
    Var(Var),
    /// The result of an earlier call of the same statement (index into
    /// [`Program::calls`]).
    Call(u32),
    /// Other code, reading these variables.
    Reads(SmallVec<[Var; 2]>),
}

/// The keyword [`Call::keywords`] holds for a `**kwargs` argument.
pub const UNPACKED: &str = "**";

/// A call with an ML or I/O role.
#[derive(Debug, Clone)]
pub struct Call {
    pub callee: CompactString,
    pub method: bool,
    pub roles: SmallVec<[Role; 2]>,
    pub receiver: Op,
    /// The receiver is an attribute of a variable (`search.best_estimator_`
    /// in `search.best_estimator_.fit(X, y)`), not the variable's object:
    /// what the variable is (a CV search) says nothing of what it holds.
    pub receiver_attribute: bool,
    /// The receiver is a slice of a variable's object (`pipe[:-1]` in
    /// `pipe[:-1].fit(X)`, any index not a constant): some of its parts.
    pub receiver_slice: bool,
    /// Positional and keyword arguments (data the call consumes).
    pub args: SmallVec<[Op; 3]>,
    /// How many of `args` are positional (the first ones); the rest are
    /// keyword values, `**kwargs` included.
    pub positional: u32,
    /// `random_state=` / `inplace=`... passed (keyword names), one per
    /// keyword argument, in order: [`UNPACKED`] for a `**kwargs`.
    pub keywords: SmallVec<[CompactString; 1]>,
    pub first_str: Option<CompactString>,
    /// The result is an operand of a later call of the statement.
    pub consumed: bool,
    /// A class constructor (`StandardScaler`, `GridSearchCV`) rather than a
    /// function (`cross_val_score`): its roles describe the object made.
    pub constructor: bool,
    /// A call of a name the notebook binds (a user function): no roles;
    /// what it does is its definition's.
    pub user: bool,
    pub line: OneIndexed,
    pub column: OneIndexed,
}

impl Op {
    /// The variables it reads directly (none for an earlier call's result).
    pub fn vars(&self) -> &[Var] {
        match self {
            Op::Var(v) => std::slice::from_ref(v),
            Op::Reads(vs) => vs,
            Op::Call(_) => &[],
        }
    }
}

impl Call {
    pub fn has(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }
}

/// One statement (or the header of a compound one).
#[derive(Debug, Clone, Default)]
pub struct Stmt {
    /// Variables read (deduplicated, in first-read order).
    pub reads: SmallVec<[Var; 4]>,
    /// Variables read outside every recorded call.
    pub free_reads: SmallVec<[Var; 4]>,
    /// Variables written, in order.
    pub writes: SmallVec<[(Var, WriteKind); 2]>,
    /// The statement's recorded calls (indices into [`Program::calls`]).
    pub calls: Range<u32>,
    pub line: OneIndexed,
    pub column: OneIndexed,
}

/// A basic block: a run of statements.
#[derive(Debug, Clone)]
pub struct Block {
    /// Predecessor blocks (indices into [`Program::blocks`]).
    pub preds: SmallVec<[u32; 2]>,
    pub stmts: Range<u32>,
    /// Inside a loop.
    pub in_loop: bool,
}

/// A compiled cell.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// Reachable blocks in reverse post-order; block 0 is the entry.
    pub blocks: Vec<Block>,
    /// No loops: one pass in block order computes the cell's effect.
    pub acyclic: bool,
    /// The normal exit's block, when reachable.
    pub exit: Option<u32>,
    /// The exceptional exit's block, when reachable.
    pub raise: Option<u32>,
    pub stmts: Vec<Stmt>,
    pub calls: Vec<Call>,
    /// Variables every path to the run's end binds (see [`Program::end`]):
    /// whatever they held before, they hold what the cell computes.
    pub rebound: VarSet,
    /// Some statement deletes a name.
    pub deletes: bool,
}

impl Program {
    /// Statement `stmt` (an index into [`Program::stmts`]) is in a loop.
    pub fn stmt_in_loop(&self, stmt: usize) -> bool {
        self.blocks
            .iter()
            .any(|b| b.in_loop && b.stmts.contains(&(stmt as u32)))
    }

    /// The block whose state a run ends in: the normal exit, else the
    /// exceptional one (`None`: the run changes nothing).
    pub fn end(&self) -> Option<u32> {
        self.exit.or(self.raise)
    }

    /// The variables that every path to [`Program::end`] writes with a
    /// write of a kind `counts` (a must-analysis over the blocks).
    pub fn written_on_every_path(&self, counts: impl Fn(WriteKind) -> bool) -> VarSet {
        let Some(end) = self.end() else {
            return VarSet::new();
        };
        let mut all = VarSet::new();
        for stmt in &self.stmts {
            for &(v, kind) in &stmt.writes {
                if counts(kind) {
                    all.insert(v);
                }
            }
        }
        // out[b] = (∩ out[preds]) ∪ what b writes, from ⊤ = `all`.
        let mut out: Vec<VarSet> = vec![all; self.blocks.len()];
        loop {
            let mut changed = false;
            for (b, block) in self.blocks.iter().enumerate() {
                let mut set = VarSet::new();
                if b != 0 {
                    let mut preds = block.preds.iter().map(|&p| &out[p as usize]);
                    if let Some(first) = preds.next() {
                        set.clone_from(first);
                        for other in preds {
                            set.intersect_with(other);
                        }
                    }
                }
                for stmt in &self.stmts[block.stmts.start as usize..block.stmts.end as usize] {
                    for &(v, kind) in &stmt.writes {
                        if counts(kind) {
                            set.insert(v);
                        }
                    }
                }
                if !set.same(&out[b]) {
                    out[b] = set;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        out.swap_remove(end as usize)
    }

    /// Compiles a cell's module-level CFG.
    pub fn compile(analysis: &ModuleAnalysis, parsed: &ParsedCell, vars: &mut Vars) -> Program {
        let cfg = &analysis.cfg;
        let walk = Order::of(cfg);
        let (order, back_edges) = (walk.reachable_rpo(), &walk.back_edges);
        let mut block_of: IndexVec<NodeId, u32> = IndexVec::from_elem_n(u32::MAX, cfg.len());
        for (i, &node) in order.iter().enumerate() {
            block_of[node] = i as u32;
        }
        let mut program = Program {
            acyclic: back_edges.is_empty(),
            ..Program::default()
        };
        // Each back edge's natural loop: its header and the blocks that
        // reach its source without passing through the header (not an
        // interval of the order, which may hold code after the loop).
        let mut in_loop = vec![false; order.len()];
        // The back edge whose loop last visited each block (0: none yet).
        let mut seen = vec![0usize; order.len()];
        let mut stack = Vec::new();
        for (edge, &(from, to)) in back_edges.iter().enumerate() {
            let stamp = edge + 1;
            if block_of[to] == u32::MAX {
                continue;
            }
            in_loop[block_of[to] as usize] = true;
            seen[block_of[to] as usize] = stamp;
            stack.push(from);
            while let Some(node) = stack.pop() {
                let b = block_of[node];
                if b == u32::MAX || seen[b as usize] == stamp {
                    continue;
                }
                seen[b as usize] = stamp;
                in_loop[b as usize] = true;
                stack.extend(cfg.nodes[node].pred.iter().copied());
            }
        }
        // Calls of each node, in evaluation order.
        let mut calls_by_node: IndexVec<NodeId, SmallVec<[usize; 1]>> =
            IndexVec::from_elem_n(SmallVec::new(), cfg.len());
        for (i, call) in cfg.calls.iter().enumerate() {
            if block_of[call.node] != u32::MAX {
                calls_by_node[call.node].push(i);
            }
        }
        // Maps the CFG's call indices to the program's.
        let mut call_index = vec![u32::MAX; cfg.calls.len()];
        let mut compiler = StmtCompiler {
            analysis,
            parsed,
            vars,
            program: &mut program,
            call_index: &mut call_index,
            roots: IndexVec::from_elem_n(None, analysis.table.len()),
        };
        let mut blocks = Vec::with_capacity(order.len());
        for (b, &node) in order.iter().enumerate() {
            let first = compiler.program.stmts.len() as u32;
            compiler.node(node, &calls_by_node[node]);
            let preds = cfg.nodes[node]
                .pred
                .iter()
                .filter(|&&p| block_of[p] != u32::MAX)
                .map(|&p| block_of[p])
                .collect();
            blocks.push(Block {
                preds,
                stmts: first..compiler.program.stmts.len() as u32,
                in_loop: in_loop[b],
            });
        }
        program.blocks = blocks;
        program.exit = (block_of[Cfg::EXIT] != u32::MAX).then_some(block_of[Cfg::EXIT]);
        program.raise = (block_of[Cfg::RAISE] != u32::MAX).then_some(block_of[Cfg::RAISE]);
        program.rebound = program.written_on_every_path(|kind| kind == WriteKind::Strong);
        program.deletes = program
            .stmts
            .iter()
            .any(|s| s.writes.iter().any(|&(_, kind)| kind == WriteKind::Delete));
        program
    }

    /// The line and column of the first statement reading a variable of `set`.
    pub fn first_read(&self, set: &VarSet) -> Option<(OneIndexed, OneIndexed)> {
        self.stmts
            .iter()
            .find(|s| s.reads.iter().any(|&v| set.contains(v)))
            .map(|s| (s.line, s.column))
    }

    /// The line and column of the first statement writing `var`.
    pub fn first_write(&self, var: Var) -> Option<(OneIndexed, OneIndexed)> {
        self.stmts
            .iter()
            .find(|s| s.writes.iter().any(|&(v, _)| v == var))
            .map(|s| (s.line, s.column))
    }
}

struct StmtCompiler<'a> {
    analysis: &'a ModuleAnalysis,
    parsed: &'a ParsedCell,
    vars: &'a mut Vars,
    program: &'a mut Program,
    call_index: &'a mut [u32],
    /// Each symbol's root variable and whether it is that root, once met.
    roots: IndexVec<SymId, Option<(Var, bool)>>,
}

impl StmtCompiler<'_> {
    /// The root variable of symbol `symbol` (interned when first met) and
    /// whether the symbol is the root itself.
    fn root_of(&mut self, symbol: SymId) -> (Var, bool) {
        let slot = &mut self.roots[symbol];
        *slot.get_or_insert_with(|| {
            let name = self.analysis.table.name(symbol);
            let root = root(name);
            (self.vars.intern(root), name.len() == root.len())
        })
    }

    /// Splits a node into statements.
    fn node(&mut self, node: NodeId, calls: &[usize]) {
        let accesses = &self.analysis.cfg.nodes[node].accesses;
        let mut pending_calls = calls.iter().peekable();
        let mut start: Option<usize> = None; // first access of the open statement
        let mut stmt_calls: Vec<usize> = Vec::new();
        let mut opened_by_call = false;
        for i in 0..=accesses.len() {
            while let Some(&&c) = pending_calls.peek() {
                let site = &self.analysis.cfg.calls[c];
                if site.at as usize != i {
                    break;
                }
                if site.new_statement && (start.is_some_and(|s| s < i) || !stmt_calls.is_empty()) {
                    self.finish(node, start.unwrap_or(i), i, &stmt_calls);
                    start = None;
                    stmt_calls.clear();
                }
                if site.new_statement {
                    opened_by_call = true;
                }
                stmt_calls.push(c);
                pending_calls.next();
            }
            if i == accesses.len() {
                break;
            }
            let access = &accesses[i];
            if access.starts_statement && !(opened_by_call && start.is_none()) {
                if start.is_some() || !stmt_calls.is_empty() {
                    self.finish(node, start.unwrap_or(i), i, &stmt_calls);
                    stmt_calls.clear();
                }
                start = Some(i);
            } else if start.is_none() {
                start = Some(i);
            }
            opened_by_call = false;
        }
        if start.is_some() || !stmt_calls.is_empty() {
            let end = accesses.len();
            self.finish(node, start.unwrap_or(end), end, &stmt_calls);
        }
    }

    /// Adds the statement made of accesses `from..to` of `node` and `calls`.
    fn finish(&mut self, node: NodeId, from: usize, to: usize, calls: &[usize]) {
        let analysis = self.analysis;
        let accesses = &analysis.cfg.nodes[node].accesses[from..to];
        let call_ranges: SmallVec<[TextRange; 2]> =
            calls.iter().map(|&c| analysis.cfg.calls[c].range).collect();
        let metadata = metadata_ranges(analysis, accesses);
        let mut stmt = Stmt::default();
        for access in accesses {
            let (var, is_root) = self.root_of(access.symbol);
            match access.kind {
                AccessKind::Read | AccessKind::BaseRead => {
                    if !stmt.reads.contains(&var) {
                        stmt.reads.push(var);
                    }
                    let inside = call_ranges.iter().any(|r| r.contains_range(access.range));
                    let metadata = metadata.iter().any(|r| r.contains_range(access.range));
                    if !inside && !metadata && !stmt.free_reads.contains(&var) {
                        stmt.free_reads.push(var);
                    }
                }
                AccessKind::Write if is_root => stmt.writes.push((var, WriteKind::Strong)),
                AccessKind::Delete if is_root => stmt.writes.push((var, WriteKind::Delete)),
                _ => {
                    if !stmt.writes.iter().any(|&(v, _)| v == var) {
                        stmt.writes.push((var, WriteKind::Weak));
                    }
                }
            }
        }
        let first_call = self.program.calls.len() as u32;
        for &c in calls {
            self.call_index[c] = self.program.calls.len() as u32;
            let call = self.call(c, accesses);
            self.program.calls.push(call);
        }
        let strong = stmt
            .writes
            .iter()
            .filter(|(_, kind)| *kind == WriteKind::Strong)
            .count();
        if calls.is_empty() && strong >= 2 {
            self.slice_split(&mut stmt, accesses);
        }
        stmt.calls = first_call..self.program.calls.len() as u32;
        let offset = accesses
            .first()
            .map(|a| a.range.start())
            .into_iter()
            .chain(calls.first().map(|&c| analysis.cfg.calls[c].range.start()))
            .min()
            .unwrap_or_default();
        (stmt.line, stmt.column) = self.parsed.line_column(offset);
        self.program.stmts.push(stmt);
    }

    /// `X_train, X_test = X[:n], X[n:]`: a call with the `split` role on the
    /// data sliced, and the targets ordered train, held-out per data (the
    /// order a split's targets have).
    fn slice_split(&mut self, stmt: &mut Stmt, accesses: &[nbsight_dataflow::access::Access]) {
        let Some(first) = accesses.first() else {
            return;
        };
        let Some(split) =
            crate::slice_split::slice_split_at(&self.parsed.module.body, first.range.start())
        else {
            return;
        };
        let mut ordered: SmallVec<[(Var, WriteKind); 2]> = SmallVec::new();
        for (train, test) in &split.pairs {
            for name in [train, test] {
                let var = self.vars.intern(name);
                if !stmt.writes.contains(&(var, WriteKind::Strong)) {
                    return;
                }
                ordered.push((var, WriteKind::Strong));
            }
        }
        for &write in &stmt.writes {
            if !ordered.contains(&write) {
                ordered.push(write);
            }
        }
        stmt.writes = ordered;
        let args = split
            .bases
            .iter()
            .map(|base| Op::Var(self.vars.intern(base)))
            .collect();
        let (line, column) = self.parsed.line_column(split.at);
        let positional = split.bases.len() as u32;
        self.program.calls.push(Call {
            callee: CompactString::const_new("slicing"),
            method: false,
            roles: SmallVec::from_slice(&[Role::Split]),
            receiver: Op::Reads(SmallVec::new()),
            receiver_attribute: false,
            receiver_slice: false,
            args,
            positional,
            keywords: SmallVec::new(),
            first_str: None,
            consumed: false,
            constructor: false,
            user: false,
            line,
            column,
        });
    }

    fn call(&mut self, c: usize, accesses: &[nbsight_dataflow::access::Access]) -> Call {
        let site = &self.analysis.cfg.calls[c];
        let receiver = self.op(&site.receiver, accesses);
        let receiver_attribute = matches!(&site.receiver, Operand::Symbol(symbol) if root(symbol).len() < symbol.len() && symbol.as_bytes().get(root(symbol).len()) == Some(&b'.'));
        let receiver_slice = matches!(&site.receiver, Operand::Symbol(symbol) if symbol.strip_prefix(root(symbol)) == Some(nbsight_dataflow::symbol::ANY_INDEX))
            && self
                .parsed
                .source()
                .get(usize::from(site.range.start())..usize::from(site.range.end()))
                .is_some_and(indexes_by_slice);
        let positional = site.args.len() as u32;
        let args = site
            .args
            .iter()
            .chain(site.keywords.iter().map(|(_, v)| v))
            .map(|operand| self.op(operand, accesses))
            .collect();
        let (line, column) = self.parsed.line_column(site.range.start());
        let constructor = is_constructor(&site.callee, &site.roles);
        Call {
            callee: site.callee.clone(),
            method: site.method,
            roles: site.roles.clone(),
            receiver,
            receiver_attribute,
            receiver_slice,
            args,
            positional,
            keywords: site
                .keywords
                .iter()
                .map(|(k, _)| k.clone().unwrap_or_else(|| UNPACKED.into()))
                .collect(),
            first_str: site.first_str.clone(),
            consumed: false,
            constructor,
            user: site.user,
            line,
            column,
        }
    }

    fn op(&mut self, operand: &Operand, accesses: &[nbsight_dataflow::access::Access]) -> Op {
        match operand {
            Operand::Symbol(symbol) if is_metadata(symbol) => Op::Reads(SmallVec::new()),
            Operand::Symbol(symbol) => Op::Var(self.vars.intern(root(symbol))),
            Operand::Call(c) => {
                let index = self.call_index[*c as usize];
                if let Some(call) = self.program.calls.get_mut(index as usize) {
                    call.consumed = true;
                    Op::Call(index)
                } else {
                    Op::Reads(SmallVec::new())
                }
            }
            Operand::Other(range) => {
                let metadata = metadata_ranges(self.analysis, accesses);
                let mut reads: SmallVec<[Var; 2]> = SmallVec::new();
                for access in accesses {
                    if access.kind.is_read()
                        && range.contains_range(access.range)
                        && !metadata.iter().any(|r| r.contains_range(access.range))
                    {
                        let (var, _) = self.root_of(access.symbol);
                        if !reads.contains(&var) {
                            reads.push(var);
                        }
                    }
                }
                Op::Reads(reads)
            }
        }
    }
}

/// The ranges of the metadata reads among `accesses` ([`is_metadata`]):
/// the reads of the variable itself inside them (`X_train` in
/// `X_train.columns`) read no rows either.
fn metadata_ranges(
    analysis: &ModuleAnalysis,
    accesses: &[nbsight_dataflow::access::Access],
) -> SmallVec<[TextRange; 1]> {
    accesses
        .iter()
        .filter(|a| a.kind.is_read() && is_metadata(analysis.table.name(a.symbol)))
        .map(|a| a.range)
        .collect()
}

/// A read of what data looks like rather than of its values
/// (`X_train.columns`, `X.shape[0]`, `df.dtypes`): the statement reads the
/// variable (a dependency) but none of its rows flow into what it computes.
fn is_metadata(symbol: &str) -> bool {
    let rest = &symbol[root(symbol).len()..];
    let attr = rest
        .strip_prefix('.')
        .map_or("", |r| r.split(['.', '[']).next().unwrap_or(r));
    let after = &rest[(attr.len() + 1).min(rest.len())..];
    matches!(
        attr,
        "columns" | "shape" | "dtypes" | "dtype" | "ndim" | "feature_names_in_" | "n_features_in_"
    ) && (after.is_empty() || after.starts_with('['))
}

/// A class constructor (`StandardScaler`, `GridSearchCV`), not a function
/// (`cross_val_score`): constructor roles describe the object made.
fn is_constructor(callee: &str, roles: &[Role]) -> bool {
    let name = callee.rsplit('.').next().unwrap_or(callee);
    let constructor_role = roles.iter().any(|r| {
        matches!(
            r,
            Role::Transformer
                | Role::Sampler
                | Role::Pipeline
                | Role::CrossValidate
                | Role::Stateless
        )
    });
    constructor_role
        && (name.starts_with(|c: char| c.is_ascii_uppercase()) || name.starts_with("make_"))
}

/// The text of a method call on an element of a name (`pipe[:-1].fit(X)`)
/// indexes it by a slice: a `:` inside the brackets that follow the name
/// (`models[name].fit(X)` indexes by a key).
fn indexes_by_slice(text: &str) -> bool {
    let Some(open) = text.find('[') else {
        return false;
    };
    let mut depth = 0usize;
    for c in text[open..].chars() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return false;
                }
            }
            ':' if depth == 1 => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn metadata_reads() {
        for symbol in [
            "X.columns",
            "X.shape",
            "X.shape[0]",
            "df.dtypes",
            "m.feature_names_in_",
        ] {
            assert!(super::is_metadata(symbol), "{symbol}");
        }
        for symbol in [
            "X",
            "X.values",
            "X.columns.str",
            "df.index",
            "X[cols]",
            "X.col.shape",
        ] {
            assert!(!super::is_metadata(symbol), "{symbol}");
        }
    }

    #[test]
    fn a_slice_index_is_told_from_a_key() {
        assert!(super::indexes_by_slice("pipe[:-1].fit(X)"));
        assert!(super::indexes_by_slice("pipe[1:].fit(X)"));
        assert!(!super::indexes_by_slice("models[name].fit(X)"));
        assert!(!super::indexes_by_slice("models[f(a, b)].fit(X)"));
        assert!(!super::indexes_by_slice("models[name].fit(X[:, 1:])"));
    }

    /// A statement is in a loop when it is in a loop's body, not when it
    /// comes between a loop's header and its last block in some order of
    /// the blocks (the code after a loop whose body branches).
    #[test]
    fn only_the_bodies_of_loops_are_in_loops() {
        use crate::NotebookModel;
        use crate::testing::notebook;
        use nbsight_dataflow::Effects;
        let src = "for g in [1, 2]:\n    for c in [3, 4]:\n        if c > g:\n            best = c\n    after_inner = g\nfinal = best\nagain = final";
        let model = NotebookModel::new(&notebook(&[src]), &Effects::builtin());
        let program = model.cells[0].program().expect("compiled");
        let in_loop = |name: &str| {
            let v = model.vars.get(name).expect(name);
            let at = program
                .stmts
                .iter()
                .position(|s| s.writes.iter().any(|&(w, _)| w == v))
                .expect("bound");
            program.stmt_in_loop(at)
        };
        assert!(in_loop("best"));
        assert!(in_loop("after_inner"));
        assert!(!in_loop("final"));
        assert!(!in_loop("again"));
    }
}
