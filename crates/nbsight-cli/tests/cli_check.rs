//! End-to-end tests of `nbsight check`: usage and configuration errors, the
//! exit codes, and the shape of the three output formats on the notebooks
//! under `tests/fixtures/` and `examples/`. The formats' content is pinned by
//! unit tests on hand-built findings (`src/check/`); here the assertions are on
//! structure, so they hold whatever the rules find in the fixtures.

mod common;
use common::{nbsight_in, repo};

use predicates::prelude::*;
use serde_json::Value;

/// `nbsight ARGS` run from the repository root.
fn nbsight(args: &[&str]) -> assert_cmd::assert::Assert {
    nbsight_in(&repo(), args)
}

fn stdout_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

fn stderr_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

fn exit_code(assert: &assert_cmd::assert::Assert) -> i32 {
    assert.get_output().status.code().expect("exit code")
}

/// The summary line: the last line of text output.
fn summary_line(stdout: &str) -> &str {
    stdout.lines().last().expect("a summary line")
}

fn is_summary(line: &str) -> bool {
    if line == "All checks passed." {
        return true;
    }
    let Some(rest) = line.strip_prefix("Found ") else {
        return false;
    };
    let words: Vec<&str> = rest.split(' ').collect();
    words.len() >= 4
        && words[0].parse::<usize>().is_ok()
        && ["finding", "findings"].contains(&words[1])
        && words[2] == "in"
        && words[3].parse::<usize>().is_ok()
}

/// A temporary directory holding `files` (path, content).
fn temp_tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, content) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, content).expect("write");
    }
    dir
}

const CLEAN: &str = "# %%\nx = 1\n\n# %%\nprint(x)\n";

#[test]
fn short_help() {
    let assert = nbsight(&["check", "-h"]).code(0);
    insta::assert_snapshot!(stdout_of(&assert), @r"
    Check notebooks for hidden-state and data-leakage problems (exit 1 when something is found)

    Usage: nbsight check [OPTIONS] [NOTEBOOK_OR_DIR]...

    Arguments:
      [NOTEBOOK_OR_DIR]...  Notebooks (.ipynb files or percent scripts) and directories, which are scanned recursively for .ipynb files (default: the current directory); `-` reads one notebook from standard input

    Options:
          --output-format <FORMAT>    Output format [default: full] [alias: --format] [possible values: full, concise, json, json-lines, sarif, github, gitlab]
          --select <RULE>             Rules to run instead of the configured or default ones: ALL, rule names, codes or code prefixes (NBS1). Comma-separated, repeatable
          --extend-select <RULE>      Rules to run in addition to the selected ones
          --ignore <RULE>             Rules not to run
          --exclude <PATTERN>         Files and folders not to scan, replacing the defaults (.venv, venv, node_modules, build, dist, site-packages, .ipynb_checkpoints): glob patterns, comma-separated, repeatable
          --extend-exclude <PATTERN>  Files and folders not to scan, in addition to the excluded ones
          --force-exclude             Apply the exclusions to files named on the command line (and to --stdin-filename) too, as pre-commit hooks need: they pass every changed file
          --stdin-filename <PATH>     The name of the notebook read from standard input (`-`): its format (.ipynb or percent script), the configuration that applies to it and the name in the output
          --effects <FILE>            Extra library-effects file (TOML, see docs/effects.md); repeatable. Also read from NBSIGHT_EFFECTS (paths separated by ':')
          --config <PYPROJECT>        The pyproject.toml to read [tool.nbsight] from for every notebook, instead of the nearest one above each notebook
          --statistics                Print how many findings each rule has instead of the findings
          --exit-zero                 Exit 0 even when there are findings (input and usage errors still exit 2)
      -q, --quiet                     Print the findings only: no summary line, no warnings
          --color <WHEN>              Colour the text output [default: auto] [possible values: auto, always, never]
          --no-progress               Never show the progress bar (shown on a terminal when checking more than one notebook)
      -h, --help                      Print help (see more with '--help')

    Exit status:
      0  no findings (or --exit-zero)
      1  findings, or notebooks with syntax errors or other load errors (printed
         on stderr as file:cell N:line:col: message)
      2  usage errors (unknown rule selector, unreadable or invalid configuration)
         or inputs that could not be read (a missing or unloadable file, also one
         found scanning a directory): each is reported and the other notebooks are
         still checked

    Configuration: the [tool.nbsight] table of the nearest pyproject.toml that has
    one, from each notebook's directory upwards (else from the current directory
    upwards; or --config for all), with the keys select, extend-select, ignore
    (lists of selectors), per-file-ignores (glob = [selectors]), exclude and
    extend-exclude (glob patterns), force-exclude (true: exclusions apply to named
    files too). --select replaces the configured rules; --extend-select and
    --ignore add to and remove from them.

    Suppression: `# noqa` or `# noqa: NBS001,unused-definition` on a line; as the
    first line of a cell, `# noqa[: CODES]` or `# nbsight: noqa[: CODES]` for the
    cell, or the cell tag `noqa[:CODES]` (also `nbsight:noqa[:CODES]`);
    `# nbsight: noqa-file[: CODES]` on its own line for the notebook.
    ");
}

