//! The code-impact domain (NBLyzer sec. 4.1): the set of variables whose
//! value changed because of the event. A statement reading a changed variable
//! (directly or through a user function's free globals) changes what it
//! writes; a plain rebinding from unchanged values clears a variable.
//! φ = state ∩ pre(c) ≠ ∅.

use crate::domain::{Alarms, Domain, StmtCtx};
use crate::model::CellInfo;
use crate::program::{Stmt, WriteKind};
use crate::vars::{self, VarSet};

/// Changed variables.
#[derive(Debug, Clone, Default)]
pub struct Impact {
    pub changed: VarSet,
}

impl Domain for Impact {
    type Growth = VarSet;

    fn leq(&self, other: &Self) -> bool {
        vars::is_subset(&self.changed, &other.changed)
    }

    fn join(&mut self, other: &Self) {
        vars::union_with(&mut self.changed, &other.changed);
    }

    fn transfer(&mut self, stmt: &Stmt, ctx: &StmtCtx<'_>, _alarms: &mut Alarms) {
        let functions = &ctx.model.functions;
        let mut tainted = false;
        for &v in &stmt.reads {
            if vars::contains(&self.changed, v) {
                tainted = true;
                break;
            }
            if let Some(f) = functions.get(&v)
                && vars::intersects(&f.reads, &self.changed)
            {
                tainted = true;
                break;
            }
        }
        if tainted {
            for &(v, _) in &stmt.writes {
                vars::insert(&mut self.changed, v);
            }
            for &v in &stmt.reads {
                if let Some(f) = functions.get(&v) {
                    vars::union_with(&mut self.changed, &f.writes);
                }
            }
        } else {
            for &(v, kind) in &stmt.writes {
                match kind {
                    WriteKind::Strong => vars::remove(&mut self.changed, v),
                    WriteKind::Delete => vars::insert(&mut self.changed, v),
                    WriteKind::Weak => {}
                }
            }
        }
    }

    fn phi(&self, cell: &CellInfo) -> bool {
        vars::intersects(&self.changed, &cell.pre)
    }

    fn seed(&mut self, changed: &VarSet) {
        vars::union_with(&mut self.changed, changed);
    }

    fn growth(&self, old: &Self, into: &mut VarSet) {
        for v in self.changed.ones() {
            if !old.changed.contains(v) {
                vars::insert(into, v as vars::Var);
            }
        }
    }

    fn affects(&self, grown: &VarSet, cell: &CellInfo) -> bool {
        vars::intersects(grown, &cell.reads)
    }
}
