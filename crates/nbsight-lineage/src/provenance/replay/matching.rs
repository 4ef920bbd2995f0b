//! `match` in the replay. CPython compiles a case's pattern to conditional
//! jumps at the positions of its parts, each jumping to the next case when
//! that part does not match: a mapping or sequence pattern tests the
//! subject's kind and length at the pattern's start (and a mapping whether
//! its keys are there: a jump on `None`), a class pattern whether
//! `MATCH_CLASS` gave `None`, a value or singleton pattern its comparison
//! at the value's position; an or-pattern tries its alternatives in order.
//! The replay takes the jumps logged inside a case's pattern and reads the
//! outcome from them: a part failed where the jump went the failing way,
//! and the pattern matched when no part failed outside an alternative that
//! another one rescued. A guard is a test like an `if`'s.
//!
//! What chose the case (`why` of its body, and of what the cases not taken
//! would have bound) is everything the tried patterns inspected: the
//! subject's kind and length, each part compared, the values compared with
//! and the classes. A capture binds the part it captured (`x` in
//! `{'x': x}` is the subject's `['x']`).
//!
//! A jump is attributed to the innermost part around its position, each
//! part taking at most the jumps CPython emits for it (a value or class
//! one, a sequence two, a mapping three, a capture none); jumps in the
//! pattern's range that no part on the path tried took are the guard's
//! (3.11 logs a guard's jump at the last part of the pattern it compiled)
//! and go back to the log.
//!
//! CPython 3.10 logs no columns: there a case matched when its pattern's
//! last jump did not fail, and a guard or body on the pattern's own line is
//! not followed (its jumps cannot be told from the pattern's).

use ruff_python_ast::{self as ast, Expr, Pattern};
use ruff_text_size::Ranged;

use super::super::events::{At, Event, What};
use super::super::value::{Deps, Value};
use super::conditions::describe;
use super::{Flow, Mode, R, Replay, Stop, constant_key, exits, unsupported};

/// What the patterns tried so far inspected, and what the matching one
/// captured.
#[derive(Default)]
struct Matched {
    decided: Deps,
    bindings: Vec<(String, Value)>,
    /// Which of the case's logged jumps ([`Judge::Columns`]) a part took.
    used: Vec<bool>,
}

/// How a case's outcome is read from its logged jumps.
enum Judge {
    /// Each jump (with its index in the log) is attributed to the
    /// innermost part of the pattern around its position.
    Columns(Vec<(usize, Event)>),
    /// No columns (CPython 3.10): the whole pattern's outcome.
    Lines { matched: bool },
}

