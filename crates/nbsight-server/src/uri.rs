//! Document addresses: the file path a `file:` URI names (notebooks'
//! settings and histories are found from it) and URIs from strings.

use std::path::PathBuf;
use std::str::FromStr;

use lsp_types::Uri;

/// The local path of a `file:` URI (percent-decoded), `None` for other
/// schemes (an unsaved notebook, a cell).
pub(crate) fn file_path(uri: &Uri) -> Option<PathBuf> {
    let scheme = uri.scheme()?;
    if !scheme.as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    let decoded = uri.path().as_estr().decode().into_string().ok()?;
    let path = decoded.into_owned();
    // `file:///C:/x` on Windows: the drive follows the first slash.
    if cfg!(windows)
        && let Some(rest) = path.strip_prefix('/')
        && rest.as_bytes().get(1) == Some(&b':')
    {
        return Some(PathBuf::from(rest));
    }
    Some(PathBuf::from(path))
}

/// The path a notebook is known by in messages and settings: its file, or
/// the URI's own text for other schemes (`untitled:Untitled-1.ipynb`).
pub(crate) fn display_path(uri: &Uri) -> PathBuf {
    file_path(uri).unwrap_or_else(|| PathBuf::from(uri.as_str()))
}

/// A URI from a string we made (a rule's documentation link).
pub(crate) fn parse(text: &str) -> Option<Uri> {
    Uri::from_str(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_name_paths() {
        let uri = parse("file:///tmp/my%20notes/nb.ipynb").unwrap();
        assert_eq!(
            file_path(&uri),
            Some(PathBuf::from("/tmp/my notes/nb.ipynb"))
        );
        let cell = parse("vscode-notebook-cell:/tmp/nb.ipynb#W0sZmlsZQ%3D%3D").unwrap();
        assert_eq!(file_path(&cell), None);
        assert_eq!(
            display_path(&parse("untitled:Untitled-1.ipynb").unwrap()),
            PathBuf::from("untitled:Untitled-1.ipynb")
        );
    }
}
