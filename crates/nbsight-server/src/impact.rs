//! What an edit impacts (NBLyzer's IDE mode, seed 000): after a change that
//! is one what-if event (a cell's text edited, a cell inserted or deleted),
//! the what-if engine is asked what the event leads to from the kernel
//! state the editor shows (the cells with an execution order, in that
//! order), and the answer goes to the client as the notification
//! `nbsight/impact` (`docs/server.md` has its shape).
//!
//! The query runs on a worker thread, after the edit's diagnostics are
//! published, so it never delays them: of the edits waiting for it only
//! the latest is answered (older ones are outdated before they start), and
//! the loop drops an answer whose notebook has changed since.

use std::thread;

use crossbeam_channel::{Receiver, Sender, unbounded};
use lsp_types::Uri;
use lsp_types::notification::Notification;
use nbsight_dataflow::Effects;
use nbsight_notebook::Notebook;
use nbsight_whatif::{Event, Executed, WhatIfOptions, what_if};
use serde::Serialize;

use crate::documents::{Doc, Edit};

/// The notification's method and parameters.
pub(crate) enum ImpactNotification {}

impl Notification for ImpactNotification {
    type Params = ImpactParams;
    const METHOD: &'static str = "nbsight/impact";
}

/// `nbsight/impact`'s parameters: cells are 0-based positions in the
/// notebook (markdown included), with their URIs.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ImpactParams {
    pub(crate) notebook: Uri,
    pub(crate) version: i32,
    pub(crate) event: EventJson,
    /// Cells that read what the edit changes, directly (depth 1) or
    /// through other cells, with the changed names they read.
    pub(crate) impacted_cells: Vec<ImpactedCell>,
    /// Impacted cells that already ran: re-run, they would compute from
    /// the edited cell, and until then they hold values from its old code
    /// (NBLyzer's stale-risk cells).
    pub(crate) stale_risk_cells: Vec<CellRef>,
    /// Problems some continuation of the edit reaches.
    pub(crate) findings: Vec<ImpactFinding>,
    /// The cells to re-run, in order, to bring the kernel up to date.
    pub(crate) rerun_plan: Vec<CellRef>,
    /// The exploration stopped at its budget.
    pub(crate) truncated: bool,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub(crate) struct EventJson {
    pub(crate) kind: String,
    pub(crate) cell: Option<usize>,
    pub(crate) uri: Option<Uri>,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub(crate) struct CellRef {
    pub(crate) cell: usize,
    pub(crate) uri: Uri,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub(crate) struct ImpactedCell {
    pub(crate) cell: usize,
    pub(crate) uri: Uri,
    pub(crate) depth: usize,
    pub(crate) symbols: Vec<String>,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub(crate) struct ImpactFinding {
    pub(crate) code: String,
    pub(crate) message: String,
    pub(crate) cell: usize,
    pub(crate) uri: Uri,
    pub(crate) path: Vec<usize>,
}

/// The what-if event of `edit`, asked of `before` (the notebook as last
/// analysed), with `doc` the document now.
fn event(edit: &Edit, doc: &Doc) -> Option<Event> {
    let source = |cell: usize| doc.cells.get(cell).map(|c| c.text.clone());
    match *edit {
        Edit::Cell(cell) => Some(Event::Edit {
            cell,
            source: source(cell)?,
        }),
        Edit::Inserted(cell) => Some(Event::Insert {
            cell,
            source: source(cell)?,
        }),
        Edit::Deleted(cell) => Some(Event::Delete(cell)),
        Edit::Other => None,
    }
}

/// The impact of `edit` on `before`, `None` when the change is not one
/// event or the engine cannot answer it (a cell that is not code).
pub(crate) fn impact(before: &Notebook, edit: &Edit, doc: &Doc) -> Option<ImpactParams> {
    if doc.script {
        return None;
    }
    let event = event(edit, doc)?;
    let options = WhatIfOptions {
        executed: Executed::Saved,
        k: None,
    };
    let report = what_if(before, Effects::shared_builtin(), &event, &options).ok()?;
    // Cells of the report are positions in the notebook after the event.
    let uri_of = |cell: usize| doc.cells.get(cell).map(|c| c.uri.clone());
    let cell_ref = |cell: usize| {
        Some(CellRef {
            cell,
            uri: uri_of(cell)?,
        })
    };
    let ran = |cell: usize| {
        doc.cells
            .get(cell)
            .is_some_and(|c| c.execution_order.is_some())
    };
    let edited = event.cell();
    let impacted_cells: Vec<ImpactedCell> = report
        .impacted
        .iter()
        .filter(|i| Some(i.cell.index()) != edited)
        .filter_map(|i| {
            Some(ImpactedCell {
                cell: i.cell.index(),
                uri: uri_of(i.cell.index())?,
                depth: i.depth,
                symbols: i.symbols.clone(),
            })
        })
        .collect();
    let stale_risk_cells = impacted_cells
        .iter()
        .filter(|i| ran(i.cell))
        .map(|i| CellRef {
            cell: i.cell,
            uri: i.uri.clone(),
        })
        .collect();
    let findings = report
        .findings
        .iter()
        .filter_map(|f| {
            let finding = nbsight_check::Finding::from_whatif(&report.notebook, f);
            Some(ImpactFinding {
                code: finding.code().to_string(),
                message: finding.message,
                cell: f.cell.index(),
                uri: uri_of(f.cell.index())?,
                path: f.path.iter().map(|c| c.index()).collect(),
            })
        })
        .collect();
    Some(ImpactParams {
        notebook: doc.uri.clone(),
        version: doc.version,
        event: EventJson {
            kind: event.kind().to_string(),
            cell: edited,
            uri: edited.and_then(uri_of),
        },
        impacted_cells,
        stale_risk_cells,
        findings,
        rerun_plan: report
            .rerun_plan
            .iter()
            .filter_map(|c| cell_ref(c.index()))
            .collect(),
        truncated: report.truncated,
    })
}

/// One query for the worker: the notebook as last analysed, the edit, the
/// document after it.
pub(crate) struct Job {
    pub(crate) before: Notebook,
    pub(crate) edit: Edit,
    pub(crate) doc: Doc,
}

/// The worker thread that answers impact queries.
pub(crate) struct Worker {
    jobs: Sender<Job>,
    pub(crate) answers: Receiver<ImpactParams>,
}

impl Worker {
    pub(crate) fn start() -> Worker {
        let (jobs, waiting) = unbounded::<Job>();
        let (answer, answers) = unbounded();
        thread::spawn(move || {
            while let Ok(job) = waiting.recv() {
                // Only the latest of the jobs waiting is still wanted.
                let job = waiting.try_iter().last().unwrap_or(job);
                if let Some(params) = impact(&job.before, &job.edit, &job.doc)
                    && answer.send(params).is_err()
                {
                    break;
                }
            }
        });
        Worker { jobs, answers }
    }

    pub(crate) fn submit(&self, job: Job) {
        let _ = self.jobs.send(job);
    }
}
