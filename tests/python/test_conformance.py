"""Conformance with the behaviours ipyflow's own test suite asserts
(github.com/ipyflow/ipyflow, core/test/), re-authored as nbsight scripted
sessions in an in-process IPython shell.

Vocabulary: ipyflow's "unsafe / waiting usage" is nbsight's warning
(`nbsight.last_warning(cell)`: the stale symbols the warning before that
cell's latest run named); its frontend checker's waiting / ready cells and
ready-maker links are `nbsight.status()`'s stale, fresh and refresher cells;
its dynamic slices are `nbsight.backward_slice(cell)` /
`forward_slice(cell)` (each run gets its own cell id when ipyflow slices by
execution); its reactive execution mode is `nbsight.set_mode("reactive")`
with `nbsight.last_reactive_run()` (ipyflow's `$x` / `$$x` reactive
modifiers have no nbsight syntax: every dependent is re-run, transitively,
so those tests become plain reactive-mode sessions).

A session is a list of steps, grouped below by the ipyflow file the
behaviour comes from:

- `("c1", "src")`: run `src` as cell `c1` (it must not raise);
  `("c1", "src", [syms])`: and the warning before it named exactly `syms`.
- `Run(cell, src, warned=None, fails=False, reran=None)`: the same, plus a
  cell that must raise (`fails`) or the cells reactive mode re-ran after it.
- `Read(expr, [syms])`: a new cell `print(expr)` (ids r1, r2, ...): the
  warning before it named exactly `syms` (`[]`: no warning).
- `Status(stale=, fresh=, refresher=, fresh_has=, fresh_lacks=)`:
  `nbsight.status()`'s cell sets now (a field left out is not checked).
- `Slice(cell, back=, fwd=)`: the backward / forward slice of that cell.
- `Value(expr, value)`: what `expr` evaluates to in the user namespace
  (nbsight never changes what cells compute).
- `Deps(symbol, cell=, parents=, children=)`: `nbsight.deps(symbol)`.
- `Gather(cell, contains=, lacks=)`: lines of `nbsight.gather(cell)`.
- `Sync(cells)`, `Mode(mode)`: the front end's view, the mode.
- `Fresh()`: a new session on an empty namespace. `packed` puts two
  consecutive passing sessions in one test this way (ids joined by `+`).

Where ipyflow asserts a conservative artefact of its own design rather than
what a careful user expects, the session says what the user expects and the
comment says so (dynamic slices follow the branch that ran; ipyflow's
DAG-schedule tests become liveness-schedule sessions, nbsight's only one).

Cases nbsight gets wrong today are `xfail(strict=True)` with what goes wrong
(a few only on the Pythons whose tracer shows it: sys.monitoring on 3.12+,
sys.settrace on 3.10/3.11).
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

import nbsight
from conftest import run


@pytest.fixture
def ip(shell: InteractiveShell, monkeypatch: pytest.MonkeyPatch) -> Iterator[InteractiveShell]:
    monkeypatch.setenv("NBSIGHT_HISTORY", "off")
    run(shell, "%load_ext nbsight")
    yield shell
    run(shell, "%unload_ext nbsight")


# --------------------------------------------------------------------------
# The steps of a session


@dataclass(frozen=True)
class Run:
    cell: str
    src: str
    warned: Sequence[str] | None = None
    fails: bool = False
    reran: Sequence[str] | None = None


@dataclass(frozen=True)
class Read:
    expr: str
    warned: Sequence[str]


@dataclass(frozen=True)
class Status:
    stale: set[str] | None = None
    fresh: set[str] | None = None
    refresher: set[str] | None = None
    fresh_has: set[str] | None = None
    fresh_lacks: set[str] | None = None


@dataclass(frozen=True)
class Slice:
    cell: str
    back: Sequence[str] | None = None
    fwd: Sequence[str] | None = None


@dataclass(frozen=True)
class Value:
    expr: str
    value: Any


@dataclass(frozen=True)
class Deps:
    symbol: str
    cell: str | None = None
    parents: Sequence[str] | None = None
    children: Sequence[str] | None = None


@dataclass(frozen=True)
class Gather:
    cell: str
    contains: Sequence[str]
    """Lines the gathered program holds, in this order."""
    lacks: Sequence[str] = ()


@dataclass(frozen=True)
class Fresh:
    """Starts over: nbsight unloaded, the namespace reset, nbsight loaded
    again (a new session). Separates the sessions `packed` puts in one test."""


@dataclass(frozen=True)
class Sync:
    cells: Sequence[tuple[str, str]]


@dataclass(frozen=True)
class Mode:
    mode: str


def case(name: str, *steps: Any, xfail: str | None = None, when: bool = True) -> Any:
    """A session; `xfail`: what nbsight does wrong (on the Pythons `when` is
    true for: the tracer differs between 3.12+ and 3.10/3.11)."""
    marks = [pytest.mark.xfail(when, strict=True, reason=xfail)] if xfail else []
    return pytest.param(steps, id=name, marks=marks)


def packed(cases: Sequence[Any], size: int = 2) -> list[Any]:
    """Puts each run of up to `size` consecutive unmarked cases into one test
    (their sessions separated by `Fresh()`, ids joined by `+`); a case with a
    mark (xfail) stays alone, so an xfail never hides a passing session."""
    out: list[Any] = []
    group: list[Any] = []

    def flush() -> None:
        if group:
            steps: list[Any] = []
            for i, param in enumerate(group):
                if i:
                    steps.append(Fresh())
                steps.extend(param.values[0])
            out.append(pytest.param(tuple(steps), id="+".join(p.id for p in group)))
            group.clear()

    for param in cases:
        if param.marks:
            flush()
            out.append(param)
        else:
            group.append(param)
            if len(group) == size:
                flush()
    flush()
    return out


def _src(src: str) -> str:
    return textwrap.dedent(src).strip("\n")


def play(ip: InteractiveShell, steps: Sequence[Any]) -> None:
    checks = 0
    reads = 0
    for step in steps:
        if isinstance(step, tuple):
            step = Run(*step)
        if isinstance(step, Read):
            reads += 1
            step = Run(f"r{reads}", f"print({step.expr})", warned=step.warned)
        if isinstance(step, Run):
            source = _src(step.src)
            result = ip.run_cell(source, store_history=True, cell_id=step.cell)
            error = result.error_before_exec or result.error_in_exec
            if step.fails:
                assert error is not None, f"cell {step.cell} ({source!r}) should have raised"
                checks += 1
            else:
                assert error is None, f"cell {step.cell} ({source!r}) raised {error!r}"
            if step.warned is not None:
                got = sorted(nbsight.last_warning(step.cell))
                assert got == sorted(step.warned), (
                    f"warning before {step.cell} ({source!r}) named {got}, expected {sorted(step.warned)}"
                )
                checks += 1
            if step.reran is not None:
                got = nbsight.last_reactive_run()
                assert got == list(step.reran), (
                    f"after {step.cell} ({source!r}) reactive mode re-ran {got}, expected {list(step.reran)}"
                )
                checks += 1
        elif isinstance(step, Status):
            status = nbsight.status()
            stale, fresh = set(status["stale_cells"]), set(status["fresh_cells"])
            refresher = set(status["refresher_cells"])
            where = f"status {status}"
            if step.stale is not None:
                assert stale == step.stale, where
            if step.fresh is not None:
                assert fresh == step.fresh, where
            if step.refresher is not None:
                assert refresher == step.refresher, where
            if step.fresh_has is not None:
                assert step.fresh_has <= fresh, where
            if step.fresh_lacks is not None:
                assert not (step.fresh_lacks & fresh), where
            checks += 1
        elif isinstance(step, Slice):
            if step.back is not None:
                got = nbsight.backward_slice(step.cell)
                assert got == list(step.back), f"backward slice of {step.cell}: {got}"
            if step.fwd is not None:
                got = nbsight.forward_slice(step.cell)
                assert got == list(step.fwd), f"forward slice of {step.cell}: {got}"
            checks += 1
        elif isinstance(step, Value):
            assert eval(step.expr, ip.user_ns) == step.value, step.expr
            checks += 1
        elif isinstance(step, Deps):
            deps = nbsight.deps(step.symbol)
            if step.cell is not None:
                assert deps["cell"] == step.cell, deps
            if step.parents is not None:
                assert sorted(p["symbol"] for p in deps["parents"]) == sorted(step.parents), deps
            if step.children is not None:
                assert sorted(c["symbol"] for c in deps["children"]) == sorted(step.children), deps
            checks += 1
        elif isinstance(step, Gather):
            program = nbsight.gather(step.cell)
            at = 0
            for line in step.contains:
                found = program.find(line, at)
                assert found >= 0, f"{line!r} missing (in order) from:\n{program}"
                at = found + len(line)
            for line in step.lacks:
                assert line not in program, f"{line!r} should not be in:\n{program}"
            checks += 1
        elif isinstance(step, Fresh):
            reads = 0
            run(ip, "%unload_ext nbsight")
            run(ip, "%reset -f")
            run(ip, "%load_ext nbsight")
        elif isinstance(step, Sync):
            nbsight.sync_notebook([(c, _src(s)) for c, s in step.cells])
        elif isinstance(step, Mode):
            nbsight.set_mode(step.mode)
        else:
            raise TypeError(step)
    assert checks > 0, "a session must check something"


# --------------------------------------------------------------------------
# Shared sources

FOO_X = """
class Foo:
    def __init__(self, x):
        self.x = x
"""

FOO_XY = """
class Foo:
    def __init__(self, x, y):
        self.x = x
        self.y = y
"""

FOO_BAR = """
def foo():
    return 5

def bar():
    return 7
"""

FOO_BAR_2 = """
def foo():
    return 10

def bar():
    return 7
"""

BEST = """
best_acc, best_model = max((f(), name) for name, f in models.items())
print(f'The best model was {best_model} with an accuracy of {best_acc}.')
"""

ACCUM_FUNCS = """
accum = 0
for f in funcs_to_run:
    accum += f()
print(accum)
"""

ACCUM_RETVALS = """
accum = 0
for ret in retvals:
    accum += ret
print(accum)
"""

EXAMPLE = """
from dataclasses import dataclass

@dataclass
class Example:
    foo: str
    bar: int

ex = Example('hi', 42)
"""

COUNTER = """
class Foo:
    def __init__(self):
        self.counter = 0
        self.dummy = 0

    def inc(self):
        self.counter += 1
"""

FOO_BAR_CLASSES = """
class Foo:
    def __init__(self):
        self.counter = 0

    def inc(self):
        self.counter += 1

    def bar(self, indicator):
        if indicator == 1:
            return the_dictionary
        else:
            return x + 5

    def new(self, indicator):
        if indicator == 1:
            return Foo()
        return Bar()
"""

BAR_CLASS = """
class Bar:
    def __init__(self):
        self.counter = 0

    def foo(self, indicator):
        if indicator == 1:
            return the_dictionary
        return Foo()
