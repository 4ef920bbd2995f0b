//! The statements a slice is made of ("units") and the notebook's layout.
//!
//! Every cell's statements become units in source order, numbered across the
//! notebook top to bottom (so sorting unit ids sorts by execution order). A
//! unit is a simple statement, a `def` or `class` (with decorators and body:
//! never sliced inside), or the header of a compound statement (`if` with its
//! `elif`/`else` tests, `for`, `while`, `try` with its `except` clauses,
//! `with`, `match` with its `case` patterns) whose nested statements are
//! units of their own. Each unit keeps the source ranges needed to write it
//! back ([`super::gather`]); the AST itself is not kept.

use std::ops::Range;

use nbsight_dataflow::build::magic_code;

use super::calls::calls_of;
use nbsight_model::aliases::{Fact, alias_facts};
use nbsight_model::{CellStatus, NamedCall};
use nbsight_notebook::{OneIndexed, ParsedCell};
use ruff_python_ast::{self as ast, Expr, IpyEscapeKind, Stmt};
use ruff_text_size::{Ranged, TextRange, TextSize};

/// Index of a unit in [`Layout::units`].
pub(crate) type UnitId = u32;

/// How a clause of a compound statement starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Head {
    /// The unit's own header (`if c:`, `for x in xs:`, `match v:`).
    Header,
    /// Source text: `elif c:`, `except E as e:`, `case [x]:`.
    Text(TextRange),
    /// A bare keyword clause (`else`, `finally`), written `KEYWORD:`.
    Keyword(&'static str),
}

/// One clause of a compound statement and the units nested in it.
#[derive(Debug, Clone)]
pub(crate) struct Clause {
    pub head: Head,
    pub body: Vec<UnitId>,
}

/// What an IPython escape statement runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Escape {
    /// `%time`/`%timeit`/`%prun` with Python code: the code.
    Code(String),
    /// Anything else (`%matplotlib inline`, `!pip install x`, `x = !ls`).
    Other,
}

/// A statement of the notebook.
#[derive(Debug, Clone)]
pub(crate) struct Unit {
    pub cell: usize,
    /// The compound statement it is nested in.
    pub parent: Option<UnitId>,
    /// The whole statement (decorators, clauses and bodies included).
    pub range: TextRange,
    /// The unit's own text: the whole statement, or a compound statement's
    /// first header (`if c:`), without trailing blanks.
    pub header: TextRange,
    /// The clauses of a compound statement (empty for the others).
    pub clauses: Vec<Clause>,
    /// The units nested directly in it, in source order.
    pub children: Vec<UnitId>,
    /// An IPython escape (or a statement whose value is one: `x = !ls`).
    pub escape: Option<Escape>,
    /// `break`/`continue`: the loop; `raise`: the innermost enclosing `try`.
    pub jump_target: Option<UnitId>,
    /// May bind names nbsight cannot see (`from m import *`, `%run`, `%store`).
    pub unknown_defs: bool,
    /// Calls of plain names in its own code, with the names passed.
    pub calls: Vec<NamedCall>,
    /// The first and last lines of `header` within the cell.
    pub line: OneIndexed,
    pub end_line: OneIndexed,
}

impl Unit {
    pub(crate) fn is_compound(&self) -> bool {
        !self.clauses.is_empty()
    }
}

/// One cell of the layout.
#[derive(Debug, Clone)]
pub(crate) struct CellLayout {
    pub id: String,
    pub state: CellStatus,
    /// The Python text of a Python cell (line for line with the cell; a cell
    /// magic line is blank), the offsets of its units point into it.
    pub source: String,
    /// The Python cell magic line (`%%time`), if any.
    pub cell_magic: Option<String>,
    /// Its units (all nesting levels), in source order.
    pub units: Range<UnitId>,
    /// Its top-level units.
    pub top: Vec<UnitId>,
    /// The last top-level statement when it is a bare expression whose
    /// value IPython displays (not followed by `;`).
    pub display: Option<UnitId>,
}

/// The statements of a notebook, cell by cell.
#[derive(Debug, Clone, Default)]
pub(crate) struct Layout {
    pub path: String,
    pub cells: Vec<CellLayout>,
    pub units: Vec<Unit>,
    /// Names that may refer to the same objects ([`nbsight_model::aliases`]).
    pub aliases: Vec<Fact>,
}

impl Layout {
    /// Adds a cell without units.
    pub(crate) fn push_empty(&mut self, id: &str, state: CellStatus) {
        let at = self.units.len() as UnitId;
        self.cells.push(CellLayout {
            id: id.to_string(),
            state,
            source: String::new(),
            cell_magic: None,
            units: at..at,
            top: Vec::new(),
            display: None,
        });
    }

