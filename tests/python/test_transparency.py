"""nbsight never changes what user code does: everyday sessions
(transparency/sessions/*.py, cells separated by ``# %%``) give the same
outputs, results, displays, errors and tracebacks with nbsight loaded as in a
plain IPython shell.

Each (session, mode) runs in a fresh process (transparency/runner.py: mode
``plain`` is IPython alone, mode ``nbsight`` loads nbsight first with
``NBSIGHT_HISTORY=off``, mode ``provenance`` also records value provenance
for every cell, as ``%nbsight provenance on`` does): each is forked, for that run alone, by one of
a few fork servers (two per core) that imported IPython and nothing else;
every selected session is submitted when the module starts, slowest first,
so the tests mostly wait on work already done.
nbsight's own lines on stderr (``nbsight: ...``) are kept apart: a session
allows a warning only where its header says a read is truly stale
(``# allow-warning: CELL SYMBOL``); any other nbsight line is a defect.

A few sessions also run through real kernels (KERNEL_SESSIONS): the nbsight
kernelspec (the ``kernel`` fixture) against ipykernel's own ``python3``.

A session where nbsight differs today is in DIFFERS, with what differs; it is
an xfail(strict=True), so it fails as soon as nbsight stops differing.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import difflib
import importlib.util
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import KERNEL_TIMEOUT, Kernel, kernel_manager

HERE = Path(__file__).resolve().parent / "transparency"
RUNNER = HERE / "runner.py"
SESSIONS = {path.stem: path for path in sorted((HERE / "sessions").glob("*.py"))}

_spec = importlib.util.spec_from_file_location("transparency_runner", RUNNER)
assert _spec is not None and _spec.loader is not None
runner = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(runner)

# Sessions also run through real kernels.
KERNEL_SESSIONS = [
    "exceptions_uncaught",
    "pandas_groupby",
    "settrace_user",
    "async_await",
    "recursion_depth_reached",
]

# What differs today, per session: {"*" | "<3.12" | ">=3.12": what differs}
# ("<3.12": the sys.settrace tracer; ">=3.12": sys.monitoring).
DIFFERS: dict[str, dict[str, str]] = {
    # The 3.10/3.11 tracer at the recursion limit.
    "recursion_depth_reached": {
        "<3.12": "the deepest recursion reached is one less with the 3.10/3.11 tracer "
        "(`986` -> `985`): CPython 3.11's tracing mode takes one level under any C trace "
        "function (its own `_testcapi.settrace_to_record` in a cell: 989 -> 988)",
    },
    "recursion_error_uncaught": {
        "<3.12": "the RecursionError traceback has one frame less with the 3.10/3.11 tracer",
    },
    # What sys.monitoring shows.
    "monitoring_user_tool": {
        ">=3.12": "sys.monitoring.get_tool(3) is 'nbsight' (None without it): nbsight holds "
        "its tool id while it is loaded",
    },
}


# What differs today with provenance recorded too, beyond DIFFERS.
DIFFERS_RECORDING: dict[str, dict[str, str]] = {}


def _xfail_reason(name: str, differs: dict[str, dict[str, str]] | None = None) -> str | None:
    reasons = (differs if differs is not None else DIFFERS).get(name, {})
    new = sys.version_info >= (3, 12)
    return reasons.get(">=3.12" if new else "<3.12") or reasons.get("*")


def _params(names: list[str], recording: bool = False) -> list[Any]:
    params = []
    for name in names:
        reason = _xfail_reason(name)
        if recording:
            reason = _xfail_reason(name, DIFFERS_RECORDING) or reason
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(name, marks=marks, id=name))
    return params


# Sessions whose runs take longest (big tracebacks; pandas): started first.
SLOW = {
    "recursion_error_uncaught",
    "pandas_errors",
    "pandas_apply",
    "pandas_reshape",
    "pandas_merge",
    "pandas_sort",
    "matplotlib_agg",
}


# --------------------------------------------------------------------------
# Running sessions: fork servers fed by a thread pool


class Servers:
    """Fork servers (runner.py serve), one request at a time each."""

    def __init__(self, count: int, scratch: Path) -> None:
        self.scratch = scratch
        env = dict(os.environ, **runner.ENVIRONMENT, TMPDIR=str(scratch))
        env.pop("PYTHONPATH", None)
        self.processes = [
            subprocess.Popen(
                [sys.executable, str(RUNNER), "serve"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=env,
                cwd=scratch,
            )
            for _ in range(count)
        ]
        self.idle: queue.Queue[subprocess.Popen[str]] = queue.Queue()
        for process in self.processes:
            self.idle.put(process)
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=count)
        self.futures: dict[tuple[str, str], concurrent.futures.Future[dict[str, Any]]] = {}
        self.lock = threading.Lock()

    def submit_all(self, names: list[str]) -> None:
        # The slowest runs first: the pool's last runs are then short ones.
        for name in sorted(names, key=lambda n: n not in SLOW):
            for mode in runner.MODES:
                self.submit(name, mode)

    def submit(self, name: str, mode: str, tag: str = "") -> None:
        with self.lock:
            if (name, mode + tag) not in self.futures:
                self.futures[(name, mode + tag)] = self.pool.submit(self._run, name, mode, tag)

    def result(self, name: str, mode: str, tag: str = "") -> dict[str, Any]:
        self.submit(name, mode, tag)
        return self.futures[(name, mode + tag)].result()

    def _run(self, name: str, mode: str, tag: str = "") -> dict[str, Any]:
        out = self.scratch / f"{name}.{mode}{tag}.jsonl"
        server = self.idle.get()
        try:
            assert server.stdin is not None and server.stdout is not None
            request = {"session": str(SESSIONS[name]), "mode": mode, "out": str(out)}
            server.stdin.write(json.dumps(request) + "\n")
            server.stdin.flush()
            answer = server.stdout.readline()
            if not answer:
                raise RuntimeError(f"the fork server died running {name} ({mode})")
            status = json.loads(answer)
        finally:
            self.idle.put(server)
        return read_run(out, status)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        for process in self.processes:
            if process.stdin is not None:
                process.stdin.close()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def read_run(out: Path, status: dict[str, Any]) -> dict[str, Any]:
    """A run's cells, how its process ended, and its own fds' output (with
    nbsight's lines apart)."""
    cells = []
    if out.exists():
        cells = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line]
    fds = {}
    for fd in ("fd1", "fd2"):
        path = Path(f"{out}.{fd}")
        text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
        fds[fd], fds[f"{fd}_nbsight"] = runner.split_nbsight(text)
    return {"cells": cells, "status": status, **fds}


