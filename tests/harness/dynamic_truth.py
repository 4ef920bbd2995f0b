"""Dynamic truth for nbsight's per-cell summaries.

Runs real notebooks cell by cell in an IPython shell under a recorder
(`sys.monitoring`, CPython 3.12+), notes every global name each cell's own
code reads, binds and deletes, and compares with `nbsight cells --format
json`:

* a name read by the cell's module-level code, a class body or a
  comprehension it runs, before the cell itself bound it, is in `uses`, or is a builtin name listed in
  `builtins` (also when notebook state shadows it);
* a name read by a function or lambda the cell defines (and calls) is in
  `uses`, `builtins` or the free globals of the cell's functions;
* a name bound or deleted by the cell's code is in `defs` (or, from a
  function's `global`, in a function's `writes`); a star import is stated as
  an import ending in `*`;
* every plain name in `dead` was really bound (or deleted) by a cell that ran
  to its end;
* a cell IPython ran (no error before execution) is no syntax error for
  nbsight.

Only code compiled from the cell itself (and `%time` / `%timeit` code) is
recorded: functions defined in earlier cells are those cells' business.
A cell that fails is compared for what it did before it failed (reads and
writes are still real), never for DEAD.

Usage (see docs/dynamic-truth.md):
  python dynamic_truth.py record NOTEBOOK OUT.json [--data DIR] [--timeout S]
  python dynamic_truth.py compare NBSIGHT OBSERVED_DIR REPORT.md
"""

from __future__ import annotations

import argparse
import builtins
import dis
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile

# IPython's own bookkeeping names in the user namespace.
IPYTHON_NAMES = {
    "_", "__", "___", "_i", "_ii", "_iii", "In", "Out", "_oh", "_ih", "_dh",
    "exit", "quit", "get_ipython", "_exit_code", "__builtins__", "__name__",
    "__doc__", "__package__", "__loader__", "__spec__", "__builtin__",
}
MAGIC_FILES = ("<timed exec>", "<timed eval>", "<magic-timeit>")
READS = {"LOAD_NAME", "LOAD_GLOBAL", "LOAD_FROM_DICT_OR_GLOBALS"}
WRITES = {"STORE_NAME", "STORE_GLOBAL"}
DELETES = {"DELETE_NAME", "DELETE_GLOBAL"}
INTRINSIC_IMPORT_STAR = 2


def is_ipython_name(name: str) -> bool:
    if name in IPYTHON_NAMES:
        return True
    # `_i3`, `_3`: input and output history.
    rest = name.lstrip("_i") if name.startswith("_i") else name.lstrip("_")
    return name.startswith("_") and rest.isdigit()


class Recorder:
    """Notes the global accesses of the current cell's code objects."""

    TOOL = sys.monitoring.DEBUGGER_ID if hasattr(sys, "monitoring") else None

    def __init__(self) -> None:
        self.prefix = ""
        self.codes: dict[int, object] = {}
        self.ops: dict[int, dict[int, tuple[str, object]]] = {}
        self.reset()

    def reset(self) -> None:
        self.reads: dict[str, str] = {}
        self.fn_reads: set[str] = set()
        self.writes: set[str] = set()
        self.fn_writes: set[str] = set()
        self.deletes: set[str] = set()
        self.star = False

    def start(self) -> None:
        mon = sys.monitoring
        mon.use_tool_id(self.TOOL, "nbsight-dynamic-truth")
        mon.register_callback(self.TOOL, mon.events.PY_START, self.on_start)
        mon.register_callback(self.TOOL, mon.events.INSTRUCTION, self.on_instruction)
        mon.set_events(self.TOOL, mon.events.PY_START)

    def begin_cell(self, number: int) -> None:
        mon = sys.monitoring
        for code in self.codes.values():
            mon.set_local_events(self.TOOL, code, 0)
        self.codes.clear()
        self.prefix = f"<ipython-input-{number}-"
        self.reset()
        mon.restart_events()

    def end_cell(self) -> None:
        self.prefix = "\0"

    def accepts(self, code) -> bool:
        name = code.co_filename
        return name.startswith(self.prefix) or name in MAGIC_FILES

    def on_start(self, code, offset):
        if not self.accepts(code):
            return sys.monitoring.DISABLE
        if id(code) not in self.codes:
            self.codes[id(code)] = code
            table = {}
            for ins in dis.get_instructions(code):
                table[ins.offset] = (ins.opname, ins.argval, ins.arg)
            self.ops[id(code)] = table
            sys.monitoring.set_local_events(self.TOOL, code, sys.monitoring.events.INSTRUCTION)
        return None

    def on_instruction(self, code, offset):
        if id(code) not in self.codes:
            return sys.monitoring.DISABLE
        op = self.ops[id(code)].get(offset)
        if op is None:
            return sys.monitoring.DISABLE
        opname, argval, arg = op
        function = code.co_filename not in MAGIC_FILES and (
            code.co_name == "<lambda>"
            or "<locals>" in code.co_qualname
            or (bool(code.co_flags & 0x1) and not code.co_name.startswith("<"))
        )
        if opname in READS:
            frame = sys._getframe(1)
            name = str(argval)
            if opname == "LOAD_NAME" and frame.f_locals is not frame.f_globals:
                if name in frame.f_locals:
                    return None  # a class attribute, or a local of `exec`
                if name == "__name__":
                    return sys.monitoring.DISABLE  # a class body's implicit `__module__`
            if name == "__annotations__" and not function:
                return sys.monitoring.DISABLE  # where `x: int = 1` stores its annotation
            if name in self.writes or name in self.fn_writes or name in self.deletes:
                # Bound by the cell before: not a value from before the cell.
                return sys.monitoring.DISABLE
            if function:
                self.fn_reads.add(name)
            elif name not in self.reads:
                if name in frame.f_globals:
                    self.reads[name] = "namespace"
                elif hasattr(builtins, name):
                    self.reads[name] = "builtin"
                else:
                    self.reads[name] = "missing"
            return sys.monitoring.DISABLE
        if opname in WRITES or opname in DELETES:
            frame = sys._getframe(1)
            if opname.endswith("_NAME") and frame.f_locals is not frame.f_globals:
                return None  # a class attribute
            name = str(argval)
            if name == "__doc__":
                return sys.monitoring.DISABLE  # a docstring-like first statement
            if opname in DELETES:
                self.deletes.add(name)
            elif function:
                self.fn_writes.add(name)
            else:
                self.writes.add(name)
            return sys.monitoring.DISABLE
        if opname == "CALL_INTRINSIC_1" and arg == INTRINSIC_IMPORT_STAR:
            self.star = True
            return sys.monitoring.DISABLE
        return sys.monitoring.DISABLE


