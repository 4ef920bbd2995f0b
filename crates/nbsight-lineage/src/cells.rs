//! What the static analysis says of a cell's source, computed once per
//! source: its statements with their accesses (`nbsight-dataflow`'s
//! per-statement summaries), the symbols live at its entry, those it kills
//! (DEAD), and the user functions it defines with their free globals.

use std::sync::Arc;

use nbsight_dataflow::access::AccessKind;
use nbsight_dataflow::build::FunctionSummary;
use nbsight_dataflow::statements::{StmtKind, StmtSummary, statement_summaries};
use nbsight_dataflow::symbol::Symbol;
use nbsight_dataflow::{Context, Effects, ImportEnv, analyze_cell};
use nbsight_notebook::{Cell, Language};
use rustc_hash::FxHashMap;

use crate::keys::{KeyedSubscript, Probe, keyed_subscripts};
use crate::shapes::{CallShape, Shape, calls, function_names, named_lambdas, shapes};

/// The static facts of one cell source.
#[derive(Debug, Clone, Default)]
pub(crate) struct CellFacts {
    /// The source parsed (IPython syntax included) without syntax errors.
    pub parses: bool,
    pub statements: Vec<StmtSummary>,
    /// Per statement (same index), its shape where it has one.
    pub shapes: Vec<Option<Shape>>,
    /// The calls of its module code, each with its line.
    pub calls: Vec<(u32, CallShape)>,
    /// For each function it defines (by CPython's qualified name), the
    /// names its result is computed from (`None`: not narrowed).
    pub function_values: Vec<(String, crate::returns::ResultNames)>,
    /// For each `__init__` it defines that only stores attributes on its
    /// object, each attribute with the names its value is computed from.
    pub init_attributes: Vec<(String, crate::returns::AttributeNames)>,
    /// For each function it defines that reads or sets a variable of a
    /// function it is nested in (or owns one): those closure symbols, read
    /// and set (`closures.rs`).
    pub closures: Vec<crate::closures::Closure>,
    /// The statements of its module code that make a name's object a
    /// member of a container (`lst.append(x)`, `for foo in lst`).
    pub members: Vec<crate::members::Member>,
    /// The calls of its module code that draw from or seed a global random
    /// generator.
    pub random: Vec<crate::random::RandomCall>,
    /// The lambdas its module code binds to a name (`lam = lambda: f()`),
    /// each with its line: their summaries go by that name.
    pub named_lambdas: Vec<(u32, String)>,
    /// The subscripts of its module code whose index the tracer reads
    /// at run time (`lst[i]`).
    pub keyed: Vec<KeyedSubscript>,
    /// The names each function it defines loads, by line (by CPython's
    /// qualified name).
    pub function_names: Vec<(String, Vec<(u32, String)>)>,
    /// Live at entry (builtins left out), each with whether some statement
    /// reads it as a whole (`lst` in `print(lst)`, not in `lst[2]`).
    pub live: Vec<(Symbol, bool)>,
    /// Builtin names read.
    pub builtins: Vec<Symbol>,
    /// Killed: written on every path, whatever their old value.
    pub dead: Vec<Symbol>,
    /// The functions it defines, by the summaries' names (`f`, `C.m`,
    /// `<lambda@3:5>`).
    pub functions: Vec<(String, FunctionSummary)>,
    /// It may bind names the analysis cannot see (`exec`, `%run`, star
    /// imports, `globals()[...] = `).
    pub hidden_bindings: bool,
}

impl CellFacts {
    /// Where the tracer reads the indexes of `keyed`, each once.
    pub(crate) fn probes(&self) -> Vec<Probe> {
        let mut probes: Vec<Probe> = self.keyed.iter().map(|k| k.probe.clone()).collect();
        probes.sort_unstable();
        probes.dedup();
        probes
    }

