//! IPython escapes: line magics (`%matplotlib inline`, `%time stmt`), shell
//! escapes (`!pip install {pkg}`, `x = !ls`), help (`df?`) and autocall. Their
//! known effects become accesses: `%time`/`%timeit`/`%prun` run Python code,
//! which is analysed (`%time` and `%prun` in the user namespace, so their
//! bindings are the cell's; `%timeit` and `%%timeit` inside a function, so
//! they read the namespace, may change objects in place and bind nothing in
//! it); `%pylab` binds what IPython's `import_pylab` binds (its imports and
//! aliases, and its star imports unless `--no-import-all`); `{expr}` and
//! `$name` expansions are reads; `df?` reads `df`. Every magic used is
//! recorded by name.

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, IpyEscapeKind, Stmt};
use ruff_text_size::TextRange;

use super::ScopeBuilder;
use super::nested::function_summary_and_builtins;
use crate::access::AccessKind;
use crate::scope::FunctionScope;
use crate::symbol::root;

/// Line magics whose argument is Python code run in the user namespace.
const CODE_MAGICS: &[&str] = &["time", "timeit", "prun"];

/// What `%pylab` runs in the user namespace (IPython's `import_pylab`):
/// the modules and their aliases, then `figsize`, `getfigs` and `display`
/// put into the namespace (written here as the imports they are).
const PYLAB: &str = "import numpy\nimport matplotlib\nfrom matplotlib import pylab, mlab, pyplot\nnp = numpy\nplt = pyplot\nfrom IPython.core.pylabtools import figsize, getfigs\nfrom IPython.display import display\n";

/// `%pylab` without `--no-import-all` also runs these star imports.
const PYLAB_IMPORT_ALL: &str = "from matplotlib.pylab import *\nfrom numpy import *\n";

impl ScopeBuilder<'_> {
    /// A statement that is an IPython escape.
    pub(crate) fn escape_statement(&mut self, s: &ast::StmtIpyEscapeCommand) {
        self.escape(s.kind, &s.value, s.range, false);
    }

    /// An escape used as a value (`x = !ls`, `t = %timeit -o f()`).
    pub(crate) fn escape_expression(&mut self, e: &ast::ExprIpyEscapeCommand) {
        self.escape(e.kind, &e.value, e.range, true);
    }

    fn escape(&mut self, kind: IpyEscapeKind, value: &str, range: TextRange, is_value: bool) {
        match kind {
            IpyEscapeKind::Magic | IpyEscapeKind::Magic2 => {
                let (name, rest) = split_word(value);
                let prefix = if kind == IpyEscapeKind::Magic {
                    "%"
                } else {
                    "%%"
                };
                self.magics.insert(format!("{prefix}{name}"));
                if kind == IpyEscapeKind::Magic && name == "pylab" {
                    self.pylab(rest, range);
                    return;
                }
                if CODE_MAGICS.contains(&name) {
                    let code = strip_magic_options(name, rest);
                    if self.embedded_code(code, range, is_value, name == "timeit") {
                        return;
                    }
                }
                self.expansions(rest, range);
            }
            IpyEscapeKind::Shell | IpyEscapeKind::ShCap => {
                self.magics.insert("!".to_string());
                self.expansions(value, range);
            }
            IpyEscapeKind::Help | IpyEscapeKind::Help2 => {
                let target = value.trim().trim_end_matches('?').trim_start_matches('?');
                self.dotted_read(target.trim(), range);
            }
            IpyEscapeKind::Quote | IpyEscapeKind::Quote2 | IpyEscapeKind::Paren => {
                let (callee, _) = split_word(value);
                self.dotted_read(callee, range);
            }
        }
    }

    /// `%pylab [gui] [--no-import-all]`: binds what IPython's
    /// `import_pylab` binds (and, with the star imports, names nbsight
    /// cannot list).
    fn pylab(&mut self, args: &str, range: TextRange) {
        let import_all = !args.split_whitespace().any(|a| a == "--no-import-all");
        self.embedded_code(PYLAB, range, false, false);
        if import_all {
            self.embedded_code(PYLAB_IMPORT_ALL, range, false, false);
        }
    }

    /// Analyses Python code given to a magic in place (`timed`: inside a
    /// function, as `%timeit` runs it). Returns `false` (and analyses
    /// nothing) when it does not parse.
    pub(super) fn embedded_code(
        &mut self,
        code: &str,
        range: TextRange,
        is_value: bool,
        timed: bool,
    ) -> bool {
        let parsed = nbsight_notebook::parse_python(code);
        if parsed.has_errors() {
            return false;
        }
        let saved = self.range_override.replace(range);
        let body = &parsed.module.body;
        if timed {
            self.timed_code(body, false);
            self.range_override = saved;
            return true;
        }
        match body.as_slice() {
            // As a value, or a lone expression: evaluate in the current node.
            [Stmt::Expr(e)] => self.visit_expr(&e.value),
            _ if is_value => {}
            _ => {
                // Statements (`%time x = f()`) run in this node's place.
                for stmt in body {
                    self.embedded_statement(stmt);
                }
            }
        }
        self.range_override = saved;
        true
    }

    /// A statement run by a magic: simple statements are analysed in the
    /// current node; compound ones are walked as usual.
    fn embedded_statement(&mut self, stmt: &Stmt) {
        match stmt {
            Stmt::Assign(s) => {
                self.visit_expr(&s.value);
                for target in &s.targets {
                    self.store(target);
                }
            }
            Stmt::AugAssign(s) => {
                self.aug_target_load(&s.target);
                self.visit_expr(&s.value);
                self.store(&s.target);
            }
            Stmt::Expr(e) => self.visit_expr(&e.value),
            other => self.visit_body(std::slice::from_ref(other)),
        }
    }

    /// Code `%timeit` / `%%timeit` runs in a function of its own: the globals
    /// it reads are read, the objects it changes in place are changed, and
    /// the names it binds are that function's locals (only a `global`
    /// declaration binds in the namespace). `own_nodes`: each top-level
    /// statement gets a node (a `%%timeit` cell); else the accesses go to
    /// the current node (a line magic).
    pub(crate) fn timed_code(&mut self, body: &[Stmt], own_nodes: bool) {
        use ruff_text_size::Ranged;
        let chain = self.chain.push(FunctionScope::of_function(None, body));
        for stmt in body {
            let (summary, builtins) = function_summary_and_builtins(
                self.ctx,
                chain.clone(),
                Vec::new(),
                std::slice::from_ref(stmt),
                None,
            );
            let range = stmt.range();
            if own_nodes {
                self.step(range);
            }
            for symbol in summary.reads.iter().chain(&builtins) {
                self.read_symbol(symbol, range);
            }
            for symbol in &summary.writes {
                if self.tracks(root(symbol)) {
                    self.emit(symbol, AccessKind::MayWrite, range);
                }
            }
            for symbol in &summary.mutates {
                if self.tracks(root(symbol)) {
                    self.emit_mutation(symbol, AccessKind::Mutate, range);
                }
            }
            for symbol in &summary.may_mutate {
                if self.tracks(root(symbol)) {
                    self.emit_mutation(symbol, AccessKind::MayMutate, range);
                }
            }
        }
    }

    /// IPython's variable expansion in shell commands and magic arguments:
    /// `{expr}` evaluates an expression, `$name` reads a name (`$$` and `{{`
    /// are escapes).
    fn expansions(&mut self, text: &str, range: TextRange) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'{' if bytes.get(i + 1) == Some(&b'{') => i += 2,
                b'{' => {
                    let Some(len) = text[i + 1..].find('}') else {
                        break;
                    };
                    let inner = &text[i + 1..i + 1 + len];
                    let parsed = nbsight_notebook::parse_python(inner);
                    if !parsed.has_errors()
                        && let [Stmt::Expr(e)] = parsed.module.body.as_slice()
                    {
                        let saved = self.range_override.replace(range);
                        self.visit_expr(&e.value);
                        self.range_override = saved;
                    }
                    i += len + 2;
                }
                b'$' if bytes.get(i + 1) == Some(&b'$') => i += 2,
                b'$' => {
                    let name: String = text[i + 1..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) {
                        self.dotted_read(&name, range);
                    }
                    i += 1 + name.len();
                }
                _ => i += 1,
            }
        }
    }

    /// Reads `a.b.c` given as text, if it is a dotted name.
    fn dotted_read(&mut self, dotted: &str, range: TextRange) {
        let valid = !dotted.is_empty()
            && dotted.split('.').all(|part| {
                !part.is_empty()
                    && part.chars().all(|c| c.is_alphanumeric() || c == '_')
                    && !part.starts_with(|c: char| c.is_ascii_digit())
            });
        if !valid {
            return;
        }
        let mut parts = dotted.split('.');
        let Some(root) = parts.next() else {
            return;
        };
        if !self.tracks(root) {
            return;
        }
        let mut symbol = root.to_string();
        self.emit(&symbol, AccessKind::Read, range);
        for part in parts {
            symbol.push('.');
            symbol.push_str(part);
            self.emit(&symbol, AccessKind::Read, range);
        }
    }
}

