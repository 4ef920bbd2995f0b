//! ## What it reports
//! A code cell that neither reads anything another cell defines nor defines
//! anything another cell reads (NBLyzer's isolated cells): it could be
//! deleted or moved anywhere without changing what the other cells compute.
//! Off by default.
//!
//! ## Why it matters
//! Such cells are often leftovers of exploration (a `print`, a quick
//! `df.head()` on data no longer loaded) that make the notebook longer to
//! read and to run.
//!
//! ## Example
//! ```python
//! # %%
//! import pandas as pd
//!
//! # %%
//! orders = pd.read_csv("orders.csv")
//!
//! # %%
//! print("hello")
//!
//! # %%
//! orders["amount"].sum()
//! ```
//!
//! `nbsight check --select isolated-cell` reports:
//! ```text
//! cell 2:1:1: NBS201 neither reads nor defines anything another cell uses: a leftover of exploration? (safe to remove or move out of the notebook)
//! ```
//!
//! ## Not reported
//! - Cells holding only IPython magics (`%matplotlib inline`), markdown and
//!   cells that are not Python.
//! - A cell that only reads what another cell defines (`orders.describe()`):
//!   it depends on that cell.
//! - A cell that writes or deletes files (`to_csv`, `savefig`, `os.remove`,
//!   `open(path, "w")`, a Keras `ModelCheckpoint(path)` or `CSVLogger(path)`
//!   callback, which the `fit` given it writes): a later cell may read them
//!   by their path; and a
//!   cell that names a file such a cell names (`open("my_df.csv")` after
//!   `df.to_csv("my_df.csv")`), also inside a longer text (`HTML('<iframe
//!   src=map.html>')` after `m.save("map.html")`).
//! - A cell that changes library or interpreter state the cells after it
//!   rely on: configuration calls (`pd.set_option`, `plt.style.use`,
//!   `sns.set()`, `warnings.filterwarnings`, `sys.path.append`), global
//!   random seeds (`np.random.seed(0)`), stores into a module
//!   (`pd.options.display.max_rows = 10`), imports made for their effect
//!   (`from mpl_toolkits import mplot3d`, `import seaborn`) and magics that
//!   configure the kernel (`%matplotlib inline`, `%load_ext`).
//! - A cell that deletes a name another cell binds (`del X_mm`), and that
//!   cell: the deleting cell depends on it, and deleting may matter (a
//!   memory map writes its data to disk).
//! - A cell that may read any name (`eval(expr)`, `globals()[key]`, a
//!   helper whose method evaluates strings) when cells above it define
//!   something, and the cells defining something above such a cell.
//! - Links out of sight: a `%run script.py` or `from module import *` cell
//!   whose names later cells read (and those readers); a cell whose names a
//!   cell that does not parse writes (it may read or bind them there); a
//!   cell whose definitions a function or method body of another cell reads
//!   (a class used only inside another class's method), or whose functions
//!   and methods read what another cell defines.

use crate::driver::Driver;
use crate::finding::Finding;
use crate::hidden::OutOfSight;
use crate::registry::Rule;
use nbsight_dataflow::effects::Role;
use nbsight_dataflow::global_state::{imported_for_effect, magic_changes_global_state};
use nbsight_model::NotebookModel;
use nbsight_model::program::WriteKind;
use nbsight_notebook::OneIndexed;
use nbsight_whatif::is_isolated;

pub(crate) const DRIVER: Driver = Driver::new("isolated_cell", isolated_cells);

/// Every code cell with Python statements that no other code cell depends
/// on and that depends on none.
fn isolated_cells(model: &NotebookModel, findings: &mut Vec<Finding>) {
    let hidden = OutOfSight::of(model);
    for cell in model.code_cells() {
        if !cell.compiled.as_deref().is_some_and(|c| c.has_python) {
            continue;
        }
        if is_isolated(model, cell)
            && !hidden.connects(model, cell)
            && !writes_files(cell)
            && !changes_global_state(model, cell)
            && !linked_by_delete(model, cell)
            && !reads_a_file_another_writes(model, cell)
        {
            findings.push(Finding::new(
                model,
                Rule::IsolatedCell,
                cell.index,
                (OneIndexed::MIN, OneIndexed::MIN),
                "neither reads nor defines anything another cell uses: a leftover of exploration? (safe to remove or move out of the notebook)".into(),
                vec![cell.index],
            ));
        }
    }
}

/// The cell writes or deletes files (`to_csv`, `savefig`, `os.remove`,
/// `open(path, "w")`): a later cell, or whoever runs the notebook, may read
/// them, so the cell is no leftover even when no variable links it.
fn writes_files(cell: &nbsight_model::CellInfo) -> bool {
    let by_role = cell.program().is_some_and(|p| {
        p.calls
            .iter()
            .any(|c| c.has(Role::WriteFile) || c.has(Role::DeleteFile))
    });
    by_role
        || cell
            .parsed
            .as_deref()
            .is_some_and(|parsed| opens_for_writing(parsed.source()))
}

