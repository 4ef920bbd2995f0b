//! Where a cell's code reads names, and which of those reads can fail with
//! `NameError` when the name is unbound. Not every read the dataflow sees
//! can: IPython expands `$name` and `{expr}` in `!` shell lines and magic
//! arguments when it can and leaves the text to the shell otherwise, `df?`
//! only prints that nothing is found, and a read inside a `try` whose
//! `except` catches `NameError` (bare, `Exception`, `BaseException`,
//! `NameError`) does not fail the cell. Those reads still flow values (the
//! dataflow keeps them for flows and slices); this module answers only
//! "can this read stop Run All". Computed on demand from the parse, for the
//! names a rule asks about.

use nbsight_notebook::{OneIndexed, ParsedCell, parse_python};

use crate::flags::FalseFlags;
use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{self as ast, Expr, ExprContext, IpyEscapeKind, Stmt};
use ruff_text_size::{Ranged, TextRange};

/// A read of a name at module level (not inside a function or lambda body,
/// which run when called), with whether it can fail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameRead {
    pub name: String,
    pub range: TextRange,
    /// Python code outside a `try` that catches `NameError`.
    pub can_fail: bool,
}

/// The module-level reads of names in `parsed`, in source order.
pub fn name_reads(parsed: &ParsedCell) -> Vec<NameRead> {
    reads_of(parsed, &FalseFlags::default()).out
}

/// [`name_reads`], where the body of an `if` whose test is always false
/// (`if DEBUG:` with `DEBUG = False` the notebook's only binding of it, see
/// [`FalseFlags`]) never runs: its reads cannot fail.
pub fn name_reads_given(parsed: &ParsedCell, switches: &FalseFlags) -> Vec<NameRead> {
    reads_of(parsed, switches).out
}

/// The anonymous lambdas `parsed` gives a call at module level
/// (`sorted(xs, key=lambda v: v * w)`, `df.apply(lambda r: r[c])`,
/// `g.map_lower(lambda *a, **k: ...)`), whose calls can fail: the library
/// calls them there, so the names they read are read there. Their ranges,
/// in source order.
pub fn callback_lambdas(parsed: &ParsedCell) -> Vec<TextRange> {
    reads_of(parsed, &FalseFlags::default()).callbacks
}

/// [`callback_lambdas`], but not those under an `if` whose test is always
/// false (see [`name_reads_given`]).
pub fn callback_lambdas_given(parsed: &ParsedCell, switches: &FalseFlags) -> Vec<TextRange> {
    reads_of(parsed, switches).callbacks
}

fn reads_of<'f>(parsed: &ParsedCell, switches: &'f FalseFlags) -> Reads<'f> {
    let mut finder = Reads {
        out: Vec::new(),
        callbacks: Vec::new(),
        guarded: 0,
        escape: None,
        switches,
    };
    for stmt in &parsed.module.body {
        finder.visit_stmt(stmt);
    }
    finder
}

/// The first read of `name` in `parsed` that can fail, as a line and column.
pub fn first_failing_read(parsed: &ParsedCell, name: &str) -> Option<(OneIndexed, OneIndexed)> {
    name_reads(parsed)
        .into_iter()
        .find(|r| r.can_fail && r.name == name)
        .map(|r| parsed.line_column(r.range.start()))
}

struct Reads<'f> {
    out: Vec<NameRead>,
    /// Lambdas given to a call, outside guarded code.
    callbacks: Vec<TextRange>,
    /// Depth of `try` bodies whose handlers catch `NameError`.
    guarded: u32,
    /// Inside code a magic runs (`%time f(x)`): reads get this range.
    escape: Option<TextRange>,
    /// Names bound only to false constants.
    switches: &'f FalseFlags,
}

/// An `except` clause that catches `NameError`.
fn catches_name_error(handler: &ast::ExceptHandler) -> bool {
    let ast::ExceptHandler::ExceptHandler(h) = handler;
    fn catches(expr: &Expr) -> bool {
        match expr {
            Expr::Name(n) => matches!(n.id.as_str(), "NameError" | "Exception" | "BaseException"),
            Expr::Tuple(t) => t.elts.iter().any(catches),
            _ => false,
        }
    }
    h.type_.as_deref().is_none_or(catches)
}

impl Reads<'_> {
    fn escape(&mut self, kind: IpyEscapeKind, value: &str, range: TextRange) {
        // Only the Python code `%time`/`%timeit`/`%prun` run can fail.
        if !matches!(kind, IpyEscapeKind::Magic | IpyEscapeKind::Magic2) {
            return;
        }
        let Some(code) = nbsight_dataflow::build::magic_code(value) else {
            return;
        };
        let parsed = parse_python(code);
        if parsed.has_errors() {
            return;
        }
        let saved = self.escape.replace(range);
        for stmt in &parsed.module.body {
            self.visit_stmt(stmt);
        }
        self.escape = saved;
    }
}

