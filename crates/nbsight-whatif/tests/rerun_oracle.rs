//! Re-run plans after an edit against the truth: small notebooks whose
//! smallest plan `tests/oracle/rerun_oracle.py` finds by brute force (Run All
//! of the edited notebook, then every set of cells re-run on a kernel of its
//! own that the history made; outputs, namespace with its aliasing, and files
//! compared). Cases for every class of the static-accuracy issue: in-place
//! changes above the edit (augmented assignment on ints, lists, tuples,
//! strings, arrays and columns; aliases; loops over a container's items;
//! user functions changing arguments or globals; methods and instance
//! attributes; subscripts; shallow copies sharing nested objects; files
//! appended, made, renamed, removed, written then read, through handles,
//! `to_csv`/`read_csv`, `np.save`, `json`, `pickle`), and cells a plan must
//! leave out (another element, key, attribute or column than the one
//! changed; a cell that only rebinds; a cell that only reads what did not
//! change).

#![allow(clippy::print_stdout, clippy::print_stderr)] // a test says what it compared or skipped

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::cells;
use nbsight_dataflow::Effects;
use nbsight_whatif::{Event, Executed, WhatIfSession};

struct Case {
    name: &'static str,
    cells: &'static [&'static str],
    edit: usize,
    source: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "augmented assignment to the cell's own input (int)",
        cells: &["t = 1", "t += 2", "print(t)"],
        edit: 1,
        source: "t += 3",
    },
    Case {
        name: "`p += [4]` on a list is in place, seen through an alias",
        cells: &["p = [1]", "q = p", "p += [4]", "print(q)"],
        edit: 2,
        source: "p += [5]",
    },
    Case {
        name: "`p += (4,)` on a tuple rebinds",
        cells: &["p = (1,)", "q = p", "p += (4,)", "print(q)"],
        edit: 2,
        source: "p += (5,)",
    },
    Case {
        name: "a later cell changed, through another name, what the edited cell reads",
        cells: &["p = [1, 2]", "q = p", "n = len(q)", "p.append(3)"],
        edit: 2,
        source: "n = len(q) + 1",
    },
    Case {
        name: "a change through a loop over a container's items",
        cells: &[
            "reg = {'a': [1]}",
            "for _, lst in reg.items():\n    lst.append(3)",
            "total = sum(reg['a'])",
        ],
        edit: 1,
        source: "for _, lst in reg.items():\n    lst.append(4)",
    },
    Case {
        name: "a user function that changes its argument",
        cells: &[
            "def add(xs):\n    xs.append(1)",
            "data = []",
            "add(data)",
            "n = len(data)",
        ],
        edit: 2,
        source: "add(data)\nadd(data)",
    },
    Case {
        name: "an in-place change above the edited reader is Run All's too",
        cells: &[
            "def add(xs):\n    xs.append(1)",
            "data = []",
            "add(data)",
            "n = len(data)",
        ],
        edit: 3,
        source: "n = len(data) * 2",
    },
    Case {
        name: "an instance attribute changed by augmented assignment",
        cells: &[
            "class C:\n    pass",
            "c = C()\nc.v = 1",
            "c.v += 1",
            "print(c.v)",
        ],
        edit: 2,
        source: "c.v += 2",
    },
    Case {
        name: "a shallow copy shares the nested list",
        cells: &["a = [[1]]", "b = list(a)", "b[0].append(2)", "print(a)"],
        edit: 2,
        source: "b[0].append(3)",
    },
    Case {
        name: "a cell that appends to a file",
        cells: &[
            "open('log.txt', 'w').close()",
            "with open('log.txt', 'a') as f:\n    f.write('x')",
            "print(open('log.txt').read())",
        ],
        edit: 1,
        source: "with open('log.txt', 'a') as f:\n    f.write('y')",
    },
    Case {
        name: "another key than the one changed",
        cells: &["d = {'a': 1, 'b': 2}", "d['a'] = 5", "x = d['b']"],
        edit: 1,
        source: "d['a'] = 6",
    },
    Case {
        name: "a later cell rebinds what the edited cell reads",
        cells: &["x = 1", "y = x * 2", "x = 5"],
        edit: 1,
        source: "y = x * 3",
    },
    Case {
        name: "an edit of a definer re-runs a later rebinding",
        cells: &["x = 1", "y = x + 1", "x = 10"],
        edit: 0,
        source: "x = 2",
    },
    Case {
        name: "an in-place change edited, its reader re-run",
        cells: &["xs = [1]", "xs.append(2)", "print(len(xs))"],
        edit: 1,
        source: "xs.extend([2, 3])",
    },
    Case {
        name: "a change through a loop over a display of names",
        cells: &[
            "a = [1]\nb = [2]",
            "for l in [a, b]:\n    l.append(0)",
            "print(a, b)",
        ],
        edit: 1,
        source: "for l in [a, b]:\n    l.append(9)",
    },
    Case {
        name: "a reader below a rebinding needs nothing above",
        cells: &["df = [3, 1]", "df = sorted(df)", "print(df)"],
        edit: 2,
        source: "print(df[0])",
    },
    Case {
        name: "a later cell computing from its own input after a rebinding",
        cells: &["x = 1", "y = 2", "y = y + x", "print(y)"],
        edit: 1,
        source: "y = 3",
    },
    Case {
        name: "an edited definer re-runs a later augmented assignment",
        cells: &["x = 1", "x += 1", "print(x)"],
        edit: 0,
        source: "x = 5",
    },
    Case {
        name: "a later rebinding hides the edit from the reader below it",
        cells: &["x = 1", "x = 10", "print(x)"],
        edit: 0,
        source: "x = 2",
    },
    Case {
        name: "a reader of something else stays out",
        cells: &["a = 1", "b = 2", "c = a + 1", "print(b)"],
        edit: 0,
        source: "a = 3",
    },
    Case {
        name: "string += rebinds, the alias keeps the old string",
        cells: &["s = 'a'", "u = s", "s += 'b'", "print(u, s)"],
        edit: 2,
        source: "s += 'c'",
    },
    Case {
        name: "list += in place, no alias",
        cells: &["xs = [1]", "xs += [2]", "print(len(xs))"],
        edit: 1,
        source: "xs += [2, 3]",
    },
    Case {
        name: "an augmented assignment below the edited definer",
        cells: &["n = 1", "m = n * 2", "m += 1", "print(m)"],
        edit: 1,
        source: "m = n * 3",
    },
    Case {
        name: "a change through an alias of a dict, key overwritten",
        cells: &[
            "cfg = {'lr': 1}",
            "opts = cfg",
            "opts['lr'] = 2",
            "print(cfg['lr'])",
        ],
        edit: 2,
        source: "opts['lr'] = 3",
    },
    Case {
        name: "an append through an alias",
        cells: &["a = [1]", "b = a", "b.append(2)", "print(a)"],
        edit: 2,
        source: "b.append(5)",
    },
    Case {
        name: "a change through a loop over a dict's values",
        cells: &[
            "reg = {'a': [1], 'b': [2]}",
            "for v in reg.values():\n    v.append(0)",
            "print(reg)",
        ],
        edit: 1,
        source: "for v in reg.values():\n    v.append(9)",
    },
    Case {
        name: "a loop overwriting a key of each row",
        cells: &[
            "rows = [{'x': 1}, {'x': 2}]",
            "for r in rows:\n    r['y'] = r['x'] * 2",
            "print(rows)",
        ],
        edit: 1,
        source: "for r in rows:\n    r['y'] = r['x'] * 3",
    },
    Case {
        name: "a user function incrementing a key of its argument",
        cells: &[
            "def bump(c):\n    c['n'] += 1",
            "state = {'n': 0}",
            "bump(state)",
            "print(state['n'])",
        ],
        edit: 2,
        source: "bump(state)\nbump(state)",
    },
    Case {
        name: "a user function appending to a global list",
        cells: &[
            "log = []",
            "def note(m):\n    log.append(m)",
            "note('a')",
            "print(log)",
        ],
        edit: 2,
        source: "note('b')",
    },
    Case {
        name: "a method changing its instance",
        cells: &[
            "class Counter:\n    def __init__(self):\n        self.n = 0\n    def inc(self):\n        self.n += 1",
            "c = Counter()",
            "c.inc()",
            "print(c.n)",
        ],
        edit: 2,
        source: "c.inc()\nc.inc()",
    },
    Case {
        name: "another attribute than the one changed",
        cells: &[
            "class P:\n    pass",
            "p = P()\np.a = 1\np.b = 2",
            "p.a = 5",
            "print(p.b)",
        ],
        edit: 2,
        source: "p.a = 6",
    },
    Case {
        name: "another element than the one changed",
        cells: &["xs = [0, 0]", "xs[0] = 1", "print(xs[1])"],
        edit: 1,
        source: "xs[0] = 2",
    },
    Case {
        name: "an augmented assignment to a key",
        cells: &["counts = {'a': 0}", "counts['a'] += 1", "print(counts)"],
        edit: 1,
        source: "counts['a'] += 2",
    },
    Case {
        name: "copy.copy shares the nested list",
        cells: &[
            "import copy",
            "a = {'k': [1]}",
            "b = copy.copy(a)",
            "b['k'].append(2)",
            "print(a)",
        ],
        edit: 3,
        source: "b['k'].append(3)",
    },
    Case {
        name: "a slice shares the nested lists",
        cells: &[
            "a = [[1], [2]]",
            "b = a[:]",
            "b[0].append(5)",
            "print(a[0])",
        ],
        edit: 2,
        source: "b[0].append(6)",
    },
    Case {
        name: "an append to a shallow copy leaves the original",
        cells: &["a = [1, 2]", "b = list(a)", "b.append(3)", "print(a)"],
        edit: 2,
        source: "b.append(4)",
    },
    Case {
        name: "a cell that empties a folder and makes it again",
        cells: &[
            "import os, shutil",
            "if os.path.exists('out'):\n    shutil.rmtree('out')\nos.mkdir('out')",
            "with open('out/a.txt', 'w') as f:\n    f.write('1')",
            "print(sorted(os.listdir('out')))",
        ],
        edit: 2,
        source: "with open('out/b.txt', 'w') as f:\n    f.write('1')",
    },
    Case {
        name: "mkdir without exist_ok after the cell removing the folder",
        cells: &[
            "import os, shutil\nshutil.rmtree('out', ignore_errors=True)",
            "os.mkdir('out')",
            "with open('out/a.txt', 'w') as f:\n    f.write('a')",
        ],
        edit: 1,
        source: "os.mkdir('out')\nprint('made')",
    },
    Case {
        name: "a write into a folder made above needs nothing above",
        cells: &[
            "import os\nos.makedirs('out', exist_ok=True)",
            "with open('out/a.txt', 'w') as f:\n    f.write('a')",
            "print(open('out/a.txt').read())",
        ],
        edit: 1,
        source: "with open('out/a.txt', 'w') as f:\n    f.write('b')",
    },
    Case {
        name: "a rename of a file written above",
        cells: &[
            "with open('raw.txt', 'w') as f:\n    f.write('1,2')",
            "import os\nos.rename('raw.txt', 'data.txt')",
            "print(open('data.txt').read())",
        ],
        edit: 1,
        source: "import os\nos.rename('raw.txt', 'data.txt')\nprint('renamed')",
    },
    Case {
        name: "a reader of a renamed file",
        cells: &[
            "with open('raw.txt', 'w') as f:\n    f.write('1,2')",
            "import os\nos.rename('raw.txt', 'data.txt')",
            "print(open('data.txt').read())",
        ],
        edit: 2,
        source: "print(open('data.txt').read().split(','))",
    },
    Case {
        name: "a file written, read by a later cell",
        cells: &[
            "with open('cfg.txt', 'w') as f:\n    f.write('3')",
            "k = int(open('cfg.txt').read())",
            "print(k * 2)",
        ],
        edit: 0,
        source: "with open('cfg.txt', 'w') as f:\n    f.write('4')",
    },
    Case {
        name: "a reader of another file than the one written",
        cells: &[
            "with open('a.txt', 'w') as f:\n    f.write('1')",
            "with open('b.txt', 'w') as f:\n    f.write('2')",
            "print(open('b.txt').read())",
        ],
        edit: 0,
        source: "with open('a.txt', 'w') as f:\n    f.write('3')",
    },
    Case {
        name: "a reader of a file a later cell appends to",
        cells: &[
            "with open('f.txt', 'w') as f:\n    f.write('a')",
            "n = len(open('f.txt').read())",
            "with open('f.txt', 'a') as f:\n    f.write('b')",
        ],
        edit: 1,
        source: "n = len(open('f.txt').read()) * 2",
    },
    Case {
        name: "to_csv then read_csv",
        cells: &[
            "import pandas as pd",
            "df = pd.DataFrame({'a': [1, 2]})\ndf.to_csv('d.csv', index=False)",
            "df2 = pd.read_csv('d.csv')",
            "print(df2['a'].sum())",
        ],
        edit: 1,
        source: "df = pd.DataFrame({'a': [1, 2, 3]})\ndf.to_csv('d.csv', index=False)",
    },
    Case {
        name: "another column than the one changed",
        cells: &[
            "import pandas as pd",
            "df = pd.DataFrame({'a': [1, 2]})",
            "df['b'] = df['a'] * 2",
            "print(df['a'].sum())",
            "print(df['b'].sum())",
        ],
        edit: 2,
        source: "df['b'] = df['a'] * 3",
    },
    Case {
        name: "an augmented assignment to a column",
        cells: &[
            "import pandas as pd",
            "df = pd.DataFrame({'a': [1, 2]})",
            "df['a'] += 1",
            "print(df)",
        ],
        edit: 2,
        source: "df['a'] += 2",
    },
    Case {
        name: "drop inplace edited",
        cells: &[
            "import pandas as pd",
            "df = pd.DataFrame({'a': [1], 'b': [2], 'c': [3]})",
            "df.drop(columns=['b'], inplace=True)",
            "print(list(df.columns))",
        ],
        edit: 2,
        source: "df.drop(columns=['c'], inplace=True)",
    },
    Case {
        name: "numpy += in place seen through an alias",
        cells: &[
            "import numpy as np",
            "x = np.zeros(2)",
            "y = x",
            "x += 1",
            "print(y)",
        ],
        edit: 3,
        source: "x += 2",
    },
    Case {
        name: "a cell rebinding what a mutated value was",
        cells: &["xs = [1]", "xs.append(2)", "xs = [5]", "print(xs)"],
        edit: 2,
        source: "xs = [6]",
    },
    Case {
        name: "an edited definer re-runs an alias",
        cells: &["a = [1]", "b = a", "print(b)"],
        edit: 0,
        source: "a = [2]",
    },
    Case {
        name: "an edited definer re-runs a later in-place change",
        cells: &["xs = [1]", "xs.append(2)", "print(xs)"],
        edit: 0,
        source: "xs = [5]",
    },
    Case {
        name: "a cell reading another key stays out of a loop",
        cells: &[
            "cfg = {'lr': 0.1, 'epochs': 3}",
            "cfg['lr'] = 0.01",
            "for e in range(cfg['epochs']):\n    print(e)",
        ],
        edit: 1,
        source: "cfg['lr'] = 0.05",
    },
    Case {
        name: "a user function called twice with a global list",
        cells: &[
            "results = []",
            "def run(k):\n    results.append(k * 2)",
            "run(1)",
            "run(2)",
            "print(results)",
        ],
        edit: 3,
        source: "run(3)",
    },
    Case {
        name: "setdefault then append",
        cells: &[
            "groups = {}",
            "groups.setdefault('a', []).append(1)",
            "print(groups)",
        ],
        edit: 1,
        source: "groups.setdefault('a', []).append(2)",
    },
    Case {
        name: "a json file dumped and loaded",
        cells: &[
            "import json\ncfg = {'k': 1}",
            "with open('c.json', 'w') as f:\n    json.dump(cfg, f)",
            "with open('c.json') as f:\n    loaded = json.load(f)",
            "print(loaded)",
        ],
        edit: 0,
        source: "import json\ncfg = {'k': 2}",
    },
    Case {
        name: "a path held in a variable",
        cells: &[
            "path = 'out.csv'",
            "import pandas as pd\npd.DataFrame({'a': [1]}).to_csv(path, index=False)",
            "print(pd.read_csv(path))",
        ],
        edit: 1,
        source: "import pandas as pd\npd.DataFrame({'a': [2]}).to_csv(path, index=False)",
    },
    Case {
        name: "a rebinding computed from the cell's own input",
        cells: &["t = 1", "t = t + 2", "print(t)"],
        edit: 1,
        source: "t = t + 3",
    },
    Case {
        name: "a field of a nested dict changed through a name for it",
        cells: &[
            "cfg = {'model': {'lr': 1}}",
            "m = cfg['model']",
            "m['lr'] = 2",
            "print(cfg)",
        ],
        edit: 2,
        source: "m['lr'] = 3",
    },
    Case {
        name: "an augmented assignment to every item by index",
        cells: &[
            "xs = [1, 2]",
            "for i in range(len(xs)):\n    xs[i] *= 2",
            "print(xs)",
        ],
        edit: 1,
        source: "for i in range(len(xs)):\n    xs[i] *= 3",
    },
    Case {
        name: "a function incrementing a global counter",
        cells: &[
            "count = 0",
            "def inc():\n    global count\n    count += 1",
            "inc()",
            "print(count)",
        ],
        edit: 2,
        source: "inc()\ninc()",
    },
    Case {
        name: "a key deleted",
        cells: &["d = {'a': 1, 'b': 2}", "del d['a']", "print(d)"],
        edit: 1,
        source: "del d['a']\nprint('gone')",
    },
    Case {
        name: "a pop from a list",
        cells: &[
            "stack = [1, 2, 3]",
            "top = stack.pop()",
            "print(top, stack)",
        ],
        edit: 1,
        source: "top = stack.pop() * 10",
    },
    Case {
        name: "a reader below an in-place sort",
        cells: &["xs = [3, 1, 2]", "xs.sort()", "print(xs)"],
        edit: 2,
        source: "print(xs[0])",
    },
    Case {
        name: "a reader above the edited rebinding stays out",
        cells: &["a = 1", "print(a)", "a = 2"],
        edit: 2,
        source: "a = 3",
    },
    Case {
        name: "an attribute set through an alias",
        cells: &[
            "class Obj:\n    pass",
            "a = Obj()\nb = a",
            "b.x = 5",
            "print(a.x)",
        ],
        edit: 2,
        source: "b.x = 6",
    },
    Case {
        name: "an append to the source of a shallow copy",
        cells: &["a = [1]", "b = list(a)", "a.append(2)", "print(b)"],
        edit: 2,
        source: "a.append(3)",
    },
    Case {
        name: "an augmented assignment to each value by key",
        cells: &[
            "scores = {'x': 1, 'y': 2}",
            "for k in scores:\n    scores[k] += 10",
            "print(scores)",
        ],
        edit: 1,
        source: "for k in scores:\n    scores[k] += 20",
    },
    Case {
        name: "numpy save and load",
        cells: &[
            "import numpy as np\nx = np.arange(3)",
            "np.save('arr.npy', x)",
            "y = np.load('arr.npy')",
            "print(y.sum())",
        ],
        edit: 0,
        source: "import numpy as np\nx = np.arange(4)",
    },
    Case {
        name: "pickle dump and load through handles",
        cells: &[
            "import pickle\nmodel = {'w': 1}",
            "with open('m.pkl', 'wb') as f:\n    pickle.dump(model, f)",
            "with open('m.pkl', 'rb') as f:\n    loaded = pickle.load(f)",
            "print(loaded)",
        ],
        edit: 0,
        source: "import pickle\nmodel = {'w': 2}",
    },
    Case {
        name: "lines written in a loop through a handle",
        cells: &[
            "with open('log.txt', 'w') as f:\n    for i in range(3):\n        f.write(str(i))",
            "print(open('log.txt').read())",
        ],
        edit: 0,
        source: "with open('log.txt', 'w') as f:\n    for i in range(4):\n        f.write(str(i))",
    },
    Case {
        name: "a user function appending to a file",
        cells: &[
            "def log(msg):\n    with open('log.txt', 'a') as f:\n        f.write(msg)",
            "open('log.txt', 'w').close()",
            "log('a')",
            "print(open('log.txt').read())",
        ],
        edit: 2,
        source: "log('b')",
    },
    Case {
        name: "to_csv in append mode",
        cells: &[
            "import pandas as pd\ndf = pd.DataFrame({'a': [1]})",
            "df.to_csv('out.csv', index=False)",
            "df.to_csv('out.csv', mode='a', header=False, index=False)",
            "print(open('out.csv').read())",
        ],
        edit: 2,
        source: "df.to_csv('out.csv', mode='a', header=False, index=True)",
    },
    Case {
        name: "a path bound in the same cell",
        cells: &[
            "fname = 'r.txt'\nwith open(fname, 'w') as f:\n    f.write('1')",
            "print(open('r.txt').read())",
        ],
        edit: 0,
        source: "fname = 'r.txt'\nwith open(fname, 'w') as f:\n    f.write('2')",
    },
    Case {
        name: "fillna in place edited",
        cells: &[
            "import pandas as pd\nimport numpy as np",
            "df = pd.DataFrame({'a': [1.0, np.nan]})",
            "df.fillna(0, inplace=True)",
            "print(df['a'].sum())",
        ],
        edit: 2,
        source: "df.fillna(1, inplace=True)",
    },
    Case {
        name: "a new column from another, a reader of a third",
        cells: &[
            "import pandas as pd",
            "df = pd.DataFrame({'a': [1, 2], 'c': [5, 6]})",
            "df['b'] = df['a'] + 1",
            "print(df['c'].mean())",
        ],
        edit: 2,
        source: "df['b'] = df['a'] + 2",
    },
    Case {
        name: "a column read through an attribute",
        cells: &[
            "import pandas as pd",
            "df = pd.DataFrame({'a': [1, 2]})",
            "df['b'] = df['a'] * 2",
            "print(df.b.sum())",
        ],
        edit: 2,
        source: "df['b'] = df['a'] * 5",
    },
    Case {
        name: "a dataframe shape read after a new column",
        cells: &[
            "import pandas as pd",
            "df = pd.DataFrame({'a': [1, 2]})",
            "df['b'] = 0",
            "print(df.shape)",
        ],
        edit: 2,
        source: "df['b'] = 1",
    },
    Case {
        name: "an alias list of frames changed in a loop",
        cells: &[
            "import pandas as pd\ntrain = pd.DataFrame({'x': [1]})\ntest = pd.DataFrame({'x': [2]})",
            "full = [train, test]",
            "for d in full:\n    d['y'] = d['x'] * 2",
            "print(train)",
        ],
        edit: 2,
        source: "for d in full:\n    d['y'] = d['x'] * 3",
    },
    Case {
        name: "a cell that only prints something else",
        cells: &["a = [1]\nb = 2", "a.append(5)", "print(b)"],
        edit: 1,
        source: "a.append(6)",
    },
    Case {
        name: "an edit that removes an append",
        cells: &["xs = []", "xs.append(1)", "print(xs)"],
        edit: 1,
        source: "pass",
    },
    Case {
        name: "an edited cell that rebinds a name another name shared",
        cells: &["a = [1]", "b = a", "a = [2]", "print(a, b)"],
        edit: 2,
        source: "a = [3]",
    },
    Case {
        name: "a counter dict bumped in a loop over words",
        cells: &[
            "words = ['a', 'b', 'a']",
            "counts = {}",
            "for w in words:\n    counts[w] = counts.get(w, 0) + 1",
            "print(counts)",
        ],
        edit: 2,
        source: "for w in words:\n    counts[w] = counts.get(w, 0) + 2",
    },
    Case {
        name: "json written through a handle then read back, another file kept",
        cells: &[
            "import json",
            "with open('a.json', 'w') as f:\n    json.dump({'v': 1}, f)",
            "with open('b.json', 'w') as f:\n    json.dump({'v': 2}, f)",
            "print(json.load(open('b.json')))",
        ],
        edit: 1,
        source: "with open('a.json', 'w') as f:\n    json.dump({'v': 3}, f)",
    },
    Case {
        name: "a filter rebinding a frame, its reader",
        cells: &[
            "import pandas as pd",
            "df = pd.DataFrame({'a': [1, 2, 3]})",
            "df = df[df.a > 1]",
            "print(df['a'].tolist())",
        ],
        edit: 2,
        source: "df = df[df.a < 3]",
    },
    Case {
        name: "a cell set with loc, a reader of another column",
        cells: &[
            "import pandas as pd",
            "df = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})",
            "df.loc[0, 'a'] = 5",
            "print(df['a'].sum())",
        ],
        edit: 2,
        source: "df.loc[0, 'a'] = 6",
    },
    Case {
        name: "a list of groups filled with setdefault in a loop",
        cells: &[
            "pairs = [('a', 1), ('b', 2), ('a', 3)]",
            "groups = {}\nfor k, v in pairs:\n    groups.setdefault(k, []).append(v)",
            "print(groups['a'])",
        ],
        edit: 1,
        source: "groups = {}\nfor k, v in pairs:\n    groups.setdefault(k, []).append(v * 10)",
    },
    Case {
        name: "a method appending to an attribute, a reader of another attribute",
        cells: &[
            "class Run:\n    def __init__(self):\n        self.history = []\n        self.name = 'r'\n    def log(self, x):\n        self.history.append(x)",
            "run = Run()",
            "run.log(1)",
            "print(run.name)",
        ],
        edit: 2,
        source: "run.log(2)",
    },
    Case {
        name: "an edited function, its callers",
        cells: &["def f(x):\n    return x * 2", "y = f(3)", "print(y)"],
        edit: 0,
        source: "def f(x):\n    return x * 3",
    },
    Case {
        name: "an edited function that changes its argument",
        cells: &[
            "def norm(d):\n    d['x'] /= 10",
            "data = {'x': 100}",
            "norm(data)",
            "print(data)",
        ],
        edit: 0,
        source: "def norm(d):\n    d['x'] /= 100",
    },
    Case {
        name: "a constant used by later cells",
        cells: &[
            "N = 3",
            "xs = list(range(N))",
            "total = sum(xs)",
            "print(total)",
        ],
        edit: 0,
        source: "N = 4",
    },
    Case {
        name: "lines printed to a handle",
        cells: &[
            "with open('r.txt', 'w') as f:\n    print('a', file=f)",
            "print(open('r.txt').read())",
        ],
        edit: 0,
        source: "with open('r.txt', 'w') as f:\n    print('b', file=f)",
    },
    Case {
        name: "a file removed",
        cells: &[
            "with open('tmp.txt', 'w') as f:\n    f.write('x')",
            "import os\nos.remove('tmp.txt')",
        ],
        edit: 1,
        source: "import os\nos.remove('tmp.txt')\nprint('removed')",
    },
    Case {
        name: "rename inplace edited",
        cells: &[
            "import pandas as pd",
            "df = pd.DataFrame({'a': [1]})",
            "df.rename(columns={'a': 'b'}, inplace=True)",
            "print(df.columns[0])",
        ],
        edit: 2,
        source: "df.rename(columns={'a': 'c'}, inplace=True)",
    },
    Case {
        name: "a derived list sorted in place",
        cells: &[
            "xs = [3, 1, 2]",
            "ys = [x * 2 for x in xs]",
            "ys.sort(reverse=True)",
            "print(ys[0])",
        ],
        edit: 1,
        source: "ys = [x * 3 for x in xs]",
    },
    Case {
        name: "a reader of an untouched name in the edited cell's inputs",
        cells: &["a = [1]\nb = [2]", "c = a + b", "print(b)"],
        edit: 1,
        source: "c = b + a",
    },
    Case {
        name: "a loop appending to a list built above, edited reader",
        cells: &[
            "out = []",
            "for i in range(3):\n    out.append(i)",
            "n = len(out)",
            "print(n)",
        ],
        edit: 2,
        source: "n = len(out) + 1",
    },
    Case {
        name: "an edit adding an alias",
        cells: &["a = [1]", "b = [2]", "print(a)"],
        edit: 1,
        source: "b = a",
    },
    Case {
        name: "an append to a slice of a list leaves the list",
        cells: &["a = [[1], [2]]", "b = a[:]", "b.append([3])", "print(a)"],
        edit: 2,
        source: "b.append([4])",
    },
    Case {
        name: "a view of an array changed in place",
        cells: &[
            "import numpy as np",
            "x = np.zeros(3)",
            "v = x[:2]",
            "v += 1",
            "print(x)",
        ],
        edit: 3,
        source: "v += 2",
    },
    Case {
        name: "a method's change read through the attribute",
        cells: &[
            "class Run:\n    def __init__(self):\n        self.history = []\n        self.name = 'r'\n    def log(self, x):\n        self.history.append(x)",
            "run = Run()",
            "run.log(1)",
            "print(run.history)",
        ],
        edit: 2,
        source: "run.log(2)",
    },
    Case {
        name: "a method calling another method of its instance",
        cells: &[
            "class Acc:\n    def __init__(self):\n        self.total = 0\n        self.label = 'a'\n    def add(self, x):\n        self.total += x\n    def add_twice(self, x):\n        self.add(x)\n        self.add(x)",
            "acc = Acc()",
            "acc.add_twice(1)",
            "print(acc.total)",
        ],
        edit: 2,
        source: "acc.add_twice(2)",
    },
];

