//! Every notebook of the shared corpus (`../shared/corpus`, skipped when
//! absent) is sliced from every code cell, backward and forward, by cells and
//! by statements, without a panic; the slices are consistent and every
//! gathered backward slice is Python that parses (and a notebook that loads).
//! Prints the mean slice-size ratios.

#![allow(clippy::print_stdout, clippy::print_stderr)] // a test says what it compared or skipped

use nbsight_dataflow::Effects;
use nbsight_slice::{GatherFormat, Granularity, Slicer, gather};
use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, Stmt};

/// Counts IPython escapes (which a script must not have).
struct Escapes(usize);

impl<'a> Visitor<'a> for Escapes {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        self.0 += usize::from(stmt.is_ipy_escape_command_stmt());
        walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        self.0 += usize::from(expr.is_ipy_escape_command_expr());
        walk_expr(self, expr);
    }
}

#[test]
fn every_corpus_notebook_is_sliced() {
    let Some(corpus) = nbsight_model::testing::corpus() else {
        return;
    };
    let effects = Effects::builtin();
    let (mut targets, mut by_statements, mut by_cells, mut forward) = (0usize, 0.0, 0.0, 0.0);
    for (path, notebook) in &corpus {
        let slicer = Slicer::new(notebook, &effects);
        let broken: Vec<usize> = slicer
            .broken_cells()
            .iter()
            .map(|(c, _)| c.index())
            .collect();
        for cell in slicer.code_cells().filter(|c| !broken.contains(c)) {
            let target = nbsight_notebook::CellIndex::new(cell);
            let statements = slicer
                .backward(cell, Granularity::Statements)
                .expect("a code cell");
            let cells = slicer
                .backward(cell, Granularity::Cells)
                .expect("a code cell");
            let ahead = slicer
                .forward(cell, Granularity::Statements)
                .expect("a code cell");
            for slice in [&statements, &cells, &ahead] {
                assert!(slice.cells.contains(&target), "{}: {cell}", path.display());
                assert!((0.0..=1.0).contains(&slice.ratio));
                assert!(slice.cells.iter().all(|c| !broken.contains(&c.index())));
            }
            assert!(statements.cells.iter().all(|c| cells.cells.contains(c)));
            assert!(statements.statements_in_slice <= cells.statements_in_slice);
            assert!(statements.cells.iter().all(|&c| c <= target));
            assert!(ahead.cells.iter().all(|&c| c >= target));
            targets += 1;
            by_statements += statements.ratio;
            by_cells += cells.ratio;
            forward += ahead.ratio;
            for slice in [&statements, &cells] {
                let script = gather(slice, GatherFormat::Py).expect("gathers");
                let parsed = nbsight_notebook::parse_python(&script);
                assert!(
                    !parsed.has_errors(),
                    "{} cell {cell} ({:?}): {:?}\n{script}",
                    path.display(),
                    slice.granularity,
                    parsed.errors.first()
                );
                let mut escapes = Escapes(0);
                escapes.visit_body(&parsed.module.body);
                assert_eq!(
                    escapes.0,
                    0,
                    "{} cell {cell}: an IPython line left in\n{script}",
                    path.display()
                );
            }
            let text = gather(&statements, GatherFormat::Ipynb).expect("gathers");
            let reloaded =
                nbsight_notebook::load_ipynb_str(std::path::Path::new("gathered.ipynb"), &text)
                    .expect("the gathered notebook loads");
            assert_eq!(reloaded.cells.len(), statements.cells.len());
            assert!(
                reloaded
                    .cells
                    .iter()
                    .all(|c| c.parse().is_some_and(|p| !p.has_errors()))
            );
        }
    }
    if targets > 0 {
        let n = targets as f64;
        eprintln!(
            "{targets} cells sliced; mean backward slice-size ratio {:.3} by statements, {:.3} by cells; forward {:.3} by statements",
            by_statements / n,
            by_cells / n,
            forward / n
        );
    }
}