/// The cell changes library or interpreter state later cells rely on
/// (`nbsight_dataflow::global_state`): a configuration call or a global
/// seed, a store into an imported module (`pd.options.display.max_rows =
/// 10`), an import made for its effect, a magic that configures the kernel.
fn changes_global_state(model: &NotebookModel, cell: &nbsight_model::CellInfo) -> bool {
    let Some(compiled) = cell.compiled.as_deref() else {
        return false;
    };
    let summary = &compiled.summary;
    if !summary.global_changes.is_empty()
        || summary.imports.iter().any(|q| imported_for_effect(q))
        || summary.magics.iter().any(|m| magic_changes_global_state(m))
        || program_has(compiled, Role::SeedRandom)
    {
        return true;
    }
    // A store into a module (a name some cell binds by an import).
    compiled.mutated.iter().any(|v| {
        model.code_cells().any(|c| {
            c.compiled
                .as_deref()
                .is_some_and(|x| x.imports.iter().any(|(i, _)| *i == v))
        })
    })
}

/// The cell deletes a name another cell binds (`del X_mm`), or binds one
/// another cell deletes: the deleting cell fails unless the binding one ran
/// first, and ending the object may matter (a memory map writes its data to
/// disk when deleted).
fn linked_by_delete(model: &NotebookModel, cell: &nbsight_model::CellInfo) -> bool {
    let deleted = |c: &nbsight_model::CellInfo| -> Vec<nbsight_model::Var> {
        c.program().map_or_else(Vec::new, |p| {
            p.stmts
                .iter()
                .flat_map(|s| s.writes.iter())
                .filter(|(_, kind)| *kind == WriteKind::Delete)
                .map(|(v, _)| *v)
                .collect()
        })
    };
    let own = deleted(cell);
    model.code_cells().any(|c| {
        c.index != cell.index
            && (own.iter().any(|v| c.outputs.contains(*v))
                || deleted(c).iter().any(|v| cell.outputs.contains(*v)))
    })
}

fn program_has(compiled: &nbsight_model::Compiled, role: Role) -> bool {
    compiled.program.calls.iter().any(|c| c.has(role))
}

/// The cell names a file that a cell writing files names too (a string
/// literal that looks like a path there: `"my_df.csv"`), in a string
/// literal of its own, alone or inside a longer text (`HTML('<iframe
/// src=plot.html>')`): it may read what that cell wrote (`to_csv("my_df.csv")`
/// then `open("my_df.csv")`).
fn reads_a_file_another_writes(model: &NotebookModel, cell: &nbsight_model::CellInfo) -> bool {
    let Some(parsed) = cell.parsed.as_deref() else {
        return false;
    };
    let own: Vec<&str> = string_literals(parsed.source()).collect();
    !own.is_empty()
        && model.code_cells().any(|c| {
            c.index != cell.index
                && writes_files(c)
                && c.parsed.as_deref().is_some_and(|p| {
                    path_literals(p.source()).any(|path| {
                        own.iter().any(|literal| {
                            *literal == path || looks_like_a_file(path) && names_path(literal, path)
                        })
                    })
                })
        })
}

