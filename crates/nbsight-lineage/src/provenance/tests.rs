//! The replay on logs written by hand (the Python tests drive the real
//! recorder): the thesis's `sumUpMultiples`, a filter in a comprehension, a
//! frame read from a file, and a cell the replay cannot follow.

use super::testing::{SUM_UP_MULTIPLES, sum_up_multiples_events};
use super::*;

fn names(refs: &[InputRef]) -> Vec<String> {
    refs.iter()
        .map(|r| format!("{}:{}", r.cell.as_deref().unwrap_or("?"), r.symbol))
        .collect()
}

#[test]
fn sum_up_multiples_where_the_multiples_why_every_element_and_factor() {
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    let numbers = "numbers = [1, 2, 3, 4, 5, 6]";
    p.replay("c1", numbers, &[], &["numbers".into()], &effects)
        .expect("replays");
    p.replay(
        "c2",
        SUM_UP_MULTIPLES,
        &[],
        &["sumUpMultiples".into()],
        &effects,
    )
    .expect("replays");
    let events = sum_up_multiples_events("c2", 6, 3);
    p.replay(
        "c3",
        "total = sumUpMultiples(numbers, 3)",
        &events,
        &["total".into()],
        &effects,
    )
    .expect("replays");
    // The thesis's call: the literal 3 is bound to `factor`, data named
    // after the parameter.
    let report = p.query("total").expect("known");
    assert_eq!(names(&report.where_), ["c1:numbers[2]", "c1:numbers[5]"]);
    let why = names(&report.why);
    for i in 0..6 {
        assert!(why.contains(&format!("c1:numbers[{i}]")), "{why:?}");
    }
    assert!(why.contains(&"c3:factor".to_string()), "{why:?}");
    assert!(report.recorded && report.files.is_empty());
}

#[test]
fn a_comprehension_filter_keeps_elements_out() {
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    p.replay("c1", "xs = [5, 1, 7]", &[], &["xs".into()], &effects)
        .expect("replays");
    let code = code_key("c2", 0);
    let mut events = Vec::new();
    for x in [5, 1, 7] {
        events.push(Event::new(code, (1, 23), What::Iteration));
        events.push(Event::new(code, (1, 29), What::Decision(x > 2)));
    }
    events.push(Event::new(code, (1, 23), What::Exhausted));
    p.replay(
        "c2",
        "big = [x * 10 for x in xs if x > 2]",
        &events,
        &["big".into()],
        &effects,
    )
    .expect("replays");
    let first = p.query("big[0]").expect("known");
    assert_eq!(names(&first.where_), ["c1:xs[0]"]);
    let whole = p.query("big").expect("known");
    assert_eq!(names(&whole.where_), ["c1:xs[0]", "c1:xs[2]"]);
    assert!(names(&whole.why).contains(&"c1:xs[1]".to_string()));
}

#[test]
fn a_frame_read_from_a_file_names_its_columns() {
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    p.replay(
        "c1",
        "import pandas as pd\ndf = pd.read_csv('data.csv')",
        &[],
        &["pd".into(), "df".into()],
        &effects,
    )
    .expect("replays");
    p.replay(
        "c2",
        "total = df['a'].sum()",
        &[],
        &["factor".into(), "total".into()],
        &effects,
    )
    .expect("replays");
    let report = p.query("total").expect("known");
    assert_eq!(names(&report.where_), ["c1:df['a']"]);
    assert_eq!(report.files, ["data.csv"]);
}

#[test]
fn what_the_replay_cannot_follow_becomes_an_input() {
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    let err = p
        .replay("c1", "if a:\n    x = 1", &[], &["x".into()], &effects)
        .expect_err("no decision was logged");
    assert!(err.contains("decision"), "{err}");
    let report = p.query("x").expect("known");
    assert_eq!(names(&report.where_), ["c1:x"]);
    // Recorded, not followed.
    assert!(report.recorded && !report.followed);
}

/// Replays cells without logged events (no decision, no computed key).
fn replay_plain(cells: &[(&str, &str, &[&str])]) -> Provenance {
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    for (cell, code, written) in cells {
        let written: Vec<String> = written.iter().map(|w| w.to_string()).collect();
        p.replay(cell, code, &[], &written, &effects)
            .expect("replays");
    }
    p
}

