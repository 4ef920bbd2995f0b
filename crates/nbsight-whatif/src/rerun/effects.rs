//! A cell's effects statement by statement, field by field and file by
//! file, and what running it does to a set of changed values: the re-run
//! plan's forward pass.
//!
//! A statement (a simple statement, a `def` or `class`, or the header of a
//! compound statement) holds the accesses of the cell's control-flow graph
//! within its own code ([`fields::Path`]s), the file accesses of its calls
//! ([`files`]) and the files it writes through handles. Running a cell on a
//! set of changed values:
//! - a statement reading a changed value (a field that may overlap a
//!   changed one, a changed file, or a user function whose free globals
//!   changed) changes what it writes, and what shares those objects (the
//!   model's may-aliases: the same path through another name of the object,
//!   the containers holding it, and, for a change inside it, what it
//!   holds); the globals the user functions it calls write change too;
//! - a statement at the cell's top level that reads nothing changed
//!   rebinds what it binds (and overwrites the files it writes) to what Run
//!   All gives them;
//! - statements inside loops and branches are walked again until the
//!   changes they carry no longer grow.
//!
//! Values a re-run cell binds from unchanged inputs are Run All's values
//! as new objects (*fresh*): a statement reading one needs no new run, one
//! linking another name to it (`b = a`, `full = [a]`, `for d in full`) or
//! changing it does.
//!
//! The cell is *affected* when one of its statements reads a changed
//! value, links or changes a fresh one, or writes a changed one (so that
//! later cells see its version again).

use nbsight_dataflow::access::AccessKind;
use nbsight_dataflow::statements::for_each_piece;
use nbsight_model::{CellInfo, FunctionInfo, NotebookModel};
use ruff_python_ast::Stmt;
use ruff_text_size::TextRange;

use super::fields::{Path, PathSet};
use super::files::{FileAccess, FileOp, FileOps, FilePath, Literals};
use super::methods::Methods;
use super::sharing::{Sharing, immutable};
use super::writes::ArgumentChanges;
use nbsight_model::aliases::{Fact, alias_facts};
use rustc_hash::FxHashMap;

/// How a statement writes a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Write {
    /// Binds it, whatever it held.
    Bind,
    /// Perhaps binds or unbinds it.
    Maybe,
    /// Changes its object in place (or a field of it).
    InPlace,
}

/// One statement of a cell.
#[derive(Debug, Clone)]
pub(crate) struct Unit {
    /// How many compound statements it is nested in.
    depth: u32,
    range: TextRange,
    reads: Vec<Path>,
    writes: Vec<(Path, Write)>,
    files: Vec<(FilePath, FileAccess)>,
    /// Files it may write through handles (names bound to files open for
    /// writing) it uses.
    through_handles: Vec<FilePath>,
    /// The names its aliasing facts mention (`b = a`, `full = [a, b]`,
    /// `for d in full`): run again, it links them anew.
    links: Vec<String>,
    /// What it binds is a new object each run (not a literal, a module or a
    /// function).
    new_objects: bool,
    /// An augmented assignment.
    augmented: bool,
    /// The instances whose methods it calls, with the attributes those
    /// change.
    method_changes: Vec<(String, Vec<String>)>,
    /// What running it changes whatever it reads: its writes seen through
    /// the names sharing their objects ([`changed_through_aliases`]), then
    /// the files it writes. Made once with the cell's effects: it depends
    /// only on the statement and the notebook's sharing, which are those
    /// of every run (the re-run facts that make the effects are the ones
    /// whose sharing runs them).
    changes: Changed,
}

/// A cell's statements with their effects.
#[derive(Debug, Clone, Default)]
pub(crate) struct CellEffects {
    units: Vec<Unit>,
    pub files: FileOps,
    /// Every name its statements read, write or link, sorted.
    roots: Vec<String>,
}

/// Changed values: field-granular paths and files, and the values that
/// are Run All's but new objects (a cell above the edit rebuilt them): a
/// cell reading those needs no new run, one linking other names to them
/// (`b = a`) or changing them does.
#[derive(Debug, Clone, Default)]
pub(crate) struct Changed {
    pub paths: PathSet,
    pub fresh: PathSet,
    pub files: Vec<FilePath>,
}

impl Changed {
    pub(super) fn add(&mut self, path: Path) {
        self.paths.add(path);
    }

    /// `path` holds Run All's value, as a new object.
    pub(super) fn add_fresh(&mut self, path: Path) {
        if !self.paths.holds(&path) {
            self.fresh.add(path);
        }
    }

