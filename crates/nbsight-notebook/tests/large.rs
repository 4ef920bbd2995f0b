//! A ~50 MB notebook (mostly base64 image outputs), generated at test time.

use std::io::Write;

use nbsight_notebook::{CellKind, load_path};

#[test]
fn fifty_megabyte_notebook_loads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.ipynb");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let chunk: String = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg"
        .repeat(1000);
    let cells = 10;
    write!(
        file,
        "{{\"nbformat\": 4, \"nbformat_minor\": 5, \"metadata\": {{}}, \"cells\": ["
    )
    .unwrap();
    for i in 0..cells {
        if i > 0 {
            write!(file, ",").unwrap();
        }
        write!(
            file,
            "{{\"cell_type\": \"markdown\", \"id\": \"m{i}\", \"metadata\": {{}}, \"source\": \"## Plot {i}\"}},"
        )
        .unwrap();
        write!(
            file,
            "{{\"cell_type\": \"code\", \"id\": \"c{i}\", \"execution_count\": {i}, \"metadata\": {{}}, \"source\": [\"x{i} = {i}\\n\", \"plot(x{i})\"], \"outputs\": ["
        )
        .unwrap();
        write!(
            file,
            "{{\"output_type\": \"display_data\", \"metadata\": {{}}, \"data\": {{\"text/plain\": [\"<Figure>\"], \"image/png\": \""
        )
        .unwrap();
        for _ in 0..50 {
            file.write_all(chunk.as_bytes()).unwrap();
        }
        write!(
            file,
            "\"}}}}, {{\"output_type\": \"stream\", \"name\": \"stdout\", \"text\": \"ok\"}}]}}"
        )
        .unwrap();
    }
    write!(file, "]}}").unwrap();
    file.flush().unwrap();
    drop(file);
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 45_000_000, "generated only {size} bytes");

    let nb = load_path(&path).unwrap();
    assert!(nb.diagnostics.is_empty(), "{:?}", nb.diagnostics);
    assert_eq!(nb.cells.len(), 2 * cells);
    for i in 0..cells {
        let md = &nb.cells[2 * i];
        assert_eq!(md.kind, CellKind::Markdown);
        assert_eq!(md.source, format!("## Plot {i}"));
        let code = &nb.cells[2 * i + 1];
        assert_eq!(code.id, format!("c{i}"));
        assert_eq!(code.source, format!("x{i} = {i}\nplot(x{i})"));
        assert_eq!(code.output_count, 2);
        assert_eq!(code.execution_count, Some(i as i64));
        assert!(!code.parse().unwrap().has_errors());
    }
}
