//! Shared helpers for the integration tests: locating the repository's fixtures.

use std::path::PathBuf;

/// `<repo>/tests/fixtures/<name>`.
pub(crate) fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
}
