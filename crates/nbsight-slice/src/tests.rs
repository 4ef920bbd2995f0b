//! Slicing behaviour, construct by construct: the NBSlicer `lst` example of
//! seed 004 (sec. 3.1), mutation through methods, functions and their free
//! globals, `global`, conditional definitions, re-definitions, `del`,
//! magics, imports, loops and jumps, and the gathered code.

use nbsight_dataflow::Effects;
use nbsight_notebook::CellIndex;

use super::*;
use nbsight_model::testing::notebook;

fn slicer(sources: &[&str]) -> Slicer {
    Slicer::new(&notebook(sources), &Effects::builtin())
}

fn backward(sources: &[&str], cell: usize) -> Vec<usize> {
    numbers(
        &slicer(sources)
            .backward(cell, Granularity::Statements)
            .expect("a code cell")
            .cells,
    )
}

fn forward(sources: &[&str], cell: usize) -> Vec<usize> {
    numbers(
        &slicer(sources)
            .forward(cell, Granularity::Statements)
            .expect("a code cell")
            .cells,
    )
}

/// Cell positions as numbers.
fn numbers(cells: &[CellIndex]) -> Vec<usize> {
    cells.iter().map(|c| c.index()).collect()
}

/// The statements of a slice as `cell:line` and text.
fn statements(slice: &Slice) -> Vec<String> {
    slice
        .statements
        .iter()
        .map(|s| format!("{}:{} {}", s.cell, s.line, s.text))
        .collect()
}

fn backward_statements(sources: &[&str], cell: usize) -> Vec<String> {
    statements(
        &slicer(sources)
            .backward(cell, Granularity::Statements)
            .expect("a code cell"),
    )
}

/// The seed's five lines, one per cell (NBSlicer's "virtual cells").
const LST: [&str; 5] = [
    "lst = [1, 2, 3, 4, 5]",
    "lst[3] = 42",
    "y = lst[2] + 7",
    "lst = [6, 7, 8, 9, 10]",
    "y = lst[2] + 7",
];

#[test]
fn nbslicer_lst_example_is_field_granular() {
    // "the backward slice for line 3 [is] just the first and third lines"
    assert_eq!(backward(&LST, 2), [0, 2]);
    // "the backward slice for line 5 contains lines 4 and 5"
    assert_eq!(backward(&LST, 4), [3, 4]);
    // A write to lst[3] does not reach a reader of lst[2]...
    assert_eq!(forward(&LST, 1), [1]);
    assert_eq!(forward(&LST, 0), [0, 1, 2]);
    // ...nor a write to lst[2] a reader of lst[3]; readers of the whole list
    // or of an unknown item see both.
    let cells = [
        "lst = [1, 2, 3, 4, 5]",
        "lst[2] = 0",
        "z = lst[3]",
        "w = lst[2]",
        "print(lst)",
        "i = 1",
        "v = lst[i]",
    ];
    assert_eq!(backward(&cells, 2), [0, 2]);
    assert_eq!(backward(&cells, 3), [0, 1, 3]);
    assert_eq!(backward(&cells, 4), [0, 1, 4]);
    assert_eq!(backward(&cells, 6), [0, 1, 5, 6]);
    assert_eq!(forward(&cells, 1), [1, 3, 4, 6]);
    // The same, statement by statement inside one cell.
    let cells = ["lst = [1, 2, 3, 4, 5]\nlst[3] = 42\ny = lst[2] + 7", "y"];
    assert_eq!(
        backward_statements(&cells, 1),
        ["0:1 lst = [1, 2, 3, 4, 5]", "0:3 y = lst[2] + 7", "1:1 y"]
    );
}

#[test]
fn slice_size_ratio() {
    let slice = slicer(&LST)
        .backward(2, Granularity::Statements)
        .expect("code");
    assert_eq!(
        (slice.statements_in_slice, slice.statements_in_notebook),
        (2, 5)
    );
    assert!((slice.ratio - 0.4).abs() < 1e-9);
}

