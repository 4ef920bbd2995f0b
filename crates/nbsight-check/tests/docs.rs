//! The rules' documentation agrees with the code: `docs/rules.md` and the
//! README's rule table are what the registry generates (with
//! `NBSIGHT_UPDATE_DOCS=1` this test rewrites them), and every rule's example
//! gives exactly the output its documentation shows.
//!
//! An example is the first `python` block of a rule's "## Example" section,
//! a percent script in which a marker `# %% [N]` is a cell run as `[N]` with
//! saved output; the output is the `text` block after it, one line per
//! finding (`cell N:line:col: CODE message`, then `  cells: a -> b` when the
//! finding has a path of several cells). A what-if-only rule's example says
//! which event to ask about (`nbsight whatif --execute N`).

use std::path::{Path, PathBuf};

use nbsight_check::docs::{readme_table, rules_section, splice};
use nbsight_check::{Finding, REGISTRY, RuleMeta, RuleSet, check_notebook};
use nbsight_dataflow::Effects;
use nbsight_notebook::{Notebook, load_percent_str};
use nbsight_whatif::{Event, Executed, WhatIfOptions, what_if};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Compares `path`'s generated section with `generated`, or rewrites it
/// when `NBSIGHT_UPDATE_DOCS` is set.
fn check_generated(path: &str, generated: &str) {
    let path = repo().join(path);
    let current = std::fs::read_to_string(&path).expect("the documentation file exists");
    let expected = splice(&current, generated).unwrap_or_else(|| {
        panic!(
            "{} lacks the lines `<!-- rules:begin -->` and `<!-- rules:end -->`",
            path.display()
        )
    });
    if current == expected {
        return;
    }
    if std::env::var_os("NBSIGHT_UPDATE_DOCS").is_some() {
        std::fs::write(&path, expected).expect("the documentation file is writable");
        return;
    }
    panic!(
        "{} is not what the rule registry generates; run `NBSIGHT_UPDATE_DOCS=1 cargo test -p nbsight-check --test docs`\n--- expected section:\n{generated}",
        path.display()
    );
}

#[test]
fn rules_md_is_generated_from_the_registry() {
    check_generated("docs/rules.md", &rules_section());
}

#[test]
fn readme_table_is_generated_from_the_registry() {
    check_generated("README.md", &readme_table());
}

/// The body of the first fenced block of `language` in `text`, and the text
/// after it.
fn fenced<'a>(text: &'a str, language: &str) -> Option<(&'a str, &'a str)> {
    let open = format!("```{language}\n");
    let start = text.find(&open)? + open.len();
    let end = start + text[start..].find("```")?;
    Some((&text[start..end], &text[end + 3..]))
}

/// A percent script whose markers `# %% [N]` give execution counts.
fn example_notebook(script: &str) -> Notebook {
    let mut notebook = load_percent_str(Path::new("example.py"), script);
    let counts: Vec<Option<i64>> = script
        .lines()
        .filter(|line| line.starts_with("# %%"))
        .map(|line| {
            line.split_whitespace()
                .find_map(|word| word.strip_prefix('[')?.strip_suffix(']')?.parse().ok())
        })
        .collect();
    assert_eq!(counts.len(), notebook.cells.len(), "one marker per cell");
    for (cell, count) in notebook.cells.iter_mut().zip(counts) {
        if count.is_some() {
            cell.execution_count = count;
            cell.output_count = 1;
        }
    }
    notebook
}

fn render(findings: &[Finding]) -> String {
    let mut out = String::new();
    for f in findings {
        out.push_str(&format!(
            "cell {}:{}:{}: {} {}\n",
            f.cell,
            f.line,
            f.column,
            f.code(),
            f.message
        ));
        if f.path.len() > 1 {
            let cells: Vec<String> = f.path.iter().map(ToString::to_string).collect();
            out.push_str(&format!("  cells: {}\n", cells.join(" -> ")));
        }
    }
    out
}

/// What nbsight reports on the example of `row`, and what its documentation
/// says it reports.
fn example_output(row: &RuleMeta) -> (String, String) {
    let doc = row.doc();
    let example = &doc[doc.find("## Example").expect("an example section")..];
    let (script, rest) = fenced(example, "python").expect("a python block");
    let (shown, _) = fenced(rest, "text").expect("a text block with the output");
    let notebook = example_notebook(script);
    let effects = Effects::builtin();
    let findings = if row.is_check_rule() {
        check_notebook(&notebook, &effects, RuleSet::from_rules([row.rule])).findings
    } else {
        let cell = rest
            .split("nbsight whatif --execute ")
            .nth(1)
            .and_then(|s| s.split('`').next())
            .and_then(|n| n.parse().ok())
            .expect("the example says `nbsight whatif --execute N`");
        let options = WhatIfOptions {
            executed: Executed::Saved,
            k: None,
        };
        let report = what_if(&notebook, &effects, &Event::Execute(cell), &options)
            .expect("the example's event is valid");
        report
            .findings
            .iter()
            .map(|f| Finding::from_whatif(&report.notebook, f))
            .filter(|f| f.rule == row.rule)
            .collect()
    };
    (render(&findings), shown.to_string())
}

#[test]
fn every_example_gives_the_output_shown() {
    let mut failures = Vec::new();
    for row in &REGISTRY {
        let (got, shown) = example_output(row);
        if !got.contains(&format!(" {} ", row.code)) {
            failures.push(format!("{}: the example is not reported", row.name));
        }
        if got != shown {
            failures.push(format!(
                "{}: the example gives\n{got}but its documentation shows\n{shown}",
                row.name
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
