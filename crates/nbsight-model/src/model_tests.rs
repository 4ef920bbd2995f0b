//! An edited model equals the model of the edited notebook built from
//! scratch, whether the edit takes the in-place path (one cell recompiled
//! and linked) or the full rebuild.

use nbsight_dataflow::Effects;

use super::*;
use crate::testing::notebook;

const CELLS: [&str; 6] = [
    "import pandas as pd\ndf = pd.read_csv('a.csv')",
    "def clean(d):\n    return d.dropna(subset=[col])",
    "col = 'x'\ndf = clean(df)",
    "m = df.mean()\nprint(m)",
    "list = [1, 2]\nn = len(df)",
    "total = sum(list) + n",
];

/// Edits cell `index` to `source` both ways and compares.
fn assert_edit_matches_rebuild(index: usize, source: &str) {
    let effects = Effects::builtin();
    let nb = notebook(&CELLS);
    let base = NotebookModel::new(&nb, &effects);
    let edited = nb.cells[index].edited(source, &nb.language);
    let incremental = base.with_edit(&nb.cells, index, &edited, &effects);
    let mut sources = CELLS;
    sources[index] = source;
    let scratch = NotebookModel::new(&notebook(&sources), &effects);
    assert_eq!(
        incremental.describe_links(),
        scratch.describe_links(),
        "edit of cell {index} to {source:?}"
    );
    for (a, b) in incremental.cells.iter().zip(&scratch.cells) {
        assert_eq!(
            a.compiled.as_ref().map(|c| &c.summary),
            b.compiled.as_ref().map(|c| &c.summary)
        );
    }
}

#[test]
fn a_comment_or_a_new_expression_is_edited_in_place() {
    let effects = Effects::builtin();
    let nb = notebook(&CELLS);
    let base = NotebookModel::new(&nb, &effects);
    assert!(
        base.edit_in_place(
            3,
            &nb.cells[3].edited("m = df.median()\nprint(m)", &nb.language),
            &effects
        )
        .is_some()
    );
    assert_edit_matches_rebuild(3, "m = df.mean()\nprint(m)\n# edited\n");
    // Appended text that does not parse: the cell is broken, as rebuilt.
    assert_edit_matches_rebuild(3, "m = df.mean()\nprint(m)\n)\n");
    assert_edit_matches_rebuild(3, "m = df.mean()\nprint(m)\n\"\"\"\n");
    assert_edit_matches_rebuild(3, "m = df.median() + n\nprint(m)");
    assert_edit_matches_rebuild(0, "import pandas as pd\ndf = pd.read_csv('b.csv')");
}

#[test]
fn edits_that_change_what_other_cells_see_rebuild() {
    let effects = Effects::builtin();
    let nb = notebook(&CELLS);
    let base = NotebookModel::new(&nb, &effects);
    for (index, source) in [
        // Another free global of a function other cells call.
        (1, "def clean(d):\n    return d.dropna(subset=[col, other])"),
        // Binds another name.
        (3, "m = df.mean()\nq = 1"),
        // Imports differently.
        (0, "import polars as pd\ndf = pd.read_csv('a.csv')"),
        // No longer binds a builtin name others read.
        (4, "n = len(df)"),
        // A syntax error.
        (3, "m = df.mean("),
    ] {
        let edited = nb.cells[index].edited(source, &nb.language);
        assert!(
            base.edit_in_place(index, &edited, &effects).is_none(),
            "{source}"
        );
        assert_edit_matches_rebuild(index, source);
    }
}

#[test]
fn a_trailing_comment_keeps_the_cell_program() {
    let effects = Effects::builtin();
    let nb = notebook(&CELLS);
    let base = NotebookModel::new(&nb, &effects);
    let edit = |source: &str| {
        let edited = nb.cells[3].edited(source, &nb.language);
        match base.edit_in_place(3, &edited, &effects) {
            Some(model) => model,
            None => panic!("{source:?} is not edited in place"),
        }
    };
    let program = |model: &NotebookModel| model.cells[3].compiled.clone();
    let lines = |model: &NotebookModel| {
        model.cells[3].program().map(|p| {
            p.calls
                .iter()
                .map(|c| (c.line, c.column))
                .collect::<Vec<_>>()
        })
    };
    // Appended: the same statements at the same places, the same program.
    let appended = edit("m = df.mean()\nprint(m)\n# edited\n");
    assert!(matches!(
        (program(&base), program(&appended)),
        (Some(a), Some(b)) if Arc::ptr_eq(&a, &b)
    ));
    assert_edit_matches_rebuild(3, "m = df.mean()\nprint(m)\n# edited\n");
    // A comment above the code moves it: compiled again, at its new lines.
    let source = "# note\nm = df.mean()\nprint(m)";
    let moved = edit(source);
    assert!(matches!(
        (program(&base), program(&moved)),
        (Some(a), Some(b)) if !Arc::ptr_eq(&a, &b)
    ));
    let mut sources = CELLS;
    sources[3] = source;
    let scratch = NotebookModel::new(&notebook(&sources), &effects);
    assert_eq!(lines(&moved), lines(&scratch));
    assert_ne!(lines(&moved), lines(&base));
}

#[test]
fn a_model_rebuilt_from_an_older_one_equals_a_fresh_one_and_forgets_old_texts() {
    // An editor's model, rebuilt at each keystroke from the last one.
    let effects = Effects::builtin();
    let mut model = NotebookModel::new(&notebook(&CELLS), &effects);
    let mut sources = CELLS;
    let typed = ["m = df.mea", "m = df.mean", "m = df.mean() + n\nprint(m)"];
    for text in typed {
        sources[3] = text;
        let nb = notebook(&sources);
        model = model.with_cells(&nb.cells, &effects);
        model.forget_other_sources();
        let scratch = NotebookModel::new(&nb, &effects);
        assert_eq!(model.describe_links(), scratch.describe_links(), "{text}");
        for (a, b) in model.cells.iter().zip(&scratch.cells) {
            assert_eq!(
                a.compiled.as_ref().map(|c| &c.summary),
                b.compiled.as_ref().map(|c| &c.summary)
            );
        }
    }
    // Only the current cells' texts stay cached.
    assert!(model.parsed.len() <= CELLS.len());
    assert!(model.cache.len() <= CELLS.len());
    assert!(
        !model
            .parsed
            .keys()
            .any(|k| k.starts_with("m = df.mea\n") || &**k == "m = df.mea")
    );
}