"""

# ==========================================================================
# test_staleness_propagation.py: is a read of a stale value warned about?

STALENESS = [
    case("simplest", ("c1", "a = 1"), ("c2", "b = a + 1"), ("c3", "a = 3"), Read("b", ["b"])),
    case(
        "readme_dict_of_redefined_functions",
        ("c1", "def eval_model_1(): return 0.5"),
        ("c2", "def eval_model_2(): return 0.85"),
        ("c3", 'models = {"model_1": eval_model_1, "model_2": eval_model_2}'),
        ("c4", BEST, []),
        ("c5", "def eval_model_1(): return 0.9"),
        ("c4", BEST, ["models"]),
    ),
    case(
        "function_mutating_its_argument",
        ("c1", FOO_X + "\ndef mutate(foo, x):\n    foo.x = x"),
        ("c2", "foo = Foo(5)"),
        ("c3", "y = 7"),
        ("c4", "mutate(foo, y)"),
        Read("foo.x", []),
        ("c5", "y = 42"),
        Read("foo.x", ["foo.x"]),
    ),
    case(
        "subscript_dependency",
        ("c1", "lst = [0, 1, 2]"),
        ("c2", "x = 5"),
        ("c3", "y = x + lst[0]"),
        ("c4", "lst[0] = 10"),
        Read("y", ["y"]),
    ),
    case(
        "subscript_other_element_not_stale",
        ("c1", "lst = [0, 1, 2]"),
        ("c2", "x = 5"),
        ("c3", "y = x + lst[0]"),
        ("c4", "lst[1] = 10"),
        Read("y", []),
    ),
    case(
        "long_chain",
        ("c1", "a = 1"),
        ("c2", "b = a + 1"),
        ("c3", "c = b + 1"),
        ("c4", "d = c + 1"),
        ("c5", "e = d + 1"),
        ("c6", "f = e + 1", []),
        ("c1", "a = 2"),
        Read("f", ["f"]),
    ),
    case(
        "first_loop_iteration_reads_stale",
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        ("c3", "x = 42"),
        ("c4", "for i in range(2):\n    print(y)\n    y = 7", ["y"]),
    ),
    case(
        "stale_read_before_redefinition_in_same_cell",
        ("c1", "a = 1"),
        ("c2", "b = a + 1"),
        ("c3", "a = 3"),
        ("c4", "print(b)\nb = 7", ["b"]),
    ),
    case(
        "class_redefinition_does_not_stale_its_argument",
        ("c1", FOO_X),
        ("c2", "x = 5"),
        ("c3", "foo = Foo(x)"),
        ("c4", FOO_X),
        Read("x", []),
        Read("foo", ["foo"]),
    ),
    case(
        "comprehension_variable_is_not_live",
        ("c1", "x = 0"),
        ("c2", "y = x + 6"),
        ("c3", "x = 42"),
        ("c4", "lst = [y for y in range(1) for j in range(1)]", []),
        ("c5", "f = lambda y: y * 2", []),
        ("c6", "def g(y):\n    return y + 9", []),
    ),
    case(
        "lambda_argument",
        ("c1", "x = 5"),
        ("c2", "y = 7"),
        ("c3", "lam = lambda x: x * 2"),
        ("c4", "z = lam(y + 3)"),
        ("c5", "x = 42"),
        Read("z", []),
        ("c6", "y = 43"),
        Read("z", ["z"]),
    ),
    case(
        "lambda_closing_over_a_parameter",
        ("c1", "def foo(x):\n    return lambda: x + 5"),
        ("c2", "x = 5"),
        ("c3", "y = 7"),
        ("c4", "lam = foo(y)"),
        ("c5", "z = lam()"),
        ("c6", "x = 42"),
        Read("z", []),
        ("c7", "y = 43"),
        Read("z", ["z"]),
    ),
    case(
        "lambda_wrapping_a_call",
        ("c1", "z = 42"),
        ("c2", "def f():\n    return z"),
        ("c3", "lam = lambda: f()"),
        ("c4", "x = lam()"),
        ("c5", "z = 43"),
        Read("x", ["x"]),
    ),
    case(
        "lambda_default_reads_global",
        ("c1", "w = 99"),
        ("c2", "def foo(x):\n    lam = lambda t=w: t + x + 5\n    return lam"),
        ("c3", "x = 5"),
        ("c4", "y = 7"),
        ("c5", "lam = foo(y)"),
        ("c6", "z = lam()"),
        ("c7", "x = 42"),
        Read("z", []),
        ("c8", "w = 43"),
        Read("z", ["z"]),
    ),
    case(
        "no_edge_for_comprehension_variable",
        ("c1", "i = 0"),
        ("c2", "x = [i for i in range(10)]"),
        ("c3", "i = 1"),
        Read("x", []),
    ),
    case(
        "basic_assignment_chain_refreshed_step_by_step",
        ("c1", "a = 1"),
        ("c2", "b = 2"),
        ("c3", "c = a + b"),
        ("c4", "d = c + 1"),
        ("c5", "a = 7"),
        Read("a, b, c, d", ["c", "d"]),
        ("c3", "c = a + b"),
        Read("a, b, c, d", ["d"]),
        ("c4", "d = c + 1"),
        Read("a, b, c, d", []),
    ),
    case(
        "list_rebound_stales_its_copies",
        ("c1", "a = [5]"),
        ("c2", "b = a + [6]"),
        ("c3", "a = [6]"),
        Read("b", ["b"]),
        ("c2", "b = a + [7]"),
        ("c3", "a = []"),
        Read("b", ["b"]),
    ),
    case(
        "redefined_function_in_list",
        ("c1", FOO_BAR),
        ("c2", "funcs_to_run = [foo, bar]"),
        ("c3", ACCUM_FUNCS, []),
        ("c1", FOO_BAR_2),
        ("c3", ACCUM_FUNCS, ["funcs_to_run"]),
        ("c2", "funcs_to_run = [foo, bar]"),
        ("c3", ACCUM_FUNCS, []),
    ),
    case(
        "redefined_function_called_in_list_literal",
        ("c1", FOO_BAR),
        ("c2", "retvals = [foo(), bar()]"),
        ("c3", ACCUM_RETVALS),
        ("c1", FOO_BAR_2),
        Read("accum", ["accum"]),
    ),
    case(
        "redefined_function_called_in_tuple_passed_through_a_call",
        ("c1", FOO_BAR),
        ("c2", "retvals = tuple([foo(), bar()])"),
        ("c3", ACCUM_RETVALS),
        ("c1", FOO_BAR_2),
        Read("accum", ["accum"]),
    ),
    case(
        "loop_over_map_with_lambda",
        ("c1", "accum = 0\nfoo = [1, 2, 3, 4, 5]\nfor ret in map(lambda x: x * 5, foo):\n    accum += ret"),
        Read("accum", []),
        ("c2", "foo = [0]"),
        Read("accum", ["accum"]),
    ),
    case(
        "redefined_function_returning_map",
        ("c1", FOO_BAR + "\ndef baz(lst):\n    return map(lambda x: 3 * x, lst)"),
        ("c2", "retvals = baz([foo(), bar()])"),
        ("c3", "accum = 0\nfor ret in map(lambda x: x * 5, retvals):\n    accum += ret"),
        ("c4", "def baz(lst):\n    return map(lambda x: 7 * x, lst)"),
        Read("accum", ["accum"]),
    ),
    case(
        "function_reads_stale_global_at_call",
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        ("c3", "def f():\n    return y + 7"),
        ("c4", "z = f()", []),
        ("c5", "x = 42"),
        ("c4", "z = f()", ["y"]),
    ),
    case(
        "function_local_shadows_stale_global",
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        ("c3", "def f():\n    y = 9\n    return y + 7"),
        ("c4", "z = f()", []),
        ("c5", "x = 42"),
        ("c4", "z = f()", []),
    ),
    case(
        "function_redefined_after_its_global_went_stale",
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        ("c3", "def f():\n    return y + 7"),
        ("c4", "z = f()", []),
        ("c5", "x = 42"),
        ("c3", "def f():\n    return y + 7"),
        ("c4", "z = f()", ["y"]),
    ),
    case(
        "function_parameter_shadows_stale_global",
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        ("c3", "def f(y):\n    return y + 7"),
        ("c4", "z = f(5)", []),
        ("c5", "x = 42"),
        ("c4", "z = f(5)", []),
        Read("z", []),
    ),
    case(
        "lambda_appended_then_called",
        ("c1", "x = 42"),
        ("c2", "lst = []"),
        ("c3", "lst.append(lambda elt: elt + x)"),
        ("c4", "y = lst[0](7)"),
        ("c5", "x = 43"),
        Read("y", ["y"]),
    ),
    case(
        "same_name_inside_a_function_is_another_variable",
        ("c1", "def func():\n    x = 6"),
        ("c2", "x = 7"),
        ("c3", "y = x"),
        ("c4", "z = func"),
        Read("y, z()", []),
        ("c1", "def func():\n    x = 10"),
        Read("y, z()", ["z"]),
        ("c3", "y = x"),
        Read("y, z()", ["z"]),
        ("c4", "z = func"),
        Read("y, z()", []),
    ),
    case(
        "global_changed_outside_the_function",
        ("c1", "def func():\n    x = 6"),
        ("c2", "x = 7"),
        ("c3", "y = x"),
        ("c4", "z = func"),
        ("c5", "x = 10"),
        Read("y, z()", ["y"]),
        ("c4", "z = func"),
        Read("y, z()", ["y"]),
        ("c3", "y = x"),
        Read("y, z()", []),
    ),
    case(
        "default_argument_reads_global",
        ("c1", "x = 7\ndef foo(y=x):\n    return y + 5"),
        ("c2", "a = foo()", []),
        ("c3", "x = 10", []),
        ("c4", "b = foo()", ["foo"]),
    ),
    case(
        "alias_is_not_stale_its_copy_is",
        ("c1", "a = [7]"),
        ("c2", "b = a"),
        ("c3", "c = b + [5]"),
        ("c4", "a[0] = 8"),
        Read("b", []),
        Read("c", ["c"]),
    ),
    case(
        "function_with_default_reading_list_global",
        ("c1", "a = [1]\nb = [1]\nc = [2]\nd = [3]"),
        ("c2", "def func(x, y=a):\n    e = [c[0] + d[0]]\n    f = [x[0] + y[0]]\n    return f"),
        ("c3", "z = func(c)"),
        ("c4", "a = [4]"),
        Read("z", ["z"]),
        ("c2", "def func(x, y=a):\n    print(b[0])\n    e = [c[0] + d[0]]\n    f = [x[0] + y[0]]\n    return f"),
        ("c3", "z = func(c)"),
        Read("z", []),
        ("c5", "c = [3]"),
        Read("z", ["z"]),
        ("c3", "z = func(c)"),
        ("c6", "b = [40]"),
        ("c7", "d = [4]"),
        Read("z", []),
    ),
    case(
        "helper_function_defined_inside_a_function",
        ("c1", "x = 3\na = 4\ndef f():\n    def g():\n        print(a)\n        return x\n    return g()\ny = f()"),
        ("c2", "x = 4"),
        Read("y", ["y"]),
        ("c3", "y = f()"),
        Read("y", []),
        ("c4", "a = 1"),
        Read("y", []),
    ),
    case(
        "returned_inner_function_called",
        ("c1", "x = 3\na = 4\ndef f():\n    def g():\n        print(a)\n        return x\n    return g\ny = f()()"),
        ("c2", "x = 4"),
        Read("y", ["y"]),
    ),
    case(
        "branch_not_taken_does_not_write",
        ("c1", "y = 7"),
        ("c2", "x = y + 3"),
        ("c3", "if True:\n    b = 5\nelse:\n    y = 7"),
        Read("x", []),
        ("c4", "if False:\n    b = 5\nelse:\n    y = 9"),
        Read("x", ["x"]),
    ),
    case(
        "rebinding_the_same_value_stales_nothing",
        ("c1", "y = 7"),
        ("c2", "x = y + 3"),
        ("c3", "y = 7"),
        Read("x", []),
    ),
    case(
        "element_set_to_the_same_value_stales_nothing",
        ("c1", "x, y = [7], [8]"),
        ("c2", "z = y + [3]"),
        ("c3", "x[0] = 99"),
        Read("z", []),
        ("c4", "y[0] = 8"),
        Read("z", []),
        ("c5", "y[0] = 42"),
        Read("z", ["z"]),
    ),
    case(
        "dict_entry_set_to_the_same_value_stales_nothing",
        ("c1", 'd = {"y": 7}'),
        ("c2", "x = list(d.values()) + [3]"),
        ("c3", 'd["y"] = 7'),
        Read("x", []),
        ("c4", 'd["y"] = 8'),
        Read("x", ["x"]),
    ),
    case(
        "starred_list_literal_elements",
        ("c1", "x = 0"),
        ("c2", "y = 1"),
        ("c3", "z = 2"),
        ("c4", 'lst = ["foo", "bar"]'),
        ("c5", "a, b, c, d, e = [x + 1, y + 2, z + 3, *lst]"),
        ("c6", "z = 42"),
        Read("a", []),
        Read("b", []),
        Read("c", ["c"]),
        Read("d", []),
        Read("e", []),
        ("c7", "lst[0] = 7"),
        Read("d", ["d"]),
        Read("e", []),
        ("c8", "lst[1] = 8"),
        Read("e", ["e"]),
    ),
    case(
        "starred_target",
        ("c1", "x = 0"),
        ("c2", "y = 1"),
        ("c3", "z = 2"),
        ("c4", 'lst = ["foo", "bar"]'),
        ("c5", "s, *t = [x + 1, y + 2, z + 3, *lst]"),
        ("c6", "z = 42"),
        Read("s", []),
        Read("t[0]", []),
        Read("t[1]", ["t[1]"]),
        ("c7", "x = 99"),
        Read("s", ["s"]),
        Read("t[0]", []),
    ),
    case(
        "starred_target_in_the_middle",
        ("c1", "a, b, c, d, e = 1, 2, 3, 4, 5"),
        ("c2", "x, *star, y = [a, b, c, d, e]"),
        ("c3", "a += 1"),
        Read("x", ["x"]),
        Read("star", []),
        Read("y", []),
        ("c4", "e += 1"),
        Read("y", ["y"]),
        Read("star", []),
        ("c5", "c += 1"),
        Read("star", ["star"]),
    ),
    case(
        "attribute_set_stales_its_readers",
        ("c1", FOO_X),
        ("c2", "x = Foo(5)"),
        ("c3", "y = x.x + 5"),
        ("c4", "x.x = 8"),
        Read("y", ["y"]),
    ),
    case(
        "attributes_set_by_tuple_unpacking",
        ("c1", FOO_X),
        ("c2", "x = Foo(5)"),
        ("c3", "y = Foo(6)"),
        ("c4", "w = 42"),
        ("c5", "z = 43"),
        ("c6", "x.x, y.x = w + 2, z + 3"),
        ("c7", "z = 9001"),
        Read("x.x", []),
        Read("y.x", ["y.x"]),
        ("c8", "y.x = z + 3"),
        Read("y.x", []),
        ("c9", "w = 99"),
        Read("x.x", ["x.x"]),
        Read("y.x", []),
    ),
    case(
        "attributes_unpacked_from_themselves_keep_their_parents",
        ("c1", FOO_X),
        ("c2", "x = Foo(5)"),
        ("c3", "y = Foo(6)"),
        ("c4", "w = 42"),
        ("c5", "z = 43"),
        ("c6", "x.x, y.x = w + 2, z + 3"),
        ("c7", "s, t = 12, 13"),
        ("c8", "x.x, y.x = x.x + s, y.x + t"),
        ("c9", "w = 101"),
        Read("x.x", ["x.x"]),
        Read("y.x", []),
        ("c10", "z = 103"),
        Read("y.x", ["y.x"]),
    ),
    case(
        "attribute_of_another_object_changed",
        ("c1", FOO_XY),
        ("c2", "foo = Foo(5, 6)"),
        ("c3", "bar = Foo(7, 8)"),
        ("c4", "y = bar.x + 5"),
        ("c5", "foo.x = 8"),
        Read("y", []),
    ),
    case(
        "attribute_computed_from_stale_attribute",
        ("c1", FOO_XY),
        ("c2", "foo = Foo(5, 6)"),
        ("c3", "bar = Foo(7, 8)"),
        ("c4", "foo.x = bar.x + bar.y"),
        ("c5", "bar.y = 42"),
        Read("foo.x", ["foo.x"]),
    ),
    case(
        "method_local_and_function_global_of_the_same_name",
        ("c1", "y = 10\nclass Foo:\n    def f(self):\n        y = 11\n        return y\ndef f():\n    return y"),
        ("c2", "foo = Foo()"),
        ("c3", "x = foo.f() + f()"),
        ("c4", "y = 42"),
        Read("x", ["x"]),
    ),
    case(
        "method_reads_global",
        ("c1", "y = 10\nclass Foo:\n    def f(self):\n        return y"),
        ("c2", "foo = Foo()"),
        ("c3", "x = foo.f()"),
        ("c4", "y = 42"),
        Read("x", ["x"]),
    ),
    case(
        "property_with_local_of_the_global_name",
        ("c1", "y = 10\nclass Foo:\n    @property\n    def f(self):\n        y = 11\n        return y"),
        ("c2", "foo = Foo()"),
        ("c3", "x = foo.f"),
        ("c4", "y = 42"),
        Read("x", []),
    ),
    case(
        "class_attribute_of_the_global_name",
        ("c1", "y = 42\nclass Foo:\n    y = 10\n    @property\n    def foo(self):\n        return y"),
        ("c2", "foo = Foo()"),
        ("c3", "x = foo.foo"),
        ("c4", "Foo.y = 99"),
        Read("x", []),
    ),
    case(
        "numpy_element",
        ("c1", "import numpy as np"),
        ("c2", "x = np.zeros(5)"),
        ("c3", "y = x[3] + 5"),
        ("c4", "x[0] = 2"),
        Read("y", []),
        ("c5", "x[3] = 2"),
        Read("y", ["y"]),
    ),
    case(
        "function_importing_inside",
        ("c1", "x = 0"),
        ("c2", "def test():\n    import numpy\n    y = x + 1\n    return y"),
        ("c3", "y = test()"),
        ("c4", "x = 42"),
        Read("y", ["y"]),
    ),
    case(
        "dict_entries_are_separate",
        ("c1", 'd = {"foo": "bar", 0: "bat"}'),
        ("c2", "x = 7"),
        ("c3", "d[0] = x"),
        ("c4", "x += 1"),
        ("c5", 'z = d["foo"] + " asdf"', []),
        Read("z", []),
        Read('d["foo"]', []),
        ("c3", "d[0] = x"),
        Read("d", []),
    ),
    case(
        "pandas_column_alias_after_in_place_multiply",
        ("c1", "import pandas as pd"),
        ("c2", 'df = pd.DataFrame({"a": [0, 1], "b": [2., 3.]})'),
        ("c3", "asdf = df.b"),
        ("c4", "df.b *= 7"),
        Read("asdf", ["asdf"]),
    ),
    case(
        "frame_from_a_rebound_dict",
        ("c1", "import pandas as pd"),
        ("c2", 'data = {"a": list(range(5)), "b": list(range(1, 6))}'),
        ("c3", "df = pd.DataFrame(data)"),
        ("c4", "df.b"),
        ("c5", 'data = {"a": list(range(4)), "b": list(range(1, 5))}'),
        Read("df.a", ["df"]),
    ),
    case(
        "alias_broken_by_rebinding",
        ("c1", "x = [0]"),
        ("c2", "y = x"),
        ("c3", "x = [7]"),
        Read("y", ["y"]),
    ),
    case(
        "alias_kept_by_in_place_multiply",
        ("c1", "x = [0]"),
        ("c2", "y = x"),
        ("c3", "x *= 7"),
        Read("y", []),
    ),
    case(
        "dict_literal_entry_from_stale_value",
        ("c1", "x = 42"),
        ("c2", "d = {\n    'foo': x,\n    'bar': 77\n}"),
        ("c3", 'd["bar"] = 99'),
        ("c4", "x = 100"),
        Read("d", ["d"]),
    ),
    case(
        "dict_entry_set_after_the_literal_is_not_stale",
        ("c1", "x = 42"),
        ("c2", "d = {'foo': x, 'bar': 77}"),
        ("c3", 'd["bar"] = 99'),
        ("c4", "x = 100"),
        Read('d["bar"]', []),
    ),
    case(
        "append_inside_another_call",
        ("c1", "lst = list(range(5))"),
        ("c2", "x = 42"),
        ("c3", "asdf = []"),
        ("c4", "asdf.append(lst.append(x))"),
        ("c5", "x = 43"),
        Read("lst", ["lst"]),
    ),
    case(
        "extend_with_value_that_goes_stale",
        ("c1", "lst = [0, 1]"),
        ("c2", "x = lst[0] + 7"),
        ("c3", "lst.extend([2, 3, 4, x])"),
        Read("x", []),
        ("c4", "x = 77"),
        Read("lst", ["lst"]),
    ),
    case(
        "append_stales_a_copy",
        ("c1", "lst = list(range(5))"),
        ("c2", "x = lst + [42, 43]"),
        ("c3", "lst.append(99)"),
        Read("x", ["x"]),
    ),
    case(
        "append_in_loop_over_split",
        ("c1", 's = "hello X world X how X are X you X today?"'),
        ("c2", "lst = []"),
        ("c3", "for word in s.split('X'):\n    lst.append(word.strip())"),
        ("c4", 's = "foobar"'),
        Read("lst", ["lst"]),
    ),
    case(
        "extend_with_generator",
        ("c1", 's = "hello X world X how X are X you X today?"'),
        ("c2", "lst = []"),
        ("c3", 'lst.extend(word.strip() for word in s.split("X"))'),
        ("c4", 's = "foobar"'),
        Read("lst", ["lst"]),
    ),
    case(
        "class_attribute_read_through_an_instance",
        ("c1", "class Foo:\n    shared = 99\n    def __init__(self, x):\n        self.x = x"),
        ("c2", "foo = Foo(10)"),
        ("c3", "y = 11"),
        ("c4", "Foo.shared = y + 42"),
        ("c5", "y = 12"),
        Read("foo.shared", ["Foo.shared"]),
        ("c6", "foo.shared = 89"),
        Read("Foo.shared", ["Foo.shared"]),
        Read("foo.shared", []),
    ),
    case(
        "class_attribute_change_leaves_instance_attributes",
        ("c1", "class Foo:\n    shared = 99\n    def __init__(self):\n        self.x = 42"),
        ("c2", "foo = Foo()"),
        ("c3", "Foo.shared = 12"),
        Read("foo.x", []),
    ),
    case(
        "format_strings",
        ("c1", "a = 5\nb = 7"),
        ("c2", 'e1 = "{} + {} = {}".format(a, b, a + b)'),
        ("c3", 'e2 = "{a} + {b} = {total}".format(a=a, b=b, total=a + b)'),
        ("c4", 'e3 = f"{a} + {b} = {a+b}"'),
        ("c5", "a = 9"),
        Read("e1", ["e1"]),
        Read("e2", ["e2"]),
        Read("e3", ["e3"]),
    ),
    case(
        "nested_function_parameter_scopes",
        ("c1", "def f(x):\n    def g(x):\n        return 2 * x\n    return g(x) + 8"),
        ("c2", "def h(x):\n    return f(x) + 1"),
        ("c3", "x = 7"),
        ("c4", "y = f(x)"),
        ("c5", "w = h(x)"),
        ("c6", "x = 8"),
        Read("y", ["y"]),
        Read("w", ["w"]),
    ),
    case(
        "keyword_arguments",
        ("c1", "def f(x):\n    return 2 * x + 8"),
        ("c2", "x = 7"),
        ("c3", "y = f(x=x)"),
        ("c4", "x = 8"),
        Read("y", ["y"]),
        ("c5", "x = f(x=x)"),
        ("c6", "x = 8"),
        Read("x", []),
    ),
    case(
        "dict_literal_with_variable_key_and_value",
        ("c1", "foo = 5"),
        ("c2", "bar = 6"),
        ("c3", 'd = {foo: bar, "pi": 42,}'),
        ("c4", "bar = 7"),
        Read("d", ["d"]),
        ("c5", "d[foo] = bar", []),
        Read("d", []),
        ("c6", "foo = 8"),
        Read("d", ["d"]),
    ),
    case(
        "statement_that_raised_inside_try_wrote_nothing",
        ("c1", "lst = list(range(5))"),
        ("c2", "x = 6"),
        ("c3", "try:\n    lst[x] = 42\nexcept IndexError:\n    lst[0] = 42"),
        ("c4", "x = 7"),
        Read("lst", []),
    ),
    case(
        "loop_reads_only_the_elements_it_touched",
        ("c1", "lst = list(range(10))"),
        ("c2", "s = 0"),
        ("c3", "for i in range(5):\n    s += lst[i]"),
        ("c4", "lst[-1] = 42"),
        Read("s", []),
    ),
    case(
        "loop_unpacking_tuples",
        ("c1", "x = (1, 2)"),
        ("c2", "y = (3, 4)"),
        ("c3", "total_i = 0\ntotal_j = 0"),
        ("c4", "for i, j in [x, y]:\n    total_i += i\n    total_j += j"),
        Read("total_i", []),
        ("c5", "x = (42, 43)"),
        Read("total_i", ["total_i"]),
        Read("total_j", ["total_j"]),
    ),
    case(
        "parent_changed_in_the_same_cell",
        ("c1", "a = 0"),
        ("c2", "b = a + 1\na = 42"),
        Read("b", []),
    ),
    case(
        "statements_on_one_line",
        ("c1", "a = 1; b = 2"),
        ("c2", "x = a + b"),
        ("c3", "b = 42"),
        Read("x", ["x"]),
    ),
    case(
        "line_magics_between_statements",
        ("c1", "%lsmagic\n%lsmagic\na = 0"),
        ("c2", "%lsmagic\nx = a + 1"),
        ("c3", "%lsmagic\na = 42"),
        ("c4", "%lsmagic\nprint(x)", ["x"]),
        ("c5", "print(x)\n%lsmagic", ["x"]),
        ("c6", "%time dummy = 0\nx = 0\ny = x + 1"),
        ("c7", "x = 42"),
        Read("y", ["y"]),
    ),
    case(
        "assignment_that_raised_inside_try_kept_old_value",
        ("c1", "z = 10\ndef foo():\n    def bar():\n        raise ValueError('foo!')\n    return bar() + z\nx = 0\ny = x + 1"),
        ("c2", "try:\n    x = 42 + foo()\nexcept ValueError:\n    pass"),
        Read("y", []),
        ("c3", "z = 99"),
        Read("x", []),
    ),
    case(
        "attributes_of_a_module_object",
        ("c1", "import types\nfake = types.ModuleType('fake')"),
        ("c2", "fake.y = 7"),
        ("c3", "x = fake.y + 1"),
        ("c4", "w = 5"),
        ("c5", "fake.z = w + 1"),
        ("c6", "fake.y = 42"),
        Read("x", ["x"]),
        ("c7", "w = 6"),
        Read("fake.z", ["fake.z"]),
    ),
    case(
        "class_alias_instance_attributes",
        ("c1", "class Foo:\n    def __init__(self):\n        self.y = 99\n\nBar = Foo\nfoo = Bar()\nx = 7"),
        ("c2", "foo.y = x + 1"),
        ("c3", "x = 42"),
        Read("foo.y", ["foo.y"]),
        ("c4", "foo.y = 10"),
        ("c5", "x = foo.y + 1"),
        ("c6", "foo.y = 12"),
        Read("x", ["x"]),
    ),
    case(
        "class_body_name_is_not_the_global",
        ("c1", "x = 7"),
        ("c2", "y = x + 1"),
        ("c3", "class Foo:\n    x = 42"),
        Read("y", []),
    ),
    case(
        "set_literal",
        ("c1", "x, y, z = 1, 2, 3"),
        ("c2", "s = {x + 1, y + 7}"),
        ("c3", "z = 42"),
        Read("s", []),
        ("c4", "x = 17"),
        Read("s", ["s"]),
    ),
    case(
        "tuple_unpacking_keeps_each_targets_parents",
        ("c1", "x, y = 0, 1"),
        ("c2", "a, b = x + 2, y + 3"),
        ("c3", "y = 43"),
        Read("a", []),
        Read("b", ["b"]),
        ("c4", "b = y + 10"),
        ("c5", "x = 99"),
        Read("b", []),
        Read("a", ["a"]),
    ),
    case(
        "unpacking_a_list_by_position",
        ("c1", "x, y = 0, 1"),
        ("c2", "lst = [x + 1, y + 1]"),
        ("c3", "a, b = lst"),
        ("c4", "x = 42"),
        Read("b", []),
        Read("a", ["a"]),
    ),
    case(
        "annotated_assignment",
        ("c1", "a = 0"),
        ("c2", "b: int = a + 1"),
        ("c3", "a: int = 42"),
        Read("b", ["b"]),
    ),
    case(
        "pandas_dropna_in_place_or_not",
        ("c1", "import numpy as np\nimport pandas as pd"),
        ("c2", "arr = 1 + np.arange(10)"),
        ("c3", 'df = pd.DataFrame({"col": arr})'),
        ("c4", "df2 = df.dropna()"),
        ("c5", "df.dropna()"),
        Read("df2", []),
        ("c6", "df.dropna(inplace=True)"),
        Read("df2", ["df2"]),
    ),
    case(
        "deeply_nested_method_calls_with_keywords",
        ("c1", "class Foo:\n    def foo(self, x, y=0):\n        return x + y"),
        ("c2", "x = 1"),
        ("c3", "y = 2"),
        ("c4", "foo = Foo()"),
        ("c5", "z = foo.foo(foo.foo(foo.foo(x, y=y), y=7), y=foo.foo(123))"),
        Read("z", []),
        ("c6", "x = 101"),
        Read("z", ["z"]),
        ("c7", "z = foo.foo(foo.foo(foo.foo(x, y=y), y=foo.foo(200)), y=99)"),
        ("c8", "y = 102"),
        Read("z", ["z"]),
    ),
    case(
        "instance_attribute_independent_of_global_read_by_init",
        ("c1", "y = 77\nclass Foo:\n    def __init__(self):\n        self.x = 10\n        self.y = y"),
        ("c2", "foo = Foo()"),
        ("c3", "z = foo.x + 7"),
        ("c4", "y = 42"),
        Read("z", []),
    ),
    case(
        "instance_attribute_computed_from_a_global_read_by_init",
        ("c1", "y = 77\nclass Foo:\n    def __init__(self, k):\n        self.x = k\n        self.y = y + 1\n        self.z = self.y * 2"),
        ("c2", "k = 3"),
        ("c3", "foo = Foo(k)"),
        ("c4", "w = foo.z + 7"),
        ("c5", "v = foo.x"),
        ("c6", "y = 42"),
        Read("w", ["w"]),
        Read("v", []),
        ("c7", "k = 4"),
        Read("v", ["v"]),
    ),
    case(
        "permutation_applied_to_what_it_was_computed_from",
        ("c1", "import numpy as np"),
        ("c2", "x = np.random.random(10)"),
        ("c3", "y = np.random.random(10)"),
        ("c4", "inds = np.argsort(x)"),
        ("c5", "x = x[inds]", []),
        ("c6", "y = y[inds]", []),
    ),
    case(
        "if_true_branch_only",
        ("c1", "y = 0"),
        ("c2", "z = 42"),
        ("c3", "if True:\n    x = y + 1\nelse:\n    x = z + 1"),
        ("c4", "z = 43"),
        Read("x", []),
        ("c5", "y = 99"),
        Read("x", ["x"]),
    ),
    case(
        "repeated_calls_then_a_read",
        ("c1", "x = 0"),
        ("c2", "def f():\n    return 42"),
        ("c3", "f()\nf()\ny = x + 1"),
        ("c4", "x = 42"),
        Read("y", ["y"]),
    ),
    case(
        "function_branch_taken_at_the_second_call",
        ("c1", "x = 0"),
        ("c2", "y = 1"),
        ("c3", "def f(p):\n    if p:\n        return x\n    else:\n        return y"),
        ("c4", "z = f(False) + 1\nz = f(True) + 1"),
        ("c5", "y = 2"),
        Read("z", []),
        ("c6", "x = 3"),
        Read("z", ["z"]),
    ),
    case(
        "nested_call_reached_on_the_second_call",
        ("c1", "y = 0"),
        ("c2", "def f():\n    return y"),
        ("c3", "def g(flag):\n    if flag:\n        return f()\n    else:\n        return 2"),
        ("c4", "g(False)\nx = g(True) + 1"),
        ("c5", "y = 42"),
        Read("x", ["x"]),
    ),
    case(
        "dict_entry_changed",
        ("c1", "d = {}; d[0] = 0"),
        ("c2", "x = d[0] + 1"),
        ("c3", "d[0] = 42"),
        Read("x", ["x"]),
    ),
    case(
        "numpy_shuffle_mutates_its_argument",
        ("c1", "import numpy as np"),
        ("c2", "x = np.ones(5)"),
        ("c3", "y = x + 1"),
        ("c4", "np.random.shuffle(x)"),
        Read("y", ["y"]),
    ),
    case(
        "reseeding_stales_earlier_draws_only",
        ("c1", "import numpy as np"),
        ("c2", "x = np.random.random(10)"),
        ("c3", "y = np.ones(5)"),
        ("c4", "np.random.seed(42)"),
        Read("x", ["x"]),
        Read("y", []),
    ),
    case(
        "print_does_not_mutate_its_argument",
        ("c1", "import numpy as np"),
        ("c2", "y = np.ones(5)"),
        ("c3", "x = y + 5"),
        Read("y", []),
        Read("x", []),
    ),
    case(
        "augmented_assignment_keeps_earlier_parents",
        ("c1", "x = 0"),
        ("c2", "y = 1"),
        ("c3", "z = x + 2"),
        ("c4", "z += y"),
        ("c5", "w = x + 2"),
        ("c6", "w = w + y"),
        ("c7", "x = 42"),
        Read("z", ["z"]),
        Read("w", ["w"]),
    ),
    case(
        "augmented_attribute_keeps_earlier_parents",
        ("c1", FOO_X),
        ("c2", "x, y, z = Foo(0), Foo(5), Foo(10)"),
        ("c3", "z.x = x.x + 2"),
        ("c4", "z.x += y.x"),
        ("c5", "x.x = 42"),
        Read("z.x", ["z.x"]),
    ),
    case(
        "with_statement_target",
        ("c1", "from contextlib import contextmanager\n\n@contextmanager\ndef foo():\n    yield 42"),
        ("c2", "with foo() as bar: x = bar + 7"),
        ("c3", "bar = 43"),
        Read("x", ["x"]),
    ),
    case(
        "redefined_decorator",
        ("c1", "foo = lambda f: f"),
        ("c2", "@foo\ndef bar(x):\n    return x + 42"),
        ("c3", "y = bar(7)"),
        ("c4", "foo = lambda f: lambda x: f(x + 9)"),
        Read("y", ["y"]),
    ),
    case(
        "function_returning_a_tuple_of_globals",
        ("c1", "x = 0\ny = 1\na = x + 42\nb = y + 77\ndef foo():\n    return a, b"),
        ("c2", "t = foo()[1]"),
        ("c3", "x = 9"),
        Read("t", []),
        ("c4", "y = 10"),
        Read("t", ["t"]),
    ),
    case(
        "unpacking_a_returned_tuple",
        ("c1", "x = 0\ny = 1\ndef foo(p):\n    t = y + p\n    return x + 1, t"),
        ("c2", "k = 5"),
        ("c3", "a, b = foo(k)"),
        ("c4", "x = 9"),
        Read("a", ["a"]),
        Read("b", []),
        ("c5", "y = 10"),
        Read("b", ["b"]),
        ("c6", "k = 6"),
        Read("b", ["b"]),
    ),
    case(
        "property_read_in_an_argument",
        ("c1", "z = 42\nclass Foo:\n    @property\n    def bar(self):\n        return z\n\ndef f(x, y):\n    return x + y"),
        ("c2", "foo = Foo()"),
        ("c3", "w = f(3, foo.bar)"),
        ("c4", "z = 7"),
        Read("w", ["w"]),
    ),
    case(
        "property_setter_writes_global",
        (
            "c1",
            """
            z = 42
            class Bar:
                @property
                def baz(self):
                    return z

                @baz.setter
                def baz(self, new_val):
                    global z
                    z = new_val

            def f(x, y):
                return x + y
            """,
        ),
        ("c2", "foo = Bar()"),
        ("c3", "w = f(3, foo.baz)"),
        Read("w", []),
        ("c4", "foo.baz = 84"),
        Read("w", ["w"]),
    ),
    case(
        "extend_leaves_existing_elements",
        ("c1", "lst = [0, 1, 2]"),
        ("c2", "x = lst[1] + 1"),
        ("c3", "lst.extend([3, 4, 5, 6, 7, 8, 9])"),
        Read("x", []),
        Read("lst[1]", []),
        ("c4", "y = lst[8] + 1"),
        ("c5", "lst[8] += 42"),
        Read("y", ["y"]),
    ),
    case(
        "global_statement_in_a_called_function",
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        ("c3", "def f(): global x; x = 42"),
        Read("y", []),
        ("c4", "f()"),
        Read("y", ["y"]),
    ),
    case(
        "nonlocal_statement_in_a_closure",
        ("c1", "z = 0\ndef f():\n    x = 0\n    def g():\n        pass\n        x = 42\n    global z\n    z = x\n    return g\ng = f()"),
        ("c2", "y = z + 1"),
        ("c3", "g()"),
        Read("y", []),
    ),
    case(
        "reimport_stales_nothing",
        ("c1", "import numpy as np"),
        ("c2", "arr = np.zeros(3)"),
        ("c3", "import numpy as np", []),
        Read("arr", []),
    ),
    case(
        "nested_user_function_calls",
        ("c1", "x = 42"),
        ("c2", "def bar(): return x + 1"),
        ("c3", "def foo(): return bar() + 7"),
        ("c4", "y = foo() + 9"),
        Read("y", []),
        ("c5", "x = 43"),
        Read("y", ["y"]),
    ),
    case(
        "global_read_through_a_call_in_a_multiline_function",
        ("c1", "w = 0"),
        ("c2", "def f():\n    return w"),
        ("c3", "def g():\n    v = f()\n    return v"),
        ("c4", "x = g() + 1"),
        ("c5", "w = 42"),
        Read("x", ["x"]),
    ),
    case(
        "ipython_underscore",
        ("c1", "x = 42"),
        ("c2", "x"),
        ("c3", "y = _ + 1"),
        ("c4", "x = 43"),
        ("c5", "x"),
        Read("y", ["y"]),
    ),
    case(
        "walrus_in_if",
        ("c1", "if (x := 1) > 0:\n    y = x + 1"),
        ("c2", "x = 42"),
        Read("y", ["y"]),
    ),
    case(
        "nested_walrus",
        ("c1", "if (x := (y := (z := 1) + 1) + 1) > 0:\n    a = x + 1"),
        ("c2", "y = 42"),
        Read("z", []),
        Read("y", []),
        Read("x", ["x"]),
        Read("a", ["a"]),
    ),
    case(
        "nested_walrus_over_an_attribute",
        ("c1", FOO_X),
        ("c2", "foo = Foo(9001)"),
        ("c3", "if (x := (y := (z := 1) + foo.x) + 1) > 0:\n    a = x + 1"),
        ("c4", "foo.x = 42"),
        Read("z", []),
        Read("y", ["y"]),
        Read("x", ["x"]),
        Read("a", ["a"]),
    ),
    case(
        "write_after_a_loop_in_the_cell",
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        ("c3", "for _ in range(3):\n    z = 42\nx = 1"),
        Read("y", ["y"]),
    ),
    case(
        "global_write_after_a_loop_in_a_nested_call",
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        (
            "c3",
            "def baz():\n    pass\ndef foo():\n    global x\n    for _ in range(3):\n        baz()\n    x = 1\n"
            "def bar():\n    foo()\nbar()",
        ),
        Read("y", ["y"]),
    ),
    case(
        "write_after_repeated_calls",
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        ("c3", "def bar():\n    pass\nbar()\nbar()\nbar()\nx = 1"),
        Read("y", ["y"]),
    ),
    case(
        "global_write_after_repeated_calls_in_nested_call",
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        (
            "c3",
            "def bar():\n    pass\ndef foo():\n    global x\n    bar()\n    bar()\n    bar()\n    x = 1\n"
            "def baz():\n    foo()\nbaz()",
        ),
        Read("y", ["y"]),
    ),
]


@pytest.mark.parametrize("steps", packed(STALENESS))
def test_staleness(ip: InteractiveShell, steps: Sequence[Any]) -> None:
    play(ip, steps)


# ==========================================================================
# Mutation, aliasing and library in-place operations (the themes of
# test_staleness_propagation.py and test_frontend_checker.py, on the
# methods and libraries notebooks use most)

MUTATION = [
    case(
        "pop_stales_a_reader_of_the_list",
        ("c1", "lst = [1, 2, 3]"),
        ("c2", "total = sum(lst)"),
        ("c3", "lst.pop()"),
        Read("total", ["total"]),
    ),
    case(
        "sort_in_place_stales_a_reader_of_an_element",
        ("c1", "lst = [3, 1, 2]"),
        ("c2", "first = lst[0]"),
        ("c3", "ordered = sorted(lst)"),
        ("c4", "lst.sort()"),
        Read("first", ["first"]),
    ),
    case(
        "sorted_copy_stales_nothing",
        ("c1", "lst = [3, 1, 2]"),
        ("c2", "first = lst[0]"),
        ("c3", "ordered = sorted(lst)"),
        Read("first", []),
    ),
    case(
        "insert_at_front_shifts_every_element",
        ("c1", "lst = [1, 2, 3]"),
        ("c2", "last = lst[2]"),
        ("c3", "lst.insert(0, 0)"),
        Read("last", ["last"]),
    ),
    case(
        "dict_update_stales_a_whole_reader",
        ("c1", "d = {'a': 1}"),
        ("c2", "n = len(d)"),
        ("c3", "d.update(b=2)"),
        Read("n", ["n"]),
    ),
    case(
        "dict_del_key_leaves_other_keys",
        ("c1", "d = {'k': 1, 'j': 2}"),
        ("c2", "y = d['j']"),
        ("c3", "z = d['k']"),
        ("c4", "keys = list(d)"),
        ("c5", "del d['k']"),
        Read("y", []),
        Read("keys", ["keys"]),
        Status(stale={"r2"}, fresh_has={"c4"}, fresh_lacks={"c2"}),
    ),
    case(
        "set_add_stales_a_reader",
        ("c1", "s = {1}"),
        ("c2", "n = len(s)"),
        ("c3", "s.add(2)"),
        Read("n", ["n"]),
    ),
    case(
        "augmented_assignment_on_an_int_breaks_the_alias",
        ("c1", "a = 1"),
        ("c2", "b = a"),
        ("c3", "a += 1"),
        Read("b", ["b"]),
    ),
    case(
        "augmented_assignment_on_a_str_or_tuple_breaks_the_alias",
        ("c1", "s = 'x'\nt = (1,)"),
        ("c2", "s2 = s\nt2 = t"),
        ("c3", "s += 'y'\nt += (2,)"),
        Read("s2", ["s2"]),
        Read("t2", ["t2"]),
    ),
    case(
        "augmented_assignment_on_a_list_keeps_the_alias",
        ("c1", "a = [1]"),
        ("c2", "b = a"),
        ("c3", "c = len(a)"),
        ("c4", "a += [2]"),
        Read("b", []),
        Read("c", ["c"]),
    ),
    case(
        "mutation_through_an_alias_stales_readers_of_the_other_name",
        ("c1", "a = {'k': 1}"),
        ("c2", "b = a"),
        ("c3", "v = a['k'] * 2"),
        ("c4", "b['k'] = 5"),
        Read("v", ["v"]),
        Read("a", []),
    ),
    case(
        "exception_midway_keeps_the_writes_before_it",
        ("c0", "z = 0"),
        ("c1", "x = 1"),
        Run("c2", "y = x\n1 / 0\nz = x", fails=True),
        ("c3", "x = 2"),
        Read("y", ["y"]),
        Read("z", []),
    ),
    case(
        "del_name_then_rebind",
        ("c1", "a = 1"),
        ("c2", "b = a + 1"),
        ("c3", "del a"),
        ("c4", "a = 5"),
        Read("b", ["b"]),
    ),
    case(
        "function_passed_to_map_reads_global",
        ("c1", "factor = 2\nxs = [1, 2, 3]"),
        ("c2", "def double(v):\n    return v * factor"),
        ("c3", "out = list(map(double, xs))"),
        ("c4", "factor = 3"),
        Read("out", ["out"]),
    ),
    case(
        "function_passed_as_sort_key_reads_global",
        ("c1", "sign = 1\nxs = [3, 1, 2]"),
        ("c2", "def key(v):\n    return sign * v"),
        ("c3", "ordered = sorted(xs, key=key)"),
        ("c4", "sign = -1"),
        Read("ordered", ["ordered"]),
    ),
    case(
        "only_the_branch_that_ran_in_a_function_counts",
        ("c1", "a = 1\nb = 2"),
        ("c2", "def pick(flag):\n    if flag:\n        return a\n    return b"),
        ("c3", "r = pick(True)"),
        ("c4", "b = 99"),
        Read("r", []),
        ("c5", "a = 5"),
        Read("r", ["r"]),
    ),
    case(
        "decorator_reading_a_global",
        ("c1", "scale = 2"),
        ("c2", "def deco(f):\n    def wrapped(*a):\n        return f(*a) * scale\n    return wrapped"),
        ("c3", "@deco\ndef g(x):\n    return x"),
        ("c4", "y = g(1)"),
        ("c5", "scale = 3"),
        Read("y", ["y"]),
    ),
    case(
        "redefined_decorator_freshens_the_decorated_definition",
        ("c1", "def deco(f):\n    return f"),
        ("c2", "@deco\ndef g(x):\n    return x"),
        ("c3", "y = g(1)"),
        ("c1", "def deco(f):\n    return lambda x: f(x) + 1"),
        Status(fresh={"c2"}, stale={"c3"}, refresher={"c2"}),
    ),
    case(
        "class_attribute_from_a_global",
        ("c1", "rate = 2"),
        ("c2", "class A:\n    r = rate"),
        ("c3", "v = A.r * 10"),
        ("c4", "rate = 3"),
        Read("v", ["v"]),
    ),
    case(
        "instance_of_a_redefined_class",
        ("c1", "class A:\n    def f(self):\n        return 1"),
        ("c2", "a = A()"),
        ("c3", "class A:\n    def f(self):\n        return 2"),
        Read("a.f()", ["a"]),
    ),
    case(
        "reimport_of_a_name_stales_nothing",
        ("c1", "import math\nfrom math import sqrt"),
        ("c2", "r = math.floor(sqrt(4.5))"),
        ("c3", "import math\nfrom math import sqrt", []),
        Read("r", []),
    ),
    case(
        "comprehension_reads_globals",
        ("c1", "xs = [1, 2]\nk = 3"),
        ("c2", "ys = [v * k for v in xs]"),
        ("c3", "k = 4"),
        Read("ys", ["ys"]),
        ("c2", "ys = [v * k for v in xs]"),
        ("c4", "xs.append(5)"),
        Read("ys", ["ys"]),
    ),
    case(
        "walrus_inside_a_comprehension_binds_a_global",
        ("c1", "xs = [1, 2]"),
        ("c2", "ys = [(last := v * 2) for v in xs]"),
        ("c3", "xs = [7]"),
        Read("last", ["last"]),
    ),
    case(
        "while_loop_bound",
        ("c1", "n = 3"),
        ("c2", "i = 0\nwhile i < n:\n    i += 1"),
        ("c3", "n = 5"),
        Read("i", ["i"]),
    ),
    case(
        "numpy_augmented_assignment_is_in_place",
        ("c1", "import numpy as np\narr = np.arange(3)"),
        ("c2", "view = arr"),
        ("c3", "s = arr.sum()"),
        ("c4", "arr += 1"),
        Read("view", []),
        Read("s", ["s"]),
    ),
    case(
        "numpy_sort_copy_or_in_place",
        ("c1", "import numpy as np\narr = np.array([3, 1, 2])"),
        ("c2", "first = arr[0]"),
        ("c3", "srt = np.sort(arr)"),
        Read("first", []),
        ("c4", "arr.sort()"),
        Read("first", ["first"]),
    ),
    case(
        "pandas_new_column_leaves_other_columns",
        ("c1", "import pandas as pd\ndf = pd.DataFrame({'a': [3, 1, 2]})"),
        ("c2", "n = df['a'].sum()"),
        ("c3", "total = df.sum().sum()"),
        ("c4", "df['b'] = df['a'] * 2"),
        Read("n", []),
        Read("total", ["total"]),
    ),
    case(
        "pandas_column_overwritten",
        ("c1", "import pandas as pd\ndf = pd.DataFrame({'a': [3, 1, 2]})"),
        ("c2", "n = df['a'].sum()"),
        ("c3", "df['a'] = df['a'] * 2"),
        Read("n", ["n"]),
    ),
    case(
        "pandas_sort_values_in_place_or_not",
        ("c1", "import pandas as pd\ndf = pd.DataFrame({'a': [3, 1, 2]})"),
        ("c2", "first = df['a'].iloc[0]"),
        ("c3", "srt = df.sort_values('a')"),
        Read("first", []),
        ("c4", "df.sort_values('a', inplace=True)"),
        Read("first", ["first"]),
    ),
    case(
        "pandas_drop_rename_fillna_in_place",
        ("c1", "import pandas as pd\ndf = pd.DataFrame({'a': [1.0, None], 'b': [3, 4]})"),
        ("c2", "cols = list(df.columns)"),
        ("c3", "na = int(df['a'].isna().sum())"),
        ("c4", "df.drop(columns=['b'], inplace=True)"),
        Read("cols", ["cols"]),
        ("c2", "cols = list(df.columns)"),
        ("c5", "df.rename(columns={'a': 'z'}, inplace=True)"),
        Read("cols", ["cols"]),
        ("c6", "df.fillna(0, inplace=True)"),
        Read("na", ["na"]),
    ),
    case(
        "pandas_loc_assignment",
        ("c1", "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})"),
        ("c2", "total = df['a'].sum()"),
        ("c3", "df.loc[0, 'a'] = 10"),
        Read("total", ["total"]),
    ),
    case(
        "pandas_attribute_column_read",
        ("c1", "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})"),
        ("c2", "m = df.a.max()"),
        ("c3", "df['a'] = [5, 6]"),
        Read("m", ["m"]),
    ),
]


@pytest.mark.parametrize("steps", packed(MUTATION))
def test_mutation(ip: InteractiveShell, steps: Sequence[Any]) -> None:
    play(ip, steps)


# ==========================================================================
# test_nested_symbols.py / test_updated_symbols.py: containers in containers

NESTED = [
    case(
        "nested_attributes",
        ("c1", "from types import SimpleNamespace as NS\nd = NS()"),
        ("c2", "d.x = NS()"),
        ("c3", "d.y = NS()"),
        ("c4", "d.x.a = 5"),
        ("c5", "d.y.a = 7"),
        ("c6", "x = d.x.a + 9"),
        ("c7", "y = d.y.a + 9"),
        ("c8", "d.y.a = 9"),
        Read("x", []),
        Read("y", ["y"]),
        Read("d.x.a", []),
        Read("d", []),
        ("c9", "d.y = 10"),
        Read("x", []),
        Read("y", ["y"]),
    ),
    case(
        "list_nested_in_a_list_literal",
        ("c1", "lst = [[1, 2], 0]"),
        ("c2", "lst[1] = lst[0] + [3, 4]"),
        ("c3", "lst[0][1] = 42"),
        Read("lst[1]", ["lst[1]"]),
    ),
    case(
        "dict_nested_in_a_dict",
        ("c1", 'd = {"y": [7]}'),
        ("c2", 'd["x"] = d["y"] + [3]'),
        ("c3", 'd["y"][0] = 8'),
        Read('d["x"]', ["d['x']"]),
    ),
    case(
        "nested_entry_update_freshens_a_reader_of_the_parent",
        ("c1", "d = {}"),
        ("c2", 'd["foo"] = {}'),
        ("c3", 'n = len(d["foo"])'),
        ("c4", 'm = len(d)'),
        ("c5", 'd["foo"]["bar"] = []'),
        Status(fresh={"c3", "c4"}, stale=set()),
    ),
    case(
        "global_inside_a_nested_list_literal",
        ("c1", "x = 42"),
        ("c2", "lst = [1, 2, [7, x, 8], 4]"),
        ("c3", "x = 0"),
        Read("lst[0]", []),
    ),
]


@pytest.mark.parametrize("steps", packed(NESTED))
def test_nested(ip: InteractiveShell, steps: Sequence[Any]) -> None:
    play(ip, steps)


# ==========================================================================
# test_frontend_checker.py: stale (waiting), fresh (ready) and refresher
# (ready-maker) cells

FRONTEND = [
    case(
        "simple",
        ("c0", "x = 0"),
        ("c1", "y = x + 1"),
        ("c2", "print(y)"),
        ("c3", "'''?\n.'''"),
        ("c4", "x = 42"),
        Status(stale={"c2"}, fresh={"c1"}, refresher={"c1"}),
    ),
    case(
        "cell_that_failed_is_fresh_once_its_input_exists",
        ("c0", "x = 0"),
        Run("c2", "print(y)", fails=True),
        ("c1", "y = x + 1"),
        Status(fresh={"c2"}, stale=set()),
    ),
    case(
        "reader_fresh_after_value_changed",
        ("c0", "x = 0"),
        ("c1", "y = x + 1"),
        ("c2", "print(y)"),
        ("c3", "y = 42"),
        Status(fresh={"c2"}, stale=set()),
    ),
    case(
        "inner_mutation_considered_fresh",
        ("c0", "lst_0 = [0, 1, 2]"),
        ("c1", "lst_1 = [3, 4, 5]"),
        ("c2", "lst = [lst_0, lst_1]"),
        ("c3", "print(lst)"),
        ("c4", "lst_0.append(42)"),
        Status(stale=set(), fresh={"c2", "c3"}),
    ),
    case(
        "method_mutating_a_list_element",
        ("c0", COUNTER),
        ("c1", "lst = []\nfor i in range(5):\n    x = Foo()\n    lst.append(x)"),
        ("c2", "for foo in lst:\n    foo.inc()"),
        ("c3", "print(lst)"),
        Status(stale=set(), fresh=set()),
        ("c4", "x.inc()"),
        Status(stale=set(), fresh={"c2", "c3"}),
        ("c5", "foo.inc()"),
        Status(stale=set(), fresh={"c2", "c3", "c4"}),
        ("c4", "x.inc()"),
        Status(stale=set(), fresh={"c2", "c3", "c5"}),
    ),
    case(
        "alias_assignment_not_fresh_after_mutation",
        ("c0", "x = []"),
        ("c1", "y = x"),
        ("c2", "x.append(5)"),
        Status(stale=set(), fresh=set()),
    ),
    case(
        "fresh_after_import",
        Run("c0", "x = np.random.random(10)", fails=True),
        ("c1", "import numpy as np"),
        Status(stale=set(), fresh={"c0"}),
    ),
    case(
        "object_attribute_refreshed_by_a_method",
        ("c0", "class Foo:\n    def __init__(self):\n        self.x = 0\n    def set_x(self, x):\n        self.x = x\n        return self"),
        ("c1", "foo = Foo()"),
        ("c2", "print(foo.x)"),
        ("c3", "x = 42"),
        ("c4", "foo.x = x + 1"),
        ("c5", "x = 43"),
        ("c6", "foo = foo.set_x(10)"),
        Status(stale=set(), fresh={"c2", "c4"}),
    ),
    case(
        "symbol_on_both_sides_of_assignment",
        ("c0", "x = 0"),
        ("c1", "y = x + 1"),
        ("c2", "y += 7"),
        ("c3", "x = 42"),
        Status(stale={"c2"}, fresh={"c1"}, refresher={"c1"}),
    ),
    case(
        "dict_key_dependency_removed",
        ("c0", "x = 5"),
        ("c1", "d = {x: 5}"),
        ("c2", "print(d[5])"),
        ("c3", "x = 9"),
        Status(stale={"c2"}, fresh={"c1"}),
        ("c1", "d = {5: 6}"),
        Status(stale=set(), fresh={"c2"}),
        ("c2", "print(d[5])"),
        Status(stale=set(), fresh=set()),
        ("c0", "x = 5"),
        Status(stale=set(), fresh=set()),
    ),
    case(
        "equal_list_rebound_freshens_readers",
        ("c0", 'x = ["f"] + ["o"] * 10'),
        ("c1", 'y = x + list("bar")'),
        ("c2", "print(y)"),
        ("c3", 'y = list("".join(y))'),
        Status(stale=set(), fresh={"c2"}),
        ("c4", 'y = ["f"]'),
        Status(stale=set(), fresh={"c2", "c3"}),
    ),
    case(
        "equal_dict_rebound_freshens_readers",
        ("c0", 'x = {"foo": 42, "bar": 43}'),
        ("c1", 'y = dict(set(x.items()) | set({"baz": 44}.items()))'),
        ("c2", "print(y)"),
        ("c3", "y = dict(y.items())"),
        Status(stale=set(), fresh={"c2"}),
        ("c4", 'y = {"foo": 99}'),
        Status(stale=set(), fresh={"c2", "c3"}),
    ),
    case(
        "append_leaves_readers_of_existing_elements",
        ("c0", "lst = [0, 1]"),
        ("c1", "x = lst[1] + 1"),
        ("c2", "print(x)"),
        ("c3", "lst.append(2)"),
        Status(stale=set(), fresh=set()),
        ("c4", "lst[1] += 42"),
        Status(stale={"c2"}, fresh={"c1"}),
    ),
    case(
        "extend_leaves_readers_of_existing_elements",
        ("c0", "lst = [0, 1]"),
        ("c1", "x = lst[1] + 1"),
        ("c2", "print(x)"),
        ("c3", "lst.extend([2, 3, 4])"),
        Status(stale=set(), fresh=set()),
        ("c4", "lst[1] += 42"),
        Status(stale={"c2"}, fresh={"c1"}),
    ),
    case(
        "reading_an_element_does_not_change_it",
        ("c0", "lst = [] + [0, 1]"),
        ("c1", "print(lst)"),
        ("c2", "print(lst[0])"),
        Status(stale=set(), fresh=set()),
    ),
    case(
        "alias_then_rebinding",
        ("c0", "lst = [1, 2, 3]"),
        ("c1", "lst2 = lst"),
        ("c2", "lst.append(4)"),
        Status(stale=set(), fresh=set()),
        ("c3", "lst = [1, 2, 3, 4]"),
        Status(stale=set(), fresh={"c1", "c2"}),
    ),
    case(
        "library_call_argument_is_not_confused_with_the_module",
        ("c0", "import numpy as np"),
        ("c1", "arr = np.random.randn(100)"),
        ("c2", "def f(x): return []"),
        ("c3", "f(np.arange(10))"),
        Status(stale=set(), fresh=set()),
    ),
    case(
        "rerun_of_the_first_cell_with_a_new_value",
        ("c0", "x = 2"),
        ("c1", "y = x + 1"),
        ("c2", "print(y)"),
        Status(stale=set(), fresh=set()),
        ("c0", "x = 3"),
        Status(stale={"c2"}, fresh={"c1"}),
    ),
    case(
        "insert_shifts_only_later_elements",
        ("c0", "lst = [0, 1, 2, 4, 5, 6]"),
        *[(f"c{i + 1}", f"print(lst[{i}])") for i in range(6)],
        ("c7", "x = lst[5] + 42"),
        ("c8", "print(x)"),
        ("c9", "lst.insert(3, 3)"),
        Status(stale={"c8"}, fresh={"c4", "c5", "c6", "c7"}),
    ),
    *[
        case(
            f"{name}_shifts_only_later_elements",
            ("c0", "lst = [0, 1, 2, 3, 3, 4, 5, 6]"),
            *[(f"c{i + 1}", f"print(lst[{i}])") for i in range(8)],
            ("c9", "x = lst[6] + 42"),
            ("c10", "print(x)"),
            ("c11", source),
            Status(stale={"c10"}, fresh_has={"c5", "c6", "c7", "c9"}, fresh_lacks={"c1", "c2", "c3"}),
            xfail=reason,
        )
        for name, source, reason in (
            ("del", "del lst[3]", None),
            ("pop", "lst.pop(3)", None),
            ("remove", "lst.remove(3)", None),
        )
    ],
    case(
        "list_clear",
        ("c0", "lst = [0]"),
        ("c1", "print(lst[0])"),
        ("c2", "print(lst)"),
        Status(stale=set(), fresh=set()),
        ("c3", "lst.clear()"),
        Status(stale=set(), fresh_has={"c2"}),
    ),
    case(
        "dict_clear",
        ("c0", "d = {0: 0}"),
        ("c1", "print(d[0])"),
        ("c2", "print(d)"),
        Status(stale=set(), fresh=set()),
        ("c3", "d.clear()"),
        Status(stale=set(), fresh_has={"c2"}),
    ),
    case(
        "pandas_column_rebound_after_in_place_dropna",
        ("c0", "import pandas as pd"),
        ("c1", "df = pd.DataFrame({1: [2, 3], 4: [5, 7]})"),
        ("c2", 'df["foo"] = [8, 9]'),
        ("c3", "df.foo.dropna(inplace=True)"),
        Status(stale=set(), fresh=set()),
        ("c4", 'df["foo"] = [8, 9]'),
        Status(stale=set(), fresh={"c3"}),
    ),
    case(
        "qualified_import",
        ("c0", "import numpy.random"),
        ("c1", "print(numpy.random)"),
        Status(stale=set(), fresh=set()),
    ),
    case(
        "ipython_underscore",
        ("c0", "x = 0"),
        ("c1", "x + 1"),
        ("c2", "print(_)"),
        Status(stale=set(), fresh=set()),
        ("c0", "x = 1"),
        Status(stale={"c2"}, fresh={"c1"}),
        ("c1", "x + 1"),
        Status(stale=set(), fresh={"c2"}),
    ),
    case(
        "rerun_of_the_first_of_two_chains",
        ("c0", "x = 0"),
        ("c1", "y = x + 1"),
        ("c2", "print(y)"),
        ("c3", "x = 42"),
        ("c4", "y = x + 1"),
        ("c5", "print(y)"),
        Status(stale=set(), fresh={"c1", "c2"}),
        ("c0", "x = 0"),
        Status(stale={"c2", "c5"}, fresh={"c1", "c4"}, refresher={"c1", "c4"}),
    ),
    case(
        "cell_rewritten_to_no_longer_compute_the_symbol",
        ("c0", "x = 0"),
        ("c1", "y = x + 1"),
        ("c2", "print(y)"),
        ("c1", "z = 77"),
        ("c0", "x = 42"),
        Status(stale={"c2"}, fresh=set(), refresher=set()),
        ("c1", "y = x + 2"),
        Status(stale=set(), fresh={"c2"}),
    ),
    case(
        "top_level_await",
        ("c0", "async def foo(): return 42"),
        ("c1", "bar = await foo() + 1"),
        ("c2", "print(bar)"),
        Status(stale=set(), fresh=set()),
        ("c0", "async def foo(): return 43"),
        Status(stale={"c2"}, fresh={"c1"}),
    ),
    case(
        "edited_cell_judged_by_its_new_code",
        ("c0", "x = 0"),
        ("c1", "y = 1"),
        ("c2", "z = x + 42"),
        ("c3", "print(z)"),
        Sync([("c0", "x = 0"), ("c1", "y = 2"), ("c2", "z = y + 42"), ("c3", "print(z)")]),
        ("c1", "y = 2"),
        Status(fresh={"c2"}),
        ("c2", "z = y + 42"),
        Status(stale=set(), fresh={"c3"}),
        ("c3", "print(z)"),
        Status(stale=set(), fresh=set()),
        ("c0", "x = 99"),
        Status(stale=set(), fresh=set()),
        Sync([("c0", "x = 99"), ("c1", "y = 2"), ("c2", "z = x + 42"), ("c3", "print(z)")]),
        ("c0", "x = 100"),
        Status(fresh={"c2"}),
    ),
]


@pytest.mark.parametrize("steps", packed(FRONTEND))
def test_frontend_checker(ip: InteractiveShell, steps: Sequence[Any]) -> None:
    play(ip, steps)


# ==========================================================================
# test_dynamic_slicing.py and test_cell_dag.py: slices at cell granularity
# (ipyflow slices by execution: each run has its own cell id here)

SLICING = [
    case(
        "simple",
        ("c1", "a = 1"),
        ("c2", "b = 2"),
        ("c3", "print(a)"),
        ("c4", "c = a + b"),
        Slice("c4", back=["c1", "c2", "c4"]),
    ),
    case(
        "augmented_assignment",
        ("c1", "a = 0"),
        ("c2", "a += 1"),
        ("c3", "b = a"),
        ("c4", "print(a)"),
        Slice("c4", back=["c1", "c2", "c4"]),
    ),
    case(
        "function_reads_the_global_at_call_time",
        ("c1", "a = 1"),
        ("c2", "def f(): return a"),
        ("c3", "a = 3"),
        ("c4", "b = f() + 2"),
        ("c5", "print(b)"),
        Slice("c5", back=["c2", "c3", "c4", "c5"]),
    ),
    case(
        "list_comprehension",
        ("c1", "xs = 0"),
        ("c2", "ys = xs ** 2"),
        ("c3", "xs = 1"),
        ("c4", "ys = [x**2 for x in [xs]]"),
        Slice("c4", back=["c3", "c4"]),
    ),
    case(
        "method_reached_through_a_function",
        ("c1", "x = 5"),
        ("c2", "class Foo:\n    def foo(self):\n        return x"),
        ("c3", "def foo():\n    return Foo()"),
        ("c4", "print(foo().foo())"),
        Slice("c4", back=["c1", "c2", "c3", "c4"]),
    ),
    case(
        "element_set",
        ("c1", "lst = [1, 2, 3, 4, 5]"),
        ("c2", "lst[1] = 3"),
        ("c3", "print(lst[1])"),
        Slice("c3", back=["c1", "c2", "c3"]),
    ),
    case(
        "element_set_at_a_variable_index",
        ("c1", "x = 1"),
        ("c2", "lst = [1, 2, 3, 4, 5]"),
        ("c3", "lst[x] = 3"),
        ("c4", "print(lst[1])"),
        Slice("c4", back=["c1", "c2", "c3", "c4"]),
    ),
    case(
        "unread_definitions_of_a_cell_do_not_matter",
        ("c1", "x = 0\nif True:\n    y = 1\nelse:\n    y = 2"),
        ("c2", "z = 42"),
        ("c3", "print(x + 1)"),
        Slice("c3", back=["c1", "c3"]),
    ),
    case(
        "appends",
        ("c1", "dummy = 0"),
        ("c2", "lst = []"),
        ("c3", "lst.append(1)"),
        ("c4", "lst.append(2)"),
        ("c5", "lst.append(3); lst.append(4)"),
        ("c6", "print(lst)"),
        Slice("c5", back=["c2", "c3", "c4", "c5"]),
        Slice("c6", back=["c2", "c3", "c4", "c5", "c6"]),
    ),
    case(
        "appends_to_a_nested_list",
        ("c1", "dummy = 0"),
        ("c2", "lst = [[]]"),
        ("c3", "lst[0].append(1)"),
        ("c4", "lst[0].append(2)"),
        ("c5", "lst[0].append(3); lst[0].append(4)"),
        ("c6", "print(lst)"),
        Slice("c6", back=["c2", "c3", "c4", "c5", "c6"]),
    ),
    case(
        "imports",
        ("c1", "import numpy as np"),
        ("c2", "arr = np.zeros((5,))"),
        ("c3", "print(arr * 3)"),
        Slice("c3", back=["c1", "c2", "c3"]),
    ),
    case(
        "stale_read_slices_to_the_value_read",
        ("c1", "a = 1"),
        ("c2", "b = 2 * a"),
        ("c3", "a = 2"),
        ("c4", "print(b)"),
        ("c5", "print(b)"),
        Slice("c4", back=["c1", "c2", "c4"]),
        Slice("c5", back=["c1", "c2", "c5"]),
        Slice("c3", fwd=["c3"]),
    ),
    case(
        "every_version_read_is_kept",
        ("c1", "x = 0"),
        ("c2", "print(x); y = 7"),
        ("c3", "x = 5"),
        ("c4", "print(x + y)"),
        Slice("c4", back=["c1", "c2", "c3", "c4"]),
    ),
    case(
        "tuple_unpacked_globals_read_by_a_function",
        ("c1", "x, y = 0, 0"),
        ("c2", "def get_sum(): return x + y"),
        ("c3", "z = get_sum()"),
        ("c4", "print(z)"),
        Slice("c4", back=["c1", "c2", "c3", "c4"]),
        ("c5", "x, y = 0, 1"),
        ("c6", "z = get_sum()"),
        ("c7", "print(z)"),
        Slice("c7", back=["c2", "c5", "c6", "c7"]),
    ),
    # ipyflow counts the read of `x` in the branch not taken (liveness); a
    # dynamic slice follows what ran: `y = 7` never read `x`.
    case(
        "branch_not_taken_reads_nothing",
        ("c1", "x = 0"),
        ("c2", "if True:\n    y = 7\nelse:\n    print(x)"),
        ("c3", "x = 5"),
        ("c4", "print(x + y)"),
        ("c5", "print(y)"),
        Slice("c4", back=["c2", "c3", "c4"]),
        Slice("c5", back=["c2", "c5"]),
    ),
    case(
        "reader_of_the_whole_includes_an_element_update",
        ("c1", "lst = [3]"),
        ("c2", "lst[0] += 1"),
        ("c3", "lst2 = lst + [5]"),
        Slice("c3", back=["c1", "c2", "c3"]),
    ),
    case(
        "subscript_of_a_method_result",
        (
            "c1",
            "class Foo:\n    def __init__(self):\n        self.counter = 0\n    def inc(self):\n"
            "        self.counter += 1\n    def bar(self):\n        return {'baz': 0}",
        ),
        ("c2", "obj = Foo()"),
        ("c3", "name = 'baz'"),
        ("c4", "obj.bar()[name]"),
        ("c5", "something_i_dont_care_about = obj.bar()[name]"),
        ("c6", "something_i_care_about = obj.bar()[name]"),
        Slice("c6", back=["c1", "c2", "c3", "c6"]),
    ),
    case(
        "only_the_method_branches_that_ran",
        ("c1", FOO_BAR_CLASSES),
        ("c2", BAR_CLASS),
        ("c3", "x = 1"),
        ("c4", "the_dictionary = {'something': 1}"),
        ("c5", "Foo().new(0).foo(1)"),
        Slice("c5", back=["c1", "c2", "c4", "c5"]),
    ),
    case(
        "method_branches_that_ran_across_two_statements",
        ("c1", FOO_BAR_CLASSES),
        ("c2", BAR_CLASS),
        ("c3", "x = 1"),
        ("c4", "the_dictionary = {'something': 1}"),
        ("c5", "y = Foo().new(0).foo(1)\nz = Foo().new(1).bar(0)"),
        ("c6", "print(z)"),
        ("c7", "print(y)"),
        Slice("c6", back=["c1", "c2", "c3", "c4", "c5", "c6"]),
        Slice("c7", back=["c1", "c2", "c3", "c4", "c5", "c7"]),
    ),
    case(
        "updates_of_other_elements_are_not_in_the_slice",
        ("c1", "lst = [0, 1, 2]"),
        ("c2", "lst[0] += 1"),
        ("c3", "lst[0] += 1"),
        ("c4", "lst[1] += 1"),
        ("c5", "lst[0] += 1"),
        ("c6", "lst[0] += 1"),
        ("c7", "print(lst[1])"),
        ("c8", "lst[1] = 42"),
        Slice("c7", back=["c1", "c4", "c7"]),
        Slice("c8", back=["c1", "c8"]),
    ),
    case(
        "variable_subscripts_resolved_at_run_time",
        ("c1", "lst = [0, 1, 2]"),
        ("c2", "x = 0"),
        ("c3", "lst[x] += 1"),
        ("c4", "lst[x] += 1"),
        ("c5", "x += 1"),
        ("c6", "lst[x] += 1"),
        ("c7", "x -= 1"),
        ("c8", "lst[x] += 1"),
        ("c9", "lst[x] += 1"),
        ("c10", "x += 1"),
        ("c11", "print(lst[x])"),
        Slice("c11", back=["c1", "c2", "c5", "c6", "c7", "c10", "c11"]),
    ),
    case(
        "handled_exception_cell_stands_alone",
        ("c1", "try:\n    r = map()\nexcept TypeError:\n    success = False"),
        ("c2", "try:\n    int('x')\nexcept ValueError:\n    success = False"),
        Slice("c2", back=["c2"]),
    ),
    case(
        "deletes_shift_elements",
        ("c1", "lst = [0, 1, 2, 3, 4, 5, 6]"),
        ("c2", "lst.append(7)"),
        ("c3", "del lst[0]"),
        ("c4", "del lst[2]"),
        ("c5", "print(lst[1])"),
        Slice("c5", back=["c1", "c3", "c5"]),
    ),
    case(
        "discarded_call_result_is_not_in_the_slice",
        ("c1", "y = 3"),
        ("c2", "def f(): return y + 5"),
        ("c3", "f()"),
        ("c4", "sink = f()"),
        Slice("c4", back=["c1", "c2", "c4"]),
        Slice("c1", fwd=["c1", "c3", "c4"]),
    ),
    case(
        "frame_columns_all_contribute",
        ("c1", "import pandas as pd"),
        ("c2", 'df = pd.DataFrame({"a": [0, 1], "b": [2., 3.]})'),
        ("c3", "df['x'] = df.a + 1"),
        ("c4", "df['y'] = df.a + 2"),
        ("c5", "df['z'] = df.b + 3"),
        ("c6", "df.dropna()"),
        Slice("c6", back=["c1", "c2", "c3", "c4", "c5", "c6"]),
    ),
    # test_cell_dag.py: parents and children of executions
    case(
        "dag_parents_and_children",
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        Slice("c2", back=["c1", "c2"]),
        Slice("c1", fwd=["c1", "c2"]),
        ("c3", "z = x + y + 2"),
        Slice("c3", back=["c1", "c2", "c3"]),
        Slice("c1", fwd=["c1", "c2", "c3"]),
        Slice("c2", fwd=["c2", "c3"]),
        ("c4", "x = 42"),
        ("c5", "y = x + 1"),
        Slice("c3", back=["c1", "c2", "c3"]),
        Slice("c5", back=["c4", "c5"]),
        Slice("c4", fwd=["c4", "c5"]),
    ),
    case(
        "dag_nested_list_mutation",
        ("c1", "lst = [[]]"),
        ("c2", "lst[0].append(0)"),
        Slice("c2", back=["c1", "c2"]),
        Slice("c1", fwd=["c1", "c2"]),
    ),
    case(
        "dag_instance_attribute_over_class_attribute",
        ("c1", "class Foo:\n    x = 42"),
        ("c2", "foo = Foo()"),
        ("c3", "foo.x = 43"),
        ("c4", "foo"),
        Slice("c4", back=["c1", "c2", "c3", "c4"]),
    ),
    case(
        "dag_class_attribute_through_an_instance",
        ("c1", "class Foo:\n    x = 42"),
        ("c2", "foo = Foo()"),
        ("c3", "foo.x"),
        Slice("c3", back=["c1", "c2", "c3"]),
    ),
]


@pytest.mark.parametrize("steps", packed(SLICING))
def test_dynamic_slicing(ip: InteractiveShell, steps: Sequence[Any]) -> None:
    play(ip, steps)


# ==========================================================================
# test_reactivity.py: which cells reactive mode re-runs

REACTIVITY = [
    case(
        "one_list_entry_at_a_time",
        Mode("reactive"),
        ("c1", "lst = [1, 2, 3]"),
        ("c2", "print(lst[0])"),
        ("c3", "print(lst[1])"),
        ("c4", "print(lst[2])"),
        Run("m0", "lst[0] += 1", reran=["c2"]),
        Run("m1", "lst[1] += 1", reran=["c3"]),
        Run("m2", "lst[2] += 1", reran=["c4"]),
        Run("m3", "lst.append(3)", reran=[]),
    ),
    case(
        "cascade",
        Mode("reactive"),
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        ("c3", "print(y)"),
        Run("c4", "x = 42", reran=["c2", "c3"]),
        Value("y", 43),
        Run("c5", "y = 99", reran=["c3"]),
    ),
    case(
        "redefined_function",
        Mode("reactive"),
        ("c1", "x = 0"),
        ("c2", "def f(): return x"),
        ("c3", "r = f()"),
        Run("c4", "def f(): return x + 3", reran=["c3"]),
        Value("r", 3),
    ),
    case(
        "global_read_by_a_called_function",
        Mode("reactive"),
        ("c1", "x = 0"),
        ("c2", "def f(): return x"),
        ("c3", "r = f()"),
        Run("c4", "x = 42", reran=["c3"]),
        Value("r", 42),
    ),
    case(
        "global_written_by_a_called_function",
        Mode("reactive"),
        ("c1", "x = 0"),
        ("c2", "def f(): global x; x = 42"),
        ("c3", "r = x"),
        Run("c4", "f()", reran=["c3"]),
        Value("r", 42),
    ),
    case(
        "local_written_by_a_called_function",
        Mode("reactive"),
        ("c1", "x = 0"),
        ("c2", "def f(): x = 42"),
        ("c3", "r = x"),
        Run("c4", "f()", reran=[]),
    ),
    case(
        "import_after_a_cell_that_missed_it",
        Mode("reactive"),
        ("c1", "try:\n    found = ast.__name__\nexcept NameError:\n    found = None"),
        Run("c2", "import ast", reran=["c1"]),
        Value("found", "ast"),
    ),
    case(
        "import_cascades",
        Mode("reactive"),
        ("c1", 'try:\n    foo = ast.parse("bar")\nexcept NameError:\n    foo = None'),
        ("c2", "try:\n    n = len(foo.body)\nexcept AttributeError:\n    n = -1"),
        Run("c3", "import ast", reran=["c1", "c2"]),
        Value("n", 1),
    ),
    case(
        "from_import",
        Mode("reactive"),
        ("c1", 'try:\n    foo = path.join("bar", "baz")\nexcept NameError:\n    foo = None'),
        Run("c2", "from os import path", reran=["c1"]),
        Value("foo is not None", True),
    ),
    case(
        "attributes_of_a_dataclass",
        Mode("reactive"),
        ("c1", EXAMPLE),
        ("c2", "print(ex)"),
        ("c3", "print(ex.foo)"),
        ("c4", "print(ex.bar)"),
        Run("c5", 'ex.foo = "hello"', reran=["c2", "c3"]),
        Run("c6", "ex.bar = 9001", reran=["c2", "c4"]),
        Run("c7", 'ex = Example("foo", 0)', reran=["c2", "c3", "c4"]),
    ),
    case(
        "redefined_function_then_its_argument",
        Mode("reactive"),
        ("c1", "x = 42"),
        ("c2", 'def assert_nonzero(v):\n    assert v != 0, "Got 0 for v!"\n    return v'),
        ("c3", "checked = assert_nonzero(x)"),
        Run("c4", "def assert_nonzero(v):\n    assert v != 0, \"v can't be 0\"\n    return v + 1", reran=["c3"]),
        Value("checked", 43),
        Run("c5", "x = 43", reran=["c3"]),
        Value("checked", 44),
    ),
    case(
        "walrus_store",
        Mode("reactive"),
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        Run("c3", "if (x := 1): pass", reran=["c2"]),
        Value("y", 2),
    ),
    case(
        "list_literal_element",
        Mode("reactive"),
        ("c1", "x = 0"),
        ("c2", "lst = [x]"),
        ("c3", "print(lst)"),
        Run("c4", "x = 42", reran=["c2", "c3"]),
        Value("lst", [42]),
    ),
    case(
        "nonlocal_write_through_a_closure",
        Mode("reactive"),
        (
            "c1",
            "def foo():\n    x = 0\n    def bar():\n        return x + 1\n    def baz(y):\n"
            "        nonlocal x\n        x = y\n    return bar, baz\nbar, baz = foo()",
        ),
        ("c2", "r = bar()"),
        Run("c3", "baz(42)", reran=["c2"]),
        Value("r", 43),
    ),
    case(
        "nested_list_rebound",
        Mode("reactive"),
        ("c1", "matrix = [['f'] * 3 for _ in range(3)]"),
        ("c2", "x = matrix[0][0]"),
        ("c3", "x"),
        Run("c4", "matrix = [['g'] * 3 for _ in range(3)]", reran=["c2", "c3"]),
        Value("x", "g"),
    ),
    case(
        "unrelated_store_reruns_nothing",
        Mode("reactive"),
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        ("c3", "print(y)"),
        Run("c4", "z = 9001", reran=[]),
    ),
]


@pytest.mark.parametrize("steps", packed(REACTIVITY))
def test_reactivity(ip: InteractiveShell, steps: Sequence[Any]) -> None:
    play(ip, steps)


# ==========================================================================
# test_api.py and test_line_magics.py: symbol dependencies, code of a value

API = [
    case(
        "deps_and_users",
        ("c1", "x = 0"),
        ("c2", "y = x + 0"),
        ("c3", "z = y + 0"),
        Deps("x", cell="c1", parents=[], children=["y"]),
        Deps("y", cell="c2", parents=["x"], children=["z"]),
        Deps("z", cell="c3", parents=["y"], children=[]),
    ),
    case(
        "unpacked_call_results_depend_on_the_function",
        ("c1", "def f(): return 0, 1, 2, 3"),
        ("c2", "a, b, c, d = f()"),
        ("c3", "g = lambda: (0, 1, 2, 3)"),
        ("c4", "w, x, y, z = g()"),
        *[Deps(s, cell="c2", parents=["f"], children=[]) for s in "abcd"],
        *[Deps(s, cell="c4", parents=["g"], children=[]) for s in "wxyz"],
    ),
    case(
        "code_of_a_value",
        ("c1", "x = 0"),
        ("c2", "unrelated = 5"),
        ("c3", "y = x + 1\ny"),
        Gather("c3", contains=["x = 0", "y = x + 1"], lacks=["unrelated"]),
    ),
    case(
        "slice_after_a_stale_read",
        ("c1", "x = 0"),
        ("c2", "y = x + 1"),
        ("c3", "x = 42"),
        ("c4", "print(y)"),
        Gather("c4", contains=["x = 0", "y = x + 1", "print(y)"], lacks=["x = 42"]),
    ),
]


@pytest.mark.parametrize("steps", packed(API))
def test_api(ip: InteractiveShell, steps: Sequence[Any]) -> None:
    play(ip, steps)


# ==========================================================================
# test_stability.py: the tracer never changes what cells compute

STABILITY = [
    case(
        "comprehension_calling_a_function",
        ("c1", "x = 42\ndef fake_func(y):\n    z = 9\n    return z\nnew_xs = [fake_func(x) for _ in range(5)]"),
        Value("new_xs", [9] * 5),
    ),
    case(
        "non_idempotent_subscript_runs_once",
        (
            "c1",
            "class IncDict:\n    def __init__(self):\n        self.val = 0\n    def __getitem__(self, val):\n"
            "        self.val += val\n        return self.val\nd = IncDict()\nd_sub_1 = d[1]",
        ),
        Value("d_sub_1", 1),
        Value("d.val", 1),
    ),
    case(
        "starred_arguments",
        ("c1", "def f(foo, bar):\n    return foo + bar"),
        ("c2", "args = [1, 2]"),
        ("c3", "r = f(*args)"),
        Value("r", 3),
    ),
    case(
        "slice_assignment",
        ("c1", "lst = list(range(10))"),
        ("c2", "foo = lst[3:7]"),
        ("c3", "lst[1:2] = foo"),
        Value("lst", [0, 3, 4, 5, 6, 2, 3, 4, 5, 6, 7, 8, 9]),
        Read("foo", []),
    ),
    case(
        "custom_delitem",
        (
            "c1",
            "class Foo:\n    def __init__(self):\n        self.lst = []\n    def __getitem__(self, i):\n"
            "        return self.lst[i]\n    def __setitem__(self, i, v):\n        self.lst[i] = v\n"
            "    def __delitem__(self, i):\n        del self.lst[i]",
        ),
        ("c2", "foo = Foo()"),
        ("c3", "foo.lst.append(0)\nfoo.lst.append(1)\nfoo.lst.append(2)"),
        ("c4", "foo[1] = 2"),
        ("c5", "del foo[-1]"),
        Value("foo.lst", [0, 2]),
    ),
    case(
        "numpy_fancy_slices",
        ("c1", "import numpy as np\nx = np.zeros((3, 3, 3))"),
        ("c2", "x[:, 1, ...] = 1."),
        ("c3", "x[:, 1, ...] /= 5."),
        Value("round(float(x.sum()), 6)", 1.8),
    ),
    case(
        "global_set_by_a_function",
        ("c1", "x = 0"),
        ("c2", "def f(): global x; x = 42"),
        ("c3", "f()"),
        Value("x", 42),
    ),
    case(
        "syntax_error_then_a_good_cell",
        ("c1", "y = 1"),
        Run("c2", "x ++= 5", fails=True),
        ("c3", "x = 5"),
        Value("x", 5),
        Read("x", []),
    ),
    case(
        "thread_sets_a_global",
        ("c1", "from threading import Thread\nx = 0\ndef foo():\n    global x\n    x = 42\nt = Thread(target=foo)\nt.start()\nt.join()"),
        Value("x", 42),
    ),
    case(
        "tuple_then_int",
        ("c1", "x = 3, 4"),
        ("c2", "x = 3"),
        Value("x", 3),
        Read("x", []),
    ),
    case(
        "empty_return",
        ("c1", "def foo():\n    return"),
        ("c2", "x = foo()"),
        Value("x", None),
    ),
    case(
        "none_key",
        ("c1", "d = {}"),
        ("c2", "d[None] = None"),
        ("c3", "d.clear()"),
        Value("d", {}),
    ),
]


@pytest.mark.parametrize("steps", packed(STABILITY))
def test_stability(ip: InteractiveShell, steps: Sequence[Any]) -> None:
    play(ip, steps)
