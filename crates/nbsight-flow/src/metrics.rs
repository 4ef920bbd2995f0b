//! Scoring a predicted information flow graph against the truth the way the
//! CRABS authors score theirs, so that our figures compare with the paper's:
//! `compute_set_metrics` in `1_model_and_eval.py` (per notebook, on the set of
//! flows and on the set of transitive dependencies) and
//! `3_metrics_across_notebooks.py` (the mean of the per-notebook figures, and
//! the share of notebooks whose graph matches exactly).
//!
//! Per notebook, with `tp`, `fp`, `fn` counted on sets:
//! - precision `tp / (tp + fp)`, 0 when nothing is predicted;
//! - recall `tp / (tp + fn)`; F1 their harmonic mean, 0 when both are 0;
//! - accuracy, the Jaccard index `tp / (tp + fp + fn)` (the authors' "Acc.");
//! - exact: the predicted set equals the truth (the authors count F1 = 1).
//!
//! Empty truth: the authors return no figure at all and pandas' mean skips the
//! notebook (while their exact-match count counts it as a miss). We give
//! figures instead: both sets empty scores 1 everywhere and is an exact match;
//! an empty truth with predictions has precision 0, recall 1 (nothing was
//! missed), F1 0, accuracy 0. None of the 50 annotated notebooks has an empty
//! truth, so the conventions agree on their data.
//!
//! Over many notebooks, *macro* figures are the mean of the per-notebook
//! figures (the paper's averages) and *micro* figures are computed once from
//! the summed counts; the exact-match share is the same for both.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::ops::{Add, AddAssign};

use serde::{Serialize, Serializer};

pub use super::dependencies::transitive_dependencies;
use super::truth::{Flow, NotebookTruth};

/// True positives, false positives and false negatives of a prediction.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub tp: usize,
    pub fp: usize,
    #[serde(rename = "fn")]
    pub fn_: usize,
}

impl Counts {
    /// Counts `predicted` against `truth`.
    pub fn compare<T: Ord>(truth: &BTreeSet<T>, predicted: &BTreeSet<T>) -> Counts {
        let tp = truth.intersection(predicted).count();
        Counts {
            tp,
            fp: predicted.len() - tp,
            fn_: truth.len() - tp,
        }
    }

    /// The size of the truth set.
    pub fn truth(&self) -> usize {
        self.tp + self.fn_
    }

    /// The size of the predicted set.
    pub fn predicted(&self) -> usize {
        self.tp + self.fp
    }

    /// Precision, recall, F1, accuracy and exact match under the module's
    /// conventions.
    pub fn scores(&self) -> Scores {
        Scores::from_counts(*self)
    }
}

impl Add for Counts {
    type Output = Counts;

    fn add(self, other: Counts) -> Counts {
        Counts {
            tp: self.tp + other.tp,
            fp: self.fp + other.fp,
            fn_: self.fn_ + other.fn_,
        }
    }
}

impl AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        *self = *self + other;
    }
}

/// The figures of one prediction.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Scores {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    /// Jaccard index `tp / |truth ∪ predicted|`.
    pub accuracy: f64,
    /// The predicted set equals the truth.
    pub exact: bool,
}

impl Scores {
    /// The figures of `counts` (module documentation for the empty cases).
    pub fn from_counts(counts: Counts) -> Scores {
        let Counts { tp, fp, fn_ } = counts;
        if tp + fp + fn_ == 0 {
            return Scores {
                precision: 1.0,
                recall: 1.0,
                f1: 1.0,
                accuracy: 1.0,
                exact: true,
            };
        }
        let precision = ratio(tp, tp + fp, 0.0);
        let recall = ratio(tp, tp + fn_, 1.0);
        let f1 = if precision + recall > 0.0 {
            2.0 * precision * recall / (precision + recall)
        } else {
            0.0
        };
        Scores {
            precision,
            recall,
            f1,
            accuracy: ratio(tp, tp + fp + fn_, 0.0),
            exact: fp == 0 && fn_ == 0,
        }
    }
}

