//! The straight-line solve (`solve::straight`) gives exactly the facts of the
//! fixpoint solvers (liveness, DEAD and WRITTEN) on every one-block scope:
//! hand-written cells, every cell of the fixtures and of the shared corpus
//! (`../shared/corpus`, beside the repository; skipped when absent).

#![allow(clippy::print_stdout, clippy::print_stderr)] // a test says what it compared or skipped

use std::path::Path;

use nbsight_dataflow::cfg::Cfg;
use nbsight_dataflow::solve::{
    Fact, MustWrite, Scratch, live_at_entry, must_write_at_exit, single_block, solve_block,
};
use nbsight_dataflow::symbol::SymbolTable;
use nbsight_dataflow::{Effects, analyze_notebook};

/// The facts of a one-block `cfg` by the general solvers and by the
/// straight-line pass, each sorted; `None` for another graph.
fn both(cfg: &Cfg, table: &SymbolTable) -> Option<(Vec<String>, Vec<String>)> {
    let block = single_block(cfg)?;
    let modes = [MustWrite::Dead, MustWrite::Written];
    let mut scratch = Scratch::default();
    scratch.order.compute(cfg);
    let mut general = Vec::new();
    live_at_entry(cfg, table, &mut scratch, |s| {
        general.push(format!("live {}", table.name(s)))
    });
    for mode in modes {
        must_write_at_exit(cfg, table, &mut scratch, mode, |s| {
            general.push(format!("{mode:?} {}", table.name(s)))
        });
    }
    let mut straight = Vec::new();
    solve_block(cfg, table, &mut scratch, block, &modes, |s, fact| {
        straight.push(match fact {
            Fact::Live => format!("live {}", table.name(s)),
            Fact::Must(mode) => format!("{mode:?} {}", table.name(s)),
        })
    });
    general.sort();
    straight.sort();
    straight.dedup();
    Some((general, straight))
}

/// Compares the two on every cell of `notebook`; the number of one-block
/// cells compared.
fn compare(notebook: &nbsight_notebook::Notebook, effects: &Effects) -> usize {
    let analysis = analyze_notebook(notebook, effects);
    let mut compared = 0;
    for cell in &analysis.cells {
        let Some(module) = &cell.module else { continue };
        if let Some((general, straight)) = both(&module.cfg, &module.table) {
            assert_eq!(
                general,
                straight,
                "{} cell {}",
                notebook.path.display(),
                cell.index
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn hand_written_cells_agree() {
    let cells = [
        "x = 1\ny = x + z\nprint(y)",
        "df = df.dropna()\ndf['a'] = df.b * 2\nm = df.a.mean()",
        "lst.append(3)\nlst = [1]\nlst[0] = 2\ndel q",
        "a.b.c = a.b.c + 1\nt += 2\nu = u\nv.w = 1\nprint(v, v.w, v.k)",
        "d['k'] = 1\nd = {}\nd['j'] = d['k']",
        "x = y if c else z\nw = p and q",
        "model.fit(X, y)\nscore = model.score(X_test, y_test)",
        "import numpy as np\nnp.random.seed(0)\na = np.zeros(3)\na[0] += 1",
        "",
    ];
    let text: String = cells.iter().map(|c| format!("# %%\n{c}\n")).collect();
    let notebook = nbsight_notebook::load_percent_str(Path::new("cells.py"), &text);
    assert_eq!(notebook.cells.len(), cells.len());
    assert_eq!(compare(&notebook, &Effects::builtin()), cells.len());
}

/// Compares the two on every notebook under `dir`; the one-block cells
/// compared and the notebooks.
fn compare_dir(dir: &Path, effects: &Effects) -> (usize, usize) {
    let paths = nbsight_notebook::find_notebooks(dir).notebooks;
    let compared = paths
        .iter()
        .filter_map(|path| nbsight_notebook::load_path(path).ok())
        .map(|notebook| compare(&notebook, effects))
        .sum();
    (compared, paths.len())
}

#[test]
fn fixture_and_corpus_cells_agree() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let effects = Effects::builtin();
    let (compared, notebooks) = compare_dir(&manifest.join("../../tests/fixtures"), &effects);
    eprintln!("fixtures: {compared} one-block cells compared in {notebooks} notebooks");
    assert!(compared > 50, "the fixtures hold many one-block cells");
    let corpus = manifest.join("../../../shared/corpus");
    if !corpus.is_dir() {
        eprintln!("corpus not found at {}; skipped", corpus.display());
        return;
    }
    let (compared, notebooks) = compare_dir(&corpus, &effects);
    eprintln!("corpus: {compared} one-block cells compared in {notebooks} notebooks");
    assert!(compared > 1000, "real notebooks hold many one-block cells");
}
