//! The notebook-level sections of the report (issue 8): the what-if workload,
//! NBLyzer's cell classes, `check` with the default rules, static slicing
//! (issue 9) and `check` next to `ruff check --select F`.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use nbsight_whatif::MAX_VISITS;

use crate::check::RuleCounts;
use crate::classes::ClassCounts;
use crate::flow::FLOW_TARGET;
use crate::ruff::{self, Outcome};
use crate::slice::{NBGATHER_MEAN_RATIO, NBSLICER_MEAN_RATIO, RatioSums};
use crate::stats::{median, percentile};
use crate::table::{Format, fmt_duration, fmt_ratio, stat_cells, table};
use crate::whatif::{EVENT_TARGET, LONG_RUN, WhatIfTiming};

/// Target of the issue: the what-if workload's per-notebook median.
pub const WHATIF_MEDIAN_TARGET: Duration = Duration::from_millis(1);
/// Target of the issue: no notebook's what-if workload over this.
pub const WHATIF_MAX_TARGET: Duration = Duration::from_millis(100);

/// One notebook's what-if and check times.
#[derive(Debug, Clone)]
pub struct AnalysisRow {
    pub path: PathBuf,
    /// Code cells of the notebook (parsed or not).
    pub code_cells: usize,
    pub whatif: WhatIfTiming,
    /// `check_notebook` with the default rules.
    pub check: Duration,
    /// `Slicer::new` and the backward slice of every code cell that parsed.
    pub slice: Duration,
    /// `NotebookModel::new` and `analyze_flows`.
    pub flow: Duration,
}

/// Everything the notebook-level sections show.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub rows: Vec<AnalysisRow>,
    pub classes: ClassCounts,
    pub rules: RuleCounts,
    /// Slice-size ratios over every code cell sliced.
    pub ratios: RatioSums,
    pub ruff: Outcome,
    /// Notebooks left out of these sections (the session could not be built).
    pub skipped: Vec<String>,
    pub iterations: usize,
    pub warmup: usize,
    /// Per-run limit of the what-if workload (`--whatif-budget`).
    pub budget: Duration,
}

fn percent(p: Option<f64>) -> String {
    p.map_or_else(|| "n/a".into(), |p| format!("{p:.1} %"))
}

/// `>= ` before a time that is a lower bound.
fn bound(timing: &WhatIfTiming) -> &'static str {
    if timing.incomplete() { ">= " } else { "" }
}

fn verdict(met: bool) -> &'static str {
    if met { "target met" } else { "target missed" }
}

/// Events per second over a total time.
pub fn per_second(count: usize, total: Duration) -> Option<f64> {
    let secs = total.as_secs_f64();
    (secs > 0.0).then(|| count as f64 / secs)
}

impl Analysis {
    fn column(&self, f: impl Fn(&AnalysisRow) -> Duration) -> Vec<Duration> {
        self.rows.iter().map(f).collect()
    }

