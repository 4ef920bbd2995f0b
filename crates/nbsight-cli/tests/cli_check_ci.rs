//! End-to-end tests of `nbsight check` as CI and pre-commit use it (issue
//! 21): any input survives (deep nesting, long chains), SARIF that validates
//! against the SARIF 2.1.0 schema (vendored in `tests/data/`) and points at
//! the lines of the `.ipynb` file, suppression comments and
//! `per-file-ignores`, file discovery (`.gitignore`, virtualenvs, excludes,
//! standard input), the output formats and options, and ruff's rule
//! selection. Fixtures are in `tests/fixtures/`.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn run_in(dir: &Path, args: &[&str], stdin: &str) -> Output {
    assert_cmd::Command::cargo_bin("nbsight")
        .expect("the nbsight binary")
        .current_dir(dir)
        .env_remove("NBSIGHT_EFFECTS")
        .env_remove("NO_COLOR")
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("nbsight runs")
}

fn nbsight_in(dir: &Path, args: &[&str]) -> Output {
    run_in(dir, args, "")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("an exit code, not a signal")
}

/// An nbformat 4 notebook of code cells.
fn notebook(sources: &[&str]) -> String {
    let cells: Vec<Value> = sources
        .iter()
        .enumerate()
        .map(|(i, source)| {
            serde_json::json!({
                "cell_type": "code", "id": format!("c{i}"), "metadata": {},
                "execution_count": null, "outputs": [], "source": source,
            })
        })
        .collect();
    let notebook = serde_json::json!({
        "nbformat": 4, "nbformat_minor": 5, "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}},
    });
    serde_json::to_string_pretty(&notebook).expect("JSON")
}

fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

fn json_findings(output: &Output) -> Vec<Value> {
    serde_json::from_str::<Value>(&stdout(output))
        .unwrap_or_else(|e| panic!("{e}: {}", stdout(output)))
        .as_array()
        .expect("a list")
        .clone()
}

const UNDEFINED: &str = "print(undefined_name)\n";

#[test]
fn deeply_nested_cells_are_diagnostics_in_every_subcommand() {
    let deep = [
        (
            "lambda.ipynb",
            format!("x = {}1\n", "lambda: ".repeat(2_600)),
        ),
        (
            "parens.ipynb",
            format!("x = {}a{}\n", "(".repeat(7_000), ")".repeat(7_000)),
        ),
        (
            "ifelse.ipynb",
            format!("x = {}b\n", "a if c else ".repeat(13_000)),
        ),
        (
            "lists.ipynb",
            format!("x = {}{}\n", "[".repeat(36_000), "]".repeat(36_000)),
        ),
    ];
    let mut files: Vec<(String, String)> = deep
        .iter()
        .map(|(name, source)| (name.to_string(), notebook(&[source])))
        .collect();
    files.push(("finding.ipynb".into(), notebook(&[UNDEFINED])));
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let dir = tree(&borrowed);
    for (name, _) in &deep {
        for args in [
            vec!["check"],
            vec!["cells"],
            vec!["flow"],
            vec!["whatif", "--open"],
            vec!["slice", "--cell", "0"],
        ] {
            let mut args = args.clone();
            args.push(name);
            let output = nbsight_in(dir.path(), &args);
            assert!(
                [0, 1].contains(&code(&output)),
                "{args:?}: {:?}\n{}",
                output.status,
                stderr(&output)
            );
        }
    }
    // A directory run: the too-deep cells are diagnostics naming file and
    // cell, the other notebooks are checked and the JSON is complete.
    let output = nbsight_in(dir.path(), &["check", "--output-format", "json", "."]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let err = stderr(&output);
    for name in ["parens.ipynb", "ifelse.ipynb", "lists.ipynb"] {
        assert!(
            err.contains(&format!(
                "{name}:cell 0:1:1: syntax error: nested too deeply"
            )),
            "{err}"
        );
    }
    let findings = json_findings(&output);
    assert!(
        findings
            .iter()
            .any(|f| f["file"] == "./finding.ipynb" && f["code"] == "NBS001"),
        "{findings:?}"
    );
}

#[test]
fn a_cell_the_parser_fails_on_is_a_syntax_error() {
    // Found by tests/fuzz_pipeline.rs: ruff's parser panics on this cell.
    let dir = tree(&[
        ("panics.py", "# %%\n{) \n,\n"),
        ("finding.ipynb", &notebook(&[UNDEFINED])),
    ]);
    let output = nbsight_in(
        dir.path(),
        &[
            "check",
            "--output-format",
            "json",
            "panics.py",
            "finding.ipynb",
        ],
    );
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        "panics.py:cell 0:1:1: syntax error: cannot be parsed (the Python parser failed on this cell)\n"
    );
    assert_eq!(json_findings(&output).len(), 1);
}