#[test]
fn insert_at_a_literal_position_shifts_the_elements_after_it() {
    let mut p = replay_plain(&[
        ("c1", "xs = [10, 20]", &["xs"]),
        (
            "c2",
            "y = 5\nxs.insert(0, y)\nfirst = xs[0]\nlast = xs[2]",
            &["y", "first", "last"],
        ),
    ]);
    assert_eq!(names(&p.query("first").expect("known").where_), ["c2:y"]);
    assert_eq!(names(&p.query("last").expect("known").where_), ["c1:xs[1]"]);
}

#[test]
fn a_literal_slice_takes_its_elements_only() {
    let mut p = replay_plain(&[
        ("c1", "xs = [1, 2, 3, 4]", &["xs"]),
        ("c2", "tail = xs[2:]\nodd = xs[::-2]", &["tail", "odd"]),
    ]);
    assert_eq!(
        names(&p.query("tail").expect("known").where_),
        ["c1:xs[2]", "c1:xs[3]"]
    );
    assert_eq!(
        names(&p.query("odd").expect("known").where_),
        ["c1:xs[1]", "c1:xs[3]"]
    );
}

#[test]
fn open_for_reading_brings_its_file_and_open_for_writing_does_not() {
    let mut p = replay_plain(&[
        ("c1", "text = open('data.txt').read()", &["text"]),
        ("c2", "out = open('out.txt', 'w')", &["out"]),
    ]);
    assert_eq!(p.query("text").expect("known").files, ["data.txt"]);
    assert!(p.query("out").expect("known").files.is_empty());
}

#[test]
fn an_augmented_subscript_reads_its_key_once() {
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    p.replay(
        "c1",
        "xs = [1, 2, 3]\ni = 1",
        &[],
        &["xs".into(), "i".into()],
        &effects,
    )
    .expect("replays");
    // `i` is known from its literal: no key is logged.
    p.replay("c2", "xs[i] += 10", &[], &[], &effects)
        .expect("replays");
    let report = p.query("xs[1]").expect("known");
    // `10` is code, not an input.
    assert_eq!(names(&report.where_), ["c1:xs[1]"]);
    assert_eq!(names(&report.why), ["c1:i"]);
}

/// `match pt` over `(1, 2)`: the first case fails at its `0`, the second
/// matches and its guard `a` is true.
fn match_cases(events: &[(u32, u32, What)]) -> Provenance {
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    p.replay("c1", "pt = (1, 2)", &[], &["pt".into()], &effects)
        .expect("replays");
    let code = code_key("c2", 0);
    let events: Vec<Event> = events
        .iter()
        .map(|(line, col, what)| Event::new(code, (*line, *col), what.clone()))
        .collect();
    p.replay(
        "c2",
        "match pt:\n    case [0, y]:\n        r = []\n    case (a, *rest) if a:\n        r = rest",
        &events,
        &["r".into(), "a".into(), "rest".into()],
        &effects,
    )
    .ok();
    p
}

/// The log of `match_cases`: each jump's column is `col(column)` (3.10
/// logs none), the guard's jump at column `guard`.
fn match_log(col: impl Fn(u32) -> u32, guard: u32) -> Vec<(u32, u32, What)> {
    let d = What::Decision;
    vec![
        (2, col(9), d(true)),
        (2, col(9), d(true)),
        (2, col(10), d(false)),
        (4, col(9), d(true)),
        (4, col(9), d(true)),
        (4, col(guard), d(true)),
    ]
}

#[test]
fn match_reads_each_case_from_its_jumps() {
    // 3.12+: the guard's jump at the guard.
    let mut p = match_cases(&match_log(|c| c, 23));
    let report = p.query("r").expect("known");
    assert!(report.followed, "{:?}", report.reason);
    assert_eq!(names(&report.where_), ["c1:pt[1]"]);
    assert!(names(&report.why).contains(&"c1:pt[0]".to_string()));
    // 3.11 logs the guard's jump at the last part compiled (`*rest`, which
    // takes no jump): it goes back to the guard.
    let mut p = match_cases(&match_log(|c| c, 13));
    assert_eq!(names(&p.query("r").expect("known").where_), ["c1:pt[1]"]);
    // 3.10 logs no columns: the pattern's last jump decides, and a guard on
    // its pattern's line is not followed.
    let mut p = match_cases(&match_log(|_| 0, 0));
    assert!(!p.query("r").expect("known").followed);
}

