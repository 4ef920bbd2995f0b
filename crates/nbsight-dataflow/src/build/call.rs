//! Calls and their effects: a call on an imported module's function is looked
//! up by qualified name, a method call by method name, in the library-effects
//! knowledge base; what the entry says is changed becomes a `Mutate` access; a
//! method nobody knows makes its receiver `MayMutate`. Calls whose entry has
//! roles are recorded as [`CallSite`]s for the leakage analysis.

use compact_str::CompactString;
use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::{Ranged, TextRange};
use smallvec::SmallVec;

use super::{ScopeBuilder, ScopeKind};
use crate::access::AccessKind;
use crate::builtins::is_builtin;
use crate::call_site::{CallSite, Operand};
use crate::effects::{Effect, Role, Target};
use crate::global_state::changes_global_state;
use crate::symbol::Symbol;

impl<'c> ScopeBuilder<'c> {
    pub(crate) fn call(&mut self, call: &ast::ExprCall) {
        match &*call.func {
            Expr::Attribute(attr) => {
                let mut name = std::mem::take(&mut self.call_name);
                if self.module_path(&attr.value, &mut name) {
                    // `np.random.shuffle(x)`: a library function, not a method.
                    name.push('.');
                    name.push_str(attr.attr.as_str());
                    self.read_module_root(&attr.value);
                    let callee = self.library_callee(&name);
                    self.call_name = name;
                    let mut args = CallArgs::default();
                    self.arguments(&call.arguments, &mut args);
                    if let Some((effect, callee)) = callee {
                        self.function_call(effect, &callee, &args, call);
                    }
                    return;
                }
                self.call_name = name;
                let receiver = self.path(&attr.value, AccessKind::Read);
                let receiver_pending = self.pending(&attr.value);
                let mut args = CallArgs::default();
                self.arguments(&call.arguments, &mut args);
                if matches!(attr.attr.as_str(), "query" | "eval")
                    && let Some(literal) = args.first_str
                {
                    // `df.query("x > @limit")` reads the variable `limit`.
                    for name in at_names(literal.value.to_str()) {
                        if self.tracks(name) {
                            self.emit_name(name, AccessKind::Read, literal.range());
                        }
                    }
                }
                // `groupby(k)[c].transform("mean")`, `.agg("median")`: the
                // statistic named is what the call takes.
                let named_statistic = match attr.attr.as_str() {
                    "transform" | "agg" | "aggregate" => args
                        .first_str
                        .and_then(|l| self.ctx.effects.method(l.value.to_str()))
                        .filter(|e| e.has_role(Role::FitTransform)),
                    _ => None,
                };
                // `minority.sample(n, replace=True)`: rows drawn with
                // replacement, repeated: a resampling (bootstrap,
                // oversampling), as `sklearn.utils.resample` is.
                let with_replacement = (attr.attr.as_str() == "sample"
                    && args
                        .keywords
                        .iter()
                        .any(|k| k.name == Some("replace") && k.truthy))
                .then(|| self.ctx.effects.function("sklearn.utils.resample"))
                .flatten();
                let effect = named_statistic
                    .or(with_replacement)
                    .or_else(|| self.ctx.effects.method(attr.attr.as_str()));
                // `df.mean(axis=1)`: a statistic of each row's own values,
                // not of all rows (no role).
                let per_row;
                let effect = match effect {
                    Some(e)
                        if e.has_role(Role::FitTransform)
                            && args
                                .keywords
                                .iter()
                                .any(|k| k.name == Some("axis") && (k.truthy || k.columns)) =>
                    {
                        per_row = Effect {
                            roles: Vec::new(),
                            ..e.clone()
                        };
                        Some(&per_row)
                    }
                    other => other,
                };
                match (effect, receiver) {
                    (Some(effect), receiver) => {
                        if receiver.is_none() && changes_receiver(effect, &args) {
                            self.note_param_change(&attr.value);
                        }
                        self.apply(effect, receiver.as_deref(), &args, call);
                        let receiver_operand = match effect.roles.is_empty() {
                            true => Operand::Other(TextRange::default()),
                            false => receiver_pending.operand(&receiver),
                        };
                        self.record(
                            effect,
                            attr.attr.as_str(),
                            true,
                            receiver_operand,
                            &args,
                            call,
                        );
                    }
                    (None, Some(receiver)) => {
                        self.emit_mutation(&receiver, AccessKind::MayMutate, call.range());
                    }
                    (None, None) => self.note_param_change(&attr.value),
                }
            }
            Expr::Name(name) => {
                self.visit_expr(&call.func);
                let id = name.id.as_str();
                let mut qualified = std::mem::take(&mut self.call_name);
                qualified.clear();
                let known = match self.imported(id) {
                    Some(q) => {
                        qualified.push_str(q);
                        true
                    }
                    None if is_builtin(id) => {
                        qualified.push_str("builtins.");
                        qualified.push_str(id);
                        true
                    }
                    None => false,
                };
                let callee = known.then(|| self.library_callee(&qualified)).flatten();
                let dynamic = known && self.dynamic_code(&qualified, call);
                self.call_name = qualified;
                if dynamic {
                    return;
                }
                let mut args = CallArgs::default();
                self.arguments(&call.arguments, &mut args);
                if let Some((effect, callee)) = callee {
                    self.function_call(effect, &callee, &args, call);
                } else if !known && self.tracks(id) {
                    self.record_user(id, &args, call);
                }
            }
            func => {
                self.visit_expr(func);
                self.arguments(&call.arguments, &mut CallArgs::default());
            }
        }
    }

