//! One notebook through one analysis: its status row and its rows of the
//! analysis's own table. The `check` analysis runs exactly what `nbsight
//! check` runs ([`nbsight_check::check_notebook`]: the same rules, the same
//! suppressions), so a row's findings equal `nbsight check` on the
//! notebook written out as a file. A panic of an analysis is caught: the
//! notebook is `unreadable`, with the panic's message.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use nbsight_check::RuleSet;
use nbsight_dataflow::Effects;
use nbsight_flow::FlowOptions;
use nbsight_model::NotebookModel;
use nbsight_notebook::{CellIndex, Notebook, load_ipynb_bytes, load_ipynb_str};

use crate::outcome::{Outcome, Status};
use crate::rows::{FindingRow, FlowRow, Rows};
use crate::source::{Body, Item, read_file};
use crate::{cells, events, slices};

/// What a scan runs on each notebook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Analysis {
    /// The rules of `nbsight check` (table `findings`).
    Check,
    /// Each cell's summary, as `nbsight cells` (table `cells`).
    Cells,
    /// The information flows between cells, as `nbsight flow` (table
    /// `flows`).
    Flow,
    /// What opening the notebook and executing each code cell could lead
    /// to from its saved history, as `nbsight whatif` (table `events`).
    Whatif,
    /// The backward and forward slices of each code cell, as `nbsight
    /// slice` (table `slices`).
    Slice,
}

impl Analysis {
    pub const ALL: [Analysis; 5] = [
        Analysis::Check,
        Analysis::Cells,
        Analysis::Flow,
        Analysis::Whatif,
        Analysis::Slice,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Analysis::Check => "check",
            Analysis::Cells => "cells",
            Analysis::Flow => "flow",
            Analysis::Whatif => "whatif",
            Analysis::Slice => "slice",
        }
    }

    pub fn from_name(name: &str) -> Option<Analysis> {
        Analysis::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The table its rows go to (beside `status`).
    pub fn table(self) -> &'static str {
        match self {
            Analysis::Check => "findings",
            Analysis::Cells => "cells",
            Analysis::Flow => "flows",
            Analysis::Whatif => "events",
            Analysis::Slice => "slices",
        }
    }
}

/// The rules that apply to a notebook (its configuration).
pub type RulesFor = Box<dyn Fn(&Item) -> Result<RuleSet, String> + Send + Sync>;

/// Runs an analysis on notebooks.
pub struct Analyser {
    pub analysis: Analysis,
    pub effects: Effects,
    pub rules: RulesFor,
}

impl Analyser {
    /// `analysis` with the default rules and the built-in effects.
    pub fn new(analysis: Analysis) -> Analyser {
        Analyser {
            analysis,
            effects: Effects::builtin(),
            rules: Box::new(|_| Ok(RuleSet::default())),
        }
    }

    /// The outcome of `item`; never panics.
    pub fn analyse(&self, item: &Item) -> Outcome {
        let notebook = match load(item) {
            Ok(notebook) => notebook,
            Err(message) => return Outcome::failed(Status::Unreadable, message),
        };
        match catch_unwind(AssertUnwindSafe(|| self.run(item, &notebook))) {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(message)) => Outcome::failed(Status::Unreadable, message),
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(ToString::to_string)
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Outcome::failed(
                    Status::Unreadable,
                    format!("nbsight failed on this notebook (a bug, please report it): {what}"),
                )
            }
        }
    }

    fn run(&self, item: &Item, notebook: &Notebook) -> Result<Outcome, String> {
        let effects = &self.effects;
        let (rows, errors) = match self.analysis {
            Analysis::Check => {
                let rules = (self.rules)(item)?;
                let checked = nbsight_check::check_notebook(notebook, effects, rules);
                let rows = checked.findings.iter().map(FindingRow::from).collect();
                (Rows::Findings(rows), checked.syntax_errors)
            }
            Analysis::Cells => {
                let analysis = nbsight_dataflow::analyze_notebook(notebook, effects);
                let errors = analysis
                    .cells
                    .iter()
                    .flat_map(|c| {
                        c.errors
                            .iter()
                            .map(|e| (CellIndex::new(c.index), e.clone()))
                    })
                    .collect();
                (Rows::Cells(cells::rows(notebook, &analysis)), errors)
            }
            Analysis::Flow => {
                let model = NotebookModel::new(notebook, effects);
                let graph = nbsight_flow::analyze_flows(&model, FlowOptions::default());
                let rows = graph
                    .flows
                    .iter()
                    .map(|e| FlowRow {
                        from: e.from.index(),
                        to: e.to.index(),
                        symbol: e.symbol.clone(),
                    })
                    .collect();
                (Rows::Flows(rows), model.syntax_errors())
            }
            Analysis::Whatif => {
                let (rows, errors) = events::rows(notebook, effects)?;
                (Rows::Events(rows), errors)
            }
            Analysis::Slice => {
                let model = NotebookModel::new(notebook, effects);
                let slicer = nbsight_slice::Slicer::from_model(&model);
                (Rows::Slices(slices::rows(&slicer)?), model.syntax_errors())
            }
        };
        let (status, message) = match errors.split_first() {
            None => (Status::Ok, None),
            Some(((cell, issue), rest)) => {
                let more = match rest.len() {
                    0 => String::new(),
                    n => format!(" (and {n} more)"),
                };
                (
                    Status::SyntaxError,
                    Some(format!(
                        "cell {cell}, line {}, column {}: {}{more}",
                        issue.line, issue.column, issue.message
                    )),
                )
            }
        };
        Ok(Outcome {
            status,
            message,
            rows,
        })
    }
}

/// The notebook of `item`, or why it has none.
fn load(item: &Item) -> Result<Notebook, String> {
    let loaded = match &item.body {
        Body::Unreadable(why) => return Err(why.clone()),
        Body::File(path) => {
            let bytes = read_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
            load_ipynb_bytes(path, &bytes)
        }
        Body::Text(text) => load_ipynb_str(Path::new(&item.file), text),
    };
    loaded.map_err(|e| e.to_string())
}