    pub(super) fn add_file(&mut self, file: FilePath) {
        if !self.files.iter().any(|f| file.within(f) || *f == file) {
            self.files.retain(|f| !f.within(&file));
            self.files.push(file);
        }
    }

    fn union(&mut self, other: &Changed) {
        for p in other.paths.iter() {
            self.add(p.clone());
        }
        for p in other.fresh.iter() {
            self.add_fresh(p.clone());
        }
        for f in &other.files {
            self.add_file(f.clone());
        }
    }

    fn covers(&self, other: &Changed) -> bool {
        self.paths.covers(&other.paths)
            && other
                .fresh
                .iter()
                .all(|p| self.fresh.holds(p) || self.paths.holds(p))
            && other
                .files
                .iter()
                .all(|f| self.files.iter().any(|g| f.within(g) || f == g))
    }

    fn reads_path(&self, path: &Path) -> bool {
        self.paths.overlaps(path)
    }

    fn reads_file(&self, file: &FilePath) -> bool {
        self.files.iter().any(|f| f.overlaps(file))
    }

    /// Some path under `root` changed.
    fn has_root(&self, root: &str) -> bool {
        self.paths.has_root(root)
    }
}

/// What building a cell's effects knows of the notebook.
pub(crate) struct Notebook<'a> {
    pub literals: &'a Literals,
    /// Whether the notebook stores into attributes or keys of that
    /// spelling anywhere.
    pub assigned: &'a dyn Fn(&str) -> bool,
    /// Whether every value the notebook binds the name to cannot change
    /// in place (`t = 1`: `t += 2` rebinds it).
    pub immutable: &'a dyn Fn(&str) -> bool,
    pub changes: &'a ArgumentChanges,
    /// What the methods of the notebook's classes change of their instance.
    pub methods: &'a Methods,
    /// What calling each user function does to files.
    pub function_files: &'a FxHashMap<String, Vec<(FilePath, FileAccess, bool)>>,
    /// Which names may share objects.
    pub sharing: &'a Sharing,
}

impl CellEffects {
    /// The effects of `cell`.
    pub(super) fn of(cell: &CellInfo, notebook: &Notebook<'_>) -> Self {
        let (Some(compiled), Some(parsed)) = (cell.compiled.as_deref(), cell.parsed.as_deref())
        else {
            return CellEffects::default();
        };
        let (literals, assigned) = (notebook.literals, notebook.assigned);
        let mut units = Vec::new();
        collect(&parsed.module.body, notebook, &mut units);
        let unit_at = |range: TextRange, units: &[Unit]| {
            units.iter().rposition(|u| u.range.contains_range(range))
        };
        let cfg = &compiled.cfg;
        for (id, node) in cfg.nodes.iter_enumerated() {
            if cfg.is_copy(id) {
                continue;
            }
            for access in &node.accesses {
                let Some(u) = unit_at(access.range, &units) else {
                    continue;
                };
                let symbol = compiled.table.name(access.symbol);
                let unit = &mut units[u];
                match access.kind {
                    AccessKind::Read => {
                        let path = Path::parse(symbol).read_through(assigned);
                        if !unit.reads.contains(&path) {
                            unit.reads.push(path);
                        }
                    }
                    AccessKind::BaseRead => {}
                    AccessKind::Write => {
                        let path = Path::parse(symbol).read_through(assigned);
                        // `p += [4]` changes a list in place.
                        if unit.augmented && !(notebook.immutable)(&path.root) {
                            unit.writes.push((path.clone(), Write::InPlace));
                        }
                        unit.writes.push((path, Write::Bind));
                    }
                    // Through an attribute the notebook never stores into
                    // (`df.loc[0, 'a'] = 1`): a view of the whole object.
                    AccessKind::MayWrite | AccessKind::Delete => {
                        let path = Path::parse(symbol).read_through(assigned);
                        unit.writes.push((path, Write::Maybe));
                    }
                    AccessKind::MayMutate
                        if !access.implied
                            && unit.method_changes.iter().any(|(o, _)| o == symbol) =>
                    {
                        // A method of a notebook class: the attributes it
                        // changes.
                        for (obj, attrs) in &unit.method_changes {
                            if obj == symbol {
                                for attr in attrs {
                                    let path = Path::parse(&format!("{obj}.{attr}"));
                                    unit.writes.push((path, Write::InPlace));
                                }
                            }
                        }
                    }
                    AccessKind::Mutate | AccessKind::MayMutate => {
                        if !access.implied {
                            let path = Path::parse(symbol).read_through(assigned);
                            unit.writes.push((path, Write::InPlace));
                        }
                    }
                }
            }
        }
        let mut files = FileOps::of(compiled, &parsed.module, literals);
        // The file accesses of the user functions a statement names.
        for unit in &units {
            for root in unit.reads.iter().map(|r| &*r.root) {
                let Some(ops) = notebook.function_files.get(root) else {
                    continue;
                };
                for (path, access, resets) in ops {
                    files.ops.push(FileOp {
                        path: path.clone(),
                        access: *access,
                        resets: *resets,
                        at: unit.range.start(),
                    });
                }
            }
        }
        for op in &files.ops {
            let range = TextRange::empty(op.at);
            if let Some(u) = units.iter().rposition(|u| u.range.contains_range(range)) {
                units[u].files.push((op.path.clone(), op.access));
            }
        }
        for unit in &mut units {
            for (name, file) in &files.handles {
                let uses = unit
                    .reads
                    .iter()
                    .chain(unit.writes.iter().map(|(p, _)| p))
                    .any(|p| *p.root == **name);
                if uses {
                    unit.through_handles.push(file.clone());
                }
            }
        }
        for unit in &mut units {
            let mut changes = Changed::default();
            for (path, kind) in &unit.writes {
                changed_through_aliases(path, *kind, notebook.sharing, &mut changes);
            }
            for (file, access) in &unit.files {
                if access.writes() {
                    changes.add_file(file.clone());
                }
            }
            for file in &unit.through_handles {
                changes.add_file(file.clone());
            }
            unit.changes = changes;
        }
        let mut roots: Vec<String> = units
            .iter()
            .flat_map(|u| {
                u.reads
                    .iter()
                    .map(|p| &*p.root)
                    .chain(u.writes.iter().map(|(p, _)| &*p.root))
                    .chain(u.links.iter().map(String::as_str))
            })
            .map(str::to_string)
            .collect();
        roots.sort_unstable();
        roots.dedup();
        CellEffects {
            units,
            files,
            roots,
        }
    }