    /// `eval(...)` / `exec(...)` and the namespace as a dict (`globals()`,
    /// `locals()`, `vars()`): code given as a string literal is analysed in
    /// place (`eval("a + b")` reads `a` and `b`); any other code, or the
    /// namespace itself, may read any global (`reads_namespace`). Returns
    /// `true` when the call was handled (its arguments evaluated).
    fn dynamic_code(&mut self, qualified: &str, call: &ast::ExprCall) -> bool {
        match qualified {
            "builtins.eval" | "builtins.exec" => {
                let arguments = &call.arguments;
                let own_namespace = arguments.args.get(1).is_some_and(|g| !is_namespace_call(g));
                match arguments.args.first() {
                    Some(Expr::StringLiteral(literal)) => {
                        let code = literal.value.to_str();
                        let is_value = qualified == "builtins.eval";
                        if !own_namespace
                            && !self.embedded_code(code, literal.range, is_value, false)
                        {
                            self.reads_namespace = true;
                        }
                        for arg in arguments.args.iter().skip(1) {
                            self.visit_expr(arg);
                        }
                        for keyword in &arguments.keywords {
                            self.visit_expr(&keyword.value);
                        }
                        true
                    }
                    _ => {
                        self.reads_namespace |= !own_namespace;
                        false
                    }
                }
            }
            "builtins.globals" => {
                self.reads_namespace = true;
                false
            }
            "builtins.locals" | "builtins.vars" if call.arguments.is_empty() => {
                // A function's `locals()` is its own variables.
                self.reads_namespace |= matches!(self.kind, ScopeKind::Module);
                false
            }
            _ => false,
        }
    }

    /// Applies and records a call of a library function (no receiver).
    fn function_call(
        &mut self,
        effect: &Effect,
        qualified: &str,
        args: &CallArgs,
        call: &ast::ExprCall,
    ) {
        self.apply(effect, None, args, call);
        let receiver = Operand::Other(TextRange::default());
        self.record(effect, qualified, false, receiver, args, call);
    }

    /// Records a call whose entry has roles.
    fn record(
        &mut self,
        effect: &Effect,
        callee: &str,
        method: bool,
        receiver: Operand,
        args: &CallArgs<'_>,
        call: &ast::ExprCall,
    ) {
        if effect.roles.is_empty() {
            return;
        }
        let roles = effect
            .roles
            .iter()
            .copied()
            .filter(|&role| role != Role::Stateless || !learns_with(effect, args))
            .collect();
        self.record_site(roles, callee, method, receiver, args, call, false);
    }

