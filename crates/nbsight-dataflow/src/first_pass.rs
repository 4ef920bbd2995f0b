//! Value feasibility of a cell's first pass: is a name read before the cell
//! binds it, once the values known on the first iteration of a loop are
//! taken into account? The seed's example:
//!
//! ```python
//! for i in range(3):
//!     if i == 0:
//!         count = 0
//!     else:
//!         count = count + 1
//! ```
//!
//! The range is not empty, so the body runs with `i == 0`, takes the `if`
//! branch and binds `count` before any read: `count` is not an input.
//!
//! The cell's statements are walked in order with the constants known on the
//! first pass (a `for` over `range(...)` of integer literals or over a
//! display of literals binds its target to the first item); `if` tests that
//! fold to a constant take one branch, other tests both (and the answer is
//! known only when both agree). Anything else touching the name (`while`,
//! `try`, a loop over unknown data) leaves the question open.

use ruff_python_ast::visitor::{Visitor, walk_expr};
use ruff_python_ast::{self as ast, CmpOp, Expr, Number, Stmt, UnaryOp};
use rustc_hash::FxHashMap;

use crate::imports::bindings_of;

use crate::symbol::target_names;

/// What the first pass does to the name first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstAccess {
    /// Read before any binding: an input.
    Read,
    /// Bound before any read: not an input.
    Bound,
    /// Not decided statically.
    Unknown,
}

/// A constant known on the first pass.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Int(i64),
    Bool(bool),
    Str(String),
}

/// Decides what `body` does first to `name`.
pub fn first_access(body: &[Stmt], name: &str) -> FirstAccess {
    let mut walk = Walk {
        name,
        env: FxHashMap::default(),
    };
    match walk.body(body) {
        Step::Done(access) => access,
        // Never read: not an input.
        Step::Untouched => FirstAccess::Bound,
    }
}

enum Step {
    /// The answer.
    Done(FirstAccess),
    /// The code ran without touching the name.
    Untouched,
}

struct Walk<'a> {
    name: &'a str,
    env: FxHashMap<String, Value>,
}

