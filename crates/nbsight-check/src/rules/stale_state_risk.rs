//! ## What it reports
//! Reported by `nbsight whatif` only. After an event (an edit or execution
//! of cell *i*), a cell *k* that reads a value computed by an intermediate
//! cell *j* from *i*'s outputs would read a stale value if run before *j*
//! (NBLyzer sec. 4.1.2). The what-if session raises it while it explores the
//! runs that can follow the event (`nbsight-whatif`, `session.rs`), with its
//! message; this file only documents it.
//!
//! ## Why it matters
//! The kernel does not know that *j*'s result depends on *i*: running *k*
//! next silently computes with the old value, and nothing on screen says so.
//!
//! ## Example
//! ```python
//! # %% [1]
//! rate = 0.05
//!
//! # %% [2]
//! prices = [100 * (1 + rate), 200 * (1 + rate)]
//!
//! # %% [3]
//! print(sum(prices))
//! ```
//!
//! `nbsight whatif --execute 0` reports:
//! ```text
//! cell 2:1:1: NBS003 run before cell 1, cell 2 reads stale `prices`: cell 1 computes it from values the execution of cell 0 changes; re-run cell 1 first
//!   cells: 0 -> 1 -> 2
//! ```
//!
//! Re-run cell 1 before cell 2 (the re-run plan lists it).
//!
//! ## Not reported
//! - By `nbsight check`: a saved notebook has no pending event (its stale
//!   outputs are `stale-saved-output`).
//! - A cell that reads the event cell's outputs directly: running it uses
//!   the new values.
