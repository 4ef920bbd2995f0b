//! The progress bar of a long run: on stderr, only when stderr is a terminal,
//! there is more than one notebook and `--no-progress` was not given; a hidden
//! bar otherwise, so callers never branch.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar counting `notebooks`, visible when `wanted` and the conditions above
/// hold.
pub fn bar(notebooks: usize, wanted: bool) -> ProgressBar {
    if !wanted || notebooks <= 1 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(notebooks as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("checking {pos}/{len} notebooks [{bar:30}] {elapsed}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}
