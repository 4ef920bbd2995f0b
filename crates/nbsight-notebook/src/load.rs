//! Loading a notebook from disk, dispatching on the file extension.

use std::path::Path;

use crate::error::LoadError;
use crate::ipynb::load_ipynb_bytes;
use crate::notebook::Notebook;
use crate::percent::load_percent_str;
use crate::percent::marker::parse_marker;

/// Load a notebook file: `.ipynb` (any letter case) as Jupyter JSON, anything else
/// as a percent script (which must be UTF-8 text with at least one `# %%` cell
/// marker; a leading BOM is ignored). A text file without a marker is not a
/// notebook ([`LoadError::NotANotebook`]), not a script read as one cell.
pub fn load_path(path: &Path) -> Result<Notebook, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let is_ipynb = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("ipynb"));
    if is_ipynb {
        return load_ipynb_bytes(path, &bytes);
    }
    match std::str::from_utf8(&bytes) {
        Ok(text) if !has_percent_marker(text) => Err(LoadError::NotANotebook {
            path: path.to_path_buf(),
            reason: "neither an .ipynb file nor a percent script (no `# %%` cell marker)"
                .to_string(),
        }),
        Ok(text) => Ok(load_percent_str(path, text)),
        Err(e) => Err(LoadError::NotUtf8 {
            path: path.to_path_buf(),
            offset: e.valid_up_to(),
        }),
    }
}

/// Does `text` have a line that is a percent cell marker?
pub fn has_percent_marker(text: &str) -> bool {
    text.lines()
        .any(|line| parse_marker(line.trim_start_matches('\u{feff}')).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notebook::SourceFormat;

    #[test]
    fn dispatches_on_extension() {
        let dir = tempfile::tempdir().unwrap();
        let py = dir.path().join("a.py");
        std::fs::write(&py, "# %%\nx = 1\n").unwrap();
        assert_eq!(load_path(&py).unwrap().format, SourceFormat::Percent);
        let nb = dir.path().join("a.IPYNB");
        std::fs::write(
            &nb,
            r#"{"nbformat":4,"nbformat_minor":5,"metadata":{},"cells":[]}"#,
        )
        .unwrap();
        assert_eq!(load_path(&nb).unwrap().format, SourceFormat::Ipynb);
    }

    #[test]
    fn io_and_utf8_errors() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.ipynb");
        let err = load_path(&missing).unwrap_err();
        assert!(matches!(err, LoadError::Io { .. }));
        assert!(err.to_string().contains("nope.ipynb"));
        let bin = dir.path().join("b.py");
        std::fs::write(&bin, b"x = 1\n\xff\xfe").unwrap();
        assert!(matches!(
            load_path(&bin),
            Err(LoadError::NotUtf8 { offset: 6, .. })
        ));
        let plain = dir.path().join("plain.py");
        std::fs::write(&plain, "print(1)\n").unwrap();
        let err = load_path(&plain).unwrap_err();
        assert!(matches!(err, LoadError::NotANotebook { .. }), "{err}");
    }
}
