//! Every notebook of the shared corpus (`../shared/corpus`, beside the
//! repository; skipped when absent) goes through what-if queries without a
//! panic, and the answers are consistent: replaying sessions answer as
//! interpreting ones, edited models equal rebuilt ones, kept consequences
//! equal fresh ones.

#![allow(clippy::print_stdout, clippy::print_stderr)] // a test says what it compared or skipped

use nbsight_dataflow::Effects;
use nbsight_whatif::{Event, Executed, WhatIfReport, WhatIfSession, classify_cells};

#[test]
fn every_corpus_notebook_is_queried() {
    let Some(corpus) = nbsight_model::testing::corpus() else {
        return;
    };
    let effects = Effects::builtin();
    let (mut notebooks, mut queries) = (0, 0);
    for (path, notebook) in &corpus {
        notebooks += 1;
        let started = std::time::Instant::now();
        let session = WhatIfSession::new(notebook, &effects, &Executed::Saved)
            .expect("the saved history is valid");
        let model = session.model();
        if model.code_cells().count() <= 40 {
            let classes = classify_cells(model);
            assert_eq!(classes.len(), model.code_cells().count());
        }
        // Every code cell as the source of an execute and an edit event,
        // K unbounded, as the benchmark runs them.
        let code: Vec<(usize, String)> = model
            .code_cells()
            .map(|c| (c.index, notebook.cells[c.index].source.clone()))
            .collect();
        // A session that interprets every run answers every fourth cell's
        // events as the one replaying kept runs does.
        let mut interpreting = session.clone();
        interpreting.forget_runs();
        for (n, (i, source)) in code.into_iter().enumerate() {
            for event in [
                Event::Execute(i),
                Event::Edit {
                    cell: i,
                    source: format!("{source}\n# edited\n"),
                },
            ] {
                let k = None;
                let report = session.query(&event, k).expect("valid query");
                assert!(
                    report
                        .impacted
                        .iter()
                        .all(|x| x.depth >= 1 && k.is_none_or(|k| x.depth <= k))
                );
                assert!(report.rerun_plan.windows(2).all(|w| w[0] < w[1]));
                if n % 4 == 0 {
                    // (The count of visits depends on the consequences each
                    // session kept from the queries before.)
                    let answer = |report: &WhatIfReport| WhatIfReport {
                        visits: 0,
                        ..report.clone()
                    };
                    let interpreted = interpreting.query(&event, k).expect("valid query");
                    assert_eq!(
                        answer(&report),
                        answer(&interpreted),
                        "{} {event:?}",
                        path.display()
                    );
                }
                queries += 1;
            }
        }
        // An edit keeps the model of every other cell as a rebuild from
        // scratch has it (the first few cells; each comparison builds a model).
        for c in model.code_cells().take(3) {
            let source = format!("{}\n# edited\n", notebook.cells[c.index].source);
            let edited = notebook.cells[c.index].edited(&source, &notebook.language);
            let incremental = model.with_edit(&notebook.cells, c.index, &edited, &effects);
            let mut changed = notebook.clone();
            changed.cells[c.index] = edited;
            let scratch = nbsight_model::NotebookModel::new(&changed, &effects);
            assert_eq!(
                incremental.describe_links(),
                scratch.describe_links(),
                "{} cell {}",
                path.display(),
                c.index
            );
        }
        // Answers that reuse the session's kept consequences (all the
        // queries above kept them) equal those of a fresh session: edits of
        // the first cells, executions of every third cell (which reuse them
        // where the state they lead to differs in facts a candidate's
        // exploration does not look at).
        let edits = model.code_cells().take(3).map(|c| Event::Edit {
            cell: c.index,
            source: format!("{}\n# edited\n", notebook.cells[c.index].source),
        });
        let executions = model
            .code_cells()
            .step_by(3)
            .map(|c| Event::Execute(c.index));
        for event in edits.chain(executions) {
            let kept = session.query(&event, None).expect("valid query");
            let explored = WhatIfSession::new(notebook, &effects, &Executed::Saved)
                .expect("valid")
                .query(&event, None)
                .expect("valid query");
            assert_eq!(
                kept.safe_next,
                explored.safe_next,
                "{} {event:?}",
                path.display()
            );
        }
        session.query(&Event::Open, Some(1)).expect("open");
        if !notebook.cells.is_empty() {
            session.query(&Event::Delete(0), Some(1)).expect("delete");
        }
        if std::env::var_os("NBSIGHT_CORPUS_TIMES").is_some() {
            eprintln!("{:?} {}", started.elapsed(), path.display());
        }
    }
    eprintln!("{notebooks} notebooks, {queries} what-if queries");
    if nbsight_model::testing::whole_corpus() {
        assert!(notebooks > 250, "the corpus has its notebooks");
    }
}
