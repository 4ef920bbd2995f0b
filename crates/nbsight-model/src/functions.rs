//! What calling a user function does, for every engine: the function
//! definitions of the notebook's cells (each with its cell), their effects
//! closed over the calls between functions (one routine,
//! `close_over_calls`), the views the engines need, and which of a call's
//! arguments a function changes in place.
//!
//! A function calls the user functions (and classes) whose names it reads
//! (`f(x)`, `df.apply(f)`), so it does what they do too. The views:
//! - [`FunctionInfo`] by root variable (`NotebookModel::functions`: the
//!   model's links, what-if, check): plain functions only (methods `C.m`
//!   and lambdas `<lambda@...>` are skipped); the free globals a function
//!   reads and binds or changes in place, closed over calls, and those its
//!   own body writes on every path. A name defined twice has the effects of
//!   both definitions.
//! - [`CallEffects`] by name at symbol granularity ([`FunctionsByName`]:
//!   slicing): methods grouped under their class (using `C` may run any
//!   `C.m`), perhaps-changes included, closed over calls; the parameters
//!   the plain functions of that name change in place (their own bodies).
//! - `NotebookModel::function_in_force` (`in_force.rs`) (the flow analysis): the
//!   definition a call in a given cell runs.
//!
//! [`NamedCall`] is a call of a plain name with the names its arguments are
//! paths under, and [`NamedCall::argument`] the one rule that maps a
//! parameter to the argument a call passes there. Which calls a statement's
//! code contains is each engine's decision.

use std::collections::{BTreeMap, BTreeSet};

use nbsight_dataflow::symbol::root;
use nbsight_dataflow::{CellSummary, FunctionSummary, Param, Symbol};
use ruff_python_ast::{Expr, ExprCall};
use ruff_text_size::{Ranged, TextRange};
use rustc_hash::FxHashMap;

use crate::paths::path_root;
use crate::vars::{Var, VarSet, Vars};

/// A function (or method, or lambda) a cell defines.
#[derive(Debug, Clone, Copy)]
pub struct Definition<'a> {
    /// The cell defining it (a position in the full cell list).
    pub cell: usize,
    /// Its qualified name (`f`, `C.m`, `<lambda@3:5>`).
    pub name: &'a str,
    pub summary: &'a FunctionSummary,
}

impl Definition<'_> {
    /// A plain function: not a method (`C.m`) nor a lambda (`<lambda@...>`).
    fn is_plain_function(&self) -> bool {
        !self.name.contains('.') && !self.name.starts_with('<')
    }
}

/// The definitions of cells given as (position, summary), in cell order and
/// by name within a cell.
pub(crate) fn definitions<'a>(
    cells: impl IntoIterator<Item = (usize, &'a CellSummary)>,
) -> impl Iterator<Item = Definition<'a>> {
    cells.into_iter().flat_map(|(cell, summary)| {
        summary
            .functions
            .iter()
            .map(move |(name, summary)| Definition {
                cell,
                name,
                summary,
            })
    })
}

/// Closes the functions' effects over their calls: `callees[f]` are the
/// functions `f` calls directly; afterwards `effects[f]` has also absorbed
/// (`absorb(into, from)`) the effects of every function its calls reach,
/// transitively and through cycles.
fn close_over_calls<T>(effects: &mut [T], callees: &[Vec<usize>], absorb: impl Fn(&mut T, &T)) {
    let n = effects.len();
    let mut seen = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut reached: Vec<usize> = Vec::new();
    for f in 0..n {
        seen.fill(false);
        seen[f] = true;
        stack.clear();
        stack.extend_from_slice(&callees[f]);
        reached.clear();
        while let Some(g) = stack.pop() {
            if !std::mem::replace(&mut seen[g], true) {
                reached.push(g);
                stack.extend_from_slice(&callees[g]);
            }
        }
        // A function reached is closed already or not yet: either way what
        // it does is part of what `f`'s calls reach.
        for &g in &reached {
            let (into, from) = if f < g {
                let (low, high) = effects.split_at_mut(g);
                (&mut low[f], &high[0])
            } else {
                let (low, high) = effects.split_at_mut(f);
                (&mut high[0], &low[g])
            };
            absorb(into, from);
        }
    }
}

