//! Dense ids of the call sites that derive values from data (calls whose
//! roles learn from, split or resample data: `Role::derives_from_data`), so
//! that a domain can name such values by a small id. The table grows
//! as a model is rebuilt after an edit: ids already given keep their meaning
//! for the cells that did not move, so a state built on the notebook before
//! the edit still reads right on the notebook after it.

use nbsight_dataflow::index::IndexVec;
use rustc_hash::FxHashMap;

use crate::program::Program;

nbsight_dataflow::newtype_index! {
    /// The id of a call site.
    pub struct Site;
}

/// Cell and call index of each site, and the reverse map.
#[derive(Debug, Clone, Default)]
pub struct SiteTable {
    sites: IndexVec<Site, (u32, u32)>,
    ids: FxHashMap<(u32, u32), Site>,
}

/// The id of a call that is not in the table (no ML role): it never names
/// a fact.
pub const NO_SITE: Site = Site::from_u32(u32::MAX);

impl SiteTable {
    /// The id of call `call` of cell `cell`, given one if it has none.
    pub fn intern(&mut self, cell: usize, call: u32) -> Site {
        let key = (cell as u32, call);
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = self.sites.push(key);
        self.ids.insert(key, id);
        id
    }

    /// The id of call `call` of cell `cell`, or [`NO_SITE`].
    /// Interns the calls of `program` (cell `cell`) where the domain creates
    /// facts.
    pub fn intern_calls(&mut self, cell: usize, program: &Program) {
        for (i, call) in program.calls.iter().enumerate() {
            if call.user || call.roles.iter().any(|r| r.derives_from_data()) {
                self.intern(cell, i as u32);
            }
        }
    }

    pub fn id(&self, cell: usize, call: u32) -> Site {
        self.ids
            .get(&(cell as u32, call))
            .copied()
            .unwrap_or(NO_SITE)
    }

    /// Sites given an id so far.
    pub fn len(&self) -> usize {
        self.sites.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sites.is_empty()
    }

    /// The cell of a site.
    pub fn cell(&self, site: Site) -> usize {
        self.sites.get(site).map_or(0, |s| s.0 as usize)
    }

    /// The call index of a site in its cell's program.
    pub fn call(&self, site: Site) -> u32 {
        self.sites.get(site).map_or(0, |s| s.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_dense_and_stable() {
        let mut t = SiteTable::default();
        let (first, second) = (Site::from_u32(0), Site::from_u32(1));
        assert_eq!(t.intern(3, 1), first);
        assert_eq!(t.intern(5, 0), second);
        assert_eq!(t.intern(3, 1), first);
        assert_eq!((t.cell(second), t.call(second)), (5, 0));
        assert_eq!(t.id(4, 0), NO_SITE);
    }
}
