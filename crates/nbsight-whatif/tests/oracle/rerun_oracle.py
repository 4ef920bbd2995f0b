"""The truth for re-run plans, by brute force (standard library only; pandas
and numpy values are compared when a case uses them).

Reads a case as JSON on stdin: {"cells": [...], "history": [i, ...],
"edit": {"cell": i, "source": "..."}}. Runs Run All of the edited notebook
in a fresh namespace and working directory, and then every set of cells that
contains the edited cell, smallest first: each on a kernel of its own that
the history made (the cells run in that order, with the edited cell's old
code, in a fresh namespace and working directory), re-run in notebook order
with the new code. A set reproduces Run All when every cell's output (the one it shows:
its latest run's), the namespace (values and which names share an object)
and the files are the same. Prints the smallest such sets as JSON: a list of
sorted cell lists (several when different sets of that size work).
"""

from __future__ import annotations

import ast
import contextlib
import io
import itertools
import json
import os
import shutil
import sys
import tempfile
import types
from typing import Any


def run_cell(source: str, namespace: dict[str, Any]) -> str:
    """Runs a cell as IPython does (the value of a last expression is
    shown); returns what it shows."""
    out = io.StringIO()
    tree = ast.parse(source)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(tree, "<cell>", "exec"), namespace)
            if last is not None:
                value = eval(compile(last, "<cell>", "eval"), namespace)
                if value is not None:
                    print(repr(value))
        except Exception as error:  # the cell's own error is its output
            print(f"error: {type(error).__name__}")
    return out.getvalue()


def canonical(namespace: dict[str, Any]) -> Any:
    """The namespace's values with object identities numbered in first-seen
    order, so two namespaces compare equal when their values and their
    sharing are the same."""
    ids: dict[int, int] = {}

    def walk(value: Any) -> Any:
        if isinstance(value, (int, float, str, bytes, bool, type(None))):
            return repr(value)
        if isinstance(value, types.ModuleType):
            return ("module", value.__name__)
        if isinstance(value, types.FunctionType):
            code = value.__code__
            return ("function", code.co_code, repr(code.co_consts), code.co_names)
        seen = ids.get(id(value))
        if seen is not None:
            return ("ref", seen)
        ids[id(value)] = len(ids)
        kind = type(value)
        if kind.__module__.startswith("pandas") and hasattr(value, "to_dict"):
            return (kind.__name__, repr(value.to_dict()))
        if kind.__module__.startswith("numpy") and hasattr(value, "tolist"):
            return (kind.__name__, repr(value.tolist()))
        if isinstance(value, (list, tuple)):
            return (type(value).__name__, [walk(v) for v in value])
        if isinstance(value, (set, frozenset)):
            return (type(value).__name__, sorted(repr(v) for v in value))
        if isinstance(value, dict):
            return ("dict", [(repr(k), walk(v)) for k, v in value.items()])
        if isinstance(value, io.IOBase):
            return ("file", getattr(value, "name", None))
        if hasattr(value, "__dict__"):
            return (type(value).__name__, walk(vars(value)))
        return ("object", type(value).__name__)

    return [
        (name, walk(namespace[name]))
        for name in sorted(namespace)
        if not name.startswith("__")
    ]


def files(folder: str) -> dict[str, bytes]:
    found = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, folder)] = f.read()
    # Folders count too (`os.makedirs` changes the state).
    for root, dirs, _ in os.walk(folder):
        for d in dirs:
            found[os.path.relpath(os.path.join(root, d), folder) + "/"] = b""
    return found


class Kernel:
    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="rerun-oracle-")
        self.namespace: dict[str, Any] = {}
        self.shown: dict[int, str] = {}

    def run(self, index: int, source: str) -> None:
        here = os.getcwd()
        os.chdir(self.folder)
        try:
            self.shown[index] = run_cell(source, self.namespace)
        finally:
            os.chdir(here)

    def state(self, cells: int) -> Any:
        return (
            [self.shown.get(i, "") for i in range(cells)],
            canonical(self.namespace),
            files(self.folder),
        )

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def main() -> None:
    case = json.load(sys.stdin)
    old: list[str] = case["cells"]
    edit = case["edit"]
    new = list(old)
    new[edit["cell"]] = edit["source"]
    def replayed() -> Kernel:
        # A fresh kernel for each trial, not a copy of one: a copy would
        # share what `deepcopy` cannot copy (functions and classes, whose
        # globals are the first kernel's namespace).
        kernel = Kernel()
        for h in case["history"]:
            kernel.run(h, old[h])
        return kernel

    truth = Kernel()
    for i, source in enumerate(new):
        truth.run(i, source)
    want = truth.state(len(new))
    truth.close()
    others = [i for i in range(len(new)) if i != edit["cell"]]
    found: list[list[int]] = []
    for size in range(len(others) + 1):
        for subset in itertools.combinations(others, size):
            plan = sorted((*subset, edit["cell"]))
            trial = replayed()
            for i in plan:
                trial.run(i, new[i])
            if trial.state(len(new)) == want:
                found.append(plan)
            trial.close()
        if found:
            break
    json.dump(found, sys.stdout)


if __name__ == "__main__":
    main()
