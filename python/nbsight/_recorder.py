"""Recording run-time decisions for value provenance (opt-in:
``%nbsight provenance on``).

While recording is on, each cell runs instrumented: an AST transformer wraps
every condition (``if``, ``while``, conditional expressions, comprehension
filters, the left operands of ``and``/``or``), every iterable of a loop or
comprehension and every subscript key that is not a constant in a call to
the recorder, which logs the decision, the iteration or the key (at the
position of the expression, as ``ast`` gives it) and returns the value
unchanged. After the run the native session replays the cell without values,
following the log (crates/nbsight-lineage, ``provenance``).

The instrumented code computes what the original does; it only adds the
recorder's calls (a ``bool()`` of the left operand of ``and``/``or``, which
Python itself also computes, runs twice). The recorder is reached through
``builtins`` so that nothing is added to the user's namespace. Functions a
recorded cell defines stay instrumented; their events are kept only while a
cell is being recorded.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterable, Iterator
from typing import Any

RECORDER = "__nbsight_recorder__"

Event = tuple[str, int, int, Any]


LIMIT = 1_000_000
"""Events one cell run may log; past it the run is not recorded (its values
become inputs of their own) and its memory is given back."""


class Recorder:
    """The run-time log of one recorded cell run."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.on = False
        self.overflowed = False

    def start(self) -> None:
        self.events = []
        self.on = True
        self.overflowed = False

    def stop(self) -> list[Event] | None:
        """The run's events; None when it logged more than ``LIMIT``."""
        self.on = False
        events, self.events = self.events, []
        return None if self.overflowed else events

    def _log(self, event: Event) -> None:
        if len(self.events) < LIMIT:
            self.events.append(event)
        else:
            self.on = False
            self.overflowed = True
            self.events = []

    def decide(self, line: int, col: int, value: Any) -> bool:
        taken = bool(value)
        if self.on:
            self._log(("d", line, col, taken))
        return taken

    def truth(self, line: int, col: int, value: Any) -> Any:
        if self.on:
            self._log(("d", line, col, bool(value)))
        return value

    def iterate(self, line: int, col: int, iterable: Iterable[Any]) -> Iterator[Any]:
        for item in iterable:
            if self.on:
                self._log(("i", line, col, None))
            yield item
        if self.on:
            self._log(("x", line, col, None))

    def key(self, line: int, col: int, key: Any) -> Any:
        if self.on:
            shown = repr(key) if isinstance(key, (int, str)) and not isinstance(key, bool) else None
            self._log(("k", line, col, shown))
        return key


def install(recorder: Recorder) -> None:
    setattr(builtins, RECORDER, recorder)


def uninstall() -> None:
    if hasattr(builtins, RECORDER):
        delattr(builtins, RECORDER)


def _call(method: str, node: ast.expr) -> ast.expr:
    call = ast.Call(
        func=ast.Attribute(value=ast.Name(id=RECORDER, ctx=ast.Load()), attr=method, ctx=ast.Load()),
        args=[ast.Constant(node.lineno), ast.Constant(node.col_offset), node],
        keywords=[],
    )
    return ast.copy_location(call, node)


def _constant_key(node: ast.expr) -> bool:
    if isinstance(node, (ast.Constant, ast.Slice)):
        return True
    return (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
    )


class Instrument(ast.NodeTransformer):
    """Wraps what the replay needs logged in calls to the recorder."""

    def visit_If(self, node: ast.If) -> ast.AST:
        self.generic_visit(node)
        node.test = _call("decide", node.test)
        return node

    def visit_While(self, node: ast.While) -> ast.AST:
        self.generic_visit(node)
        node.test = _call("decide", node.test)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        node.test = _call("decide", node.test)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        node.values = [_call("truth", v) for v in node.values[:-1]] + node.values[-1:]
        return node

    def visit_For(self, node: ast.For) -> ast.AST:
        self.generic_visit(node)
        node.iter = _call("iterate", node.iter)
        return node

    def visit_comprehension(self, node: ast.comprehension) -> ast.AST:
        self.generic_visit(node)
        node.iter = _call("iterate", node.iter)
        node.ifs = [_call("decide", cond) for cond in node.ifs]
        return node

    def visit_Dict(self, node: ast.Dict) -> ast.AST:
        self.generic_visit(node)
        node.keys = [
            None if k is None else (k if _constant_key(k) else _call("key", k))
            for k in node.keys
        ]
        return node

    def visit_DictComp(self, node: ast.DictComp) -> ast.AST:
        self.generic_visit(node)
        node.key = _call("key", node.key)
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        if not _constant_key(node.slice):
            node.slice = _call("key", node.slice)
        return node


class Transformer(ast.NodeTransformer):
    """The IPython AST transformer: instruments cells while recording is on."""

    def __init__(self, recorder: Recorder) -> None:
        super().__init__()
        self.recorder = recorder
        self.enabled = False

    def visit(self, node: ast.AST) -> ast.AST:
        if not self.enabled:
            return node
        # The cell's own code only: magics that compile code of their own
        # (`%timeit`, `%time`, `%%timeit`) transform it again, and the replay
        # sees them as magics, not as code that logs.
        self.enabled = False
        node = Instrument().visit(node)
        return ast.fix_missing_locations(node)
