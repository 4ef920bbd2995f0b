//! `--compare-ruff`: `nbsight check` next to `ruff check --select F` on the same
//! notebooks, as whole processes (wall clock, start-up and file I/O included).
//!
//! The `nbsight` binary is the one next to this benchmark's executable (build
//! it with `cargo build --release -p nbsight-cli`); `ruff` is `--ruff PATH` or
//! the first `ruff` on `PATH`. Both get the same notebooks: nbsight the
//! directories (which it scans with `find_notebooks`, as this benchmark does),
//! ruff the explicit list of files found there. One untimed run of each comes
//! first (it also counts the findings), then R timed runs alternating the two.
//! Nothing here fails the benchmark: a missing tool is a line in the report.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::stats::median;

/// How to get ruff, printed when it cannot be found.
pub const INSTALL_HINT: &str = "install ruff with `python3 -m pip install ruff` (or `pipx install ruff`), \
     then put it on PATH or pass `--ruff PATH`";

/// The arguments of the two timed commands (before the inputs).
pub const NBSIGHT_ARGS: [&str; 4] = ["check", "--no-progress", "--format", "json"];
pub const RUFF_ARGS: [&str; 6] = [
    "check",
    "--select",
    "F",
    "--no-cache",
    "--quiet",
    "--exit-zero",
];

/// What `--compare-ruff` produced.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// `--compare-ruff` not given.
    NotRequested,
    /// Some tool is missing or failed: why, and what to do.
    Unavailable(Vec<String>),
    Done(Comparison),
}

/// Wall-clock times of both tools on the same files.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub files: usize,
    pub nbsight_command: String,
    pub ruff_command: String,
    pub ruff_version: String,
    pub nbsight: Vec<Duration>,
    pub ruff: Vec<Duration>,
    /// Findings in nbsight's JSON (untimed run).
    pub nbsight_findings: Option<usize>,
    /// Diagnostics of the same ruff command with `--output-format json`
    /// (an extra untimed run).
    pub ruff_findings: Option<usize>,
}

/// Min and median of a tool's runs.
pub fn min_median(times: &[Duration]) -> Option<(Duration, Duration)> {
    Some((*times.iter().min()?, median(times)?))
}

/// `num / den` as a float (`None` when `den` is zero).
pub fn ratio(num: Duration, den: Duration) -> Option<f64> {
    (!den.is_zero()).then(|| num.as_secs_f64() / den.as_secs_f64())
}

/// The first executable file called `name` in the directories of `path`
/// (a `PATH`-like list).
pub fn find_in_path(name: &str, path: Option<OsString>) -> Option<PathBuf> {
    let file = format!("{name}{}", std::env::consts::EXE_SUFFIX);
    std::env::split_paths(&path?)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(&file))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// The `nbsight` binary beside the running benchmark.
pub fn nbsight_beside_current_exe() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    Some(exe.with_file_name(format!("nbsight{}", std::env::consts::EXE_SUFFIX)))
}

/// Runs the comparison (`runs` timed runs of each tool).
pub fn compare(ruff: Option<&Path>, dirs: &[PathBuf], files: &[PathBuf], runs: usize) -> Outcome {
    let mut missing = Vec::new();
    let nbsight = match nbsight_beside_current_exe() {
        Some(path) if is_executable(&path) => Some(path),
        Some(path) => {
            missing.push(format!(
                "`{}` not found: build it with `cargo build --release -p nbsight-cli`",
                path.display()
            ));
            None
        }
        None => {
            missing.push(
                "cannot locate this benchmark's executable to find `nbsight` beside it".into(),
            );
            None
        }
    };
    let ruff = match ruff {
        Some(path) if is_executable(path) => Some(path.to_path_buf()),
        Some(path) => {
            missing.push(format!(
                "ruff not found at `{}` (--ruff); {INSTALL_HINT}",
                path.display()
            ));
            None
        }
        None => find_in_path("ruff", std::env::var_os("PATH")).or_else(|| {
            missing.push(format!("ruff not found on PATH; {INSTALL_HINT}"));
            None
        }),
    };
    let (Some(nbsight), Some(ruff)) = (nbsight, ruff) else {
        return Outcome::Unavailable(missing);
    };
    match run(&nbsight, &ruff, dirs, files, runs) {
        Ok(comparison) => Outcome::Done(comparison),
        Err(message) => Outcome::Unavailable(vec![message]),
    }
}

fn nbsight_command(nbsight: &Path, dirs: &[PathBuf]) -> Command {
    let mut command = Command::new(nbsight);
    command.args(NBSIGHT_ARGS).args(dirs);
    command
}

fn ruff_command(ruff: &Path, files: &[PathBuf], extra: &[&str]) -> Command {
    let mut command = Command::new(ruff);
    command.args(RUFF_ARGS).args(extra).args(files);
    command
}

