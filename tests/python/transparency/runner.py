"""Runs one transparency session in a fresh process and records what the user
sees, cell by cell (tests/python/test_transparency.py compares the records of
a plain IPython shell with those of one that loaded nbsight).

A session is a file of cells separated by lines that are exactly ``# %%``
(the percent format); lines before the first separator are the session's
header (comments; ``# allow-warning: CELL SYMBOL[,SYMBOL...]`` says that the
CELL-th cell, counted from 1, truly reads a stale SYMBOL, so nbsight may warn
there).

Each run is a fresh in-process ``InteractiveShell`` in a fresh process. Mode
``plain`` runs ``pass`` as its first cell, mode ``nbsight`` runs
``%load_ext nbsight``, mode ``provenance`` loads nbsight and turns value
provenance recording on in that one cell, so that the session's cells get the
same execution counts in all; all run with ``NBSIGHT_HISTORY=off`` in a new empty working
directory. Per cell the record holds:

- ``stdout``: everything written to ``sys.stdout`` during the cell (prints,
  ``Out[N]:`` results, displays; not tracebacks, see ``tracebacks``);
- ``stderr``: what was written to ``sys.stderr``, without nbsight's own lines
  (a line starting with ``nbsight:`` and the indented lines that follow it),
  which are in ``nbsight``;
- ``results``: the ``text/plain`` of each result the display hook showed,
  ``displays``: the mime types and ``text/plain`` of each ``display()``;
- ``tracebacks``: each traceback IPython showed (its text, ANSI colours
  stripped), ``error``: the error of the run (``error_in_exec`` or
  ``error_before_exec``: type and message), ``success`` and
  ``execution_count``; ``seconds`` (the cell's time) is kept but not
  compared.

The process's own file descriptors 1 and 2 (C-level output, a native crash's
message) are kept too, and how the process ended.

Usage:
    python runner.py run SESSION MODE OUT   one run in this process; OUT gets
                                            one JSON line per cell, written
                                            as each cell ends
    python runner.py serve                  a fork server: IPython (and numpy,
                                            pandas) imported
                                            once, then each request line
                                            ``{"session", "mode", "out"}`` on
                                            stdin runs in a process forked
                                            for it (a fresh process that did
                                            not create a shell or run a cell
                                            yet); answers one JSON line each
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SEPARATOR = "# %%"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
MODES = ("plain", "nbsight", "provenance")
FIRST_CELL = {
    "plain": "pass",
    "nbsight": "%load_ext nbsight",
    # Value provenance recorded for every cell after it (an expression
    # whose value is None: no output, no name bound).
    "provenance": "%load_ext nbsight\n__import__('nbsight').record_provenance(True)",
}
TIMEOUT = 90.0
"""Seconds one run may take (a hang is recorded as a timeout)."""

# The same environment in both modes: nothing in a session may depend on
# the hash seed, the terminal or the number of BLAS threads.
ENVIRONMENT = {
    "NBSIGHT_HISTORY": "off",
    "PYTHONHASHSEED": "0",
    "COLUMNS": "80",
    "LINES": "24",
    "TERM": "dumb",
    "MPLBACKEND": "Agg",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


def parse_session(path: str | Path) -> tuple[list[str], dict[int, set[str]]]:
    """The session's cells, and the stale reads its header allows
    (cell number from 1 -> symbols)."""
    text = Path(path).read_text(encoding="utf-8")
    chunks: list[list[str]] = [[]]
    for line in text.split("\n"):
        if line.rstrip() == SEPARATOR:
            chunks.append([])
        else:
            chunks[-1].append(line)
    header, cells = chunks[0], chunks[1:]
    allowed: dict[int, set[str]] = {}
    for line in header:
        match = re.match(r"#\s*allow-warning:\s*(\d+)\s+(\S+)", line)
        if match:
            allowed.setdefault(int(match.group(1)), set()).update(match.group(2).split(","))
    # A cell ends at the next separator; the blank lines before it are
    # layout, not code.
    return ["\n".join(cell).strip("\n") for cell in cells], allowed


def split_nbsight(text: str) -> tuple[str, list[str]]:
    """Separates nbsight's own lines (a line starting with ``nbsight:`` and
    the indented lines right after it) from the rest of a stream."""
    user: list[str] = []
    ours: list[str] = []
    inside = False
    for line in text.splitlines(keepends=True):
        if line.startswith("nbsight:"):
            inside = True
            ours.append(line.rstrip("\n"))
        elif inside and line.startswith("  "):
            ours.append(line.rstrip("\n"))
        else:
            inside = False
            user.append(line)
    return "".join(user), ours


class Capture(io.StringIO):
    """``sys.stdout`` or ``sys.stderr`` for a whole session (one object, so a
    handler that kept it, like logging's, writes to the right cell)."""

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def isatty(self) -> bool:
        return False


def _error(error: BaseException | None) -> dict[str, str] | None:
    if error is None:
        return None
    kind = type(error)
    return {"type": f"{kind.__module__}.{kind.__qualname__}", "message": str(error)}


def run(session: str, mode: str, out: str) -> None:
    """Runs the session in this process, writing one JSON line per cell."""
    cells, _ = parse_session(session)
    os.environ.update(ENVIRONMENT)
    workdir = tempfile.mkdtemp(prefix="nbsight-transparency-")
    os.chdir(workdir)
    stdout, stderr = Capture(), Capture()
    sys.stdout, sys.stderr = stdout, stderr

    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    config.InteractiveShell.colors = "nocolor"
    shell = InteractiveShell.instance(config=config)

    current: dict[str, Any] = {}

    def show_traceback(etype: Any, evalue: Any, stb: list[str]) -> None:
        text = ANSI.sub("", shell.InteractiveTB.stb2text(stb))
        current["tracebacks"].append(text)

    shell._showtraceback = show_traceback  # type: ignore[method-assign]

    write_format_data = shell.displayhook.write_format_data

    def format_data(format_dict: dict[str, Any], md_dict: Any = None) -> None:
        current["results"].append(format_dict.get("text/plain"))
        write_format_data(format_dict, md_dict)

    shell.displayhook.write_format_data = format_data  # type: ignore[method-assign]

    publish = shell.display_pub.publish

    def publish_display(data: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        current["displays"].append({"mime": sorted(data), "text/plain": data.get("text/plain")})
        publish(data, *args, **kwargs)

    shell.display_pub.publish = publish_display  # type: ignore[method-assign]

    with open(out, "w", encoding="utf-8") as records:
        for index, source in enumerate([FIRST_CELL[mode], *cells]):
            current.clear()
            current.update(tracebacks=[], results=[], displays=[])
            out_start, err_start = len(stdout.getvalue()), len(stderr.getvalue())
            started = time.perf_counter()
            result = shell.run_cell(source, store_history=True)
            seconds = time.perf_counter() - started
            stdout.flush()
            stderr.flush()
            user_err, ours = split_nbsight(stderr.getvalue()[err_start:])
            error = result.error_before_exec or result.error_in_exec
            record = {
                "cell": index,
                "execution_count": result.execution_count,
                "success": result.success,
                "stdout": stdout.getvalue()[out_start:],
                "stderr": user_err,
                "nbsight": ours,
                "results": current["results"],
                "displays": current["displays"],
                "tracebacks": current["tracebacks"],
                "error": _error(error),
                "error_before_exec": result.error_before_exec is not None,
                "seconds": round(seconds, 4),  # not compared
            }
            records.write(json.dumps(record) + "\n")
            records.flush()
    os.chdir(os.path.dirname(workdir))
    shutil.rmtree(workdir, ignore_errors=True)


def _child(request: dict[str, str]) -> None:
    """The forked process: its own fds 1 and 2, no stdin."""
    out = request["out"]
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    for fd, suffix in ((1, ".fd1"), (2, ".fd2")):
        target = os.open(out + suffix, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(target, fd)
        os.close(target)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115
    sys.__stdout__ = sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", 0), write_through=True)  # type: ignore[misc]
    sys.__stderr__ = sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", 0), write_through=True)  # type: ignore[misc]
    run(request["session"], request["mode"], out)


def _wait(pid: int, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    delay = 0.002
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return {"timeout": True, "exit": None, "signal": 9}
        time.sleep(delay)
        delay = min(delay * 2, 0.05)
    if os.WIFSIGNALED(status):
        return {"timeout": False, "exit": None, "signal": os.WTERMSIG(status)}
    return {"timeout": False, "exit": os.WEXITSTATUS(status), "signal": None}


def serve() -> None:
    """The fork server (see the module's doc)."""
    import IPython.core.interactiveshell  # noqa: F401  (imported once, for every child)
    import traitlets.config  # noqa: F401

    # numpy and pandas too, when there (a fifth of the sessions import them:
    # most of their run time): every mode's child starts with them in
    # `sys.modules`, so the modes still differ by nbsight alone.
    for heavy in ("numpy", "pandas"):
        try:
            __import__(heavy)
        except ImportError:
            pass

    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                _child(request)
            except BaseException:  # noqa: BLE001  (reported through fd 2)
                import traceback

                traceback.print_exc()
                code = 70
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code)
        status = _wait(pid, float(request.get("timeout", TIMEOUT)))
        sys.stdout.write(json.dumps(status) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    # The work is done by this file imported as the module `runner`, not as
    # `__main__`: the sessions' `__main__` is IPython's user module, and a
    # user's tracer that follows `__main__` code must not see the runner.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import runner as _runner

    del sys.path[0]
    if sys.argv[1:2] == ["serve"]:
        _runner.serve()
    elif sys.argv[1:2] == ["run"] and len(sys.argv) == 5:
        _runner.run(sys.argv[2], sys.argv[3], sys.argv[4])
        os._exit(0)
    else:
        sys.exit(__doc__)
