//! Explanations: why a symbol a cell reads is stale (the cell that last set
//! it, the ancestor updated since and where, the cells to re-run in order),
//! and a symbol's lineage (its parents and children with their cells and
//! timestamps).

use crate::session::Lineage;
use crate::symbols::{GraphSym, Read, Staleness, Ts};

/// An ancestor updated after the stale value was computed from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdatedAncestor {
    pub symbol: String,
    /// The cell that updated it (`None`: out of nbsight's sight).
    pub cell: Option<String>,
    /// When.
    pub counter: Ts,
}

/// A stale symbol a cell reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleRead {
    pub symbol: String,
    /// The cell that last set the stale value.
    pub set_by: Option<String>,
    pub ancestor: Option<UpdatedAncestor>,
    /// The cells to re-run, in order, to refresh it.
    pub rerun: Vec<String>,
}

/// A symbol as a lineage lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolRef {
    pub symbol: String,
    pub cell: Option<String>,
    pub timestamp: Ts,
}

/// A symbol's lineage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deps {
    pub symbol: String,
    /// The cell that last set it.
    pub cell: Option<String>,
    pub timestamp: Ts,
    pub stale: bool,
    /// The symbols its value was computed from.
    pub parents: Vec<SymbolRef>,
    /// The symbols computed from it.
    pub children: Vec<SymbolRef>,
}

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
