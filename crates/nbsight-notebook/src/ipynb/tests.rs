use std::path::Path;

use super::*;
use crate::cell::CellKind;
use crate::cell_index::CellIndex;
use crate::form::{CodeForm, OpaqueReason};
use crate::severity::Severity;

fn load(text: &str) -> Result<Notebook, LoadError> {
    load_ipynb_str(Path::new("t.ipynb"), text)
}

fn nb(cells: &str) -> String {
    format!(r#"{{"nbformat": 4, "nbformat_minor": 5, "metadata": {{}}, "cells": [{cells}]}}"#)
}

#[test]
fn reads_basic_cells() {
    let text = nb(r##"
        {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": ["# T\n", "text"]},
        {"cell_type": "code", "id": "c1", "execution_count": 3, "metadata": {},
         "outputs": [{"output_type": "stream", "name": "stdout", "text": ["1\n"]}, {}],
         "source": "x = 1\nprint(x)"},
        {"cell_type": "raw", "id": "r1", "metadata": {}, "source": []}
    "##);
    let nb = load(&text).unwrap();
    assert_eq!(nb.nbformat, Some((4, 5)));
    assert_eq!(nb.language, Language::Python);
    assert_eq!(nb.cells.len(), 3);
    assert_eq!(nb.cells[0].source, "# T\ntext");
    assert_eq!(nb.cells[0].form, CodeForm::NotCode);
    let c = &nb.cells[1];
    assert_eq!((c.index, c.id.as_str(), c.id_from_file), (1, "c1", true));
    assert_eq!(c.execution_count, Some(3));
    assert_eq!(c.output_count, 2);
    assert!(c.has_outputs());
    assert!(c.is_python());
    assert_eq!(nb.cells[2].kind, CellKind::Raw);
    assert_eq!(nb.cells[2].source, "");
    assert!(nb.diagnostics.is_empty());
}

#[test]
fn empty_and_whitespace() {
    assert!(matches!(load(""), Err(LoadError::Empty { .. })));
    assert!(matches!(load(" \n\t"), Err(LoadError::Empty { .. })));
    assert!(matches!(
        load_ipynb_bytes(Path::new("b.ipynb"), b"\xef\xbb\xbf\n"),
        Err(LoadError::Empty { .. })
    ));
}

#[test]
fn invalid_json_has_position() {
    let err = load("{\n  \"cells\": []\n  \"nbformat\": 4\n}").unwrap_err();
    match &err {
        LoadError::InvalidJson {
            line,
            column,
            message,
            ..
        } => {
            assert_eq!(*line, 3);
            assert!(*column > 0);
            assert!(!message.contains(" at line "), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().starts_with("t.ipynb:3:"));
    assert!(matches!(load("{"), Err(LoadError::InvalidJson { .. })));
    assert!(matches!(load("{} x"), Err(LoadError::InvalidJson { .. })));
}

#[test]
fn not_a_notebook() {
    for text in [
        "[1, 2]",
        "42",
        "\"s\"",
        "{\"nbformat\": 4}",
        "{\"cells\": 3}",
    ] {
        assert!(
            matches!(load(text), Err(LoadError::NotANotebook { .. })),
            "{text}"
        );
    }
}

#[test]
fn unsupported_versions() {
    let err = load(r#"{"nbformat": 3, "nbformat_minor": 0, "worksheets": []}"#).unwrap_err();
    assert!(matches!(
        err,
        LoadError::UnsupportedVersion { major: 3, .. }
    ));
    assert!(
        err.to_string()
            .contains("jupyter nbconvert --to notebook --nbformat 4")
    );
    let err = load(r#"{"nbformat": 5, "cells": []}"#).unwrap_err();
    assert!(matches!(
        err,
        LoadError::UnsupportedVersion { major: 5, .. }
    ));
}

#[test]
fn missing_nbformat_is_a_warning() {
    let nb = load(r#"{"cells": [{"cell_type": "code", "source": "x"}]}"#).unwrap();
    assert_eq!(nb.nbformat, None);
    assert_eq!(nb.diagnostics.len(), 1);
    assert_eq!(nb.diagnostics[0].severity, Severity::Warning);
    assert!(nb.diagnostics[0].message.contains("nbformat"));
    assert!(nb.cells[0].is_python());
}

#[test]
fn broken_cells_are_kept_and_reported() {
    let text = nb(r#"
        {"source": "x = 1"},
        {"cell_type": "code", "outputs": []},
        {"cell_type": "widget", "source": "?"},
        {"cell_type": "code", "source": 12, "execution_count": "7", "outputs": {}},
        7,
        {"cell_type": 1, "source": "y"},
        {"cell_type": "code", "source": ["a", 1]}
    "#);
    let nb = load(&text).unwrap();
    assert_eq!(nb.cells.len(), 7);
    assert_eq!(
        nb.cells[0].form,
        CodeForm::Opaque {
            reason: OpaqueReason::MissingCellType
        }
    );
    assert_eq!(nb.cells[0].kind, CellKind::Code);
    assert_eq!(nb.cells[0].source, "x = 1");
    assert!(nb.cells[0].python_source().is_none());
    assert_eq!(nb.cells[1].source, "");
    assert!(nb.cells[1].is_python());
    assert_eq!(nb.cells[2].kind, CellKind::Raw);
    assert_eq!(nb.cells[3].source, "");
    assert_eq!(nb.cells[3].execution_count, None);
    assert_eq!(nb.cells[4].kind, CellKind::Raw);
    assert!(nb.cells[5].form.is_opaque());
    assert_eq!(nb.cells[6].source, "");
    let at = |cell: usize| -> Vec<(Severity, &str)> {
        nb.diagnostics
            .iter()
            .filter(|d| d.cell == Some(CellIndex::new(cell)))
            .map(|d| (d.severity, d.message.as_str()))
            .collect()
    };
    assert_eq!(
        at(0),
        [(
            Severity::Error,
            "cell has no `cell_type`; kept as an opaque code cell"
        )]
    );
    assert_eq!(
        at(1),
        [(Severity::Warning, "cell has no `source`; treated as empty")]
    );
    assert_eq!(
        at(2),
        [(
            Severity::Warning,
            "unknown cell_type \"widget\"; treated as a raw cell"
        )]
    );
    assert_eq!(at(3).len(), 3, "{:?}", at(3));
    assert_eq!(at(4)[0].0, Severity::Error);
    assert_eq!(at(5)[0].0, Severity::Error);
    assert_eq!(at(6)[0].0, Severity::Error);
    assert!(nb.has_errors());
    let shown = nb.diagnostics[0].to_string();
    assert!(shown.starts_with("t.ipynb:cell 0: "), "{shown}");
}

#[test]
fn kernel_language_from_metadata() {
    let r = r#"{"nbformat": 4, "nbformat_minor": 2, "metadata": {"kernelspec": {"language": "R", "name": "ir"}}, "cells": [{"cell_type": "code", "source": "x <- 1"}]}"#;
    let nb = load(r).unwrap();
    assert_eq!(nb.language, Language::Other("R".into()));
    assert!(nb.cells[0].form.is_opaque());
    assert_eq!(
        nb.diagnostics[0].message,
        "kernel language is R; code cells are not analysed"
    );
    let julia = r#"{"nbformat": 4, "metadata": {"kernelspec": 5, "language_info": {"name": "julia"}}, "cells": []}"#;
    assert_eq!(
        load(julia).unwrap().language,
        Language::Other("julia".into())
    );
    let py = r#"{"nbformat": 4, "metadata": {"kernelspec": {"language": "python"}, "language_info": {"name": "julia"}}, "cells": []}"#;
    assert_eq!(load(py).unwrap().language, Language::Python);
    // Colab's R notebooks name the kernel only.
    let colab_r = r#"{"nbformat": 4, "metadata": {"kernelspec": {"name": "ir", "display_name": "R"}}, "cells": []}"#;
    assert_eq!(load(colab_r).unwrap().language, Language::Other("R".into()));
    let colab_py = r#"{"nbformat": 4, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}}, "cells": []}"#;
    assert_eq!(load(colab_py).unwrap().language, Language::Python);
    let bad = r#"{"nbformat": 4, "metadata": [], "cells": []}"#;
    let nb = load(bad).unwrap();
    assert_eq!(nb.language, Language::Python);
    assert_eq!(nb.diagnostics.len(), 1);
}

#[test]
fn generated_ids_for_old_minors_and_duplicate_file_ids() {
    let text = r#"{"nbformat": 4, "nbformat_minor": 0, "metadata": {}, "cells": [
        {"cell_type": "code", "source": "x = 1", "outputs": [], "execution_count": null},
        {"cell_type": "code", "source": "x = 1", "outputs": [], "execution_count": null}]}"#;
    let nb = load(text).unwrap();
    assert_eq!(nb.cells[0].id, crate::content_id(CellKind::Code, "x = 1"));
    assert_eq!(nb.cells[1].id, format!("{}-2", nb.cells[0].id));
    assert!(!nb.cells[0].id_from_file);
    let dup = nb_dup();
    let nb = load(&dup).unwrap();
    assert_eq!(nb.cells[1].id, "a-2");
    assert_eq!(nb.diagnostics.len(), 1);
    assert_eq!(nb.diagnostics[0].cell, Some(CellIndex::new(1)));
}

fn nb_dup() -> String {
    nb(
        r#"{"cell_type": "code", "id": "a", "source": "x"}, {"cell_type": "code", "id": "a", "source": "y"}"#,
    )
}

#[test]
fn deep_nesting_loads_and_bad_utf8_is_a_clean_error() {
    let deep = format!(
        r#"{{"nbformat": 4, "cells": [{{"cell_type": "code", "source": "", "outputs": [{}{}]}}]}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    // Skipped values are scanned iteratively: deep nesting there is harmless.
    let nb = load(&deep).unwrap();
    assert_eq!(nb.cells[0].output_count, 1);
    let deep_cell = format!(
        r#"{{"nbformat": 4, "cells": [{}{}]}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let nb = load(&deep_cell).unwrap();
    assert_eq!(nb.cells[0].kind, CellKind::Raw);
    assert!(nb.has_errors());
    let bytes = b"{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\", \"source\": \"\xff\"}]}";
    assert!(matches!(
        load_ipynb_bytes(Path::new("u.ipynb"), bytes),
        Err(LoadError::InvalidJson { .. })
    ));
}

#[test]
fn odd_but_valid_values() {
    let text = nb(
        r#"{"cell_type": "code", "source": "x", "execution_count": 99999999999999999999, "outputs": [1, "s", null]},
        {"cell_type": "markdown", "source": "m", "execution_count": 3, "outputs": 5}"#,
    );
    let nb = load(&text).unwrap();
    assert_eq!(nb.cells[0].execution_count, None);
    assert_eq!(nb.cells[0].output_count, 3);
    assert_eq!(nb.cells[1].execution_count, None);
    assert_eq!(nb.cells[1].output_count, 0);
    // Only the code cell's unusable execution_count is reported.
    assert_eq!(nb.diagnostics.len(), 1);
    assert_eq!(nb.diagnostics[0].cell, Some(CellIndex::new(0)));
}

#[test]
fn reads_cell_tags_leniently() {
    let text = nb(r##"
        {"cell_type": "code", "metadata": {"tags": ["noqa", 7, "parameters"], "x": {}}, "source": "a"},
        {"cell_type": "code", "metadata": {"tags": "noqa"}, "source": "b"},
        {"cell_type": "code", "metadata": [], "source": "c"},
        {"cell_type": "code", "source": "d"}
    "##);
    let nb = load(&text).unwrap();
    let tags: Vec<&[String]> = nb.cells.iter().map(|c| c.tags.as_slice()).collect();
    assert_eq!(tags[0], ["noqa", "parameters"]);
    assert!(tags[1..].iter().all(|t| t.is_empty()));
}
