//! Recognising percent cell markers (`# %% [markdown] title key="value"`).

use crate::cell::CellKind;

/// The cell kind a marker line opens, or `None` if the line is not a marker.
///
/// The line must start with `#`, optional spaces, `%%`, then end or whitespace
/// (`# %%time` is a commented cell magic, not a marker).
pub(crate) fn parse_marker(line: &str) -> Option<CellKind> {
    let rest = line.strip_prefix('#')?.trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix("%%")?;
    if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
        return None;
    }
    let kind = rest
        .split_whitespace()
        .find_map(|word| match word {
            "[markdown]" | "[md]" => Some(CellKind::Markdown),
            "[raw]" => Some(CellKind::Raw),
            _ => None,
        })
        .unwrap_or(CellKind::Code);
    Some(kind)
}

/// The tags a marker line declares with jupytext's `tags=["a", "b"]` (its
/// string elements; none when absent or not a JSON array).
pub(crate) fn marker_tags(line: &str) -> Vec<String> {
    let Some(at) = line.find("tags=") else {
        return Vec::new();
    };
    let rest = &line[at + "tags=".len()..];
    let Some(end) = rest.find(']') else {
        return Vec::new();
    };
    match serde_json::from_str::<Vec<serde_json::Value>>(&rest[..=end]) {
        Ok(values) => values
            .into_iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        Err(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags() {
        assert_eq!(marker_tags("# %% tags=[\"noqa\", 3, \"x\"]"), ["noqa", "x"]);
        assert_eq!(marker_tags("# %% [md] tags=[]"), Vec::<String>::new());
        assert_eq!(marker_tags("# %% tags=[oops"), Vec::<String>::new());
        assert_eq!(marker_tags("# %% Load"), Vec::<String>::new());
    }

    #[test]
    fn markers() {
        assert_eq!(parse_marker("# %%"), Some(CellKind::Code));
        assert_eq!(parse_marker("#%%"), Some(CellKind::Code));
        assert_eq!(parse_marker("# %% Load data"), Some(CellKind::Code));
        assert_eq!(parse_marker("# %% [markdown]"), Some(CellKind::Markdown));
        assert_eq!(
            parse_marker("# %% Intro [md] tags=[\"x\"]"),
            Some(CellKind::Markdown)
        );
        assert_eq!(parse_marker("# %% [raw] key=\"v\""), Some(CellKind::Raw));
        assert_eq!(parse_marker("# %%time"), None);
        assert_eq!(parse_marker("  # %%"), None);
        assert_eq!(parse_marker("x = 1  # %%"), None);
        assert_eq!(parse_marker("# %"), None);
    }
}
