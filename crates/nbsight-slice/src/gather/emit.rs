//! Writing a cell's statements of a slice back as Python source.
//!
//! A cell whose statements are all in the slice is written as it is
//! (comments kept). Otherwise each statement is written from its original
//! text and indentation in source order; a compound statement keeps its
//! headers (`if`/`elif`/`else`, `try`/`except`/`finally`, `case`...) and
//! gets `pass` for a clause none of whose statements is kept; a statement
//! written on its header's line (`if c: x = 1`) moves to its own line.
//!
//! For a script (`.py`), IPython-only lines become comments (`pass  # ...`
//! inside a block) except `%time`/`%timeit`/`%prun` whose Python code is
//! written instead, and the displayed value of the target cell is printed
//! the way IPython shows it: its `repr`, unless it is `None`.

use fixedbitset::FixedBitSet;
use ruff_text_size::{TextRange, TextSize};

use crate::units::{Escape, Head, Layout, UnitId};

/// The variable holding the target cell's displayed value in a script.
const VALUE: &str = "__nbsight_value";

/// What the code is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// A Python script: IPython lines commented out.
    Script,
    /// A notebook cell: IPython lines kept.
    Notebook,
}

/// The code of cell `cell` for the units of `units`; `show` prints the
/// cell's displayed value (script only).
pub(crate) fn cell_code(
    layout: &Layout,
    cell: usize,
    units: &FixedBitSet,
    target: Target,
    show: bool,
) -> String {
    let c = &layout.cells[cell];
    let range = c.units.start as usize..c.units.end as usize;
    let emitter = Emitter {
        layout,
        cell,
        units,
        target,
        show: c.display.filter(|_| show && target == Target::Script),
    };
    let whole = !range.is_empty() && units.count_ones(range.clone()) == range.len();
    if whole {
        return emitter.whole_cell();
    }
    let mut out = String::new();
    for &unit in &c.top {
        if emitter.any_in(unit) {
            emitter.unit(unit, "", &mut out);
        }
    }
    out.truncate(out.trim_end().len());
    match (&c.cell_magic, target) {
        (Some(magic), Target::Notebook) => format!("{magic}\n{out}"),
        (Some(magic), Target::Script) => format!("# IPython: {magic}\n{out}"),
        (None, _) => out,
    }
}

struct Emitter<'a> {
    layout: &'a Layout,
    cell: usize,
    units: &'a FixedBitSet,
    target: Target,
    /// The unit whose value is printed.
    show: Option<UnitId>,
}