    /// The source text of each statement (to tell an edit's changed
    /// statements).
    pub(super) fn texts<'s>(&self, source: &'s str) -> Vec<&'s str> {
        self.units
            .iter()
            .map(|u| {
                source
                    .get(std::ops::Range::<usize>::from(u.range))
                    .unwrap_or_default()
            })
            .collect()
    }

    /// What the statements `which` write (as changed), their in-place
    /// changes seen through the names that share the objects.
    pub(super) fn writes_of(
        &self,
        which: &[bool],
        ctx: &Context<'_>,
        out: &mut Changed,
        files: bool,
    ) {
        for (unit, _) in self.units.iter().zip(which).filter(|(_, w)| **w) {
            for (path, kind) in &unit.writes {
                if ctx.counts(&path.root) {
                    changed_through_aliases(path, *kind, ctx.sharing, out);
                }
            }
            if files {
                for (file, access) in &unit.files {
                    if access.writes() {
                        out.add_file(file.clone());
                    }
                }
                for file in &unit.through_handles {
                    out.add_file(file.clone());
                }
            }
        }
    }

    /// Which statements of `new` have no counterpart in `old` (as a
    /// multiset of texts: a statement written twice where it was once is
    /// a change).
    pub(super) fn unmatched(new: &[&str], old: &[&str]) -> Vec<bool> {
        let mut left: Vec<Option<&str>> = old.iter().map(|t| Some(*t)).collect();
        new.iter()
            .map(|t| match left.iter_mut().find(|o| **o == Some(*t)) {
                Some(slot) => {
                    *slot = None;
                    false
                }
                None => true,
            })
            .collect()
    }

    /// Can running the cell on `state` touch anything in it? (`false`:
    /// the cell is not affected, and running it only rebinds.)
    pub(super) fn may_touch(&self, state: &Changed, ctx: &Context<'_>) -> bool {
        let named = self
            .roots
            .iter()
            .any(|r| state.paths.has_root(r) || state.fresh.has_root(r));
        let touched = named
            && self.units.iter().any(|u| {
                u.reads.iter().any(|r| state.paths.overlaps(r))
                    || u.links.iter().any(|l| state.fresh.has_root(l))
                    || u.writes
                        .iter()
                        .any(|(p, _)| state.paths.overlaps(p) || state.fresh.overlaps(p))
            });
        touched
            || (!state.files.is_empty() && self.units.iter().any(|u| !u.files.is_empty()))
            || (!state.paths.is_empty()
                && self
                    .roots
                    .iter()
                    .any(|r| ctx.function_reads_changed(r, state)))
    }

    pub(super) fn len(&self) -> usize {
        self.units.len()
    }

    /// Runs the cell on `state`; returns whether it is affected. The
    /// statements `forced` marks change what they write whatever they read
    /// (an edit's changed statements).
    pub(super) fn run(
        &self,
        state: &mut Changed,
        ctx: &Context<'_>,
        forced: Option<&[bool]>,
    ) -> bool {
        // Only statements in loops and branches carry changes to another
        // round: a cell without them is walked once, in place.
        let nested_units = self.units.iter().any(|u| u.depth > 0);
        let start = nested_units.then(|| state.clone());
        let mut carried = Changed::default();
        let mut rounds = 0;
        loop {
            let mut now = match &start {
                Some(start) => {
                    let mut now = start.clone();
                    now.union(&carried);
                    now
                }
                None => std::mem::take(state),
            };
            let mut nested = Changed::default();
            let mut affected = false;
            for (i, unit) in self.units.iter().enumerate() {
                let tainted = forced.is_some_and(|f| f.get(i) == Some(&true))
                    || unit.reads.iter().any(|r| now.reads_path(r))
                    || unit
                        .files
                        .iter()
                        .any(|(f, a)| a.reads() && now.reads_file(f))
                    || unit
                        .reads
                        .iter()
                        .any(|r| ctx.function_reads_changed(&r.root, &now));
                if tainted {
                    affected = true;
                    // A copy shares the kept changes until a user function
                    // it calls adds the globals it writes.
                    let mut added = unit.changes.clone();
                    for r in &unit.reads {
                        ctx.function_writes(&r.root, &mut added);
                    }
                    if unit.depth > 0 {
                        nested.union(&added);
                    }
                    now.union(&added);
                    continue;
                }
                // A name it links to another holds a new object (a new
                // object inside it that it reads).
                let relinks = unit.links.iter().any(|l| {
                    now.fresh
                        .under(l)
                        .iter()
                        .any(|f| f.depth() == 0 || unit.reads.iter().any(|r| r.overlaps(f)))
                });
                let rewrites = unit
                    .writes
                    .iter()
                    .any(|(p, _)| now.reads_path(p) || now.fresh.overlaps(p))
                    || unit
                        .files
                        .iter()
                        .any(|(f, a)| a.writes() && now.reads_file(f));
                affected |= rewrites || relinks;
                if relinks {
                    for p in unit.changes.paths.iter().cloned() {
                        if unit.depth > 0 {
                            nested.add_fresh(p.clone());
                        }
                        now.add_fresh(p);
                    }
                }
                if unit.depth == 0 {
                    for (path, kind) in &unit.writes {
                        if *kind == Write::Bind {
                            now.paths.remove_within(path);
                            now.fresh.remove_within(path);
                            if unit.new_objects {
                                now.fresh.add(path.clone());
                            }
                        }
                    }
                    for (file, access) in &unit.files {
                        if matches!(access, FileAccess::Write | FileAccess::Delete) {
                            now.files.retain(|f| !f.within(file));
                        }
                    }
                }
            }
            rounds += 1;
            if carried.covers(&nested) || rounds > self.units.len() {
                *state = now;
                return affected;
            }
            carried.union(&nested);
        }
    }
}