    pub(crate) fn function(&self, name: &str) -> Option<&FunctionSummary> {
        self.functions
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, f)| f)
    }

    /// What the result of the function `qualname` is computed from.
    pub(crate) fn function_result(&self, qualname: &str) -> Option<&crate::returns::ResultNames> {
        self.function_values
            .iter()
            .find(|(n, _)| n == qualname)
            .map(|(_, v)| v)
    }

    /// The one call on `line` of the function `qualname` (by its last
    /// name); `None` when there is none or more than one.
    pub(crate) fn call_at(&self, line: u32, qualname: &str) -> Option<&CallShape> {
        let name = qualname.rsplit('.').next().unwrap_or(qualname);
        let mut on_line = self
            .calls
            .iter()
            .filter(|(l, c)| *l == line && c.callee.as_deref() == Some(name));
        match (on_line.next(), on_line.next()) {
            (Some((_, call)), None) => Some(call),
            _ => None,
        }
    }

    /// What each attribute the `__init__` named `qualname` sets is
    /// computed from (`None`: not known attribute by attribute).
    pub(crate) fn init_attributes(&self, qualname: &str) -> Option<&[(String, Vec<String>)]> {
        self.init_attributes
            .iter()
            .find(|(n, _)| n == qualname)
            .map(|(_, a)| a.as_slice())
    }

    /// The globals of `reads` that the function `qualname` loads on one of
    /// `lines` (the lines of its code that ran); `None` when its code is
    /// not known here.
    pub(crate) fn reads_on_lines(
        &self,
        qualname: &str,
        reads: &[Symbol],
        lines: &[u32],
    ) -> Option<Vec<Symbol>> {
        let (_, names) = self.function_names.iter().find(|(n, _)| n == qualname)?;
        Some(
            reads
                .iter()
                .filter(|g| {
                    // A global its own code never names is read by a function
                    // nested in it (a decorator's wrapper): kept.
                    let root = nbsight_dataflow::symbol::root(g);
                    let mut places = names.iter().filter(|(_, name)| name == root).peekable();
                    places.peek().is_none() || places.any(|(line, _)| lines.contains(line))
                })
                .cloned()
                .collect(),
        )
    }

    /// The paths a call on `line` of `function` (its qualified name) passes
    /// for the parameters `params` (`None` where an argument is not a path
    /// or the call is not found).
    pub(crate) fn call_arguments(
        &self,
        line: u32,
        function: &str,
        params: &[nbsight_dataflow::Param],
    ) -> Vec<Symbol> {
        let name = function.rsplit('.').next().unwrap_or(function);
        let on_line: Vec<&CallShape> = self
            .calls
            .iter()
            .filter(|(l, _)| *l == line)
            .map(|(_, c)| c)
            .collect();
        let call = on_line
            .iter()
            .find(|c| c.callee.as_deref() == Some(name))
            .or_else(|| (on_line.len() == 1).then(|| &on_line[0]));
        let Some(call) = call else {
            return Vec::new();
        };
        // A method called on an object passes it as `self`.
        let method = function.contains('.') && !function.contains("<locals>");
        let shift = usize::from(method);
        params
            .iter()
            .filter_map(|p| {
                if method && p.position == Some(0) {
                    return call.receiver.clone();
                }
                let positional = p
                    .position
                    .and_then(|i| i.checked_sub(shift))
                    .and_then(|i| call.args.get(i).cloned().flatten());
                positional.or_else(|| {
                    call.keywords
                        .iter()
                        .find(|(k, _)| *k == p.name)
                        .and_then(|(_, v)| v.clone())
                })
            })
            .collect()
    }

    /// The summary of the function whose code object is `qualname` starting
    /// on `line` (`<lambda>` on line 3 is `<lambda@3:...>`).
    pub(crate) fn function_at(&self, qualname: &str, line: u32) -> Option<&FunctionSummary> {
        if let Some(f) = self.function(qualname) {
            return Some(f);
        }
        if qualname.ends_with("<lambda>") {
            return self
                .lambdas()
                .find(|(l, _)| *l == line)
                .map(|(_, f)| f)
                // A lambda bound to a name is summarized under that name.
                .or_else(|| {
                    let (_, name) = self.named_lambdas.iter().find(|(l, _)| *l == line)?;
                    self.function(name)
                });
        }
        None
    }

    /// The lambdas it defines, each with the line it starts on (the
    /// summaries name them `<lambda@LINE:COLUMN>`).
    pub(crate) fn lambdas(&self) -> impl Iterator<Item = (u32, &FunctionSummary)> + '_ {
        self.functions.iter().filter_map(|(name, f)| {
            let line = name
                .strip_prefix("<lambda@")?
                .split(':')
                .next()?
                .parse::<u32>()
                .ok()?;
            Some((line, f))
        })
    }
}

/// The facts of every source seen, and the imports of the session (which
/// decide what names like `pd.read_csv` mean).
#[derive(Debug, Default)]
pub(crate) struct FactsCache {
    imports: ImportEnv,
    by_source: FxHashMap<String, Arc<CellFacts>>,
}

