use std::collections::BTreeSet;

use super::*;
use crate::truth::{CodeCellId, parse_truth};

fn flow(from: usize, to: usize, symbol: &str) -> Flow {
    let code = |id| CodeCellId::from_one_based(id).expect("ids count from 1");
    Flow::new(code(from), code(to), symbol)
}

/// [`transitive_dependencies`] of `flows`, as numbers.
fn dependencies(flows: &[Flow]) -> BTreeSet<(usize, usize)> {
    transitive_dependencies(flows.iter().map(|f| (f.from, f.to)))
        .into_iter()
        .map(|(a, b)| (a.get(), b.get()))
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn crabs_example() -> NotebookTruth {
    parse_truth(
        r#"[{"id": 1, "outputs": ["phone", "survey"]}, {"id": 2, "outputs": ["ec"]},
            {"id": 3, "inputs": ["phone", "ec"]}, {"id": 4, "inputs": ["survey"]}]"#,
    )
    .unwrap()
    .remove(0)
}

#[test]
fn dependencies_are_the_transitive_closure() {
    let flows = [
        flow(1, 2, "a"),
        flow(2, 3, "b"),
        flow(1, 3, "a"),
        flow(4, 5, "c"),
        flow(3, 5, "d"),
    ];
    assert_eq!(
        dependencies(&flows),
        BTreeSet::from([(1, 2), (1, 3), (1, 5), (2, 3), (2, 5), (3, 5), (4, 5)])
    );
}

#[test]
fn dependencies_have_no_self_pairs() {
    assert!(dependencies(&[flow(2, 2, "x")]).is_empty());
    // A cycle (impossible in the truth) still gives no (a, a) pair.
    assert_eq!(
        dependencies(&[flow(1, 2, "x"), flow(2, 1, "y")]),
        BTreeSet::from([(1, 2), (2, 1)])
    );
    assert!(dependencies(&[]).is_empty());
}

#[test]
fn scores_on_known_sets() {
    let truth = BTreeSet::from(["a", "b", "c", "d"]);
    let predicted = BTreeSet::from(["a", "b", "e"]);
    let counts = Counts::compare(&truth, &predicted);
    assert_eq!(
        counts,
        Counts {
            tp: 2,
            fp: 1,
            fn_: 2
        }
    );
    assert_eq!((counts.truth(), counts.predicted()), (4, 3));
    let s = counts.scores();
    assert!(close(s.precision, 2.0 / 3.0));
    assert!(close(s.recall, 0.5));
    assert!(close(s.f1, 4.0 / 7.0));
    assert!(close(s.accuracy, 2.0 / 5.0));
    assert!(!s.exact);

    let s = Counts::compare(&truth, &truth).scores();
    assert_eq!(
        (s.precision, s.recall, s.f1, s.accuracy),
        (1.0, 1.0, 1.0, 1.0)
    );
    assert!(s.exact);
}

#[test]
fn empty_set_conventions() {
    // Both empty: a perfect, exact prediction.
    let s = Scores::from_counts(Counts::default());
    assert_eq!(
        (s.precision, s.recall, s.f1, s.accuracy),
        (1.0, 1.0, 1.0, 1.0)
    );
    assert!(s.exact);
    // Nothing predicted, something true: the authors' precision 0.
    let s = Scores::from_counts(Counts {
        tp: 0,
        fp: 0,
        fn_: 3,
    });
    assert_eq!(
        (s.precision, s.recall, s.f1, s.accuracy),
        (0.0, 0.0, 0.0, 0.0)
    );
    assert!(!s.exact);
    // Nothing true, something predicted: nothing missed, all wrong.
    let s = Scores::from_counts(Counts {
        tp: 0,
        fp: 2,
        fn_: 0,
    });
    assert_eq!(
        (s.precision, s.recall, s.f1, s.accuracy),
        (0.0, 1.0, 0.0, 0.0)
    );
    assert!(!s.exact);
    // Disjoint non-empty sets: F1 0 without dividing by zero.
    let s = Scores::from_counts(Counts {
        tp: 0,
        fp: 1,
        fn_: 1,
    });
    assert_eq!(s.f1, 0.0);
}