    /// Adds a Python cell that parsed, with its units.
    pub(crate) fn push_code(&mut self, id: &str, cell_magic: Option<String>, parsed: &ParsedCell) {
        let cell = self.cells.len();
        let first = self.units.len() as UnitId;
        let mut builder = Builder {
            cell,
            parsed,
            units: &mut self.units,
            aliases: &mut self.aliases,
            loops: Vec::new(),
            tries: Vec::new(),
        };
        let top = builder.body(&parsed.module.body, None);
        let display = top
            .last()
            .copied()
            .filter(|&u| shows_value(parsed, &parsed.module.body, &self.units[u as usize]));
        self.cells.push(CellLayout {
            id: id.to_string(),
            state: CellStatus::Code,
            source: parsed.source().to_string(),
            cell_magic,
            units: first..self.units.len() as UnitId,
            top,
            display,
        });
    }

    pub(crate) fn unit(&self, id: UnitId) -> &Unit {
        &self.units[id as usize]
    }

    /// The unit of cell `cell` whose own code holds `offset`: the innermost
    /// statement containing it.
    pub(crate) fn unit_at(&self, cell: usize, offset: TextSize) -> Option<UnitId> {
        let mut candidates: &[UnitId] = &self.cells[cell].top;
        let mut found = None;
        loop {
            let at = candidates.partition_point(|&u| self.unit(u).range.start() <= offset);
            let Some(&unit) = at.checked_sub(1).and_then(|i| candidates.get(i)) else {
                return found;
            };
            if !self.unit(unit).range.contains(offset) {
                return found;
            }
            found = Some(unit);
            candidates = &self.unit(unit).children;
        }
    }

    /// The source text of a range of cell `cell`.
    pub(crate) fn text(&self, cell: usize, range: TextRange) -> &str {
        self.cells[cell]
            .source
            .get(range.start().to_usize()..range.end().to_usize())
            .unwrap_or("")
    }

    /// The units of a unit's subtree (itself first).
    pub(crate) fn subtree(&self, unit: UnitId) -> Range<UnitId> {
        // Units are numbered in pre-order: the subtree ends after the last
        // descendant.
        let mut last = unit;
        while let Some(&child) = self.unit(last).children.last() {
            last = child;
        }
        unit..last + 1
    }
}

struct Builder<'a> {
    cell: usize,
    parsed: &'a ParsedCell,
    units: &'a mut Vec<Unit>,
    aliases: &'a mut Vec<Fact>,
    /// Enclosing loops (innermost last): where `break`/`continue` go.
    loops: Vec<UnitId>,
    /// Enclosing `try` bodies: where `raise` goes.
    tries: Vec<UnitId>,
}