/// The free globals of a user function (transitively through the user
/// functions it references).
#[derive(Debug, Clone, Default)]
pub struct FunctionInfo {
    pub reads: VarSet,
    pub writes: VarSet,
    /// Globals its own body binds or changes on every path.
    pub always_writes: VarSet,
}

/// The plain functions of `definitions` by root variable, closed over calls
/// (names are interned in `vars` in the order met).
pub(crate) fn by_root<'a>(
    definitions: impl IntoIterator<Item = Definition<'a>>,
    vars: &mut Vars,
) -> FxHashMap<Var, FunctionInfo> {
    let mut keys: Vec<Var> = Vec::new();
    let mut infos: Vec<FunctionInfo> = Vec::new();
    let mut position: FxHashMap<Var, usize> = FxHashMap::default();
    for def in definitions {
        if !def.is_plain_function() {
            continue;
        }
        let var = vars.intern(def.name);
        let at = *position.entry(var).or_insert_with(|| {
            keys.push(var);
            infos.push(FunctionInfo::default());
            infos.len() - 1
        });
        let info = &mut infos[at];
        let summary = def.summary;
        for s in summary.reads.iter() {
            info.reads.insert(vars.intern(root(s)));
        }
        for s in summary.writes.iter().chain(summary.mutates.iter()) {
            info.writes.insert(vars.intern(root(s)));
        }
        for s in summary.always_writes.iter() {
            info.always_writes.insert(vars.intern(root(s)));
        }
    }
    let callees: Vec<Vec<usize>> = infos
        .iter()
        .enumerate()
        .map(|(f, info)| {
            info.reads
                .iter()
                .filter_map(|v| position.get(&v).copied())
                .filter(|&g| g != f)
                .collect()
        })
        .collect();
    close_over_calls(&mut infos, &callees, |into, from| {
        into.reads.union_with(&from.reads);
        into.writes.union_with(&from.writes);
    });
    keys.into_iter().zip(infos).collect()
}

/// The globals using a user function or class may read and change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallEffects {
    pub reads: BTreeSet<Symbol>,
    /// Bound or unbound (`global x`).
    pub binds: BTreeSet<Symbol>,
    /// Changed in place, or perhaps changed.
    pub changes: BTreeSet<Symbol>,
    /// Parameters whose objects a call may change (plain functions only,
    /// their own bodies: not through the functions they call).
    pub mutated_params: Vec<Param>,
}

/// The user functions and classes of a notebook by name, at symbol
/// granularity.
#[derive(Debug, Clone, Default)]
pub struct FunctionsByName {
    by_name: BTreeMap<String, CallEffects>,
}

impl FunctionsByName {
    /// Collects `definitions` (lambdas left out, methods under their class)
    /// and closes them over calls.
    pub fn collect<'a>(definitions: impl IntoIterator<Item = Definition<'a>>) -> FunctionsByName {
        let mut by_name: BTreeMap<String, CallEffects> = BTreeMap::new();
        for def in definitions {
            let (name, function) = (def.name, def.summary);
            if name.starts_with('<') {
                continue;
            }
            // `C.m` (a method) is part of what using `C` may do.
            let key = name.split('.').next().unwrap_or(name);
            let effects = by_name.entry(key.to_string()).or_default();
            effects.reads.extend(function.reads.iter().cloned());
            effects.binds.extend(function.writes.iter().cloned());
            for set in [&function.mutates, &function.may_mutate] {
                effects.changes.extend(set.iter().cloned());
            }
            // A method's parameters start with `self`: not mapped.
            if key == name {
                for param in &function.mutated_params {
                    if !effects.mutated_params.contains(param) {
                        effects.mutated_params.push(param.clone());
                    }
                }
            }
        }
        let (names, mut effects): (Vec<String>, Vec<CallEffects>) = by_name.into_iter().unzip();
        let callees: Vec<Vec<usize>> = effects
            .iter()
            .enumerate()
            .map(|(f, e)| {
                e.reads
                    .iter()
                    .filter_map(|s| names.binary_search_by(|n| n.as_str().cmp(root(s))).ok())
                    .filter(|&g| g != f)
                    .collect()
            })
            .collect();
        close_over_calls(&mut effects, &callees, |into, from| {
            into.reads.extend(from.reads.iter().cloned());
            into.binds.extend(from.binds.iter().cloned());
            into.changes.extend(from.changes.iter().cloned());
        });
        FunctionsByName {
            by_name: names.into_iter().zip(effects).collect(),
        }
    }

    /// What using the name `name` may read and change, when it is a user
    /// function or class.
    pub fn get(&self, name: &str) -> Option<&CallEffects> {
        self.by_name.get(name)
    }
}