/// What the re-run plan's forward pass needs besides a cell's effects.
pub(crate) struct Context<'a> {
    pub model: &'a NotebookModel,
    pub sharing: &'a Sharing,
    /// Roots whose writes count (`None`: all): an edit's seed leaves out
    /// the names only imports bind.
    pub counted: Option<&'a nbsight_model::VarSet>,
    /// The names of the model's user functions when they are few (`None`:
    /// many): most names a statement reads are not functions, and a scan
    /// of a few names tells so faster than a lookup of the name.
    function_names: Option<Vec<&'a str>>,
}

/// Up to this many user functions, [`Context`] scans their names.
const FEW_FUNCTIONS: usize = 16;

impl<'a> Context<'a> {
    pub(super) fn new(
        model: &'a NotebookModel,
        sharing: &'a Sharing,
        counted: Option<&'a nbsight_model::VarSet>,
    ) -> Self {
        let function_names = (model.functions.len() <= FEW_FUNCTIONS).then(|| {
            model
                .functions
                .keys()
                .map(|&v| model.vars.name(v))
                .collect()
        });
        Context {
            model,
            sharing,
            counted,
            function_names,
        }
    }

    /// The user function bound to `root`, if it is one.
    fn function(&self, root: &str) -> Option<&'a FunctionInfo> {
        if let Some(names) = &self.function_names
            && !names.contains(&root)
        {
            return None;
        }
        self.model
            .vars
            .get(root)
            .and_then(|v| self.model.functions.get(&v))
    }

    fn counts(&self, root: &str) -> bool {
        match (self.counted, self.model.vars.get(root)) {
            (None, _) => true,
            (Some(set), Some(v)) => set.contains(v),
            (Some(_), None) => false,
        }
    }

    /// `root` is a user function whose free globals changed.
    fn function_reads_changed(&self, root: &str, state: &Changed) -> bool {
        let Some(info) = self.function(root) else {
            return false;
        };
        info.reads
            .iter()
            .any(|g| state.has_root(self.model.vars.name(g)))
    }

    /// The globals calling the user function `root` writes.
    fn function_writes(&self, root: &str, out: &mut Changed) {
        let Some(info) = self.function(root) else {
            return;
        };
        for g in info.writes.iter() {
            let name = self.model.vars.name(g);
            out.add(Path::whole(name));
            for other in self.sharing.group(name) {
                out.add(Path::whole(other));
            }
        }
    }
}

