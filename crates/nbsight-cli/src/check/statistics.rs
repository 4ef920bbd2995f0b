//! `--statistics`: how many findings each rule has, most first, as ruff
//! prints them (`count`, code, name).

use std::collections::BTreeMap;
use std::fmt::Write;

use super::report::Report;

/// One line per rule with findings.
pub fn render(report: &Report) -> String {
    let mut counts: BTreeMap<(&'static str, &'static str), usize> = BTreeMap::new();
    for located in &report.findings {
        let f = &located.finding;
        *counts.entry((f.code(), f.name())).or_default() += 1;
    }
    let mut rows: Vec<_> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let width = rows.first().map_or(1, |(_, n)| n.to_string().len());
    let mut out = String::new();
    for ((code, name), count) in rows {
        let _ = writeln!(out, "{count:>width$}\t{code}\t{name}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::report::tests::{finding, located};
    use super::super::report::{Checked, Report};
    use super::*;

    #[test]
    fn counts_by_rule() {
        let mut report = Report::default();
        report.add(Checked {
            findings: vec![
                located(finding("a.ipynb", 0, 1, 1, "NBS201"), ""),
                located(finding("a.ipynb", 1, 1, 1, "NBS001"), ""),
                located(finding("a.ipynb", 2, 1, 1, "NBS001"), ""),
            ],
            ..Checked::default()
        });
        assert_eq!(
            render(&report),
            "2\tNBS001\tundefined-on-run-all\n1\tNBS201\tisolated-cell\n"
        );
    }
}
