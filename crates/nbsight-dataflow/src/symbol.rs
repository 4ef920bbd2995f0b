//! Symbols: the name paths the analyses talk about (`df`, `df.col`, `lst[3]`,
//! `d['k']`, `lst[*]`), their canonical spelling, and a per-scope interner.
//!
//! A symbol is kept as its canonical text. Every component boundary is a `.` or a
//! `[`, so "is `a` a prefix of `b`" is a string test; the builders create the
//! prefixes of a path themselves when they need them, so nothing here parses
//! symbols back.

use std::hash::BuildHasher;

use compact_str::CompactString;
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use crate::index::IndexVec;

crate::newtype_index! {
    /// Dense index of a symbol in a [`SymbolTable`].
    pub struct SymId;
}

/// The text of a symbol as summaries hold it (short ones stay inline, without
/// a heap allocation).
pub type Symbol = CompactString;

/// The subscript spelling used when the index is not a constant.
pub const ANY_INDEX: &str = "[*]";

/// The most components a tracked path has (`a.b[0]` has three). A longer
/// chain (`a.b.b.b...`, generated code) is tracked as its prefix of this
/// depth: reading past it reads the prefix, binding past it changes the prefix
/// in place. Without the bound every prefix of an `n`-long chain is a symbol
/// of its own, `n` symbols of length up to `n`: quadratic time and memory.
pub const MAX_PATH_DEPTH: usize = 16;

/// The byte offsets where `symbol`'s components after the first start (the
/// `.` or `[` that opens each), in order. Quotes inside subscripts are
/// respected.
fn component_starts(symbol: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = symbol.as_bytes();
    let (mut in_brackets, mut quote) = (false, None::<u8>);
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let (at, b) = (i, bytes[i]);
            i += 1;
            if let Some(q) = quote {
                if b == b'\\' {
                    i += 1;
                } else if b == q {
                    quote = None;
                }
                continue;
            }
            match b {
                b'\'' | b'"' if in_brackets => quote = Some(b),
                b'[' if !in_brackets => {
                    in_brackets = true;
                    return Some(at);
                }
                b']' if in_brackets => in_brackets = false,
                b'.' if !in_brackets => return Some(at),
                _ => {}
            }
        }
        None
    })
}

/// How many components `symbol` has (`df` one, `df.col[3]` three). Quotes
/// inside subscripts are respected.
pub fn depth(symbol: &str) -> usize {
    1 + component_starts(symbol).count()
}

/// `true` when `parent` is `child` or one of the paths `child` is nested in
/// (`df` is a prefix of `df.col` and of `df['a']`, not of `dfx`).
pub fn is_prefix_or_equal(parent: &str, child: &str) -> bool {
    match child.strip_prefix(parent) {
        Some("") => true,
        Some(rest) => rest.starts_with('.') || rest.starts_with('['),
        None => false,
    }
}

/// The path `symbol` is directly nested in (`d` for `d['a.b']`, `df` for
/// `df.col`), or `None` for a plain name. Quotes inside subscripts are
/// respected.
pub fn parent(symbol: &str) -> Option<&str> {
    let bytes = symbol.as_bytes();
    // Without a quote, no subscript holds a `.` or a `[` (its index is a
    // number, `True`, `False`, `None` or `*`): the last one opens the last
    // component.
    // (Symbols are short: plain loops beat a vectorised search's set-up.)
    let last = if !bytes.iter().any(|&b| b == b'\'' || b == b'"') {
        bytes.iter().rposition(|&b| b == b'.' || b == b'[')
    } else {
        component_starts(symbol).last()
    };
    last.filter(|&c| c > 0).map(|c| &symbol[..c])
}

/// `true` when one of the two symbols contains the other.
pub fn related(a: &str, b: &str) -> bool {
    is_prefix_or_equal(a, b) || is_prefix_or_equal(b, a)
}

/// The name a symbol starts with: `df` for `df.col[3]`.
pub fn root(symbol: &str) -> &str {
    let end = symbol.find(['.', '[']).unwrap_or(symbol.len());
    &symbol[..end]
}