#[test]
fn score_of_the_crabs_example() {
    let truth = crabs_example();
    // Misses the survey flow, invents one.
    let predicted = [
        flow(1, 3, "phone"),
        flow(2, 3, "ec"),
        flow(2, 4, "ec"),
        flow(2, 3, "ec"),
    ];
    let score = score_notebook("crabs", &predicted, &truth, 2);
    assert_eq!(score.name, "crabs");
    assert_eq!(
        score.flows.0,
        Counts {
            tp: 2,
            fp: 1,
            fn_: 1
        }
    );
    assert_eq!(score.missing_flows, [flow(1, 4, "survey")]);
    assert_eq!(score.extra_flows, [flow(2, 4, "ec")]);
    // Dependencies {(1,3),(2,3),(1,4)} vs {(1,3),(2,3),(2,4)}.
    assert_eq!(
        score.dependencies.0,
        Counts {
            tp: 2,
            fp: 1,
            fn_: 1
        }
    );
    assert_eq!(score.ambiguities_left, 2);

    // A wrong label is a wrong flow, but the same dependency.
    let relabelled = [flow(1, 3, "phone"), flow(2, 3, "ec"), flow(1, 4, "poll")];
    let score = score_notebook("crabs", &relabelled, &truth, 0);
    assert!(!score.flows.1.exact);
    assert!(score.dependencies.1.exact);
}

#[test]
fn macro_and_micro_averages_differ() {
    let small = parse_truth(r#"[{"id": 1, "outputs": ["a"]}, {"id": 2, "inputs": ["a"]}]"#)
        .unwrap()
        .remove(0);
    let large = parse_truth(
        r#"[{"id": 1, "outputs": ["a", "b", "c"]}, {"id": 2, "inputs": ["a", "b", "c"]}]"#,
    )
    .unwrap()
    .remove(0);
    let scores = [
        score_notebook("small", &[flow(1, 2, "a")], &small, 0),
        score_notebook("large", &[flow(1, 2, "a"), flow(1, 2, "z")], &large, 3),
    ];
    let all = aggregate(&scores);
    assert_eq!(all.notebooks, 2);
    // Macro: mean of (1, 1/3) recall and (1, 1/2) precision.
    assert!(close(all.macro_flows.recall, (1.0 + 1.0 / 3.0) / 2.0));
    assert!(close(all.macro_flows.precision, 0.75));
    // Micro: 2 of 4 true flows found, 2 of 3 predictions right.
    assert_eq!(
        all.flow_counts,
        Counts {
            tp: 2,
            fp: 1,
            fn_: 2
        }
    );
    assert!(close(all.micro_flows.recall, 0.5));
    assert!(close(all.micro_flows.precision, 2.0 / 3.0));
    assert!(all.macro_flows.recall > all.micro_flows.recall);
    assert_eq!(all.macro_flows.exact_matches, 1);
    assert!(close(all.macro_flows.exact_share, 0.5));
    assert_eq!(all.micro_flows.exact_share, all.macro_flows.exact_share);
    // One dependency per notebook, both found.
    assert_eq!(all.macro_dependencies.exact_matches, 2);
    assert!(close(all.micro_dependencies.f1, 1.0));
    assert_eq!(all.total_ambiguities_left, 3);
    assert!(close(all.mean_ambiguities_left, 1.5));
}

#[test]
fn aggregate_of_nothing_is_zero() {
    let all = aggregate(&[]);
    assert_eq!(all, Aggregate::default());
    assert_eq!(all.macro_flows.f1, 0.0);
    assert_eq!(all.micro_dependencies.precision, 0.0);
}

#[test]
fn json_shape() {
    let truth = crabs_example();
    let score = score_notebook("crabs", &truth.flows(), &truth, 0);
    let json = serde_json::to_value(&score).unwrap();
    assert_eq!(json["name"], "crabs");
    assert_eq!(json["flows"]["tp"], 3);
    assert_eq!(json["flows"]["fn"], 0);
    assert_eq!(json["flows"]["f1"], 1.0);
    assert_eq!(json["flows"]["exact"], true);
    assert_eq!(json["dependencies"]["tp"], 3);
    assert_eq!(json["missing_flows"], serde_json::json!([]));
    let all = serde_json::to_value(aggregate(&[score])).unwrap();
    assert_eq!(all["macro_flows"]["exact_matches"], 1);
    assert_eq!(all["flow_counts"]["fn"], 0);
}

#[test]
fn table_lists_notebooks_and_averages() {
    let truth = crabs_example();
    let scores = [
        score_notebook("crabs_example", &truth.flows(), &truth, 1),
        score_notebook("crabs_partial", &truth.flows()[..1], &truth, 0),
    ];
    let table = render_table(&scores, &aggregate(&scores));
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 5, "{table}");
    assert!(lines[0].starts_with("notebook"));
    assert!(lines[1].starts_with("crabs_example") && lines[1].contains("yes"));
    assert!(lines[2].starts_with("crabs_partial") && lines[2].contains(" no"));
    assert!(lines[3].starts_with("macro") && lines[3].contains("1/2"));
    assert!(lines[4].starts_with("micro") && lines[4].trim_end().ends_with('1'));
}
