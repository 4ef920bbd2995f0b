//! Conditions as CPython compiles them, so that the replay takes one logged
//! jump for each jump the interpreter took. In a test (`if`, `elif`,
//! `while`, a conditional expression's test, a comprehension's `if`,
//! `assert`) CPython jumps on the parts: `not x` jumps on `x`, `a and b`
//! on `a` then `b` (stopping at the first that decides), a chained
//! comparison on each comparison, `x if c else y` on `c` then on the part
//! chosen, and a constant (`while True`) not at all. An `and`/`or` whose
//! value is used jumps once after each operand but the last, at the
//! position of the whole expression; CPython 3.10/3.11 skip that jump when
//! an inner `and`/`or` already decided it (jump threading), 3.12+ take it.

use ruff_python_ast::{self as ast, Expr};

use super::super::events::{Event, What};
use super::super::value::Deps;
use super::{Mode, R, Replay, unsupported};

impl Replay<'_> {
    /// A condition in a test: its truth and what it read.
    pub(super) fn test(&mut self, e: &Expr) -> R<(bool, Deps)> {
        self.nested(|r| r.test_here(e))
    }

    fn test_here(&mut self, e: &Expr) -> R<(bool, Deps)> {
        if let Some(truth) = constant_truth(e, 0) {
            return Ok((truth, Deps::default()));
        }
        match e {
            Expr::UnaryOp(u) if u.op == ast::UnaryOp::Not => {
                let (truth, deps) = self.test(&u.operand)?;
                Ok((!truth, deps))
            }
            Expr::BoolOp(b) => {
                let and = b.op == ast::BoolOp::And;
                let mut deps = Deps::default();
                for v in &b.values {
                    let (truth, d) = self.test(v)?;
                    deps.union(&d);
                    if truth != and {
                        return Ok((truth, deps));
                    }
                }
                Ok((and, deps))
            }
            Expr::If(i) => {
                let (taken, mut deps) = self.test(&i.test)?;
                let chosen = if taken { &i.body } else { &i.orelse };
                let (truth, d) = self.test(chosen)?;
                deps.union(&d);
                Ok((truth, deps))
            }
            Expr::Compare(c) if c.ops.len() > 1 => {
                let mut deps = self.eval(&c.left, Mode::Control)?.deps();
                for comparator in &c.comparators {
                    deps.union(&self.eval(comparator, Mode::Control)?.deps());
                    if !self.truth_of(e)? {
                        return Ok((false, deps));
                    }
                }
                Ok((true, deps))
            }
            _ => {
                let deps = self.eval(e, Mode::Control)?.deps();
                Ok((self.truth_of(e)?, deps))
            }
        }
    }

    /// The truth of `e` from the next logged jump on it.
    fn truth_of(&mut self, e: &Expr) -> R<bool> {
        match self.jump(e)? {
            What::Decision(truth) => Ok(truth),
            What::NoneTest(none) => match e {
                Expr::Compare(c) if c.ops.len() == 1 => match c.ops[0] {
                    ast::CmpOp::Is => Ok(none),
                    ast::CmpOp::IsNot => Ok(!none),
                    _ => unsupported("a `None` test of a comparison that is not `is`"),
                },
                _ => unsupported("a `None` test of an expression that is not `is`"),
            },
            _ => unsupported("a jump that is not a decision"),
        }
    }

    /// The truth of operand `v` (not the last) of the `and`/`or` `b` whose
    /// value is used.
    pub(super) fn operand_truth(&mut self, b: &ast::ExprBoolOp, v: &Expr) -> R<bool> {
        let inner = match (v, self.short_circuit.take()) {
            (Expr::BoolOp(inner), Some((start, truth))) if inner.range.start() == start => {
                Some(truth)
            }
            // A constant operand: CPython folds its jump away.
            _ => constant_truth(v, 0),
        };
        let Some(truth) = inner else {
            return self.truth_of_boolop(b);
        };
        // Decided by the inner `and`/`or` (3.12+ still jumps here) or a
        // constant (a jump CPython may keep).
        let at = self.at(b);
        if let Some((
            i,
            Event {
                at: a,
                what: What::Decision(t),
                ..
            },
        )) = self.peek_at()
            && *a == at
            && *t == truth
        {
            self.take(i);
        }
        Ok(truth)
    }

    fn truth_of_boolop(&mut self, b: &ast::ExprBoolOp) -> R<bool> {
        match self.jump(b)? {
            What::Decision(truth) => Ok(truth),
            _ => unsupported("an `and`/`or` jump that is not a decision"),
        }
    }
}

/// The truth of a condition CPython folds to a constant (no jump is
/// compiled for it): literals, `not`/`-` of them, tuples of them,
/// `__debug__`.
pub(super) fn constant_truth(e: &Expr, depth: usize) -> Option<bool> {
    if depth > super::MAX_NESTING {
        return None;
    }
    match e {
        Expr::NumberLiteral(n) => Some(match &n.value {
            ast::Number::Int(i) => i.as_u64() != Some(0),
            ast::Number::Float(f) => *f != 0.0,
            ast::Number::Complex { real, imag } => *real != 0.0 || *imag != 0.0,
        }),
        Expr::StringLiteral(s) => Some(!s.value.is_empty()),
        Expr::BytesLiteral(b) => Some(!b.value.is_empty()),
        Expr::BooleanLiteral(b) => Some(b.value),
        Expr::NoneLiteral(_) => Some(false),
        Expr::EllipsisLiteral(_) => Some(true),
        Expr::Name(n) if n.id.as_str() == "__debug__" => Some(true),
        Expr::UnaryOp(u) => {
            let inner = constant_truth(&u.operand, depth + 1)?;
            match u.op {
                ast::UnaryOp::Not => Some(!inner),
                ast::UnaryOp::USub | ast::UnaryOp::UAdd => {
                    matches!(&*u.operand, Expr::NumberLiteral(_)).then_some(inner)
                }
                ast::UnaryOp::Invert => None,
            }
        }
        Expr::Tuple(t)
            if t.elts
                .iter()
                .all(|e| constant_truth(e, depth + 1).is_some()) =>
        {
            Some(!t.elts.is_empty())
        }
        _ => None,
    }
}

/// An event as a reason names it.
pub(super) fn describe(event: Option<&Event>) -> String {
    match event {
        None => "the end of the log".into(),
        Some(e) => {
            let what = match &e.what {
                What::Decision(_) | What::NoneTest(_) => "a decision",
                What::Iteration => "an iteration",
                What::Exhausted => "a loop's end",
                What::Key(_) => "a key",
                What::Order(_) | What::Ranks(_) => "a selection",
                What::Raised => "a raise",
                What::Enter => "a call",
                What::Saturated => "the end of the function's logged calls",
                What::Unlogged => "the end of the statement's logged calls",
            };
            format!("{what} on line {}", e.at.0)
        }
    }
}
