//! Per-statement summaries of a cell's module-level code: what each statement
//! runs itself (a simple statement, a `def` or `class`, or the header of a
//! compound statement: `if c:`, `for x in xs:`, `except E as e:`) reads,
//! writes, changes in place and deletes, with the lines it spans.
//!
//! A run-time tracer that observes which lines ran (and nothing else about
//! a statement) can replay a cell's effects statement by statement from
//! these summaries: the accesses are the ones of the cell's CFG
//! ([`ModuleAnalysis`]), each given to the innermost statement whose own
//! code holds it.

use nbsight_notebook::{OneIndexed, ParsedCell};
use ruff_python_ast::{self as ast, Stmt};
use ruff_text_size::{Ranged, TextRange, TextSize};

use crate::access::AccessKind;
use crate::summarize::ModuleAnalysis;
use crate::symbol::Symbol;

/// What kind of code a [`StmtSummary`] stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StmtKind {
    /// A simple statement whose value is discarded (`f(x)`, `df.head()`).
    Expression,
    /// `import m` or `from m import x`.
    Import,
    /// Any other simple statement (assignments, `del`, magics).
    Simple,
    /// A `def` or `class` (decorators, defaults and a class body run when it
    /// runs; a function body does not).
    Definition,
    /// The header of a compound statement (its test, iterable, items or
    /// subject); its nested statements are statements of their own.
    Header,
}

/// One statement of a cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StmtSummary {
    pub kind: StmtKind,
    /// The source range of the code the statement runs itself.
    pub range: TextRange,
    /// Its first and last line within the cell.
    pub first_line: OneIndexed,
    pub last_line: OneIndexed,
    /// How many compound statements it is nested in.
    pub depth: u32,
    /// Its own code calls something (outside `lambda` bodies): a user
    /// function it names may be called (`df.apply(f)`), not only stored.
    pub calls: bool,
    /// Its accesses, in evaluation order.
    pub accesses: Vec<StmtAccess>,
}

/// One access of a statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StmtAccess {
    pub symbol: Symbol,
    pub kind: AccessKind,
    /// Only reflects a change of a path nested in the symbol
    /// ([`Access::implied`](crate::access::Access::implied)).
    pub implied: bool,
    /// The source range of the expression or target that makes it.
    pub range: TextRange,
}

impl StmtSummary {
    /// Does the statement's own code span `line`?
    pub fn spans(&self, line: OneIndexed) -> bool {
        (self.first_line..=self.last_line).contains(&line)
    }

    /// The symbols it accesses with an access of one of `kinds`.
    pub fn symbols<'a>(&'a self, kinds: &'a [AccessKind]) -> impl Iterator<Item = &'a Symbol> {
        self.accesses
            .iter()
            .filter(|a| kinds.contains(&a.kind))
            .map(|a| &a.symbol)
    }
}

/// The statements of a parsed cell, in source order, with the accesses of
/// its analysis.
pub fn statement_summaries(analysis: &ModuleAnalysis, parsed: &ParsedCell) -> Vec<StmtSummary> {
    let mut units = Vec::new();
    collect(&parsed.module.body, parsed, &mut units);
    // Innermost unit holding each access: units are in source order and a
    // nested unit comes after the units it is nested in, so the last unit
    // whose range holds the access is the innermost one.
    for (id, node) in analysis.cfg.nodes.iter_enumerated() {
        // A copy of a `finally` body repeats the original's accesses.
        if analysis.cfg.is_copy(id) {
            continue;
        }
        for access in &node.accesses {
            let Some(unit) = units
                .iter_mut()
                .rev()
                .find(|u: &&mut StmtSummary| u.range.contains_range(access.range))
            else {
                continue;
            };
            unit.accesses.push(StmtAccess {
                symbol: analysis.table.symbol(access.symbol),
                kind: access.kind,
                implied: access.implied,
                range: access.range,
            });
        }
    }
    units
}