_servers: Servers | None = None


def servers() -> Servers:
    """The fork servers of this test session, started by the first test that
    needs them."""
    global _servers
    if _servers is None:
        scratch = Path(tempfile.mkdtemp(prefix="nbsight-transparency-"))
        _servers = Servers(max(2, 2 * (os.cpu_count() or 1)), scratch)
        atexit.register(_shutdown)
    return _servers


def _shutdown() -> None:
    global _servers
    if _servers is not None:
        _servers.close()
        shutil.rmtree(_servers.scratch, ignore_errors=True)
        _servers = None


@pytest.fixture(scope="module", autouse=True)
def _runs(request: pytest.FixtureRequest) -> Iterator[None]:
    """Submits, at once, every session a selected test of this file compares
    (so they run while the first tests wait); stops the servers after."""
    selected = [
        item.callspec.params["name"]
        for item in request.session.items
        if isinstance(item, pytest.Function)
        and item.module is request.module
        and item.originalname
        in ("test_session_is_unchanged_by_nbsight", "test_session_is_unchanged_by_recording")
    ]
    if selected:
        servers().submit_all(selected)
    yield
    _shutdown()


# --------------------------------------------------------------------------
# Comparing two runs

FIELDS = (
    "execution_count",
    "success",
    "stdout",
    "stderr",
    "results",
    "displays",
    "tracebacks",
    "error",
    "error_before_exec",
)


def _show(value: Any) -> list[str]:
    """Lines to diff: a text's own lines; a list of texts (tracebacks) each
    under a `[i]` line; anything else as indented JSON."""
    if isinstance(value, str):
        return value.splitlines() or [repr(value)]
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return [line for i, v in enumerate(value) for line in (f"[{i}]", *v.splitlines())]
    return json.dumps(value, indent=1, ensure_ascii=False).splitlines()