#[test]
fn long_help_lists_every_rule() {
    let assert = nbsight(&["check", "--help"]).code(0);
    let help = stdout_of(&assert);
    for code in [
        "NBS001", "NBS002", "NBS101", "NBS102", "NBS103", "NBS201", "NBS202",
    ] {
        assert!(help.contains(code), "{code} missing from --help");
    }
    assert!(help.contains("preprocessing-leakage"));
}

#[test]
fn usage_errors_exit_2() {
    nbsight(&["check"]).code(2);
    nbsight(&["check", "examples", "--format", "yaml"]).code(2);
    nbsight(&["check", "examples", "--select", "NBX"])
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("unknown rule selector `NBX`"))
        .stderr(predicate::str::contains("--select"));
    nbsight(&["check", "examples", "--ignore", "NBS1,E501"])
        .code(2)
        .stderr(predicate::str::contains("`E501`"));
    nbsight(&["check", "examples", "--extend-select", "NBS1,"])
        .code(2)
        .stderr(predicate::str::contains("empty rule selector"));
    nbsight(&["check", "examples", "--effects", "no_such_effects.toml"])
        .code(2)
        .stderr(predicate::str::contains("no_such_effects.toml"));
}

#[test]
fn missing_path_exits_2_naming_it() {
    let dir = temp_tree(&[("clean.py", CLEAN)]);
    let assert = nbsight_in(dir.path(), &["check", "no_such_notebook.ipynb", "clean.py"]).code(2);
    let stderr = stderr_of(&assert);
    assert!(stderr.contains("no_such_notebook.ipynb"), "{stderr}");
    assert!(
        stderr.contains("1 of 2 inputs could not be read"),
        "{stderr}"
    );
    // The readable input was still checked, and the run does not say that
    // all checks passed.
    assert_eq!(
        summary_line(&stdout_of(&assert)),
        "Found 0 findings in 0 notebooks (1 checked). 1 input could not be read (listed on stderr)."
    );
}

#[test]
fn selectors_of_every_kind_are_accepted() {
    for args in [
        &["--select", "ALL"][..],
        &[
            "--select",
            "NBS1,undefined-on-run-all",
            "--select",
            "nbs002",
        ],
        &[
            "--extend-select",
            "isolated-cell",
            "--ignore",
            "NBS103,NBS2",
        ],
    ] {
        let mut all = vec!["check", "examples", "--no-progress"];
        all.extend_from_slice(args);
        let assert = nbsight(&all);
        let code = exit_code(&assert);
        assert!(code == 0 || code == 1, "{args:?}: exit {code}");
        assert!(is_summary(summary_line(&stdout_of(&assert))), "{args:?}");
    }
}

#[test]
fn a_clean_notebook_passes() {
    let dir = temp_tree(&[("clean.py", CLEAN)]);
    nbsight_in(dir.path(), &["check", "clean.py"])
        .code(0)
        .stdout("All checks passed.\n")
        .stderr("");
}