fn unit(kind: StmtKind, range: TextRange, depth: u32, parsed: &ParsedCell) -> StmtSummary {
    let calls = has_call(&parsed.module.body, range);
    let first_line = parsed.line_column(range.start()).0;
    let last = range.end().max(range.start() + TextSize::from(1)) - TextSize::from(1);
    let last_line = parsed.line_column(last).0.max(first_line);
    StmtSummary {
        kind,
        range,
        first_line,
        last_line,
        depth,
        calls,
        accesses: Vec::new(),
    }
}

/// Does code of `body` within `range` call something (lambda bodies left
/// out)?
fn has_call(body: &[Stmt], range: TextRange) -> bool {
    use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
    struct Finder {
        range: TextRange,
        found: bool,
    }
    impl<'a> Visitor<'a> for Finder {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            if !self.found && stmt.range().intersect(self.range).is_some() {
                walk_stmt(self, stmt);
            }
        }
        fn visit_expr(&mut self, expr: &'a ast::Expr) {
            if self.found || !self.range.contains_range(expr.range()) {
                if !self.found && expr.range().intersect(self.range).is_some() {
                    walk_expr(self, expr);
                }
                return;
            }
            match expr {
                ast::Expr::Lambda(_) => {}
                ast::Expr::Call(_) => self.found = true,
                _ => walk_expr(self, expr),
            }
        }
    }
    let mut finder = Finder {
        range,
        found: false,
    };
    for stmt in body {
        finder.visit_stmt(stmt);
    }
    finder.found
}

fn header(stmt_start: TextSize, end: TextSize) -> TextRange {
    TextRange::new(stmt_start, end.max(stmt_start))
}

/// One piece of a statement list as Python runs it: a statement, or the
/// header of a compound statement (`if c:`, `elif c:`, `for x in xs:`,
/// `while c:`, `with a as b:`, `except E as e:`, `match s:`, `case p if
/// g:`), whose nested statements are pieces of their own, after it.
#[derive(Debug, Clone, Copy)]
pub struct Piece<'a> {
    /// The statement; for a header, the compound statement it belongs to.
    pub stmt: &'a Stmt,
    /// The code the piece runs itself.
    pub range: TextRange,
    pub header: bool,
    /// How many compound statements' bodies it is in (a header of an
    /// `elif`, `except` or `case` is at its statement's depth).
    pub depth: u32,
    /// How many of the constructs around it may run it other than once:
    /// loops, branches (`elif`, `except` and `case` headers included) and
    /// `try` bodies, not `with` bodies.
    pub branch_depth: u32,
}

impl<'a> Piece<'a> {
    /// The header of compound statement `stmt` (or of one of its clauses)
    /// from `start` to `end`.
    fn header(
        stmt: &'a Stmt,
        start: TextSize,
        end: TextSize,
        depth: u32,
        branch_depth: u32,
    ) -> Self {
        Piece {
            stmt,
            range: header(start, end),
            header: true,
            depth,
            branch_depth,
        }
    }
}

/// Calls `f` with the pieces of `body`, in source order: a compound
/// statement's header before its bodies.
pub fn for_each_piece<'a>(body: &'a [Stmt], f: &mut impl FnMut(Piece<'a>)) {
    walk(body, 0, 0, f);
}