/// Each plain function definition's own free globals (roots; its body only,
/// not through the functions it calls), by name, one entry per defining cell
/// in cell order (names are interned in `vars`).
pub(crate) fn own_reads<'a>(
    definitions: impl IntoIterator<Item = Definition<'a>>,
    vars: &mut Vars,
) -> FxHashMap<Var, Vec<(usize, VarSet)>> {
    let mut out: FxHashMap<Var, Vec<(usize, VarSet)>> = FxHashMap::default();
    for def in definitions {
        if !def.is_plain_function() {
            continue;
        }
        let var = vars.intern(def.name);
        let reads = VarSet::from_iter(def.summary.reads.iter().map(|s| vars.intern(root(s))));
        out.entry(var).or_default().push((def.cell, reads));
    }
    out
}

/// A call `callee(...)` of a plain name, with the names its arguments are
/// paths under (`f(train, df.a, col=c['k'])`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedCall {
    pub callee: String,
    /// By position, until the first `*args` (positions are unknown after
    /// it); `None`: not a path under a name.
    pub positional: Vec<Option<String>>,
    /// By keyword (`**kwargs` left out).
    pub keywords: Vec<(String, Option<String>)>,
    /// The call's source range.
    pub range: TextRange,
}

impl NamedCall {
    /// The call `call` when its callee is a plain name.
    pub fn of(call: &ExprCall) -> Option<NamedCall> {
        let Expr::Name(callee) = &*call.func else {
            return None;
        };
        let arguments = &call.arguments;
        let positional = arguments
            .args
            .iter()
            .take_while(|a| !a.is_starred_expr())
            .map(|a| path_root(a).map(str::to_string))
            .collect();
        let keywords = arguments
            .keywords
            .iter()
            .filter_map(|k| {
                let name = k.arg.as_ref()?;
                Some((name.to_string(), path_root(&k.value).map(str::to_string)))
            })
            .collect();
        Some(NamedCall {
            callee: callee.id.to_string(),
            positional,
            keywords,
            range: call.range(),
        })
    }