#[test]
fn mutation_through_methods() {
    let cells = ["lst = []", "lst.append(1)", "n = 0", "print(lst)"];
    assert_eq!(backward(&cells, 3), [0, 1, 3]);
    let cells = [
        "import pandas as pd",
        "df = pd.read_csv('data.csv')",
        "df.dropna(inplace=True)",
        "df.head()",
        "df.describe()",
        "df.dropna()",
    ];
    // dropna(inplace=True) changes df; head() and dropna() do not.
    assert_eq!(backward(&cells, 4), [0, 1, 2, 4]);
    assert_eq!(forward(&cells, 3), [3]);
    assert_eq!(forward(&cells, 2), [2, 3, 4, 5]);
    // A method the knowledge base does not know may change its receiver.
    assert_eq!(
        backward(&["s = make()", "s.frobnicate()", "s.size"], 2),
        [0, 1, 2]
    );
}

#[test]
fn column_writes_are_field_granular_but_views_are_not() {
    let cells = [
        "import pandas as pd",
        "df = pd.DataFrame({'a': [1], 'b': [2]})",
        "df['c'] = df['a'] * 2",
        "df['a'].sum()",
        "df.shape",
        "df.loc[0, 'b'] = 5",
        "df['b'].sum()",
        "df.c.sum()",
    ];
    assert_eq!(backward(&cells, 3), [0, 1, 3]);
    // `shape` is computed from the whole frame.
    assert_eq!(backward(&cells, 4), [0, 1, 2, 4]);
    // `df.loc[...] = ` writes through a view of df.
    assert_eq!(backward(&cells, 6), [0, 1, 2, 5, 6]);
    // `df.c` is the column `df['c']`.
    assert_eq!(backward(&cells, 7), [0, 1, 2, 5, 7]);
    // Renaming the columns changes every column; adding one changes them.
    let cells = [
        "import pandas as pd",
        "df = pd.read_csv('d.csv')",
        "df.columns = ['a', 'b']",
        "df['c'] = 1",
        "df['a'].sum()",
        "list(df.columns)",
    ];
    assert_eq!(backward(&cells, 4), [0, 1, 2, 4]);
    assert_eq!(backward(&cells, 5), [0, 1, 2, 3, 5]);
    let cells = ["obj = make()", "obj.a = 1", "obj.b = 2", "print(obj.a)"];
    assert_eq!(backward(&cells, 3), [0, 1, 3]);
}

#[test]
fn functions_pull_in_their_free_globals() {
    let cells = [
        "x = 1",
        "def f():\n    return x + 1",
        "y = 2",
        "x = 10",
        "f()",
    ];
    // The value of x at the call counts, not at the definition.
    assert_eq!(backward(&cells, 4), [1, 3, 4]);
    assert_eq!(forward(&cells, 3), [3, 4]);
    // Through another function, and through a class.
    let cells = [
        "scale = 3",
        "def g(v):\n    return v * scale",
        "def h(v):\n    return g(v) + 1",
        "class C:\n    def __init__(self):\n        self.v = h(2)",
        "C().v",
    ];
    assert_eq!(backward(&cells, 4), [0, 1, 2, 3, 4]);
}

#[test]
fn global_writes_in_functions() {
    let cells = [
        "x = 0",
        "def set_x():\n    global x\n    x = 5",
        "set_x()",
        "print(x)",
    ];
    // The call may bind x (it does not replace the earlier definition).
    assert_eq!(backward(&cells, 3), [0, 1, 2, 3]);
}

#[test]
fn conditional_definitions_keep_the_condition() {
    let cells = [
        "c = True",
        "d = 0",
        "if c:\n    x = 1\nelse:\n    x = 2\n    d = 1",
        "print(x)",
    ];
    assert_eq!(backward(&cells, 3), [0, 2, 3]);
    assert_eq!(
        backward_statements(&cells, 3),
        [
            "0:1 c = True",
            "2:1 if c:",
            "2:2 x = 1",
            "2:4 x = 2",
            "3:1 print(x)"
        ]
    );
}

#[test]
fn redefinitions_keep_only_the_reaching_definition() {
    assert_eq!(backward(&["x = 1", "x = 2", "print(x)"], 2), [1, 2]);
    // Within a cell too, and `x += 1` reads the old value.
    assert_eq!(
        backward_statements(&["x = 1\nx = 2\nx += 1", "x"], 1),
        ["0:2 x = 2", "0:3 x += 1", "1:1 x"]
    );
}

