//! Stale, fresh and refresher cells (nbsafety Definitions 7–10, Theorem 1,
//! Algorithm 4), in time linear in the size of the notebook once the
//! symbols' staleness is known:
//! - a cell is *stale* when one of its live symbols is stale;
//! - it is *fresh* when it is not stale and, for a cell that ran with its
//!   current source, a live symbol was set after its last run; for a cell
//!   that never ran (or was edited since), when every live input exists and
//!   none is stale (a cell reading an undefined name is neither);
//! - it is a *refresher* when it is not stale and running it would kill
//!   (DEAD) a stale live symbol of some stale cell.

use nbsight_dataflow::symbol::root;
use rustc_hash::FxHashSet;

use crate::symbols::{Read, Staleness, SymbolGraph, Ts};

/// What the highlights need of one cell.
#[derive(Debug, Clone)]
pub(crate) struct CellInput<'a> {
    pub id: &'a str,
    /// Its live symbols, with whether each is read as a whole.
    pub live: &'a [(nbsight_dataflow::Symbol, bool)],
    /// Live symbols its last run read whole only as an alias's object or
    /// to draw from them: a change in place of those does not freshen it.
    pub binding_only: &'a [nbsight_dataflow::Symbol],
    pub dead: &'a [nbsight_dataflow::Symbol],
    /// When it last ran with its current source.
    pub last_run: Option<Ts>,
}

/// The highlights of a notebook.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Highlights {
    /// Cell ids, in notebook order.
    pub stale: Vec<String>,
    pub fresh: Vec<String>,
    pub refreshers: Vec<String>,
    /// For each stale cell (in `stale`'s order), its stale live symbols.
    pub stale_reads: Vec<Vec<String>>,
}

/// The stale reads among a cell's live symbols.
pub(crate) fn stale_reads(
    graph: &SymbolGraph,
    staleness: &Staleness,
    live: &[(nbsight_dataflow::Symbol, bool)],
) -> Vec<String> {
    // A path read only on the way to another (`foo` in `foo.x`, `d` in
    // `d[k] = v`) reads its binding, not its value: a stale value there is
    // named by the path read through it, if the cell reads one. A path no
    // cell named yet (`df.a`) is named by the nearest path known above it.
    let mut out: Vec<String> = Vec::new();
    for (symbol, whole) in live {
        if !*whole {
            continue;
        }
        let Some(sym) = graph.known_prefix(symbol) else {
            continue;
        };
        if staleness.read_is_stale(graph, Read::new(sym, true)) {
            let name = graph.node(sym).path.to_string();
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// The highlights of `cells` (in notebook order).
pub(crate) fn highlights(
    graph: &SymbolGraph,
    staleness: &Staleness,
    cells: &[CellInput<'_>],
) -> Highlights {
    let mut out = Highlights::default();
    // The stale live symbols of stale cells and every path above them.
    let mut killable: FxHashSet<String> = FxHashSet::default();
    let mut non_stale = Vec::new();
    for cell in cells {
        let reads = stale_reads(graph, staleness, cell.live);
        if !reads.is_empty() {
            out.stale.push(cell.id.to_string());
            for s in &reads {
                let mut path = Some(s.as_str());
                while let Some(p) = path {
                    killable.insert(p.to_string());
                    path = nbsight_dataflow::symbol::parent(p);
                }
            }
            out.stale_reads.push(reads);
            continue;
        }
        non_stale.push(cell);
        let fresh = match cell.last_run {
            Some(ts) => cell.live.iter().any(|(symbol, whole)| {
                let whole = *whole && !cell.binding_only.contains(symbol);
                graph
                    .get(symbol)
                    .is_some_and(|sym| graph.visible_ts(Read::new(sym, whole)) > ts)
            }),
            None => cell.live.iter().all(|(symbol, _)| {
                graph
                    .get(root(symbol))
                    .is_some_and(|sym| graph.node(sym).exists)
            }),
        };
        if fresh {
            out.fresh.push(cell.id.to_string());
        }
    }
    // Killing a symbol refreshes the stale symbols it is a prefix of.
    for cell in non_stale {
        if cell.dead.iter().any(|d| killable.contains(d.as_str())) {
            out.refreshers.push(cell.id.to_string());
        }
    }
    out
}