#[test]
fn a_frame_of_known_columns_reads_each_column_apart() {
    let mut p = replay_plain(&[
        (
            "c1",
            "import pandas as pd\ncities = ['Oslo', 'Lima']\ntemps = [3.5, 18.2]\nrecs = [{'a': 1, 'b': 2}, {'a': 3, 'b': 4}]",
            &["pd", "cities", "temps", "recs"],
        ),
        (
            "c2",
            "df = pd.DataFrame({'city': cities, 'temp': temps})\nmean_temp = df['temp'].mean()\n\
             hottest = df.temp.max()\nwarm = df[df['temp'] > 15]['city'].tolist()\n\
             df['double'] = df['temp'] * 2\nd = df['double'].sum()\nsb = pd.DataFrame(recs)['b'].sum()",
            &["df", "mean_temp", "hottest", "warm", "d", "sb"],
        ),
    ]);
    let temps = ["c1:temps[0]", "c1:temps[1]"];
    for symbol in ["mean_temp", "hottest", "d"] {
        assert_eq!(
            names(&p.query(symbol).expect("known").where_),
            temps,
            "{symbol}"
        );
    }
    // The temperatures are literals: the rows kept are known (Lima's),
    // and every temperature decided which.
    let warm = p.query("warm").expect("known");
    assert_eq!(names(&warm.where_), ["c1:cities[1]"]);
    assert_eq!(names(&warm.why), temps);
    assert_eq!(
        names(&p.query("sb").expect("known").where_),
        ["c1:recs[0]['b']", "c1:recs[1]['b']"]
    );
}

#[test]
fn a_value_read_by_key_depends_on_the_keys_of_its_dict() {
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    let literal = "inventory = {'apples': 10, 'pears': 4}";
    p.replay("c1", literal, &[], &["inventory".into()], &effects)
        .expect("replays");
    p.replay(
        "c2",
        "a = inventory['apples']",
        &[],
        &["a".into()],
        &effects,
    )
    .expect("replays");
    // Other keys in the literal, and `apples` is another value (or none).
    for symbol in ["a", "inventory['apples']"] {
        let report = p.query(symbol).expect("known");
        assert_eq!(
            names(&report.where_),
            ["c1:inventory['apples']"],
            "{symbol}"
        );
        assert_eq!(names(&report.why), ["c1:inventory"], "{symbol}");
    }
}

#[test]
fn a_count_of_a_library_object_is_decided_by_its_data_not_made_of_it() {
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    p.replay(
        "c1",
        "import pandas as pd\ndf = pd.read_csv('data.csv')\nn = len(df)",
        &[],
        &["pd".into(), "df".into(), "n".into()],
        &effects,
    )
    .expect("replays");
    let report = p.query("n").expect("known");
    assert!(report.where_.is_empty(), "{:?}", report.where_);
    assert_eq!(names(&report.why), ["c1:df"]);
}

#[test]
fn inputs_of_values_gone_are_forgotten_and_those_held_still_answer() {
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    p.replay(
        "c1",
        "import random\nkeep = [1, 2]",
        &[],
        &["random".into(), "keep".into()],
        &effects,
    )
    .expect("replays");
    // A cell re-run until its new inputs call for a sweep: each run's
    // list replaces the one before.
    let n = 5_000;
    let cell = "big = [random.random() for i in range(5000)]";
    let column = cell.find("range").expect("in the cell") as u32 + 1;
    let code = code_key("c2", 0);
    let mut events: Vec<Event> = (0..n)
        .map(|_| Event::new(code, (1, column), What::Iteration))
        .collect();
    events.push(Event::new(code, (1, column), What::Exhausted));
    let runs = inputs::SWEEP_AFTER / n + 2;
    let mut most = 0;
    for _ in 0..runs {
        p.replay("c2", cell, &events, &["big".into()], &effects)
            .expect("replays");
        most = most.max(p.state.inputs.held());
    }
    // What the namespace holds: `keep`'s block, the (at most three) blocks
    // of the last run's 5,000 and the block still filling; the runs
    // before are gone.
    assert!(
        p.state.inputs.held() < most,
        "{} < {most}",
        p.state.inputs.held()
    );
    assert!(
        p.state.inputs.held() <= 5 * 4096,
        "{}",
        p.state.inputs.held()
    );
    assert_eq!(
        names(&p.query("keep[1]").expect("known").where_),
        ["c1:keep[1]"]
    );
    assert_eq!(
        names(&p.query("big").expect("known").where_),
        ["c2:big[0:5000]"]
    );
}