#[test]
fn del_ends_values_and_changes_containers() {
    let cells = [
        "d = {'a': 1, 'b': 2}",
        "del d['a']",
        "print(d['b'])",
        "print(d)",
    ];
    assert_eq!(backward(&cells, 2), [0, 2]);
    assert_eq!(backward(&cells, 3), [0, 1, 3]);
    // Deleting an item of a list moves the ones after it.
    assert_eq!(
        backward(&["lst = [1, 2, 3]", "del lst[0]", "print(lst[1])"], 2),
        [0, 1, 2]
    );
    assert_eq!(
        backward(&["x = 1", "del x", "x = 3", "print(x)"], 3),
        [2, 3]
    );
    // What `del` deletes must exist.
    let cells = ["d = {}", "d['k'] = 1", "d['j'] = 2", "del d['k']", "d"];
    assert_eq!(backward(&cells, 3), [0, 1, 3]);
    assert_eq!(backward(&cells, 4), [0, 1, 2, 3, 4]);
}

#[test]
fn magics_are_needed_only_when_they_bind() {
    let cells = [
        "%matplotlib inline",
        "def g():\n    return 3",
        "%time y = g()",
        "!echo hello",
        "print(y)",
    ];
    assert_eq!(backward(&cells, 4), [1, 2, 4]);
    assert_eq!(forward(&cells, 0), [0]);
    // At statement granularity the magic never comes with its cell...
    let cells = ["%matplotlib inline\nimport json", "json.dumps(1)"];
    assert_eq!(
        backward_statements(&cells, 1),
        ["0:2 import json", "1:1 json.dumps(1)"]
    );
    // ...nor in the target cell; at cell granularity the cell comes whole.
    let cells = ["import json", "%matplotlib inline\njson.dumps(1)"];
    assert_eq!(
        backward_statements(&cells, 1),
        ["0:1 import json", "1:2 json.dumps(1)"]
    );
    let slice = slicer(&cells)
        .backward(1, Granularity::Cells)
        .expect("code");
    assert_eq!(slice.statements_in_slice, 3);
}

#[test]
fn imports_come_when_their_names_are_used() {
    let cells = [
        "import json",
        "import statistics as st",
        "data = [1, 2]",
        "st.mean(data)",
    ];
    assert_eq!(backward(&cells, 3), [1, 2, 3]);
    // A name nothing binds may come from `import *`.
    assert_eq!(
        backward(&["from math import *", "import os", "print(pi)"], 2),
        [0, 2]
    );
}

#[test]
fn loops_and_jumps() {
    let cells = [
        "total = 0\nlimit = 3\nother = 1",
        "for i in range(10):\n    if i > limit:\n        break\n    total += i\n    other += 1",
        "print(total)",
    ];
    assert_eq!(
        backward_statements(&cells, 2),
        [
            "0:1 total = 0",
            "0:2 limit = 3",
            "1:1 for i in range(10):",
            "1:2 if i > limit:",
            "1:3 break",
            "1:4 total += i",
            "2:1 print(total)",
        ]
    );
    let cells = [
        "try:\n    v = int('x')\nexcept ValueError as e:\n    v = 0\n    msg = str(e)",
        "print(v)",
    ];
    assert_eq!(
        backward_statements(&cells, 1),
        ["0:1 try:", "0:2 v = int('x')", "0:4 v = 0", "1:1 print(v)"]
    );
}

#[test]
fn cell_granularity_takes_what_whole_cells_need() {
    let cells = ["a = 1", "b = a\nc = 2", "print(c)"];
    let s = slicer(&cells);
    let by_cells = s.backward(2, Granularity::Cells).expect("code");
    assert_eq!(numbers(&by_cells.cells), [0, 1, 2]);
    assert_eq!(by_cells.statements_in_slice, 4);
    let by_statements = s.backward(2, Granularity::Statements).expect("code");
    assert_eq!(numbers(&by_statements.cells), [1, 2]);
    assert_eq!(statements(&by_statements), ["1:2 c = 2", "2:1 print(c)"]);
    let forward = s.forward(0, Granularity::Cells).expect("code");
    assert_eq!(
        (numbers(&forward.cells), forward.statements_in_slice),
        (vec![0, 1], 3)
    );
}

