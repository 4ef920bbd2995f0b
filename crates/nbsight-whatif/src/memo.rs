//! A session's memo of cell runs, for the domains that replay them
//! (`leakage/replay.rs`, `impact/replay.rs`): per cell, the program that
//! ran, what any run of it reads and writes (its shape, computed once), and
//! its last few runs, most recently used last. An edit gives the cell
//! another program, whose runs replace the old ones.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use nbsight_model::{CellInfo, Compiled};

/// Runs kept per cell.
const KEPT_PER_CELL: usize = 8;

/// Kept runs `R` of cells with shapes `S`, shared by the states of a
/// session (and ignored by their order and join).
pub struct CellMemo<S, R> {
    cells: RefCell<Vec<Option<CellRuns<S, R>>>>,
}

impl<S, R> Default for CellMemo<S, R> {
    fn default() -> Self {
        CellMemo {
            cells: RefCell::new(Vec::new()),
        }
    }
}

impl<S, R> std::fmt::Debug for CellMemo<S, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cells = self.cells.borrow();
        let kept: usize = cells.iter().flatten().map(|c| c.runs.len()).sum();
        write!(f, "CellMemo({kept} runs)")
    }
}

/// The kept runs of one cell's program.
struct CellRuns<S, R> {
    program: Arc<Compiled>,
    shape: Rc<S>,
    runs: Vec<Rc<R>>,
}

impl<S, R> CellMemo<S, R> {
    /// The most recently used kept run of `cell`'s program that `matches`,
    /// with the program's shape; it becomes the most recently used.
    pub fn find(
        &self,
        cell: &CellInfo,
        matches: impl Fn(&S, &R) -> bool,
    ) -> Option<(Rc<R>, Rc<S>)> {
        let program = cell.compiled.as_ref()?;
        let mut cells = self.cells.borrow_mut();
        let runs = cells.get_mut(cell.index)?.as_mut()?;
        if !Arc::ptr_eq(&runs.program, program) {
            return None;
        }
        let at = runs.runs.iter().rposition(|r| matches(&runs.shape, r))?;
        let found = runs.runs.remove(at);
        runs.runs.push(found.clone());
        Some((found, runs.shape.clone()))
    }

    /// Keeps a run of `cell`'s program, made by `run` from the program's
    /// shape (made by `shape` the first time), forgetting the least
    /// recently used run when the cell has too many.
    pub fn keep(
        &self,
        cell: &CellInfo,
        shape: impl FnOnce(&Compiled) -> S,
        run: impl FnOnce(&S) -> R,
    ) {
        let Some(program) = cell.compiled.as_ref() else {
            return;
        };
        let mut cells = self.cells.borrow_mut();
        if cells.len() <= cell.index {
            cells.resize_with(cell.index + 1, || None);
        }
        let slot = &mut cells[cell.index];
        let runs = match slot {
            Some(runs) if Arc::ptr_eq(&runs.program, program) => runs,
            _ => slot.insert(CellRuns {
                program: program.clone(),
                shape: Rc::new(shape(program)),
                runs: Vec::new(),
            }),
        };
        let kept = run(&runs.shape);
        if runs.runs.len() >= KEPT_PER_CELL {
            runs.runs.remove(0);
        }
        runs.runs.push(Rc::new(kept));
    }
}