    /// Appends the sections to `out`.
    pub fn render(&self, out: &mut String, format: Format) {
        let md = format == Format::Markdown;
        let bullet = if md { "- " } else { "" };
        let header = [
            "phase",
            "per-notebook median",
            "p99",
            "max",
            "total (corpus)",
        ];
        let title = |out: &mut String, text: &str| {
            out.push('\n');
            let _ = writeln!(out, "{text}");
            if md {
                out.push('\n');
            }
        };
        let lines = |out: &mut String, lines: &[String]| {
            out.push('\n');
            for line in lines {
                let _ = writeln!(out, "{bullet}{line}");
            }
        };
        let stat_row = |name: &str, values: &[Duration]| {
            let mut row = vec![name.to_string()];
            row.extend(stat_cells(values));
            row
        };

        // What-if.
        title(
            out,
            "what-if: session on the saved history, then execute and edit of every code cell (K unbounded)",
        );
        let session = self.column(|r| r.whatif.session);
        let queries = self.column(|r| r.whatif.queries);
        let total = self.column(|r| r.whatif.total);
        let rows = vec![
            stat_row("(a) WhatIfSession::new", &session),
            stat_row("(b) queries (2 per code cell)", &queries),
            stat_row("what-if (a)+(b)", &total),
        ];
        out.push_str(&table(format, &header, &rows));
        let events: usize = self.rows.iter().map(|r| r.whatif.events).sum();
        let answered: usize = self.rows.iter().map(|r| r.whatif.answered).sum();
        let visits: usize = self.rows.iter().map(|r| r.whatif.visits).sum();
        let errors: usize = self.rows.iter().map(|r| r.whatif.errors).sum();
        let truncated: usize = self.rows.iter().map(|r| r.whatif.truncated).sum();
        let truncated_notebooks = self.rows.iter().filter(|r| r.whatif.truncated > 0).count();
        let long = self.rows.iter().filter(|r| r.whatif.first_run_only).count();
        let incomplete: Vec<&AnalysisRow> =
            self.rows.iter().filter(|r| r.whatif.incomplete()).collect();
        let t_total: Duration = total.iter().sum();
        let med = median(&total);
        let slowest = self.rows.iter().max_by_key(|r| r.whatif.total);
        let over = total.iter().filter(|&&t| t > WHATIF_MAX_TARGET).count();
        let mut text = vec![
            format!(
                "times: median of {} iterations per notebook after {} warm-up runs; \
                 a notebook whose first run takes over {} is measured by that run alone ({long} notebooks); \
                 the notebooks are loaded beforehand (untimed)",
                self.iterations,
                self.warmup,
                fmt_duration(LONG_RUN)
            ),
            format!("notebooks: {}", self.rows.len()),
            format!(
                "events: {events} (execute + edit of each code cell that parsed); \
                 answered: {answered}; cell executions explored: {visits}"
            ),
            format!(
                "queries stopped at the engine's visit budget ({MAX_VISITS} cell executions, \
                 `truncated`): {truncated} of {answered}, in {truncated_notebooks} notebooks"
            ),
            format!(
                "throughput: {} events/s (answered events / total of (a)+(b))",
                per_second(answered, t_total).map_or_else(|| "n/a".into(), |v| format!("{v:.0}"))
            ),
        ];
        let slowest_events = self.column(|r| r.whatif.slowest_event);
        let over_target: usize = self.rows.iter().map(|r| r.whatif.events_over_target).sum();
        if let (Some(p99), Some(max)) = (
            percentile(&slowest_events, 99.0),
            slowest_events.iter().max(),
        ) {
            text.push(format!(
                "slowest query per notebook: p99 {}, max {}; queries over {}: {over_target} of {answered}",
                fmt_duration(p99),
                fmt_duration(*max),
                fmt_duration(EVENT_TARGET),
            ));
        }
        let event_p99 = self.column(|r| r.whatif.event_p99);
        if let Some(worst) = event_p99.iter().max() {
            // A run stopped at the budget did not answer every query: its
            // p99 says nothing of the queries it left.
            text.push(format!(
                "p99 of the queries' times in a notebook: at most {} (the worst notebook{}; target: at most {} on every notebook: {})",
                fmt_duration(*worst),
                if incomplete.is_empty() {
                    ""
                } else {
                    ", of the queries answered before the budget"
                },
                fmt_duration(EVENT_TARGET),
                verdict(*worst <= EVENT_TARGET && incomplete.is_empty()),
            ));
        }
        if !incomplete.is_empty() {
            text.push(format!(
                "runs stopped at the budget of {} (--whatif-budget): {} notebooks; \
                 their times, and so the total, p99 and max, are lower bounds",
                fmt_duration(self.budget),
                incomplete.len()
            ));
        }
        if let Some(row) = slowest {
            text.push(format!(
                "slowest: {} ({} code cells, {} events, {} cell executions explored): {}{}",
                row.path.display(),
                row.code_cells,
                row.whatif.events,
                row.whatif.visits,
                bound(&row.whatif),
                fmt_duration(row.whatif.total)
            ));
        }
        if let Some(med) = med {
            text.push(format!(
                "median {} (target < {}: {})",
                fmt_duration(med),
                fmt_duration(WHATIF_MEDIAN_TARGET),
                verdict(med < WHATIF_MEDIAN_TARGET)
            ));
        }
        text.push(format!(
            "notebooks over {}: {over} (target 0: {})",
            fmt_duration(WHATIF_MAX_TARGET),
            verdict(over == 0)
        ));
        if errors > 0 {
            text.push(format!("queries refused by the engine: {errors}"));
        }
        for skipped in &self.skipped {
            text.push(format!("skipped: {skipped}"));
        }
        lines(out, &text);

        let mut by_whatif: Vec<&AnalysisRow> = self.rows.iter().collect();
        by_whatif.sort_by_key(|r| std::cmp::Reverse(r.whatif.total));
        by_whatif.truncate(5);
        title(
            out,
            "5 slowest notebooks by what-if (>= : stopped at the budget)",
        );
        let cells: Vec<Vec<String>> = by_whatif
            .iter()
            .map(|r| {
                let w = &r.whatif;
                vec![
                    r.path.display().to_string(),
                    r.code_cells.to_string(),
                    if w.incomplete() {
                        format!("{}/{}", w.answered, w.events)
                    } else {
                        w.events.to_string()
                    },
                    w.visits.to_string(),
                    w.truncated.to_string(),
                    format!("{}{}", bound(w), fmt_duration(w.total)),
                    fmt_duration(w.session),
                    fmt_duration(w.queries),
                    fmt_duration(r.check),
                ]
            })
            .collect();
        out.push_str(&table(
            format,
            &[
                "notebook",
                "code cells",
                "events",
                "explored",
                "truncated",
                "what-if",
                "(a) session",
                "(b) queries",
                "check",
            ],
            &cells,
        ));

        // Cell classes.
        let c = &self.classes;
        title(
            out,
            &format!(
                "cell classes (classify_cells) over the {} code cells that parsed in {} notebooks; the classes overlap",
                c.cells, c.notebooks
            ),
        );
        let rows: Vec<Vec<String>> = c
            .shares()
            .into_iter()
            .map(|(name, count, share, theirs)| {
                vec![
                    name.to_string(),
                    count.to_string(),
                    percent(share),
                    format!("{theirs:.0} %"),
                ]
            })
            .collect();
        out.push_str(&table(
            format,
            &["class", "cells", "share", "NBLyzer"],
            &rows,
        ));

        // Check.
        title(out, "check (check_notebook, default rules)");
        let check = self.column(|r| r.check);
        out.push_str(&table(format, &header, &[stat_row("check", &check)]));
        let t_check: Duration = check.iter().sum();
        lines(
            out,
            &[
                format!(
                    "times: median of {} iterations per notebook after {} warm-up runs, \
                     one thread, notebooks loaded beforehand",
                    self.iterations, self.warmup
                ),
                format!(
                    "findings: {} in {} notebooks ({} notebooks/s)",
                    self.rules.total(),
                    self.rows.len(),
                    per_second(self.rows.len(), t_check)
                        .map_or_else(|| "n/a".into(), |v| format!("{v:.0}"))
                ),
            ],
        );
        title(out, "findings per rule");
        let rows: Vec<Vec<String>> = self
            .rules
            .rows()
            .into_iter()
            .map(|(name, count)| {
                vec![
                    name.to_string(),
                    count.code.to_string(),
                    count.findings.to_string(),
                    count.notebooks.to_string(),
                ]
            })
            .collect();
        out.push_str(&table(
            format,
            &["rule", "code", "findings", "notebooks"],
            &rows,
        ));

        // Slicing.
        title(
            out,
            "slice: Slicer::new, then the backward slice (by statements) of every code cell that parsed",
        );
        let slice = self.column(|r| r.slice);
        out.push_str(&table(format, &header, &[stat_row("slice", &slice)]));
        let mut text = vec![format!(
            "times: median of {} iterations per notebook after {} warm-up runs, \
             one thread, notebooks loaded beforehand",
            self.iterations, self.warmup
        )];
        match self.ratios.means() {
            Some((by_statements, by_cells)) => text.push(format!(
                "mean slice-size ratio (statements in the slice / statements in the notebook) \
                 over {} target cells: {by_statements:.3} by statements, {by_cells:.3} by cells \
                 (NBSlicer's sessions, last statement sliced: {NBSLICER_MEAN_RATIO}, \
                 nbgather {NBGATHER_MEAN_RATIO})",
                self.ratios.targets
            )),
            None => text.push("no cell sliced".to_string()),
        }
        lines(out, &text);

        // Flows.
        title(
            out,
            "flow: NotebookModel::new, then analyze_flows (inputs, outputs, flows, dependencies)",
        );
        let flow = self.column(|r| r.flow);
        out.push_str(&table(format, &header, &[stat_row("flow", &flow)]));
        let over = self.rows.iter().filter(|r| r.flow >= FLOW_TARGET).count();
        let mut text = vec![format!(
            "notebooks at or over {}: {over} of {} (target: none)",
            fmt_duration(FLOW_TARGET),
            self.rows.len()
        )];
        if let Some(slowest) = self.rows.iter().max_by_key(|r| r.flow) {
            text.push(format!(
                "slowest: {} ({} code cells, {})",
                slowest.path.display(),
                slowest.code_cells,
                fmt_duration(slowest.flow)
            ));
        }
        lines(out, &text);

        // Ruff.
        self.render_ruff(out, format);
    }