/// The canonical spelling of a constant subscript (`3`, `-1`, `'k'`), or
/// `None` when the index is not a constant.
pub fn constant_index(slice: &ruff_python_ast::Expr) -> Option<String> {
    match slice {
        ruff_python_ast::Expr::NumberLiteral(n) => match &n.value {
            ruff_python_ast::Number::Int(i) => i.as_i64().map(|v| v.to_string()),
            _ => None,
        },
        ruff_python_ast::Expr::UnaryOp(u) if u.op == ruff_python_ast::UnaryOp::USub => {
            match &*u.operand {
                ruff_python_ast::Expr::NumberLiteral(n) => match &n.value {
                    ruff_python_ast::Number::Int(i) => i.as_i64().map(|v| (-v).to_string()),
                    _ => None,
                },
                _ => None,
            }
        }
        ruff_python_ast::Expr::StringLiteral(s) => Some(python_str_repr(s.value.to_str())),
        ruff_python_ast::Expr::BooleanLiteral(b) => {
            Some(if b.value { "True" } else { "False" }.to_string())
        }
        ruff_python_ast::Expr::NoneLiteral(_) => Some("None".to_string()),
        _ => None,
    }
}

/// The symbol a name, attribute or constant-subscript chain spells
/// (`df`, `df.col`, `lst[3]`, `d['k']`), as the builders spell it; `None`
/// for any other expression or a non-constant subscript.
pub fn static_path(expr: &ruff_python_ast::Expr) -> Option<Symbol> {
    use ruff_python_ast::Expr;
    match expr {
        Expr::Name(name) => Some(Symbol::from(name.id.as_str())),
        Expr::Attribute(attr) => {
            let mut path = static_path(&attr.value)?;
            path.push('.');
            path.push_str(attr.attr.as_str());
            Some(path)
        }
        Expr::Subscript(sub) => {
            let mut path = static_path(&sub.value)?;
            let index = constant_index(&sub.slice)?;
            path.push('[');
            path.push_str(&index);
            path.push(']');
            Some(path)
        }
        _ => None,
    }
}

/// Python's `repr` of a string, as used in constant subscripts (`d['k']`).
pub fn python_str_repr(value: &str) -> String {
    let quote = if value.contains('\'') && !value.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(value.len() + 2);
    out.push(quote);
    for ch in value.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Where a symbol sits among the paths, as far as its builder knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lineage {
    /// A plain name: nested in nothing.
    Root,
    /// Directly nested in this (interned) path.
    Child(SymId),
    /// Found from the text when the symbol is new.
    Unknown,
}

/// Interns the symbols of one scope so the solvers can use bit sets.
#[derive(Debug, Default, Clone)]
pub struct SymbolTable {
    /// The ids, found by the hash of their text (kept once, in `entries`).
    ids: HashTable<SymId>,
    /// Each symbol's text, and the id of its parent path (always interned
    /// too).
    entries: IndexVec<SymId, Entry>,
}

/// One interned symbol.
#[derive(Debug, Clone)]
struct Entry {
    name: Symbol,
    parent: Option<SymId>,
}

fn hash_text(text: &str) -> u64 {
    FxBuildHasher.hash_one(text)
}

impl SymbolTable {
    /// A table with room for `n` symbols.
    pub fn with_capacity(n: usize) -> Self {
        SymbolTable {
            ids: HashTable::with_capacity(n),
            entries: IndexVec::with_capacity(n),
        }
    }

    /// The id of `symbol`, adding it when it is new (its text hashed once).
    pub fn intern(&mut self, symbol: &str) -> SymId {
        self.intern_in(symbol, Lineage::Unknown)
    }

    /// [`SymbolTable::intern`] for a symbol whose place among the paths its
    /// builder already knows: a new symbol's text is then not scanned for
    /// its parent.
    pub fn intern_in(&mut self, symbol: &str, lineage: Lineage) -> SymId {
        let hash = hash_text(symbol);
        if let Some(id) = self.find(hash, symbol) {
            return id;
        }
        let parent = match lineage {
            Lineage::Root => None,
            Lineage::Child(of) => Some(of),
            Lineage::Unknown => parent(symbol).map(|p| self.intern(p)),
        };
        debug_assert_eq!(parent.map(|p| self.name(p)), self::parent(symbol));
        let id = self.entries.push(Entry {
            name: Symbol::from(symbol),
            parent,
        });
        let entries = &self.entries;
        self.ids
            .insert_unique(hash, id, |&id| hash_text(&entries[id].name));
        id
    }

    /// The parent path of symbol `id`.
    pub fn parent(&self, id: SymId) -> Option<SymId> {
        self.entries[id].parent
    }

    /// `true` when `ancestor` is `id` or a path `id` is nested in.
    pub fn is_ancestor_or_self(&self, ancestor: SymId, id: SymId) -> bool {
        let mut current = Some(id);
        while let Some(c) = current {
            if c == ancestor {
                return true;
            }
            current = self.entries[c].parent;
        }
        false
    }

    /// `true` when one symbol contains the other.
    pub fn related(&self, a: SymId, b: SymId) -> bool {
        self.is_ancestor_or_self(a, b) || self.is_ancestor_or_self(b, a)
    }

    /// The id of `symbol` if it was interned.
    pub fn get(&self, symbol: &str) -> Option<SymId> {
        self.find(hash_text(symbol), symbol)
    }

    /// The id of `symbol`, whose hash is `hash`, if it was interned.
    fn find(&self, hash: u64, symbol: &str) -> Option<SymId> {
        self.ids
            .find(hash, |&id| self.entries[id].name == symbol)
            .copied()
    }

    /// The text of symbol `id`.
    pub fn name(&self, id: SymId) -> &str {
        &self.entries[id].name
    }

    /// The text of symbol `id`, ready to be kept.
    pub fn symbol(&self, id: SymId) -> Symbol {
        self.entries[id].name.clone()
    }

    /// How many symbols there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` when nothing was interned.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The ids of the symbols, in the order they were interned.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = SymId> + use<> {
        self.entries.indices()
    }
}

