//! Running an analysis over a stream of notebooks on every core, with a
//! time budget per notebook, and handing the rows on in input order.
//!
//! One thread reads the inputs, `threads` workers analyse, and the calling
//! thread gathers: it puts the outcomes back in input order (so a part of
//! the output is a contiguous run of the inputs) and gives each batch of
//! `commit_every` to the sink. A notebook whose analysis takes longer than
//! the budget gets a `timeout` row at once; its worker is left to finish
//! (its result is dropped) and a new worker takes its place, so a
//! notebook that never ends costs one core, not the scan. A result that
//! arrives after its budget is a timeout too, so the rows do not depend on
//! when the gatherer looked.

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::analysis::Analyser;
use crate::error::ScanError;
use crate::outcome::{Done, DoneIds, Sink};
use crate::outcome::{Outcome, Status};
use crate::source::Item;

/// How a run goes.
#[derive(Debug, Clone)]
pub struct Options {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// The time budget per notebook (`None`: none).
    pub timeout: Option<Duration>,
    /// Notebooks per batch handed to the sink.
    pub commit_every: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            timeout: Some(Duration::from_secs(60)),
            commit_every: 1000,
        }
    }
}

/// What a run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Notebooks analysed (or given a status) by this run.
    pub scanned: u64,
    /// Notebooks skipped because an earlier run did them.
    pub skipped: u64,
    pub ok: u64,
    pub syntax_error: u64,
    pub unreadable: u64,
    pub timeout: u64,
}

impl Counts {
    fn add(&mut self, status: Status) {
        self.scanned += 1;
        *match status {
            Status::Ok => &mut self.ok,
            Status::SyntaxError => &mut self.syntax_error,
            Status::Unreadable => &mut self.unreadable,
            Status::Timeout => &mut self.timeout,
        } += 1;
    }
}

/// How far the gatherer may be behind the reader: bounds the outcomes
/// waiting for an earlier, slow notebook.
const WINDOW: u64 = 4096;

/// A worker's current notebook.
struct Slot {
    seq: u64,
    id: String,
    started: Instant,
}

/// A worker as the gatherer sees it.
struct Worker {
    slot: Arc<Mutex<Option<Slot>>>,
    /// Set when its notebook timed out: it then stops after that one.
    abandoned: Arc<AtomicBool>,
}

type Job = (u64, Item);
type Result_ = (u64, String, f64, Outcome);