#[test]
fn long_attribute_and_subscript_chains_take_linear_time() {
    let long = 20_000;
    let dir = tree(&[
        (
            "attr.ipynb",
            &notebook(&[&format!("a = 1\nx = a{}\n", ".b".repeat(long))]),
        ),
        (
            "subs.ipynb",
            &notebook(&[&format!("a = 1\nx = a{}\n", "[0]".repeat(long))]),
        ),
        (
            "attr_near.ipynb",
            &notebook(&[&format!("a = 1\nx = a{}\n", ".b".repeat(4_900))]),
        ),
    ]);
    for file in ["attr.ipynb", "subs.ipynb", "attr_near.ipynb"] {
        for command in ["check", "cells"] {
            let start = Instant::now();
            let output = nbsight_in(dir.path(), &[command, file]);
            let took = start.elapsed();
            assert!([0, 1].contains(&code(&output)), "{}", stderr(&output));
            // Quadratic time took 7 to 9 s in a release build.
            assert!(took < Duration::from_secs(5), "{command} {file}: {took:?}");
        }
    }
}

/// The SARIF 2.1.0 schema (OASIS, errata 01), vendored.
fn sarif_schema() -> Value {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sarif-schema-2.1.0.json"),
    )
    .expect("the vendored schema");
    serde_json::from_str(&text).expect("the schema is JSON")
}

