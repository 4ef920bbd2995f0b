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

/// The view an HTML graph page embeds (`<script id="nbsight-graph-data">`).
pub fn embedded_view(html: &str) -> serde_json::Value {
    let marker = "id=\"nbsight-graph-data\">";
    let start = html.find(marker).expect("the page embeds its view") + marker.len();
    let end = start
        + html[start..]
            .find("</script>")
            .expect("the view's script ends");
    serde_json::from_str(&html[start..end]).expect("the embedded view is JSON")
}
