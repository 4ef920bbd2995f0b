//! What reading a user function or class means for a slice: calling it
//! reads its free globals and may change the globals it writes or mutates
//! (`nbsight-dataflow`'s function summaries). A read of the name `f` counts
//! as a call (`f(x)`, `df.apply(f)`); a read of a class `C` as calling any
//! of its methods (`C()`, `C.m()`). Functions calling other user functions
//! get their effects too (closed transitively by name).
//!
//! A call `f(train)` of a function whose body changes its parameter in
//! place also changes `train` (its own body only: not through the functions
//! it calls, nor for methods).
//!
//! Functions are keyed by name across the notebook: a name defined twice
//! has the effects of both definitions.

use std::collections::{BTreeMap, BTreeSet};

use nbsight_dataflow::symbol::root;
use nbsight_dataflow::{CellSummary, Param, Symbol};

/// The globals a call may read and change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CallEffects {
    pub reads: BTreeSet<Symbol>,
    /// Bound or unbound (`global x`).
    pub binds: BTreeSet<Symbol>,
    /// Changed in place, or perhaps changed.
    pub changes: BTreeSet<Symbol>,
    /// Parameters whose objects a call may change (plain functions only).
    pub mutated_params: Vec<Param>,
}

/// The user functions and classes of a notebook by name.
#[derive(Debug, Clone, Default)]
pub(crate) struct Functions {
    by_name: BTreeMap<String, CallEffects>,
}

impl Functions {
    /// Collects the functions of the summaries and closes them over calls.
    pub fn collect<'a>(summaries: impl IntoIterator<Item = &'a CellSummary>) -> Functions {
        let mut by_name: BTreeMap<String, CallEffects> = BTreeMap::new();
        for summary in summaries {
            for (name, function) in &summary.functions {
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
        }
        // A function reading another one calls it.
        loop {
            let mut changed = false;
            let names: Vec<String> = by_name.keys().cloned().collect();
            for name in &names {
                let callees: Vec<String> = by_name[name]
                    .reads
                    .iter()
                    .map(|s| root(s))
                    .filter(|r| *r != name && by_name.contains_key(*r))
                    .map(str::to_string)
                    .collect();
                for callee in callees {
                    let extra = by_name[&callee].clone();
                    let Some(effects) = by_name.get_mut(name) else {
                        continue;
                    };
                    let size = |e: &CallEffects| (e.reads.len(), e.binds.len(), e.changes.len());
                    let before = size(effects);
                    effects.reads.extend(extra.reads);
                    effects.binds.extend(extra.binds);
                    effects.changes.extend(extra.changes);
                    changed |= before != size(effects);
                }
            }
            if !changed {
                break;
            }
        }
        Functions { by_name }
    }

    /// What using the name `name` may read and change, when it is a user
    /// function or class.
    pub fn get(&self, name: &str) -> Option<&CallEffects> {
        self.by_name.get(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_dataflow::{FunctionSummary, SymbolSet};

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

    #[test]
    fn closes_over_calls_and_groups_methods() {
        let f = FunctionSummary {
            reads: set(&["g", "x"]),
            ..FunctionSummary::default()
        };
        let g = FunctionSummary {
            reads: set(&["cfg['lr']"]),
            writes: set(&["counter"]),
            ..FunctionSummary::default()
        };
        let init = FunctionSummary {
            reads: set(&["base"]),
            mutates: set(&["log"]),
            ..FunctionSummary::default()
        };
        let functions = Functions::collect([
            &summary(&[("f", f)]),
            &summary(&[
                ("g", g),
                ("C.__init__", init),
                ("<lambda@1:1>", FunctionSummary::default()),
            ]),
        ]);
        let f = functions.get("f").expect("f");
        let reads: Vec<&str> = f.reads.iter().map(|s| s.as_str()).collect();
        assert_eq!(reads, ["cfg['lr']", "g", "x"]);
        assert!(f.binds.contains("counter"));
        let c = functions.get("C").expect("class C");
        assert!(c.reads.contains("base") && c.changes.contains("log"));
        assert!(functions.get("<lambda@1:1>").is_none());
    }
}
