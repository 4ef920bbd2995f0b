//! Behaviour of the cell summaries, construct by construct, including the
//! papers' worked examples (seed 001 Figure 4, the three-cell example).

use std::collections::BTreeSet;

use super::*;
use crate::effects::Effects;
use crate::imports::ImportEnv;
use crate::scope_sets::sort_key;
use crate::symbol_set::SymbolSet;

fn analyze(src: &str) -> ModuleAnalysis {
    analyze_in(src, "")
}

/// Analyses `src` as a cell of a notebook whose other cells are `elsewhere`.
fn analyze_in(src: &str, elsewhere: &str) -> ModuleAnalysis {
    let parsed = nbsight_notebook::parse_python(src);
    assert!(
        !parsed.has_errors(),
        "test source must parse: {:?}",
        parsed.errors
    );
    let other = nbsight_notebook::parse_python(elsewhere);
    let effects = Effects::builtin();
    let imports = ImportEnv::collect([&parsed.module, &other.module]);
    let ctx = Context {
        effects: &effects,
        imports: &imports,
        source: src,
    };
    analyze_module(&parsed.module.body, ctx, None)
}

fn summary(src: &str) -> CellSummary {
    analyze(src).summary
}

fn strings(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn set(items: &[&str]) -> SymbolSet {
    items.iter().map(|s| Symbol::from(*s)).collect()
}

#[test]
fn nbsafety_figure_4_live_and_dead() {
    let s = summary(
        "if num % 3 == 0:\n    foobar = True\n    s = 'foobar'\nelif num % 3 == 1:\n    foo = True\n    s = 'foo'\nelse:\n    s = 'bar'\nprint(s, foobar)\n",
    );
    assert_eq!(s.uses, set(&["foobar", "num"]));
    assert_eq!(s.dead, set(&["s"]));
    assert!(!s.uses.contains("foo") && !s.dead.contains("foo"));
    assert_eq!(s.defs, set(&["foo", "foobar", "s"]));
    assert_eq!(s.builtins, set(&["print"]));
}

#[test]
fn nbsafety_three_cells() {
    let c1 = summary("a = 4\n");
    let c2 = summary("b = a\n");
    let c3 = summary("c = a + b\n");
    assert_eq!(
        (c1.uses.clone(), c1.defs.clone(), c1.dead.clone()),
        (set(&[]), set(&["a"]), set(&["a"]))
    );
    assert_eq!(
        (c2.uses.clone(), c2.defs.clone(), c2.dead.clone()),
        (set(&["a"]), set(&["b"]), set(&["b"]))
    );
    assert_eq!(
        (c3.uses, c3.defs, c3.dead),
        (set(&["a", "b"]), set(&["c"]), set(&["c"]))
    );
}

#[test]
fn read_before_write_in_the_same_statement() {
    let s = summary("x = x + 1\n");
    assert_eq!(s.uses, set(&["x"]));
    assert_eq!(s.defs, set(&["x"]));
    assert!(s.dead.is_empty(), "x depends on its old value");
    let s = summary("x = 1\nx = x + 1\n");
    assert!(s.uses.is_empty());
    assert_eq!(
        s.dead,
        set(&["x"]),
        "Algorithm 2: dead once overwritten independently"
    );
}

#[test]
fn reading_a_sibling_field_keeps_a_field_write_independent() {
    let s = summary("df['b'] = f(df['a'])\n");
    assert_eq!(s.dead, set(&["df['b']"]));
    let s = summary("df['b'] = df['b'] * 2\n");
    assert!(s.dead.is_empty());
    let s = summary("x.a = g(x)\n");
    assert!(s.dead.is_empty(), "reading all of x reads x.a");
}

#[test]
fn augmented_assignment_is_use_and_def() {
    let s = summary("x += 5\n");
    assert_eq!(s.uses, set(&["x"]));
    assert_eq!(s.defs, set(&["x"]));
    assert!(s.dead.is_empty());
}

#[test]
fn attribute_store_is_a_mutation_not_a_plain_read() {
    let s = summary("x.a = 0\n");
    assert_eq!(s.uses, set(&["x"]));
    assert_eq!(s.defs, set(&["x.a"]));
    assert_eq!(s.dead, set(&["x.a"]));
    assert_eq!(s.mutated, set(&["x"]));
}

#[test]
fn symbols_paths_and_subscripts() {
    let s = summary("y = df.col + lst[3] + d['k'] + lst[i] + m[-1] + t[\"it's\"]\n");
    assert_eq!(
        s.uses,
        set(&[
            "d",
            "d['k']",
            "df",
            "df.col",
            "i",
            "lst",
            "lst[*]",
            "lst[3]",
            "m",
            "m[-1]",
            "t",
            "t[\"it's\"]"
        ])
    );
    let s = summary("lst[3] = 1\nlst[i] = 2\na.b.c = 3\n");
    assert_eq!(s.defs, set(&["a.b.c", "lst[*]", "lst[3]"]));
    assert_eq!(s.mutated, set(&["a", "a.b", "lst"]));
    assert_eq!(
        s.dead,
        set(&["a.b.c", "lst[3]"]),
        "lst[*] is not a definite write"
    );
    assert_eq!(s.uses, set(&["a", "a.b", "i", "lst"]));
}

#[test]
fn dots_inside_string_keys_are_not_attribute_paths() {
    let s = summary("d['a.b'].append(1)\nd['x.y'] = 2\n");
    assert_eq!(s.mutated, set(&["d", "d['a.b']"]));
    assert_eq!(s.defs, set(&["d['x.y']"]));
}

#[test]
fn field_writes_kill_only_their_field() {
    let s = summary("lst[3] = 0\nprint(lst[3], lst[2])\n");
    assert_eq!(s.uses, set(&["lst", "lst[2]"]));
    let s = summary("df = load()\nprint(df.col)\n");
    assert_eq!(s.uses, set(&["load"]), "rebinding df kills df.col too");
}

#[test]
fn loops_and_branches() {
    let s = summary(
        "for i in range(n):\n    total = total + i\nelse:\n    done = True\nprint(total)\n",
    );
    assert_eq!(s.uses, set(&["n", "total"]));
    assert_eq!(s.defs, set(&["done", "i", "total"]));
    assert_eq!(
        s.dead,
        set(&["done"]),
        "the loop may not run; else always runs without break"
    );
    let s = summary("for x in xs:\n    if x:\n        break\n    y = x\nelse:\n    z = 1\n");
    assert!(!s.dead.contains("z"), "break skips the else");
    let s = summary("while True:\n    v = read()\n    if v:\n        break\n");
    assert_eq!(s.dead, set(&["v"]), "while True only exits through break");
    let s = summary("while cond:\n    w = 1\n    continue\n    unreachable = 2\n");
    assert!(!s.defs.contains("unreachable"));
    assert!(!s.dead.contains("w"));
}

#[test]
fn try_except_else_finally() {
    let s = summary(
        "try:\n    x = f()\nexcept ValueError as e:\n    print(e)\nelse:\n    y = x\nfinally:\n    z = 1\n",
    );
    assert_eq!(s.uses, set(&["f"]));
    assert_eq!(s.dead, set(&["z"]), "x and y are skipped when f raises");
    assert!(s.defs.contains("e"));
    let s = summary("try:\n    x = 1\nexcept:\n    x = 2\n");
    assert_eq!(s.dead, set(&["x"]));
    let s = summary("try:\n    x = 1\nexcept KeyError:\n    pass\n");
    assert!(s.dead.is_empty());
    let s = summary("try:\n    import foo\nexcept ImportError:\n    foo = None\nfoo.bar()\n");
    assert!(
        s.uses.is_empty(),
        "foo is bound on both paths: {:?}",
        s.uses
    );
}

#[test]
fn with_match_return_raise() {
    let s = summary("with open(path) as fh:\n    text = fh.read()\n");
    assert_eq!(s.uses, set(&["path"]));
    assert_eq!(s.dead, set(&["fh", "text"]));
    let s = summary(
        "match cmd:\n    case [x, y]:\n        r = x + y\n    case Point(x=0):\n        r = 0\n    case _:\n        r = default\n",
    );
    assert_eq!(s.uses, set(&["Point", "cmd", "default"]));
    assert_eq!(s.dead, set(&["r"]));
    let s = summary("if bad:\n    raise ValueError(msg)\nok = 1\n");
    assert_eq!(s.uses, set(&["bad", "msg"]));
    assert_eq!(
        s.dead,
        set(&["ok"]),
        "the raising path does not reach the end"
    );
}

#[test]
fn comprehensions_have_their_own_scope() {
    let s = summary("ys = [x * k for x in xs if x > lo]\nprint(x)\n");
    assert_eq!(
        s.uses,
        set(&["k", "lo", "x", "xs"]),
        "the comprehension's x is not the global x"
    );
    assert_eq!(s.defs, set(&["ys"]));
    let s = summary("d = {k: v for k, v in items}\n");
    assert_eq!(s.uses, set(&["items"]));
    let s = summary("found = any((m := x) > 3 for x in xs)\n");
    assert!(
        s.defs.contains("m"),
        "a walrus in a comprehension binds outside"
    );
    assert!(!s.dead.contains("m"), "only if the comprehension runs");
}

#[test]
fn conditional_expressions_may_bind() {
    let s = summary("ok = a and (b := f())\n");
    assert!(s.defs.contains("b"));
    assert!(!s.dead.contains("b"));
    assert!(s.dead.contains("ok"));
}

#[test]
fn functions_record_free_globals_not_caller_uses() {
    let s = summary(
        "def f(y, z=default):\n    global counter\n    counter += 1\n    local = y + x\n    return helper(local)\nr = f(1)\n",
    );
    assert_eq!(
        s.uses,
        set(&["default"]),
        "f's globals are in its entry, not the cell's uses"
    );
    assert_eq!(s.defs, set(&["f", "r"]));
    let f = &s.functions["f"];
    assert_eq!(f.reads, set(&["counter", "helper", "x"]));
    assert_eq!(f.writes, set(&["counter"]));
}

#[test]
fn nested_functions_and_nonlocal() {
    let s = summary(
        "def outer():\n    v = 1\n    def inner():\n        nonlocal v\n        v += g\n    inner()\n    return v\n",
    );
    assert_eq!(s.functions["outer"].reads, set(&["g"]));
    assert!(s.functions["outer"].writes.is_empty());
    assert_eq!(s.functions.len(), 1);
}

/// A nested function's global reads happen where the enclosing function
/// uses its name: a global the enclosing function binds before that is not
/// read from outside; one bound only after it, or read by a nested
/// function handed on before the binding, is.
#[test]
fn nested_functions_read_globals_where_they_are_used() {
    let s = summary(
        "def run():\n    global E\n    E = ''\n    def helper():\n        return E + x\n    return helper()\n",
    );
    assert_eq!(s.functions["run"].reads, set(&["x"]));
    assert_eq!(s.functions["run"].writes, set(&["E"]));
    let s = summary(
        "def run():\n    global E\n    def helper():\n        return E\n    r = helper()\n    E = ''\n    return r\n",
    );
    assert_eq!(
        s.functions["run"].reads,
        set(&["E"]),
        "read before the binding"
    );
    let s = summary(
        "def run(xs):\n    global E\n    def helper(v):\n        return E + v\n    out = list(map(helper, xs))\n    E = ''\n    return out\n",
    );
    assert_eq!(s.functions["run"].reads, set(&["E"]), "handed on before it");
    // A lambda's reads are its own wherever it is made.
    let s = summary("def run():\n    global E\n    E = 1\n    f = lambda: E + y\n    return f()\n");
    assert!(s.functions["run"].reads.contains("y"));
}

#[test]
fn decorators_defaults_and_class_bodies_run_at_definition() {
    let s = summary(
        "@decorate(opt)\nclass C(Base, metaclass=Meta):\n    a = 1\n    b = a + shared\n    registry.append(1)\n    def m(self):\n        return a + self.b\n",
    );
    assert_eq!(
        s.uses,
        set(&["Base", "Meta", "decorate", "opt", "registry", "shared"])
    );
    assert_eq!(s.defs, set(&["C"]));
    assert_eq!(s.mutated, set(&["registry"]));
    // marimo's bug: the method reads the *global* `a`, not the class attribute.
    assert_eq!(s.functions["C.m"].reads, set(&["a"]));
}

#[test]
fn lambdas_are_deferred_functions() {
    let s = summary("f = lambda t, u=base: t + w\nys = sorted(xs, key=lambda v: v * scale)\n");
    assert_eq!(s.uses, set(&["base", "xs"]));
    assert_eq!(s.functions["f"].reads, set(&["w"]));
    assert_eq!(s.functions["<lambda@2:21>"].reads, set(&["scale"]));
}

#[test]
fn conventional_aliases_yield_to_notebook_assignments() {
    let s = summary("tf.fit(docs)\n");
    assert!(
        s.may_mutate.is_empty() && s.mutated.is_empty(),
        "tf is TensorFlow by convention"
    );
    let s = analyze_in("tf.fit(docs)\n", "tf = TfidfVectorizer()\n").summary;
    assert_eq!(s.mutated, set(&["tf"]), "a notebook's own tf is a value");
}

#[test]
fn type_parameters_are_not_globals() {
    let s =
        summary("def first[T](xs: list[T]) -> T:\n    return xs[0]\nclass Box[U]:\n    item: U\n");
    assert!(s.uses.is_empty(), "{:?}", s.uses);
}

#[test]
fn comprehensions_in_class_bodies_skip_class_attributes() {
    let s =
        summary("class C:\n    a = [1]\n    b = [x for x in a]\n    c = [a for _ in range(2)]\n");
    assert_eq!(s.uses, set(&["a"]), "the element `a` is the global one");
}

#[test]
fn nbsafety_4_4_static_view() {
    let s = summary("print(lst[1](2))\n");
    assert_eq!(s.uses, set(&["lst", "lst[1]"]));
    let s = summary("x = 0\ndef f(y):\n    return x + y\nlst = [f, lambda t: t + 1]\n");
    assert_eq!(s.functions["f"].reads, set(&["x"]));
}

#[test]
fn library_effects_mutations() {
    let s = summary(
        "import numpy as np\nlst.append(1)\ndf.dropna(inplace=True)\nother.dropna()\nnp.random.shuffle(arr)\nmodel.fit(X, y)\nh = df2.head()\nweird.frobnicate()\n",
    );
    assert_eq!(s.mutated, set(&["arr", "df", "lst", "model"]));
    assert_eq!(s.may_mutate, set(&["weird"]));
    assert!(s.uses.contains("df2"));
    assert!(s.imports.contains("numpy"));
    assert!(!s.uses.contains("np"), "np is bound in the cell");
}

#[test]
fn module_functions_are_not_receivers() {
    let s = analyze_in("os.makedirs(path)\nplt.plot(xs)\n", "import os\n").summary;
    assert!(s.may_mutate.is_empty(), "{:?}", s.may_mutate);
    assert_eq!(s.uses, set(&["os", "path", "plt", "xs"]));
}

#[test]
fn delete_statements() {
    let s = summary("del x\ndel d['k']\n");
    assert_eq!(s.defs, set(&["d['k']", "x"]));
    assert_eq!(s.mutated, set(&["d"]));
    assert_eq!(s.uses, set(&["d"]));
}

#[test]
fn imports_bind_names() {
    let s = summary(
        "import pandas as pd\nfrom sklearn.metrics import accuracy_score as acc\nimport os.path\nfrom m import *\n",
    );
    assert_eq!(s.defs, set(&["acc", "os", "pd"]));
    assert_eq!(s.dead, set(&["acc", "os", "pd"]));
    assert_eq!(
        s.imports,
        strings(&["m.*", "os.path", "pandas", "sklearn.metrics.accuracy_score"])
    );
}

#[test]
fn ipython_escapes() {
    let s = summary(
        "%matplotlib inline\n!pip install {pkg}\nfiles = !ls $folder\ndf?\n%time y = f(x)\nt = %timeit -o g(z)\n",
    );
    assert_eq!(s.uses, set(&["df", "f", "folder", "g", "pkg", "x", "z"]));
    assert_eq!(s.defs, set(&["files", "t", "y"]));
    assert_eq!(s.magics, strings(&["!", "%matplotlib", "%time", "%timeit"]));
}

#[test]
fn builtins_are_separate_unless_rebound() {
    let s = summary("n = len(xs)\nprint(n)\n");
    assert_eq!(s.uses, set(&["xs"]));
    assert_eq!(s.builtins, set(&["len", "print"]));
    let s = summary("list = [1]\nlist.append(2)\n");
    assert!(s.builtins.is_empty());
    assert_eq!(s.mutated, set(&["list"]));
}

#[test]
fn reaching_definitions_within_a_cell() {
    let analysis = analyze("x = 1\nif c:\n    x = 2\nprint(x)\n");
    let table = &analysis.table;
    let reads = analysis.reaching_definitions();
    let x = table.get("x").expect("x interned");
    let last = reads
        .iter()
        .rev()
        .find(|r| r.symbol == x)
        .expect("a read of x");
    assert_eq!(
        last.defs.len(),
        2,
        "both writes reach the print: {:?}",
        last.defs
    );
    assert!(last.defs.iter().all(|d| *d != crate::solve::DefSite::Entry));
    let c = table.get("c").expect("c interned");
    let read_c = reads.iter().find(|r| r.symbol == c).expect("a read of c");
    assert_eq!(read_c.defs, vec![crate::solve::DefSite::Entry]);
}

#[test]
fn unreachable_code_defines_nothing() {
    let s = summary("def f():\n    return 1\n    global g\n    g = 2\n");
    assert!(s.functions["f"].writes.is_empty());
}

#[test]
fn global_declared_in_a_class_body_binds_the_global() {
    let s = summary("class R:\n    global n\n    n = 0\n");
    assert_eq!(s.defs, set(&["R", "n"]));
    assert_eq!(s.dead, set(&["R", "n"]));
    let s = summary("def h():\n    class K:\n        global gk\n        gk = 1\n");
    assert_eq!(s.functions["h"].writes, set(&["gk"]));
}

#[test]
fn lambdas_in_comprehensions_close_over_the_loop_variable() {
    let s = summary("fns = [lambda: i + j for i in range(3)]\n");
    assert_eq!(s.functions["<lambda@1:8>"].reads, set(&["j"]));
    let s = summary("def mk(r):\n    return [lambda: k + kk for k in r]\n");
    assert_eq!(s.functions["mk"].reads, set(&["kk"]));
}

#[test]
fn dunder_class_is_not_a_global_in_methods() {
    let s = summary("class S:\n    def m(self):\n        return __class__.__name__\n");
    assert!(s.functions["S.m"].reads.is_empty());
}

#[test]
fn class_attributes_read_before_binding_fall_back_to_globals() {
    let s = summary("def f():\n    x = 1\n    class C:\n        x = x\n");
    assert_eq!(s.functions["f"].reads, set(&["x"]));
}

#[test]
fn annotated_attribute_without_value_evaluates_the_object() {
    let s = summary("def fa():\n    obj2.attr: int\n");
    assert_eq!(s.functions["fa"].reads, set(&["obj2"]));
}

#[test]
fn crabs_count_loop_under_plain_liveness() {
    // seed-notes.md: plain liveness says `count` is live at entry (the
    // first iteration's `i == 0` branch is not known to run). Settling it
    // needs value feasibility, which the flow analysis adds on top.
    let s = summary(
        "for i in range(3):\n    if i == 0:\n        count = 0\n    else:\n        count = count + 1\n",
    );
    assert_eq!(s.uses, set(&["count"]));
    assert_eq!(s.defs, set(&["count", "i"]));
    assert!(
        s.dead.is_empty(),
        "the loop may run zero times for all we know here"
    );
}

#[test]
fn statements_in_one_block_keep_statement_level_dead() {
    let s = summary("y = x\nx = 2\nz = 1\nz = z + y\n");
    assert_eq!(s.uses, set(&["x"]));
    assert_eq!(s.dead, set(&["x", "y", "z"]));
}

#[test]
fn containers_of_a_changed_path_are_marked_implied() {
    let a = analyze("lst[3] = 42\nd.x.append(1)\nlst.append(2)\n");
    let accesses: Vec<(String, crate::access::AccessKind, bool)> = a
        .cfg
        .nodes
        .iter()
        .flat_map(|n| n.accesses.iter())
        .filter(|x| !x.kind.is_read())
        .map(|x| (a.table.name(x.symbol).to_string(), x.kind, x.implied))
        .collect();
    use crate::access::AccessKind::{Mutate, Write};
    assert_eq!(
        accesses,
        [
            ("lst[3]".to_string(), Write, false),
            ("lst".to_string(), Mutate, true),
            ("d.x".to_string(), Mutate, false),
            ("d".to_string(), Mutate, true),
            ("lst".to_string(), Mutate, false),
        ]
    );
    // Summaries still count the containers as changed.
    assert_eq!(a.summary.mutated, set(&["d", "d.x", "lst"]));
}

#[test]
fn parameters_changed_in_place() {
    let s = summary(
        "def add(df, col, *, log=None):\n    df[col] = 1\n    log.append(col)\n    col = col + 'x'\n\
         def keep(df):\n    df = df.copy()\n    return df.head()\n\
         def sort(xs, how):\n    xs.sort()\n    how.frobnicate()\n\
         f = lambda acc, v: acc.append(v)\n",
    );
    let params = |name: &str| -> Vec<(Option<usize>, String)> {
        s.functions[name]
            .mutated_params
            .iter()
            .map(|p| (p.position, p.name.clone()))
            .collect()
    };
    assert_eq!(
        params("add"),
        [(Some(0), "df".to_string()), (None, "log".to_string())]
    );
    assert!(params("keep").is_empty());
    assert_eq!(
        params("sort"),
        [(Some(0), "xs".to_string()), (Some(1), "how".to_string())]
    );
    assert_eq!(params("f"), [(Some(0), "acc".to_string())]);
}

#[test]
fn function_always_writes_its_unconditional_globals() {
    let s = summary(
        "def scale(v):\n    global calls, last\n    calls += 1\n    if v:\n        last = v\n    return v\n",
    );
    let f = &s.functions["scale"];
    assert_eq!(f.writes, set(&["calls", "last"]));
    assert_eq!(f.always_writes, set(&["calls"]));
}

#[test]
fn written_assumes_loops_run() {
    let s = summary("for c in cols:\n    df[c] = df[c].fillna(0)\nx = x + 1\nif y:\n    z = 1\n");
    assert_eq!(s.written, set(&["c", "df", "x"]));
    assert!(s.dead.is_empty() || !s.dead.contains("df"));
}

#[test]
fn written_does_not_assume_an_empty_range_runs() {
    let s = summary(
        "for i in range(3, 0):\n    x = 1\nfor j in range(0, 3, -1):\n    y = 1\nfor k in range(2):\n    z = 1\n",
    );
    assert_eq!(s.written, set(&["k", "z"]));
}

/// Analyses `src` as the body of a `%%timeit` cell.
fn timed_summary(src: &str) -> CellSummary {
    let parsed = nbsight_notebook::parse_python(src);
    assert!(!parsed.has_errors(), "{:?}", parsed.errors);
    let effects = Effects::builtin();
    let imports = ImportEnv::collect([&parsed.module]);
    let ctx = Context {
        effects: &effects,
        imports: &imports,
        source: src,
    };
    analyze_timed_module(&parsed.module.body, ctx).summary
}

#[test]
fn timeit_reads_the_namespace_and_binds_nothing() {
    let s = summary("%timeit y = sum(x)\n");
    assert_eq!(s.uses, set(&["x"]));
    assert_eq!(s.builtins, set(&["sum"]));
    assert!(s.defs.is_empty() && s.dead.is_empty(), "{:?}", s.defs);
    let s = summary("%timeit -n 3 -r 1 lst.append(v)\n");
    assert_eq!(s.uses, set(&["lst", "v"]));
    assert_eq!(s.mutated, set(&["lst"]), "a change in place is still one");
    assert!(s.defs.is_empty());
    // `%time` runs in the namespace: it binds.
    let s = summary("%time w = x + 1\n");
    assert_eq!((s.uses, s.defs), (set(&["x"]), set(&["w"])));
    // A cell magic: the whole body is one function's.
    let s = timed_summary("z = x + 1\nw = z * k\nfor i in range(n):\n    acc = i\n");
    assert_eq!(s.uses, set(&["k", "n", "x"]), "z is the function's local");
    assert!(s.defs.is_empty() && s.dead.is_empty(), "{:?}", s.defs);
    let s = timed_summary("global g\ng = x\n");
    assert_eq!(s.defs, set(&["g"]), "only `global` binds in the namespace");
}

/// `%pylab` binds what IPython's `import_pylab` binds; without
/// `--no-import-all` it also star-imports `numpy` and `matplotlib.pylab`.
#[test]
fn pylab_binds_what_import_pylab_binds() {
    let bound = [
        "display",
        "figsize",
        "getfigs",
        "matplotlib",
        "mlab",
        "np",
        "numpy",
        "plt",
        "pylab",
        "pyplot",
    ];
    let s = summary("%pylab --no-import-all inline\n");
    assert_eq!(s.defs, set(&bound));
    assert!(s.uses.is_empty(), "{:?}", s.uses);
    assert!(
        !s.imports.iter().any(|i| i.ends_with('*')),
        "{:?}",
        s.imports
    );
    assert_eq!(s.magics, strings(&["%pylab"]));
    let s = summary("%pylab inline\nx = np.ones(3)\n");
    assert!(bound.iter().all(|b| s.defs.contains(b)), "{:?}", s.defs);
    assert!(s.uses.is_empty(), "np is bound by the magic: {:?}", s.uses);
    assert!(
        s.imports.contains("numpy.*") && s.imports.contains("matplotlib.pylab.*"),
        "{:?}",
        s.imports
    );
}

#[test]
fn finally_runs_on_every_way_out() {
    // The exception path re-raises: the normal exit has `g`.
    let s = summary("try:\n    g = h()\nfinally:\n    close()\n");
    assert_eq!(s.uses, set(&["close", "h"]));
    assert_eq!(s.dead, set(&["g"]));
    let s = summary(
        "try:\n    g = h()\nexcept ValueError:\n    raise\nelse:\n    pass\nfinally:\n    done = 1\n",
    );
    assert_eq!(s.dead, set(&["done", "g"]));
    // A handler that ends normally skips the binding.
    let s = summary("try:\n    g = h()\nexcept ValueError:\n    pass\nfinally:\n    close()\n");
    assert!(s.dead.is_empty(), "{:?}", s.dead);
    // `break` leaves through the finally body.
    let s = summary("while True:\n    try:\n        break\n    finally:\n        k = 1\n");
    assert_eq!(s.dead, set(&["k"]));
    let s = summary("while c:\n    try:\n        break\n    finally:\n        k = 1\n");
    assert!(s.dead.is_empty(), "the loop may not run: {:?}", s.dead);
    // `continue` too: the read after the loop sees the finally's binding.
    let s = summary(
        "while True:\n    try:\n        if c:\n            continue\n        break\n    finally:\n        k = 1\nm = k\n",
    );
    assert_eq!(s.uses, set(&["c"]));
    // `return`: the function always binds its global.
    let s = summary(
        "def f():\n    global a\n    try:\n        return 1\n    finally:\n        a = 2\n",
    );
    assert_eq!(s.functions["f"].always_writes, set(&["a"]));
    // A `break` of a loop inside the try does not leave it.
    let s = summary("try:\n    for x in xs:\n        break\nfinally:\n    k = 1\n");
    assert_eq!(s.dead, set(&["k"]));
}

#[test]
fn nested_try_runs_the_inner_finally_before_the_outer_handler() {
    let s = summary(
        "try:\n    try:\n        x = f()\n    finally:\n        close()\nexcept ValueError:\n    x = 0\n",
    );
    assert_eq!(s.dead, set(&["x"]));
    assert_eq!(s.uses, set(&["close", "f"]));
    let s = summary(
        "try:\n    try:\n        x = f()\n    finally:\n        close()\nexcept ValueError:\n    pass\n",
    );
    assert!(
        s.dead.is_empty(),
        "x is skipped when f raises: {:?}",
        s.dead
    );
    let s = summary(
        "try:\n    try:\n        x = f()\n    finally:\n        close()\nfinally:\n    done()\n",
    );
    assert_eq!(s.dead, set(&["x"]));
    // `break` runs both finally bodies, the inner one first.
    let s = summary(
        "while True:\n    try:\n        try:\n            break\n        finally:\n            a = 1\n    finally:\n        b = a\nm = a + b\n",
    );
    assert_eq!(s.dead, set(&["a", "b", "m"]));
}

#[test]
fn nested_class_bodies_do_not_see_the_enclosing_class() {
    let s = summary("class A:\n    p = 1\n    class B:\n        q = p\n");
    assert_eq!(s.uses, set(&["p"]), "B's `p` is the global");
    let s = summary("class A:\n    p = 1\n    q = p\n");
    assert!(s.uses.is_empty(), "{:?}", s.uses);
    let s = summary("class A:\n    p = 1\n    class B:\n        p = 2\n        q = p\n");
    assert!(s.uses.is_empty(), "{:?}", s.uses);
    // A function's locals are seen, as the class body is in its scope.
    let s = summary("def f():\n    p = 1\n    class B:\n        q = p\n");
    assert!(s.functions["f"].reads.is_empty());
    let s = summary("class A:\n    p = 1\n    class B:\n        class C:\n            q = p\n");
    assert_eq!(s.uses, set(&["p"]));
}

#[test]
fn a_nested_functions_global_is_its_own() {
    let s = summary(
        "def outer():\n    def inner():\n        global G\n        G = x\n    return 2\nouter()\n",
    );
    assert!(s.functions["outer"].writes.is_empty());
    assert!(s.functions["outer"].reads.is_empty());
    assert!(!s.defs.contains("G"));
    let s =
        summary("def outer():\n    def inner():\n        global G\n        G = x\n    inner()\n");
    assert_eq!(s.functions["outer"].writes, set(&["G"]));
    assert_eq!(s.functions["outer"].reads, set(&["x"]));
    // Handing it on counts as a call; its own recursion does not.
    let s = summary(
        "def outer():\n    def inner():\n        global G\n        G = 1\n    return inner\n",
    );
    assert_eq!(s.functions["outer"].writes, set(&["G"]));
    let s = summary(
        "def outer():\n    def inner():\n        global G\n        G = 1\n        inner()\n",
    );
    assert!(s.functions["outer"].writes.is_empty());
}

#[test]
fn code_in_string_literals_is_read() {
    let s = summary("print(eval('df8 + pd.merge(a, b)'))\nexec('c = d * 2')\n");
    assert_eq!(s.uses, set(&["a", "b", "d", "df8", "pd"]));
    assert!(s.defs.contains("c"));
    assert!(!s.reads_namespace);
    let s = summary("x = globals()['rate']\nglobals()['other'] = 1\ndel globals()['gone']\n");
    assert_eq!(s.uses, set(&["rate"]));
    assert_eq!(s.builtins, set(&["globals"]));
    assert!(!s.reads_namespace);
    // Code given in a namespace of its own reads nothing of the notebook's.
    assert!(!summary("eval(expr, {'x': 1})\n").reads_namespace);
}

#[test]
fn code_nbsight_cannot_read_may_read_any_name() {
    for src in [
        "eval(expr)\n",
        "exec(f'print({name})')\n",
        "eval('not python (')\n",
        "value = globals()[key]\n",
        "print('{a} {b}'.format(**locals()))\n",
        "names = vars()\n",
        "eval(expr, globals())\n",
    ] {
        assert!(summary(src).reads_namespace, "{src}");
    }
    // A function's `locals()` is its own; `globals()` and `eval` are not.
    let s = summary(
        "def f(x):\n    return locals()\ndef g(s):\n    return eval(s)\nclass Show:\n    def _repr_html_(self):\n        return eval(self.code)\n",
    );
    assert!(!s.reads_namespace);
    assert!(!s.functions["f"].reads_namespace);
    assert!(s.functions["g"].reads_namespace);
    assert!(s.functions["Show._repr_html_"].reads_namespace);
}

#[test]
fn changes_of_library_state_are_recorded() {
    let s = summary(
        "import warnings\nimport numpy as np\nimport seaborn as sns\nimport sys\nfrom matplotlib import pyplot as plt\nwarnings.filterwarnings('ignore')\nnp.random.seed(0)\nsns.set()\nsys.path.append('..')\nplt.style.use('ggplot')\nnp.array([1])\nset([1])\n",
    );
    assert_eq!(
        s.global_changes,
        strings(&[
            "matplotlib.pyplot.style.use",
            "numpy.random.seed",
            "seaborn.set",
            "sys.path.append",
            "warnings.filterwarnings",
        ])
    );
}

#[test]
fn sort_keys_order_as_names() {
    let names = [
        "df",
        "df.col",
        "df['a']",
        "dfx",
        "X_train",
        "X_train_scaled",
        "X_train_scaler",
        "a",
        "ab",
        "abcdefgh",
        "abcdefghi",
        "abcdefgg_long",
        "lst[*]",
        "lst[0]",
        "é",
        "z",
    ];
    let mut by_key: Vec<&str> = names.to_vec();
    by_key.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)).then_with(|| a.cmp(b)));
    let mut by_name: Vec<&str> = names.to_vec();
    by_name.sort();
    assert_eq!(by_key, by_name);
}
