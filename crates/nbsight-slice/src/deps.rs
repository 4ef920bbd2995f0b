//! Statement-level dependences of a notebook run top to bottom once.
//!
//! Each cell's control-flow graph (`nbsight-dataflow`: accesses in
//! evaluation order, field-granular symbols, library effects applied) is
//! re-read access by access and every access is attributed to its statement
//! ([`Layout::unit_at`]). Reaching definitions then run over the cells in
//! notebook order, the state at a cell's exit flowing into the next cell's
//! entry, one fixpoint per cell (one pass when the cell has no loop). A
//! statement depends on every statement whose definition may reach one of its
//! reads ([`Paths::reaches`]).
//!
//! Definitions are bindings, `del` (which also reads what it deletes: it
//! must exist), in-place changes (`lst.append`,
//! `df.dropna(inplace=True)`, `lst[3] = 1`) and perhaps-changes (a method the
//! knowledge base does not know); only a binding or `del` of a path replaces
//! the older definitions of it and of the paths nested in it. Refinements:
//! - the in-place change of `lst` implied by `lst[3] = 1` is not a definition
//!   of its own (the write of `lst[3]` already changes `lst` as a whole),
//!   except after `del lst[0]` (the items after it move) or through an
//!   attribute the notebook never assigns, which is a view of its object
//!   (`df.loc[0, 'a'] = 1` changes `df`; `columns` and `index` are never
//!   data fields);
//! - reading such an attribute (`df.shape`, `df.loc`) reads its whole object;
//! - a read of a user function or class also reads and changes what calling
//!   it does (the model's `FunctionsByName`), and a call `f(train)` changes
//!   `train` when `f`'s body changes that parameter in place;
//! - an in-place change of a name perhaps changes its aliases
//!   ([`nbsight_model::aliases`]);
//! - a read nothing in the notebook defines on some path (a name from
//!   `from m import *` or `%run`) depends on the statements that may bind
//!   names nbsight cannot see before it.
//!
//! Control dependences are added at the end: a statement depends on the
//! compound statement it is nested in; a loop (or `try`) on the `break` and
//! `continue` (or `raise`) statements aimed at it.

use fixedbitset::FixedBitSet;
use nbsight_dataflow::access::AccessKind;
use nbsight_dataflow::builtins::is_builtin;
use nbsight_dataflow::cfg::{Cfg, NodeId};
use nbsight_dataflow::index::IndexVec;
use nbsight_dataflow::solve::Order;
use nbsight_dataflow::symbol::SymId;
use rustc_hash::{FxHashMap, FxHashSet};

use nbsight_model::{Compiled, FunctionsByName};

use super::path::Paths;
use super::units::{Layout, UnitId};
use nbsight_model::aliases::Aliases;

/// Attributes that are never data fields, even when assigned: a pandas
/// frame's `columns` and `index` name all of its items (`df.columns = [...]`
/// renames every column; adding a column changes `df.columns`).
const STRUCTURE: &[&str] = &["columns", "index"];

/// The unit of the definitions that hold before the notebook runs.
const BEFORE: UnitId = UnitId::MAX;

#[derive(Debug, Clone, Copy)]
enum Op {
    /// `whole`: the value itself is used, not only a way to a nested path.
    Read { whole: bool },
    /// `kill`: replaces the older values (a binding or `del`).
    Def { kill: bool, site: u32 },
}

#[derive(Debug, Clone, Copy)]
struct Acc {
    sym: SymId,
    op: Op,
    unit: UnitId,
}

#[derive(Debug, Clone, Copy)]
struct Site {
    unit: UnitId,
    sym: SymId,
}

/// What the slicer queries.
#[derive(Debug, Clone)]
pub(crate) struct Dependences {
    /// The units each unit depends on (sorted, without itself).
    pub deps: Vec<Vec<UnitId>>,
    /// Units that bind or change something.
    pub defines: FixedBitSet,
}

