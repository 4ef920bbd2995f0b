//! Scripted sessions with known answers, driven from Rust as the Python
//! tracer drives the engine: each run reports the lines that ran, the user
//! functions calls reached, where an exception left the cell and which
//! objects names are bound to. A tiny namespace model stands in for the
//! kernel's: a plain `b = a` binds `b` to `a`'s object, any other binding
//! makes a new object, `del` unbinds.

use std::collections::HashMap;

use nbsight_dataflow::Effects;
use nbsight_lineage::{CallFact, FunctionRef, Lineage, RunFacts, Status};

struct Kernel {
    lineage: Lineage,
    namespace: HashMap<String, u64>,
    /// Imported modules are singletons: one object per module.
    modules: HashMap<String, u64>,
    next_object: u64,
    counter: u32,
}

impl Kernel {
    fn new() -> Kernel {
        Kernel {
            lineage: Lineage::new(Effects::builtin()),
            namespace: HashMap::new(),
            modules: HashMap::new(),
            next_object: 1,
            counter: 0,
        }
    }

    /// Runs `source` as cell `id`; every line runs.
    fn run(&mut self, id: &str, source: &str) -> Vec<String> {
        self.run_with(id, source, None, Vec::new(), None)
    }

    /// Runs `source` as cell `id` with what a tracer observed; returns the
    /// stale symbols the warning named.
    fn run_with(
        &mut self,
        id: &str,
        source: &str,
        lines: Option<Vec<u32>>,
        calls: Vec<CallFact>,
        error_line: Option<u32>,
    ) -> Vec<String> {
        self.counter += 1;
        let pre = self.lineage.before_run(id, source);
        let ran = |line: u32| {
            lines.as_ref().is_none_or(|l| l.contains(&line)) && error_line.is_none_or(|e| line < e)
        };
        for (n, text) in source.lines().enumerate() {
            let line = n as u32 + 1;
            if !ran(line) {
                continue;
            }
            let text = text.trim();
            if let Some(names) = text.strip_prefix("del ") {
                for name in names.split(',') {
                    self.namespace.remove(name.trim());
                }
                continue;
            }
            if let Some(rest) = text.strip_prefix("import ") {
                for item in rest.split(',') {
                    let (module, name) = match item.split_once(" as ") {
                        Some((m, n)) => (m.trim(), n.trim()),
                        None => (item.trim(), item.trim().split('.').next().unwrap_or("")),
                    };
                    let next = self.next_object + 1;
                    let object = *self.modules.entry(module.to_string()).or_insert(next);
                    self.next_object = self.next_object.max(object);
                    self.namespace.insert(name.to_string(), object);
                }
                continue;
            }
            if let Some(rest) = text.strip_prefix("for ")
                && let Some((targets, _)) = rest.split_once(" in ")
            {
                for target in targets.split(',') {
                    self.next_object += 1;
                    self.namespace
                        .insert(target.trim().to_string(), self.next_object);
                }
                continue;
            }
            let Some((targets, value)) = text.split_once('=') else {
                continue;
            };
            if targets.ends_with(['+', '-', '!', '<', '>', '=']) || value.starts_with('=') {
                continue;
            }
            let value = value.trim();
            for target in targets.split(',').map(str::trim) {
                if !target.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let object = match self.namespace.get(value) {
                    Some(&o) if value.chars().all(|c| c.is_alphanumeric() || c == '_') => o,
                    _ => {
                        self.next_object += 1;
                        self.next_object
                    }
                };
                self.namespace.insert(target.to_string(), object);
            }
            if let Some(name) = text.strip_prefix("def ").and_then(|r| r.split('(').next()) {
                self.next_object += 1;
                self.namespace.insert(name.to_string(), self.next_object);
            }
        }
        for (n, text) in source.lines().enumerate() {
            let defined = text
                .strip_prefix("def ")
                .or_else(|| text.strip_prefix("class "));
            if let Some(name) = defined.and_then(|r| r.split(['(', ':']).next())
                && ran(n as u32 + 1)
            {
                self.next_object += 1;
                self.namespace.insert(name.to_string(), self.next_object);
            }
        }
        let bindings = pre
            .watch
            .iter()
            .map(|name| (name.clone(), self.namespace.get(name).copied()))
            .collect();
        self.lineage.after_run(RunFacts {
            cell_id: id.to_string(),
            source: source.to_string(),
            counter: self.counter,
            execution_count: Some(self.counter),
            lines,
            calls,
            function_lines: Vec::new(),
            site_lines: Vec::new(),
            failed: error_line.is_some(),
            error_line,
            bindings,
            keys: Vec::new(),
            elements: Vec::new(),
            frames: Vec::new(),
            frame_attributes: Vec::new(),
            raised: Vec::new(),
            provenance: None,
            not_recorded: None,
        });
        pre.stale.into_iter().map(|s| s.symbol).collect()
    }