fn ratio(part: usize, whole: usize, if_empty: f64) -> f64 {
    if whole == 0 {
        if_empty
    } else {
        part as f64 / whole as f64
    }
}

/// One notebook's score. In JSON each of `flows` and `dependencies` is one
/// object: `{"tp", "fp", "fn", "precision", "recall", "f1", "accuracy",
/// "exact"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NotebookScore {
    pub name: String,
    #[serde(serialize_with = "flat")]
    pub flows: (Counts, Scores),
    #[serde(serialize_with = "flat")]
    pub dependencies: (Counts, Scores),
    /// Ambiguities the analysis could not resolve in this notebook.
    pub ambiguities_left: usize,
    /// Flows of the truth the prediction misses (false negatives), sorted.
    pub missing_flows: Vec<Flow>,
    /// Predicted flows the truth does not have (false positives), sorted.
    pub extra_flows: Vec<Flow>,
}

#[derive(Serialize)]
struct Flat<'a> {
    #[serde(flatten)]
    counts: &'a Counts,
    #[serde(flatten)]
    scores: &'a Scores,
}

fn flat<S: Serializer>(pair: &(Counts, Scores), serializer: S) -> Result<S::Ok, S::Error> {
    Flat {
        counts: &pair.0,
        scores: &pair.1,
    }
    .serialize(serializer)
}

/// Scores the flows predicted for a notebook against its truth: the flow
/// sets (duplicates ignored) and their transitive dependencies.
pub fn score_notebook(
    name: &str,
    predicted: &[Flow],
    truth: &NotebookTruth,
    ambiguities_left: usize,
) -> NotebookScore {
    let truth_flows: BTreeSet<Flow> = truth.flows().into_iter().collect();
    let predicted_flows: BTreeSet<Flow> = predicted.iter().cloned().collect();
    let flow_counts = Counts::compare(&truth_flows, &predicted_flows);
    let dependency_counts = Counts::compare(
        &truth.dependencies(),
        &transitive_dependencies(predicted.iter().map(|f| (f.from, f.to))),
    );
    NotebookScore {
        name: name.to_owned(),
        flows: (flow_counts, flow_counts.scores()),
        dependencies: (dependency_counts, dependency_counts.scores()),
        ambiguities_left,
        missing_flows: truth_flows.difference(&predicted_flows).cloned().collect(),
        extra_flows: predicted_flows.difference(&truth_flows).cloned().collect(),
    }
}

/// Figures over many notebooks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Averages {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub accuracy: f64,
    /// Notebooks whose graph matches the truth exactly.
    pub exact_matches: usize,
    /// `exact_matches` over the number of notebooks.
    pub exact_share: f64,
}

/// Macro (mean of per-notebook figures, as the paper) and micro (from summed
/// counts) figures over notebooks. With no notebooks every figure is 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Aggregate {
    pub notebooks: usize,
    pub macro_flows: Averages,
    pub micro_flows: Averages,
    pub macro_dependencies: Averages,
    pub micro_dependencies: Averages,
    /// Summed flow counts (what the micro figures are computed from).
    pub flow_counts: Counts,
    /// Summed dependency counts.
    pub dependency_counts: Counts,
    pub mean_ambiguities_left: f64,
    pub total_ambiguities_left: usize,
}

/// Aggregates per-notebook scores.
pub fn aggregate(scores: &[NotebookScore]) -> Aggregate {
    if scores.is_empty() {
        return Aggregate::default();
    }
    let n = scores.len();
    let flow_counts = scores
        .iter()
        .fold(Counts::default(), |sum, s| sum + s.flows.0);
    let dependency_counts = scores
        .iter()
        .fold(Counts::default(), |sum, s| sum + s.dependencies.0);
    let total_ambiguities_left = scores.iter().map(|s| s.ambiguities_left).sum();
    let flows: Vec<Scores> = scores.iter().map(|s| s.flows.1).collect();
    let dependencies: Vec<Scores> = scores.iter().map(|s| s.dependencies.1).collect();
    Aggregate {
        notebooks: n,
        macro_flows: macro_average(&flows),
        micro_flows: micro_average(flow_counts, &flows),
        macro_dependencies: macro_average(&dependencies),
        micro_dependencies: micro_average(dependency_counts, &dependencies),
        flow_counts,
        dependency_counts,
        mean_ambiguities_left: total_ambiguities_left as f64 / n as f64,
        total_ambiguities_left,
    }
}

