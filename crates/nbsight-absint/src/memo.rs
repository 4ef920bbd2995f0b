//! A session's memo of cell runs, for the domains that replay them (the
//! leakage domain and the what-if engine's code-impact domain): per cell,
//! the program that ran, what any run of it reads and writes (its shape,
//! computed once), and
//! its last few runs, most recently used last. An edit gives the cell
//! another program: the runs of the two programs used last are kept, so
//! that a query on an edited cell does not push out the runs of the
//! session's own program, which the next queries run again.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use nbsight_model::{CellInfo, Compiled};

/// Runs kept per cell and program: the queries of a notebook with many
/// ML cells run one cell on a few dozen states that differ in what it
/// reads, and a run pushed out is interpreted again at its next use
/// (keeping 8, the heaviest notebooks' queries cost about a sixth more).
const KEPT_PER_CELL: usize = 32;

/// Programs of one cell whose runs are kept.
const PROGRAMS_PER_CELL: usize = 2;

/// Kept runs `R` of cells with shapes `S`, shared by the states of a
/// session (and ignored by their order and join).
pub struct CellMemo<S, R> {
    /// Per cell, the runs of its programs, the most recently used first.
    cells: RefCell<Vec<Vec<CellRuns<S, R>>>>,
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
        let programs = cells.get_mut(cell.index)?;
        let at = programs
            .iter()
            .position(|runs| Arc::ptr_eq(&runs.program, program))?;
        programs[..=at].rotate_right(1);
        let runs = &mut programs[0];
        let at = runs.runs.iter().rposition(|r| matches(&runs.shape, r))?;
        let found = runs.runs.remove(at);
        runs.runs.push(found.clone());
        Some((found, runs.shape.clone()))
    }

    /// Keeps a run of `cell`'s program, made by `run` from the program's
    /// shape (made by `shape` the first time), forgetting the least
    /// recently used run when the program has too many (and the least
    /// recently used program's runs when the cell has too many programs).
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
            cells.resize_with(cell.index + 1, Vec::new);
        }
        let programs = &mut cells[cell.index];
        match programs
            .iter()
            .position(|runs| Arc::ptr_eq(&runs.program, program))
        {
            Some(at) => programs[..=at].rotate_right(1),
            None => {
                programs.truncate(PROGRAMS_PER_CELL - 1);
                programs.insert(
                    0,
                    CellRuns {
                        program: program.clone(),
                        shape: Rc::new(shape(program)),
                        runs: Vec::new(),
                    },
                );
            }
        }
        let runs = &mut programs[0];
        let kept = run(&runs.shape);
        if runs.runs.len() >= KEPT_PER_CELL {
            runs.runs.remove(0);
        }
        runs.runs.push(Rc::new(kept));
    }
}