fn walk<'a>(body: &'a [Stmt], depth: u32, branch: u32, f: &mut impl FnMut(Piece<'a>)) {
    for stmt in body {
        let start = stmt.start();
        // The statement's own header, and a clause's (`elif`, `except`,
        // `case`: a branch of it).
        let head = |end: TextSize| Piece::header(stmt, start, end, depth, branch);
        let clause =
            |start: TextSize, end: TextSize| Piece::header(stmt, start, end, depth, branch + 1);
        match stmt {
            Stmt::If(s) => {
                f(head(s.test.end()));
                walk(&s.body, depth + 1, branch + 1, f);
                for c in &s.elif_else_clauses {
                    if let Some(test) = &c.test {
                        f(clause(c.start(), test.end()));
                    }
                    walk(&c.body, depth + 1, branch + 1, f);
                }
            }
            Stmt::For(s) => {
                f(head(s.iter.end()));
                walk(&s.body, depth + 1, branch + 1, f);
                walk(&s.orelse, depth + 1, branch + 1, f);
            }
            Stmt::While(s) => {
                f(head(s.test.end()));
                walk(&s.body, depth + 1, branch + 1, f);
                walk(&s.orelse, depth + 1, branch + 1, f);
            }
            Stmt::With(s) => {
                f(head(s.items.last().map_or(start, |item| item.end())));
                walk(&s.body, depth + 1, branch, f);
            }
            Stmt::Try(s) => {
                walk(&s.body, depth + 1, branch + 1, f);
                for handler in &s.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = handler;
                    let end = h
                        .name
                        .as_ref()
                        .map(|n| n.end())
                        .or(h.type_.as_ref().map(|t| t.end()))
                        .unwrap_or(h.start());
                    f(clause(h.start(), end));
                    walk(&h.body, depth + 1, branch + 1, f);
                }
                walk(&s.orelse, depth + 1, branch + 1, f);
                walk(&s.finalbody, depth + 1, branch + 1, f);
            }
            Stmt::Match(s) => {
                f(head(s.subject.end()));
                for case in &s.cases {
                    let end = case.guard.as_ref().map_or(case.pattern.end(), |g| g.end());
                    f(clause(case.start(), end));
                    walk(&case.body, depth + 1, branch + 1, f);
                }
            }
            _ => f(Piece {
                stmt,
                range: stmt.range(),
                header: false,
                depth,
                branch_depth: branch,
            }),
        }
    }
}

fn collect(body: &[Stmt], parsed: &ParsedCell, out: &mut Vec<StmtSummary>) {
    for_each_piece(body, &mut |piece| {
        let kind = match piece.stmt {
            _ if piece.header => StmtKind::Header,
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => StmtKind::Definition,
            Stmt::Expr(_) => StmtKind::Expression,
            Stmt::Import(_) | Stmt::ImportFrom(_) => StmtKind::Import,
            _ => StmtKind::Simple,
        };
        out.push(unit(kind, piece.range, piece.depth, parsed));
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Context, Effects, ImportEnv, analyze_module};
    use nbsight_notebook::parse_python;

    fn render(source: &str) -> String {
        let parsed = parse_python(source);
        let effects = Effects::builtin();
        let imports = ImportEnv::collect([&parsed.module]);
        let ctx = Context {
            effects: &effects,
            imports: &imports,
            source,
        };
        let analysis = analyze_module(&parsed.module.body, ctx, None);
        statement_summaries(&analysis, &parsed)
            .iter()
            .map(|s| {
                let accesses: Vec<String> = s
                    .accesses
                    .iter()
                    .map(|a| {
                        let implied = if a.implied { " (implied)" } else { "" };
                        format!("{:?} {}{implied}", a.kind, a.symbol)
                    })
                    .collect();
                format!(
                    "{}{:?} {}-{}: {}",
                    "  ".repeat(s.depth as usize),
                    s.kind,
                    s.first_line,
                    s.last_line,
                    accesses.join(", ")
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn statements_with_their_own_accesses() {
        insta::assert_snapshot!(render(
            "import numpy as np\nx = np.zeros(3)\nif x[0] > 0:\n    y = x\nelif flag:\n    y = (\n        x + 1\n    )\nelse:\n    del x\nfor i in range(3):\n    lst[i] = i\nlst.append(y)\ndef f(a=d):\n    return g + a\n"
        ), @r"
        Import 1-1: Write np
        Simple 2-2: Read np, Write x
        Header 3-3: BaseRead x, Read x[0]
          Simple 4-4: Read x, Write y
        Header 5-5: Read flag
          Simple 6-8: Read x, Write y
          Simple 10-10: Delete x
        Header 11-11: Read range, Write i
          Simple 12-12: Read i, BaseRead lst, Read i, MayWrite lst[*], Mutate lst (implied)
        Expression 13-13: Read lst, Read y, Mutate lst
        Definition 14-15: Read d, Write f
        ");
    }

    #[test]
    fn a_finally_body_walked_several_times_is_one_statement() {
        insta::assert_snapshot!(render(
            "while True:\n    try:\n        x = f()\n        break\n    finally:\n        n = g(x)\n"
        ), @r"
        Header 1-1: 
            Simple 3-3: Read f, Write x
            Simple 4-4: 
            Simple 6-6: Read g, Read x, Write n
        ");
    }
}