fn exact_matches(scores: &[Scores]) -> (usize, f64) {
    let matches = scores.iter().filter(|s| s.exact).count();
    (matches, ratio(matches, scores.len(), 0.0))
}

fn macro_average(scores: &[Scores]) -> Averages {
    let mean =
        |figure: fn(&Scores) -> f64| scores.iter().map(figure).sum::<f64>() / scores.len() as f64;
    let (exact_matches, exact_share) = exact_matches(scores);
    Averages {
        precision: mean(|s| s.precision),
        recall: mean(|s| s.recall),
        f1: mean(|s| s.f1),
        accuracy: mean(|s| s.accuracy),
        exact_matches,
        exact_share,
    }
}

fn micro_average(counts: Counts, scores: &[Scores]) -> Averages {
    let summed = counts.scores();
    let (exact_matches, exact_share) = exact_matches(scores);
    Averages {
        precision: summed.precision,
        recall: summed.recall,
        f1: summed.f1,
        accuracy: summed.accuracy,
        exact_matches,
        exact_share,
    }
}

/// A text table: one row per notebook (flow and dependency precision,
/// recall, F1, exact match; ambiguities left), then the macro row (mean
/// ambiguities) and the micro row (total ambiguities); exact matches are
/// counted over the notebooks in both.
pub fn render_table(scores: &[NotebookScore], aggregate: &Aggregate) -> String {
    let width = scores
        .iter()
        .map(|s| s.name.chars().count())
        .chain(["notebook".len()])
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<width$}  {:>6} {:>6} {:>6} {:>6}  {:>6} {:>6} {:>6} {:>6}  {:>5}",
        "notebook", "flow P", "R", "F1", "exact", "dep P", "R", "F1", "exact", "ambig"
    );
    for s in scores {
        let _ = writeln!(
            out,
            "{:<width$}  {}  {}  {:>5}",
            s.name,
            figures(&s.flows.1, if s.flows.1.exact { "yes" } else { "no" }),
            figures(
                &s.dependencies.1,
                if s.dependencies.1.exact { "yes" } else { "no" }
            ),
            s.ambiguities_left,
        );
    }
    let n = aggregate.notebooks;
    for (label, flows, dependencies, ambiguities) in [
        (
            "macro",
            &aggregate.macro_flows,
            &aggregate.macro_dependencies,
            format!("{:.1}", aggregate.mean_ambiguities_left),
        ),
        (
            "micro",
            &aggregate.micro_flows,
            &aggregate.micro_dependencies,
            aggregate.total_ambiguities_left.to_string(),
        ),
    ] {
        let _ = writeln!(
            out,
            "{label:<width$}  {}  {}  {ambiguities:>5}",
            average_figures(flows, n),
            average_figures(dependencies, n),
        );
    }
    out
}

fn figures(scores: &Scores, exact: &str) -> String {
    format!(
        "{:>6.3} {:>6.3} {:>6.3} {:>6}",
        scores.precision, scores.recall, scores.f1, exact
    )
}

fn average_figures(averages: &Averages, notebooks: usize) -> String {
    format!(
        "{:>6.3} {:>6.3} {:>6.3} {:>6}",
        averages.precision,
        averages.recall,
        averages.f1,
        format!("{}/{notebooks}", averages.exact_matches)
    )
}

#[cfg(test)]
#[path = "metrics_tests.rs"]
mod tests;
