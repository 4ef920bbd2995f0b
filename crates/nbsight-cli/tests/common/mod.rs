//! Helpers the end-to-end tests share: the repository root and `nbsight`
//! run in a folder (without the user's `NBSIGHT_EFFECTS`).

#![allow(dead_code)] // each test file uses some of them

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The repository's root, canonical.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

/// `nbsight ARGS` run in `dir`.
pub fn nbsight_in(dir: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("nbsight")
        .expect("binary built")
        .current_dir(dir)
        .env_remove("NBSIGHT_EFFECTS")
        .args(args)
        .assert()
}
