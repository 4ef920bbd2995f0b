//! The text report of `nbsight history`: a table, one line per execution.

use std::fmt::Write as _;
use std::path::Path;

use nbsight_history::ExecutionRow;
use unicode_width::UnicodeWidthStr;

use super::time::utc;

/// A list of symbols, `-` for none.
fn symbols<'a>(list: impl Iterator<Item = &'a str>) -> String {
    let joined: Vec<&str> = list.collect();
    if joined.is_empty() {
        "-".to_string()
    } else {
        joined.join(", ")
    }
}

/// The most characters of a cell id a line shows.
const MAX_ID: usize = 40;

/// A cell id as one table cell: control characters (a newline) escaped,
/// cut to [`MAX_ID`] characters with `…` (`--format json` has it whole).
fn shown_id(id: &str) -> String {
    let escaped: String = id
        .chars()
        .flat_map(|c| {
            let escape = c.is_control();
            let text: String = if escape {
                c.escape_default().collect()
            } else {
                c.to_string()
            };
            text.chars().collect::<Vec<_>>()
        })
        .collect();
    if escaped.chars().count() <= MAX_ID {
        return escaped;
    }
    let mut cut: String = escaped.chars().take(MAX_ID - 1).collect();
    cut.push('…');
    cut
}

pub fn render(path: &Path, executions: &[ExecutionRow]) -> String {
    if executions.is_empty() {
        return format!("{}: no executions recorded\n", path.display());
    }
    let header = [
        "session",
        "cell",
        "count",
        "counter",
        "time (UTC)",
        "seconds",
        "status",
        "reads",
        "writes",
    ];
    let rows: Vec<[String; 9]> = executions
        .iter()
        .map(|e| {
            [
                e.session.to_string(),
                shown_id(&e.cell_id),
                e.execution_count
                    .map_or_else(|| "-".to_string(), |c| c.to_string()),
                e.counter.to_string(),
                utc(e.started),
                format!("{:.3}", e.seconds),
                e.status.as_str().to_string(),
                symbols(e.reads.iter().map(|(s, _)| s.as_str())),
                symbols(e.writes.iter().map(String::as_str)),
            ]
        })
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.width()).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.width());
        }
    }
    // Numbers to the right, words to the left; the last column unpadded.
    let right = [true, false, true, true, false, true, false, false, false];
    let mut out = String::new();
    let mut line = |cells: &[&str]| {
        let mut text = String::new();
        for (i, cell) in cells.iter().enumerate() {
            if i > 0 {
                text.push_str("  ");
            }
            let pad = " ".repeat(widths[i].saturating_sub(cell.width()));
            if i + 1 == cells.len() {
                text.push_str(cell);
            } else if right[i] {
                let _ = write!(text, "{pad}{cell}");
            } else {
                let _ = write!(text, "{cell}{pad}");
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(&header);
    for row in &rows {
        let cells: Vec<&str> = row.iter().map(String::as_str).collect();
        line(&cells);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shown_id;

    #[test]
    fn ids_are_escaped_and_cut() {
        assert_eq!(shown_id("c1"), "c1");
        assert_eq!(shown_id("a\nb\tc"), "a\\nb\\tc");
        let long = "x".repeat(100);
        let shown = shown_id(&long);
        assert_eq!(shown.chars().count(), 40);
        assert!(shown.ends_with('…'));
    }
}
