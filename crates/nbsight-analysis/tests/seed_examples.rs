//! The worked examples of the seeds (`../shared/seed-notes.md`): NBLyzer's
//! Figure 1 and nbsafety's Figure 1, with the answers the papers state.

use std::path::{Path, PathBuf};

use nbsight_analysis::{Event, History, WhatIfOptions, WhatIfReport, what_if};
use nbsight_dataflow::Effects;
use nbsight_notebook::{Notebook, load_path};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(relative: &str) -> Notebook {
    load_path(&root().join(relative)).expect("fixture loads")
}

fn run(notebook: &Notebook, event: Event, history: History, k: Option<usize>) -> WhatIfReport {
    let effects = Effects::builtin();
    what_if(notebook, &effects, &event, &WhatIfOptions { history, k }).expect("query is valid")
}

fn figure1() -> Notebook {
    load("examples/nblyzer_figure1.ipynb")
}

#[test]
fn debug_print() {
    let nb = figure1();
    let r = run(&nb, Event::Execute(1), History::Fresh, None);
    println!("{}", serde_json::to_string_pretty(&r).unwrap());
    let r = run(&nb, Event::Edit { cell: 1, source: "import pandas as pd\nd = pd.read_csv(\"other.csv\")\n".into() }, History::Fresh, Some(2));
    println!("{}", serde_json::to_string_pretty(&r).unwrap());
}
