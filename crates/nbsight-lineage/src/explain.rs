//! Explanations: why a symbol a cell reads is stale (the cell that last set
//! it, the ancestor updated since and where, the cells to re-run in order),
//! and a symbol's lineage (its parents and children with their cells and
//! timestamps).

use crate::answers::{Deps, StaleRead, SymbolRef, UpdatedAncestor};
use crate::cells::CellFacts;
use crate::highlights;
use crate::session::Lineage;
use crate::symbols::{GraphSym, Read, Staleness, Ts};

fn symbol_ref(lineage: &Lineage, sym: GraphSym) -> SymbolRef {
    let node = lineage.graph().node(sym);
    SymbolRef {
        symbol: node.path.to_string(),
        cell: node
            .changed_by()
            .and_then(|e| lineage.cell_of(e))
            .map(str::to_string),
        timestamp: node.changed_ts(),
    }
}

/// The stale node a read of `sym` meets: a path above it or itself, or
/// (for a whole read) a path nested in it.
fn stale_node(
    lineage: &Lineage,
    staleness: &Staleness,
    sym: GraphSym,
    whole: bool,
) -> Option<GraphSym> {
    let graph = lineage.graph();
    if let Some(s) = graph.prefixes(sym).find(|&s| staleness.is_stale(s)) {
        return Some(s);
    }
    if whole {
        let mut nested = graph.descendants(sym);
        nested.sort();
        return nested
            .into_iter()
            .find(|&s| graph.node(s).exists && staleness.is_stale(s));
    }
    None
}

/// Explains why reading `symbol` (as a whole or not) is stale.
pub(crate) fn stale_read(
    lineage: &Lineage,
    staleness: &Staleness,
    symbol: &str,
    whole: bool,
) -> Option<StaleRead> {
    let graph = lineage.graph();
    let sym = graph.get(symbol)?;
    let start = stale_node(lineage, staleness, sym, whole)?;
    // Walk up through stale values to an ancestor set after the value
    // computed from it; every stale value on the way must be recomputed.
    let mut stale_nodes = vec![start];
    let mut ancestor = None;
    let mut i = 0;
    while i < stale_nodes.len() {
        let node = graph.node(stale_nodes[i]);
        for &p in &node.parents {
            if p.sym == stale_nodes[i] || !graph.reachable(p.sym) {
                continue;
            }
            if ancestor.is_none() && graph.visible_ts(p) > node.changed_ts() {
                let newest = graph.newest(p);
                let r = symbol_ref(lineage, newest);
                ancestor = Some(UpdatedAncestor {
                    symbol: graph.node(p.sym).path.to_string(),
                    cell: r.cell,
                    counter: r.timestamp,
                });
            }
            if staleness.read_is_stale(graph, p)
                && let Some(s) = stale_node(lineage, staleness, p.sym, p.whole)
                && !stale_nodes.contains(&s)
            {
                stale_nodes.push(s);
            }
        }
        i += 1;
    }
    let mut setters: Vec<(Ts, String)> = stale_nodes
        .iter()
        .filter_map(|&s| {
            let node = graph.node(s);
            let cell = lineage.cell_of(node.changed_by()?)?;
            Some((node.changed_ts(), cell.to_string()))
        })
        .collect();
    setters.sort();
    let mut rerun: Vec<String> = Vec::new();
    for (_, cell) in setters {
        if !rerun.contains(&cell) {
            rerun.push(cell);
        }
    }
    let node = graph.node(start);
    Some(StaleRead {
        symbol: symbol.to_string(),
        set_by: node
            .changed_by()
            .and_then(|e| lineage.cell_of(e))
            .map(str::to_string),
        ancestor,
        rerun,
    })
}