/// Runs `command` to completion, stdout captured (both tools write their
/// report to a pipe), stderr captured too so it does not mix with the report.
fn time(command: &mut Command) -> Result<(Duration, Output), String> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let output = command.output();
    let elapsed = start.elapsed();
    let program = command.get_program().to_string_lossy().into_owned();
    let output = output.map_err(|e| format!("cannot run `{program}`: {e}"))?;
    Ok((elapsed, output))
}

/// `output` unless its status is not among `ok` codes.
fn expect_status(output: Output, ok: &[i32], what: &str) -> Result<Output, String> {
    match output.status.code() {
        Some(code) if ok.contains(&code) => Ok(output),
        _ => {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let last = stderr.lines().last().unwrap_or("");
            Err(format!("{what} failed ({}): {last}", output.status))
        }
    }
}

/// The length of the JSON list on `stdout`.
pub fn json_list_len(stdout: &[u8]) -> Option<usize> {
    match serde_json::from_slice::<serde_json::Value>(stdout).ok()? {
        serde_json::Value::Array(items) => Some(items.len()),
        _ => None,
    }
}

fn run(
    nbsight: &Path,
    ruff: &Path,
    dirs: &[PathBuf],
    files: &[PathBuf],
    runs: usize,
) -> Result<Comparison, String> {
    let version = Command::new(ruff)
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run `{}`: {e}", ruff.display()))?;
    let ruff_version = String::from_utf8_lossy(&version.stdout).trim().to_string();

    // Untimed: check that both work, and count what they find. nbsight exits
    // 1 when it finds problems.
    let (_, out) = time(&mut nbsight_command(nbsight, dirs))?;
    let out = expect_status(out, &[0, 1], "nbsight check")?;
    let nbsight_findings = json_list_len(&out.stdout);
    let (_, out) = time(&mut ruff_command(ruff, files, &[]))?;
    expect_status(out, &[0], "ruff check")?;
    let (_, out) = time(&mut ruff_command(ruff, files, &["--output-format", "json"]))?;
    let ruff_findings = expect_status(out, &[0], "ruff check --output-format json")
        .ok()
        .and_then(|out| json_list_len(&out.stdout));

    let mut nbsight_times = Vec::with_capacity(runs);
    let mut ruff_times = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let (t, out) = time(&mut nbsight_command(nbsight, dirs))?;
        expect_status(out, &[0, 1], "nbsight check")?;
        nbsight_times.push(t);
        let (t, out) = time(&mut ruff_command(ruff, files, &[]))?;
        expect_status(out, &[0], "ruff check")?;
        ruff_times.push(t);
    }

    let shown = |path: &Path| path.display().to_string();
    let dirs_shown: Vec<String> = dirs.iter().map(|d| shown(d)).collect();
    Ok(Comparison {
        files: files.len(),
        nbsight_command: format!(
            "{} {} {}",
            shown(nbsight),
            NBSIGHT_ARGS.join(" "),
            dirs_shown.join(" ")
        ),
        ruff_command: format!(
            "{} {} <the {} .ipynb files>",
            shown(ruff),
            RUFF_ARGS.join(" "),
            files.len()
        ),
        ruff_version,
        nbsight: nbsight_times,
        ruff: ruff_times,
        nbsight_findings,
        ruff_findings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_executables_on_a_path_list() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let name = format!("ruff{}", std::env::consts::EXE_SUFFIX);
        // In `a` but not executable (on unix), in `b` executable.
        std::fs::write(a.join(&name), "").unwrap();
        std::fs::write(b.join(&name), "").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(b.join(&name), mode).unwrap();
        }
        let path = std::env::join_paths([&a, &b]).unwrap();
        let found = find_in_path("ruff", Some(path.clone()));
        if cfg!(unix) {
            assert_eq!(found, Some(b.join(&name)));
        } else {
            assert_eq!(found, Some(a.join(&name)));
        }
        assert_eq!(find_in_path("nope", Some(path)), None);
        assert_eq!(find_in_path("ruff", None), None);
    }

    #[test]
    fn min_median_and_ratio() {
        let ms = Duration::from_millis;
        assert_eq!(
            min_median(&[ms(30), ms(10), ms(20)]),
            Some((ms(10), ms(20)))
        );
        assert_eq!(min_median(&[]), None);
        assert_eq!(ratio(ms(10), ms(40)), Some(0.25));
        assert_eq!(ratio(ms(10), Duration::ZERO), None);
    }

    #[test]
    fn counts_json_lists() {
        assert_eq!(json_list_len(b"[]"), Some(0));
        assert_eq!(json_list_len(b"[{\"a\": 1}, {}]\n"), Some(2));
        assert_eq!(json_list_len(b"{}"), None);
        assert_eq!(json_list_len(b"not json"), None);
    }
}