/// Computes the dependences of every unit of `layout`; `analyses[c]` is the
/// dataflow of cell `c` (its CFG and symbols) when it is a Python cell that
/// parsed.
pub(crate) fn dependences(
    layout: &Layout,
    analyses: &[Option<&Compiled>],
    functions: &FunctionsByName,
) -> Dependences {
    let n_units = layout.units.len();
    let mut builder = Builder {
        layout,
        functions,
        paths: Paths::default(),
        fields: FixedBitSet::new(),
        aliases: Aliases::default(),
        called: FxHashSet::default(),
        sites: Vec::new(),
        defines: FixedBitSet::with_capacity(n_units),
    };
    builder.find_fields(analyses);
    builder.find_aliases();
    let flows: Vec<Option<IndexVec<NodeId, Vec<Acc>>>> = analyses
        .iter()
        .enumerate()
        .map(|(cell, a)| a.as_ref().map(|a| builder.translate(cell, a)))
        .collect();
    let Builder {
        paths,
        fields,
        mut sites,
        defines,
        ..
    } = builder;

    // The value each name has before the notebook runs (unbound).
    let mut before = Vec::new();
    for sym in paths.table.ids() {
        if paths.is_root(sym) {
            before.push(sites.len() as u32);
            sites.push(Site { unit: BEFORE, sym });
        }
    }
    let mut root_sites: IndexVec<SymId, Vec<u32>> = IndexVec::from_elem_n(Vec::new(), paths.len());
    for (i, site) in sites.iter().enumerate() {
        root_sites[paths.root(site.sym)].push(i as u32);
    }
    let mut kills: FxHashMap<SymId, Vec<u32>> = FxHashMap::default();
    for accs in flows.iter().flatten().flatten() {
        for acc in accs {
            if let Op::Def { kill: true, .. } = acc.op {
                kills.entry(acc.sym).or_insert_with(|| {
                    root_sites[paths.root(acc.sym)]
                        .iter()
                        .copied()
                        .filter(|&s| paths.replaces(acc.sym, sites[s as usize].sym))
                        .collect()
                });
            }
        }
    }
    let unknown: Vec<UnitId> = (0..n_units as UnitId)
        .filter(|&u| layout.unit(u).unknown_defs)
        .collect();

    let mut solver = Solver {
        paths: &paths,
        fields: &fields,
        sites: &sites,
        root_sites: &root_sites,
        kills: &kills,
        unknown: &unknown,
        deps: vec![Vec::new(); n_units],
    };
    let mut state = FixedBitSet::with_capacity(sites.len());
    for &site in &before {
        state.insert(site as usize);
    }
    let mut outs: IndexVec<NodeId, FixedBitSet> = IndexVec::new();
    for (analysis, flow) in analyses.iter().zip(&flows) {
        if let (Some(analysis), Some(flow)) = (analysis, flow) {
            state = solver.cell(&analysis.cfg, flow, state, &mut outs);
        }
    }

    let mut deps = solver.deps;
    for (id, unit) in layout.units.iter().enumerate() {
        if let Some(parent) = unit.parent {
            deps[id].push(parent);
        }
        if let Some(target) = unit.jump_target {
            deps[target as usize].push(id as UnitId);
        }
    }
    for (id, list) in deps.iter_mut().enumerate() {
        list.sort_unstable();
        list.dedup();
        list.retain(|&u| u != id as UnitId);
    }
    Dependences { deps, defines }
}

struct Builder<'a> {
    layout: &'a Layout,
    functions: &'a FunctionsByName,
    paths: Paths,
    /// Attributes the notebook assigns or deletes (data fields); the others
    /// are views or computed from their object.
    fields: FixedBitSet,
    aliases: Aliases,
    /// (unit, function) pairs whose argument changes are recorded.
    called: FxHashSet<(UnitId, SymId)>,
    sites: Vec<Site>,
    defines: FixedBitSet,
}