/// The names an assignment target binds (`a`, `a, (b, *c)`), in order.
pub fn target_names(target: &ruff_python_ast::Expr, out: &mut Vec<String>) {
    use ruff_python_ast::Expr;
    match target {
        Expr::Name(name) => out.push(name.id.to_string()),
        Expr::Tuple(t) => t.elts.iter().for_each(|e| target_names(e, out)),
        Expr::List(l) => l.elts.iter().for_each(|e| target_names(e, out)),
        Expr::Starred(s) => target_names(&s.value, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes() {
        assert!(is_prefix_or_equal("df", "df"));
        assert!(is_prefix_or_equal("df", "df.col"));
        assert!(is_prefix_or_equal("lst", "lst[3]"));
        assert!(is_prefix_or_equal("d['a.b']", "d['a.b'].x"));
        assert!(!is_prefix_or_equal("df", "dfx"));
        assert!(!is_prefix_or_equal("lst[*]", "lst[3]"));
        assert!(related("a.b", "a"));
        assert!(!related("a.b", "a.c"));
    }

    #[test]
    fn depths_count_components() {
        assert_eq!(depth("df"), 1);
        assert_eq!(depth("df.col[3]"), 3);
        assert_eq!(depth("d['a.b'][*].x"), 4);
        assert_eq!(depth("d['it\\'s.[']"), 2);
    }

    #[test]
    fn parents_respect_quotes() {
        assert_eq!(parent("df.col"), Some("df"));
        assert_eq!(parent("d['a.b']"), Some("d"));
        assert_eq!(parent("d['a.b'].x"), Some("d['a.b']"));
        assert_eq!(parent("d['x]y'][0]"), Some("d['x]y']"));
        assert_eq!(parent("d['it\\'s.']"), Some("d"));
        assert_eq!(parent("lst[*]"), Some("lst"));
        assert_eq!(parent("x"), None);
        // Unquoted paths take the short way: the same answers as the scan.
        for path in [
            "a.b[0][*].c",
            "x[-1]",
            "t[True].u",
            "m[None]",
            "q.r.s",
            "v[3]",
        ] {
            let scanned = component_starts(path).last().map(|c| &path[..c]);
            assert_eq!(parent(path), scanned, "{path}");
        }
        let mut table = SymbolTable::default();
        let leaf = table.intern("a.b[0]");
        let a = table.get("a").expect("ancestors are interned");
        assert!(table.is_ancestor_or_self(a, leaf));
        assert!(table.related(leaf, a));
        assert!(!table.is_ancestor_or_self(leaf, a));
    }

    #[test]
    fn roots() {
        assert_eq!(root("df.col[3]"), "df");
        assert_eq!(root("lst[*]"), "lst");
        assert_eq!(root("x"), "x");
    }

    #[test]
    fn repr_matches_python() {
        assert_eq!(python_str_repr("k"), "'k'");
        assert_eq!(python_str_repr("it's"), "\"it's\"");
        assert_eq!(python_str_repr("a'b\"c"), "'a\\'b\"c'");
        assert_eq!(python_str_repr("x\ny"), "'x\\ny'");
    }

    #[test]
    fn interning_is_stable() {
        let mut table = SymbolTable::default();
        let a = table.intern("a");
        let b = table.intern("a.b");
        assert_eq!(table.intern("a"), a);
        assert_ne!(a, b);
        assert_eq!(table.name(b), "a.b");
        assert_eq!(table.get("zz"), None);
        assert_eq!(table.len(), 2);
    }
}
