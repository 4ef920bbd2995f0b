"""What CPython's own scoping rules say about notebook cells.

Helper of `symtable_agreement.rs`. Reads a JSON list of `{"key": ..., "src": ...}`
cells on stdin and writes, for each cell, tab-separated lines on stdout:

    CELL <key> ok | skip <reason>
    MOD REF       names referenced at module level or in code that runs at
                  definition time (class bodies, comprehensions; defaults and
                  decorators are in the module table already)
    MOD ASSIGNED  names bound at module level (assigned, imported, deleted),
                  plus names a definition-time class body or comprehension
                  binds while declared global
    MOD LIVE      names a load may read from outside the cell (liveness walk
                  below, builtins removed)
    MOD REACH     names bound in reachable module-level code
    MOD UNREACH   names bound in unreachable module-level code
    MOD ANNOT     names only annotated (`x: int`, which binds nothing)
    FN <name> G       symtable: names the function (or a nested scope it uses)
                      references that resolve to module level, builtins removed
                      (class-body names read by LOAD_NAME are included: they fall
                      back to globals when the class has not bound them yet)
    FN <name> W       symtable: names it (or a nested scope it uses) binds while
                      declared global
    FN <name> LIVE    liveness walk: names read before being bound on some path
                      (reachable code, evaluated code only)
    FN <name> WREACH  liveness walk: global-declared names bound in reachable code
    FN <name> WUNREACH  ... bound in unreachable code
    FN <name> WHY     name=reason[,reason] for names of G skipped by the walk
    ALIAS <old> <name>  another spelling nbsight may use for a function name
    END

Names are separated by spaces. `<name>` is `f`, `C.m`, `C.D.m`, `f` for
`f = lambda: ...`, or `<lambda@LINE:COLUMN>` (1-based, within the cell) as
nbsight names them.

Needs Python 3.10 or 3.11 (it prints `UNSUPPORTED` otherwise). Only the
standard library is used. Symtable is the truth on how every name
resolves; the walk (which uses symtable's resolution) only decides which loads
can see a value from before the function or cell ran, mirroring nbsight's
control-flow graph: straight-line definite assignment, code after
return/raise/break/continue (and after `while True:` without `break`) is
unreachable, annotations of local variables in function bodies are not
evaluated, bodies of nested functions and lambdas count whatever runs them
(a function nested in a function counts only if the enclosing one loads its
name: calls it or hands it on).
"""

import ast
import builtins
import json
import symtable
import sys
import warnings

warnings.simplefilter("ignore")

BUILTINS = set(dir(builtins))

COMP_NAMES = {
    ast.ListComp: "listcomp",
    ast.SetComp: "setcomp",
    ast.DictComp: "dictcomp",
    ast.GeneratorExp: "genexpr",
}


class Mismatch(Exception):
    """The AST walk and symtable's child tables do not line up."""


class Children:
    """A table's child tables, taken in order by (name, line)."""

    def __init__(self, table):
        self.queues = {}
        for child in table.get_children():
            self.queues.setdefault((child.get_name(), child.get_lineno()), []).append(child)

    def take(self, name, lineno):
        queue = self.queues.get((name, lineno))
        if not queue:
            raise Mismatch(f"no child table {name}@{lineno}")
        return queue.pop(0)

    def leftover(self):
        return [k for k, q in self.queues.items() if q]


class Acc:
    """What a walk finds for one function (or for the module-level code)."""

    def __init__(self):
        self.live = set()
        self.why = {}
        self.wreach = set()
        self.wunreach = set()
        self.annot = set()
        self.aug = set()

    def skip(self, name, reason):
        self.why.setdefault(name, set()).add(reason)

    def absorb(self, other):
        self.live |= other.live
        self.wreach |= other.wreach
        self.wunreach |= other.wunreach
        self.aug |= other.aug
        for name, reasons in other.why.items():
            self.why.setdefault(name, set()).update(reasons)