/// Runs `analyser` over `items` (skipping one occurrence of an id per
/// count in `done`), giving the rows to `sink`; `progress` is called after
/// each notebook with the counts so far.
pub fn run(
    items: Box<dyn Iterator<Item = Item> + Send>,
    mut done: DoneIds,
    analyser: Arc<Analyser>,
    options: &Options,
    sink: &mut dyn Sink,
    progress: &mut dyn FnMut(&Counts),
) -> Result<Counts, ScanError> {
    let mut counts = Counts::default();
    let (job_tx, job_rx) = sync_channel::<Job>(options.threads.max(1) * 4);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (result_tx, result_rx) = sync_channel::<Result_>(options.threads.max(1) * 4);
    // The reader waits while it is WINDOW ahead of the gatherer.
    let gathered = Arc::new((Mutex::new(0u64), Condvar::new()));
    let stop = Arc::new(AtomicBool::new(false));

    let skipped = Arc::new(AtomicU64::new(0));
    // Jobs sent, final once the reader is finished.
    let sent = Arc::new(AtomicU64::new(0));
    let reader = {
        let (gathered, stop, skipped, sent) = (
            gathered.clone(),
            stop.clone(),
            skipped.clone(),
            sent.clone(),
        );
        std::thread::spawn(move || {
            let mut seq = 0u64;
            for item in items {
                if let Some(count) = done.get_mut(&item.id)
                    && *count > 0
                {
                    *count -= 1;
                    skipped.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                {
                    let (lock, cvar) = &*gathered;
                    let mut at = lock.lock().unwrap_or_else(|e| e.into_inner());
                    while seq >= *at + WINDOW && !stop.load(Ordering::Relaxed) {
                        at = cvar.wait(at).unwrap_or_else(|e| e.into_inner());
                    }
                }
                if stop.load(Ordering::Relaxed) || job_tx.send((seq, item)).is_err() {
                    break;
                }
                seq += 1;
                sent.store(seq, Ordering::Release);
            }
        })
    };

    let spawn = |job_rx: &Arc<Mutex<Receiver<Job>>>, result_tx: &SyncSender<Result_>| {
        let worker = Worker {
            slot: Arc::new(Mutex::new(None)),
            abandoned: Arc::new(AtomicBool::new(false)),
        };
        let (job_rx, result_tx) = (job_rx.clone(), result_tx.clone());
        let (slot, abandoned, analyser) = (
            worker.slot.clone(),
            worker.abandoned.clone(),
            analyser.clone(),
        );
        std::thread::spawn(move || {
            loop {
                let job = match job_rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                let Ok((seq, item)) = job else {
                    return;
                };
                let started = Instant::now();
                if let Ok(mut s) = slot.lock() {
                    *s = Some(Slot {
                        seq,
                        id: item.id.clone(),
                        started,
                    });
                }
                let outcome = analyser.analyse(&item);
                let seconds = started.elapsed().as_secs_f64();
                if let Ok(mut s) = slot.lock() {
                    *s = None;
                }
                if abandoned.load(Ordering::Relaxed)
                    || result_tx.send((seq, item.id, seconds, outcome)).is_err()
                {
                    return;
                }
            }
        });
        worker
    };
    let mut workers: Vec<Worker> = (0..options.threads.max(1))
        .map(|_| spawn(&job_rx, &result_tx))
        .collect();

    let mut next = 0u64;
    let mut waiting: BTreeMap<u64, Done> = BTreeMap::new();
    let mut timed_out: HashSet<u64> = HashSet::new();
    let mut batch: Vec<Done> = Vec::new();
    let tick = Duration::from_millis(50);
    let timeout_row = |id: String, seconds: f64, budget: Duration| Done {
        id,
        seconds,
        outcome: Outcome::failed(
            Status::Timeout,
            format!(
                "its analysis took longer than the time budget of {} s",
                budget.as_secs_f64()
            ),
        ),
    };
    let mut failure = None;
    loop {
        let received = result_rx.recv_timeout(tick);
        match received {
            Ok((seq, id, seconds, outcome)) => {
                if !timed_out.remove(&seq) {
                    let row = match options.timeout {
                        Some(budget) if seconds > budget.as_secs_f64() => {
                            timeout_row(id, seconds, budget)
                        }
                        _ => Done {
                            id,
                            seconds,
                            outcome,
                        },
                    };
                    waiting.insert(seq, row);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        if let Some(budget) = options.timeout {
            for worker in &mut workers {
                let late = worker.slot.lock().ok().and_then(|s| {
                    s.as_ref()
                        .filter(|s| s.started.elapsed() > budget)
                        .map(|s| (s.seq, s.id.clone(), s.started.elapsed().as_secs_f64()))
                });
                if let Some((seq, id, seconds)) = late {
                    worker.abandoned.store(true, Ordering::Relaxed);
                    timed_out.insert(seq);
                    waiting.insert(seq, timeout_row(id, seconds, budget));
                    *worker = spawn(&job_rx, &result_tx);
                }
            }
        }
        while let Some(row) = waiting.remove(&next) {
            counts.add(row.outcome.status);
            batch.push(row);
            next += 1;
            if batch.len() >= options.commit_every.max(1) {
                if let Err(e) = sink.commit(&batch) {
                    failure = Some(e);
                    break;
                }
                batch.clear();
            }
        }
        if failure.is_some() {
            break;
        }
        counts.skipped = skipped.load(Ordering::Relaxed);
        progress(&counts);
        {
            let (lock, cvar) = &*gathered;
            if let Ok(mut at) = lock.lock() {
                *at = next;
            }
            cvar.notify_all();
        }
        // Every job sent was gathered (the workers then find the queue
        // closed and end).
        if reader.is_finished() && next == sent.load(Ordering::Acquire) {
            break;
        }
    }
    stop.store(true, Ordering::Relaxed);
    gathered.1.notify_all();
    if let Some(e) = failure {
        return Err(e);
    }
    sink.commit(&batch)?;
    if reader.join().is_err() {
        // The rows so far are kept: --resume goes on after them.
        return Err(ScanError::Usage(
            "reading the inputs failed (a bug, please report it); the rows so far are written"
                .to_string(),
        ));
    }
    counts.skipped = skipped.load(Ordering::Relaxed);
    progress(&counts);
    Ok(counts)
}
