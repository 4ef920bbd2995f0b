//! The stack the analyses run on.
//!
//! Ruff's parser and every walk over a syntax tree recurse once per level of
//! nesting. `nbsight-notebook` refuses cells nested deeper than
//! [`nbsight_notebook::MAX_NESTING`] levels (they become syntax issues); the
//! cells under that bound still need far more than the 8 MiB of a main thread
//! or the 2 MiB of a spawned one (`x = lambda: lambda: ...` 2,600 deep
//! overflows both). Every command therefore runs on a thread with
//! [`STACK_SIZE`] bytes of stack, and so do rayon's workers. The memory is
//! only reserved: pages are touched as deep cells need them.

use std::sync::{Arc, Mutex};

/// The stack of the command's thread and of each rayon worker.
pub const STACK_SIZE: usize = 1 << 30;

/// Runs `run` on a thread with [`STACK_SIZE`] bytes of stack (after sizing
/// rayon's global pool the same way) and returns its result. When no such
/// thread can be made, `run` runs on the current thread. A panic in `run` is
/// resumed on the caller's thread.
pub fn on_big_stack(run: impl FnOnce() -> u8 + Send + 'static) -> u8 {
    quiet_parser_panics();
    // Fails when the pool already exists (a second call in one process):
    // it was sized by the first call.
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(STACK_SIZE)
        .thread_name(|i| format!("nbsight-worker-{i}"))
        .build_global();
    // Kept here too, so that the current thread can run it when no thread
    // can be spawned.
    let slot = Arc::new(Mutex::new(Some(run)));
    let shared = Arc::clone(&slot);
    let spawned = std::thread::Builder::new()
        .name("nbsight".to_string())
        .stack_size(STACK_SIZE)
        .spawn(move || take(&shared).map(|run| run()));
    let ran = match spawned {
        Ok(handle) => match handle.join() {
            Ok(code) => code,
            Err(panic) => std::panic::resume_unwind(panic),
        },
        Err(_) => None,
    };
    ran.or_else(|| take(&slot).map(|run| run())).unwrap_or(2)
}

/// `nbsight-notebook` turns a panic of ruff's parser into a syntax issue of
/// the cell; the default hook would still print it with a backtrace. Every
/// other panic is printed as before.
fn quiet_parser_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_parser = info
                .location()
                .is_some_and(|l| l.file().contains("ruff_python_parser"));
            if !in_parser {
                default(info);
            }
        }));
    });
}

fn take<F>(slot: &Mutex<Option<F>>) -> Option<F> {
    slot.lock().ok().and_then(|mut guard| guard.take())
}