#[test]
fn bad_targets_and_broken_cells() {
    let s = slicer(&["md:# Title", "x = 1", "y = (", "print(x)"]);
    assert!(matches!(
        s.backward(9, Granularity::Cells),
        Err(SliceError::NoSuchCell {
            cell: 9,
            count: 4,
            ..
        })
    ));
    let error = s.backward(0, Granularity::Cells).expect_err("markdown");
    assert_eq!(
        error.to_string(),
        "test.ipynb: cell 0 is a markdown cell, not a code cell"
    );
    // A broken cell is never in a slice, except as its target.
    assert_eq!(
        numbers(&s.backward(3, Granularity::Cells).expect("code").cells),
        [1, 3]
    );
    let broken = s
        .backward(2, Granularity::Statements)
        .expect("a slice of itself");
    assert_eq!(numbers(&broken.cells), [2]);
    assert!(
        broken
            .target_error
            .as_ref()
            .is_some_and(|e| e.line.get() == 1)
    );
    assert_eq!(s.broken_cells().len(), 1);
    assert_eq!(s.code_cells().collect::<Vec<_>>(), [1, 2, 3]);
    let opaque = slicer(&["%%bash\nls"]).backward(0, Granularity::Cells);
    assert!(matches!(opaque, Err(SliceError::NotPython { .. })));
}

fn gathered(
    sources: &[&str],
    cell: usize,
    granularity: Granularity,
    format: GatherFormat,
) -> String {
    let slice = slicer(sources).backward(cell, granularity).expect("code");
    gather(&slice, format).expect("gathers")
}

#[test]
fn gathered_script_keeps_valid_blocks_and_prints_the_value() {
    let cells = [
        "%matplotlib inline\nimport statistics",
        "data = [3, 1, 2]\nunused = 0\nfor v in data:\n    if v > 2: big = v; print(v)\n    else:\n        unused += v\n",
        "try:\n    m = statistics.mean(data)\nexcept ValueError:\n    m = None\n",
        "# the result\n%time r = m * 2\nr + big",
    ];
    let script = gathered(&cells, 3, Granularity::Statements, GatherFormat::Py);
    let expected = "\
# The backward slice of cell 3 of test.ipynb, gathered by nbsight
# (statements): cells 0, 1, 2, 3; 10 of 14 statements.
# Run it with python3: the value cell 3 displays is printed; lines only IPython runs are comments.

# %% cell 0
import statistics

# %% cell 1
data = [3, 1, 2]
for v in data:
    if v > 2:
        big = v
    else:
        pass

# %% cell 2
try:
    m = statistics.mean(data)
except ValueError:
    m = None

# %% cell 3
# the result
r = m * 2
__nbsight_value = (r + big)
if __nbsight_value is not None:
    print(repr(__nbsight_value))
";
    assert_eq!(script, expected);
    // Whole cells keep their comments; IPython lines become comments.
    let script = gathered(&cells, 3, Granularity::Cells, GatherFormat::Py);
    assert!(script.contains("# %% cell 0\n# IPython: %matplotlib inline\nimport statistics\n"));
    assert!(script.contains("# %% cell 3\n# the result\nr = m * 2\n__nbsight_value = (r + big)"));
    assert!(script.contains("    if v > 2: big = v; print(v)\n"));
}

#[test]
fn gathered_notebook_has_one_cell_per_cell_of_the_slice() {
    let cells = [
        "md:# T",
        "%matplotlib inline\nimport json",
        "x = 1\ny = 2",
        "json.dumps(x)",
    ];
    let text = gathered(&cells, 3, Granularity::Statements, GatherFormat::Ipynb);
    let doc: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(doc["nbformat"], 4);
    assert_eq!(doc["metadata"]["kernelspec"]["name"], "python3");
    let cells = doc["cells"].as_array().expect("cells");
    let sources: Vec<String> = cells
        .iter()
        .map(|c| {
            c["source"]
                .as_array()
                .expect("lines")
                .iter()
                .filter_map(|l| l.as_str())
                .collect()
        })
        .collect();
    assert_eq!(sources, ["import json", "x = 1", "json.dumps(x)"]);
    assert!(cells.iter().all(|c| c["outputs"] == serde_json::json!([])));
    assert_eq!(cells[0]["id"], "c1");
    // Whole cells keep their magics in a notebook.
    let text = gathered(
        &["%matplotlib inline\nimport json", "json.dumps(1)"],
        1,
        Granularity::Cells,
        GatherFormat::Ipynb,
    );
    assert!(text.contains("\"%matplotlib inline\\n\""), "{text}");
}