impl Emitter<'_> {
    fn source(&self) -> &str {
        &self.layout.cells[self.cell].source
    }

    fn text(&self, range: TextRange) -> &str {
        self.layout.text(self.cell, range)
    }

    fn any_in(&self, unit: UnitId) -> bool {
        let r = self.layout.subtree(unit);
        self.units.count_ones(r.start as usize..r.end as usize) > 0
    }

    fn all_in(&self, unit: UnitId) -> bool {
        let r = self.layout.subtree(unit);
        self.units.count_ones(r.start as usize..r.end as usize) == (r.end - r.start) as usize
    }

    /// The indentation of the line `offset` starts, when only blanks come
    /// before it on that line.
    fn indent_at(&self, offset: TextSize) -> Option<&str> {
        let source = self.source();
        let offset = offset.to_usize().min(source.len());
        let start = source[..offset].rfind('\n').map_or(0, |i| i + 1);
        let lead = source.get(start..offset)?;
        lead.chars().all(|c| c == ' ' || c == '\t').then_some(lead)
    }

    /// Where a unit nested in a block whose header is at `indent` goes.
    fn child_indent(&self, unit: UnitId, indent: &str) -> String {
        match self.indent_at(self.layout.unit(unit).range.start()) {
            Some(own) => own.to_string(),
            None => format!("{indent}    "),
        }
    }

    /// The whole cell as written, with the script's replacements.
    fn whole_cell(&self) -> String {
        let c = &self.layout.cells[self.cell];
        if self.target == Target::Notebook {
            let text = c.source.trim_end();
            return match &c.cell_magic {
                // The magic's line is blank in the Python text.
                Some(magic) => {
                    let body = text.split_once('\n').map_or("", |(_, body)| body);
                    format!("{magic}\n{body}")
                }
                None => skip_blank_lines(text).to_string(),
            };
        }
        let mut replacements: Vec<(TextRange, String)> = Vec::new();
        for u in c.units.clone() {
            let unit = self.layout.unit(u);
            if let Some(escape) = &unit.escape {
                let nested = unit.parent.is_some();
                replacements.push((unit.range, self.escape_text(u, escape, nested)));
            } else if Some(u) == self.show {
                replacements.push((unit.range, self.shown(u, "")));
            }
        }
        let source = self.source();
        let mut out = String::with_capacity(source.len());
        let mut at = 0;
        for (range, text) in replacements {
            out.push_str(&source[at..range.start().to_usize()]);
            out.push_str(&text);
            at = range.end().to_usize();
        }
        out.push_str(&source[at..]);
        let code = skip_blank_lines(out.trim_end()).to_string();
        match &c.cell_magic {
            Some(magic) => format!("# IPython: {magic}\n{code}"),
            None => code,
        }
    }

    /// An escape in a script: its code, or a comment (`pass` with a comment
    /// inside a block, which must not be left empty).
    fn escape_text(&self, unit: UnitId, escape: &Escape, nested: bool) -> String {
        match escape {
            Escape::Code(code) => code.clone(),
            Escape::Other => {
                let text = self.text(self.layout.unit(unit).range);
                let mut lines = text.lines();
                let first = lines.next().unwrap_or("");
                let more = if lines.next().is_some() { " ..." } else { "" };
                let pass = if nested { "pass  " } else { "" };
                format!("{pass}# IPython: {first}{more}")
            }
        }
    }

    /// The statement `unit` printing its value, at `indent`.
    fn shown(&self, unit: UnitId, indent: &str) -> String {
        let expr = self.text(self.layout.unit(unit).range);
        format!(
            "{VALUE} = ({expr})\n{indent}if {VALUE} is not None:\n{indent}    print(repr({VALUE}))"
        )
    }

    /// Writes `unit` (or the parts of it in the slice) at `indent`. Returns
    /// whether Python code (not only comments) was written.
    fn unit(&self, id: UnitId, indent: &str, out: &mut String) -> bool {
        let unit = self.layout.unit(id);
        if !unit.is_compound() {
            let text = match (&unit.escape, self.target) {
                (Some(escape), Target::Script) => {
                    let text = self.escape_text(id, escape, false);
                    let code = matches!(escape, Escape::Code(_));
                    line(out, indent, &text);
                    return code;
                }
                _ if Some(id) == self.show => self.shown(id, indent),
                _ => self.text(unit.range).to_string(),
            };
            line(out, indent, &text);
            return true;
        }
        let has_escape = || {
            let r = self.layout.subtree(id);
            (r.start..r.end).any(|u| self.layout.unit(u).escape.is_some())
        };
        if self.all_in(id) && (self.target == Target::Notebook || !has_escape()) {
            line(out, indent, self.text(unit.range));
            return true;
        }
        for clause in &unit.clauses {
            match clause.head {
                Head::Header => line(out, indent, self.text(unit.header)),
                Head::Text(range) => {
                    let own = self.indent_at(range.start()).unwrap_or(indent);
                    line(out, own, self.text(range));
                }
                Head::Keyword(keyword) => line(out, indent, &format!("{keyword}:")),
            }
            let Some(&first) = clause.body.first() else {
                continue;
            };
            let mut code = false;
            for &child in &clause.body {
                if self.any_in(child) {
                    let child_indent = self.child_indent(child, indent);
                    code |= self.unit(child, &child_indent, out);
                }
            }
            if !code {
                line(out, &self.child_indent(first, indent), "pass");
            }
        }
        true
    }
}

/// Appends `text` (whose later lines keep their own indentation) at `indent`.
fn line(out: &mut String, indent: &str, text: &str) {
    out.push_str(indent);
    out.push_str(text);
    out.push('\n');
}

/// `text` from its first line that is not blank.
fn skip_blank_lines(text: &str) -> &str {
    let mut start = 0;
    for l in text.split_inclusive('\n') {
        if !l.trim().is_empty() {
            break;
        }
        start += l.len();
    }
    &text[start..]
}