impl Builder<'_> {
    /// Groups the names that may refer to the same objects.
    fn find_aliases(&mut self) {
        let paths = &mut self.paths;
        self.aliases = Aliases::build(&self.layout.aliases, |name| paths.intern(name));
    }

    /// Marks the attributes some statement binds or deletes.
    fn find_fields(&mut self, analyses: &[Option<&Compiled>]) {
        for analysis in analyses.iter().flatten() {
            for node in &analysis.cfg.nodes {
                for access in &node.accesses {
                    let binds = matches!(
                        access.kind,
                        AccessKind::Write | AccessKind::MayWrite | AccessKind::Delete
                    );
                    if binds {
                        let sym = self.paths.intern(analysis.table.name(access.symbol));
                        let structure = self
                            .paths
                            .attr_name(sym)
                            .is_some_and(|name| STRUCTURE.contains(&name));
                        if self.paths.is_attr(sym) && !structure {
                            self.fields.grow(sym.index() + 1);
                            self.fields.insert(sym.index());
                        }
                    }
                }
            }
        }
    }

    fn is_field(&self, sym: SymId) -> bool {
        self.fields.contains(sym.index())
    }

    /// The accesses of each node of cell `cell`'s graph, attributed to units.
    fn translate(&mut self, cell: usize, analysis: &Compiled) -> IndexVec<NodeId, Vec<Acc>> {
        let table = &analysis.table;
        // The notebook's symbol (`self.paths`) of each symbol of the cell's
        // table.
        let mut local: IndexVec<SymId, Option<SymId>> = IndexVec::from_elem_n(None, table.len());
        let last_top = self.layout.cells[cell].top.last().copied();
        let mut nodes = IndexVec::with_capacity(analysis.cfg.len());
        for node in &analysis.cfg.nodes {
            let mut accs = Vec::with_capacity(node.accesses.len());
            // The access before an implied change in its chain, and whether
            // the chain keeps the implied changes.
            let mut chain: Option<(SymId, bool)> = None;
            for access in &node.accesses {
                // Accesses without a place (`%%capture out` binding `out`)
                // happen at the end of the cell.
                let unit = if access.range.is_empty() {
                    last_top
                } else {
                    self.layout.unit_at(cell, access.range.start())
                };
                let sym = *local[access.symbol]
                    .get_or_insert_with(|| self.paths.intern(table.name(access.symbol)));
                let Some(unit) = unit else {
                    continue;
                };
                let op = match access.kind {
                    AccessKind::Read => Op::Read { whole: true },
                    AccessKind::BaseRead => Op::Read { whole: false },
                    AccessKind::Write | AccessKind::Delete => Op::Def {
                        kill: true,
                        site: 0,
                    },
                    AccessKind::MayWrite => Op::Def {
                        kill: false,
                        site: 0,
                    },
                    AccessKind::Mutate | AccessKind::MayMutate if access.implied => {
                        let keep = match chain {
                            Some((child, keep)) => {
                                keep || (self.paths.is_attr(child) && !self.is_field(child))
                            }
                            None => true,
                        };
                        chain = Some((sym, keep));
                        if !keep {
                            continue;
                        }
                        Op::Def {
                            kill: false,
                            site: 0,
                        }
                    }
                    AccessKind::Mutate | AccessKind::MayMutate => Op::Def {
                        kill: false,
                        site: 0,
                    },
                };
                if !access.implied {
                    // Deleting an item of a list moves the items after it.
                    let shifts = access.kind == AccessKind::Delete && self.paths.is_int_index(sym);
                    chain = Some((sym, shifts));
                }
                if access.kind == AccessKind::Delete {
                    // `del x[k]` fails unless x[k] exists: it reads it.
                    self.push(&mut accs, unit, sym, Op::Read { whole: false });
                }
                self.push(&mut accs, unit, sym, op);
                // An in-place change (not a rebinding) is seen through aliases.
                let depth = self.paths.depth(sym);
                let mutation = matches!(access.kind, AccessKind::Mutate | AccessKind::MayMutate);
                if mutation || (access.kind.is_def() && depth > 0) {
                    let inside_item = (mutation && depth > 0) || depth > 1;
                    self.through_aliases(&mut accs, unit, sym, inside_item);
                }
                if let Op::Read { .. } = op
                    && self.paths.is_root(sym)
                    && let Some(effects) = self.functions.get(self.paths.name(sym))
                {
                    for read in &effects.reads {
                        let read = self.paths.intern(read);
                        self.push(&mut accs, unit, read, Op::Read { whole: true });
                    }
                    let may_def = Op::Def {
                        kill: false,
                        site: 0,
                    };
                    for bound in &effects.binds {
                        let bound = self.paths.intern(bound);
                        self.push(&mut accs, unit, bound, may_def);
                    }
                    for changed in &effects.changes {
                        let changed = self.paths.intern(changed);
                        self.push(&mut accs, unit, changed, may_def);
                        let inside_item = self.paths.depth(changed) > 0;
                        self.through_aliases(&mut accs, unit, changed, inside_item);
                    }
                    if !effects.mutated_params.is_empty() && self.called.insert((unit, sym)) {
                        // The objects passed where the function changes its
                        // parameters.
                        let name = self.paths.name(sym).to_string();
                        let passed: Vec<String> = self
                            .layout
                            .unit(unit)
                            .calls
                            .iter()
                            .filter(|call| call.callee == name)
                            .flat_map(|call| {
                                effects
                                    .mutated_params
                                    .iter()
                                    .filter_map(|p| call.argument(p).map(str::to_string))
                            })
                            .collect();
                        for arg in passed {
                            let arg = self.paths.intern(&arg);
                            self.push(&mut accs, unit, arg, may_def);
                            self.through_aliases(&mut accs, unit, arg, false);
                        }
                    }
                }
            }
            nodes.push(accs);
        }
        nodes
    }

    /// After a change of `sym`: the same change under the other names of its
    /// object, a perhaps-change of the containers holding it and, for a
    /// change inside one of its items (`inside_item`), of what it holds.
    fn through_aliases(
        &mut self,
        accs: &mut Vec<Acc>,
        unit: UnitId,
        sym: SymId,
        inside_item: bool,
    ) {
        let root = self.paths.root(sym);
        let same = self.aliases.same(root).to_vec();
        let mut whole = self.aliases.containers(root).to_vec();
        if inside_item {
            whole.extend_from_slice(self.aliases.contents(root));
        }
        if same.is_empty() && whole.is_empty() {
            return;
        }
        let op = Op::Def {
            kill: false,
            site: 0,
        };
        let suffix = self.paths.name(sym)[self.paths.name(root).len()..].to_string();
        for other in same {
            let path = format!("{}{suffix}", self.paths.name(other));
            let path = self.paths.intern(&path);
            self.push(accs, unit, path, op);
        }
        for other in whole {
            self.push(accs, unit, other, op);
        }
    }

    /// Adds an access, with a new definition site for a definition.
    fn push(&mut self, accs: &mut Vec<Acc>, unit: UnitId, sym: SymId, op: Op) {
        let op = match op {
            Op::Def { kill, .. } => {
                let site = self.sites.len() as u32;
                self.sites.push(Site { unit, sym });
                self.defines.insert(unit as usize);
                Op::Def { kill, site }
            }
            read => read,
        };
        accs.push(Acc { sym, op, unit });
    }
}