#[test]
fn changes_through_aliases() {
    let cells = [
        "train = load('a')\ntest = load('b')",
        "full_data = [train, test]",
        "for dataset in full_data:\n    dataset['Title'] = 1",
        "y = 3",
        "train['Title']",
    ];
    assert_eq!(backward(&cells, 4), [0, 1, 2, 4]);
    // The change through `dataset` is a change of `train['Title']` only.
    let cells = [
        "train = load('a')\ntest = load('b')",
        "full_data = [train, test]",
        "for dataset in full_data:\n    dataset['Title'] = 1",
        "train['Survived']",
        "full_data",
    ];
    assert_eq!(backward(&cells, 3), [0, 3]);
    assert_eq!(backward(&cells, 4), [0, 1, 2, 4]);
    // A change inside an item of a container changes what it holds.
    let cells = [
        "rows = [[1], [2]]",
        "first = rows[0]",
        "rows[0].append(3)",
        "first",
    ];
    assert_eq!(backward(&cells, 3), [0, 1, 2, 3]);
    let cells = ["a = []", "b = a", "b.append(1)", "c = list(a)", "a"];
    assert_eq!(backward(&cells, 4), [0, 1, 2, 4]);
    // Rebinding a name does not change the object its aliases refer to.
    assert_eq!(backward(&["a = [1]", "b = a", "b = [2]", "a"], 3), [0, 3]);
}

#[test]
fn functions_changing_their_arguments() {
    let cells = [
        "train = load()\nother = load()",
        "def add_title(df, value):\n    df['Title'] = value",
        "add_title(train, 1)",
        "add_title(df=other, value=2)",
        "train['Title']",
        "def show(df):\n    return df.head()",
        "show(train)",
        "train",
    ];
    assert_eq!(backward(&cells, 4), [0, 1, 2, 4]);
    // show() changes nothing.
    assert_eq!(forward(&cells, 6), [6]);
    assert_eq!(backward(&cells, 7), [0, 1, 2, 7]);
}

#[test]
fn gathered_blocks_of_every_kind() {
    let cells = [
        "import json\nmode = 'a'\nextra = 0",
        "match mode:\n    case 'a':\n        v = 1\n        extra += 1\n    case _:\n        v = 2",
        "with open('f') as fh:\n    text = fh.read()\n    extra += 2",
        "try:\n    n = int(text)\nfinally:\n    extra += 3",
        "while v < 3:\n    v += 1\n    extra += 4\nelse:\n    done = True",
        "(v, n)",
    ];
    let script = gathered(&cells, 5, Granularity::Statements, GatherFormat::Py);
    let body = script.split_once("\n\n").map_or("", |(_, b)| b);
    assert_eq!(
        body,
        "\
# %% cell 0
mode = 'a'

# %% cell 1
match mode:
    case 'a':
        v = 1
    case _:
        v = 2

# %% cell 2
with open('f') as fh:
    text = fh.read()

# %% cell 3
try:
    n = int(text)
finally:
    pass

# %% cell 4
while v < 3:
    v += 1
else:
    pass

# %% cell 5
__nbsight_value = ((v, n))
if __nbsight_value is not None:
    print(repr(__nbsight_value))
"
    );
    assert!(!nbsight_notebook::parse_python(&script).has_errors());
}

#[test]
fn slicers_of_an_edited_model_and_of_the_edited_notebook_agree() {
    let effects = Effects::builtin();
    let cells = [
        "md:# T",
        "import json\nrows = [1]",
        "%%time\nrows.append(2)",
        "def add(r):\n    r.append(3)",
        "add(rows)\nout = json.dumps(rows)",
        "out",
    ];
    let nb = notebook(&cells);
    let model = nbsight_model::NotebookModel::new(&nb, &effects);
    for (index, source) in [
        (2, "%%capture log\nrows.append(2)"),
        (4, "out = json.dumps(rows)"),
        (3, "def add(r):\n    r.append(3"),
    ] {
        let edited = nb.cells[index].edited(source, &nb.language);
        let from_model = Slicer::from_model(&model.with_edit(&nb.cells, index, &edited, &effects));
        let mut sources = cells;
        sources[index] = source;
        let scratch = slicer(&sources);
        for cell in [1, 2, 4, 5] {
            for granularity in [Granularity::Cells, Granularity::Statements] {
                let a = from_model.backward(cell, granularity).expect("a code cell");
                let b = scratch.backward(cell, granularity).expect("a code cell");
                assert_eq!(statements(&a), statements(&b), "edit of {index}: {cell}");
                for format in [GatherFormat::Py, GatherFormat::Ipynb] {
                    let text = |s: &Slice| gather(s, format).expect("gathers");
                    assert_eq!(text(&a), text(&b), "edit of {index}: {cell}");
                }
            }
        }
    }
}