/// A file name with an extension (`plot.html`, `out/a.csv`), not a format
/// (`%.3f`, `{:.2f}`): what a longer text may name.
fn looks_like_a_file(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name.rsplit_once('.').is_some_and(|(stem, extension)| {
        !stem.is_empty()
            && stem
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
            && (1..=5).contains(&extension.len())
            && extension.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// `literal` is `path`, or holds it as a whole word of a longer text
/// (`<iframe src=plot.html width=700>` holds `plot.html`, not `a.html`
/// `xplot.html`).
fn names_path(literal: &str, path: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '\\');
    literal.match_indices(path).any(|(at, _)| {
        let before = literal[..at].chars().next_back();
        let after = literal[at + path.len()..].chars().next();
        before.is_none_or(|c| !part(c)) && after.is_none_or(|c| !part(c))
    })
}

/// The string literals of `source` that look like file paths: no spaces, a
/// `.` or a `/` (`"my_df.csv"`, `'data/train.json'`).
fn path_literals(source: &str) -> impl Iterator<Item = &str> {
    string_literals(source).filter(|literal| {
        !literal.is_empty()
            && literal.len() <= 260
            && !literal.contains(char::is_whitespace)
            && literal.contains(['.', '/'])
            && literal.chars().any(char::is_alphabetic)
    })
}

/// The one-line string literals of `source` (what is between two equal
/// quotes on a line).
fn string_literals(source: &str) -> impl Iterator<Item = &str> {
    let mut rest = source;
    std::iter::from_fn(move || {
        let open = rest.find(['\'', '"'])?;
        let quote = rest.as_bytes()[open] as char;
        let after = &rest[open + 1..];
        let Some(close) = after.find([quote, '\n']) else {
            rest = "";
            return None;
        };
        let literal = &after[..close];
        rest = &after[(close + 1).min(after.len())..];
        Some(literal)
    })
}

/// `open(...)` (also `codecs.open`, `path.open`) with a mode that writes:
/// a string literal of mode letters with `w`, `a`, `x` or `+`.
fn opens_for_writing(source: &str) -> bool {
    source.match_indices("open(").any(|(at, _)| {
        let mut depth = 0usize;
        let args = &source[at + "open(".len()..];
        let end = args
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' if depth == 0 => return true,
                    ')' | ']' | '}' => depth -= 1,
                    _ => {}
                }
                false
            })
            .map_or(args.len(), |(i, _)| i);
        let args = &args[..end];
        // String literals that follow a `,` or `=`: not the path.
        let mut rest = args;
        while let Some(open) = rest.find(['\'', '"']) {
            let quote = rest.as_bytes()[open] as char;
            let preceding = &rest[..open];
            let Some(close) = rest[open + 1..].find(quote) else {
                return false;
            };
            let literal = &rest[open + 1..open + 1 + close];
            let after_comma = preceding.trim_end().ends_with([',', '=']);
            if after_comma
                && !literal.is_empty()
                && literal.chars().all(|c| "rwabxt+U".contains(c))
                && literal.contains(['w', 'a', 'x', '+'])
            {
                return true;
            }
            rest = &rest[open + close + 2..];
        }
        false
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_dataflow::Effects;
    use nbsight_model::testing::notebook;

    /// The cells reported isolated.
    fn isolated(sources: &[&str]) -> Vec<usize> {
        let model = NotebookModel::new(&notebook(sources), &Effects::builtin());
        let mut findings = Vec::new();
        isolated_cells(&model, &mut findings);
        findings.iter().map(|f| f.cell.index()).collect()
    }

    #[test]
    fn cells_that_change_library_state_are_not_isolated() {
        let found = isolated(&[
            "%matplotlib inline\nimport matplotlib as mpl\nmpl.rc('axes', labelsize=14)",
            "import seaborn; seaborn.set()",
            "import warnings\nwarnings.filterwarnings('ignore')",
            "import pandas as pd\npd.set_option('display.max_rows', 10)",
            "import numpy as np\nnp.random.seed(42)",
            "from mpl_toolkits import mplot3d",
            "import sys\nsys.path.append('..')",
            "import pandas\npandas.options.display.max_columns = 5",
            "import math\nmath.sqrt(2)",
            "import os\nos.getcwd()",
            "X_mm = 1",
            "del X_mm",
        ]);
        assert_eq!(found, [8, 9]);
    }

    #[test]
    fn cells_that_may_read_any_name_link_to_the_cells_above() {
        let found = isolated(&[
            "rate = 0.5",
            "value = eval(expression)",
            "limit = 3",
            "print(globals()['limit'])",
            "late = 1",
            "print(eval('1 + 1'))",
        ]);
        // Cell 1 may read `rate`; `expression` is read but defined nowhere.
        assert_eq!(found, [4, 5]);
    }

    /// A file name inside a longer text (an HTML `<iframe>` showing the
    /// map a cell saved) links the two cells; a longer name that only
    /// contains it does not.
    #[test]
    fn a_file_named_inside_a_text_links_its_writer() {
        let found = isolated(&[
            "import folium
m = folium.Map()
m.save('plot_data.html')",
            "from IPython.display import HTML
HTML('<iframe src=plot_data.html width=700></iframe>')",
            "from IPython.display import HTML
HTML('<iframe src=old_plot_data.html width=700></iframe>')",
        ]);
        assert_eq!(found, [2]);
        assert!(names_path("<img src='a/plot.png'>", "a/plot.png"));
        assert!(!names_path("xplot.png", "plot.png"));
        assert!(looks_like_a_file("out/plot_data.html"));
        assert!(!looks_like_a_file("%.3f"));
        assert!(!looks_like_a_file("{:.2f}"));
    }

    #[test]
    fn a_file_links_its_writer_and_its_reader() {
        let found = isolated(&[
            "import pandas as pd\npd.DataFrame({'a': [1]}).to_csv('my_df.csv')",
            "for name in ('my_df.csv',):\n    with open(name) as f:\n        print(f.read())",
            "with open('notes.txt') as f:\n    print(f.read())",
        ]);
        assert_eq!(found, [2]);
        let literals: Vec<&str> =
            path_literals("open('a.csv'); x = \"two words.\"; y = 'data/x'; z = '1.5'").collect();
        assert_eq!(literals, ["a.csv", "data/x"]);
    }

    #[test]
    fn write_modes_are_seen() {
        assert!(opens_for_writing(
            "with open(path, 'w') as f:\n    f.write('x')"
        ));
        assert!(opens_for_writing(
            "f = codecs.open(\"out.txt\", mode=\"a\", encoding=\"utf-8\")"
        ));
        assert!(opens_for_writing("open(os.path.join(d, 'x'), 'wb')"));
        assert!(!opens_for_writing(
            "with open('data.txt') as f:\n    print(f.read())"
        ));
        assert!(!opens_for_writing("open('a.txt', 'r')"));
        assert!(!opens_for_writing("open('wax')"));
    }
}
