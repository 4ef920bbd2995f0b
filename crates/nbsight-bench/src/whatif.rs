//! The what-if workload of one notebook (issue 8): (a) building a
//! [`WhatIfSession`] on the saved execution history, then (b) for every code
//! cell that parsed, `query(Execute(i))` and `query(Edit { cell: i, source +
//! "\n# edited\n" })` with K unbounded. Each part is the median of the timed
//! iterations after warm-up runs, as in `measure.rs`, except that a notebook
//! whose first run exceeds [`LONG_RUN`] is measured by that run alone, and
//! that a run stops (between queries) at a time budget, which makes its time
//! a lower bound. Dropping the session and the reports is inside the timed
//! region. The events are built once, untimed, from a first session,
//! which also gives the cell classes.

use std::hint::black_box;
use std::time::{Duration, Instant};

use nbsight_dataflow::Effects;
use nbsight_notebook::Notebook;
use nbsight_whatif::{CellClass, Event, Executed, WhatIfError, WhatIfSession, classify_cells};

use crate::stats::median;

/// A first run longer than this is the notebook's only sample: no warm-up,
/// no further iterations (at that scale neither changes the picture, and
/// repeating such runs makes the benchmark last hours).
pub const LONG_RUN: Duration = Duration::from_secs(1);

/// What an edit event appends to the cell's source.
pub const EDIT_SUFFIX: &str = "\n# edited\n";

/// The median times of one notebook's what-if workload, with its counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WhatIfTiming {
    /// (a) `WhatIfSession::new`.
    pub session: Duration,
    /// (b) every query.
    pub queries: Duration,
    /// (a) + (b), the median of the per-iteration sums.
    pub total: Duration,
    /// Queries of the workload (two per code cell that parsed).
    pub events: usize,
    /// Queries answered in the measured run (fewer than `events` when the run
    /// hit the budget: its times are then lower bounds).
    pub answered: usize,
    /// Cell executions the queries explored (`WhatIfReport::visits`, summed).
    pub visits: usize,
    /// Queries the engine refused (none expected).
    pub errors: usize,
    /// Queries whose exploration stopped at the engine's visit budget
    /// (`WhatIfReport::truncated`).
    pub truncated: usize,
    /// Timed runs behind the medians.
    pub samples: usize,
    /// The first run took over [`LONG_RUN`] (or hit the budget) and is the
    /// only sample.
    pub first_run_only: bool,
    /// The slowest query of a run (median over the runs).
    pub slowest_event: Duration,
    /// Queries over [`EVENT_TARGET`] in the measured run with the most.
    pub events_over_target: usize,
    /// The 99th percentile of the queries' times in a run (the largest
    /// over the runs): issue 33's target is on this.
    pub event_p99: Duration,
}

/// Issue 33's target for one what-if query, at p99 on any notebook.
pub const EVENT_TARGET: Duration = Duration::from_millis(5);

impl WhatIfTiming {
    /// The run stopped at the budget before answering every query.
    pub fn incomplete(&self) -> bool {
        self.answered < self.events
    }
}

/// The workload's result for one notebook.
#[derive(Debug, Clone)]
pub struct WhatIfRun {
    pub timing: WhatIfTiming,
    /// `classify_cells` on the session's model.
    pub classes: Vec<CellClass>,
}

/// The two events asked of every code cell that parsed, in notebook order.
pub fn events(notebook: &Notebook, cells: impl IntoIterator<Item = usize>) -> Vec<Event> {
    let mut events = Vec::new();
    for index in cells {
        let source = notebook.cells.get(index).map_or("", |c| c.source.as_str());
        events.push(Event::Execute(index));
        events.push(Event::Edit {
            cell: index,
            source: format!("{source}{EDIT_SUFFIX}"),
        });
    }
    events
}

/// Measures the workload on `notebook`: a first run; if it took longer than
/// [`LONG_RUN`] (or hit `budget`) it is the only sample, else it and
/// `warmup - 1` more runs warm up and the medians of `iterations` timed runs
/// are taken. Each run stops, between two queries, once it has lasted `budget`.
/// An error if the session cannot be built.
pub fn measure(
    notebook: &Notebook,
    effects: &Effects,
    warmup: usize,
    iterations: usize,
    budget: Duration,
) -> Result<WhatIfRun, WhatIfError> {
    let (events, classes) = {
        let session = WhatIfSession::new(notebook, effects, &Executed::Saved)?;
        let model = session.model();
        (
            events(notebook, model.code_cells().map(|c| c.index)),
            classify_cells(model),
        )
    };
    let first = run_once(notebook, effects, &events, budget)?;
    let first_run_only = first.total > LONG_RUN || first.incomplete();
    let runs = if first_run_only {
        vec![first]
    } else {
        for _ in 1..warmup {
            run_once(notebook, effects, &events, budget)?;
        }
        let mut runs = Vec::with_capacity(iterations);
        for _ in 0..iterations.max(1) {
            runs.push(run_once(notebook, effects, &events, budget)?);
        }
        runs
    };
    let med = |f: fn(&WhatIfTiming) -> Duration| {
        let values: Vec<Duration> = runs.iter().map(f).collect();
        median(&values).unwrap_or_default()
    };
    // Counts from the least complete run (all runs are complete but for the
    // budget).
    let counts = runs
        .iter()
        .min_by_key(|r| r.answered)
        .copied()
        .unwrap_or(first);
    Ok(WhatIfRun {
        timing: WhatIfTiming {
            session: med(|r| r.session),
            queries: med(|r| r.queries),
            total: med(|r| r.total),
            slowest_event: med(|r| r.slowest_event),
            events_over_target: runs
                .iter()
                .map(|r| r.events_over_target)
                .max()
                .unwrap_or_default(),
            event_p99: runs.iter().map(|r| r.event_p99).max().unwrap_or_default(),
            samples: runs.len(),
            first_run_only,
            ..counts
        },
        classes,
    })
}