/// The lineage of `symbol` (`None` when it is not bound: never seen,
/// deleted or collected).
pub(crate) fn deps(lineage: &Lineage, staleness: &Staleness, symbol: &str) -> Option<Deps> {
    let graph = lineage.graph();
    let sym = graph.get(symbol);
    let Some(sym) = sym.filter(|&s| graph.node(s).exists) else {
        // An element or attribute no cell named, of a bound value
        // (`lst[0]` of `lst = list(range(10))`): it was made with it.
        return implied_deps(lineage, staleness, symbol);
    };
    let me = symbol_ref(lineage, sym);
    let parents = graph
        .lineage_parents(sym)
        .iter()
        .filter(|p| p.sym != sym)
        .map(|p| symbol_ref(lineage, p.sym))
        .collect();
    let children = graph
        .ids()
        .filter(|&c| {
            c != sym
                && graph.node(c).exists
                && graph.node(c).parents.iter().any(|p: &Read| p.sym == sym)
        })
        .map(|c| symbol_ref(lineage, c))
        .collect();
    Some(Deps {
        symbol: me.symbol,
        cell: me.cell,
        timestamp: me.timestamp,
        stale: staleness.value_is_stale(graph, sym),
        parents,
        children,
    })
}

/// The lineage of a path no cell named whose container is bound: the
/// container's cell and time, no parents of its own.
fn implied_deps(lineage: &Lineage, staleness: &Staleness, symbol: &str) -> Option<Deps> {
    let graph = lineage.graph();
    let path = crate::session::canonical_path(symbol)?;
    let mut prefix = nbsight_dataflow::symbol::parent(&path);
    while let Some(p) = prefix {
        if let Some(sym) = graph.get(p).filter(|&s| graph.node(s).exists) {
            let container = symbol_ref(lineage, sym);
            return Some(Deps {
                symbol: path.to_string(),
                cell: container.cell,
                timestamp: container.timestamp,
                stale: graph.prefixes(sym).any(|s| staleness.is_stale(s)),
                parents: Vec::new(),
                children: Vec::new(),
            });
        }
        prefix = nbsight_dataflow::symbol::parent(p);
    }
    None
}

impl Lineage {
    /// The stale symbols `cell_id` reads (with its current source), each
    /// explained; `None` for a cell nbsight does not know.
    pub fn why(&mut self, cell_id: &str) -> Option<Vec<StaleRead>> {
        let source = self
            .cells()
            .into_iter()
            .find(|(id, _)| id == cell_id)
            .map(|(_, source)| source)?;
        let facts = self.facts.facts(&source, &self.effects);
        Some(self.stale_reads_of(cell_id, &source, &facts))
    }

    /// The stale symbols `cell_id` would read running `source`, explained;
    /// the advice never names the cell itself (running it is what is asked
    /// about), so the warning, `why` and block mode give the same advice.
    pub(crate) fn stale_reads_of(
        &self,
        cell_id: &str,
        source: &str,
        facts: &CellFacts,
    ) -> Vec<StaleRead> {
        let live = self.live_of(cell_id, source, facts);
        let staleness = self.staleness();
        let reads = highlights::stale_reads(self.graph(), &staleness, &live)
            .into_iter()
            .filter_map(|symbol| {
                // Every stale read named is a read of the value (whole).
                let mut read = stale_read(self, &staleness, &symbol, true)?;
                read.rerun.retain(|c| c != cell_id);
                Some(read)
            })
            .collect::<Vec<_>>();
        // In the order their cells ran, so that the advice (each read's
        // cells, first seen first) is an order to re-run them in.
        let first_ran = |read: &StaleRead| {
            read.rerun
                .first()
                .and_then(|c| self.runs.get(c))
                .map_or(Ts::MAX, |r| r.counter)
        };
        let mut reads = reads;
        reads.sort_by_key(first_ran);
        reads
    }

    /// The lineage of `symbol`.
    pub fn deps(&self, symbol: &str) -> Option<Deps> {
        let staleness = self.staleness();
        deps(self, &staleness, symbol)
    }
}