def differences(plain: dict[str, Any], nbsight: dict[str, Any], cells: list[str]) -> list[str]:
    """What the user sees differently, field by field, as short diffs."""
    found: list[str] = []

    def diff(where: str, a: Any, b: Any) -> None:
        if a == b:
            return
        lines = list(
            difflib.unified_diff(_show(a), _show(b), "plain", "nbsight", n=1, lineterm="")
        )
        if len(lines) > 40:
            lines = lines[:40] + [f"... ({len(lines) - 40} more diff lines)"]
        found.append(f"{where}:\n  " + "\n  ".join(lines))

    diff("process", plain["status"], nbsight["status"])
    diff("fd 1", plain["fd1"], nbsight["fd1"])
    diff("fd 2", plain["fd2"], nbsight["fd2"])
    a_cells, b_cells = plain["cells"], nbsight["cells"]
    diff("cells recorded", len(a_cells), len(b_cells))
    # Cell 0 is the set-up cell (`pass` / `%load_ext nbsight`).
    for a, b in zip(a_cells, b_cells):
        index = a["cell"]
        label = "set-up cell" if index == 0 else f"cell {index} {cells[index - 1][:40]!r}"
        for key in FIELDS:
            diff(f"{label}: {key}", a[key], b[key])
    return found


def loaded_run(name: str, mode: str = "nbsight") -> dict[str, Any]:
    """The session's run in `mode` (nbsight loaded). The package is reinstalled into the venv
    at times while tests run: a run whose `%load_ext nbsight` failed is
    tried again (up to 4 times, 30 s apart) before the test fails on it."""
    run = servers().result(name, mode)
    for attempt in range(1, 5):
        first = run["cells"][0] if run["cells"] else None
        if first is not None and first["error"] is None:
            return run
        time.sleep(30)
        run = servers().result(name, mode, tag=f"retry{attempt}")
    first = run["cells"][0] if run["cells"] else None
    error = first["error"] if first is not None else run["fd2"][-1000:]
    pytest.fail(f"{name}: %load_ext nbsight failed: {error}")


def unexpected_lines(cells: list[dict[str, Any]], allowed: dict[int, set[str]]) -> list[str]:
    """nbsight's lines in these cell records that are not a warning the
    session allows: a stale read warning naming only symbols the session's
    header allows in that cell (cell numbers from 1; 0 is the set-up cell)."""
    wrong: list[str] = []
    for cell in cells:
        lines = cell["nbsight"]
        if not lines:
            continue
        symbols = allowed.get(cell["cell"])
        if symbols is not None and lines[0].startswith("nbsight: this cell reads stale"):
            named = set(re.findall(r"`([^`]+)`", lines[0]))
            if named <= symbols:
                continue
        wrong.append(f"cell {cell['cell']}: " + "\n    ".join(lines))
    return wrong


def nbsight_lines(run: dict[str, Any], allowed: dict[int, set[str]]) -> list[str]:
    """`unexpected_lines` of a run, and any nbsight line on its own fds."""
    wrong = unexpected_lines(run["cells"], allowed)
    for fd in ("fd1_nbsight", "fd2_nbsight"):
        if run[fd]:
            wrong.append(f"{fd}: " + "\n    ".join(run[fd]))
    return wrong


@pytest.mark.parametrize("name", _params(list(SESSIONS)))
def test_session_is_unchanged_by_nbsight(name: str) -> None:
    assert_unchanged(name, "nbsight")


@pytest.mark.parametrize("name", _params(list(SESSIONS), recording=True))
def test_session_is_unchanged_by_recording(name: str) -> None:
    """The same with value provenance recorded for every cell: the
    recorder reads decisions from the interpreter and changes nothing."""
    assert_unchanged(name, "provenance")


