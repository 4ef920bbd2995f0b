//! Every `.ipynb` of the shared corpus (`../shared/corpus` beside the repository)
//! loads without panicking and all its Python cells parse. Skipped when absent.

#![allow(clippy::print_stdout, clippy::print_stderr)] // a test says what it compared or skipped

use std::path::PathBuf;

use nbsight_notebook::load_path;

#[test]
fn corpus_notebooks_load_and_parse() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !root.is_dir() {
        return;
    }
    let paths = nbsight_notebook::find_notebooks(&root).notebooks;
    let (mut loaded, mut failed, mut cells, mut python, mut with_errors, mut opaque) =
        (0, 0, 0, 0, 0, 0);
    for path in &paths {
        match load_path(path) {
            Ok(nb) => {
                loaded += 1;
                cells += nb.cells.len();
                opaque += nb.cells.iter().filter(|c| c.form.is_opaque()).count();
                for cell in nb.python_cells() {
                    python += 1;
                    let parsed = cell.parse().expect("python cells parse");
                    if parsed.has_errors() {
                        with_errors += 1;
                        let issue = &parsed.errors[0];
                        eprintln!(
                            "{}:cell {}:{}:{}: {}",
                            path.display(),
                            cell.index,
                            issue.line,
                            issue.column,
                            issue.message
                        );
                    }
                }
            }
            Err(e) => {
                failed += 1;
                eprintln!("{e}");
            }
        }
    }
    println!(
        "corpus: {} notebooks, {loaded} loaded, {failed} failed; {cells} cells, \
         {python} Python cells ({with_errors} with syntax errors), {opaque} opaque",
        paths.len()
    );
    assert_eq!(loaded + failed, paths.len());
}