class Ctx:
    """The scope code is walked in."""

    def __init__(self, table, kind, acc, qual, outer=None):
        self.table = table
        self.kind = kind  # module | function | class | comp
        self.acc = acc
        # Prefix of function names registered from here (`C.`), or None inside
        # a function (nested functions are absorbed into it when it uses them).
        self.qual = qual
        self.id = table.get_id()
        # Inside a function: its body (None for a lambda) and the class (in
        # it) the code is in, to decide whether a nested definition is used.
        self.fn_body = outer.fn_body if outer is not None else None
        self.in_lambda = outer.in_lambda if outer is not None else False
        self.class_root = outer.class_root if outer is not None else None

    def resolve(self, name):
        """'G' for a global, ('C', id) for a class-body local, None otherwise."""
        if self.kind == "module":
            return "G"
        try:
            sym = self.table.lookup(name)
        except KeyError:
            raise Mismatch(f"{name} not in table {self.table.get_name()}")
        if sym.is_global():
            return "G"
        if self.kind == "class" and sym.is_local():
            return ("C", self.id)
        return None


class Walker:
    def __init__(self, source):
        self.functions = {}
        self.children = {}
        self.line_starts = line_starts(source)
        self.data = source.encode("utf-8")
        self.aliases = {}
        # Tables of nested functions their enclosing function never uses.
        self.unused_tables = set()

    def kids(self, table):
        key = table.get_id()
        if key not in self.children:
            self.children[key] = (table, Children(table))
        return self.children[key][1]

    def lambda_name(self, node, ctx):
        """`<lambda@LINE:COLUMN>` (1-based, characters, lines split at `\\n`
        only) as nbsight names an anonymous lambda; its older spelling by byte
        offset, `<lambda@OFFSET>`, is reported as an alias."""
        offset = self.line_starts[node.lineno - 1] + node.col_offset
        before = self.data[:offset]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        name = f"<lambda@{line}:{column}>"
        if ctx.qual is not None:
            self.aliases[f"{ctx.qual}<lambda@{offset}>"] = f"{ctx.qual}{name}"
        return name

    def register(self, name, acc, table):
        entry = self.functions.setdefault(name, {"acc": Acc(), "tables": []})
        entry["acc"].absorb(acc)
        entry["tables"].append(table)

    # ----- statements ------------------------------------------------------

    def body(self, stmts, ctx, d, loops):
        for stmt in stmts:
            d = self.stmt(stmt, ctx, d, loops)
        return d

    def stmt(self, s, ctx, d, loops):
        if isinstance(s, ast.Expr):
            return self.expr(s.value, ctx, d)
        if isinstance(s, ast.Assign):
            lambda_name = None
            if (
                len(s.targets) == 1
                and isinstance(s.targets[0], ast.Name)
                and isinstance(s.value, ast.Lambda)
            ):
                lambda_name = s.targets[0].id
            d = self.expr(s.value, ctx, d, lambda_name=lambda_name)
            for target in s.targets:
                d = self.store(target, ctx, d)
            return d
        if isinstance(s, ast.AugAssign):
            if isinstance(s.target, ast.Name):
                # symtable (3.11) marks `x += 1` as assigned, not referenced,
                # although it loads x: such globals are added to its side.
                if ctx.resolve(s.target.id) is not None:
                    ctx.acc.aug.add(s.target.id)
                d = self.load(s.target.id, ctx, d)
            else:
                d = self.store_base(s.target, ctx, d)
            d = self.expr(s.value, ctx, d)
            return self.store(s.target, ctx, d)
        if isinstance(s, ast.AnnAssign):
            if ctx.kind == "function":
                self.expr(s.annotation, ctx, d, annotation=True)
            else:
                d = self.expr(s.annotation, ctx, d)
            if s.value is not None:
                d = self.expr(s.value, ctx, d)
                return self.store(s.target, ctx, d)
            if isinstance(s.target, ast.Name):
                if d is not None and ctx.kind == "module":
                    ctx.acc.annot.add(s.target.id)
                return d
            # `x.a: int` evaluates `x` (not the attribute).
            return self.store_base(s.target, ctx, d)
        if isinstance(s, ast.Delete):
            for target in s.targets:
                d = self.store(target, ctx, d)
            return d
        if isinstance(s, ast.Return):
            if s.value is not None:
                d = self.expr(s.value, ctx, d)
            return None
        if isinstance(s, ast.Raise):
            for e in (s.exc, s.cause):
                if e is not None:
                    d = self.expr(e, ctx, d)
            return None
        if isinstance(s, ast.Assert):
            d = self.expr(s.test, ctx, d)
            if s.msg is not None:
                self.expr(s.msg, ctx, d, cond=True)
            return d
        if isinstance(s, (ast.Import, ast.ImportFrom)):
            for alias in s.names:
                if alias.name == "*":
                    continue
                name = alias.asname or alias.name.split(".")[0]
                d = self.bind(name, ctx, d, True)
            return d
        if isinstance(s, (ast.Global, ast.Nonlocal, ast.Pass)):
            return d
        if isinstance(s, ast.Break):
            if loops:
                loops[-1].append(d)
            return None
        if isinstance(s, ast.Continue):
            return None
        if isinstance(s, ast.If):
            d = self.expr(s.test, ctx, d)
            then = self.body(s.body, ctx, d, loops)
            other = self.body(s.orelse, ctx, d, loops)
            return meet([then, other])
        if isinstance(s, ast.While):
            d = self.expr(s.test, ctx, d)
            breaks = []
            self.body(s.body, ctx, d, loops + [breaks])
            if is_always_true(s.test):
                return meet(breaks)
            other = self.body(s.orelse, ctx, d, loops)
            return meet([other] + breaks)
        if isinstance(s, (ast.For, ast.AsyncFor)):
            d = self.expr(s.iter, ctx, d)
            breaks = []
            inner = self.store(s.target, ctx, d)
            self.body(s.body, ctx, inner, loops + [breaks])
            other = self.body(s.orelse, ctx, d, loops)
            return meet([other] + breaks)
        if isinstance(s, (ast.With, ast.AsyncWith)):
            for item in s.items:
                d = self.expr(item.context_expr, ctx, d)
                if item.optional_vars is not None:
                    d = self.store(item.optional_vars, ctx, d)
            return self.body(s.body, ctx, d, loops)
        if isinstance(s, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            start = d
            ends = [self.body(s.orelse, ctx, self.body(s.body, ctx, d, loops), loops)]
            for handler in s.handlers:
                h = start
                if handler.type is not None:
                    h = self.expr(handler.type, ctx, h)
                if handler.name is not None:
                    h = self.bind(handler.name, ctx, h, True)
                ends.append(self.body(handler.body, ctx, h, loops))
            if s.finalbody:
                # nbsight: the finally block is entered from every raise
                # point too, and the code after it stays reachable.
                return self.body(s.finalbody, ctx, start, loops)
            return meet(ends)
        if isinstance(s, ast.Match):
            d = self.expr(s.subject, ctx, d)
            ends = []
            exhaustive = False
            for case in s.cases:
                c = self.pattern_reads(case.pattern, ctx, d)
                for name in pattern_captures(case.pattern):
                    c = self.bind(name, ctx, c, True)
                if case.guard is not None:
                    c = self.expr(case.guard, ctx, c)
                ends.append(self.body(case.body, ctx, c, loops))
                if case.guard is None and is_irrefutable(case.pattern):
                    exhaustive = True
                    break
            if not exhaustive:
                ends.append(d)
            return meet(ends)
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in s.decorator_list:
                d = self.expr(decorator, ctx, d)
            d = self.parameters(s.args, ctx, d, annotations=True)
            if s.returns is not None:
                d = self.expr(s.returns, ctx, d)
            table = self.kids(ctx.table).take(s.name, s.lineno)
            self.function(table, s.body, None, ctx, s.name)
            return self.bind(s.name, ctx, d, True)
        if isinstance(s, ast.ClassDef):
            for decorator in s.decorator_list:
                d = self.expr(decorator, ctx, d)
            for base in s.bases:
                d = self.expr(base, ctx, d)
            for keyword in s.keywords:
                d = self.expr(keyword.value, ctx, d)
            table = self.kids(ctx.table).take(s.name, s.lineno)
            qual = None if ctx.qual is None else f"{ctx.qual}{s.name}."
            inner = Ctx(table, "class", ctx.acc, qual, ctx)
            if ctx.qual is None and inner.class_root is None:
                inner.class_root = s.name
            # The class body runs now; the global names it binds are not
            # carried on (nbsight's class summary exports no bindings).
            self.body(s.body, inner, None if d is None else set(d), [])
            return self.bind(s.name, ctx, d, True)
        raise Mismatch(f"unhandled statement {type(s).__name__}")

    def parameters(self, args, ctx, d, annotations):
        positional = args.posonlyargs + args.args
        defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        params = list(zip(positional, defaults))
        if args.vararg is not None:
            params.append((args.vararg, None))
        params += list(zip(args.kwonlyargs, args.kw_defaults))
        if args.kwarg is not None:
            params.append((args.kwarg, None))
        for arg, default in params:
            if default is not None:
                d = self.expr(default, ctx, d)
            if annotations and arg.annotation is not None:
                d = self.expr(arg.annotation, ctx, d)
        return d

    def function(self, table, body, lambda_body, ctx, name):
        """Walks a def's or lambda's body as a scope of its own."""
        acc = Acc()
        inner = Ctx(table, "function", acc, None)
        inner.fn_body = body
        inner.in_lambda = lambda_body is not None
        if lambda_body is not None:
            self.expr(lambda_body, inner, set())
        else:
            self.body(body, inner, set(), [])
        if ctx.qual is not None:
            self.register(f"{ctx.qual}{name}", acc, table)
        elif (
            ctx.in_lambda
            or (ctx.class_root is None and name.startswith("<"))
            or references(ctx.fn_body or [], ctx.class_root or name)
        ):
            # A nested function counts only where the enclosing one calls
            # it or hands it on.
            ctx.acc.absorb(acc)
        else:
            self.unused_tables.add(table.get_id())

    def pattern_reads(self, pattern, ctx, d):
        for node in ast.walk(pattern):
            if isinstance(node, ast.MatchValue):
                d = self.expr(node.value, ctx, d)
            elif isinstance(node, ast.MatchClass):
                d = self.expr(node.cls, ctx, d)
            elif isinstance(node, ast.MatchMapping):
                for key in node.keys:
                    d = self.expr(key, ctx, d)
        return d

    # ----- names -----------------------------------------------------------

    def load(self, name, ctx, d, annotation=False):
        where = ctx.resolve(name)
        if where is None or name in BUILTINS and where == "G":
            return d
        if d is None:
            ctx.acc.skip(name, "unreachable")
        elif annotation:
            ctx.acc.skip(name, "annotation")
        elif ("G", name) in d:
            ctx.acc.skip(name, "liveness")
        elif where != "G" and (where, name) in d:
            ctx.acc.skip(name, "class-attribute")
        else:
            ctx.acc.live.add(name)
        return d

    def bind(self, name, ctx, d, definite):
        where = ctx.resolve(name)
        if where is None:
            return d
        if where == "G":
            (ctx.acc.wunreach if d is None else ctx.acc.wreach).add(name)
        if d is not None and definite:
            d = set(d)
            d.add(("G", name) if where == "G" else (where, name))
        return d

    def store(self, target, ctx, d, definite=True):
        if isinstance(target, ast.Name):
            return self.bind(target.id, ctx, d, definite)
        if isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                d = self.store(elt, ctx, d, definite)
            return d
        if isinstance(target, ast.Starred):
            return self.store(target.value, ctx, d, definite)
        return self.store_base(target, ctx, d)

    def store_base(self, target, ctx, d):
        """The loads of an attribute or subscript target."""
        if isinstance(target, ast.Attribute):
            return self.expr(target.value, ctx, d)
        if isinstance(target, ast.Subscript):
            d = self.expr(target.value, ctx, d)
            return self.expr(target.slice, ctx, d)
        return self.expr(target, ctx, d)

    # ----- expressions -----------------------------------------------------

    def expr(self, e, ctx, d, cond=False, annotation=False, lambda_name=None):
        if isinstance(e, ast.Name):
            if isinstance(e.ctx, ast.Load):
                return self.load(e.id, ctx, d, annotation)
            return self.bind(e.id, ctx, d, not cond)
        if isinstance(e, ast.NamedExpr):
            d = self.expr(e.value, ctx, d, cond, annotation)
            return self.bind(e.target.id, ctx, d, not cond)
        if isinstance(e, ast.BoolOp):
            d = self.expr(e.values[0], ctx, d, cond, annotation)
            for value in e.values[1:]:
                d = self.expr(value, ctx, d, True, annotation)
            return d
        if isinstance(e, ast.IfExp):
            d = self.expr(e.test, ctx, d, cond, annotation)
            d = self.expr(e.body, ctx, d, True, annotation)
            return self.expr(e.orelse, ctx, d, True, annotation)
        if isinstance(e, ast.Lambda):
            d = self.parameters(e.args, ctx, d, annotations=False)
            table = self.kids(ctx.table).take("lambda", e.lineno)
            name = lambda_name or self.lambda_name(e, ctx)
            self.function(table, None, e.body, ctx, name)
            return d
        if type(e) in COMP_NAMES:
            first = e.generators[0]
            d = self.expr(first.iter, ctx, d, cond, annotation)
            table = self.kids(ctx.table).take(COMP_NAMES[type(e)], e.lineno)
            inner = Ctx(table, "comp", ctx.acc, ctx.qual, ctx)
            c = d
            for i, gen in enumerate(e.generators):
                if i > 0:
                    c = self.expr(gen.iter, inner, c, True, annotation)
                c = self.store(gen.target, inner, c, definite=False)
                for cond_expr in gen.ifs:
                    c = self.expr(cond_expr, inner, c, True, annotation)
            elts = [e.key, e.value] if isinstance(e, ast.DictComp) else [e.elt]
            for elt in elts:
                c = self.expr(elt, inner, c, True, annotation)
            return d
        for child in ast.iter_child_nodes(e):
            if isinstance(child, ast.expr):
                d = self.expr(child, ctx, d, cond, annotation)
            elif isinstance(child, ast.keyword):
                d = self.expr(child.value, ctx, d, cond, annotation)
        return d


def meet(states):
    """Definitely assigned at a join: `None` is an unreachable predecessor."""
    reached = [s for s in states if s is not None]
    if not reached:
        return None
    out = set(reached[0])
    for s in reached[1:]:
        out &= s
    return out


def is_always_true(test):
    return isinstance(test, ast.Constant) and (
        test.value is True or (type(test.value) is int and test.value != 0)
    )


def is_irrefutable(pattern):
    if isinstance(pattern, ast.MatchAs):
        return pattern.pattern is None or is_irrefutable(pattern.pattern)
    if isinstance(pattern, ast.MatchOr):
        return any(is_irrefutable(p) for p in pattern.patterns)
    return False


def pattern_captures(pattern):
    names = []
    for node in ast.walk(pattern):
        if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.append(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.append(node.rest)
    return names


def line_starts(source):
    data = source.encode("utf-8")
    starts = [0]
    i = 0
    while i < len(data):
        if data[i : i + 2] == b"\r\n":
            i += 2
            starts.append(i)
            continue
        if data[i] in (0x0A, 0x0D):
            starts.append(i + 1)
        i += 1
    return starts


# ----- symtable's side ------------------------------------------------------


def subtree(table, unused=frozenset()):
    """`table` and the tables nested in it, but for the `unused` ones (nested
    functions the enclosing one never uses) and theirs."""
    yield table
    for child in table.get_children():
        if child.get_id() not in unused:
            yield from subtree(child, unused)


def references(body, name):
    """Does `body` load `name`, outside a `def` of that name's own body?"""

    def walk(node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return any(walk(d) for d in node.decorator_list)
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            return True
        return any(walk(child) for child in ast.iter_child_nodes(node))

    return any(walk(stmt) for stmt in body)


def definition_time(table):
    """The module's code plus class bodies and comprehensions it runs now."""
    yield table
    for child in table.get_children():
        if child.get_type() == "class" or child.get_name() in COMP_NAMES.values():
            yield from definition_time(child)


def globals_referenced(tables):
    names = set()
    for table in tables:
        is_class = table.get_type() == "class"
        for sym in table.get_symbols():
            if not sym.is_referenced():
                continue
            if sym.is_global() or (is_class and sym.is_local()):
                names.add(sym.get_name())
    return names - BUILTINS


def globals_assigned(tables):
    return {
        sym.get_name()
        for table in tables
        for sym in table.get_symbols()
        if sym.is_declared_global() and (sym.is_assigned() or sym.is_imported())
    }


def analyse(src):
    try:
        compile(src, "<cell>", "exec", dont_inherit=True)
    except SyntaxError:
        return None, "compile"
    except (ValueError, OverflowError, MemoryError, RecursionError):
        return None, "compile"
    top = symtable.symtable(src, "<cell>", "exec")
    tree = ast.parse(src)
    walker = Walker(src)
    acc = Acc()
    ctx = Ctx(top, "module", acc, "")
    try:
        walker.body(tree.body, ctx, set(), [])
    except Mismatch as e:
        return None, f"mismatch:{e}"
    for table, children in walker.children.values():
        if children.leftover():
            return None, f"mismatch:leftover {children.leftover()}"
    lines = []
    module_tables = list(definition_time(top))
    referenced = {
        sym.get_name()
        for t in module_tables
        for sym in t.get_symbols()
        if sym.is_referenced()
    }
    assigned = {
        sym.get_name()
        for sym in top.get_symbols()
        if sym.is_assigned() or sym.is_imported()
    } | globals_assigned(module_tables[1:])
    referenced |= acc.aug
    lines.append(("MOD", "REF", referenced))
    lines.append(("MOD", "ASSIGNED", assigned))
    lines.append(("MOD", "LIVE", acc.live - BUILTINS))
    lines.append(("MOD", "REACH", acc.wreach))
    lines.append(("MOD", "UNREACH", acc.wunreach))
    lines.append(("MOD", "ANNOT", acc.annot))
    for alias, name in sorted(walker.aliases.items()):
        lines.append(("ALIAS", alias, [name]))
    for name in sorted(walker.functions):
        entry = walker.functions[name]
        facc = entry["acc"]
        tables = [t for root in entry["tables"] for t in subtree(root, walker.unused_tables)]
        aug = facc.aug - BUILTINS
        lines.append(("FN", name, "G", globals_referenced(tables) | aug))
        lines.append(("FN", name, "W", globals_assigned(tables)))
        lines.append(("FN", name, "LIVE", facc.live - BUILTINS))
        lines.append(("FN", name, "WREACH", facc.wreach))
        lines.append(("FN", name, "WUNREACH", facc.wunreach))
        why = [f"{n}={','.join(sorted(r))}" for n, r in sorted(facc.why.items())]
        lines.append(("FN", name, "WHY", why))
    return lines, None


def main():
    cells = json.load(sys.stdin)
    out = sys.stdout
    if not (3, 10) <= sys.version_info[:2] < (3, 12):
        # From 3.12 on (PEP 709) symtable has no tables of their own for list,
        # set and dict comprehensions; this helper relies on them.
        out.write(f"UNSUPPORTED\tPython {sys.version.split()[0]}\n")
        return
    for cell in cells:
        key = cell["key"]
        try:
            lines, skip = analyse(cell["src"])
        except RecursionError:
            lines, skip = None, "recursion"
        if lines is None:
            out.write(f"CELL\t{key}\tskip\t{skip}\n")
            continue
        out.write(f"CELL\t{key}\tok\n")
        for line in lines:
            *head, names = line
            out.write("\t".join(head) + "\t" + " ".join(sorted(names)) + "\n")
        out.write("END\n")


if __name__ == "__main__":
    main()
