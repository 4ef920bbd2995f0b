//! Rendering the benchmark results as aligned text or as GitHub markdown.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use crate::analysis::Analysis;
use crate::measure::Timing;
use crate::table::{Format, fmt_duration, fmt_ratio, stat_cells, table};

/// The target of the issue: summaries add less than the parse itself costs,
/// i.e. `(parse + summaries) / parse` under this ratio overall.
pub const TARGET_RATIO: f64 = 2.0;

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

fn ratio(num: Duration, den: Duration) -> Option<f64> {
    (!den.is_zero()).then(|| num.as_secs_f64() / den.as_secs_f64())
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