impl Walk<'_> {
    fn branch(&self) -> Walk<'_> {
        Walk {
            name: self.name,
            env: self.env.clone(),
        }
    }

    /// Forgets the constants `stmts` may rebind.
    fn forget(&mut self, stmts: &[Stmt]) {
        for n in assigned(stmts) {
            self.env.remove(&n);
        }
    }

    fn body(&mut self, stmts: &[Stmt]) -> Step {
        for stmt in stmts {
            if let Step::Done(access) = self.stmt(stmt) {
                return Step::Done(access);
            }
        }
        Step::Untouched
    }

    fn stmt(&mut self, stmt: &Stmt) -> Step {
        match stmt {
            Stmt::Assign(s) => {
                if reads(&s.value, self.name) {
                    return Step::Done(FirstAccess::Read);
                }
                let mut names = Vec::new();
                for target in &s.targets {
                    if !matches!(target, Expr::Name(_) | Expr::Tuple(_) | Expr::List(_)) {
                        // `name[0] = v` reads `name`.
                        if reads(target, self.name) {
                            return Step::Done(FirstAccess::Read);
                        }
                    }
                    target_names(target, &mut names);
                }
                // `y = (name := 0)` binds it too.
                if names.iter().any(|n| n == self.name)
                    || assigned(std::slice::from_ref(stmt))
                        .iter()
                        .any(|n| n == self.name)
                {
                    return Step::Done(FirstAccess::Bound);
                }
                self.forget(std::slice::from_ref(stmt));
                if let ([Expr::Name(target)], Some(value)) =
                    (s.targets.as_slice(), constant(&s.value, &self.env))
                {
                    self.env.insert(target.id.to_string(), value);
                }
                Step::Untouched
            }
            Stmt::AugAssign(s) => {
                // `name += v` reads `name` first.
                let own = matches!(&*s.target, Expr::Name(n) if n.id.as_str() == self.name);
                if own || reads(&s.target, self.name) || reads(&s.value, self.name) {
                    return Step::Done(FirstAccess::Read);
                }
                let mut names = Vec::new();
                target_names(&s.target, &mut names);
                for n in names {
                    self.env.remove(&n);
                }
                Step::Untouched
            }
            Stmt::Expr(s) => self.only_reads(&s.value),
            Stmt::Pass(_) => Step::Untouched,
            // Where control goes next is not followed.
            Stmt::Break(_) | Stmt::Continue(_) => Step::Done(FirstAccess::Unknown),
            Stmt::Import(_) | Stmt::ImportFrom(_) | Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {
                let bound = assigned(std::slice::from_ref(stmt));
                if bound.iter().any(|n| n == self.name) {
                    Step::Done(FirstAccess::Bound)
                } else {
                    for n in bound {
                        self.env.remove(&n);
                    }
                    Step::Untouched
                }
            }
            Stmt::If(s) => self.if_statement(s),
            Stmt::For(s) => self.for_statement(s),
            _ => {
                if mentions(stmt, self.name) {
                    Step::Done(FirstAccess::Unknown)
                } else {
                    self.forget(std::slice::from_ref(stmt));
                    Step::Untouched
                }
            }
        }
    }

    fn only_reads(&self, expr: &Expr) -> Step {
        if reads(expr, self.name) {
            Step::Done(FirstAccess::Read)
        } else {
            Step::Untouched
        }
    }

    fn if_statement(&mut self, s: &ast::StmtIf) -> Step {
        // The clauses in order: (test, body); `else` has no test.
        let mut clauses: Vec<(Option<&Expr>, &[Stmt])> = vec![(Some(&*s.test), &s.body)];
        clauses.extend(
            s.elif_else_clauses
                .iter()
                .map(|c| (c.test.as_ref(), c.body.as_slice())),
        );
        let has_else = clauses.last().is_some_and(|(t, _)| t.is_none());
        let mut outcomes = Vec::new();
        for (test, body) in clauses {
            if let Some(test) = test {
                if reads(test, self.name) {
                    return Step::Done(FirstAccess::Read);
                }
                match constant(test, &self.env).map(|v| truthy(&v)) {
                    Some(true) => {
                        // This branch runs, the later ones do not.
                        let mut branch = self.branch();
                        outcomes.push(branch.body(body));
                        // Only this branch ran: its constants hold after.
                        self.env = branch.env;
                        return merge(outcomes);
                    }
                    Some(false) => continue,
                    None => {}
                }
            }
            let mut branch = self.branch();
            outcomes.push(branch.body(body));
        }
        if !has_else {
            outcomes.push(Step::Untouched);
        }
        // Which branch ran is not known: what any of them binds is unknown.
        self.forget(&s.body);
        for clause in &s.elif_else_clauses {
            self.forget(&clause.body);
        }
        merge(outcomes)
    }

    fn for_statement(&mut self, s: &ast::StmtFor) -> Step {
        if reads(&s.iter, self.name) {
            return Step::Done(FirstAccess::Read);
        }
        let mut names = Vec::new();
        target_names(&s.target, &mut names);
        if names.iter().any(|n| n == self.name) {
            return Step::Done(FirstAccess::Bound);
        }
        let Some(first) = first_item(&s.iter, &self.env) else {
            // The loop may not run, or runs with unknown values.
            return if mentions_any(&s.body, self.name) || mentions_any(&s.orelse, self.name) {
                Step::Done(FirstAccess::Unknown)
            } else {
                Step::Untouched
            };
        };
        for n in &names {
            self.env.remove(n);
        }
        if let (Expr::Name(target), Some(value)) = (&*s.target, first) {
            self.env.insert(target.id.to_string(), value);
        }
        match self.body(&s.body) {
            Step::Done(access) => Step::Done(access),
            // Later iterations run with other values.
            Step::Untouched if mentions_any(&s.body, self.name) => Step::Done(FirstAccess::Unknown),
            Step::Untouched => {
                // After the loop its variables hold the last iteration's
                // values, not the first's.
                for n in &names {
                    self.env.remove(n);
                }
                self.forget(&s.body);
                // No `break` was seen: the `else` runs.
                self.body(&s.orelse)
            }
        }
    }
}

