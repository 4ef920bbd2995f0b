//! Exceptions in the replay. The recorder logs a raise in a recorded code
//! object (where it was raised, and each frame it passed through), so the
//! replay knows which statement raised: that statement ends there (the
//! block's check, `take_raised`), the code unwinds to a `try` of the same
//! code, or out of the function (its caller's statement raised too), or out
//! of the cell (a run that failed is followed up to where it failed).
//! Which handler caught it is a logged jump (`except E:` tests the
//! exception's type), as is whether a `with` block's `__exit__` swallowed
//! it.

use ruff_python_ast::{self as ast};
use ruff_text_size::Ranged;

use super::super::events::What;
use super::super::value::Value;
use super::{Flow, Mode, R, Replay, Stop, unsupported};

impl Replay<'_> {
    /// The next event of the code being replayed is a raise on the lines of
    /// `node`: it is taken.
    pub(super) fn take_raised(&mut self, node: &impl Ranged) -> bool {
        let (first, last) = self.lines(node);
        match self.peek_at() {
            Some((i, e)) if e.what == What::Raised && (first..=last).contains(&e.at.0) => {
                self.take(i);
                true
            }
            _ => false,
        }
    }

    /// `try` / `except` / `else` / `finally`.
    pub(super) fn try_(&mut self, s: &ast::StmtTry) -> R<Flow> {
        if s.is_star {
            return unsupported("an `except*` block");
        }
        // Whether the body raised (and where) depends on what it read: that
        // decided between the rest of the body and the else block on one
        // side and a handler on the other.
        self.try_reads.push(Default::default());
        let body = self.block(&s.body);
        let reads = self.try_reads.pop().unwrap_or_default().deps;
        if let Some(outer) = self.try_reads.last_mut() {
            outer.deps.union(&reads);
        }
        let decided = reads.as_why();
        let outcome = match body {
            Ok(Flow::Normal) => {
                for handler in &s.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = handler;
                    self.skipped(&h.body, &decided);
                }
                self.control.push(decided);
                let flow = self.block(&s.orelse);
                self.control.pop();
                flow
            }
            Err(Stop::Raised) => {
                self.skipped(&s.body, &decided);
                self.control.push(decided);
                let flow = self.handle(&s.handlers);
                self.control.pop();
                flow
            }
            other => other,
        };
        if let Err(Stop::Unsupported(_) | Stop::Saturated | Stop::Suspended) = outcome {
            return outcome;
        }
        match self.block(&s.finalbody)? {
            Flow::Normal => outcome,
            // `return`, `break`, `continue` in `finally` win.
            other => Ok(other),
        }
    }

    /// The handlers of a `try` whose body raised: the one that caught it
    /// runs; none did: the exception goes on.
    fn handle(&mut self, handlers: &[ast::ExceptHandler]) -> R<Flow> {
        for handler in handlers {
            let ast::ExceptHandler::ExceptHandler(h) = handler;
            let caught = match &h.type_ {
                None => true,
                Some(t) => {
                    self.eval(t, Mode::Control)?;
                    match self.jump(h)? {
                        What::Decision(matched) => matched,
                        _ => return unsupported("an `except` that is not a type test"),
                    }
                }
            };
            if !caught {
                continue;
            }
            if let Some(name) = &h.name {
                self.bind_name(name.as_str(), Value::constant());
            }
            let flow = self.block(&h.body);
            // Python unbinds the name when the handler ends.
            if let Some(name) = &h.name {
                self.unbind(name.as_str());
            }
            return flow;
        }
        Err(Stop::Raised)
    }

    /// `with`: its body, and when the body raised, whether `__exit__`
    /// swallowed the exception (a logged jump).
    pub(super) fn with_(&mut self, s: &ast::StmtWith) -> R<Flow> {
        if s.is_async {
            return unsupported("an `async with`");
        }
        for item in &s.items {
            let v = self.eval(&item.context_expr, Mode::Data)?;
            if let Some(t) = &item.optional_vars {
                self.bind(t, v)?;
            }
        }
        match self.block(&s.body) {
            Err(Stop::Raised) => match self.jump(s) {
                Ok(What::Decision(true)) => Ok(Flow::Normal),
                Ok(_) | Err(Stop::Raised) => Err(Stop::Raised),
                Err(other) => Err(other),
            },
            other => other,
        }
    }
}