class CellTimeout(Exception):
    pass


def no_network(*_args, **_kwargs):
    raise OSError("network disabled by the dynamic-truth harness")


def record(notebook: pathlib.Path, out: pathlib.Path, data: pathlib.Path | None, timeout: int) -> None:
    """Runs every code cell of `notebook` and writes what each cell did."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="nbsight-dt-"))
    if data is not None:
        shutil.copytree(data, workdir, dirs_exist_ok=True)
        os.environ["SEABORN_DATA"] = str(workdir / "seaborn-data")
    os.chdir(workdir)
    sys.path.insert(0, str(workdir))
    os.environ["MPLBACKEND"] = "Agg"
    socket.socket.connect = no_network  # type: ignore[method-assign]
    socket.create_connection = no_network  # type: ignore[assignment]
    socket.getaddrinfo = no_network  # type: ignore[assignment]

    from IPython.core.interactiveshell import InteractiveShell

    # `%matplotlib inline` asks for a GUI event loop a terminal-less shell
    # does not have: plots go to the Agg backend instead.
    InteractiveShell.enable_gui = lambda self, gui=None: None  # type: ignore[method-assign]
    shell = InteractiveShell.instance()
    shell.run_cell("import matplotlib; matplotlib.use('Agg')", store_history=False)

    def alarm(_signum, _frame):
        raise CellTimeout(f"cell ran longer than {timeout} s")

    signal.signal(signal.SIGALRM, alarm)
    recorder = Recorder()
    recorder.start()
    results = []
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(source)
        if not source.strip():
            continue
        before = {k: id(v) for k, v in shell.user_ns.items()}
        recorder.begin_cell(shell.execution_count)
        signal.alarm(timeout)
        try:
            result = shell.run_cell(source, store_history=True, silent=False)
        except BaseException as error:  # noqa: BLE001 - a cell may raise anything
            result = None
            failure = f"{type(error).__name__}: {error}"
        finally:
            signal.alarm(0)
            recorder.end_cell()
        if result is not None:
            if result.error_before_exec is not None:
                status, failure = "not-run", repr(result.error_before_exec)[:200]
            elif result.error_in_exec is not None:
                status, failure = "failed", repr(result.error_in_exec)[:200]
            else:
                status, failure = "ok", None
        else:
            status = "failed"
        after = {k: id(v) for k, v in shell.user_ns.items()}
        changed = sorted(
            k for k in set(before) | set(after)
            if before.get(k) != after.get(k) and not is_ipython_name(k)
        )
        results.append({
            "index": index,
            "status": status,
            "failure": failure,
            "reads": recorder.reads,
            "fn_reads": sorted(recorder.fn_reads),
            "writes": sorted(recorder.writes),
            "fn_writes": sorted(recorder.fn_writes),
            "deletes": sorted(recorder.deletes),
            "star": recorder.star,
            "changed": changed,
        })
    out.write_text(json.dumps({"notebook": str(notebook), "cells": results}, indent=1))
    os.chdir(tempfile.gettempdir())
    shutil.rmtree(workdir, ignore_errors=True)


def root(symbol: str) -> str:
    for i, c in enumerate(symbol):
        if c in ".[":
            return symbol[:i]
    return symbol


def compare_cell(summary: dict, seen: dict) -> list[tuple[str, str]]:
    """The disagreements of one cell: (kind, detail)."""
    out: list[tuple[str, str]] = []
    if seen["status"] == "not-run":
        return out
    if summary.get("errors"):
        first = summary["errors"][0]
        detail = f"{first.get('line')}:{first.get('column')}: {first.get('message')}"
        out.append(("syntax", f"IPython ran the cell; nbsight: {detail}"[:200]))
        return out
    if summary.get("kind") != "code" or "uses" not in summary:
        return out
    uses = {root(s) for s in summary["uses"]}
    builtin_names = set(summary["builtins"])
    defs = {root(s) for s in summary["defs"]}
    fn_reads = set().union(*([{root(s) for s in f["reads"]} for f in summary["functions"].values()] or [set()]))
    fn_writes = set().union(*([{root(s) for s in f["writes"]} for f in summary["functions"].values()] or [set()]))
    magics = bool(summary.get("magics")) or bool(summary.get("cell_magic"))
    for name, where in sorted(seen["reads"].items()):
        if name in uses or name in builtin_names:
            continue
        if name == "get_ipython" and magics:
            continue  # IPython's translation of a magic
        if where == "builtin" and hasattr(builtins, name) and name in builtin_names:
            continue
        out.append(("read", f"{name} ({where})"))
    for name in seen["fn_reads"]:
        if name in uses or name in builtin_names or name in fn_reads or hasattr(builtins, name):
            continue
        if name == "get_ipython":
            continue
        out.append(("function-read", name))
    for name in seen["writes"] + seen["deletes"]:
        if name in defs:
            continue
        out.append(("write", name))
    for name in seen["fn_writes"]:
        if name in defs or name in fn_writes:
            continue
        out.append(("function-write", name))
    if seen["star"] and not any(i.endswith("*") for i in summary.get("imports", [])):
        out.append(("star", "a star import not stated"))
    if seen["status"] == "ok":
        bound = set(seen["writes"]) | set(seen["deletes"]) | set(seen["changed"]) | set(seen["fn_writes"])
        for symbol in summary["dead"]:
            if symbol == root(symbol) and symbol not in bound:
                out.append(("dead", symbol))
    return out


def compare(nbsight: str, observed: pathlib.Path, report: pathlib.Path) -> int:
    lines = ["# Dynamic truth: disagreements", ""]
    counts: dict[str, int] = {}
    cells_run = cells_ok = 0
    for path in sorted(observed.glob("*.json")):
        seen = json.loads(path.read_text())
        notebook = seen["notebook"]
        proc = subprocess.run([nbsight, "cells", notebook, "--format", "json"], capture_output=True, text=True)
        try:
            summaries = {c["index"]: c for c in json.loads(proc.stdout)["cells"]}
        except (json.JSONDecodeError, KeyError):
            lines.append(f"- `{notebook}`: nbsight failed: {proc.stderr.strip()[:200]}")
            counts["nbsight-failed"] = counts.get("nbsight-failed", 0) + 1
            continue
        for cell in seen["cells"]:
            summary = summaries.get(cell["index"])
            if summary is None:
                continue
            cells_run += cell["status"] != "not-run"
            cells_ok += cell["status"] == "ok"
            for kind, detail in compare_cell(summary, cell):
                counts[kind] = counts.get(kind, 0) + 1
                lines.append(f"- `{notebook}` cell {cell['index']}: {kind}: {detail}")
    total = sum(counts.values())
    header = [
        f"cells run: {cells_run} ({cells_ok} to their end); disagreements: {total}",
        "",
        "| kind | count |",
        "|---|---|",
        *[f"| {k} | {v} |" for k, v in sorted(counts.items())],
        "",
    ]
    lines[2:2] = header
    report.write_text("\n".join(lines) + "\n")
    print("\n".join(header))
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("notebook", type=pathlib.Path)
    rec.add_argument("out", type=pathlib.Path)
    rec.add_argument("--data", type=pathlib.Path)
    rec.add_argument("--timeout", type=int, default=30)
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("nbsight")
    cmp_.add_argument("observed", type=pathlib.Path)
    cmp_.add_argument("report", type=pathlib.Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.notebook.resolve(), args.out.resolve(), args.data, args.timeout)
        return 0
    compare(args.nbsight, args.observed, args.report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