#[test]
fn the_position_of_a_chosen_element_picks_the_element_of_another_list() {
    // `xs.index(min(xs))`: `min` takes the first smallest, `index` the
    // first equal, so the position is the one the recorder saw chosen.
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    p.replay(
        "c1",
        "runners = ['kim', 'lee', 'max', 'ola']\ntimes = [12.4, 11.9, 13.1, 12.0]",
        &[],
        &["runners".into(), "times".into()],
        &effects,
    )
    .expect("replays");
    let code = code_key("c2", 0);
    let events = [Event::new(code, (1, 15), What::Order(vec![1]))];
    p.replay(
        "c2",
        "fastest_time = min(times)\nwinner = runners[times.index(fastest_time)]\nsame = runners[times.index(min(times))]",
        &events,
        &["fastest_time".into(), "winner".into(), "same".into()],
        &effects,
    )
    .expect("replays");
    let report = p.query("winner").expect("known");
    assert_eq!(names(&report.where_), ["c1:runners[1]"]);
    let why = names(&report.why);
    for i in 0..4 {
        assert!(why.contains(&format!("c1:times[{i}]")), "{why:?}");
    }
    // The second `min` logged nothing: any runner may be named.
    let report = p.query("same").expect("known");
    assert_eq!(report.where_.len(), 4, "{:?}", names(&report.where_));
}

#[test]
fn a_changed_list_no_longer_gives_the_position_of_its_chosen_element() {
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    p.replay(
        "c1",
        "names = ['a', 'b', 'c']\nxs = [3, 1, 2]",
        &[],
        &["names".into(), "xs".into()],
        &effects,
    )
    .expect("replays");
    let code = code_key("c2", 0);
    let events = [Event::new(code, (1, 6), What::Order(vec![1]))];
    p.replay(
        "c2",
        "low = min(xs)\nxs.insert(0, 0)\nwho = names[xs.index(low)]",
        &events,
        &["low".into(), "who".into()],
        &effects,
    )
    .expect("replays");
    let report = p.query("who").expect("known");
    assert_eq!(report.where_.len(), 3, "{:?}", names(&report.where_));
}

#[test]
fn a_logged_argmax_names_the_element_it_points_at() {
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    p.replay(
        "c1",
        "import numpy as np\nsales = np.array([120, 340, 90, 410, 260])\nmonths = ['jan', 'feb', 'mar', 'apr', 'may']",
        &[],
        &["np".into(), "sales".into(), "months".into()],
        &effects,
    )
    .expect("replays");
    let code = code_key("c2", 0);
    let events = [
        Event::new(code, (1, 24), What::Order(vec![3])),
        Event::new(code, (2, 6), What::Order(vec![2])),
    ];
    p.replay(
        "c2",
        "best_month = months[int(np.argmax(sales))]\nlow = sales.argmin()\nworst = months[low]",
        &events,
        &["best_month".into(), "low".into(), "worst".into()],
        &effects,
    )
    .expect("replays");
    let report = p.query("best_month").expect("known");
    assert_eq!(names(&report.where_), ["c1:months[3]"]);
    assert!(names(&report.why).contains(&"c1:sales".to_string()));
    let report = p.query("worst").expect("known");
    assert_eq!(names(&report.where_), ["c1:months[2]"]);
    // The position itself copies no element: every one decided it.
    let report = p.query("low").expect("known");
    assert!(report.where_.is_empty(), "{:?}", names(&report.where_));
}

