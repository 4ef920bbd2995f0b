//! Notebook-level entry point of the per-cell analyses: parses every Python
//! cell once, builds the notebook's import bindings, and summarises each cell.
//! A cell that does not parse gets its syntax errors and no summary; the other
//! cells are analysed all the same.

use nbsight_notebook::{Cell, CodeForm, Notebook, ParsedCell, SyntaxIssue};

use crate::build::Context;
use crate::effects::Effects;
use crate::imports::ImportEnv;
use crate::summarize::{ModuleAnalysis, analyze_module, analyze_timed_module};

/// The analysis of one cell of a notebook.
#[derive(Debug, Clone)]
pub struct CellAnalysis {
    /// The cell's index in the notebook's cell list.
    pub index: usize,
    /// Syntax errors of a Python cell (then `module` is `None`).
    pub errors: Vec<SyntaxIssue>,
    /// The IR and summary of a Python cell that parsed.
    pub module: Option<ModuleAnalysis>,
}

/// The per-cell analyses of a notebook, in cell order (every cell is present).
#[derive(Debug, Clone)]
pub struct NotebookAnalysis {
    pub cells: Vec<CellAnalysis>,
    pub imports: ImportEnv,
}

/// Analyses every cell of `notebook`.
pub fn analyze_notebook(notebook: &Notebook, effects: &Effects) -> NotebookAnalysis {
    let (parsed, imports) = parse_notebook(notebook);
    let ctx = Context {
        effects,
        imports: &imports,
        source: "",
    };
    let cells = notebook
        .cells
        .iter()
        .zip(parsed)
        .map(|(cell, parsed)| match parsed {
            Some(parsed) if parsed.has_errors() => CellAnalysis {
                index: cell.index,
                errors: parsed.errors,
                module: None,
            },
            Some(parsed) => CellAnalysis {
                index: cell.index,
                errors: Vec::new(),
                module: Some(analyze_cell(cell, &parsed, ctx)),
            },
            None => CellAnalysis {
                index: cell.index,
                errors: Vec::new(),
                module: None,
            },
        })
        .collect();
    NotebookAnalysis { cells, imports }
}

/// Parses every Python cell of `notebook` once (`None` for the others) and
/// collects the import bindings of the cells that parsed.
pub fn parse_notebook(notebook: &Notebook) -> (Vec<Option<ParsedCell>>, ImportEnv) {
    let parsed: Vec<Option<ParsedCell>> = notebook.cells.iter().map(|c| c.parse()).collect();
    let imports = ImportEnv::of_cells(parsed.iter().flatten());
    (parsed, imports)
}

/// Analyses one parsed Python cell (`ctx.source` is replaced by the parsed
/// text).
pub fn analyze_cell(cell: &Cell, parsed: &ParsedCell, ctx: Context<'_>) -> ModuleAnalysis {
    let ctx = Context {
        source: parsed.source(),
        ..ctx
    };
    let body = &parsed.module.body;
    match cell.form.cell_magic() {
        Some(magic) if magic.name == "timeit" => analyze_timed_module(body, ctx),
        _ => analyze_module(body, ctx, capture_variable(&cell.form)),
    }
}

/// The variable `%%capture [options] out` stores the cell's output in.
fn capture_variable(form: &CodeForm) -> Option<&str> {
    let magic = form.cell_magic()?;
    if magic.name != "capture" {
        return None;
    }
    magic.args.split_whitespace().find(|w| !w.starts_with('-'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_notebook::CellMagic;

    #[test]
    fn capture_variable_skips_options() {
        let form = CodeForm::Python {
            cell_magic: Some(CellMagic {
                name: "capture".into(),
                args: "--no-stderr out".into(),
            }),
        };
        assert_eq!(capture_variable(&form), Some("out"));
        let none = CodeForm::Python { cell_magic: None };
        assert_eq!(capture_variable(&none), None);
    }
}