impl Replay<'_> {
    /// `match subject: case ...`.
    pub(super) fn match_(&mut self, s: &ast::StmtMatch) -> R<Flow> {
        let subject = self.eval(&s.subject, Mode::Control)?;
        let mut decided = Deps::default();
        let mut taken = None;
        for (i, case) in s.cases.iter().enumerate() {
            let judge = self.judge(case)?;
            let mut m = Matched::default();
            if let Judge::Columns(events) = &judge {
                m.used = vec![false; events.len()];
            }
            let matched = self.pattern(&case.pattern, &subject, &judge, &mut m)?;
            decided.union(&m.decided.as_why());
            if !matched {
                continue;
            }
            // The jumps no part took are the guard's.
            if let Judge::Columns(events) = &judge
                && let Some(first) = m.used.iter().position(|u| !u)
            {
                self.next = events[first].0;
            }
            // Captures are bound before the guard runs (and stay bound
            // when it fails).
            self.control.push(decided.clone());
            for (name, value) in m.bindings {
                self.bind_name(&name, value);
            }
            self.control.pop();
            if let Some(guard) = &case.guard {
                let (truth, deps) = self.test(guard)?;
                decided.union(&deps.as_why());
                if !truth {
                    continue;
                }
            }
            taken = Some(i);
            break;
        }
        for (j, case) in s.cases.iter().enumerate() {
            if Some(j) != taken {
                self.skipped(&case.body, &decided);
            }
        }
        let flow = match taken {
            Some(i) => {
                self.control.push(decided.clone());
                let flow = self.block(&s.cases[i].body);
                self.control.pop();
                flow
            }
            None => Ok(Flow::Normal),
        };
        let leaves = s
            .cases
            .iter()
            .map(|c| exits(&c.body))
            .fold((false, false), |a, b| (a.0 || b.0, a.1 || b.1));
        self.exit_after(Some(decided), leaves);
        flow
    }

    /// The jumps logged inside `case`'s pattern, taken from the log.
    fn judge(&mut self, case: &ast::MatchCase) -> R<Judge> {
        let p = &case.pattern;
        let (start, end) = self.range(p);
        let mut events = Vec::new();
        loop {
            match self.peek_at() {
                Some((i, e))
                    if matches!(e.what, What::Decision(_) | What::NoneTest(_))
                        && inside(e.at, start, end) =>
                {
                    self.take(i);
                    events.push((i, e.clone()));
                }
                Some((_, e)) if e.what == What::Raised && (start.0..=end.0).contains(&e.at.0) => {
                    return Err(Stop::Raised);
                }
                _ => break,
            }
        }
        if events.is_empty() && p.irrefutable_pattern().is_none() {
            if self.saturated_here() {
                return Err(Stop::Saturated);
            }
            if self.generator_suspended() {
                return Err(Stop::Suspended);
            }
            return unsupported(format!(
                "the case on line {} not logged, found {}",
                start.0,
                describe(self.peek())
            ));
        }
        if !events.iter().any(|(_, e)| e.at.1 == 0) {
            return Ok(Judge::Columns(events));
        }
        let after = case
            .guard
            .as_deref()
            .map(|g| self.at(g).0)
            .into_iter()
            .chain(case.body.first().map(|b| self.at(b).0));
        if after.into_iter().any(|line| line <= end.0) {
            return unsupported(format!(
                "a case whose guard or body is on its pattern's line ({}) without columns (CPython 3.10)",
                end.0
            ));
        }
        let matched = events.last().is_none_or(|(_, e)| !fails(p, e));
        Ok(Judge::Lines { matched })
    }

    /// Whether pattern `p` matched `value` (as the log says), adding what
    /// it inspected and captured to `m`.
    fn pattern(&mut self, p: &Pattern, value: &Value, judge: &Judge, m: &mut Matched) -> R<bool> {
        let failed = match judge {
            Judge::Columns(events) => {
                let mut failed = false;
                let mut quota = quota(p);
                // The ranges of `p` and of its parts, once.
                let own = self.range(p);
                let parts: Vec<(At, At)> = children(p).iter().map(|c| self.range(*c)).collect();
                let inside_of = |at: At, (start, end): (At, At)| inside(at, start, end);
                for (k, (_, e)) in events.iter().enumerate() {
                    if quota == 0 {
                        break;
                    }
                    if !m.used[k]
                        && inside_of(e.at, own)
                        && !parts.iter().any(|r| inside_of(e.at, *r))
                    {
                        m.used[k] = true;
                        quota -= 1;
                        failed |= fails(p, e);
                    }
                }
                failed
            }
            Judge::Lines { matched } => !matched,
        };
        // With no columns the whole pattern's outcome is known, not its
        // parts': it is checked once, at the top.
        let judge = match judge {
            Judge::Lines { .. } => &Judge::Lines { matched: true },
            columns => columns,
        };
        match p {
            Pattern::MatchValue(v) => {
                m.decided.union(&value.deps());
                let compared = self.eval(&v.value, Mode::Control)?.deps();
                m.decided.union(&compared);
                Ok(!failed)
            }
            Pattern::MatchSingleton(_) => {
                m.decided.union(&value.deps());
                Ok(!failed)
            }
            Pattern::MatchSequence(s) => {
                m.decided.union(&value.structure());
                if failed {
                    return Ok(false);
                }
                let items = value.elements();
                let star = s
                    .patterns
                    .iter()
                    .position(|p| matches!(p, Pattern::MatchStar(_)));
                let n = s.patterns.len();
                for (k, sub) in s.patterns.iter().enumerate() {
                    let item = match (&items, star) {
                        (Some(items), Some(st)) if k == st => {
                            let end = items.len().saturating_sub(n - st - 1);
                            let rest = items.get(st..end).unwrap_or_default().to_vec();
                            Value::sequence(rest, value.structure())
                        }
                        (Some(items), Some(st)) if k > st => items
                            .len()
                            .checked_sub(n - k)
                            .and_then(|i| items.get(i))
                            .cloned()
                            .unwrap_or_else(|| Value::scalar(value.deps())),
                        (Some(items), _) => items
                            .get(k)
                            .cloned()
                            .unwrap_or_else(|| Value::scalar(value.deps())),
                        (None, Some(st)) if k >= st => Value::scalar(value.deps()),
                        (None, _) => self.load_key(value, &k.to_string()),
                    };
                    if !self.pattern(sub, &item, judge, m)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Pattern::MatchMapping(mm) => {
                m.decided.union(&value.structure());
                if failed {
                    return Ok(false);
                }
                let mut matched_keys = Vec::new();
                for (key, sub) in mm.keys.iter().zip(&mm.patterns) {
                    let item = match constant_key(key) {
                        Some(Some(k)) => {
                            let item = self.load_key(value, &k);
                            matched_keys.push(k);
                            item
                        }
                        _ => {
                            let key = self.eval(key, Mode::Control)?.deps();
                            m.decided.union(&key);
                            Value::scalar(value.deps())
                        }
                    };
                    if !self.pattern(sub, &item, judge, m)? {
                        return Ok(false);
                    }
                }
                if let Some(rest) = &mm.rest {
                    let rest_value = match value {
                        Value::Mapping(map) => {
                            let map = map.borrow();
                            let items = map
                                .items
                                .iter()
                                .filter(|(k, _)| !matched_keys.contains(k))
                                .cloned()
                                .collect();
                            Value::mapping(items, map.structure.clone())
                        }
                        other => Value::scalar(other.deps()),
                    };
                    m.bindings.push((rest.to_string(), rest_value));
                }
                Ok(true)
            }
            Pattern::MatchClass(c) => {
                let class = self.eval(&c.cls, Mode::Control)?.deps();
                m.decided.union(&class);
                m.decided.union(&value.structure());
                if failed {
                    return Ok(false);
                }
                // `int(x)`, `str(s)`...: the one positional pattern matches
                // the subject itself; other classes' positions are named by
                // their `__match_args__`, which the replay does not see.
                let whole =
                    matches!(&*c.cls, Expr::Name(n) if SELF_MATCHING.contains(&n.id.as_str()));
                for sub in &c.arguments.patterns {
                    let item = if whole {
                        value.clone()
                    } else {
                        Value::scalar(value.deps())
                    };
                    if !self.pattern(sub, &item, judge, m)? {
                        return Ok(false);
                    }
                }
                for kw in &c.arguments.keywords {
                    let item = match value {
                        Value::Object(_) => self.part(value, &format!(".{}", kw.attr)),
                        other => Value::scalar(other.deps()),
                    };
                    if !self.pattern(&kw.pattern, &item, judge, m)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Pattern::MatchStar(s) => {
                if let Some(name) = &s.name {
                    m.bindings.push((name.to_string(), value.clone()));
                }
                Ok(true)
            }
            Pattern::MatchAs(a) => {
                if let Some(inner) = &a.pattern
                    && !self.pattern(inner, value, judge, m)?
                {
                    return Ok(false);
                }
                if let Some(name) = &a.name {
                    m.bindings.push((name.to_string(), value.clone()));
                }
                Ok(!failed)
            }
            Pattern::MatchOr(o) => {
                for alternative in &o.patterns {
                    let mark = m.bindings.len();
                    if self.pattern(alternative, value, judge, m)? {
                        return Ok(true);
                    }
                    m.bindings.truncate(mark);
                }
                Ok(false)
            }
        }
    }

    /// Where `node` starts and ends.
    fn range(&self, node: &impl Ranged) -> (At, At) {
        (self.at(node), self.positions.at(node.end()))
    }
}

/// Builtin classes whose one positional pattern matches the subject itself.
const SELF_MATCHING: &[&str] = &[
    "bool",
    "bytearray",
    "bytes",
    "dict",
    "float",
    "frozenset",
    "int",
    "list",
    "set",
    "str",
    "tuple",
];

/// `at` in `[start, end)`; by line only when it has no column.
fn inside(at: At, start: At, end: At) -> bool {
    if at.1 == 0 {
        (start.0..=end.0).contains(&at.0)
    } else {
        start <= at && at < end
    }
}

/// How many jumps CPython emits for `p` itself (not its parts): a
/// sequence tests its kind and length, a mapping its kind, length and keys,
/// a class `MATCH_CLASS`'s result, a value or singleton its comparison.
fn quota(p: &Pattern) -> usize {
    match p {
        Pattern::MatchValue(_) | Pattern::MatchSingleton(_) | Pattern::MatchClass(_) => 1,
        Pattern::MatchSequence(_) => 2,
        Pattern::MatchMapping(_) => 3,
        Pattern::MatchAs(_) | Pattern::MatchStar(_) | Pattern::MatchOr(_) => 0,
    }
}

/// The patterns directly inside `p`.
fn children(p: &Pattern) -> Vec<&Pattern> {
    match p {
        Pattern::MatchSequence(s) => s.patterns.iter().collect(),
        Pattern::MatchMapping(m) => m.patterns.iter().collect(),
        Pattern::MatchClass(c) => c
            .arguments
            .patterns
            .iter()
            .chain(c.arguments.keywords.iter().map(|k| &k.pattern))
            .collect(),
        Pattern::MatchAs(a) => a.pattern.as_deref().into_iter().collect(),
        Pattern::MatchOr(o) => o.patterns.iter().collect(),
        Pattern::MatchValue(_) | Pattern::MatchSingleton(_) | Pattern::MatchStar(_) => Vec::new(),
    }
}

/// Whether the jump `e`, logged in `p`, went the way that fails `p`: a
/// tested value was false, or `MATCH_CLASS`/`MATCH_KEYS` gave `None`; for
/// `case None`, which 3.12+ compiles to a jump on not-`None`, the value
/// was not `None`.
fn fails(p: &Pattern, e: &Event) -> bool {
    let none_pattern = matches!(
        p,
        Pattern::MatchSingleton(s) if s.value == ast::Singleton::None
    );
    match e.what {
        What::Decision(truth) => !truth,
        What::NoneTest(is_none) => is_none != none_pattern,
        _ => false,
    }
}