/// The answer of a branching statement: known when every branch agrees.
/// Bound on some branches and untouched on the others is
/// [`Step::Untouched`]: a later read may see no binding (an input, as the
/// union of the possible flows has it), a later binding settles it.
fn merge(outcomes: Vec<Step>) -> Step {
    let mut answer: Option<FirstAccess> = None;
    let mut untouched = false;
    for outcome in outcomes {
        match outcome {
            Step::Done(FirstAccess::Read) => return Step::Done(FirstAccess::Read),
            Step::Done(access) => match answer {
                None => answer = Some(access),
                Some(a) if a == access => {}
                Some(_) => answer = Some(FirstAccess::Unknown),
            },
            Step::Untouched => untouched = true,
        }
    }
    match (answer, untouched) {
        (None, _) => Step::Untouched,
        // Bound on one branch, untouched on another: a later read decides.
        (Some(FirstAccess::Bound), true) => Step::Untouched,
        (Some(access), _) => Step::Done(access),
    }
}

/// The first item a `for` loop binds its target to, when the loop surely
/// runs: `Some(None)` when it runs with an unknown or compound item.
fn first_item(iter: &Expr, env: &FxHashMap<String, Value>) -> Option<Option<Value>> {
    match iter {
        Expr::Call(call)
            if matches!(&*call.func, Expr::Name(f) if f.id.as_str() == "range")
                && call.arguments.keywords.is_empty() =>
        {
            let args: Vec<i64> = call
                .arguments
                .args
                .iter()
                .map(|a| match constant(a, env) {
                    Some(Value::Int(i)) => Some(i),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()?;
            let (start, stop, step) = match args.as_slice() {
                [stop] => (0, *stop, 1),
                [start, stop] => (*start, *stop, 1),
                [start, stop, step] if *step != 0 => (*start, *stop, *step),
                _ => return None,
            };
            let runs = if step > 0 { start < stop } else { start > stop };
            runs.then_some(Some(Value::Int(start)))
        }
        Expr::List(ast::ExprList { elts, .. }) | Expr::Tuple(ast::ExprTuple { elts, .. }) => {
            let first = elts.first()?;
            if first.is_starred_expr() {
                return None;
            }
            Some(constant(first, env))
        }
        Expr::StringLiteral(s) => {
            let text = s.value.to_str();
            let first = text.chars().next()?;
            Some(Some(Value::Str(first.to_string())))
        }
        _ => None,
    }
}

/// The constant `expr` folds to on the first pass.
fn constant(expr: &Expr, env: &FxHashMap<String, Value>) -> Option<Value> {
    match expr {
        Expr::NumberLiteral(n) => match &n.value {
            Number::Int(i) => i.as_i64().map(Value::Int),
            _ => None,
        },
        Expr::BooleanLiteral(b) => Some(Value::Bool(b.value)),
        Expr::StringLiteral(s) => Some(Value::Str(s.value.to_str().to_string())),
        Expr::Name(name) => env.get(name.id.as_str()).cloned(),
        Expr::UnaryOp(u) => {
            let operand = constant(&u.operand, env)?;
            match (u.op, operand) {
                (UnaryOp::Not, v) => Some(Value::Bool(!truthy(&v))),
                (UnaryOp::USub, Value::Int(i)) => i.checked_neg().map(Value::Int),
                _ => None,
            }
        }
        Expr::Compare(c) if c.ops.len() == 1 && c.comparators.len() == 1 => {
            let left = constant(&c.left, env)?;
            let right = constant(&c.comparators[0], env)?;
            let ordering = match (&left, &right) {
                (Value::Int(a), Value::Int(b)) => a.cmp(b),
                (Value::Str(a), Value::Str(b)) => a.cmp(b),
                (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
                _ => return None,
            };
            let result = match c.ops[0] {
                CmpOp::Eq => ordering.is_eq(),
                CmpOp::NotEq => ordering.is_ne(),
                CmpOp::Lt => ordering.is_lt(),
                CmpOp::LtE => ordering.is_le(),
                CmpOp::Gt => ordering.is_gt(),
                CmpOp::GtE => ordering.is_ge(),
                _ => return None,
            };
            Some(Value::Bool(result))
        }
        _ => None,
    }
}

fn truthy(value: &Value) -> bool {
    match value {
        Value::Int(i) => *i != 0,
        Value::Bool(b) => *b,
        Value::Str(s) => !s.is_empty(),
    }
}

/// Finds the uses of one name (loads only, or any).
struct NameFinder<'n> {
    name: &'n str,
    loads_only: bool,
    found: bool,
}

impl<'a> Visitor<'a> for NameFinder<'_> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Name(n) = expr
            && n.id.as_str() == self.name
            && (!self.loads_only || n.ctx.is_load())
        {
            self.found = true;
        }
        if !self.found {
            walk_expr(self, expr);
        }
    }
}