#[test]
fn syntax_errors_exit_1_in_compiler_form() {
    let dir = temp_tree(&[("broken.py", "# %%\nx = 1\n\n# %%\ny = (\n")]);
    let assert = nbsight_in(dir.path(), &["check", "broken.py"]).code(1);
    let stderr = stderr_of(&assert);
    assert!(stderr.starts_with("broken.py:cell 1:1:"), "{stderr}");
    assert!(stderr.contains(": syntax error: "), "{stderr}");
    let stdout = stdout_of(&assert);
    assert!(
        summary_line(&stdout).ends_with("1 notebook has errors (listed on stderr)."),
        "{stdout}"
    );
}

#[test]
fn configuration_errors_exit_2() {
    let dir = temp_tree(&[
        ("pyproject.toml", "[tool.nbsight]\nselct = [\"NBS1\"]\n"),
        ("sub/clean.py", CLEAN),
    ]);
    // Found by walking up from the current directory.
    nbsight_in(&dir.path().join("sub"), &["check", "clean.py"])
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("pyproject.toml"))
        .stderr(predicate::str::contains("unknown field `selct`"));

    let dir = temp_tree(&[
        ("pyproject.toml", "[tool.nbsight]\nignore = [\"NBS9\"]\n"),
        ("clean.py", CLEAN),
    ]);
    nbsight_in(dir.path(), &["check", "clean.py"])
        .code(2)
        .stderr(predicate::str::contains("[tool.nbsight] ignore"))
        .stderr(predicate::str::contains("`NBS9`"));

    let dir = temp_tree(&[
        ("pyproject.toml", "[tool.nbsight]\nselect = \"ALL\"\n"),
        ("clean.py", CLEAN),
    ]);
    nbsight_in(dir.path(), &["check", "clean.py"])
        .code(2)
        .stderr(predicate::str::contains("select"));

    let dir = temp_tree(&[("pyproject.toml", "[tool.nbsight\n"), ("clean.py", CLEAN)]);
    nbsight_in(dir.path(), &["check", "clean.py"])
        .code(2)
        .stderr(predicate::str::contains("pyproject.toml"));

    nbsight_in(
        dir.path(),
        &["check", "clean.py", "--config", "missing.toml"],
    )
    .code(2)
    .stderr(predicate::str::contains("missing.toml"));
}

#[test]
fn valid_configurations_are_read() {
    let dir = temp_tree(&[
        (
            "pyproject.toml",
            "[project]\nname = \"demo\"\n\n[tool.ruff]\nline-length = 100\n",
        ),
        (
            "conf/pyproject.toml",
            "[tool.nbsight]\nselect = [\"ALL\"]\nextend-select = [\"NBS1\"]\n\
             ignore = [\"unused-definition\"]\n",
        ),
        ("clean.py", CLEAN),
    ]);
    // A pyproject without [tool.nbsight] is no configuration.
    nbsight_in(dir.path(), &["check", "clean.py"]).code(0);
    for extra in [&[][..], &["--select", "NBS001", "--ignore", "NBS2"]] {
        let mut args = vec!["check", "clean.py", "--config", "conf/pyproject.toml"];
        args.extend_from_slice(extra);
        let assert = nbsight_in(dir.path(), &args).stderr("");
        assert!([0, 1].contains(&exit_code(&assert)), "{args:?}");
    }
    // --config is read, and wins over the pyproject found by the search.
    std::fs::write(
        dir.path().join("conf/bad.toml"),
        "[tool.nbsight]\nselect = [\"NBX\"]\n",
    )
    .expect("write");
    nbsight_in(
        dir.path(),
        &["check", "clean.py", "--config", "conf/bad.toml"],
    )
    .code(2)
    .stderr(predicate::str::contains("bad.toml"))
    .stderr(predicate::str::contains("`NBX`"));
}

