//! Cell execution dependencies: the transitive closure of flows between
//! cells, as CRABS scores them (truth, estimates and metrics all take it).

use std::collections::{BTreeMap, BTreeSet};

/// The transitive cell execution dependencies of the flows `from -> to`
/// (cells numbered either way: code-cell ids or notebook positions): `(a, b)`
/// when a chain of flows leads from cell `a` to cell `b` (`b` depends on
/// `a`). Labels are dropped and the closure taken, as the authors do with
/// networkx' `transitive_closure_dag`; pairs `(a, a)` never count (their
/// graphs are acyclic, and a flow from a cell into itself is no dependency).
pub fn transitive_dependencies<C: Copy + Ord>(
    flows: impl IntoIterator<Item = (C, C)>,
) -> BTreeSet<(C, C)> {
    let mut successors: BTreeMap<C, BTreeSet<C>> = BTreeMap::new();
    for (from, to) in flows {
        if from != to {
            successors.entry(from).or_default().insert(to);
        }
    }
    let mut dependencies = BTreeSet::new();
    for (&start, next) in &successors {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<C> = next.iter().copied().collect();
        while let Some(cell) = stack.pop() {
            if !seen.insert(cell) {
                continue;
            }
            if cell != start {
                dependencies.insert((start, cell));
            }
            if let Some(next) = successors.get(&cell) {
                stack.extend(next.iter().copied());
            }
        }
    }
    dependencies
}
