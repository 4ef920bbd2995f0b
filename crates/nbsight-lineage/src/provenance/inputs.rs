//! The table of inputs: where each value that entered the notebook came
//! from (the cell that made it, the symbol path it was first bound to, the
//! files it was read from), how inputs get their names when first bound,
//! and how an answer lists them ([`Inputs::refs`], with `ranges.rs`).
//!
//! A list of 100,000 new values makes 100,000 inputs, so an input costs no
//! string of its own: the cell is shared, and an element is named by its
//! container's shared path and its position (`L`, 7), rendered `L[7]` only
//! when an answer shows it.

use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::InputRef;
use super::ranges;
use super::symbol::Symbol;
use super::value::{Deps, InputId, Value};

/// Inputs made between two sweeps, at least: a session of small cells
/// never pays for one.
pub(crate) const SWEEP_AFTER: usize = 1 << 16;

/// An input: where a value entered the notebook.
#[derive(Debug, Clone)]
struct Input {
    /// The cell that made it (`None`: bound before recording, out of sight).
    cell: Option<Arc<str>>,
    /// The symbol path it was first bound to (`None`: not bound yet).
    symbol: Option<Symbol>,
    /// The files it was read from.
    files: Box<[String]>,
}

/// The inputs in blocks of [`Table::BLOCK`]: a table that only grows, and
/// grows by a block, never by copying what it holds (it reaches millions).
#[derive(Debug, Default)]
struct Table {
    blocks: Vec<Vec<Input>>,
    len: usize,
}

impl Table {
    const BLOCK: usize = 1 << 12;

    fn len(&self) -> usize {
        self.len
    }

    fn push(&mut self, input: Input) {
        match self.blocks.last_mut() {
            Some(block) if block.len() < Self::BLOCK => block.push(input),
            _ => {
                let mut block = Vec::with_capacity(Self::BLOCK);
                block.push(input);
                self.blocks.push(block);
            }
        }
        self.len += 1;
    }

    /// Frees the blocks `live` does not mark (never the last one, which
    /// is still filling).
    fn free(&mut self, live: &[bool]) {
        let last = self.blocks.len().saturating_sub(1);
        for (i, block) in self.blocks.iter_mut().enumerate().take(last) {
            if !live.get(i).copied().unwrap_or(false) {
                *block = Vec::new();
            }
        }
    }

    /// How many blocks hold their inputs.
    fn held(&self) -> usize {
        self.blocks.iter().filter(|b| !b.is_empty()).count()
    }

    fn get(&self, id: InputId) -> Option<&Input> {
        let id = id as usize;
        self.blocks.get(id / Self::BLOCK)?.get(id % Self::BLOCK)
    }

    fn get_mut(&mut self, id: InputId) -> Option<&mut Input> {
        let id = id as usize;
        self.blocks
            .get_mut(id / Self::BLOCK)?
            .get_mut(id % Self::BLOCK)
    }
}

/// The inputs seen so far, by [`InputId`].
#[derive(Debug, Default)]
pub(crate) struct Inputs {
    table: Table,
    /// Inputs not named yet (named after the path first bound to them), in
    /// ascending order, and some named since (dropped now and then):
    /// naming a value's inputs at each binding walks whichever is smaller,
    /// these or the value's dependencies.
    unnamed: Vec<InputId>,
    /// How many inputs are not named yet.
    unnamed_count: usize,
    /// The table's length at the last sweep, and how many inputs the
    /// blocks it kept could hold.
    swept_at: usize,
    kept: usize,
}

impl Inputs {
    /// A new input, made by `cell`, bound to `symbol` (`None`: named when
    /// first bound), read from `files`.
    pub(crate) fn add(
        &mut self,
        cell: Option<Arc<str>>,
        symbol: Option<String>,
        files: Vec<String>,
    ) -> InputId {
        let id = self.table.len() as InputId;
        if symbol.is_none() {
            self.unnamed.push(id);
            self.unnamed_count += 1;
        }
        self.table.push(Input {
            cell,
            symbol: symbol.map(|s| Symbol::Path(s.into())),
            files: files.into_boxed_slice(),
        });
        id
    }

    /// The cell, symbol path and files of an input.
    pub(crate) fn parts(&self, id: InputId) -> (Option<Arc<str>>, Option<String>, Vec<String>) {
        match self.table.get(id) {
            Some(i) => (
                i.cell.clone(),
                i.symbol.as_ref().map(Symbol::to_string),
                i.files.to_vec(),
            ),
            None => (None, None, Vec::new()),
        }
    }

    /// Whether the input has been bound to a name.
    pub(crate) fn is_named(&self, id: InputId) -> bool {
        self.table.get(id).is_some_and(|i| i.symbol.is_some())
    }

    /// Names the inputs of `value` not bound yet after `path`, its
    /// elements after `path[i]` / `path['k']`; those made out of sight get
    /// `cell`.
    pub(crate) fn name(&mut self, value: &Value, path: &str, cell: &Arc<str>) {
        if self.unnamed_count == 0 {
            return;
        }
        let mut seen: FxHashSet<*const ()> = FxHashSet::default();
        self.name_in(value, &|| Symbol::Path(path.into()), cell, &mut seen);
    }