#[test]
fn fixture_directory_scan_is_deterministic() {
    let run = || nbsight(&["check", "tests/fixtures", "--no-progress"]).code(2);
    let first = run();
    let stdout = stdout_of(&first);
    let stderr = stderr_of(&first);
    // Unloadable notebooks are reported, the others checked.
    for bad in ["bad_json.ipynb", "empty.ipynb", "nbformat3.ipynb"] {
        assert!(
            stderr.contains(&format!("nbsight: error: tests/fixtures/{bad}")),
            "{stderr}"
        );
    }
    let last = stderr.lines().last().expect("an error line");
    let counts = last
        .strip_prefix("nbsight: error: 3 of ")
        .and_then(|rest| rest.strip_suffix(" inputs could not be read (the others were checked)"))
        .unwrap_or_else(|| panic!("{last}"));
    let inputs: usize = counts.parse().expect("a count");
    assert!(
        stderr.contains("tests/fixtures/syntax_error.ipynb:cell 1:2:7: syntax error"),
        "{stderr}"
    );
    let summary = summary_line(&stdout);
    assert!(is_summary(summary), "{summary}");
    assert!(
        summary.contains(&format!(" notebooks ({} checked).", inputs - 3)),
        "{summary}"
    );
    assert!(
        summary.ends_with(
            " have errors (listed on stderr). 3 inputs could not be read (listed on stderr)."
        ),
        "{summary}"
    );
    // No progress bar when stderr is not a terminal.
    assert!(!stderr.contains("checking "), "{stderr}");
    let second = run();
    assert_eq!(stdout_of(&second), stdout);
    assert_eq!(stderr_of(&second), stderr);
}

#[test]
fn json_is_a_sorted_list_of_findings() {
    let assert = nbsight(&[
        "check",
        "examples",
        "tests/fixtures/percent.py",
        "tests/fixtures/scoping_functions.ipynb",
        "--format",
        "json",
        "--select",
        "ALL",
    ]);
    assert!([0, 1].contains(&exit_code(&assert)));
    let findings: Value = serde_json::from_slice(&assert.get_output().stdout).expect("JSON");
    let findings = findings.as_array().expect("a JSON list");
    let mut keys = Vec::new();
    for finding in findings {
        for key in [
            "file", "code", "name", "message", "cell", "line", "column", "path", "severity",
        ] {
            assert!(finding.get(key).is_some(), "missing {key} in {finding}");
        }
        assert!(finding["path"].is_array());
        assert!(["error", "warning", "info"].contains(&finding["severity"].as_str().unwrap()));
        keys.push((
            finding["file"].as_str().unwrap().to_string(),
            finding["cell"].as_u64().unwrap(),
            finding["line"].as_u64().unwrap(),
            finding["column"].as_u64().unwrap(),
            finding["code"].as_str().unwrap().to_string(),
        ));
    }
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
}

