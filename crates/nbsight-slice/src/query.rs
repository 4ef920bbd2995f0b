//! Slicing queries: the [`Slicer`] of a notebook, and the [`Slice`]s it
//! answers.
//!
//! - Backward, statements: the target cell's statements (IPython escapes that
//!   bind nothing left out) and, transitively, what they depend on.
//! - Backward, cells: the same closure where taking a statement takes its
//!   whole cell, and with it everything the cell's other statements need
//!   (running a cell runs all of it).
//! - Forward: the statements that transitively depend on one of the target
//!   cell's statements (the target included); at cell granularity, the cells
//!   holding them.
//!
//! The slice-size ratio is the number of statements in the slice over the
//! number of statements of the notebook's Python cells that parse (at cell
//! granularity, the statements of the cells in the slice).

use std::sync::Arc;

use fixedbitset::FixedBitSet;
use nbsight_dataflow::Effects;
use nbsight_model::{CellStatus, Compiled, FunctionsByName, NotebookModel};
use nbsight_notebook::{CellIndex, Notebook, OneIndexed};
use serde::Serialize;

use super::SliceError;
use super::deps::{Dependences, dependences};
use super::units::{Layout, UnitId};

/// Which way a slice goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// What the target cell needs.
    Backward,
    /// What depends on the target cell.
    Forward,
}

/// What a slice is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Granularity {
    /// Whole cells.
    Cells,
    /// Statements (a compound statement's header and the nested statements
    /// needed).
    Statements,
}

/// A statement of a slice: its cell and its first and last lines within
/// the cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StmtRef {
    pub cell: CellIndex,
    pub line: OneIndexed,
    pub end_line: OneIndexed,
    /// The statement's source (for a compound statement, its first header:
    /// `if c:`, `for x in xs:`).
    pub text: String,
}

/// The target cell does not parse: its dependences are unknown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TargetError {
    pub line: OneIndexed,
    pub column: OneIndexed,
    pub message: String,
}

/// A slice of a notebook.
#[derive(Debug, Clone)]
pub struct Slice {
    pub notebook: String,
    /// The target cell.
    pub cell: CellIndex,
    pub direction: Direction,
    pub granularity: Granularity,
    /// The cells of the slice, in notebook order.
    pub cells: Vec<CellIndex>,
    /// Its statements, in notebook order.
    pub statements: Vec<StmtRef>,
    pub statements_in_slice: usize,
    pub statements_in_notebook: usize,
    /// `statements_in_slice / statements_in_notebook` (0 for a notebook
    /// without statements).
    pub ratio: f64,
    /// Set when the target cell has a syntax error: the slice is then the
    /// cell alone.
    pub target_error: Option<TargetError>,
    pub(crate) layout: Arc<Layout>,
    /// The units of the slice.
    pub(crate) units: FixedBitSet,
}

/// The dependence graph of a notebook, ready for slicing queries.
#[derive(Debug, Clone)]
pub struct Slicer {
    layout: Arc<Layout>,
    deps: Dependences,
    /// The units depending on each unit (for forward slices).
    dependents: Vec<Vec<UnitId>>,
}

impl Slicer {
    /// The slicer of `notebook`: its model ([`NotebookModel::new`]), then
    /// [`Slicer::from_model`].
    pub fn new(notebook: &Notebook, effects: &Effects) -> Slicer {
        Slicer::from_model(&NotebookModel::new(notebook, effects))
    }

