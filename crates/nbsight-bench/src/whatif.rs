//! The what-if workload of one notebook (issue 8): (a) building a
//! [`WhatIfSession`] on the saved execution history, then (b) for every code
//! cell that parsed, `query(Execute(i))` and `query(Edit { cell: i, source +
//! "\n# edited\n" })` with K unbounded. Each part is the median of the timed
//! iterations after warm-up runs, as in `measure.rs`; dropping the session and
//! the reports is inside the timed region. The events are built once,
//! untimed, from a first session, which also gives the cell classes.

use std::hint::black_box;
use std::time::{Duration, Instant};

use nbsight_analysis::{CellClass, Event, History, WhatIfError, WhatIfSession, classify_cells};
use nbsight_dataflow::Effects;
use nbsight_notebook::Notebook;

use crate::stats::median;

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
    /// Queries per run (two per code cell that parsed).
    pub events: usize,
    /// Cell executions the queries explored (`WhatIfReport::visits`, summed).
    pub visits: usize,
    /// Queries the engine refused (none expected).
    pub errors: usize,
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
        let source = notebook
            .cells
            .get(index)
            .map_or("", |c| c.source.as_str());
        events.push(Event::Execute(index));
        events.push(Event::Edit {
            cell: index,
            source: format!("{source}{EDIT_SUFFIX}"),
        });
    }
    events
}

/// Measures the workload on `notebook`: `warmup` untimed runs, then the
/// medians of `iterations` timed runs. An error if the session cannot be built.
pub fn measure(
    notebook: &Notebook,
    effects: &Effects,
    warmup: usize,
    iterations: usize,
) -> Result<WhatIfRun, WhatIfError> {
    let (events, classes) = {
        let session = WhatIfSession::new(notebook, effects, &History::Saved)?;
        let model = session.model();
        (
            events(notebook, model.code_cells().map(|c| c.index)),
            classify_cells(model),
        )
    };
    for _ in 0..warmup {
        run_once(notebook, effects, &events)?;
    }
    let mut session = Vec::with_capacity(iterations);
    let mut queries = Vec::with_capacity(iterations);
    let mut total = Vec::with_capacity(iterations);
    let mut counts = (0, 0);
    for _ in 0..iterations.max(1) {
        let run = run_once(notebook, effects, &events)?;
        session.push(run.session);
        queries.push(run.queries);
        total.push(run.session + run.queries);
        counts = (run.visits, run.errors);
    }
    let med = |v: &[Duration]| median(v).unwrap_or_default();
    Ok(WhatIfRun {
        timing: WhatIfTiming {
            session: med(&session),
            queries: med(&queries),
            total: med(&total),
            events: events.len(),
            visits: counts.0,
            errors: counts.1,
        },
        classes,
    })
}

/// One timed run (`total` unused: the caller sums the parts).
fn run_once(
    notebook: &Notebook,
    effects: &Effects,
    events: &[Event],
) -> Result<WhatIfTiming, WhatIfError> {
    let start = Instant::now();
    let session = WhatIfSession::new(black_box(notebook), effects, &History::Saved)?;
    let built = start.elapsed();
    let (mut visits, mut errors) = (0, 0);
    for event in events {
        match session.query(black_box(event), None) {
            Ok(report) => visits += black_box(report).visits,
            Err(_) => errors += 1,
        }
    }
    drop(black_box(session));
    let elapsed = start.elapsed();
    Ok(WhatIfTiming {
        session: built,
        queries: elapsed.saturating_sub(built),
        total: elapsed,
        events: events.len(),
        visits,
        errors,
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
        let run = measure(&nb, &effects, 0, 1).unwrap();
        // Cells 0 and 2 parse; 1 is markdown and 3 has a syntax error.
        assert_eq!(run.timing.events, 4);
        assert_eq!(run.timing.errors, 0);
        assert!(run.timing.visits >= 4, "{:?}", run.timing);
        assert_eq!(
            run.classes.iter().map(|c| c.cell).collect::<Vec<_>>(),
            [0, 2]
        );
    }
}
