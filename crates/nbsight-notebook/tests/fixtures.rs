//! Loading the hand-written fixtures in `<repo>/tests/fixtures/`.

mod common;

use common::fixture;
use nbsight_notebook::{
    CellKind, CellOrigin, CodeForm, Language, LoadError, OneIndexed, OpaqueReason, Severity,
    SourceFormat, load_ipynb_str, load_path,
};
use ruff_python_ast::{Expr, Stmt};

#[test]
fn bad_json_reports_line_and_column() {
    let err = load_path(&fixture("bad_json.ipynb")).unwrap_err();
    match &err {
        LoadError::InvalidJson { line, column, .. } => {
            assert_eq!(*line, 13);
            assert!(*column >= 1);
        }
        other => panic!("expected InvalidJson, got {other:?}"),
    }
    let shown = err.to_string();
    assert!(shown.contains("bad_json.ipynb:13:"), "{shown}");
}

#[test]
fn nbformat3_is_unsupported_with_a_hint() {
    let err = load_path(&fixture("nbformat3.ipynb")).unwrap_err();
    assert!(matches!(
        err,
        LoadError::UnsupportedVersion { major: 3, .. }
    ));
    let shown = err.to_string();
    assert!(shown.contains("nbformat3.ipynb"), "{shown}");
    assert!(
        shown.contains("jupyter nbconvert --to notebook --nbformat 4"),
        "{shown}"
    );
}

#[test]
fn empty_file() {
    let err = load_path(&fixture("empty.ipynb")).unwrap_err();
    assert!(matches!(err, LoadError::Empty { .. }));
    assert!(err.to_string().contains("empty.ipynb"));
}

#[test]
fn r_kernel_cells_are_opaque() {
    let nb = load_path(&fixture("r_kernel.ipynb")).unwrap();
    assert_eq!(nb.language, Language::Other("R".into()));
    assert_eq!(nb.cells.len(), 3);
    assert_eq!(nb.cells[0].form, CodeForm::NotCode);
    for cell in nb.code_cells() {
        assert_eq!(
            cell.form,
            CodeForm::Opaque {
                reason: OpaqueReason::NonPythonKernel("R".into())
            }
        );
        assert!(cell.parse().is_none());
    }
    assert_eq!(nb.python_cells().count(), 0);
    assert_eq!(nb.diagnostics.len(), 1);
    let d = &nb.diagnostics[0];
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.cell, None);
    assert_eq!(
        d.message,
        "kernel language is R; code cells are not analysed"
    );
}

#[test]
fn missing_fields_become_cell_diagnostics() {
    let nb = load_path(&fixture("missing_fields.ipynb")).unwrap();
    assert_eq!(nb.cells.len(), 3);
    let c0 = &nb.cells[0];
    assert_eq!(c0.kind, CellKind::Code);
    assert_eq!(
        c0.form,
        CodeForm::Opaque {
            reason: OpaqueReason::MissingCellType
        }
    );
    assert_eq!(c0.form.to_owned_reason_text(), "cell has no cell_type");
    let c1 = &nb.cells[1];
    assert_eq!(c1.source, "");
    assert_eq!(c1.execution_count, Some(2));
    assert!(c1.is_python());
    assert!(nb.cells[2].is_python());
    let summary: Vec<_> = nb
        .diagnostics
        .iter()
        .map(|d| (d.cell.map(|c| c.index()), d.severity))
        .collect();
    assert_eq!(
        summary,
        [(Some(0), Severity::Error), (Some(1), Severity::Warning)]
    );
    assert!(
        nb.diagnostics[0]
            .to_string()
            .contains("missing_fields.ipynb:cell 0: cell has no `cell_type`")
    );
}

/// Shorthand used above, kept local to the tests.
trait ReasonText {
    fn to_owned_reason_text(&self) -> String;
}
impl ReasonText for CodeForm {
    fn to_owned_reason_text(&self) -> String {
        match self {
            CodeForm::Opaque { reason } => reason.to_string(),
            _ => String::new(),
        }
    }
}

#[test]
fn syntax_error_cell_does_not_stop_the_others() {
    let nb = load_path(&fixture("syntax_error.ipynb")).unwrap();
    assert_eq!(nb.cells.len(), 3);
    let parsed: Vec<_> = nb.cells.iter().map(|c| c.parse().unwrap()).collect();
    assert!(!parsed[0].has_errors());
    assert!(!parsed[2].has_errors());
    assert_eq!(parsed[2].module.body.len(), 1);
    let broken = &parsed[1];
    assert!(broken.has_errors());
    let issue = &broken.errors[0];
    assert_eq!(issue.line.get(), 2);
    assert!(issue.column.get() <= 11, "{issue:?}");
    assert!(!issue.message.is_empty());
    // The first statement of the broken cell is still in the AST.
    assert!(matches!(broken.module.body[0], Stmt::Assign(_)));
}