def assert_unchanged(name: str, mode: str) -> None:
    cells, allowed = runner.parse_session(SESSIONS[name])
    plain = servers().result(name, "plain")
    nbsight = loaded_run(name, mode)
    problems = differences(plain, nbsight, cells)
    own = nbsight_lines(nbsight, allowed)
    if own:
        problems.append("nbsight's own lines:\n  " + "\n  ".join(own))
    assert plain["status"] == {"timeout": False, "exit": 0, "signal": None}, plain["fd2"][-2000:]
    assert len(plain["cells"]) == len(cells) + 1, "the plain run did not run every cell"
    assert not problems, f"{name}: nbsight changes what the user sees\n" + "\n".join(problems)


def test_plain_runs_are_deterministic() -> None:
    """Two plain runs of a session see the same (else a difference under
    nbsight would mean nothing): checked on the sessions most likely to
    vary (string sets, threads, frames, warnings, finalizers)."""
    names = [
        "sets_and_strings",
        "threads_futures",
        "inspect_stack_full",
        "warnings_user",
        "del_and_finalizers",
    ]
    for name in names:
        servers().submit(name, "plain", tag="again")
    for name in names:
        cells, _ = runner.parse_session(SESSIONS[name])
        first = servers().result(name, "plain")
        again = servers().result(name, "plain", tag="again")
        assert not differences(first, again, cells), name


# --------------------------------------------------------------------------
# Real kernels

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# ipykernel names a cell's file after the kernel's process id.
IPYKERNEL_FILE = re.compile(r"/ipykernel_\d+/")


def _normalise(text: str) -> str:
    return IPYKERNEL_FILE.sub("/ipykernel_PID/", ANSI.sub("", text))


def kernel_record(kernel: Kernel, cells: list[str]) -> list[dict[str, Any]]:
    records = []
    for index, source in enumerate(cells, start=1):
        execution = kernel.execute(source)
        error = execution.error
        user_err, ours = runner.split_nbsight(execution.stderr)
        records.append(
            {
                "cell": index,
                "status": execution.reply["status"],
                "execution_count": execution.reply.get("execution_count"),
                "stdout": _normalise(execution.stdout),
                "stderr": _normalise(user_err),
                "nbsight": ours,
                "results": [
                    c["data"].get("text/plain") for c in execution.of_type("execute_result")
                ],
                "displays": [
                    {"mime": sorted(c["data"]), "text/plain": c["data"].get("text/plain")}
                    for c in execution.of_type("display_data")
                ],
                "error": None
                if error is None
                else {
                    "ename": error["ename"],
                    "evalue": error["evalue"],
                    "traceback": [_normalise(line) for line in error["traceback"]],
                },
            }
        )
    return records


@pytest.fixture
def history_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NBSIGHT_HISTORY", "off")
    monkeypatch.setenv("PYTHONHASHSEED", "0")
    monkeypatch.setenv("MPLBACKEND", "Agg")


@pytest.fixture
def plain_kernel(history_off: None) -> Iterator[Kernel]:
    """ipykernel's own kernelspec, started before the nbsight kernel (so both
    start at once) and waited for in the test."""
    manager = kernel_manager("python3")
    manager.start_kernel()
    client = manager.blocking_client()
    client.start_channels()
    try:
        yield Kernel(manager, client)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


@pytest.mark.parametrize("session", _params(KERNEL_SESSIONS))
def test_session_in_a_real_kernel(session: str, plain_kernel: Kernel, kernel: Kernel) -> None:
    cells, allowed = runner.parse_session(SESSIONS[session])
    plain_kernel.client.wait_for_ready(timeout=KERNEL_TIMEOUT)
    ours = kernel_record(kernel, cells)
    theirs = kernel_record(plain_kernel, cells)
    problems = []
    for a, b in zip(theirs, ours):
        for key in ("status", "execution_count", "stdout", "stderr", "results", "displays", "error"):
            if a[key] != b[key]:
                lines = difflib.unified_diff(
                    _show(a[key]), _show(b[key]), "plain", "nbsight", n=1, lineterm=""
                )
                problems.append(f"cell {a['cell']} {key}:\n  " + "\n  ".join(list(lines)[:40]))
    own = unexpected_lines(ours, allowed)
    if own:
        problems.append("nbsight's own lines:\n  " + "\n  ".join(own))
    assert not problems, f"{session}: nbsight's kernel differs\n" + "\n".join(problems)
