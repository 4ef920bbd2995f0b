//! A file's documentation: its leading `//!` comment, as Markdown (what
//! each rule's file and `suppress.rs` are rendered from).

/// The leading `//!` comment of a Rust source file, without the `//!` (and
/// the one space after it), ending at the first other line.
pub fn doc_comment(source: &str) -> String {
    let lines: Vec<&str> = source
        .lines()
        .map_while(|line| line.trim_start().strip_prefix("//!"))
        .map(|text| text.strip_prefix(' ').unwrap_or(text).trim_end())
        .collect();
    let end = lines
        .iter()
        .rposition(|line| !line.is_empty())
        .map_or(0, |last| last + 1);
    lines[..end].join("\n")
}