    /// The name passed as parameter `param`, by position when the call's
    /// position is known, else by keyword, when the argument is a path under
    /// a name.
    pub fn argument(&self, param: &Param) -> Option<&str> {
        if let Some(arg) = param.position.and_then(|p| self.positional.get(p)) {
            return arg.as_deref();
        }
        self.keywords
            .iter()
            .find(|(k, _)| *k == param.name)
            .and_then(|(_, v)| v.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_dataflow::SymbolSet;
    use nbsight_notebook::parse_python;
    use ruff_python_ast::visitor::{Visitor, walk_expr};

    fn set(items: &[&str]) -> SymbolSet {
        items.iter().map(|s| Symbol::from(*s)).collect()
    }

    fn summary(functions: &[(&str, FunctionSummary)]) -> CellSummary {
        CellSummary {
            functions: functions
                .iter()
                .map(|(n, f)| (n.to_string(), f.clone()))
                .collect(),
            ..CellSummary::default()
        }
    }

    fn param(position: Option<usize>, name: &str) -> Param {
        Param {
            position,
            name: name.to_string(),
        }
    }

    /// `f` reads `g`, `g` reads a global and binds another; a class `C` with
    /// `__init__`; a lambda; `h` and `k` call each other.
    fn cells() -> [CellSummary; 2] {
        let f = FunctionSummary {
            reads: set(&["g", "x"]),
            mutated_params: vec![param(Some(0), "frame")],
            ..FunctionSummary::default()
        };
        let g = FunctionSummary {
            reads: set(&["cfg['lr']"]),
            writes: set(&["counter"]),
            always_writes: set(&["counter"]),
            may_mutate: set(&["log"]),
            ..FunctionSummary::default()
        };
        let init = FunctionSummary {
            reads: set(&["base"]),
            mutates: set(&["log"]),
            mutated_params: vec![param(Some(0), "self")],
            ..FunctionSummary::default()
        };
        let h = FunctionSummary {
            reads: set(&["k", "a"]),
            ..FunctionSummary::default()
        };
        let k = FunctionSummary {
            reads: set(&["h", "b"]),
            mutates: set(&["out"]),
            ..FunctionSummary::default()
        };
        [
            summary(&[("f", f), ("h", h), ("k", k)]),
            summary(&[
                ("g", g),
                ("C.__init__", init),
                ("<lambda@1:1>", FunctionSummary::default()),
            ]),
        ]
    }

    #[test]
    fn by_name_closes_over_calls_and_groups_methods() {
        let cells = cells();
        let functions = FunctionsByName::collect(definitions([(0, &cells[0]), (2, &cells[1])]));
        let f = functions.get("f").expect("f");
        let reads: Vec<&str> = f.reads.iter().map(|s| s.as_str()).collect();
        assert_eq!(reads, ["cfg['lr']", "g", "x"]);
        assert!(f.binds.contains("counter") && f.changes.contains("log"));
        assert_eq!(f.mutated_params, [param(Some(0), "frame")]);
        let c = functions.get("C").expect("class C");
        assert!(c.reads.contains("base") && c.changes.contains("log"));
        assert!(c.mutated_params.is_empty());
        assert!(functions.get("<lambda@1:1>").is_none());
        // A cycle: each has what the other does.
        for name in ["h", "k"] {
            let e = functions.get(name).expect(name);
            assert!(e.reads.contains("a") && e.reads.contains("b"));
            assert!(e.changes.contains("out"));
        }
    }

    #[test]
    fn by_root_keeps_plain_functions_and_closes_over_calls() {
        let cells = cells();
        let mut vars = Vars::default();
        let functions = by_root(definitions([(0, &cells[0]), (2, &cells[1])]), &mut vars);
        let names = |set: &VarSet| vars.names_of(set);
        let mut keys: Vec<&str> = functions.keys().map(|&v| vars.name(v)).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["f", "g", "h", "k"]);
        let f = &functions[&vars.get("f").expect("f")];
        assert_eq!(names(&f.reads), ["cfg", "g", "x"]);
        // Perhaps-changes are not writes here; `always_writes` is not closed.
        assert_eq!(names(&f.writes), ["counter"]);
        assert!(names(&f.always_writes).is_empty());
        let g = &functions[&vars.get("g").expect("g")];
        assert_eq!(names(&g.always_writes), ["counter"]);
        let h = &functions[&vars.get("h").expect("h")];
        assert_eq!(names(&h.reads), ["a", "b", "h", "k"]);
        assert_eq!(names(&h.writes), ["out"]);
    }

    fn named_calls(src: &str) -> Vec<NamedCall> {
        struct Calls(Vec<NamedCall>);
        impl<'a> Visitor<'a> for Calls {
            fn visit_expr(&mut self, expr: &'a Expr) {
                if let Expr::Call(call) = expr {
                    self.0.extend(NamedCall::of(call));
                }
                walk_expr(self, expr);
            }
        }
        let mut calls = Calls(Vec::new());
        for stmt in &parse_python(src).module.body {
            calls.visit_stmt(stmt);
        }
        calls.0
    }

    #[test]
    fn arguments_by_position_then_keyword() {
        let found = named_calls("x = f(train, df.a, g(y), *rest, z, col=c['k'], n=1)\nobj.m(a)\n");
        assert_eq!(found.len(), 2);
        let f = &found[0];
        assert_eq!(f.callee, "f");
        assert_eq!(
            f.positional,
            [Some("train".into()), Some("df".into()), None]
        );
        assert_eq!(f.argument(&param(Some(0), "data")), Some("train"));
        // Not a path: no name, and the keyword is not looked at.
        assert_eq!(f.argument(&param(Some(2), "col")), None);
        // After `*rest` the position is unknown: the keyword decides.
        assert_eq!(f.argument(&param(Some(4), "col")), Some("c"));
        assert_eq!(f.argument(&param(Some(3), "col")), Some("c"));
        assert_eq!(f.argument(&param(None, "n")), None);
        assert_eq!(found[1].callee, "g");
    }
}