impl Builder<'_> {
    fn body(&mut self, stmts: &[Stmt], parent: Option<UnitId>) -> Vec<UnitId> {
        stmts.iter().map(|s| self.stmt(s, parent)).collect()
    }

    fn stmt(&mut self, stmt: &Stmt, parent: Option<UnitId>) -> UnitId {
        let id = self.units.len() as UnitId;
        let range = stmt.range();
        self.units.push(Unit {
            cell: self.cell,
            parent,
            range,
            header: range,
            clauses: Vec::new(),
            children: Vec::new(),
            escape: None,
            jump_target: None,
            unknown_defs: false,
            calls: calls_of(stmt),
            // Set once the header is known.
            line: OneIndexed::MIN,
            end_line: OneIndexed::MIN,
        });
        self.aliases.extend(alias_facts(stmt));
        let mut clauses = Vec::new();
        let mut header_end = None;
        match stmt {
            Stmt::If(s) => {
                header_end = first_start(&s.body);
                clauses.push(self.clause(Head::Header, &s.body, id));
                for clause in &s.elif_else_clauses {
                    let head = match clause.test {
                        Some(_) => Head::Text(self.head_range(clause.range, &clause.body)),
                        None => Head::Keyword("else"),
                    };
                    clauses.push(self.clause(head, &clause.body, id));
                }
            }
            Stmt::For(ast::StmtFor { body, orelse, .. })
            | Stmt::While(ast::StmtWhile { body, orelse, .. }) => {
                header_end = first_start(body);
                self.loops.push(id);
                clauses.push(self.clause(Head::Header, body, id));
                self.loops.pop();
                if !orelse.is_empty() {
                    clauses.push(self.clause(Head::Keyword("else"), orelse, id));
                }
            }
            Stmt::Try(s) => {
                header_end = first_start(&s.body);
                self.tries.push(id);
                clauses.push(self.clause(Head::Header, &s.body, id));
                self.tries.pop();
                for handler in &s.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = handler;
                    let head = Head::Text(self.head_range(h.range, &h.body));
                    clauses.push(self.clause(head, &h.body, id));
                }
                if !s.orelse.is_empty() {
                    clauses.push(self.clause(Head::Keyword("else"), &s.orelse, id));
                }
                if !s.finalbody.is_empty() {
                    clauses.push(self.clause(Head::Keyword("finally"), &s.finalbody, id));
                }
            }
            Stmt::With(s) => {
                header_end = first_start(&s.body);
                clauses.push(self.clause(Head::Header, &s.body, id));
            }
            Stmt::Match(s) => {
                header_end = s.cases.first().map(|c| c.range.start());
                clauses.push(Clause {
                    head: Head::Header,
                    body: Vec::new(),
                });
                for case in &s.cases {
                    let head = Head::Text(self.head_range(case.range, &case.body));
                    clauses.push(self.clause(head, &case.body, id));
                }
            }
            Stmt::Break(_) | Stmt::Continue(_) => {
                self.units[id as usize].jump_target = self.loops.last().copied();
            }
            Stmt::Raise(_) => {
                self.units[id as usize].jump_target = self.tries.last().copied();
            }
            Stmt::ImportFrom(s) => {
                self.units[id as usize].unknown_defs =
                    s.names.iter().any(|a| a.name.as_str() == "*");
            }
            Stmt::IpyEscapeCommand(e) => {
                let escape = match e.kind {
                    IpyEscapeKind::Magic => magic_code(&e.value)
                        .filter(|code| !nbsight_notebook::parse_python(code).has_errors())
                        .map_or(Escape::Other, |code| Escape::Code(code.trim().to_string())),
                    _ => Escape::Other,
                };
                let unit = &mut self.units[id as usize];
                unit.escape = Some(escape);
                let name = e.value.split_whitespace().next().unwrap_or("");
                unit.unknown_defs =
                    e.kind == IpyEscapeKind::Magic && matches!(name, "run" | "store");
            }
            Stmt::Assign(ast::StmtAssign { value, .. })
            | Stmt::AugAssign(ast::StmtAugAssign { value, .. })
            | Stmt::Expr(ast::StmtExpr { value, .. })
                if value.is_ipy_escape_command_expr() =>
            {
                self.units[id as usize].escape = Some(Escape::Other);
            }
            Stmt::AnnAssign(ast::StmtAnnAssign {
                value: Some(value), ..
            }) if value.is_ipy_escape_command_expr() => {
                self.units[id as usize].escape = Some(Escape::Other);
            }
            _ => {}
        }
        let header = match header_end {
            Some(end) => self.trimmed(TextRange::new(range.start(), end.max(range.start()))),
            None => range,
        };
        let (line, end_line) = self.lines(header);
        let children = clauses
            .iter()
            .flat_map(|c| c.body.iter().copied())
            .collect();
        let unit = &mut self.units[id as usize];
        unit.header = header;
        unit.line = line;
        unit.end_line = end_line;
        unit.clauses = clauses;
        unit.children = children;
        id
    }

    fn clause(&mut self, head: Head, body: &[Stmt], parent: UnitId) -> Clause {
        Clause {
            head,
            body: self.body(body, Some(parent)),
        }
    }

    /// The text of a clause from its keyword to its first statement.
    fn head_range(&self, clause: TextRange, body: &[Stmt]) -> TextRange {
        let end = first_start(body).unwrap_or(clause.end());
        self.trimmed(TextRange::new(clause.start(), end.max(clause.start())))
    }

    /// `range` without trailing whitespace.
    fn trimmed(&self, range: TextRange) -> TextRange {
        let text = self
            .parsed
            .source()
            .get(range.start().to_usize()..range.end().to_usize())
            .unwrap_or("");
        let len = TextSize::try_from(text.trim_end().len()).unwrap_or_default();
        TextRange::at(range.start(), len)
    }

    /// First and last line of a range.
    fn lines(&self, range: TextRange) -> (OneIndexed, OneIndexed) {
        let (first, _) = self.parsed.line_column(range.start());
        let last_char = if range.is_empty() {
            range.start()
        } else {
            range.end() - TextSize::from(1)
        };
        let (last, _) = self.parsed.line_column(last_char);
        (first, last)
    }
}

fn first_start(body: &[Stmt]) -> Option<TextSize> {
    body.first().map(|s| s.start())
}