#[test]
fn sarif_validates_and_points_at_the_lines_of_the_ipynb_file() {
    let fixture = std::fs::read_to_string(fixtures().join("sarif_regions.ipynb")).unwrap();
    let dir = tree(&[
        ("nbs/regions.ipynb", &fixture),
        ("nbs/broken.ipynb", &notebook(&["x = (\n", UNDEFINED])),
        ("nbs/bad.ipynb", "{"),
    ]);
    let output = nbsight_in(
        dir.path(),
        &["check", "--output-format", "sarif", "nbs", "missing.ipynb"],
    );
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    let log: Value = serde_json::from_str(&stdout(&output)).expect("SARIF is JSON");

    let schema = sarif_schema();
    let validator = jsonschema::draft4::new(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");

    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert!(
        driver["informationUri"]
            .as_str()
            .unwrap()
            .starts_with("https://")
    );
    for rule in driver["rules"].as_array().unwrap() {
        assert!(rule["help"]["text"].as_str().unwrap().len() > 100, "{rule}");
    }
    // Unreadable and unparsable inputs are notifications, the run not a
    // success.
    let invocation = &run["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let notes: Vec<&str> = invocation["toolExecutionNotifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["message"]["text"].as_str().unwrap())
        .collect();
    for expected in ["missing.ipynb", "nbs/bad.ipynb", "nbs/broken.ipynb:cell 0"] {
        assert!(
            notes.iter().any(|n| n.contains(expected)),
            "{expected}: {notes:?}"
        );
    }
    // A syntax error's notification points at the line of the file that
    // holds the cell's broken line, not at the file's first line.
    let broken = notebook(&["x = (\n", UNDEFINED]);
    let source_line = 1 + broken
        .lines()
        .position(|l| l.contains("x = ("))
        .expect("the cell's source is in the file");
    let syntax = invocation["toolExecutionNotifications"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| {
            n["message"]["text"]
                .as_str()
                .unwrap()
                .contains("broken.ipynb:cell 0")
        })
        .unwrap();
    let region = &syntax["locations"][0]["physicalLocation"]["region"];
    assert_eq!(region["startLine"], source_line, "{syntax:#}");
    assert!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
            .as_str()
            .unwrap()
            .starts_with("file://")
    );

    // Every region is the line of the file holding the flagged source line,
    // and its column the flagged character.
    let file_lines: Vec<&str> = fixture.lines().collect();
    let cells: Value = serde_json::from_str(&fixture).unwrap();
    let results = run["results"].as_array().unwrap();
    let in_regions: Vec<&Value> = results
        .iter()
        .filter(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "nbs/regions.ipynb"
        })
        .collect();
    assert_eq!(in_regions.len(), 4, "{results:#?}");
    let mut fingerprints = std::collections::HashSet::new();
    for result in results {
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert!(fingerprints.insert(result["partialFingerprints"].to_string()));
    }
    for result in in_regions {
        let region = &result["locations"][0]["physicalLocation"]["region"];
        let properties = &result["properties"];
        let cell = &cells["cells"][properties["cell"].as_u64().unwrap() as usize];
        let source: String = match &cell["source"] {
            Value::Array(parts) => parts.iter().map(|p| p.as_str().unwrap()).collect(),
            other => other.as_str().unwrap().to_string(),
        };
        let source_line = source
            .lines()
            .nth(properties["cellLine"].as_u64().unwrap() as usize - 1)
            .unwrap();
        let flagged: String = source_line
            .chars()
            .skip(properties["cellColumn"].as_u64().unwrap() as usize - 1)
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // A name (`undefined_one`, or `f` calling a function that reads one).
        assert!(!flagged.is_empty(), "{source_line}");
        let file_line = file_lines[region["startLine"].as_u64().unwrap() as usize - 1];
        let at: String = file_line
            .chars()
            .skip(region["startColumn"].as_u64().unwrap() as usize - 1)
            .take(flagged.chars().count())
            .collect();
        assert_eq!(at, flagged, "{file_line}");
        // The file line is the JSON string holding the source line.
        let element = file_line
            .trim()
            .trim_start_matches("\"source\": ")
            .trim_end_matches(',');
        let decoded: String = serde_json::from_str(element).unwrap();
        assert!(decoded.contains(source_line), "{decoded:?} {source_line:?}");
    }
}

#[test]
fn noqa_comments_suppress_lines_cells_and_notebooks() {
    let output = nbsight_in(
        &fixtures(),
        &[
            "check",
            "--output-format",
            "json",
            "noqa.ipynb",
            "noqa_file.ipynb",
        ],
    );
    let findings = json_findings(&output);
    let names: Vec<&str> = findings
        .iter()
        .map(|f| f["message"].as_str().unwrap())
        .map(|m| m.split('`').nth(1).unwrap_or(m))
        .collect();
    assert_eq!(
        names,
        ["other_code", "reported", "not_first_line"],
        "{findings:#?}"
    );
    // The summary says how many were suppressed.
    let text = nbsight_in(&fixtures(), &["check", "noqa.ipynb", "noqa_file.ipynb"]);
    assert!(
        stdout(&text).contains("7 findings suppressed."),
        "{}",
        stdout(&text)
    );
}