#[test]
fn magics_are_classified_and_parsed() {
    let nb = load_path(&fixture("magics.ipynb")).unwrap();
    assert!(nb.diagnostics.is_empty(), "{:?}", nb.diagnostics);
    let by_id = |id: &str| nb.cell_by_id(id).unwrap();

    for id in ["line-magic", "shell", "shell-assign", "help", "time-line"] {
        let cell = by_id(id);
        assert_eq!(cell.form, CodeForm::Python { cell_magic: None }, "{id}");
        let parsed = cell.parse().unwrap();
        assert!(!parsed.has_errors(), "{id}: {:?}", parsed.errors);
    }

    let assign = by_id("shell-assign").parse().unwrap();
    match &assign.module.body[0] {
        Stmt::Assign(a) => assert!(matches!(*a.value, Expr::IpyEscapeCommand(_))),
        other => panic!("expected an assignment, got {other:?}"),
    }
    let time = by_id("time-line").parse().unwrap();
    match &time.module.body[0] {
        Stmt::IpyEscapeCommand(c) => {
            let body = c.value.strip_prefix("time").unwrap_or(&c.value).trim();
            let inner = nbsight_notebook::parse_python(body);
            assert!(matches!(inner.module.body[0], Stmt::Assign(_)));
        }
        other => panic!("expected an escape command, got {other:?}"),
    }

    let timed = by_id("time-cell");
    assert_eq!(
        timed.form.cell_magic().map(|m| m.name.as_str()),
        Some("time")
    );
    assert!(timed.is_python());
    assert_eq!(timed.python_source().as_deref(), Some("\nz = y + 1"));
    let parsed = timed.parse().unwrap();
    assert!(!parsed.has_errors());
    let (line, column) = parsed.line_column(parsed.module.body[0].range().start());
    assert_eq!((line.get(), column.get()), (2, 1));

    let capture = by_id("capture");
    assert!(capture.is_python());
    let magic = capture.form.cell_magic().unwrap();
    assert_eq!(
        (magic.name.as_str(), magic.args.as_str()),
        ("capture", "out")
    );

    for (id, name, args) in [("bash", "bash", ""), ("writefile", "writefile", "a.txt")] {
        let cell = by_id(id);
        match &cell.form {
            CodeForm::Opaque {
                reason: OpaqueReason::CellMagic(m),
            } => {
                assert_eq!((m.name.as_str(), m.args.as_str()), (name, args));
            }
            other => panic!("{id}: {other:?}"),
        }
        assert!(cell.python_source().is_none());
        assert!(cell.has_outputs());
    }
    assert_eq!(
        by_id("bash").form.to_owned_reason_text(),
        "cell magic %%bash"
    );
}

use ruff_text_size::Ranged;

#[test]
fn old_minor_gets_stable_generated_ids() {
    let path = fixture("old_minor.ipynb");
    let text = std::fs::read_to_string(&path).unwrap();
    let nb = load_ipynb_str(&path, &text).unwrap();
    assert_eq!(nb.nbformat, Some((4, 0)));
    assert_eq!(nb.cells.len(), 5);
    assert!(nb.cells.iter().all(|c| !c.id_from_file));
    assert!(nb.cells.iter().all(|c| c.id.starts_with('h')));
    assert_eq!(nb.cells[4].id, format!("{}-2", nb.cells[3].id));

    let inserted = text.replacen(
        "\"cells\": [",
        "\"cells\": [{\"cell_type\": \"code\", \"metadata\": {}, \"outputs\": [], \"execution_count\": null, \"source\": \"new = 0\"},",
        1,
    );
    let nb2 = load_ipynb_str(&path, &inserted).unwrap();
    assert_eq!(nb2.cells.len(), 6);
    for (old, new) in nb.cells.iter().zip(&nb2.cells[1..]) {
        assert_eq!(old.id, new.id);
        assert_eq!(old.index + 1, new.index);
    }
}

#[test]
fn percent_script() {
    let nb = load_path(&fixture("percent.py")).unwrap();
    assert_eq!(nb.format, SourceFormat::Percent);
    assert_eq!(nb.language, Language::Python);
    assert!(nb.diagnostics.is_empty());
    let kinds: Vec<_> = nb.cells.iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds,
        [
            CellKind::Markdown,
            CellKind::Code,
            CellKind::Code,
            CellKind::Raw,
            CellKind::Code
        ]
    );
    assert_eq!(
        nb.cells[0].source,
        "# A percent notebook\n\nWritten as jupytext writes them."
    );
    assert_eq!(
        nb.cells[1].origin,
        CellOrigin::Percent {
            first_line: OneIndexed::new(21).unwrap()
        }
    );
    assert_eq!(
        nb.cells[1].source,
        "# %matplotlib inline\nimport numpy as np"
    );
    assert_eq!(
        nb.cells[1].python_source().as_deref(),
        Some("%matplotlib inline\nimport numpy as np")
    );
    assert_eq!(nb.cells[2].source, "n = 10\ndata = np.arange(n)");
    assert_eq!(nb.cells[3].source, "raw text stays raw");
    let last = &nb.cells[4];
    assert_eq!(
        last.form.cell_magic().map(|m| m.name.as_str()),
        Some("time")
    );
    let parsed = last.parse().unwrap();
    assert!(!parsed.has_errors(), "{:?}", parsed.errors);
    assert_eq!(parsed.module.body.len(), 3);
    assert!(
        nb.cells
            .iter()
            .all(|c| c.execution_count.is_none() && c.output_count == 0)
    );
    for cell in nb.python_cells() {
        assert!(!cell.parse().unwrap().has_errors(), "{}", cell.source);
    }
}