/// `path` written as `kind`, and what that changes through the names that
/// may share the object: rebinding a name changes no object; binding a
/// field (`d['a'] = 1`) changes its parent's object, and changing a path in
/// place its own ([`Sharing::changed_with`]: the same path through the
/// object's other names, the containers holding it, and for a change
/// inside what the root names, what it holds and what holds its items).
pub(crate) fn changed_through_aliases(
    path: &Path,
    kind: Write,
    sharing: &Sharing,
    out: &mut Changed,
) {
    out.add(path.clone());
    let depth = match (kind, path.depth()) {
        (Write::InPlace, d) => d,
        (_, 0) => return,
        (_, d) => d - 1,
    };
    for other in sharing.same(&path.root) {
        out.add(path.rerooted(other));
    }
    for other in sharing.changed_with(&path.root, depth) {
        if !sharing.same(&path.root).contains(other) {
            out.add(Path::whole(other));
        }
    }
}

fn unit(range: TextRange, depth: u32) -> Unit {
    Unit {
        depth,
        range,
        reads: Vec::new(),
        writes: Vec::new(),
        files: Vec::new(),
        through_handles: Vec::new(),
        links: Vec::new(),
        new_objects: true,
        augmented: false,
        method_changes: Vec::new(),
        changes: Changed::default(),
    }
}

/// The unit of a simple statement (or a `for` header), with its aliasing
/// facts and whether what it binds is a new object.
fn statement(stmt: &Stmt, range: TextRange, depth: u32, notebook: &Notebook<'_>) -> Unit {
    let mut u = unit(range, depth);
    u.augmented = matches!(stmt, Stmt::AugAssign(_));
    if !matches!(stmt, Stmt::For(_)) {
        u.method_changes = notebook.methods.calls_in(stmt);
        // The arguments it passes to user functions that change them.
        for root in notebook.changes.changed_by_stmt(stmt) {
            u.writes.push((Path::whole(&root), Write::InPlace));
        }
    }
    for fact in alias_facts(stmt) {
        let names = match fact {
            Fact::Same(a, b) => vec![a, b],
            Fact::Contains { container, item } => vec![container, item],
            Fact::Elements { container, items } => {
                let mut v = items;
                v.push(container);
                v
            }
            Fact::Loop { target, iterable } => vec![target, iterable],
            Fact::Copy { copy, source } => vec![copy, source],
            Fact::Slice { part, source } => vec![part, source],
        };
        for name in names {
            if !u.links.contains(&name) {
                u.links.push(name);
            }
        }
    }
    u.new_objects = match stmt {
        Stmt::Assign(a) => !immutable(&a.value),
        Stmt::AnnAssign(a) => a.value.as_deref().is_none_or(|v| !immutable(v)),
        Stmt::Import(_) | Stmt::ImportFrom(_) | Stmt::FunctionDef(_) | Stmt::ClassDef(_) => false,
        _ => true,
    };
    u
}

/// The statements of `body`, a compound statement's header before its
/// bodies ([`for_each_piece`]); a unit's depth counts the loops and
/// branches around it, a `for` header is a statement (it binds).
fn collect(body: &[Stmt], notebook: &Notebook<'_>, out: &mut Vec<Unit>) {
    for_each_piece(body, &mut |piece| {
        let depth = piece.branch_depth;
        let binds = !piece.header || matches!(piece.stmt, Stmt::For(_));
        out.push(if binds {
            statement(piece.stmt, piece.range, depth, notebook)
        } else {
            unit(piece.range, depth)
        });
    });
}