#[test]
fn a_group_of_a_frame_made_of_literals_is_its_rows() {
    let mut p = replay_plain(&[
        (
            "c1",
            "import pandas as pd\ndata = {'team': ['red', 'blue', 'red'], 'points': [10, 7, 4]}",
            &["pd", "data"],
        ),
        (
            "c2",
            "df = pd.DataFrame(data)\nmeans = df.groupby('team')['points'].mean()\nred = means['red']\n\
             n = df.groupby('team').points.count()['red']\ntotals = df.groupby('team').sum()\nblue = totals['points']['blue']",
            &["df", "means", "red", "n", "totals", "blue"],
        ),
    ]);
    let report = p.query("red").expect("known");
    assert_eq!(
        names(&report.where_),
        ["c1:data['points'][0]", "c1:data['points'][2]"]
    );
    let why = names(&report.why);
    for i in 0..3 {
        assert!(why.contains(&format!("c1:data['team'][{i}]")), "{why:?}");
    }
    // A count copies nothing: which rows are in the group decided it.
    let report = p.query("n").expect("known");
    assert!(report.where_.is_empty(), "{:?}", names(&report.where_));
    let report = p.query("blue").expect("known");
    assert_eq!(names(&report.where_), ["c1:data['points'][1]"]);
}

#[test]
fn records_grouped_by_a_field_and_a_column_computed_from_them() {
    let mut p = replay_plain(&[
        (
            "c1",
            "import pandas as pd\nrows = [\n    {'store': 'A', 'units': 30},\n    {'store': 'B', 'units': 12},\n    {'store': 'A', 'units': 25},\n]\nprice = 2.5",
            &["pd", "rows", "price"],
        ),
        (
            "c2",
            "df = pd.DataFrame(rows)\ndf['revenue'] = df['units'] * price\nby_store = df.groupby('store')['revenue'].sum()\nb = by_store['B']\n\
             twice = (df['units'] + df['units'])[2]",
            &["df", "by_store", "b", "twice"],
        ),
    ]);
    let report = p.query("b").expect("known");
    assert_eq!(names(&report.where_), ["c1:price", "c1:rows[1]['units']"]);
    // Columns add element by element (lists would be joined).
    let report = p.query("twice").expect("known");
    assert_eq!(names(&report.where_), ["c1:rows[2]['units']"]);
}

#[test]
fn a_grouping_column_not_known_leaves_every_row_possible() {
    let mut p = replay_plain(&[
        (
            "c1",
            "import pandas as pd\nteams = ['red', 'blue']\nteams.append(input())\npoints = [1, 2, 3]",
            &["pd", "teams", "points"],
        ),
        (
            "c2",
            "df = pd.DataFrame({'team': teams, 'points': points})\nred = df.groupby('team')['points'].sum()['red']",
            &["df", "red"],
        ),
    ]);
    let where_ = names(&p.query("red").expect("known").where_);
    for i in 0..3 {
        assert!(where_.contains(&format!("c1:points[{i}]")), "{where_:?}");
    }
}

#[test]
fn a_mask_of_known_values_keeps_its_rows() {
    let mut p = replay_plain(&[
        (
            "c1",
            "import pandas as pd\ncities = ['Oslo', 'Lima', 'Pune']\ntemps = [3.5, 18.2, 27.9]",
            &["pd", "cities", "temps"],
        ),
        (
            "c2",
            "df = pd.DataFrame({'city': cities, 'temp': temps})\nwarm = df[df['temp'] > 15]['city'].tolist()\n\
             cold = df[df.temp <= 15]\nfirst = cold['city']\nkeep = df['temp'] != 18.2\nother = df[keep].city",
            &["df", "warm", "cold", "first", "keep", "other"],
        ),
    ]);
    let report = p.query("warm").expect("known");
    assert_eq!(names(&report.where_), ["c1:cities[1]", "c1:cities[2]"]);
    let why = names(&report.why);
    for i in 0..3 {
        assert!(why.contains(&format!("c1:temps[{i}]")), "{why:?}");
    }
    assert_eq!(
        names(&p.query("first").expect("known").where_),
        ["c1:cities[0]"]
    );
    assert_eq!(
        names(&p.query("other").expect("known").where_),
        ["c1:cities[0]", "c1:cities[2]"]
    );
}

