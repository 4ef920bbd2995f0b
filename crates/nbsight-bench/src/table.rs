//! The benchmark's tables: aligned text or GitHub markdown, and the cells
//! they are made of (durations, ratios, distributions).

use std::time::Duration;

use crate::stats::{median, percentile};

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Markdown,
}

/// A duration with about three significant digits in a readable unit.
pub fn fmt_duration(d: Duration) -> String {
    let nanos = d.as_nanos();
    let (value, unit) = if nanos < 999_500 {
        (nanos as f64 / 1e3, "µs")
    } else if nanos < 999_500_000 {
        (nanos as f64 / 1e6, "ms")
    } else {
        (nanos as f64 / 1e9, "s")
    };
    if nanos == 0 {
        "0 µs".to_string()
    } else if value >= 99.95 {
        format!("{value:.0} {unit}")
    } else if value >= 9.995 {
        format!("{value:.1} {unit}")
    } else {
        format!("{value:.2} {unit}")
    }
}

pub(crate) fn fmt_ratio(r: Option<f64>) -> String {
    r.map_or_else(|| "n/a".to_string(), |r| format!("{r:.2}"))
}

/// Renders rows of cells as an aligned text table (first column left-aligned,
/// the others right-aligned) or a GitHub markdown table.
pub(crate) fn table(format: Format, header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    match format {
        Format::Markdown => {
            let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
            let header: Vec<String> = header.iter().map(|h| (*h).to_string()).collect();
            out.push_str(&line(&header));
            let rule: Vec<String> = (0..header.len())
                .map(|i| if i == 0 { "---" } else { "---:" }.to_string())
                .collect();
            out.push_str(&format!("|{}|\n", rule.join("|")));
            for row in rows {
                out.push_str(&line(row));
            }
        }
        Format::Text => {
            let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
            for row in rows {
                for (w, cell) in widths.iter_mut().zip(row) {
                    *w = (*w).max(cell.chars().count());
                }
            }
            let header: Vec<String> = header.iter().map(|h| (*h).to_string()).collect();
            for row in std::iter::once(&header).chain(rows) {
                let cells: Vec<String> = row
                    .iter()
                    .zip(&widths)
                    .enumerate()
                    .map(|(i, (cell, &w))| {
                        if i == 0 {
                            format!("{cell:<w$}")
                        } else {
                            format!("{cell:>w$}")
                        }
                    })
                    .collect();
                out.push_str(cells.join("  ").trim_end());
                out.push('\n');
            }
        }
    }
    out
}

/// Median, p99, max and total of per-notebook values.
pub(crate) fn stat_cells(values: &[Duration]) -> Vec<String> {
    let total: Duration = values.iter().sum();
    vec![
        median(values).map_or_else(|| "n/a".into(), fmt_duration),
        percentile(values, 99.0).map_or_else(|| "n/a".into(), fmt_duration),
        values
            .iter()
            .max()
            .map_or_else(|| "n/a".into(), |d| fmt_duration(*d)),
        fmt_duration(total),
    ]
}