    /// Records a call of the name `callee` the notebook binds (a user
    /// function or class): what it does is its definition's, which the
    /// leakage domain reads.
    fn record_user(&mut self, callee: &str, args: &CallArgs<'_>, call: &ast::ExprCall) {
        let receiver = Operand::Other(TextRange::default());
        self.record_site(SmallVec::new(), callee, false, receiver, args, call, true);
    }

    #[allow(clippy::too_many_arguments)]
    fn record_site(
        &mut self,
        roles: SmallVec<[Role; 2]>,
        callee: &str,
        method: bool,
        receiver: Operand,
        args: &CallArgs<'_>,
        call: &ast::ExprCall,
        user: bool,
    ) {
        let positional = args
            .positional
            .iter()
            .zip(&args.pending)
            .map(|(symbol, pending)| pending.operand(symbol))
            .collect();
        let keywords = args
            .keywords
            .iter()
            .map(|kw| {
                let name = kw.name.map(CompactString::from);
                (name, kw.pending.operand(&kw.symbol))
            })
            .collect();
        let current = self.current;
        let site = CallSite {
            node: current,
            at: self.cfg.nodes[current].accesses.len() as u32,
            new_statement: self.statement_start,
            callee: CompactString::from(callee),
            method,
            roles,
            user,
            receiver,
            first_str: args
                .first_str
                .map(|literal| CompactString::from(literal.value.to_str())),
            args: positional,
            keywords,
            range: self.range_override.unwrap_or(call.range()),
        };
        self.cfg.calls.push(site);
    }

    /// What `expr` (just evaluated) is, as far as a call operand needs to
    /// know without its path: the recorded call it starts with (`f(x)`,
    /// `f(x).values`), or other code. Cheap: operands are only built for
    /// calls that are recorded.
    fn pending(&self, expr: &Expr) -> PendingOperand {
        let range = expr.range();
        let call = self
            .cfg
            .calls
            .last()
            .filter(|last| last.range.start() == range.start() && range.contains_range(last.range))
            .map(|_| self.cfg.calls.len() as u32 - 1);
        PendingOperand { range, call }
    }