#[test]
fn cell_tags_suppress_their_cell() {
    let cell = |tags: &[&str], source: &str| {
        serde_json::json!({
            "cell_type": "code", "metadata": {"tags": tags},
            "execution_count": null, "outputs": [], "source": source,
        })
    };
    let nb = serde_json::json!({
        "nbformat": 4, "nbformat_minor": 4, "metadata": {},
        "cells": [
            cell(&["noqa:NBS001"], "print(tagged)"),
            cell(&["nbsight:noqa"], "print(also_tagged)"),
            cell(&["noqa:NBS202"], "print(other_rule)"),
            cell(&["parameters"], "print(untagged)"),
        ],
    });
    let dir = tree(&[("tags.ipynb", &nb.to_string())]);
    let output = nbsight_in(
        dir.path(),
        &["check", "--output-format", "json", "tags.ipynb"],
    );
    let names: Vec<String> = json_findings(&output)
        .iter()
        .map(|f| {
            f["message"]
                .as_str()
                .unwrap()
                .split('`')
                .nth(1)
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(names, ["other_rule", "untagged"]);
}

#[test]
fn force_exclude_skips_excluded_files_named_on_the_command_line() {
    let nb = notebook(&[UNDEFINED]);
    let dir = tree(&[("venv/x.ipynb", &nb), ("nbs/y.ipynb", &nb)]);
    let files = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["check", "--output-format", "json"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["venv/x.ipynb", "nbs/y.ipynb"]);
        json_findings(&nbsight_in(dir.path(), &all))
            .iter()
            .map(|f| f["file"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(files(&[]), ["nbs/y.ipynb", "venv/x.ipynb"]);
    assert_eq!(files(&["--force-exclude"]), ["nbs/y.ipynb"]);
    assert_eq!(
        files(&["--force-exclude", "--extend-exclude", "nbs"]),
        Vec::<String>::new()
    );
}

#[test]
fn per_file_ignores_and_nearest_configuration() {
    let nb = notebook(&[UNDEFINED]);
    let dir = tree(&[
        (
            "pyproject.toml",
            "[tool.nbsight.per-file-ignores]\n\"legacy/*.ipynb\" = [\"undefined-on-run-all\"]\n",
        ),
        ("legacy/old.ipynb", &nb),
        ("new.ipynb", &nb),
        (
            "sub/pyproject.toml",
            "[tool.nbsight]\nignore = [\"NBS001\"]\n",
        ),
        ("sub/quiet.ipynb", &nb),
    ]);
    let output = nbsight_in(dir.path(), &["check", "--output-format", "json"]);
    let files: Vec<String> = json_findings(&output)
        .iter()
        .map(|f| f["file"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(files, ["./new.ipynb"]);
    // --select on the command line re-enables what a configuration ignores,
    // by code or by name.
    for selector in ["NBS001", "undefined-on-run-all", "NBS0"] {
        let output = nbsight_in(
            &dir.path().join("sub"),
            &[
                "check",
                "--output-format",
                "json",
                "--select",
                selector,
                "quiet.ipynb",
            ],
        );
        assert_eq!(json_findings(&output).len(), 1, "{selector}");
    }
}

#[test]
fn directory_scans_respect_gitignore_virtualenvs_and_excludes() {
    let nb = notebook(&[UNDEFINED]);
    let dir = tree(&[
        (".gitignore", "ignored.ipynb\ngenerated/\n"),
        ("keep.ipynb", &nb),
        ("ignored.ipynb", &nb),
        ("generated/g.ipynb", &nb),
        (".venv/lib/python3.12/site-packages/pkg/demo.ipynb", &nb),
        ("venv/demo.ipynb", &nb),
        ("env/lib/site-packages/demo.ipynb", &nb),
        ("node_modules/demo.ipynb", &nb),
        ("build/demo.ipynb", &nb),
        ("dist/demo.ipynb", &nb),
        (".hidden/demo.ipynb", &nb),
        ("drafts/d.ipynb", &nb),
    ]);
    let files = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["check", "--output-format", "json"];
        all.extend_from_slice(args);
        json_findings(&nbsight_in(dir.path(), &all))
            .iter()
            .map(|f| f["file"].as_str().unwrap().to_string())
            .collect()
    };
    // A bare `nbsight check` checks the current directory.
    assert_eq!(files(&[]), ["./drafts/d.ipynb", "./keep.ipynb"]);
    assert_eq!(files(&["--extend-exclude", "drafts"]), ["./keep.ipynb"]);
    let replaced = files(&["--exclude", "drafts"]);
    assert!(
        replaced.contains(&"./build/demo.ipynb".to_string()),
        "{replaced:?}"
    );
    assert!(
        !replaced.contains(&"./drafts/d.ipynb".to_string()),
        "{replaced:?}"
    );
    // A file named on the command line is checked even when ignored.
    assert_eq!(files(&["ignored.ipynb"]), ["ignored.ipynb"]);
}

#[test]
fn standard_input_is_read_with_a_file_name() {
    let dir = tree(&[]);
    let output = run_in(
        dir.path(),
        &[
            "check",
            "--output-format",
            "concise",
            "--stdin-filename",
            "nbs/x.ipynb",
            "-",
        ],
        &notebook(&[UNDEFINED]),
    );
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("nbs/x.ipynb:cell 0:1:7: NBS001 "),
        "{}",
        stdout(&output)
    );
    let output = run_in(
        dir.path(),
        &["check", "-"],
        "# %%\nx = 1\n\n# %%\nprint(x)\n",
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
}

#[test]
fn a_file_that_is_not_a_notebook_is_an_error() {
    let dir = tree(&[
        ("plain.py", "print(undefined_name)\n"),
        ("notes.txt", "hello\n"),
    ]);
    for file in ["plain.py", "notes.txt"] {
        let output = nbsight_in(dir.path(), &["check", file]);
        assert_eq!(code(&output), 2);
        assert!(
            stderr(&output).contains(&format!("{file}: not a Jupyter notebook: neither")),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn output_formats_and_options() {
    let dir = tree(&[
        ("a.ipynb", &notebook(&[UNDEFINED, "print(other)\n"])),
        ("b.ipynb", &notebook(&["x = 1\n"])),
    ]);
    let run = |args: &[&str]| {
        let mut all = vec!["check"];
        all.extend_from_slice(args);
        nbsight_in(dir.path(), &all)
    };
    let full = run(&["--color", "never"]);
    assert_eq!(code(&full), 1);
    assert!(
        stdout(&full).ends_with("Found 2 findings in 1 notebook (2 checked).\n"),
        "{}",
        stdout(&full)
    );
    assert!(!stdout(&full).contains('\u{1b}'));
    assert!(stdout(&run(&["--color", "always"])).contains("\u{1b}["));
    let concise = stdout(&run(&["--output-format", "concise", "-q"]));
    let concise: Vec<&str> = concise.lines().collect();
    assert_eq!(concise.len(), 2, "{concise:?}");
    assert!(
        concise[0].starts_with("./a.ipynb:cell 0:1:7: NBS001 reads `undefined_name`"),
        "{concise:?}"
    );
    assert!(
        concise[1].starts_with("./a.ipynb:cell 1:1:7: NBS001 reads `other`"),
        "{concise:?}"
    );
    let lines = stdout(&run(&["--output-format", "json-lines"]));
    assert_eq!(lines.lines().count(), 2);
    for line in lines.lines() {
        let finding: Value = serde_json::from_str(line).unwrap();
        assert_eq!(finding["code"], "NBS001");
    }
    let github = stdout(&run(&["--output-format", "github"]));
    assert!(
        github.starts_with("::error title=nbsight (NBS001),file=a.ipynb,line="),
        "{github}"
    );
    let gitlab: Value = serde_json::from_str(&stdout(&run(&["--format", "gitlab"]))).unwrap();
    let issues = gitlab.as_array().unwrap();
    assert_eq!(issues.len(), 2);
    assert_eq!(issues[0]["check_name"], "NBS001");
    assert_eq!(issues[0]["severity"], "major");
    assert_eq!(issues[0]["location"]["path"], "a.ipynb");
    assert!(issues[0]["location"]["lines"]["begin"].as_u64().unwrap() > 1);
    assert_ne!(issues[0]["fingerprint"], issues[1]["fingerprint"]);
    let statistics = stdout(&run(&["--statistics", "-q"]));
    assert_eq!(statistics, "2\tNBS001\tundefined-on-run-all\n");
    let zero = run(&["--exit-zero", "-q"]);
    assert_eq!(code(&zero), 0);
    assert!(!stdout(&zero).contains("Found"));
    let clean = run(&["b.ipynb", "-q"]);
    assert_eq!(stdout(&clean), "");
    assert_eq!(code(&clean), 0);
}
