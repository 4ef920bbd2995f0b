//! Reactive re-execution: after a user's run, the cells that ran before and
//! read a symbol that run changed re-run, transitively, each once, in
//! notebook order. The Python module runs them one by one, asking for the
//! next after each (what a re-run changed is known only once it ran).

use nbsight_dataflow::symbol::{Symbol, is_prefix_or_equal};

use crate::session::Lineage;
use crate::symbols::ExecIdx;

/// Does reading `read` (as a whole or not) see a change of `changed`?
/// A read only through a path (`ex` in `ex.foo = 1`, `lst` in `lst[0] =
/// 7`) sees none: such a cell stores into the object and reads none of its
/// values, so re-running it is not needed to bring what it computed up to
/// date (ipyflow's reactivity leaves it alone too).
fn sees(read: &(Symbol, bool), changed: &str) -> bool {
    let (read, whole) = (read.0.as_str(), read.1);
    // A change of the path read or of a path above it (rebinding `lst`
    // changes `lst[2]`); for a whole read, of a path nested in it too.
    whole && (is_prefix_or_equal(changed, read) || is_prefix_or_equal(read, changed))
}

impl Lineage {
    /// The next cell to re-run after the user's run `since` (an execution
    /// index) and the re-runs that followed it: the first cell, in notebook
    /// order, that ran before, has not re-run since, and whose live symbols
    /// (as its current source reads them) see a change one of those runs
    /// made. `None` when there is none, or when the latest of those runs
    /// failed. Cells never run are not re-run.
    pub fn reactive_next(&mut self, since: ExecIdx) -> Option<(String, String)> {
        let runs = self.executions.get(since as usize..)?;
        if runs.last().is_some_and(|e| e.failed) {
            return None;
        }
        let done: Vec<&str> = runs.iter().map(|e| e.cell_id.as_str()).collect();
        let first = runs.first().map_or(0, |e| e.counter);
        // Each path changed, and whether it only gained or lost elements
        // (`append`, `pop()`) since: a reader of one of its elements sees
        // nothing.
        let changed: Vec<(Symbol, bool)> = runs
            .iter()
            .flat_map(|e| e.writes.iter().cloned())
            .map(|path| {
                let grown_only = self.graph().get(&path).is_some_and(|s| {
                    let node = self.graph().node(s);
                    node.ts < first && node.grown_ts >= first
                });
                (path, grown_only)
            })
            .collect();
        for (id, source) in self.cells() {
            if done.contains(&id.as_str()) || !self.runs.contains_key(&id) {
                continue;
            }
            let facts = self.facts.facts(&source, &self.effects);
            let live = self.live_of(&id, &source, &facts);
            if live.iter().any(|r| {
                changed.iter().any(|(c, grown_only)| {
                    if *grown_only {
                        r.1 && is_prefix_or_equal(&r.0, c)
                    } else {
                        sees(r, c)
                    }
                })
            }) {
                return Some((id, source));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_seen_by_reads() {
        let read = |s: &str, whole: bool| (Symbol::from(s), whole);
        assert!(sees(&read("b", true), "b"));
        assert!(sees(&read("lst[2]", true), "lst"));
        assert!(sees(&read("lst", true), "lst[3]"));
        assert!(!sees(&read("lst", false), "lst[3]"));
        assert!(!sees(&read("ex", false), "ex"));
        assert!(!sees(&read("lst[2]", true), "lst[3]"));
        assert!(!sees(&read("ab", true), "a"));
    }
}
