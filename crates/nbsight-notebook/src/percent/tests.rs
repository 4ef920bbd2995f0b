use std::path::Path;

use super::*;
use crate::form::{CodeForm, OpaqueReason};

fn load(text: &str) -> Notebook {
    load_percent_str(Path::new("s.py"), text)
}

#[test]
fn splits_cells_by_kind() {
    let nb = load(
        "# %% [markdown]\n# # Title\n#\n# Some *text*\n\n# %%\nimport os\nx = 1\n\n\n# %% [raw]\n# raw text\n\n# %% Plot [md]\n# more\n",
    );
    let kinds: Vec<_> = nb.cells.iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds,
        [
            CellKind::Markdown,
            CellKind::Code,
            CellKind::Raw,
            CellKind::Markdown
        ]
    );
    assert_eq!(nb.cells[0].source, "# Title\n\nSome *text*");
    assert_eq!(nb.cells[1].source, "import os\nx = 1");
    assert_eq!(nb.cells[2].source, "raw text");
    assert_eq!(nb.cells[3].source, "more");
    assert_eq!(
        nb.cells[1].origin,
        CellOrigin::Percent {
            first_line: OneIndexed::new(7).unwrap()
        }
    );
    assert!(
        nb.cells
            .iter()
            .all(|c| !c.id_from_file && c.execution_count.is_none())
    );
    assert_eq!(nb.format, SourceFormat::Percent);
    assert_eq!(nb.nbformat, None);
    assert!(nb.diagnostics.is_empty());
}

#[test]
fn no_marker_is_one_code_cell() {
    let nb = load("\n\nimport numpy as np\nprint(np.pi)\n\n");
    assert_eq!(nb.cells.len(), 1);
    assert_eq!(nb.cells[0].source, "import numpy as np\nprint(np.pi)");
    assert_eq!(
        nb.cells[0].origin,
        CellOrigin::Percent {
            first_line: OneIndexed::new(3).unwrap()
        }
    );
    assert!(nb.cells[0].is_python());
}

#[test]
fn blank_file_has_no_cells() {
    assert!(load("").cells.is_empty());
    assert!(load("\n  \n").cells.is_empty());
}

#[test]
fn text_before_first_marker_is_a_code_cell() {
    let nb = load("import os\n\n# %%\nx = 1\n");
    assert_eq!(nb.cells.len(), 2);
    assert_eq!(nb.cells[0].source, "import os");
    assert_eq!(nb.cells[1].source, "x = 1");
}

#[test]
fn header_is_skipped_and_language_honoured() {
    let text = "# ---\n# jupyter:\n#   kernelspec:\n#     language: R\n#     name: ir\n# ---\n\n# %%\nx <- 1\n# %% [markdown]\n# hi\n";
    let nb = load(text);
    assert_eq!(nb.language, Language::Other("R".into()));
    assert_eq!(nb.cells.len(), 2);
    assert_eq!(
        nb.cells[0].form,
        CodeForm::Opaque {
            reason: OpaqueReason::NonPythonKernel("R".into())
        }
    );
    assert_eq!(nb.cells[1].form, CodeForm::NotCode);
    assert_eq!(nb.diagnostics.len(), 1);
    assert_eq!(
        nb.diagnostics[0].message,
        "kernel language is R; code cells are not analysed"
    );
}

#[test]
fn commented_magics_are_uncommented_for_python() {
    let nb = load(
        "# %%\n# %%capture out\nx = 1\n# %%\n# %%bash\n# ls\n# %%\n# %matplotlib inline\n# !ls\n",
    );
    let c = &nb.cells[0];
    assert_eq!(c.form.cell_magic().map(|m| m.args.as_str()), Some("out"));
    assert!(c.is_python());
    assert_eq!(c.python_source().as_deref(), Some("\nx = 1"));
    assert!(nb.cells[1].form.is_opaque());
    let c = &nb.cells[2];
    assert_eq!(c.source, "# %matplotlib inline\n# !ls");
    assert_eq!(
        c.python_source().as_deref(),
        Some("%matplotlib inline\n!ls")
    );
    assert!(c.parse().is_some_and(|p| p.module.body.len() == 2));
}

#[test]
fn crlf_lines() {
    let nb = load("# %%\r\nx = 1\r\n\r\n# %% [markdown]\r\n# hi\r\n");
    assert_eq!(nb.cells[0].source, "x = 1");
    assert_eq!(nb.cells[1].source, "hi");
}

#[test]
fn ids_survive_insertion() {
    let a = load("# %%\nx = 1\n# %%\ny = 2\n");
    let b = load("# %%\nz = 0\n# %%\nx = 1\n# %%\ny = 2\n");
    assert_eq!(a.cells[0].id, b.cells[1].id);
    assert_eq!(a.cells[1].id, b.cells[2].id);
    assert_eq!(b.cells[2].index, 2);
}