/// The Python code a line magic runs in the user namespace, without the
/// magic's options: `x = f()` for the escape value `time x = f()` (the text
/// after `%`), `f(x)` for `timeit -n 10 f(x)`. `None` for other magics.
pub fn magic_code(value: &str) -> Option<&str> {
    let (name, rest) = split_word(value);
    CODE_MAGICS
        .contains(&name)
        .then(|| strip_magic_options(name, rest))
        .filter(|code| !code.trim().is_empty())
}

/// The first whitespace-separated word and the rest.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find(char::is_whitespace) {
        Some(end) => (&text[..end], text[end..].trim_start()),
        None => (text, ""),
    }
}

/// Drops `%timeit`/`%prun` options (`-n 10 -r 3 -o -q`) before the code.
fn strip_magic_options<'t>(name: &str, mut rest: &'t str) -> &'t str {
    if name == "time" {
        return rest;
    }
    loop {
        let (word, after) = split_word(rest);
        if !word.starts_with('-') || word.len() < 2 {
            return rest;
        }
        let takes_value = matches!(word, "-n" | "-r" | "-p" | "-s" | "-T" | "-D" | "-l");
        rest = if takes_value {
            split_word(after).1
        } else {
            after
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_options() {
        assert_eq!(split_word("time x = 1"), ("time", "x = 1"));
        assert_eq!(strip_magic_options("timeit", "-n 10 -r 3 -o f(x)"), "f(x)");
        assert_eq!(strip_magic_options("time", "-x"), "-x");
        assert_eq!(magic_code("time y = g()"), Some("y = g()"));
        assert_eq!(magic_code("timeit -n 3 -o f(x)"), Some("f(x)"));
        assert_eq!(magic_code("matplotlib inline"), None);
        assert_eq!(magic_code("time"), None);
    }
}