/// `expr` loads `name` (lambdas and comprehensions count, they may run now).
fn reads(expr: &Expr, name: &str) -> bool {
    let mut finder = NameFinder {
        name,
        loads_only: true,
        found: false,
    };
    finder.visit_expr(expr);
    finder.found
}

/// `stmt` names `name` anywhere.
fn mentions(stmt: &Stmt, name: &str) -> bool {
    let mut finder = NameFinder {
        name,
        loads_only: false,
        found: false,
    };
    finder.visit_stmt(stmt);
    finder.found
}

fn mentions_any(stmts: &[Stmt], name: &str) -> bool {
    stmts.iter().any(|s| mentions(s, name))
}

/// The names `stmts` may bind (assignment targets, walrus, loop and `with`
/// targets, imports, `def` and `class` names; not inside function bodies).
fn assigned(stmts: &[Stmt]) -> Vec<String> {
    #[derive(Default)]
    struct Finder(Vec<String>);
    impl<'a> Visitor<'a> for Finder {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(f) => self.0.push(f.name.to_string()),
                Stmt::ClassDef(c) => self.0.push(c.name.to_string()),
                Stmt::Import(_) | Stmt::ImportFrom(_) => {
                    self.0.extend(bindings_of(stmt).into_iter().map(|b| b.name));
                }
                stmt => ruff_python_ast::visitor::walk_stmt(self, stmt),
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            if let Expr::Name(n) = expr
                && n.ctx.is_store()
            {
                self.0.push(n.id.to_string());
            }
            if !matches!(expr, Expr::Lambda(_)) {
                walk_expr(self, expr);
            }
        }
    }
    let mut finder = Finder::default();
    for stmt in stmts {
        finder.visit_stmt(stmt);
    }
    finder.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(src: &str, name: &str) -> FirstAccess {
        let parsed = nbsight_notebook::parse_python(src);
        assert!(!parsed.has_errors(), "{:?}", parsed.errors);
        first_access(&parsed.module.body, name)
    }

    #[test]
    fn the_seeds_count_loop_binds_before_reading() {
        let src = "for i in range(3):\n    if i == 0:\n        count = 0\n    else:\n        count = count + 1\n";
        assert_eq!(access(src, "count"), FirstAccess::Bound);
    }

    #[test]
    fn an_augmented_assignment_reads_first() {
        assert_eq!(access("y += 7", "y"), FirstAccess::Read);
        assert_eq!(access("y.n += 7", "y"), FirstAccess::Read);
    }

    #[test]
    fn a_loop_that_reads_first_reads() {
        let src = "for i in range(3):\n    if i > 0:\n        count = 0\n    else:\n        count = count + 1\n";
        assert_eq!(access(src, "count"), FirstAccess::Read);
    }

    #[test]
    fn an_empty_range_or_unknown_data_is_undecided() {
        let empty = "for i in range(0):\n    if i == 0:\n        count = 0\n    else:\n        count = count + 1\n";
        assert_eq!(access(empty, "count"), FirstAccess::Unknown);
        let data = "for i in data:\n    if i == 0:\n        count = 0\n    else:\n        count = count + 1\n";
        assert_eq!(access(data, "count"), FirstAccess::Unknown);
    }

    #[test]
    fn constants_fold_through_assignments_and_negation() {
        let src = "k = 2\nfor i in range(1, 4):\n    if not i < k:\n        t = t + 1\n    else:\n        t = 0\n";
        assert_eq!(access(src, "t"), FirstAccess::Bound);
        let literal =
            "for w in ['a', 'b']:\n    if w == 'a':\n        n = 1\n    else:\n        n += 1\n";
        assert_eq!(access(literal, "n"), FirstAccess::Bound);
    }

    #[test]
    fn an_unknown_test_needs_both_branches_to_agree() {
        let both = "for i in range(3):\n    if flag:\n        c = 0\n    else:\n        c = 1\n    c = c + 1\n";
        assert_eq!(access(both, "c"), FirstAccess::Bound);
        // When `flag` is false the read comes first: an input.
        let one = "for i in range(3):\n    if flag:\n        c = 0\n    c = c + 1\n";
        assert_eq!(access(one, "c"), FirstAccess::Read);
    }
}