    fn status(&mut self) -> Status {
        self.lineage.status()
    }
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn nbsafety_three_cells_second_is_fresh_and_a_refresher_third_is_stale() {
    let mut k = Kernel::new();
    k.run("c1", "a = 4");
    k.run("c2", "b = a");
    k.run("c3", "c = a + b");
    assert_eq!(k.status(), Status::default());
    k.run("c1", "a = 5");
    let status = k.status();
    assert_eq!(status.stale_cells, ids(&["c3"]));
    assert_eq!(status.fresh_cells, ids(&["c2"]));
    assert_eq!(status.refresher_cells, ids(&["c2"]));
    assert_eq!(status.stale_symbols, ids(&["b", "c"]));
    let why = k.lineage.why("c3").expect("known cell");
    assert_eq!(why.len(), 1);
    assert_eq!(why[0].symbol, "b");
    assert_eq!(why[0].set_by.as_deref(), Some("c2"));
    let ancestor = why[0].ancestor.as_ref().expect("an updated ancestor");
    assert_eq!(
        (
            ancestor.symbol.as_str(),
            ancestor.cell.as_deref(),
            ancestor.counter
        ),
        ("a", Some("c1"), 4)
    );
    assert_eq!(why[0].rerun, ids(&["c2"]));
    // Running the second cell resolves the third (seed-notes erratum).
    k.run("c2", "b = a");
    let status = k.status();
    assert!(status.stale_cells.is_empty(), "{status:?}");
    assert_eq!(status.fresh_cells, ids(&["c3"]));
}

#[test]
fn nbsafety_figure1_rerunning_the_aggregates_warns_about_agg_by_col() {
    let mut k = Kernel::new();
    k.run("c0", "df_x = [1, 2]\ndf_y = [3, 4]");
    k.run("c1", "def custom_agg(series):\n    return max(series)");
    k.run("c2", "agg_by_col = {'A': 'min', 'B': custom_agg}");
    let c3 = "df_x_agg = df_x.agg(agg_by_col)\ndf_y_agg = df_y.agg(agg_by_col)";
    assert!(k.run("c3", c3).is_empty());
    k.run("c1", "def custom_agg(series):\n    return min(series)");
    let status = k.status();
    assert_eq!(status.stale_cells, ids(&["c3"]));
    assert_eq!(status.fresh_cells, ids(&["c2"]));
    assert_eq!(status.refresher_cells, ids(&["c2"]));
    // [5]: the third cell runs without the second: the warning names the
    // stale dictionary and the cell to re-run.
    let pre = k.lineage.before_run("c3", c3);
    assert_eq!(pre.stale.len(), 1);
    assert_eq!(pre.stale[0].symbol, "agg_by_col");
    assert_eq!(pre.stale[0].rerun, ids(&["c2"]));
    let ancestor = pre.stale[0].ancestor.as_ref().expect("ancestor");
    assert_eq!(ancestor.symbol, "custom_agg");
    assert_eq!(k.run("c3", c3), ids(&["agg_by_col"]));
    assert_eq!(k.lineage.last_warning("c3"), ids(&["agg_by_col"]));
    assert!(k.lineage.last_warning("c2").is_empty());
}

#[test]
fn nbsafety_section_6_6_w_still_depends_on_the_old_wiener() {
    let mut k = Kernel::new();
    let wiener = "def wiener(tmax, n):\n    times = np.linspace(0, tmax, n)\n    return times, np.cumsum(times)";
    let c2 = "t, w = wiener(1.0, 1000)";
    let c3 = "t, W = wiener(1.0, 1000)";
    let c4 = "data = pd.DataFrame({'time': t, 'W': w})";
    k.run("c0", "import numpy as np\nimport pandas as pd");
    k.run("c1", wiener);
    k.run("c2", c2);
    k.run("c3", c3);
    k.run("c4", c4);
    k.run("c3", c3);
    k.run("c4", c4);
    k.run(
        "c1",
        &wiener.replace("np.cumsum(times)", "np.insert(times, 0, 0)"),
    );
    let status = k.status();
    assert_eq!(status.stale_cells, ids(&["c4"]), "{status:?}");
    assert!(status.fresh_cells.contains(&"c3".to_string()));
    k.run("c3", c3);
    let status = k.status();
    assert_eq!(
        status.stale_cells,
        ids(&["c4"]),
        "the lowercase w is still old"
    );
    let why = k.lineage.why("c4").expect("known");
    assert_eq!(why.len(), 1);
    assert_eq!(why[0].symbol, "w");
    assert_eq!(why[0].set_by.as_deref(), Some("c2"));
    assert_eq!(
        why[0].ancestor.as_ref().map(|a| a.symbol.as_str()),
        Some("wiener")
    );
    assert_eq!(why[0].rerun, ids(&["c2"]));
}

#[test]
fn setting_an_element_does_not_stale_readers_of_another() {
    let mut k = Kernel::new();
    k.run("c1", "lst = [0, 1, 2, 3]");
    k.run("c2", "x = lst[2] + 1");
    k.run("c3", "total = sum(lst)");
    k.run("c4", "print(x, total)");
    k.run("c5", "lst[3] = 42");
    let status = k.status();
    assert_eq!(status.stale_symbols, ids(&["total"]), "{status:?}");
    assert_eq!(
        status.fresh_cells,
        ids(&["c3"]),
        "c2 reads lst[2], not lst[3]"
    );
    k.run("c6", "lst[2] = 7");
    let status = k.status();
    assert_eq!(status.stale_symbols, ids(&["total", "x"]));
    assert_eq!(status.fresh_cells, ids(&["c2", "c3"]));
    let dict = &mut Kernel::new();
    dict.run("d1", "d = {'a': 1, 'b': 2}");
    dict.run("d2", "y = d['a']");
    dict.run("d3", "d['b'] = 5");
    assert!(dict.status().stale_symbols.is_empty());
}

#[test]
fn a_change_through_an_alias_is_a_change_of_the_other_name() {
    let mut k = Kernel::new();
    k.run("c1", "a = [1, 2]");
    k.run("c2", "b = a");
    k.run("c3", "n = len(b)");
    k.run("c4", "print(n)");
    k.run("c5", "a.append(3)");
    let status = k.status();
    // b changed with a: the cell reading it is fresh, what it computed
    // stale; the alias assignment is not fresh (re-running it changes
    // nothing: `b` is already that object).
    assert_eq!(status.fresh_cells, ids(&["c3"]), "{status:?}");
    assert_eq!(status.stale_cells, ids(&["c4"]), "{status:?}");
    let deps = k.lineage.deps("b").expect("b is known");
    assert_eq!(deps.timestamp, 5, "b's object changed at [5]");
}

#[test]
fn in_place_changes_through_methods_attributes_and_inplace() {
    let mut k = Kernel::new();
    k.run(
        "c1",
        "import pandas as pd\ndf = pd.DataFrame({'a': [1, None]})",
    );
    k.run("c2", "m = df.mean()");
    k.run("c3", "s = df.x");
    k.run("c4", "print(m, s)");
    k.run("c5", "df.dropna(inplace=True)");
    let status = k.status();
    assert_eq!(status.stale_cells, ids(&["c4"]), "{status:?}");
    assert_eq!(status.stale_symbols, ids(&["m", "s"]));
    k.run("c2", "m = df.mean()");
    k.run("c3", "s = df.x");
    k.run("c6", "df.x = [1, 2]");
    // The mean read the whole frame; `s` read the attribute.
    assert_eq!(k.status().stale_symbols, ids(&["m", "s"]));
    k.run("c2", "m = df.mean()");
    // A call the knowledge base knows returns a new value changes nothing.
    k.run("c3", "s = df.x");
    k.run("c7", "df2 = df.dropna()");
    assert!(k.status().stale_symbols.is_empty());
}

#[test]
fn a_redefined_function_stales_what_was_computed_with_it() {
    let mut k = Kernel::new();
    k.run("c1", "def f():\n    return 1");
    k.run("c2", "y = f()");
    k.run("c3", "z = y * 2");
    k.run("c1", "def f():\n    return 2");
    let status = k.status();
    assert_eq!(status.fresh_cells, ids(&["c2"]));
    assert_eq!(status.stale_cells, ids(&["c3"]));
    assert_eq!(status.refresher_cells, ids(&["c2"]));
}

#[test]
fn deleted_names_leave_the_lineage() {
    let mut k = Kernel::new();
    k.run("c1", "x = 1");
    k.run("c2", "y = x");
    k.run("c3", "del x");
    assert!(k.lineage.deps("x").is_none());
    assert!(
        k.lineage
            .deps("y")
            .expect("y")
            .parents
            .iter()
            .all(|p| p.symbol == "x")
    );
    let status = k.status();
    assert!(status.stale_cells.is_empty() && !status.fresh_cells.contains(&"c2".to_string()));
    // A never-run cell reading the deleted name is neither fresh nor stale.
    k.lineage.sync_notebook(vec![
        ("c1".into(), "x = 1".into()),
        ("c2".into(), "y = x".into()),
        ("c4".into(), "print(y)".into()),
        ("c5".into(), "print(x)".into()),
    ]);
    let status = k.status();
    assert_eq!(status.fresh_cells, ids(&["c4"]), "{status:?}");
}

#[test]
fn a_cell_that_raises_keeps_what_ran_before_the_error() {
    let mut k = Kernel::new();
    k.run("c0", "b = 0");
    k.run_with("c1", "a = 1\nb = 1 / 0\nc = 3", None, Vec::new(), Some(2));
    assert!(k.lineage.deps("a").is_some_and(|d| d.timestamp == 2));
    assert_eq!(
        k.lineage.deps("b").map(|d| d.timestamp),
        Some(1),
        "b was not rebound"
    );
    assert!(k.lineage.deps("c").is_none_or(|d| d.timestamp == 0));
    assert!(k.lineage.executions()[1].failed);
}

#[test]
fn only_the_branch_that_ran_sets_parents() {
    let mut k = Kernel::new();
    k.run("c1", "flag = True\na = 1\nb = 2");
    k.run_with(
        "c2",
        "if flag:\n    y = a\nelse:\n    y = b",
        Some(vec![1, 2]),
        Vec::new(),
        None,
    );
    k.run("c3", "z = y");
    k.run("c1b", "b = 3");
    assert!(
        k.status().stale_cells.is_empty(),
        "y was computed from a, not b"
    );
    k.run("c1a", "a = 3");
    assert_eq!(k.status().stale_cells, ids(&["c3"]));
}

#[test]
fn loops_and_comprehensions_depend_on_their_iterables() {
    let mut k = Kernel::new();
    k.run("c1", "vals = [1, 2, 3]");
    k.run("c2", "total = 0\nfor v in vals:\n    total += v");
    k.run("c3", "squares = [v * v for v in vals]");
    k.run("c4", "print(total, squares)");
    k.run("c1", "vals = [4]");
    let status = k.status();
    assert_eq!(status.stale_cells, ids(&["c4"]));
    assert_eq!(status.fresh_cells, ids(&["c2", "c3"]));
    assert_eq!(status.refresher_cells, ids(&["c2", "c3"]));
}

#[test]
fn a_call_reads_the_globals_of_the_function_it_really_reaches() {
    // nbsafety §4.4: lst[1](2) calls the lambda, not f.
    let setup = |k: &mut Kernel| {
        k.run("c0", "x = 0");
        k.run(
            "c1",
            "def f(y):\n    return x + y\nlst = [f, lambda t: t + 1]",
        );
    };
    let lambda = FunctionRef {
        defined_in: 2,
        qualname: "<lambda>".into(),
        first_line: 3,
    };
    let f = FunctionRef {
        defined_in: 2,
        qualname: "f".into(),
        first_line: 1,
    };
    for (target, stale) in [(lambda, false), (f, true)] {
        let mut k = Kernel::new();
        setup(&mut k);
        let call = CallFact {
            line: 1,
            function: target,
            caller: None,
        };
        k.run_with("c2", "r = lst[1](2)", None, vec![call], None);
        k.run("c3", "print(r)");
        k.run("c0", "x = 5");
        assert_eq!(k.status().stale_cells.contains(&"c3".to_string()), stale);
    }
}

#[test]
fn never_run_and_edited_cells_are_judged_by_their_current_source() {
    let mut k = Kernel::new();
    k.run("c1", "a = 1");
    k.run("c2", "b = a + 1");
    k.lineage.sync_notebook(vec![
        ("c1".into(), "a = 1".into()),
        ("c2".into(), "b = a + 2".into()),
        ("c3".into(), "c = b * 2".into()),
        ("c4".into(), "d = undefined_name".into()),
    ]);
    let status = k.status();
    assert_eq!(status.fresh_cells, ids(&["c2", "c3"]), "{status:?}");
    k.run("c1", "a = 10");
    let status = k.status();
    // c3 (never run) reads b, computed from the old a.
    assert_eq!(status.stale_cells, ids(&["c3"]));
    assert_eq!(status.refresher_cells, ids(&["c2"]));
    // A run of a cell the view does not have appends it.
    k.run("c9", "e = 1");
    k.lineage
        .sync_notebook(vec![("c1".into(), "a = 10".into())]);
    k.run("c8", "f = a");
    assert_eq!(k.status().fresh_cells, Vec::<String>::new());
}

#[test]
fn importing_a_module_again_changes_nothing() {
    let mut k = Kernel::new();
    k.run("c0", "import json\nd = json.loads('[1]')");
    k.run("c1", "import json");
    k.run("c2", "print(d)");
    assert!(k.status().stale_symbols.is_empty(), "{:?}", k.status());
    assert_eq!(k.lineage.deps("json").map(|d| d.timestamp), Some(1));
}

#[test]
fn drawing_from_a_generator_again_does_not_stale_earlier_draws() {
    let mut k = Kernel::new();
    k.run("c0", "import numpy as np\nrng = np.random.default_rng(0)");
    k.run("c1", "values = rng.integers(0, 10, 5)");
    k.run("c2", "other = rng.integers(0, 10, 5)");
    k.run("c3", "print(values)");
    assert!(k.status().stale_cells.is_empty(), "{:?}", k.status());
    k.run("c0", "import numpy as np\nrng = np.random.default_rng(0)");
    assert_eq!(k.status().stale_cells, ids(&["c3"]), "a new generator");
}

#[test]
fn dynamic_slices_follow_field_granular_reads() {
    // NBSlicer's `lst` example, one line per cell.
    let mut k = Kernel::new();
    k.run("c1", "lst = [1, 2, 3, 4, 5]");
    k.run("c2", "lst[3] = 42");
    k.run("c3", "y = lst[2] + 7");
    assert_eq!(k.lineage.backward_slice("c3"), Some(ids(&["c1", "c3"])));
    k.run("c4", "lst = [6, 7, 8, 9, 10]");
    k.run("c5", "y = lst[2] + 7");
    assert_eq!(k.lineage.backward_slice("c5"), Some(ids(&["c4", "c5"])));
    assert_eq!(k.lineage.forward_slice("c4"), Some(ids(&["c4", "c5"])));
    // What c1's list became: c2 changed an element of it, c3 read one.
    assert_eq!(
        k.lineage.forward_slice("c1"),
        Some(ids(&["c1", "c2", "c3"]))
    );
    assert_eq!(k.lineage.backward_slice("nowhere"), None);
    // All the cells' slices at once are the same answers; a cell re-run
    // (c3's `y` after c5's) is sliced from its latest execution.
    k.run("c3", "y = lst[2] + 7");
    let all = k.lineage.cell_slices();
    assert_eq!(all.len(), 5);
    for (cell, backward, forward) in all {
        assert_eq!(Some(backward), k.lineage.backward_slice(&cell), "{cell}");
        assert_eq!(Some(forward), k.lineage.forward_slice(&cell), "{cell}");
    }
    // What each latest execution read, from which cell, by name.
    let read = k.lineage.cell_dependences("c3");
    assert_eq!(read.len(), 1, "{read:?}");
    assert_eq!((read[0].cell.as_str(), read[0].current), ("c4", true));
    assert_eq!(read[0].names, ["lst"]);
    // c4 runs again: c3 read from a superseded run.
    k.run("c4", "lst = [6, 7, 8, 9, 10]");
    let read = k.lineage.cell_dependences("c3");
    assert_eq!((read[0].cell.as_str(), read[0].current), ("c4", false));
}

#[test]
fn failed_executions_are_never_in_a_slice() {
    // NBSlicer section 1: the run with the typo failed; the fixed re-runs
    // and the first cell make the slice.
    let mut k = Kernel::new();
    k.run("c1", "import numpy as np\nhousing = np.ones((4, 3))");
    k.run("c2", "np.abs(housing)");
    k.run("c3", "def solve(X, y):\n    return np.hstock(X)");
    k.run_with(
        "c4",
        "X = housing[:, :-1]\nsolve(X, 1)",
        None,
        Vec::new(),
        Some(2),
    );
    k.run("c3", "def solve(X, y):\n    return np.hstack(X)");
    k.run("c4", "X = housing[:, :-1]\nsolve(X, 1)");
    assert_eq!(
        k.lineage.backward_slice("c4"),
        Some(ids(&["c1", "c3", "c4"]))
    );
}

#[test]
fn reactive_reruns_readers_of_what_changed_each_once_in_notebook_order() {
    let mut k = Kernel::new();
    k.run("c1", "a = 1");
    k.run("c2", "b = a + 1");
    k.run("c3", "c = b * 10");
    k.run("c4", "unrelated = 0");
    let since = k.lineage.executions().len() as u32;
    k.run("c1", "a = 2");
    let mut order = Vec::new();
    while let Some((id, source)) = k.lineage.reactive_next(since) {
        order.push(id.clone());
        k.run(&id, &source);
    }
    assert_eq!(order, ids(&["c2", "c3"]));
}

#[test]
fn list_insert_shifts_the_elements_after_its_position() {
    // `list.insert` moves every element at or after its position one up:
    // what c2 set as `lst[1]` is `lst[2]` after c3's insert.
    let mut k = Kernel::new();
    k.run("c1", "lst = [1, 2, 3]");
    k.run("c2", "lst[1] = 20");
    k.run("c3", "lst.insert(0, 5)");
    k.run("c4", "y = lst[2]");
    let slice = k.lineage.backward_slice("c4").expect("ran");
    assert!(slice.contains(&"c2".to_string()), "{slice:?}");
    assert!(slice.contains(&"c3".to_string()), "{slice:?}");
    k.run("c5", "z = lst[0]");
    let slice = k.lineage.backward_slice("c5").expect("ran");
    assert!(slice.contains(&"c3".to_string()), "{slice:?}");
}

#[test]
fn a_subscript_of_unknown_index_reads_the_whole_container() {
    // The run's keys are not known here (no tracer): `lst[k]` may be any
    // element, so a change of one makes `v` stale.
    let mut k = Kernel::new();
    k.run("c1", "lst = list(range(3))");
    k.run("c2", "k = (1, 2)");
    k.run("c3", "v = lst[k]");
    k.run("c4", "lst[2] = 7");
    assert_eq!(k.status().stale_symbols, ids(&["v"]));
}

#[test]
fn seeding_a_global_generator_stales_earlier_draws_only() {
    let mut k = Kernel::new();
    k.run("c1", "import numpy as np");
    k.run("c0", "from sklearn.model_selection import train_test_split");
    k.run("c2", "x = np.random.random(10)");
    k.run("c3", "y = np.ones(5)");
    k.run("c4", "s = train_test_split(y, random_state=0)");
    k.run("c5", "t = train_test_split(y)");
    k.run("c6", "np.random.seed(42)");
    assert_eq!(k.status().stale_symbols, ids(&["t", "x"]));
    // Drawn after the seed: reproducible from it.
    k.run("c7", "z = np.random.random(10)");
    assert_eq!(k.status().stale_symbols, ids(&["t", "x"]));
}

#[test]
fn a_list_held_in_a_container_shares_its_mutations() {
    // Seed 001 §3.2: the alias registry maps an object to every symbol
    // that references it, `holder['k']` included.
    let mut k = Kernel::new();
    k.run("c1", "lst = [1, 2]");
    k.run("c2", "holder = {'k': lst}");
    k.run("c3", "n = len(holder['k'])");
    k.run("c4", "print(n)");
    k.run("c5", "lst.append(3)");
    let status = k.status();
    assert_eq!(status.stale_symbols, ids(&["n"]));
    assert_eq!(status.stale_cells, ids(&["c4"]));
    assert_eq!(status.fresh_cells, ids(&["c2", "c3"]));
    // Through the container, the other way.
    k.run("c3", "n = len(holder['k'])");
    k.run("c6", "holder['k'].append(4)");
    let m = k.run("c7", "m = len(lst)");
    assert!(m.is_empty(), "{m:?}");
    assert_eq!(k.status().stale_symbols, ids(&["n"]));
    let held = |k: &Kernel| k.lineage.deps("holder['k']").map(|d| d.timestamp);
    let before = held(&k);
    assert!(before.is_some());
    // Rebound, the name no longer shares the object.
    k.run("c1", "lst = [1, 2]");
    k.run("c8", "lst.append(5)");
    assert_eq!(held(&k), before);
}

#[test]
fn an_instance_reads_the_class_attribute_it_does_not_shadow() {
    let mut k = Kernel::new();
    k.run("c1", "class Foo:\n    shared = 99");
    k.run("c2", "foo = Foo()");
    k.run("c3", "y = 11");
    k.run("c4", "Foo.shared = y + 42");
    k.run("c5", "y = 12");
    assert_eq!(k.run("c6", "print(foo.shared)"), ids(&["Foo.shared"]));
    k.run("c7", "foo.shared = 89");
    assert!(k.run("c8", "print(foo.shared)").is_empty());
    assert_eq!(k.run("c9", "print(Foo.shared)"), ids(&["Foo.shared"]));
}
