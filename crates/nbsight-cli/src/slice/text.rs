//! The text report of `nbsight slice`.

use std::fmt::Write as _;

use nbsight_slice::{Direction, Slice};

/// The report; with `statements`, one line per statement of the slice.
pub fn render(slice: &Slice, statements: bool) -> String {
    let mut out = String::new();
    let direction = match slice.direction {
        Direction::Backward => "backward",
        Direction::Forward => "forward",
    };
    let by = if statements { "statements" } else { "cells" };
    let _ = writeln!(
        out,
        "{direction} slice of cell {} in {} (by {by})",
        slice.cell, slice.notebook
    );
    if let Some(error) = &slice.target_error {
        let _ = writeln!(
            out,
            "cell {} does not parse (line {}, column {}: {}): its dependences are unknown, the slice is the cell alone",
            slice.cell, error.line, error.column, error.message
        );
    }
    let cells: Vec<String> = slice.cells.iter().map(|c| c.to_string()).collect();
    let _ = writeln!(out, "cells: {}", cells.join(", "));
    if statements {
        for s in &slice.statements {
            let lines = if s.end_line > s.line {
                format!("lines {}-{}", s.line, s.end_line)
            } else {
                format!("line {}", s.line)
            };
            let mut text = s.text.lines();
            let first = text.next().unwrap_or("");
            let more = if text.next().is_some() { " ..." } else { "" };
            let _ = writeln!(out, "  cell {}, {lines}: {first}{more}", s.cell);
        }
    }
    let _ = writeln!(
        out,
        "statements: {} of {} (ratio {:.3})",
        slice.statements_in_slice, slice.statements_in_notebook, slice.ratio
    );
    out
}