/// One timed run, stopped between queries once it has lasted `budget`.
fn run_once(
    notebook: &Notebook,
    effects: &Effects,
    events: &[Event],
    budget: Duration,
) -> Result<WhatIfTiming, WhatIfError> {
    let start = Instant::now();
    let session = WhatIfSession::new(black_box(notebook), effects, &Executed::Saved)?;
    let built = start.elapsed();
    let (mut visits, mut errors, mut answered, mut truncated) = (0, 0, 0, 0);
    let (mut slowest_event, mut events_over_target) = (Duration::ZERO, 0);
    let mut times = Vec::with_capacity(events.len());
    for event in events {
        if start.elapsed() >= budget {
            break;
        }
        let asked = Instant::now();
        let answer = session.query(black_box(event), None);
        let took = asked.elapsed();
        slowest_event = slowest_event.max(took);
        times.push(took);
        events_over_target += usize::from(took > EVENT_TARGET);
        match answer {
            Ok(report) => {
                let report = black_box(report);
                visits += report.visits;
                truncated += usize::from(report.truncated);
            }
            Err(_) => errors += 1,
        }
        answered += 1;
    }
    drop(black_box(session));
    let elapsed = start.elapsed();
    Ok(WhatIfTiming {
        session: built,
        queries: elapsed.saturating_sub(built),
        total: elapsed,
        events: events.len(),
        answered,
        visits,
        errors,
        truncated,
        samples: 1,
        first_run_only: false,
        slowest_event,
        events_over_target,
        event_p99: crate::stats::percentile(&times, 99.0).unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTEBOOK: &str = r##"{
 "nbformat": 4, "nbformat_minor": 5,
 "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
 "cells": [
  {"cell_type": "code", "id": "a", "execution_count": 1, "metadata": {}, "outputs": [],
   "source": ["import pandas as pd\n", "df = pd.read_csv('x.csv')"]},
  {"cell_type": "markdown", "id": "m", "metadata": {}, "source": ["# title"]},
  {"cell_type": "code", "id": "b", "execution_count": 2, "metadata": {}, "outputs": [],
   "source": ["y = df.mean()"]},
  {"cell_type": "code", "id": "c", "execution_count": null, "metadata": {}, "outputs": [],
   "source": ["print(y"]}
 ]
}"##;

    fn notebook() -> Notebook {
        nbsight_notebook::load_ipynb_str(std::path::Path::new("t.ipynb"), NOTEBOOK).unwrap()
    }

    #[test]
    fn two_events_per_cell_with_the_edit_suffix() {
        let nb = notebook();
        let events = events(&nb, [0, 2]);
        assert_eq!(
            events,
            [
                Event::Execute(0),
                Event::Edit {
                    cell: 0,
                    source: "import pandas as pd\ndf = pd.read_csv('x.csv')\n# edited\n".into()
                },
                Event::Execute(2),
                Event::Edit {
                    cell: 2,
                    source: "y = df.mean()\n# edited\n".into()
                },
            ]
        );
    }

    #[test]
    fn measures_every_parsed_code_cell() {
        let nb = notebook();
        let effects = Effects::builtin();
        let run = measure(&nb, &effects, 0, 3, Duration::from_secs(600)).unwrap();
        // Cells 0 and 2 parse; 1 is markdown and 3 has a syntax error.
        assert_eq!(run.timing.events, 4);
        assert_eq!(run.timing.answered, 4);
        assert!(!run.timing.incomplete());
        assert_eq!(run.timing.samples, 3);
        assert!(!run.timing.first_run_only);
        assert_eq!(run.timing.truncated, 0);
        assert_eq!(run.timing.errors, 0);
        assert!(run.timing.visits >= 4, "{:?}", run.timing);
        assert_eq!(
            run.classes
                .iter()
                .map(|c| c.cell.index())
                .collect::<Vec<_>>(),
            [0, 2]
        );
    }

    #[test]
    fn a_run_over_budget_stops_and_is_the_only_sample() {
        let nb = notebook();
        let effects = Effects::builtin();
        let run = measure(&nb, &effects, 2, 3, Duration::ZERO).unwrap();
        assert_eq!(run.timing.events, 4);
        assert_eq!(run.timing.answered, 0);
        assert!(run.timing.incomplete());
        assert_eq!(run.timing.samples, 1);
        assert!(run.timing.first_run_only);
    }
}
