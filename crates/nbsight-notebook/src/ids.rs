//! Cell ids: the file's own ids (nbformat >= 4.5) or deterministic ones.
//!
//! A cell without an id in the file (older nbformat 4 minors, percent scripts) gets
//! `"h"` + the first 10 hex digits of `sha256(kind + "\0" + source)`, where kind is
//! `code`, `markdown` or `raw` ([`content_id`]). Because the id depends only on the
//! cell's own content, it survives inserting, deleting or moving other cells. Later
//! cells with the same content get `-2`, `-3`, ... appended. Ids in a loaded
//! notebook are always unique: a duplicated file id is kept on its first cell and
//! suffixed the same way (with a warning) on later ones.

use std::collections::HashSet;

use sha2::{Digest, Sha256};

use crate::cell_kind::CellKind;

/// The content-derived id of a cell: `"h"` + 10 hex digits of
/// `sha256(kind + "\0" + source)`.
pub fn content_id(kind: CellKind, source: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(kind.as_str().as_bytes());
    hasher.update([0u8]);
    hasher.update(source.as_bytes());
    let digest = hasher.finalize();
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut id = String::with_capacity(11);
    id.push('h');
    for byte in digest.iter().take(5) {
        id.push(char::from(HEX[usize::from(byte >> 4)]));
        id.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    id
}

/// The id chosen for one cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AssignedId {
    pub id: String,
    pub from_file: bool,
    /// The file's id was a duplicate and had to be suffixed.
    pub renamed_from: Option<String>,
}

/// Assign unique ids to cells given as `(kind, source, id in the file)`.
pub(crate) fn assign_ids<'a>(
    cells: impl IntoIterator<Item = (CellKind, &'a str, Option<&'a str>)>,
) -> Vec<AssignedId> {
    let cells: Vec<_> = cells.into_iter().collect();
    let mut used: HashSet<String> = HashSet::new();
    let mut out: Vec<Option<AssignedId>> = vec![None; cells.len()];
    // File ids first, so a generated id never steals a file's id.
    for (slot, (_, _, file_id)) in out.iter_mut().zip(&cells) {
        if let Some(file_id) = file_id {
            let id = unique(file_id, &mut used);
            let renamed_from = (id != *file_id).then(|| file_id.to_string());
            *slot = Some(AssignedId {
                id,
                from_file: renamed_from.is_none(),
                renamed_from,
            });
        }
    }
    for (slot, (kind, source, _)) in out.iter_mut().zip(&cells) {
        if slot.is_none() {
            *slot = Some(AssignedId {
                id: unique(&content_id(*kind, source), &mut used),
                from_file: false,
                renamed_from: None,
            });
        }
    }
    out.into_iter().flatten().collect()
}

fn unique(base: &str, used: &mut HashSet<String>) -> String {
    let mut candidate = base.to_string();
    let mut n = 2;
    while used.contains(&candidate) {
        candidate = format!("{base}-{n}");
        n += 1;
    }
    used.insert(candidate.clone());
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_id_shape_and_kind_sensitivity() {
        let a = content_id(CellKind::Code, "x = 1");
        assert_eq!(a.len(), 11);
        assert!(a.starts_with('h'));
        assert!(a[1..].chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(a, content_id(CellKind::Code, "x = 1"));
        assert_ne!(a, content_id(CellKind::Markdown, "x = 1"));
    }

    #[test]
    fn known_values_are_pinned() {
        // `printf 'code\0x = 1' | sha256sum` starts with 591a31cd92.
        assert_eq!(content_id(CellKind::Code, "x = 1"), "h591a31cd92");
        assert_eq!(content_id(CellKind::Code, ""), "he14333b5e9");
    }

    #[test]
    fn duplicates_get_suffixes() {
        let ids = assign_ids([
            (CellKind::Code, "x", None),
            (CellKind::Code, "x", None),
            (CellKind::Code, "x", None),
        ]);
        let base = content_id(CellKind::Code, "x");
        assert_eq!(ids[0].id, base);
        assert_eq!(ids[1].id, format!("{base}-2"));
        assert_eq!(ids[2].id, format!("{base}-3"));
    }

    #[test]
    fn file_ids_win_and_duplicates_are_renamed() {
        let ids = assign_ids([
            (CellKind::Code, "x", Some("a")),
            (CellKind::Code, "y", Some("a")),
            (CellKind::Code, "z", None),
        ]);
        assert_eq!(ids[0].id, "a");
        assert!(ids[0].from_file);
        assert_eq!(ids[1].id, "a-2");
        assert!(!ids[1].from_file);
        assert_eq!(ids[1].renamed_from.as_deref(), Some("a"));
        assert!(!ids[2].from_file);
    }
}