/// Cases nbsight does not plan exactly yet, with why (the test checks they
/// still differ, so that a fix moves them out of this list).
const KNOWN_GAPS: &[(&str, &str)] = &[(
    "a dataframe shape read after a new column",
    "reading `df.shape` reads the whole frame: that the edit rebinds a column the frame \
         already has, so its shape stays, is not known statically",
)];

/// The Python that runs the oracle: `NBSIGHT_TEST_PYTHON` (which
/// `scripts/test` points at its virtualenv, where pandas and numpy are
/// pinned), else the `python3` on PATH.
fn oracle_python() -> String {
    std::env::var("NBSIGHT_TEST_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// The smallest plans, by brute force in a Python process.
fn oracle(case: &Case, history: &[usize]) -> Vec<Vec<usize>> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracle/rerun_oracle.py");
    let input = serde_json::json!({
        "cells": case.cells,
        "history": history,
        "edit": {"cell": case.edit, "source": case.source},
    });
    let python = oracle_python();
    let mut child = Command::new(&python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {python} ({e}): set NBSIGHT_TEST_PYTHON"));
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.to_string().as_bytes())
        .expect("writes the case");
    let out = child.wait_with_output().expect("the oracle ends");
    assert!(out.status.success(), "the oracle failed on {}", case.name);
    serde_json::from_slice(&out.stdout).expect("the oracle prints JSON")
}

/// Fails once, with what to do, when the oracle's Python lacks the
/// libraries the cases import (run through `./scripts/test`, which sets
/// `NBSIGHT_TEST_PYTHON` to its virtualenv).
fn require_oracle_libraries() {
    let python = oracle_python();
    let ok = Command::new(&python)
        .args(["-c", "import numpy, pandas"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "{python} cannot import numpy and pandas, which the oracle's cases use: \
         run ./scripts/test, or set NBSIGHT_TEST_PYTHON to a Python that has them \
         (e.g. .venv/bin/python after ./scripts/test made it)"
    );
}

#[test]
fn rerun_plans_after_an_edit_are_the_smallest_that_reproduce_run_all() {
    require_oracle_libraries();
    let effects = Effects::builtin();
    let mut wrong = Vec::new();
    let mut exact_count = 0;
    for case in CASES {
        let notebook = cells(case.cells);
        let history: Vec<usize> = (0..case.cells.len()).collect();
        let truth = oracle(case, &history);
        assert!(
            !truth.is_empty(),
            "no plan reproduces Run All: {}",
            case.name
        );
        let session = WhatIfSession::new(&notebook, &effects, &Executed::Cells(history.clone()))
            .expect("valid history");
        let edit = Event::Edit {
            cell: case.edit,
            source: case.source.into(),
        };
        let report = session.query(&edit, None).expect("valid edit");
        let plan: Vec<usize> = report.rerun_plan.iter().map(|c| c.index()).collect();
        let exact = truth.contains(&plan);
        exact_count += usize::from(exact);
        if !exact {
            eprintln!(
                "not exact: {}: nbsight {plan:?}, truth {truth:?}",
                case.name
            );
        }
        let known_gap = KNOWN_GAPS.iter().any(|(name, _)| *name == case.name);
        if exact == known_gap {
            let note = if known_gap {
                " (a known gap, now exact: take it off KNOWN_GAPS)"
            } else {
                ""
            };
            wrong.push(format!(
                "{}{note}: nbsight {plan:?}, truth {truth:?}",
                case.name
            ));
        }
    }
    eprintln!("re-run plans exact: {exact_count} of {}", CASES.len());
    assert!(
        wrong.is_empty(),
        "{} of {} plans are not as expected:\n{}",
        wrong.len(),
        CASES.len(),
        wrong.join("\n")
    );
}