impl FactsCache {
    /// The facts of `source`.
    pub(crate) fn facts(&mut self, source: &str, effects: &Effects) -> Arc<CellFacts> {
        if let Some(hit) = self.by_source.get(source) {
            return hit.clone();
        }
        let cell = Cell::new_code(0, source, &Language::Python);
        let facts = match cell.parse() {
            Some(parsed) => {
                let mut imports = self.imports.clone();
                imports.add_module(&parsed.module);
                let ctx = Context {
                    effects,
                    imports: &imports,
                    source: "",
                };
                let analysis = analyze_cell(&cell, &parsed, ctx);
                let statements = statement_summaries(&analysis, &parsed);
                let random = crate::random::random_calls(&analysis.cfg.calls);
                let members = crate::members::members(&parsed.module.body);
                let closures = crate::closures::closures(&parsed.module.body);
                let found = shapes(&parsed.module.body);
                let line_of = |at| parsed.line_column(at).0.get() as u32;
                let function_names = function_names(&parsed.module.body, &line_of);
                let keyed = keyed_subscripts(&parsed.module.body, &line_of);
                let named_lambdas = named_lambdas(&parsed.module.body, &line_of);
                let function_values = crate::returns::function_values(&parsed.module.body);
                let init_attributes = crate::returns::init_attributes(&parsed.module.body);
                let calls = calls(&parsed.module.body)
                    .into_iter()
                    .map(|c| (parsed.line_column(c.start).0.get() as u32, c))
                    .collect();
                let shapes = statements
                    .iter()
                    .map(|stmt| {
                        found
                            .iter()
                            .find(|(start, _)| *start == stmt.range.start())
                            .map(|(_, shape)| shape.clone())
                            // A header has only its assignment expressions.
                            .filter(|shape| {
                                stmt.kind != StmtKind::Header
                                    || matches!(shape, Shape::Parts(parts) if parts.iter().all(|p| p.named))
                            })
                    })
                    .collect();
                let summary = analysis.summary;
                // A name plain liveness calls live at entry that the cell's
                // first pass binds before reading it (`for i in range(3):
                // if i == 0: total = a else: total += b`) is not read from
                // before the cell.
                let first_bound = |u: &Symbol| {
                    let name = nbsight_dataflow::symbol::root(u);
                    let binds = statements.iter().any(|s| {
                        s.accesses
                            .iter()
                            .any(|a| a.symbol.as_str() == name && a.kind == AccessKind::Write)
                    });
                    binds
                        && nbsight_dataflow::first_pass::first_access(&parsed.module.body, name)
                            == nbsight_dataflow::first_pass::FirstAccess::Bound
                };
                let live: Vec<(Symbol, bool)> = summary
                    .uses
                    .iter()
                    .filter(|u| !first_bound(u))
                    .map(|u| {
                        let whole = statements.iter().any(|s| {
                            s.accesses
                                .iter()
                                .any(|a| a.symbol == *u && a.kind == AccessKind::Read)
                        });
                        (u.clone(), whole)
                    })
                    .collect();
                let hidden_bindings = summary
                    .magics
                    .iter()
                    .any(|m| matches!(m.as_str(), "%run" | "%store" | "%load"))
                    || summary
                        .builtins
                        .iter()
                        .any(|b| matches!(b.as_str(), "exec" | "globals" | "vars"))
                    || summary.imports.iter().any(|i| i.ends_with('*'));
                CellFacts {
                    parses: !parsed.has_errors(),
                    statements,
                    shapes,
                    calls,
                    keyed,
                    named_lambdas,
                    function_values,
                    init_attributes,
                    random,
                    members,
                    closures,
                    function_names,
                    live,
                    builtins: summary.builtins.iter().cloned().collect(),
                    dead: summary.dead.iter().cloned().collect(),
                    functions: summary.functions.into_iter().collect(),
                    hidden_bindings,
                }
            }
            None => CellFacts::default(),
        };
        let facts = Arc::new(facts);
        self.by_source.insert(source.to_string(), facts.clone());
        facts
    }

    /// A cell ran: its imports now hold for every later cell.
    pub(crate) fn ran(&mut self, source: &str) {
        let cell = Cell::new_code(0, source, &Language::Python);
        if let Some(parsed) = cell.parse() {
            let mut merged = self.imports.clone();
            merged.add_module(&parsed.module);
            if merged != self.imports {
                self.imports = merged;
                self.by_source.clear();
            }
        }
    }
}