impl<'a> Visitor<'a> for Reads<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(def) => {
                for decorator in &def.decorator_list {
                    self.visit_expr(&decorator.expression);
                }
                for parameter in def.parameters.iter() {
                    if let Some(default) = parameter.default() {
                        self.visit_expr(default);
                    }
                }
            }
            Stmt::Try(t) => {
                let guarded = t.handlers.iter().any(catches_name_error);
                self.guarded += u32::from(guarded);
                for s in &t.body {
                    self.visit_stmt(s);
                }
                self.guarded -= u32::from(guarded);
                for handler in &t.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = handler;
                    if let Some(type_) = &h.type_ {
                        self.visit_expr(type_);
                    }
                    for s in &h.body {
                        self.visit_stmt(s);
                    }
                }
                for s in t.orelse.iter().chain(&t.finalbody) {
                    self.visit_stmt(s);
                }
            }
            Stmt::IpyEscapeCommand(e) => self.escape(e.kind, &e.value, e.range),
            // `if DEBUG:` with DEBUG a switch turned off: the body never runs.
            Stmt::If(i) if self.switches.is_false(&i.test) => {
                self.visit_expr(&i.test);
                self.guarded += 1;
                for s in &i.body {
                    self.visit_stmt(s);
                }
                self.guarded -= 1;
                for clause in &i.elif_else_clauses {
                    if let Some(test) = &clause.test {
                        self.visit_expr(test);
                    }
                    for s in &clause.body {
                        self.visit_stmt(s);
                    }
                }
            }
            _ => walk_stmt(self, stmt),
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Name(n) if n.ctx == ExprContext::Load => self.out.push(NameRead {
                name: n.id.to_string(),
                range: self.escape.unwrap_or(n.range()),
                can_fail: self.guarded == 0,
            }),
            Expr::Lambda(l) => {
                if let Some(parameters) = &l.parameters {
                    for parameter in parameters.iter() {
                        if let Some(default) = parameter.default() {
                            self.visit_expr(default);
                        }
                    }
                }
            }
            Expr::IpyEscapeCommand(e) => self.escape(e.kind, &e.value, e.range),
            Expr::Call(call) => {
                if self.guarded == 0 && self.escape.is_none() {
                    let given = call
                        .arguments
                        .args
                        .iter()
                        .chain(call.arguments.keywords.iter().map(|k| &k.value));
                    for argument in given {
                        if let Expr::Lambda(l) = argument {
                            self.callbacks.push(l.range());
                        }
                    }
                }
                walk_expr(self, expr);
            }
            _ => walk_expr(self, expr),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failing(src: &str) -> Vec<String> {
        name_reads(&parse_python(src))
            .into_iter()
            .filter(|r| r.can_fail)
            .map(|r| r.name)
            .collect()
    }

    #[test]
    fn lambdas_given_to_calls() {
        let parsed = parse_python(
            "sorted(xs, key=lambda v: v * w)\nf = lambda: a\ntry:\n    map(lambda v: b, xs)\nexcept NameError:\n    pass\nlist(map(lambda v: v + c, xs))\n",
        );
        let at: Vec<_> = callback_lambdas(&parsed)
            .iter()
            .map(|r| parsed.line_column(r.start()))
            .map(|(l, c)| (l.get(), c.get()))
            .collect();
        assert_eq!(at, [(1, 16), (7, 10)]);
    }

    #[test]
    fn reads_under_if_false_cannot_fail() {
        assert_eq!(
            failing("if False:\n    a\nelse:\n    b\nif 0:\n    c\n"),
            ["b"]
        );
    }

    #[test]
    fn shell_expansions_and_help_cannot_fail() {
        assert!(failing("!echo $HOME {path}\nx = !ls $d\ndf?\n").is_empty());
        assert_eq!(failing("%time y = f(a)\n"), ["f", "a"]);
    }

    #[test]
    fn guarded_reads_cannot_fail() {
        let src = "try:\n    a\nexcept NameError:\n    b\ntry:\n    c\nexcept ValueError:\n    pass\ntry:\n    d\nexcept:\n    pass\nelse:\n    e\ntry:\n    g\nexcept (KeyError, Exception):\n    pass\n";
        assert_eq!(
            failing(src),
            [
                "NameError",
                "b",
                "c",
                "ValueError",
                "e",
                "KeyError",
                "Exception"
            ]
        );
    }

    #[test]
    fn function_bodies_run_later() {
        assert_eq!(
            failing("@deco\ndef f(x=dflt):\n    return y\ng = lambda z=w: v\nf(q)\n"),
            ["deco", "dflt", "w", "f", "q"]
        );
    }

    #[test]
    fn the_column_is_the_name() {
        let parsed = parse_python("import os\nprint(os.path, rate)\n");
        let (line, column) = first_failing_read(&parsed, "rate").expect("read");
        assert_eq!((line.get(), column.get()), (2, 16));
    }
}
