//! Reaching definitions inside one scope: for every read, the writes (or the
//! value from before the scope) it may see. A write of `x` ends the earlier
//! writes of `x` and of paths nested in it; a read of `x.a` sees writes of `x`,
//! of `x.a` and of paths nested in `x.a`.

use fixedbitset::FixedBitSet;

use super::Order;
use crate::cfg::{Cfg, NodeId};
use crate::index::IndexVec;
use crate::symbol::{SymId, SymbolTable};

/// Where a value read may come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DefSite {
    /// From before the scope started (an earlier cell, or the caller).
    Entry,
    /// From the access `access` of node `node`.
    At { node: NodeId, access: usize },
}

/// One read and the definitions that reach it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReachingRead {
    pub node: NodeId,
    pub access: usize,
    pub symbol: SymId,
    pub defs: Vec<DefSite>,
}

/// Reaching definitions for every read in `cfg`.
pub fn reaching_definitions(cfg: &Cfg, table: &SymbolTable) -> Vec<ReachingRead> {
    let n_syms = table.len();
    // Definition sites: one "entry" definition per symbol, then every access
    // that binds or changes something.
    let mut sites: Vec<(DefSite, SymId)> = table.ids().map(|s| (DefSite::Entry, s)).collect();
    // site_of[node][access]: the site index of a defining access.
    let mut site_of: IndexVec<NodeId, Vec<Option<usize>>> = IndexVec::with_capacity(cfg.len());
    for (node_id, node) in cfg.nodes.iter_enumerated() {
        let mut row = Vec::with_capacity(node.accesses.len());
        for (i, access) in node.accesses.iter().enumerate() {
            if access.kind.is_read() {
                row.push(None);
            } else {
                row.push(Some(sites.len()));
                sites.push((
                    DefSite::At {
                        node: node_id,
                        access: i,
                    },
                    access.symbol,
                ));
            }
        }
        site_of.push(row);
    }
    let n_sites = sites.len();
    // Sites killed by a definite write of each symbol.
    let killed_by: IndexVec<SymId, FixedBitSet> = table
        .ids()
        .map(|w| {
            let mut set = FixedBitSet::with_capacity(n_sites);
            for (i, (_, s)) in sites.iter().enumerate() {
                if table.is_ancestor_or_self(w, *s) {
                    set.insert(i);
                }
            }
            set
        })
        .collect();
    let site_index = |node: NodeId, access: usize| site_of[node][access];

    // Node transfer functions, applied access by access.
    let transfer = |node: NodeId, state: &mut FixedBitSet| {
        for (i, access) in cfg.nodes[node].accesses.iter().enumerate() {
            if access.kind.is_read() {
                continue;
            }
            if access.kind.is_definite_write() {
                state.difference_with(&killed_by[access.symbol]);
            }
            if let Some(site) = site_index(node, i) {
                state.insert(site);
            }
        }
    };

    let order = Order::of(cfg);
    let mut outs =
        IndexVec::<NodeId, _>::from_elem_n(FixedBitSet::with_capacity(n_sites), cfg.len());
    outs[Cfg::ENTRY].insert_range(..n_syms);
    let mut changed = true;
    let mut state = FixedBitSet::with_capacity(n_sites);
    while changed {
        changed = false;
        for &node in &order.rpo {
            if node == Cfg::ENTRY {
                continue;
            }
            state.clear();
            for &pred in &cfg.nodes[node].pred {
                state.union_with(&outs[pred]);
            }
            transfer(node, &mut state);
            if state != outs[node] {
                outs[node].clone_from(&state);
                changed = true;
            }
        }
    }

    // Replay each reachable node to answer its reads in order.
    let mut reads = Vec::new();
    for &node in &order.rpo {
        if !order.reachable[node] || node == Cfg::ENTRY {
            continue;
        }
        state.clear();
        for &pred in &cfg.nodes[node].pred {
            state.union_with(&outs[pred]);
        }
        for (i, access) in cfg.nodes[node].accesses.iter().enumerate() {
            if access.kind.is_read() {
                let read = access.symbol;
                let mut defs: Vec<DefSite> = state
                    .ones()
                    .filter(|&site| table.related(sites[site].1, read))
                    .filter(|&site| {
                        // The entry value of a path nested in the one read is
                        // part of the read path's own entry value.
                        sites[site].0 != DefSite::Entry
                            || table.is_ancestor_or_self(sites[site].1, read)
                    })
                    .map(|site| sites[site].0)
                    .collect();
                defs.sort();
                defs.dedup();
                reads.push(ReachingRead {
                    node,
                    access: i,
                    symbol: access.symbol,
                    defs,
                });
            } else {
                if access.kind.is_definite_write() {
                    state.difference_with(&killed_by[access.symbol]);
                }
                if let Some(site) = site_index(node, i) {
                    state.insert(site);
                }
            }
        }
    }
    reads.sort_by_key(|r| (r.node, r.access));
    reads
}