    /// Builds the dependence graph of `model`'s notebook from what the model
    /// parsed and analysed once (each Python cell's parse and dataflow CFG,
    /// the user functions' summaries): nothing is parsed or analysed again.
    pub fn from_model(model: &NotebookModel) -> Slicer {
        let mut layout = Layout {
            path: model.path.clone(),
            ..Layout::default()
        };
        let mut analyses: Vec<Option<&Compiled>> = Vec::with_capacity(model.cells.len());
        for cell in &model.cells {
            match (
                &cell.status,
                cell.parsed.as_deref(),
                cell.compiled.as_deref(),
            ) {
                (CellStatus::Code, Some(parsed), Some(compiled)) => {
                    let magic = cell
                        .cell_magic
                        .as_ref()
                        .map(|m| format!("%%{} {}", m.name, m.args).trim_end().to_string());
                    layout.push_code(&cell.id, magic, parsed);
                    analyses.push(Some(compiled));
                }
                (status, ..) => {
                    layout.push_empty(&cell.id, status.clone());
                    analyses.push(None);
                }
            }
        }
        let functions = FunctionsByName::collect(model.definitions());
        let deps = dependences(&layout, &analyses, &functions);
        let mut dependents = vec![Vec::new(); layout.units.len()];
        for (unit, list) in deps.deps.iter().enumerate() {
            for &d in list {
                dependents[d as usize].push(unit as UnitId);
            }
        }
        Slicer {
            layout: Arc::new(layout),
            deps,
            dependents,
        }
    }

    /// The notebook's path as given.
    pub fn path(&self) -> &str {
        &self.layout.path
    }

    /// Statements of the Python cells that parse.
    pub fn statement_count(&self) -> usize {
        self.layout.units.len()
    }