    /// Evaluates the arguments; notes in `args` (empty) the symbol each
    /// positional argument and keyword names (when it is a tracked path).
    fn arguments<'a>(&mut self, arguments: &'a ast::Arguments, args: &mut CallArgs<'a>) {
        for arg in &arguments.args {
            let symbol = match arg {
                Expr::Name(_) | Expr::Attribute(_) | Expr::Subscript(_) => {
                    self.path(arg, AccessKind::Read)
                }
                other => {
                    self.visit_expr(other);
                    None
                }
            };
            if args.positional.is_empty()
                && let Expr::StringLiteral(literal) = arg
            {
                args.first_str = Some(literal);
            }
            args.pending.push(self.pending(arg));
            args.positional.push(symbol);
        }
        for keyword in &arguments.keywords {
            let symbol = match &keyword.value {
                v @ (Expr::Name(_) | Expr::Attribute(_) | Expr::Subscript(_)) => {
                    self.path(v, AccessKind::Read)
                }
                other => {
                    self.visit_expr(other);
                    None
                }
            };
            let name = keyword.arg.as_ref().map(|a| a.as_str());
            let truthy = is_true_constant(&keyword.value);
            let none = keyword.value.is_none_literal_expr();
            let columns =
                matches!(&keyword.value, Expr::StringLiteral(s) if s.value.to_str() == "columns");
            let pending = self.pending(&keyword.value);
            args.keywords.push(KeywordArg {
                name,
                symbol,
                truthy,
                none,
                columns,
                pending,
            });
        }
    }

    /// Records what `effect` says the call changes.
    fn apply(
        &mut self,
        effect: &Effect,
        receiver: Option<&str>,
        args: &CallArgs,
        call: &ast::ExprCall,
    ) {
        let mut changed: SmallVec<[Symbol; 2]> = SmallVec::new();
        for target in &effect.mutates {
            match target {
                Target::Receiver => changed.extend(receiver.map(Symbol::from)),
                Target::Arg(i) => changed.extend(args.positional.get(*i).cloned().flatten()),
                Target::Keyword(k) => changed.extend(
                    args.keywords
                        .iter()
                        .filter(|kw| kw.name == Some(k.as_str()))
                        .filter_map(|kw| kw.symbol.clone()),
                ),
                Target::AllArgs => {
                    changed.extend(args.positional.iter().flatten().cloned());
                    changed.extend(args.keywords.iter().filter_map(|kw| kw.symbol.clone()));
                }
            }
        }
        if inplace_passed(effect, args) {
            let target = match receiver {
                Some(receiver) => Some(Symbol::from(receiver)),
                None => args.positional.first().cloned().flatten(),
            };
            changed.extend(target);
        }
        for symbol in changed {
            self.emit_mutation(&symbol, AccessKind::Mutate, call.range());
        }
        // `inplace=flag`: in place or not, as the flag is when it runs.
        if !inplace_passed(effect, args) && inplace_named(effect, args) {
            let target = match receiver {
                Some(receiver) => Some(Symbol::from(receiver)),
                None => args.positional.first().cloned().flatten(),
            };
            if let Some(target) = target {
                self.emit_mutation(&target, AccessKind::MayMutate, call.range());
            }
        }
    }

    /// Writes into `out` (cleared first) the qualified module path `expr`
    /// denotes (`np.random` -> `numpy.random`) when its root is an imported
    /// name that resolves to a global; `false` (and `out` unspecified) when
    /// it is not such a path.
    fn module_path(&self, expr: &Expr, out: &mut String) -> bool {
        let mut parts: SmallVec<[&str; 4]> = SmallVec::new();
        let mut current = expr;
        while let Expr::Attribute(attr) = current {
            parts.push(attr.attr.as_str());
            current = &attr.value;
        }
        let Expr::Name(name) = current else {
            return false;
        };
        let Some(root) = self.imported(name.id.as_str()) else {
            return false;
        };
        out.clear();
        out.push_str(root);
        for part in parts.iter().rev() {
            out.push('.');
            out.push_str(part);
        }
        true
    }

    /// What a call of the library function `qualified` needs kept past its
    /// arguments: notes the library state it changes, and returns its entry
    /// in the knowledge base with its name.
    fn library_callee(&mut self, qualified: &str) -> Option<(&'c Effect, CompactString)> {
        if changes_global_state(qualified) {
            self.global_changes.insert(qualified.to_owned());
        }
        let effect = self.ctx.effects.function(qualified)?;
        Some((effect, CompactString::from(qualified)))
    }

    /// Reads the imported name at the root of a module path.
    fn read_module_root(&mut self, expr: &Expr) {
        let mut root = expr;
        while let Expr::Attribute(attr) = root {
            root = &attr.value;
        }
        self.visit_expr(root);
    }

    /// What an imported name is bound to: the notebook's imports, else the
    /// conventional aliases of the knowledge base (`np`, `pd`, `plt`).
    fn imported(&self, name: &str) -> Option<&str> {
        if !self.tracks(name) {
            return None;
        }
        let imports = self.ctx.imports;
        imports.qualified(name).or_else(|| {
            (!imports.is_assigned(name))
                .then(|| self.ctx.effects.alias(name))
                .flatten()
        })
    }
}

/// The symbols passed to a call.
#[derive(Debug, Default)]
struct CallArgs<'a> {
    positional: SmallVec<[Option<Symbol>; 4]>,
    /// What each positional argument is besides its path.
    pending: SmallVec<[PendingOperand; 4]>,
    /// The first positional argument when it is a string literal.
    first_str: Option<&'a ast::ExprStringLiteral>,
    keywords: SmallVec<[KeywordArg<'a>; 2]>,
}

