//! The wall clock, read at the edge: when a run starts and ends, and when a
//! history session starts (`nbsight-history` takes times from its caller).

use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch now (0 for a clock set before it).
pub(crate) fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}