#[test]
fn a_frame_sorted_by_a_column_computed_from_literals_has_known_rows() {
    let mut p = replay_plain(&[
        (
            "c1",
            "import pandas as pd\nrows = [\n    {'name': 'a', 'price': 10.0, 'qty': 3},\n    {'name': 'b', 'price': 4.0, 'qty': 10},\n    {'name': 'c', 'price': 25.0, 'qty': 1},\n]\ntax = 0.08",
            &["pd", "rows", "tax"],
        ),
        (
            "c2",
            "df = pd.DataFrame(rows)\ndf['revenue'] = df['price'] * df['qty'] * (1 + tax)\n\
             df = df.sort_values('revenue', ascending=False)\ntop = df.iloc[0]['name']\n\
             last = df['name'].iloc[-1]\nby_name = df.sort_values('name').iloc[0]['qty']",
            &["df", "top", "last", "by_name"],
        ),
    ]);
    // Revenues 32.4, 43.2, 27.0: `b` first, `c` last.
    let report = p.query("top").expect("known");
    assert_eq!(names(&report.where_), ["c1:rows[1]['name']"]);
    let why = names(&report.why);
    for i in 0..3 {
        assert!(why.contains(&format!("c1:rows[{i}]['qty']")), "{why:?}");
    }
    assert!(why.contains(&"c1:tax".to_string()), "{why:?}");
    assert_eq!(
        names(&p.query("last").expect("known").where_),
        ["c1:rows[2]['name']"]
    );
    assert_eq!(
        names(&p.query("by_name").expect("known").where_),
        ["c1:rows[0]['qty']"]
    );
}

#[test]
fn ties_or_unknown_values_leave_a_sorted_row_any_row() {
    let mut p = replay_plain(&[
        (
            "c1",
            "import pandas as pd\nrows = [{'name': 'a', 'n': 1}, {'name': 'b', 'n': 1}]",
            &["pd", "rows"],
        ),
        (
            "c2",
            "df = pd.DataFrame(rows).sort_values('n')\ntop = df.iloc[0]['name']",
            &["df", "top"],
        ),
    ]);
    let report = p.query("top").expect("known");
    assert_eq!(
        names(&report.where_),
        ["c1:rows[0]['name']", "c1:rows[1]['name']"]
    );
}

#[test]
fn a_counter_of_cleaned_literal_strings_counts_by_value() {
    let code = code_key("c2", 0);
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    p.replay(
        "c1",
        "from collections import Counter\nanswers = ['Dog', 'cat', 'dog ']",
        &[],
        &["Counter".into(), "answers".into()],
        &effects,
    )
    .expect("replays");
    // The comprehension's three steps, then its end.
    let mut events: Vec<Event> = (0..3)
        .map(|_| Event::new(code, (1, 36), What::Iteration))
        .collect();
    events.push(Event::new(code, (1, 36), What::Exhausted));
    p.replay(
        "c2",
        "clean = [a.strip().lower() for a in answers]\ncounts = Counter(clean)\ncats = counts['cat']",
        &events,
        &["clean".into(), "counts".into(), "cats".into()],
        &effects,
    )
    .expect("replays");
    // A count copies no element: every element decided it.
    let report = p.query("cats").expect("known");
    assert!(report.where_.is_empty(), "{:?}", names(&report.where_));
    assert_eq!(report.why.len(), 3, "{:?}", names(&report.why));
}

#[test]
fn items_of_a_nested_dict_in_nested_loops_keep_their_values() {
    let code = code_key("c2", 0);
    let effects = Effects::builtin();
    let mut p = Provenance::default();
    p.replay(
        "c1",
        "students = [\n    {'name': 'M', 'grades': {'math': [1, 2], 'bio': [3, 4]}},\n    {'name': 'J', 'grades': {'math': [5, 6], 'bio': [7, 8]}},\n]",
        &[],
        &["students".into()],
        &effects,
    )
    .expect("replays");
    let mut events = Vec::new();
    for _ in 0..2 {
        events.push(Event::new(code, (2, 9), What::Iteration));
        for _ in 0..2 {
            events.push(Event::new(code, (3, 27), What::Iteration));
        }
        events.push(Event::new(code, (3, 27), What::Exhausted));
    }
    events.push(Event::new(code, (2, 9), What::Exhausted));
    p.replay(
        "c2",
        "averages = {}\nfor s in students:\n    for subject, marks in s['grades'].items():\n        averages[subject] = sum(marks)",
        &events,
        &["averages".into(), "s".into(), "subject".into(), "marks".into()],
        &effects,
    )
    .expect("replays");
    let report = p.query("averages['bio']").expect("known");
    assert_eq!(
        names(&report.where_),
        [
            "c1:students[1]['grades']['bio'][0]",
            "c1:students[1]['grades']['bio'][1]"
        ]
    );
}