/// A call operand before the call is known to be recorded.
#[derive(Debug, Clone, Copy)]
struct PendingOperand {
    range: TextRange,
    /// The recorded call the operand starts with.
    call: Option<u32>,
}

impl PendingOperand {
    fn operand(self, symbol: &Option<Symbol>) -> Operand {
        match (symbol, self.call) {
            (Some(symbol), _) => Operand::Symbol(symbol.clone()),
            (None, Some(call)) => Operand::Call(call),
            (None, None) => Operand::Other(self.range),
        }
    }
}

/// A keyword argument of a call.
#[derive(Debug)]
struct KeywordArg<'a> {
    /// The keyword (`None` for `**kwargs`).
    name: Option<&'a str>,
    /// The symbol passed, when it is a tracked path.
    symbol: Option<Symbol>,
    /// The value is the constant `True` (or a non-zero integer).
    truthy: bool,
    /// The value is the constant `None` (a parameter's usual default).
    none: bool,
    /// The value is the string `"columns"` (`axis="columns"`).
    columns: bool,
    pending: PendingOperand,
}

/// The call passes the entry's `inplace` keyword a true constant.
fn inplace_passed(effect: &Effect, args: &CallArgs) -> bool {
    effect.inplace.as_ref().is_some_and(|kw| {
        args.keywords
            .iter()
            .any(|k| k.name == Some(kw.as_str()) && k.truthy)
    })
}

/// The call passes the entry's `inplace` keyword a name or path (a flag
/// only the run knows).
fn inplace_named(effect: &Effect, args: &CallArgs) -> bool {
    effect.inplace.as_ref().is_some_and(|kw| {
        args.keywords
            .iter()
            .any(|k| k.name == Some(kw.as_str()) && k.symbol.is_some())
    })
}

/// The method call changes its receiver.
fn changes_receiver(effect: &Effect, args: &CallArgs) -> bool {
    effect.mutates.contains(&Target::Receiver) || inplace_passed(effect, args)
}

fn is_true_constant(expr: &Expr) -> bool {
    match expr {
        Expr::BooleanLiteral(b) => b.value,
        Expr::NumberLiteral(n) => matches!(&n.value, ast::Number::Int(i) if i.as_u64() != Some(0)),
        _ => false,
    }
}

/// A constructor passes one of the keywords that make its `stateless` entry
/// learn from the rows (`CountVectorizer(min_df=2)`).
fn learns_with(effect: &Effect, args: &CallArgs<'_>) -> bool {
    !effect.stateful_with.is_empty()
        && args.keywords.iter().any(|kw| {
            // `Tokenizer(num_words=None)` is the default: nothing learnt.
            !kw.none
                && kw
                    .name
                    .is_none_or(|name| effect.stateful_with.iter().any(|k| k == name))
        })
}

/// `globals()`, `locals()` or `vars()` with no argument: the namespace as
/// a dict.
pub(crate) fn is_namespace_call(expr: &Expr) -> bool {
    matches!(expr, Expr::Call(c) if c.arguments.is_empty() && matches!(&*c.func,
        Expr::Name(n) if matches!(n.id.as_str(), "globals" | "vars" | "locals")))
}

/// The variables a pandas `query`/`eval` expression refers to with `@`
/// (`@limit`, the root of `@cfg.limit`).
fn at_names(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices('@').filter_map(move |(at, _)| {
        let rest = &text[at + 1..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some(name)
    })
}

#[cfg(test)]
mod tests {
    use super::at_names;

    #[test]
    fn at_names_are_the_variables_of_a_query() {
        let names: Vec<&str> =
            at_names("(births > @mu - 5 * @sig) & (x < @cfg.limit) & (y == '@')").collect();
        assert_eq!(names, ["mu", "sig", "cfg"]);
        assert_eq!(at_names("a > 1 and b@2").count(), 0);
    }
}
