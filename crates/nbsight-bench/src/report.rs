//! Rendering the benchmark results as aligned text or as GitHub markdown.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use crate::analysis::Analysis;
use crate::measure::Timing;
use crate::stats::{median, percentile};

/// The target of the issue: summaries add less than the parse itself costs,
/// i.e. `(parse + summaries) / parse` under this ratio overall.
pub const TARGET_RATIO: f64 = 2.0;

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Markdown,
}

/// One measured notebook with its counts.
#[derive(Debug)]
pub struct Row {
    pub path: PathBuf,
    pub code_cells: usize,
    pub python_cells: usize,
    pub source_bytes: usize,
    pub timing: Timing,
}

/// Everything the report shows.
#[derive(Debug)]
pub struct Report {
    pub rows: Vec<Row>,
    pub skipped: Vec<String>,
    pub iterations: usize,
    pub warmup: usize,
    pub command: String,
    /// The what-if, classes, check and ruff sections.
    pub analysis: Analysis,
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

fn ratio(num: Duration, den: Duration) -> Option<f64> {
    (!den.is_zero()).then(|| num.as_secs_f64() / den.as_secs_f64())
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

impl Report {
    fn column(&self, f: impl Fn(&Timing) -> Duration) -> Vec<Duration> {
        self.rows.iter().map(|r| f(&r.timing)).collect()
    }

    /// Notebooks with Python cells whose summaries cost more than twice their parse.
    pub fn heavy_summaries(&self) -> Vec<&Row> {
        let mut heavy: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| r.python_cells > 0 && r.timing.summaries() > r.timing.parse * 2)
            .collect();
        heavy.sort_by_key(|r| std::cmp::Reverse(r.timing.summaries()));
        heavy
    }

    /// The whole report.
    pub fn render(&self, format: Format) -> String {
        let md = format == Format::Markdown;
        let bullet = if md { "- " } else { "" };
        let mut out = String::new();
        let load = self.column(|t| t.load);
        let parse = self.column(|t| t.parse);
        let summaries = self.column(Timing::summaries);
        let full = self.column(|t| t.full);
        let header = [
            "phase",
            "per-notebook median",
            "p99",
            "max",
            "total (corpus)",
        ];
        let rows: Vec<Vec<String>> = [
            ("load", &load),
            ("parse", &parse),
            ("summaries (full - load - parse)", &summaries),
            ("full (load+parse+summaries)", &full),
        ]
        .into_iter()
        .map(|(name, values)| {
            let mut row = vec![name.to_string()];
            row.extend(stat_cells(values));
            row
        })
        .collect();
        out.push_str(&table(format, &header, &rows));
        out.push('\n');

        let total = |v: &[Duration]| -> Duration { v.iter().sum() };
        let (t_parse, t_summ, t_full) = (total(&parse), total(&summaries), total(&full));
        let code_cells: usize = self.rows.iter().map(|r| r.code_cells).sum();
        let python_cells: usize = self.rows.iter().map(|r| r.python_cells).sum();
        let source_bytes: usize = self.rows.iter().map(|r| r.source_bytes).sum();
        let secs = t_full.as_secs_f64();
        let (cells_per_s, mb_per_s) = if secs > 0.0 {
            (
                format!("{:.0}", python_cells as f64 / secs),
                format!("{:.2}", source_bytes as f64 / 1e6 / secs),
            )
        } else {
            ("n/a".into(), "n/a".into())
        };
        let full_ratio = ratio(t_full, t_parse);
        let analysis_ratio = ratio(t_parse + t_summ, t_parse);
        let verdict = match analysis_ratio {
            Some(r) if r < TARGET_RATIO => "target met",
            Some(_) => "target missed",
            None => "target not measurable",
        };
        let lines = [
            format!(
                "times: median of {} iterations per notebook after {} warm-up runs; \
                 file I/O excluded (bytes read into memory first)",
                self.iterations, self.warmup
            ),
            format!("notebooks: {}", self.rows.len()),
            format!("code cells: {code_cells}"),
            format!("Python cells parsed: {python_cells}"),
            format!("total source bytes (Python cells): {source_bytes}"),
            format!("throughput (full): {cells_per_s} cells/s, {mb_per_s} MB of source/s"),
            format!(
                "(parse + summaries) / parse (totals): {} (target < {TARGET_RATIO:.1}: {verdict})",
                fmt_ratio(analysis_ratio)
            ),
            format!(
                "summaries / parse (totals): {}",
                fmt_ratio(ratio(t_summ, t_parse))
            ),
            format!(
                "full / parse (totals, JSON loading included): {}",
                fmt_ratio(full_ratio)
            ),
        ];
        for line in lines {
            let _ = writeln!(out, "{bullet}{line}");
        }
        for skipped in &self.skipped {
            let _ = writeln!(out, "{bullet}skipped: {skipped}");
        }

        let mut slowest: Vec<&Row> = self.rows.iter().collect();
        slowest.sort_by_key(|r| std::cmp::Reverse(r.timing.full));
        slowest.truncate(5);
        self.notebook_table(&mut out, format, "5 slowest notebooks by full", &slowest);

        let heavy = self.heavy_summaries();
        let title = format!("notebooks where summaries > 2x parse: {}", heavy.len());
        self.notebook_table(&mut out, format, &title, &heavy);

        self.analysis.render(&mut out, format);

        out.push('\n');
        if md {
            let _ = writeln!(out, "Reproduce:\n\n```sh\n{}\n```", self.command);
        } else {
            let _ = writeln!(out, "reproduce: {}", self.command);
        }
        out
    }

    fn notebook_table(&self, out: &mut String, format: Format, title: &str, rows: &[&Row]) {
        out.push('\n');
        let _ = writeln!(out, "{title}");
        if rows.is_empty() {
            return;
        }
        if format == Format::Markdown {
            out.push('\n');
        }
        let header = ["notebook", "cells", "full", "load", "parse", "summaries"];
        let cells: Vec<Vec<String>> = rows
            .iter()
            .map(|r| {
                let t = &r.timing;
                vec![
                    r.path.display().to_string(),
                    r.python_cells.to_string(),
                    fmt_duration(t.full),
                    fmt_duration(t.load),
                    fmt_duration(t.parse),
                    fmt_duration(t.summaries()),
                ]
            })
            .collect();
        out.push_str(&table(format, &header, &cells));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_have_three_significant_digits() {
        assert_eq!(fmt_duration(Duration::ZERO), "0 µs");
        assert_eq!(fmt_duration(Duration::from_nanos(1_234)), "1.23 µs");
        assert_eq!(fmt_duration(Duration::from_nanos(12_345)), "12.3 µs");
        assert_eq!(fmt_duration(Duration::from_nanos(123_456)), "123 µs");
        assert_eq!(fmt_duration(Duration::from_nanos(999_700)), "1.00 ms");
        assert_eq!(fmt_duration(Duration::from_micros(45_678)), "45.7 ms");
        assert_eq!(fmt_duration(Duration::from_millis(2_500)), "2.50 s");
    }

    #[test]
    fn text_table_aligns_columns() {
        let rows = vec![
            vec!["a".to_string(), "1 µs".to_string()],
            vec!["longer".to_string(), "10 ms".to_string()],
        ];
        let t = table(Format::Text, &["x", "y"], &rows);
        assert_eq!(t, "x           y\na        1 µs\nlonger  10 ms\n");
        let m = table(Format::Markdown, &["x", "y"], &rows);
        assert_eq!(
            m,
            "| x | y |\n|---|---:|\n| a | 1 µs |\n| longer | 10 ms |\n"
        );
    }
}
