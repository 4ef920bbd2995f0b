//! Calls and their effects: a call on an imported module's function is looked
//! up by qualified name, a method call by method name, in the library-effects
//! knowledge base; what the entry says is changed becomes a `Mutate` access; a
//! method nobody knows makes its receiver `MayMutate`.

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::Ranged;
use smallvec::SmallVec;

use super::ScopeBuilder;
use crate::access::AccessKind;
use crate::builtins::is_builtin;
use crate::effects::{Effect, Target};
use crate::symbol::Symbol;

impl ScopeBuilder<'_> {
    pub(crate) fn call(&mut self, call: &ast::ExprCall) {
        match &*call.func {
            Expr::Attribute(attr) => {
                if let Some(module) = self.module_path(&attr.value) {
                    // `np.random.shuffle(x)`: a library function, not a method.
                    self.read_module_root(&attr.value);
                    let qualified = format!("{module}.{}", attr.attr);
                    let args = self.arguments(&call.arguments);
                    if let Some(effect) = self.ctx.effects.function(&qualified) {
                        self.apply(effect, None, &args, call);
                    }
                    return;
                }
                let receiver = self.path(&attr.value, AccessKind::Read);
                let args = self.arguments(&call.arguments);
                match (self.ctx.effects.method(attr.attr.as_str()), receiver) {
                    (Some(effect), receiver) => {
                        self.apply(effect, receiver.as_deref(), &args, call);
                    }
                    (None, Some(receiver)) => {
                        self.emit_mutation(&receiver, AccessKind::MayMutate, call.range());
                    }
                    (None, None) => {}
                }
            }
            Expr::Name(name) => {
                self.visit_expr(&call.func);
                let id = name.id.as_str();
                let qualified = match self.imported(id) {
                    Some(q) => Some(q.to_string()),
                    None if is_builtin(id) => Some(format!("builtins.{id}")),
                    None => None,
                };
                let args = self.arguments(&call.arguments);
                if let Some(effect) = qualified.and_then(|q| self.ctx.effects.function(&q)) {
                    self.apply(effect, None, &args, call);
                }
            }
            func => {
                self.visit_expr(func);
                self.arguments(&call.arguments);
            }
        }
    }

    /// Evaluates the arguments; returns the symbol each positional argument
    /// and keyword names (when it is a tracked path).
    fn arguments(&mut self, arguments: &ast::Arguments) -> CallArgs {
        let mut args = CallArgs::default();
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
            let name = keyword.arg.as_ref().map(|a| a.to_string());
            let truthy = is_true_constant(&keyword.value);
            args.keywords.push(KeywordArg {
                name,
                symbol,
                truthy,
            });
        }
        args
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
                        .filter(|kw| kw.name.as_deref() == Some(k.as_str()))
                        .filter_map(|kw| kw.symbol.clone()),
                ),
                Target::AllArgs => {
                    changed.extend(args.positional.iter().flatten().cloned());
                    changed.extend(args.keywords.iter().filter_map(|kw| kw.symbol.clone()));
                }
            }
        }
        if let Some(kw) = &effect.inplace {
            let inplace = args
                .keywords
                .iter()
                .any(|k| k.name.as_deref() == Some(kw.as_str()) && k.truthy);
            if inplace {
                let target = match receiver {
                    Some(receiver) => Some(Symbol::from(receiver)),
                    None => args.positional.first().cloned().flatten(),
                };
                changed.extend(target);
            }
        }
        for symbol in changed {
            self.emit_mutation(&symbol, AccessKind::Mutate, call.range());
        }
    }

    /// The qualified module path `expr` denotes (`np.random` -> `numpy.random`)
    /// when its root is an imported name that resolves to a global.
    fn module_path(&self, expr: &Expr) -> Option<String> {
        match expr {
            Expr::Name(name) => self.imported(name.id.as_str()).map(str::to_string),
            Expr::Attribute(attr) => self
                .module_path(&attr.value)
                .map(|base| format!("{base}.{}", attr.attr)),
            _ => None,
        }
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
struct CallArgs {
    positional: SmallVec<[Option<Symbol>; 4]>,
    keywords: SmallVec<[KeywordArg; 2]>,
}

/// A keyword argument of a call.
#[derive(Debug)]
struct KeywordArg {
    /// The keyword (`None` for `**kwargs`).
    name: Option<String>,
    /// The symbol passed, when it is a tracked path.
    symbol: Option<Symbol>,
    /// The value is the constant `True` (or a non-zero integer).
    truthy: bool,
}

fn is_true_constant(expr: &Expr) -> bool {
    match expr {
        Expr::BooleanLiteral(b) => b.value,
        Expr::NumberLiteral(n) => matches!(&n.value, ast::Number::Int(i) if i.as_u64() != Some(0)),
        _ => false,
    }
}