    fn render_ruff(&self, out: &mut String, format: Format) {
        let md = format == Format::Markdown;
        let bullet = if md { "- " } else { "" };
        out.push('\n');
        let _ = writeln!(out, "check vs ruff (whole processes, wall clock)");
        let comparison = match &self.ruff {
            Outcome::NotRequested => {
                if md {
                    out.push('\n');
                }
                let _ = writeln!(
                    out,
                    "{bullet}not run: pass --compare-ruff (and --ruff PATH if ruff is not on PATH)"
                );
                return;
            }
            Outcome::Unavailable(reasons) => {
                if md {
                    out.push('\n');
                }
                for reason in reasons {
                    let _ = writeln!(out, "{bullet}not run: {reason}");
                }
                return;
            }
            Outcome::Done(comparison) => comparison,
        };
        if md {
            out.push('\n');
        }
        let found = |n: Option<usize>| n.map_or_else(|| "n/a".into(), |n| n.to_string());
        let stats = |times: &[Duration]| ruff::min_median(times).unwrap_or_default();
        let (n_min, n_med) = stats(&comparison.nbsight);
        let (r_min, r_med) = stats(&comparison.ruff);
        let rows = vec![
            vec![
                "nbsight check (default rules)".to_string(),
                comparison.nbsight.len().to_string(),
                fmt_duration(n_min),
                fmt_duration(n_med),
                found(comparison.nbsight_findings),
            ],
            vec![
                format!("ruff check --select F ({})", comparison.ruff_version),
                comparison.ruff.len().to_string(),
                fmt_duration(r_min),
                fmt_duration(r_med),
                found(comparison.ruff_findings),
            ],
        ];
        out.push_str(&table(
            format,
            &["tool", "runs", "min", "median", "findings"],
            &rows,
        ));
        let med_ratio = ruff::ratio(n_med, r_med);
        let lines = [
            format!(
                "nbsight / ruff: {} (min), {} (median); ruff / nbsight at the median: {} \
                 (issue 33's target: at least 3x, nbsight / ruff <= 0.33: {})",
                fmt_ratio(ruff::ratio(n_min, r_min)),
                fmt_ratio(med_ratio),
                fmt_ratio(ruff::ratio(r_med, n_med)),
                match med_ratio {
                    Some(r) => verdict(r <= 1.0 / 3.0),
                    None => "target not measurable",
                }
            ),
            format!(
                "same {} .ipynb files; runs alternate, after one untimed run of each; \
                 both use all cores",
                comparison.files
            ),
            format!("nbsight: `{}`", comparison.nbsight_command),
            format!("ruff: `{}`", comparison.ruff_command),
        ];
        out.push('\n');
        for line in lines {
            let _ = writeln!(out, "{bullet}{line}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_second_needs_time() {
        assert_eq!(per_second(10, Duration::from_millis(500)), Some(20.0));
        assert_eq!(per_second(10, Duration::ZERO), None);
    }

    #[test]
    fn renders_every_section_without_ruff() {
        let timing = WhatIfTiming {
            session: Duration::from_micros(100),
            queries: Duration::from_micros(300),
            total: Duration::from_micros(400),
            events: 4,
            answered: 4,
            visits: 9,
            errors: 0,
            truncated: 0,
            samples: 3,
            first_run_only: false,
            slowest_event: Duration::from_micros(200),
            events_over_target: 0,
            event_p99: Duration::from_micros(150),
        };
        let analysis = Analysis {
            rows: vec![AnalysisRow {
                path: "a.ipynb".into(),
                code_cells: 2,
                whatif: timing,
                check: Duration::from_micros(50),
                slice: Duration::from_micros(20),
                flow: Duration::from_micros(30),
            }],
            classes: ClassCounts::default(),
            rules: RuleCounts::default(),
            ratios: RatioSums {
                targets: 4,
                by_statements: 1.0,
                by_cells: 2.0,
            },
            ruff: Outcome::Unavailable(vec![format!(
                "ruff not found on PATH; {}",
                ruff::INSTALL_HINT
            )]),
            skipped: Vec::new(),
            iterations: 3,
            warmup: 2,
            budget: Duration::from_secs(60),
        };
        let mut out = String::new();
        analysis.render(&mut out, Format::Markdown);
        assert!(
            out.contains("| what-if (a)+(b) | 400 µs | 400 µs | 400 µs | 400 µs |"),
            "{out}"
        );
        assert!(out.contains("- throughput: 10000 events/s"), "{out}");
        assert!(
            out.contains("- slowest: a.ipynb (2 code cells, 4 events"),
            "{out}"
        );
        assert!(
            out.contains("median 400 µs (target < 1.00 ms: target met)"),
            "{out}"
        );
        assert!(out.contains("| isolated | 0 | n/a | 14 % |"), "{out}");
        assert!(out.contains("| check | 50.0 µs |"), "{out}");
        assert!(out.contains("| slice | 20.0 µs |"), "{out}");
        assert!(out.contains("| flow | 30.0 µs |"), "{out}");
        assert!(
            out.contains("notebooks at or over 5.00 ms: 0 of 1 (target: none)"),
            "{out}"
        );
        assert!(
            out.contains("over 4 target cells: 0.250 by statements, 0.500 by cells"),
            "{out}"
        );
        assert!(out.contains("pip install ruff"), "{out}");
        let mut text = String::new();
        analysis.render(&mut text, Format::Text);
        assert!(
            text.contains("\nnotebooks over 100 ms: 0 (target 0: target met)\n"),
            "{text}"
        );
        assert!(!text.contains("lower bounds"), "{text}");
        assert!(text.contains("by that run alone (0 notebooks)"), "{text}");

        // A notebook stopped at the budget: its time is a lower bound.
        let mut analysis = analysis;
        let w = &mut analysis.rows[0].whatif;
        (w.answered, w.truncated, w.samples, w.first_run_only) = (1, 1, 1, true);
        let mut text = String::new();
        analysis.render(&mut text, Format::Text);
        assert!(
            text.contains("stopped at the budget of 60.0 s (--whatif-budget): 1 notebooks"),
            "{text}"
        );
        assert!(text.contains("explored): >= 400 µs"), "{text}");
        assert!(text.contains("by that run alone (1 notebooks)"), "{text}");
        assert!(
            text.contains("`truncated`): 1 of 1, in 1 notebooks"),
            "{text}"
        );
    }
}
