//! The stale reads a session leaves, from its stored executions alone (what
//! `nbsight server` shows editors without a front end of nbsight's): a
//! symbol is stale when a value it was computed from has been set again
//! since, or is stale itself; a cell is stale when its latest run read a
//! symbol that is stale now (re-running it would read the old value).
//!
//! The kernel's own answer (`nbsight.status()`) knows objects, aliases and
//! in-place changes as they ran; this one knows only the symbols each run
//! read and set, as stored, so it is coarser: a value changed in place
//! counts as set again.

use rustc_hash::FxHashMap;

use crate::read::ExecutionRow;

/// A cell whose latest run read a value that is stale now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleRead {
    /// The cell, as the kernel named it, and the source it last ran.
    pub cell_id: String,
    pub source: String,
    /// The stale symbol it read.
    pub symbol: String,
    /// The cell whose run set `symbol`: re-running it refreshes the value.
    pub set_by: String,
    /// The value `symbol` was computed from that changed since, and the
    /// cell that set it again.
    pub changed: String,
    pub changed_by: String,
}

/// One symbol's latest value: the execution that set it and what it was
/// computed from (each input with the execution whose value it read).
#[derive(Debug, Default, Clone)]
struct Value {
    set_by: u32,
    inputs: Vec<(String, u32)>,
}

/// The stale reads after `rows` (one session's executions, in order), one
/// per stale cell (its first stale read), in the order the cells last ran.
pub fn stale_reads(rows: &[ExecutionRow]) -> Vec<StaleRead> {
    let mut values: FxHashMap<&str, Value> = FxHashMap::default();
    let mut latest: FxHashMap<&str, usize> = FxHashMap::default();
    for (position, row) in rows.iter().enumerate() {
        let read: Vec<(String, u32)> = row
            .reads
            .iter()
            .filter_map(|(symbol, _)| {
                let value = values.get(symbol.as_str())?;
                Some((symbol.clone(), value.set_by))
            })
            .collect();
        for symbol in &row.writes {
            // A value changed in place keeps what it was computed from.
            let mut inputs = values
                .get(symbol.as_str())
                .filter(|_| read.iter().any(|(s, _)| s == symbol))
                .map(|v| v.inputs.clone())
                .unwrap_or_default();
            for input in &read {
                if &input.0 != symbol && !inputs.iter().any(|i| i.0 == input.0) {
                    inputs.push(input.clone());
                }
            }
            values.insert(
                symbol,
                Value {
                    set_by: row.index,
                    inputs,
                },
            );
        }
        latest.insert(&row.cell_id, position);
    }
    let by_index: FxHashMap<u32, &ExecutionRow> = rows.iter().map(|r| (r.index, r)).collect();
    let cell_of = |index: u32| by_index.get(&index).map(|r| r.cell_id.clone());
    let mut memo: FxHashMap<String, Option<(String, u32)>> = FxHashMap::default();
    let mut last_runs: Vec<usize> = latest.into_values().collect();
    last_runs.sort_unstable();
    let mut out = Vec::new();
    for position in last_runs {
        let row = &rows[position];
        let found = row.reads.iter().find_map(|(symbol, _)| {
            // What the cell itself set is not stale to it.
            let value = values.get(symbol.as_str())?;
            if value.set_by == row.index {
                return None;
            }
            let (changed, by) = changed_input(symbol, &values, &mut memo, 0)?;
            Some((symbol.clone(), value.set_by, changed, by))
        });
        if let Some((symbol, set_by, changed, by)) = found {
            let (Some(set_by), Some(changed_by)) = (cell_of(set_by), cell_of(by)) else {
                continue;
            };
            out.push(StaleRead {
                cell_id: row.cell_id.clone(),
                source: row.source.clone(),
                symbol,
                set_by,
                changed,
                changed_by,
            });
        }
    }
    out
}

/// Deep enough for any notebook's chains, bounded for cyclic inputs.
const MAX_DEPTH: usize = 64;

/// The input of `symbol` (directly or through its own inputs) set again
/// since `symbol` was computed, with the execution that set it; `None`
/// when `symbol` is up to date.
fn changed_input(
    symbol: &str,
    values: &FxHashMap<&str, Value>,
    memo: &mut FxHashMap<String, Option<(String, u32)>>,
    depth: usize,
) -> Option<(String, u32)> {
    if let Some(known) = memo.get(symbol) {
        return known.clone();
    }
    if depth > MAX_DEPTH {
        return None;
    }
    let value = values.get(symbol)?;
    let mut found = None;
    for (input, seen) in &value.inputs {
        let Some(now) = values.get(input.as_str()) else {
            continue;
        };
        if now.set_by != *seen {
            found = Some((input.clone(), now.set_by));
            break;
        }
        if let Some(deeper) = changed_input(input, values, memo, depth + 1) {
            found = Some(deeper);
            break;
        }
    }
    memo.insert(symbol.to_string(), found.clone());
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RunStatus, SessionId};

    fn row(index: u32, cell: &str, reads: &[&str], writes: &[&str]) -> ExecutionRow {
        ExecutionRow {
            session: SessionId(1),
            index,
            cell_id: cell.to_string(),
            counter: index + 1,
            execution_count: Some(index + 1),
            started: 0.0,
            seconds: 0.0,
            status: RunStatus::Ok,
            source: format!("# {cell}"),
            reads: reads.iter().map(|r| (r.to_string(), true)).collect(),
            writes: writes.iter().map(|w| w.to_string()).collect(),
            depends_on: Vec::new(),
        }
    }

    #[test]
    fn a_read_of_a_value_computed_from_an_updated_one_is_stale() {
        // a = 1 / b = a + 1 / print(b) / a = 2 (cell 1 again)
        let rows = [
            row(0, "c1", &[], &["a"]),
            row(1, "c2", &["a"], &["b"]),
            row(2, "c3", &["b", "print"], &[]),
            row(3, "c1", &[], &["a"]),
        ];
        let stale = stale_reads(&rows);
        assert_eq!(stale.len(), 1, "{stale:?}");
        let read = &stale[0];
        assert_eq!(read.cell_id, "c3");
        assert_eq!(read.symbol, "b");
        assert_eq!(read.set_by, "c2");
        assert_eq!(
            (read.changed.as_str(), read.changed_by.as_str()),
            ("a", "c1")
        );

        // After cell 2 runs again nothing is stale.
        let mut rows = rows.to_vec();
        rows.push(row(4, "c2", &["a"], &["b"]));
        assert!(stale_reads(&rows).is_empty());
    }

    #[test]
    fn staleness_follows_chains_and_ignores_what_a_cell_set_itself() {
        let rows = [
            row(0, "c1", &[], &["a"]),
            row(1, "c2", &["a"], &["b"]),
            row(2, "c3", &["b"], &["c"]),
            row(3, "c4", &["c"], &[]),
            row(4, "c5", &[], &["x"]),
            row(5, "c5b", &["x"], &["x"]),
            row(6, "c1", &[], &["a"]),
        ];
        let stale = stale_reads(&rows);
        let cells: Vec<&str> = stale.iter().map(|s| s.cell_id.as_str()).collect();
        // c3 read `b` (computed from the old `a`); c4 read `c` (from `b`).
        assert_eq!(cells, ["c3", "c4"]);
        assert_eq!(stale[1].changed, "a");
        // c5b changed `x` in place: its own value is not stale to it.
    }
}