    fn name_in(
        &mut self,
        value: &Value,
        symbol: &dyn Fn() -> Symbol,
        cell: &Arc<str>,
        seen: &mut FxHashSet<*const ()>,
    ) {
        match value {
            Value::Scalar(d) | Value::Range(d) => self.name_deps(d, symbol, cell),
            Value::Sequence(s) => {
                if !seen.insert(s.key()) {
                    return;
                }
                // (Held while its elements are named: a container met again
                // returns above, before locking.)
                let s = s.borrow();
                self.name_deps(&s.structure, symbol, cell);
                // The container's path, made once an element needs it (a
                // loop binding a row per turn names nothing, most turns).
                let base: std::cell::OnceCell<Arc<str>> = std::cell::OnceCell::new();
                let base = || base.get_or_init(|| symbol().to_string().into()).clone();
                for (i, item) in s.items.iter().enumerate() {
                    let element = || match u32::try_from(i) {
                        Ok(i) => Symbol::Element(base(), i),
                        Err(_) => Symbol::Path(format!("{}[{i}]", base()).into()),
                    };
                    self.name_in(item, &element, cell, seen);
                }
            }
            Value::Mapping(m) => {
                if !seen.insert(m.key()) {
                    return;
                }
                let m = m.borrow();
                self.name_deps(&m.structure, symbol, cell);
                let base = symbol().to_string();
                for (k, item) in &m.items {
                    self.name_in(
                        item,
                        &|| Symbol::Path(format!("{base}[{k}]").into()),
                        cell,
                        seen,
                    );
                }
            }
            Value::Object(o) => {
                let o = o.borrow();
                self.name_deps(&o.deps, symbol, cell);
            }
            Value::Function(_) | Value::Module(_) => {}
        }
    }

    fn name_deps(&mut self, deps: &Deps, symbol: &dyn Fn() -> Symbol, cell: &Arc<str>) {
        if self.unnamed_count == 0 || deps.is_empty() {
            return;
        }
        let mut made = None;
        // The smaller side is walked.
        if self.unnamed_count < deps.where_.len() + deps.why.len() {
            let unnamed = std::mem::take(&mut self.unnamed);
            for &id in &unnamed {
                if deps.where_.contains(&id) || deps.why.contains(&id) {
                    self.name_one(id, &mut made, symbol, cell);
                }
            }
            self.unnamed = unnamed;
        } else {
            for &id in deps.where_.iter().chain(deps.why.iter()) {
                self.name_one(id, &mut made, symbol, cell);
            }
        }
        if self.unnamed.len() > 2 * self.unnamed_count + 64 {
            let table = &self.table;
            self.unnamed
                .retain(|&id| table.get(id).is_some_and(|i| i.symbol.is_none()));
        }
    }

    /// Names input `id` after `symbol` (made once, into `made`) if it has
    /// no name yet.
    fn name_one(
        &mut self,
        id: InputId,
        made: &mut Option<Symbol>,
        symbol: &dyn Fn() -> Symbol,
        cell: &Arc<str>,
    ) {
        if let Some(input) = self.table.get_mut(id)
            && input.symbol.is_none()
        {
            input.symbol = Some(made.get_or_insert_with(symbol).clone());
            input.cell.get_or_insert_with(|| cell.clone());
            self.unnamed_count -= 1;
        }
    }

    /// Enough inputs were made since the last sweep to pay for one: as
    /// many as it kept, and at least [`SWEEP_AFTER`].
    pub(crate) fn sweep_due(&self) -> bool {
        self.table.len() - self.swept_at >= self.kept.max(SWEEP_AFTER)
    }

    /// Forgets the inputs no value holds any more, a block at a time (an
    /// id is never given again: a value holding a forgotten one would find
    /// nothing, never another input). `holds` calls its argument with
    /// every input some value still holds.
    pub(crate) fn sweep(&mut self, holds: impl FnOnce(&mut dyn FnMut(InputId))) {
        let mut live = vec![false; self.table.blocks.len()];
        holds(&mut |id| {
            if let Some(block) = live.get_mut(id as usize / Table::BLOCK) {
                *block = true;
            }
        });
        self.table.free(&live);
        let table = &self.table;
        self.unnamed
            .retain(|&id| table.get(id).is_some_and(|i| i.symbol.is_none()));
        self.unnamed_count = self.unnamed.len();
        self.swept_at = self.table.len();
        self.kept = self.table.held() * Table::BLOCK;
    }

    /// How many inputs the table holds room for (blocks not freed).
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.table.held() * Table::BLOCK
    }

    /// The inputs `ids` as an answer lists them (`ranges.rs`).
    pub(crate) fn refs(&self, ids: &[InputId]) -> Vec<InputRef> {
        let listed: Vec<(Option<&str>, Option<&Symbol>)> = ids
            .iter()
            .filter_map(|&id| self.table.get(id))
            .map(|i| (i.cell.as_deref(), i.symbol.as_ref()))
            .collect();
        ranges::summarise(listed)
    }

    /// The files the inputs `ids` were read from, sorted, once each.
    pub(crate) fn files<'a>(&self, ids: impl IntoIterator<Item = &'a InputId>) -> Vec<String> {
        let mut files: Vec<String> = ids
            .into_iter()
            .filter_map(|&id| self.table.get(id))
            .flat_map(|i| i.files.iter().cloned())
            .collect();
        files.sort();
        files.dedup();
        files
    }
}