struct Solver<'a> {
    paths: &'a Paths,
    fields: &'a FixedBitSet,
    sites: &'a [Site],
    root_sites: &'a IndexVec<SymId, Vec<u32>>,
    kills: &'a FxHashMap<SymId, Vec<u32>>,
    /// Units that may bind names nbsight cannot see, in order.
    unknown: &'a [UnitId],
    deps: Vec<Vec<UnitId>>,
}

impl Solver<'_> {
    /// Runs one cell from the definitions reaching its entry; returns those
    /// reaching its exit. `outs` is a buffer.
    fn cell(
        &mut self,
        cfg: &Cfg,
        flow: &IndexVec<NodeId, Vec<Acc>>,
        entry: FixedBitSet,
        outs: &mut IndexVec<NodeId, FixedBitSet>,
    ) -> FixedBitSet {
        let order = Order::of(cfg);
        let n_sites = entry.len();
        outs.resize_with(cfg.len(), FixedBitSet::new);
        for out in outs.iter_mut().take(cfg.len()) {
            out.clear();
            out.grow(n_sites);
        }
        outs[Cfg::ENTRY] = entry;
        let mut state = FixedBitSet::with_capacity(n_sites);
        // Without loops one pass in reverse post-order is exact, and reads
        // are answered on the way; otherwise iterate, then answer them.
        let mut answer = order.acyclic;
        loop {
            let mut changed = false;
            for &node in &order.rpo {
                if node == Cfg::ENTRY || !order.reachable[node] {
                    continue;
                }
                state.clear();
                for &pred in &cfg.nodes[node].pred {
                    state.union_with(&outs[pred]);
                }
                self.transfer(&flow[node], &mut state, answer);
                if state != outs[node] {
                    outs[node].clone_from(&state);
                    changed = true;
                }
            }
            if answer {
                break;
            }
            if !changed {
                answer = true;
            }
        }
        let exit = [Cfg::EXIT, Cfg::RAISE]
            .into_iter()
            .find(|&n| order.reachable[n])
            .unwrap_or(Cfg::ENTRY);
        std::mem::take(&mut outs[exit])
    }

    fn transfer(&mut self, accs: &[Acc], state: &mut FixedBitSet, answer: bool) {
        for acc in accs {
            match acc.op {
                Op::Read { whole } => {
                    if answer {
                        self.answer(acc, whole, state);
                    }
                }
                Op::Def { kill, site } => {
                    if kill && let Some(killed) = self.kills.get(&acc.sym) {
                        for &s in killed {
                            state.set(s as usize, false);
                        }
                    }
                    state.insert(site as usize);
                }
            }
        }
    }

    /// Records the units whose definitions reach the read `acc`.
    fn answer(&mut self, acc: &Acc, whole: bool, state: &FixedBitSet) {
        let paths = self.paths;
        // An attribute no statement assigns is computed from (or a view of)
        // its object: reading it reads the whole object.
        let (sym, whole) = match paths.parent(acc.sym) {
            Some(parent) if paths.is_attr(acc.sym) && !self.fields.contains(acc.sym.index()) => {
                (parent, true)
            }
            _ => (acc.sym, whole),
        };
        let root = paths.root(sym);
        let mut unbound = false;
        for &s in &self.root_sites[root] {
            if !state.contains(s as usize) {
                continue;
            }
            let site = self.sites[s as usize];
            if !paths.reaches(site.sym, sym, whole) {
                continue;
            }
            if site.unit == BEFORE {
                unbound = true;
            } else if site.unit != acc.unit {
                self.deps[acc.unit as usize].push(site.unit);
            }
        }
        if unbound && !self.unknown.is_empty() && !is_builtin(paths.name(root)) {
            let before = self.unknown.partition_point(|&u| u < acc.unit);
            self.deps[acc.unit as usize].extend_from_slice(&self.unknown[..before]);
        }
    }
}
