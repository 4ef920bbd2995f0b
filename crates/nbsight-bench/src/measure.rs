//! Timing one notebook: `load` (`load_ipynb_bytes` from bytes in memory), `parse`
//! (`parse_python` on each pre-extracted Python cell source) and `full` (load, then
//! `analyze_notebook`). Each is the median of the timed iterations after warm-up
//! runs; the three are interleaved within an iteration so that drift of the machine
//! affects them alike. Dropping the results is inside each timed region, as it is
//! inside `analyze_notebook` for the parsed cells.

use std::hint::black_box;
use std::time::{Duration, Instant};

use nbsight_dataflow::{Effects, analyze_notebook};
use nbsight_notebook::{load_ipynb_bytes, parse_python};

use crate::corpus::Prepared;
use crate::stats::median;

/// The median times of one notebook.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    pub load: Duration,
    pub parse: Duration,
    pub full: Duration,
}

impl Timing {
    /// The summaries' own cost, `full - load - parse`, clamped at zero.
    pub fn summaries(&self) -> Duration {
        self.full
            .saturating_sub(self.load)
            .saturating_sub(self.parse)
    }
}

/// Measures `notebook`: `warmup` untimed runs, then the median of `iterations`
/// timed runs of each phase. `None` if the notebook no longer loads.
pub fn measure(
    notebook: &Prepared,
    effects: &Effects,
    warmup: usize,
    iterations: usize,
) -> Option<Timing> {
    for _ in 0..warmup {
        time_load(notebook)?;
        time_parse(notebook);
        time_full(notebook, effects)?;
    }
    let mut load = Vec::with_capacity(iterations);
    let mut parse = Vec::with_capacity(iterations);
    let mut full = Vec::with_capacity(iterations);
    for _ in 0..iterations {
        load.push(time_load(notebook)?);
        parse.push(time_parse(notebook));
        full.push(time_full(notebook, effects)?);
    }
    Some(Timing {
        load: median(&load)?,
        parse: median(&parse)?,
        full: median(&full)?,
    })
}

fn time_load(nb: &Prepared) -> Option<Duration> {
    let start = Instant::now();
    let loaded = load_ipynb_bytes(black_box(&nb.path), black_box(&nb.bytes));
    let ok = black_box(loaded).is_ok();
    let elapsed = start.elapsed();
    ok.then_some(elapsed)
}

fn time_parse(nb: &Prepared) -> Duration {
    let start = Instant::now();
    for source in &nb.sources {
        black_box(parse_python(black_box(source)));
    }
    start.elapsed()
}

fn time_full(nb: &Prepared, effects: &Effects) -> Option<Duration> {
    let start = Instant::now();
    let notebook = load_ipynb_bytes(black_box(&nb.path), black_box(&nb.bytes)).ok()?;
    black_box(analyze_notebook(black_box(&notebook), effects));
    drop(black_box(notebook));
    Some(start.elapsed())
}