    /// The Python cells with a syntax error: (cell, line, column, message).
    /// They are never in a slice unless they are its target.
    pub fn broken_cells(&self) -> Vec<(CellIndex, TargetError)> {
        self.layout
            .cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match &c.state {
                CellStatus::Broken {
                    line,
                    column,
                    message,
                } => Some((
                    CellIndex::new(i),
                    TargetError {
                        line: *line,
                        column: *column,
                        message: message.clone(),
                    },
                )),
                _ => None,
            })
            .collect()
    }

    /// Indices of the cells a slice can target (Python cells, parsed or not).
    pub fn code_cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.layout
            .cells
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c.state, CellStatus::Code | CellStatus::Broken { .. }))
            .map(|(i, _)| i)
    }

    /// The backward slice of cell `cell`.
    pub fn backward(&self, cell: usize, granularity: Granularity) -> Result<Slice, SliceError> {
        if let Some(slice) = self.check_target(cell, Direction::Backward, granularity)? {
            return Ok(slice);
        }
        let layout = &self.layout;
        let mut closure = Closure {
            units: FixedBitSet::with_capacity(layout.units.len()),
            cells: FixedBitSet::with_capacity(layout.cells.len()),
            work: Vec::new(),
        };
        match granularity {
            Granularity::Cells => closure.take_cell(layout, cell),
            Granularity::Statements => {
                for u in layout.cells[cell].units.clone() {
                    // Escapes that bind nothing are never needed.
                    let inert =
                        layout.unit(u).escape.is_some() && !self.deps.defines.contains(u as usize);
                    if !inert {
                        closure.take(u);
                    }
                }
            }
        }
        while let Some(u) = closure.work.pop() {
            for &d in &self.deps.deps[u as usize] {
                match granularity {
                    Granularity::Cells => closure.take_cell(layout, layout.unit(d).cell),
                    Granularity::Statements => closure.take(d),
                }
            }
        }
        let units = closure.units;
        Ok(self.slice(cell, Direction::Backward, granularity, units))
    }

    /// The forward slice of cell `cell`.
    pub fn forward(&self, cell: usize, granularity: Granularity) -> Result<Slice, SliceError> {
        if let Some(slice) = self.check_target(cell, Direction::Forward, granularity)? {
            return Ok(slice);
        }
        let layout = &self.layout;
        let mut units = FixedBitSet::with_capacity(layout.units.len());
        let mut work: Vec<UnitId> = layout.cells[cell].units.clone().collect();
        for &u in &work {
            units.insert(u as usize);
        }
        while let Some(u) = work.pop() {
            for &d in &self.dependents[u as usize] {
                if !units.put(d as usize) {
                    work.push(d);
                }
            }
        }
        if granularity == Granularity::Cells {
            let cells: Vec<usize> = units.ones().map(|u| layout.units[u].cell).collect();
            for c in cells {
                units.insert_range(
                    layout.cells[c].units.start as usize..layout.cells[c].units.end as usize,
                );
            }
        }
        Ok(self.slice(cell, Direction::Forward, granularity, units))
    }

    /// Every Python cell from the first to `cell`, whole: what running the
    /// notebook top to bottom executes up to `cell`'s result (a slice that
    /// leaves nothing out, to compare with).
    pub fn prefix(&self, cell: usize) -> Result<Slice, SliceError> {
        if let Some(slice) = self.check_target(cell, Direction::Backward, Granularity::Cells)? {
            return Ok(slice);
        }
        let end = self.layout.cells[cell].units.end as usize;
        let mut units = FixedBitSet::with_capacity(self.layout.units.len());
        units.insert_range(..end);
        Ok(self.slice(cell, Direction::Backward, Granularity::Cells, units))
    }

    /// Checks the target; a cell with a syntax error is a slice of itself.
    fn check_target(
        &self,
        cell: usize,
        direction: Direction,
        granularity: Granularity,
    ) -> Result<Option<Slice>, SliceError> {
        let path = || self.layout.path.clone();
        let Some(target) = self.layout.cells.get(cell) else {
            return Err(SliceError::NoSuchCell {
                path: path(),
                cell,
                count: self.layout.cells.len(),
            });
        };
        match &target.state {
            CellStatus::Code => Ok(None),
            CellStatus::NotCode(kind) => Err(SliceError::NotCode {
                path: path(),
                cell,
                kind,
            }),
            CellStatus::Opaque(reason) => Err(SliceError::NotPython {
                path: path(),
                cell,
                reason: reason.clone(),
            }),
            CellStatus::Broken {
                line,
                column,
                message,
            } => {
                let mut slice = self.slice(
                    cell,
                    direction,
                    granularity,
                    FixedBitSet::with_capacity(self.layout.units.len()),
                );
                slice.cells = vec![CellIndex::new(cell)];
                slice.target_error = Some(TargetError {
                    line: *line,
                    column: *column,
                    message: message.clone(),
                });
                Ok(Some(slice))
            }
        }
    }

    fn slice(
        &self,
        cell: usize,
        direction: Direction,
        granularity: Granularity,
        units: FixedBitSet,
    ) -> Slice {
        let layout = &self.layout;
        // The target is in its slice even without statements (a cell of
        // comments).
        let mut cells: Vec<CellIndex> = units
            .ones()
            .map(|u| CellIndex::new(layout.units[u].cell))
            .collect();
        cells.push(CellIndex::new(cell));
        cells.sort_unstable();
        cells.dedup();
        let statements: Vec<StmtRef> = units
            .ones()
            .map(|u| {
                let unit = &layout.units[u];
                StmtRef {
                    cell: CellIndex::new(unit.cell),
                    line: unit.line,
                    end_line: unit.end_line,
                    text: layout.text(unit.cell, unit.header).to_string(),
                }
            })
            .collect();
        let in_notebook = layout.units.len();
        Slice {
            notebook: layout.path.clone(),
            cell: CellIndex::new(cell),
            direction,
            granularity,
            cells,
            statements_in_slice: statements.len(),
            statements,
            statements_in_notebook: in_notebook,
            ratio: if in_notebook == 0 {
                0.0
            } else {
                units.count_ones(..) as f64 / in_notebook as f64
            },
            target_error: None,
            layout: layout.clone(),
            units,
        }
    }
}

/// A closure being computed: what is taken, and what is left to follow.
struct Closure {
    units: FixedBitSet,
    cells: FixedBitSet,
    work: Vec<UnitId>,
}

impl Closure {
    fn take(&mut self, unit: UnitId) {
        if !self.units.put(unit as usize) {
            self.work.push(unit);
        }
    }

    fn take_cell(&mut self, layout: &Layout, cell: usize) {
        if !self.cells.put(cell) {
            for u in layout.cells[cell].units.clone() {
                self.take(u);
            }
        }
    }
}

impl Slice {
    /// Is the statement whose first line is `line` of cell `cell` in the
    /// slice?
    pub fn has_statement(&self, cell: CellIndex, line: OneIndexed) -> bool {
        self.statements
            .iter()
            .any(|s| s.cell == cell && s.line == line)
    }
}
