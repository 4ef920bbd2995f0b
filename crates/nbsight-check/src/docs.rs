//! The rules' documentation, generated from the registry: the rules section
//! of `docs/rules.md` (a table, then each rule's doc comment under its code
//! and name) and the rule table of the README's `nbsight check` section.
//! Each goes between the marker comments [`BEGIN`] and [`END`] of its file,
//! so the hand-written text around it stays. Pure functions: `tests/docs.rs`
//! compares the files with them, and rewrites the files when
//! `NBSIGHT_UPDATE_DOCS=1`.

use std::fmt::Write;

pub use crate::doc_comment::doc_comment;
use crate::registry::{REGISTRY, ReportedBy, RuleMeta};

/// The line that opens a generated section.
pub const BEGIN: &str = "<!-- rules:begin -->";
/// The line that closes a generated section.
pub const END: &str = "<!-- rules:end -->";

/// Says where a generated section comes from.
const NOTICE: &str = "<!-- Generated from the rule files in crates/nbsight-check/src/rules/: \
edit those, then run `NBSIGHT_UPDATE_DOCS=1 cargo test -p nbsight-check --test docs`. -->";

/// `markdown` with its headings one level deeper (outside code blocks).
fn demote_headings(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len() + 16);
    let mut in_code = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.push('#');
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The footer of the rules section: how to suppress findings, from the doc
/// comment of `suppress.rs` (which implements the comments).
fn suppression_section() -> String {
    format!(
        "\n## Suppressing findings\n\n{}\n",
        doc_comment(include_str!("suppress.rs"))
    )
}

/// `on`, `off` or `—` (what-if only), as the tables show the default.
fn default_text(row: &RuleMeta) -> &'static str {
    match (row.reported_by, row.default_on) {
        (ReportedBy::WhatIfOnly, _) => "—",
        (ReportedBy::Check, true) => "on",
        (ReportedBy::Check, false) => "off",
    }
}

/// The generated part of `docs/rules.md`: the table of every rule, then
/// each rule's documentation under `## CODE `name``, then how to suppress
/// findings.
pub fn rules_section() -> String {
    let mut out = format!("{NOTICE}\n\n| code | name | default | severity |\n|---|---|---|---|\n");
    for row in &REGISTRY {
        let severity = match row.reported_by {
            ReportedBy::Check => row.severity.as_str().to_string(),
            ReportedBy::WhatIfOnly => {
                format!("{} (`nbsight whatif` only)", row.severity.as_str())
            }
        };
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {severity} |",
            row.code,
            row.name,
            default_text(row)
        );
    }
    for row in &REGISTRY {
        let note = match (row.reported_by, row.default_on) {
            (ReportedBy::WhatIfOnly, _) => " (`nbsight whatif` only)",
            (ReportedBy::Check, false) => " (off)",
            (ReportedBy::Check, true) => "",
        };
        let _ = write!(
            out,
            "\n## {} `{}`{note}\n\n{}",
            row.code,
            row.name,
            demote_headings(&row.doc())
        );
    }
    out.push_str(&suppression_section());
    out
}

/// The generated rule table of the README: the rules `nbsight check` reports.
pub fn readme_table() -> String {
    let mut out =
        format!("{NOTICE}\n\n| code | rule | default | what it reports |\n|---|---|---|---|\n");
    for row in REGISTRY.iter().filter(|r| r.is_check_rule()) {
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} |",
            row.code,
            row.name,
            default_text(row),
            row.summary
        );
    }
    out
}

/// `document` with the lines between its [`BEGIN`] and [`END`] lines
/// replaced by `generated` (which ends with a newline); `None` when it lacks
/// either marker line.
pub fn splice(document: &str, generated: &str) -> Option<String> {
    let begin = document.find(&format!("{BEGIN}\n"))? + BEGIN.len() + 1;
    let rest = &document[begin..];
    let end = if rest.starts_with(END) {
        begin
    } else {
        begin + rest.find(&format!("\n{END}"))? + 1
    };
    Some(format!(
        "{}\n{generated}\n{}",
        &document[..begin],
        &document[end..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_comment_is_the_leading_inner_comment() {
        let source =
            "//! ## What\n//! Text `x`.\n//!\n//!  indented\n//!\n\n//! not this\nuse x;\n";
        assert_eq!(doc_comment(source), "## What\nText `x`.\n\n indented");
        assert_eq!(doc_comment("use x;\n//! late\n"), "");
        assert_eq!(doc_comment(""), "");
    }

    #[test]
    fn headings_are_demoted_outside_code() {
        let doc = "## What\ntext\n```python\n# %%\nx = 1\n```\n## Why\n";
        assert_eq!(
            demote_headings(doc),
            "### What\ntext\n```python\n# %%\nx = 1\n```\n### Why\n"
        );
    }

    #[test]
    fn splice_replaces_between_markers() {
        let doc = format!("head\n{BEGIN}\nold\nlines\n{END}\ntail\n");
        assert_eq!(
            splice(&doc, "new\n").as_deref(),
            Some(format!("head\n{BEGIN}\n\nnew\n\n{END}\ntail\n").as_str())
        );
        let twice = splice(&doc, "new\n").and_then(|d| splice(&d, "new\n"));
        assert_eq!(twice, splice(&doc, "new\n"));
        assert_eq!(splice("no markers\n", "new\n"), None);
        let empty = format!("head\n{BEGIN}\n{END}\ntail\n");
        assert_eq!(splice(&empty, "new\n"), splice(&doc, "new\n"));
    }

    #[test]
    fn the_sections_list_every_rule() {
        let section = rules_section();
        let readme = readme_table();
        for row in &REGISTRY {
            assert!(section.contains(&format!("## {} `{}`", row.code, row.name)));
            assert_eq!(
                readme.contains(row.code),
                row.is_check_rule(),
                "{}",
                row.code
            );
        }
    }
}