/// `true` when `unit` (the last top-level statement of the cell) is a bare
/// expression IPython displays: no IPython escape, no `;` after it.
fn shows_value(parsed: &ParsedCell, body: &[Stmt], unit: &Unit) -> bool {
    let Some(Stmt::Expr(stmt)) = body.last() else {
        return false;
    };
    if unit.escape.is_some() || matches!(*stmt.value, Expr::IpyEscapeCommand(_)) {
        return false;
    }
    let rest = parsed
        .source()
        .get(stmt.range.end().to_usize()..)
        .unwrap_or("");
    let code: String = rest
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .collect();
    !code.trim_start().starts_with(';')
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_notebook::parse_python;

    fn layout(src: &str) -> Layout {
        let parsed = parse_python(src);
        assert!(!parsed.has_errors(), "{:?}", parsed.errors);
        let mut layout = Layout::default();
        layout.push_code("c0", None, &parsed);
        layout
    }

    fn header(layout: &Layout, unit: UnitId) -> &str {
        layout.text(0, layout.unit(unit).header)
    }

    #[test]
    fn compound_statements_nest_their_bodies() {
        let l = layout(
            "x = 1\nif c:\n    y = 2\nelif d:\n    y = 3\nelse:\n    y = 4\nfor i in r:\n    if i:\n        break\nelse:\n    z = 1\n",
        );
        let cell = &l.cells[0];
        assert_eq!(cell.top, [0, 1, 5]);
        assert_eq!(header(&l, 1), "if c:");
        assert_eq!(l.unit(1).children, [2, 3, 4]);
        assert_eq!(l.unit(3).parent, Some(1));
        assert!(matches!(l.unit(1).clauses[1].head, Head::Text(r) if l.text(0, r) == "elif d:"));
        assert_eq!(l.unit(1).clauses[2].head, Head::Keyword("else"));
        assert_eq!(header(&l, 5), "for i in r:");
        // `break` aims at the loop; the loop's `else` is outside it.
        assert_eq!(l.unit(7).jump_target, Some(5));
        assert_eq!(l.subtree(5), 5..9);
        assert_eq!((l.unit(5).line.get(), l.unit(5).end_line.get()), (8, 8));
        assert_eq!(cell.units, 0..9);
    }

    #[test]
    fn offsets_find_the_innermost_statement() {
        let src = "a = 1\nwith open(p) as f:\n    b = f.read()\n";
        let l = layout(src);
        let at = |needle: &str| {
            let offset = TextSize::try_from(src.find(needle).expect("in source")).expect("small");
            l.unit_at(0, offset)
        };
        assert_eq!(at("a ="), Some(0));
        assert_eq!(at("open"), Some(1));
        assert_eq!(at("f.read"), Some(2));
        assert_eq!(l.unit_at(0, TextSize::from(5)), None);
    }

    #[test]
    fn escapes_and_displayed_values() {
        let l = layout("%matplotlib inline\n%time y = g()\nx = !ls\ny\n");
        assert_eq!(l.unit(0).escape, Some(Escape::Other));
        assert_eq!(l.unit(1).escape, Some(Escape::Code("y = g()".into())));
        assert_eq!(l.unit(2).escape, Some(Escape::Other));
        assert_eq!(l.cells[0].display, Some(3));
        assert_eq!(layout("y;\n").cells[0].display, None);
        assert_eq!(layout("y  # shown\n").cells[0].display, Some(0));
        assert_eq!(layout("print(y)\nx = 1\n").cells[0].display, None);
    }

    #[test]
    fn star_imports_and_run_may_define_anything() {
        let l = layout("from m import *\n%run other.py\nimport m\n");
        assert!(l.unit(0).unknown_defs && l.unit(1).unknown_defs);
        assert!(!l.unit(2).unknown_defs);
    }

    #[test]
    fn try_and_match_clauses() {
        let l = layout(
            "try:\n    a = 1\n    raise E\nexcept E as e:\n    raise\nfinally:\n    b = 2\nmatch v:\n    case [x]:\n        c = x\n",
        );
        assert_eq!(header(&l, 0), "try:");
        assert_eq!(l.unit(2).jump_target, Some(0));
        // A `raise` in a handler leaves the `try`.
        assert_eq!(l.unit(3).jump_target, None);
        assert_eq!(l.unit(0).clauses.len(), 3);
        assert_eq!(header(&l, 5), "match v:");
        assert!(matches!(l.unit(5).clauses[1].head, Head::Text(r) if l.text(0, r) == "case [x]:"));
        assert_eq!(l.unit(6).parent, Some(5));
    }
}