#[test]
fn sarif_has_what_github_requires() {
    let assert = nbsight(&[
        "check",
        "examples",
        "tests/fixtures/percent.py",
        "--format",
        "sarif",
        "--select",
        "ALL",
    ]);
    assert!([0, 1].contains(&exit_code(&assert)));
    let log: Value = serde_json::from_slice(&assert.get_output().stdout).expect("JSON");
    assert_eq!(
        log["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "nbsight");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert!(driver["informationUri"].is_string());
    let rules = driver["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), 8);
    for rule in rules {
        assert!(rule["id"].as_str().unwrap().starts_with("NBS"));
        assert!(rule["name"].is_string());
        assert!(rule["shortDescription"]["text"].is_string());
        assert!(
            ["error", "warning", "note"]
                .contains(&rule["defaultConfiguration"]["level"].as_str().unwrap())
        );
    }
    for result in run["results"].as_array().expect("results") {
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        let text = result["message"]["text"].as_str().expect("message.text");
        assert!(text.starts_with("cell "), "{text}");
        let physical = &result["locations"][0]["physicalLocation"];
        let uri = physical["artifactLocation"]["uri"].as_str().expect("uri");
        assert!(!uri.contains('\\') && !uri.starts_with('/'), "{uri}");
        assert!(physical["region"]["startLine"].as_u64().expect("startLine") >= 1);
        assert!(result["properties"]["cell"].is_u64());
        assert!(result["partialFingerprints"].is_object());
    }
}

#[test]
fn an_empty_directory_is_a_warning() {
    let dir = temp_tree(&[("notes/readme.md", "# hi\n")]);
    nbsight_in(dir.path(), &["check", "notes"])
        .code(0)
        .stdout("All checks passed.\n")
        .stderr(predicate::str::contains("no notebooks found"));
}

// ----- real findings ---------------------------------------------------------

#[test]
fn a_leaky_notebook_is_reported_in_every_format() {
    let file = "crates/nbsight-check/tests/fixtures/preprocessing_leak.ipynb";
    let text = nbsight(&["check", "--no-progress", file]);
    assert_eq!(exit_code(&text), 1);
    let out = stdout_of(&text);
    assert!(out.contains(":cell 7:"), "{out}");
    assert!(out.contains("NBS101"), "{out}");
    assert!(out.contains("Found 1 finding"), "{out}");

    let json = nbsight(&["check", "--no-progress", "--format", "json", file]);
    let findings: Value = serde_json::from_str(&stdout_of(&json)).expect("JSON list");
    let findings = findings.as_array().expect("a list");
    assert_eq!(findings.len(), 1);
    let finding = &findings[0];
    for key in [
        "file", "code", "name", "message", "cell", "line", "column", "path", "severity",
    ] {
        assert!(finding.get(key).is_some(), "missing {key}: {finding}");
    }
    assert_eq!(finding["name"], "preprocessing-leakage");
    assert_eq!(finding["cell"], 7);

    let sarif = nbsight(&["check", "--no-progress", "--format", "sarif", file]);
    let doc: Value = serde_json::from_str(&stdout_of(&sarif)).expect("SARIF JSON");
    let result = &doc["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "NBS101");
    assert!(
        result["message"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("cell 7"))
    );
}

#[test]
fn rules_can_be_ignored_on_the_command_line_and_in_pyproject() {
    let file = repo().join("crates/nbsight-check/tests/fixtures/preprocessing_leak.ipynb");
    let file = file.to_str().expect("utf-8 path");
    let ignored = nbsight(&[
        "check",
        "--no-progress",
        "--ignore",
        "preprocessing-leakage",
        file,
    ]);
    assert_eq!(exit_code(&ignored), 0, "{}", stdout_of(&ignored));
    let dir = temp_tree(&[("pyproject.toml", "[tool.nbsight]\nignore = [\"NBS1\"]\n")]);
    let configured = nbsight_in(dir.path(), &["check", "--no-progress", file]);
    assert_eq!(exit_code(&configured), 0, "{}", stdout_of(&configured));
}

#[test]
fn a_leak_hidden_by_a_cell_is_reported_with_the_order_that_leaks() {
    // NBLyzer's Figure 1: Run All is safe (cell 3 reads `x` again), running
    // cells 1, 2, 4, 5 leaks.
    let file = "crates/nbsight-check/tests/fixtures/nblyzer_figure1.ipynb";
    let text = nbsight(&["check", "--no-progress", file]);
    assert_eq!(exit_code(&text), 1);
    let out = stdout_of(&text);
    assert!(
        out.contains(":cell 5:5:7: NBS104 running cells 1, 2, 4, 5 in order (skipping cell 3, which rebinds `x`) leaks: `accuracy_score`"),
        "{out}"
    );
    assert!(out.contains("cells: 1 -> 2 -> 4 -> 5"), "{out}");
    assert!(out.contains("Found 1 finding"), "{out}");

    let json = nbsight(&["check", "--no-progress", "--format", "json", file]);
    let findings: Value = serde_json::from_str(&stdout_of(&json)).expect("JSON list");
    let findings = findings.as_array().expect("a list");
    assert_eq!(findings.len(), 1, "{findings:?}");
    let finding = &findings[0];
    assert_eq!(finding["code"], "NBS104");
    assert_eq!(finding["name"], "leakage-with-cells-skipped");
    assert_eq!(finding["severity"], "warning");
    assert_eq!(finding["cell"], 5);
    assert_eq!(finding["path"], serde_json::json!([1, 2, 4, 5]));

    let ignored = nbsight(&[
        "check",
        "--no-progress",
        "--ignore",
        "leakage-with-cells-skipped",
        file,
    ]);
    assert_eq!(exit_code(&ignored), 0, "{}", stdout_of(&ignored));
}
