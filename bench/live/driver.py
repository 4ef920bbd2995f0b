"""One measured process of the live-mode benchmark (run by `bench/live/run`
with the benchmark's own virtualenv; never imported by it).

    driver.py replay NOTEBOOK MODE OUT.jsonl --data DIR --cell-timeout S
    driver.py load MODE OUT.json
    driver.py status OUT.json [--cells 1000 --run 400]

`replay` makes an in-process IPython shell, loads MODE (plain: nothing;
nbsight: `%load_ext nbsight`; nbsight-prov: `%load_ext nbsight` then
`nbsight.record_provenance(True)`; ipyflow: `%load_ext ipyflow`), tells it the
notebook's cells as a front end would (nbsight.sync_notebook; ipyflow's cell
positions), then runs every code cell with
`shell.run_cell(source, store_history=True, cell_id=ID)` and writes one JSON
line per cell: time (perf_counter around run_cell), success, error, and a
fingerprint of what the cell showed (stdout and the displayed result, with
memory addresses and prompt numbers masked). Network access is refused in
the process (socket connect and name lookup raise OSError at once).

Outside each cell's timed `run_cell`: under nbsight, `nbsight.backward_slice`
and `nbsight.forward_slice` of the cell just run are timed (with the slice's
length and the number of distinct cells run so far); under nbsight-prov,
`nbsight.provenance(name)` is timed for each name the cell bound (a name
new in `user_ns`, or bound to another object than before the cell), and the
session's provenance-replay error, if any, is recorded.

nbsight's history is on in every nbsight mode: `NBSIGHT_HISTORY` is set to
`.nbsight/history.sqlite` in the process's own temporary working directory
(never the corpus folder); the file's path and size are recorded at the end.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import sys
import tempfile
import time

NETWORK_MESSAGE = "network access disabled by the benchmark"
NBSIGHT_MODES = ("nbsight", "nbsight-prov")
# At most this many names per cell are asked for their provenance.
PROVENANCE_NAMES_PER_CELL = 20


# ----- the process ---------------------------------------------------------


def block_network() -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(NETWORK_MESSAGE)

    socket.socket.connect = refuse  # type: ignore[method-assign]
    socket.socket.connect_ex = refuse  # type: ignore[method-assign]
    socket.create_connection = refuse  # type: ignore[assignment]
    socket.getaddrinfo = refuse  # type: ignore[assignment]
    socket.gethostbyname = refuse  # type: ignore[assignment]


def make_workdir(data: str | None) -> str:
    """A temporary working directory laid out like the notebooks' own folder:
    `data/*` and `seaborn-data` are symlinks into DATA (read only),
    `helpers_05_08.py` is a copy (06.00 rewrites it with %%file), `images/`
    is where 06.00 saves its figures."""
    work = tempfile.mkdtemp(prefix="nbsight-bench-")
    os.makedirs(os.path.join(work, "data"))
    os.makedirs(os.path.join(work, "images"))
    os.makedirs(os.path.join(work, "sklearn-data"))
    if data:
        src_data = os.path.join(data, "data")
        if os.path.isdir(src_data):
            for name in os.listdir(src_data):
                os.symlink(os.path.join(src_data, name), os.path.join(work, "data", name))
        if os.path.isdir(os.path.join(data, "seaborn-data")):
            os.symlink(os.path.join(data, "seaborn-data"), os.path.join(work, "seaborn-data"))
        for name in os.listdir(data):
            if name.endswith(".py"):
                shutil.copy(os.path.join(data, name), os.path.join(work, name))
    os.environ["SEABORN_DATA"] = os.path.join(work, "seaborn-data")
    os.environ["SCIKIT_LEARN_DATA"] = os.path.join(work, "sklearn-data")
    os.environ["IPYTHONDIR"] = os.path.join(work, ".ipython")
    # nbsight's history ON, in this process's own temporary directory: never
    # beside the (read-only) notebook, whatever the caller's environment says.
    os.environ["NBSIGHT_HISTORY"] = os.path.join(work, ".nbsight", "history.sqlite")
    os.environ.pop("NBSIGHT_NOTEBOOK", None)
    os.environ.pop("JPY_SESSION_NAME", None)
    os.chdir(work)
    # A kernel has its working directory on sys.path (01.07 imports the
    # module it writes with %%file, 05.08 imports helpers_05_08).
    # (in place of this script's own folder).
    sys.path[0] = work
    return work


def make_shell():  # type: ignore[no-untyped-def]
    """The in-process shell, with the two things a Jupyter kernel's shell
    differs in that the notebooks need: `enable_gui` does nothing (so that
    `%matplotlib inline` works, as in ipykernel), and `%timeit`/`%%timeit`
    run their statement once (`-n 1 -r 1`) instead of for timeit's own
    time budget, so that those cells take the time of their code, under
    every mode alike."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.enable_gui = lambda gui=None: None
    magics = shell.magics_manager.magics
    original = shell.magics_manager.registry["ExecutionMagics"].timeit
    for kind in ("line", "cell"):

        def once(line="", cell=None, local_ns=None, _original=original):  # type: ignore[no-untyped-def]
            return _original("-n 1 -r 1 " + line, cell, local_ns)

        once.needs_local_scope = True  # type: ignore[attr-defined]
        magics[kind]["timeit"] = once
    return shell


def load_mode(shell, mode: str) -> float:  # type: ignore[no-untyped-def]
    """Loads MODE into SHELL; returns the seconds `%load_ext` took."""
    if mode == "plain":
        return 0.0
    t0 = time.perf_counter()
    shell.run_line_magic("load_ext", "nbsight" if mode in NBSIGHT_MODES else mode)
    if mode == "nbsight-prov":
        import nbsight

        nbsight.record_provenance(True)
    elapsed = time.perf_counter() - t0
    if mode in NBSIGHT_MODES:
        from nbsight import _api

        if not _api._loaded:
            raise SystemExit("driver: %load_ext nbsight did not load nbsight")
        if mode == "nbsight-prov" and not next(iter(_api._loaded.values())).provenance_on:
            raise SystemExit("driver: nbsight.record_provenance(True) did not turn recording on")
    elif mode == "ipyflow":
        if "IPyflow" not in type(shell).__name__ and "ipyflow" not in type(shell).__module__:
            raise SystemExit(f"driver: %load_ext ipyflow did not load ipyflow (shell is {type(shell)})")
    return elapsed


def sync_cells(mode: str, cells: list[tuple[str, str]]) -> float:
    """What a front end tells the kernel about the notebook, once, before the
    first run: nbsight.sync_notebook, or ipyflow's cell positions (without
    them ipyflow's checker fails on string cell ids in a plain shell)."""
    t0 = time.perf_counter()
    if mode in NBSIGHT_MODES:
        import nbsight

        nbsight.sync_notebook(cells)
    elif mode == "ipyflow":
        from ipyflow.data_model.cell import Cell

        Cell.set_cell_positions({cell_id: i for i, (cell_id, _) in enumerate(cells)})
    return time.perf_counter() - t0


def traced_symbols(mode: str) -> int | None:
    """How many symbols the tool knows after the run (proof it traced)."""
    try:
        if mode in NBSIGHT_MODES:
            from nbsight import _api

            live = next(iter(_api._loaded.values()))
            return len(live.session.symbols())
        if mode == "ipyflow":
            import ipyflow

            return sum(1 for _ in ipyflow.flow().all_symbols())
    except Exception as error:  # noqa: BLE001
        print(f"driver: cannot count {mode}'s symbols: {error!r}", file=sys.__stderr__)
    return None


def history_facts(mode: str) -> dict | None:  # type: ignore[type-arg]
    """Where nbsight's history went and how big it is (file + WAL)."""
    if mode not in NBSIGHT_MODES:
        return None
    try:
        import nbsight

        path = nbsight.history_path()
    except Exception as error:  # noqa: BLE001
        return {"path": None, "error": repr(error)}
    facts: dict = {"path": path, "wanted": os.environ.get("NBSIGHT_HISTORY")}  # type: ignore[type-arg]
    if path:
        facts["bytes"] = sum(
            os.path.getsize(path + suffix) for suffix in ("", "-wal") if os.path.exists(path + suffix)
        )
        facts["exists"] = os.path.exists(path)
    return facts


# ----- slices and provenance, outside the cells' timing ----------------------

_IPYTHON_NAMES = {"In", "Out", "exit", "quit", "get_ipython"}


def bindings(user_ns: dict) -> dict[str, int]:  # type: ignore[type-arg]
    return {k: id(v) for k, v in user_ns.items() if not k.startswith("_") and k not in _IPYTHON_NAMES}


def time_slices(cell_id: str, executed: int) -> dict:  # type: ignore[type-arg]
    """Times nbsight.backward_slice / forward_slice of the cell just run."""
    import nbsight

    out: dict = {"executed": executed}  # type: ignore[type-arg]
    for key, fn in (("backward", nbsight.backward_slice), ("forward", nbsight.forward_slice)):
        t = time.perf_counter()
        try:
            cells = fn(cell_id)
            out[key + "_seconds"] = time.perf_counter() - t
            out[key + "_len"] = len(cells)
        except Exception as error:  # noqa: BLE001
            out[key + "_seconds"] = time.perf_counter() - t
            out[key + "_error"] = describe(error)
    return out


def time_provenance(names: list[str]) -> list[dict]:  # type: ignore[type-arg]
    """Times nbsight.provenance(name) for each name the cell bound."""
    import nbsight

    found = []
    for name in names[:PROVENANCE_NAMES_PER_CELL]:
        t = time.perf_counter()
        try:
            report = nbsight.provenance(name)
            found.append(
                {
                    "name": name,
                    "seconds": time.perf_counter() - t,
                    "where": len(report.get("where", ())),
                    "why": len(report.get("why", ())),
                    "files": len(report.get("files", ())),
                    "recorded": report.get("recorded"),
                }
            )
        except Exception as error:  # noqa: BLE001
            found.append({"name": name, "seconds": time.perf_counter() - t, "error": describe(error)})
    return found


def provenance_error() -> str | None:
    try:
        from nbsight import _api

        return next(iter(_api._loaded.values())).session.provenance_error()
    except Exception as error:  # noqa: BLE001
        return f"driver: cannot ask provenance_error: {error!r}"


# ----- fingerprints ----------------------------------------------------------

_ADDRESS = re.compile(r"0x[0-9a-fA-F]{4,}")
_PROMPT = re.compile(r"Out\[\d+\]")


def mask(text: str) -> str:
    return _PROMPT.sub("Out[?]", _ADDRESS.sub("0x?", text))


def fingerprint(stdout: str, result) -> str:  # type: ignore[no-untyped-def]
    parts = [mask(stdout)]
    if result.error_before_exec is not None:
        parts.append("error_before_exec: " + describe(result.error_before_exec))
    if result.error_in_exec is not None:
        parts.append("error_in_exec: " + describe(result.error_in_exec))
    if result.result is not None:
        try:
            parts.append("result: " + mask(repr(result.result)))
        except Exception as error:  # noqa: BLE001
            parts.append(f"result: <repr failed: {type(error).__name__}>")
    return hashlib.sha256("\n\x00".join(parts).encode("utf-8", "replace")).hexdigest()[:16]


def describe(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {mask(text[0]) if text else ''}"[:300]


# ----- replay ----------------------------------------------------------------


class CellTimeout(Exception):
    pass


def _on_alarm(signum, frame):  # type: ignore[no-untyped-def]
    raise CellTimeout("cell timed out (benchmark --cell-timeout)")


def code_cells(path: str) -> list[tuple[str, str]]:
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    cells = []
    for index, cell in enumerate(c for c in nb["cells"] if c.get("cell_type") == "code"):
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(source)
        cells.append((str(cell.get("id") or f"cell{index}"), source))
    return cells


def replay(args: argparse.Namespace) -> None:
    out = open(args.out, "w", encoding="utf-8")

    def emit(record: dict) -> None:  # type: ignore[type-arg]
        out.write(json.dumps(record) + "\n")
        out.flush()

    cells = code_cells(args.notebook)
    work = make_workdir(args.data)
    block_network()
    real_stderr = sys.__stderr__
    assert real_stderr is not None
    t0 = time.perf_counter()
    shell = make_shell()
    shell_seconds = time.perf_counter() - t0
    load_seconds = load_mode(shell, args.mode)
    sync_seconds = sync_cells(args.mode, cells)
    emit(
        {
            "kind": "start",
            "mode": args.mode,
            "notebook": args.notebook,
            "cells": len(cells),
            "shell_seconds": shell_seconds,
            "load_seconds": load_seconds,
            "sync_seconds": sync_seconds,
            "pid": os.getpid(),
        }
    )
    signal.signal(signal.SIGALRM, _on_alarm)
    skip = dict(item.split("=", 1) for item in args.skip)
    executed: set[str] = set()
    for index, (cell_id, source) in enumerate(cells):
        if cell_id in skip:
            emit({"kind": "cell", "index": index, "id": cell_id, "skipped": skip[cell_id]})
            continue
        print(f"### cell {cell_id}", file=real_stderr, flush=True)
        before = bindings(shell.user_ns) if args.mode == "nbsight-prov" else None
        captured_out, captured_err = io.StringIO(), io.StringIO()
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = captured_out, captured_err
        signal.setitimer(signal.ITIMER_REAL, args.cell_timeout)
        t = time.perf_counter()
        try:
            result = shell.run_cell(source, store_history=True, cell_id=cell_id)
        finally:
            elapsed = time.perf_counter() - t
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.stdout, sys.stderr = saved
        # IPython runs nothing for a blank cell (no pre/post_run_cell): no
        # execution for nbsight to know, so not counted and not sliced.
        blank = not source.strip()
        if not blank:
            executed.add(cell_id)
        stdout, stderr = captured_out.getvalue(), captured_err.getvalue()
        # Outside the cell's timing (and with nbsight's output to stderr
        # still captured, so that it does not count as the cell's).
        extra: dict = {}  # type: ignore[type-arg]
        extra_err = io.StringIO()
        sys.stdout, sys.stderr = io.StringIO(), extra_err
        signal.setitimer(signal.ITIMER_REAL, args.cell_timeout)
        try:
            if args.mode == "nbsight" and not blank:
                extra["slice"] = time_slices(cell_id, len(executed))
            elif args.mode == "nbsight-prov":
                after = bindings(shell.user_ns)
                bound = sorted(k for k, v in after.items() if before.get(k) != v)  # type: ignore[union-attr]
                extra["bound"] = len(bound)
                # The first question replays the cell (the replay waits for
                # one): timed on its own, before the queries.
                t_replay = time.perf_counter()
                extra["provenance_error"] = provenance_error()
                extra["replay_seconds"] = time.perf_counter() - t_replay
                extra["provenance"] = time_provenance(bound)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.stdout, sys.stderr = saved
        if extra_err.getvalue():
            real_stderr.write("### after cell (slice/provenance calls): " + extra_err.getvalue().rstrip("\n") + "\n")
        if stderr:
            real_stderr.write(stderr if stderr.endswith("\n") else stderr + "\n")
            real_stderr.flush()
        error = result.error_before_exec or result.error_in_exec
        emit(
            {
                **extra,
                "kind": "cell",
                "index": index,
                "id": cell_id,
                "seconds": elapsed,
                "ok": bool(result.success),
                "error": describe(error) if error is not None else None,
                "timeout": isinstance(error, CellTimeout),
                "network": error is not None and NETWORK_MESSAGE in str(error),
                "fingerprint": fingerprint(stdout, result),
                "nbsight_lines": [line for line in stderr.splitlines() if line.startswith("nbsight:")],
                "stderr_chars": len(stderr),
            }
        )
    if args.mode == "nbsight":
        # Once the whole notebook has run: every cell's slices again (a
        # forward slice right after its cell ran in notebook order can hold
        # only that cell).
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
        try:
            for cell_id in [c for c, _ in cells if c in executed]:
                emit({"kind": "slice_at_end", "id": cell_id, **time_slices(cell_id, len(executed))})
        finally:
            sys.stdout, sys.stderr = saved
    emit({"kind": "end", "symbols": traced_symbols(args.mode), "history": history_facts(args.mode)})
    out.close()
    os.chdir("/")
    shutil.rmtree(work, ignore_errors=True)
    # Skip interpreter teardown (atexit hooks of matplotlib, ipyflow, ...):
    # nothing of it is measured.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


# ----- the cost of loading ---------------------------------------------------


def probe_tracing(shell, mode: str) -> bool:  # type: ignore[no-untyped-def]
    """After loading: does the tool see that `b` was computed from `a`?"""
    if mode == "plain":
        return True
    cells = [("p0", "a = 1"), ("p1", "b = a + 1")]
    asked = ("p2", "import ipyflow\n_probe = [str(s) for s in ipyflow.deps(b)]")
    sync_cells(mode, cells + [asked] if mode == "ipyflow" else cells)
    for cell_id, source in cells:
        shell.run_cell(source, store_history=True, cell_id=cell_id)
    if mode in NBSIGHT_MODES:
        import nbsight

        parents = [p["symbol"] for p in nbsight.deps("b")["parents"]]
        return parents == ["a"]
    # ipyflow's deps() finds its argument's symbol from the traced call, so
    # it is asked from a cell
    shell.run_cell(asked[1], store_history=True, cell_id=asked[0])
    return shell.user_ns.get("_probe") == ["a"]


def load(args: argparse.Namespace) -> None:
    make_workdir(None)
    block_network()
    t0 = time.perf_counter()
    shell = make_shell()
    shell_seconds = time.perf_counter() - t0
    load_seconds = load_mode(shell, args.mode)
    traced = probe_tracing(shell, args.mode)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(
            {
                "mode": args.mode,
                "shell_seconds": shell_seconds,
                "load_seconds": load_seconds,
                "traced": traced,
                "history": history_facts(args.mode),
            },
            f,
        )
    os._exit(0)


# ----- status() on a 1,000-cell notebook -------------------------------------


def synthetic_cells(n: int, seed: int = 0) -> list[tuple[str, str]]:
    """N varied cells, each reading names that earlier cells set: plain
    assignments, functions, lists, dicts, classes, comprehensions, loops that
    update an earlier name (which makes its readers stale)."""
    rng = random.Random(seed)
    cells = []
    for i in range(n):
        a = rng.randrange(i) if i else 0
        b = rng.randrange(i) if i else 0
        kind = 0 if i < 2 else i % 8
        if kind == 0:
            src = f"v{i} = {i}"
        elif kind == 1:
            src = f"v{i} = v{a} + v{b}"
        elif kind == 2:
            src = f"def f{i}(x):\n    return x + v{a}\n\nv{i} = f{i}(v{b})"
        elif kind == 3:
            src = f"l{i} = [v{a}, v{b}]\nl{i}.append({i})\nv{i} = sum(l{i})"
        elif kind == 4:
            src = f"d{i} = {{'k': v{a}}}\nd{i}['j'] = v{b}\nv{i} = len(d{i}) + d{i}['k']"
        elif kind == 5:
            src = f"class C{i}:\n    attr = v{a}\n\nv{i} = C{i}.attr + 1"
        elif kind == 6:
            src = f"v{i} = sum(v{a} * k for k in range(3))"
        else:
            src = f"for _k in range(2):\n    v{a} = v{a} + 0\nv{i} = v{a} + v{b}"
        cells.append((f"s{i}", src))
    return cells


def status(args: argparse.Namespace) -> None:
    make_workdir(None)
    block_network()
    shell = make_shell()
    load_mode(shell, "nbsight")
    import nbsight

    cells = synthetic_cells(args.cells)
    t0 = time.perf_counter()
    nbsight.sync_notebook(cells)
    sync_seconds = time.perf_counter() - t0
    # Run the first RUN cells in order, then re-run a few early ones, so that
    # many later cells read stale values.
    rng = random.Random(1)
    order = list(range(args.run)) + sorted(rng.sample(range(args.run // 4), 10))
    run_seconds = []
    failures = 0
    for index in order:
        cell_id, source = cells[index]
        captured = io.StringIO()
        saved = sys.stderr
        sys.stderr = captured
        t = time.perf_counter()
        result = shell.run_cell(source, store_history=True, cell_id=cell_id)
        run_seconds.append(time.perf_counter() - t)
        sys.stderr = saved
        failures += 0 if result.success else 1
    times = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        st = nbsight.status()
        times.append(time.perf_counter() - t)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(
            {
                "cells": len(cells),
                "runs": len(order),
                "failed_runs": failures,
                "sync_seconds": sync_seconds,
                "run_cell_median_seconds": statistics.median(run_seconds),
                "status_seconds": times,
                "stale_cells": len(st["stale_cells"]),
                "fresh_cells": len(st["fresh_cells"]),
                "stale_symbols": len(st["stale_symbols"]),
                "history": history_facts("nbsight"),
            },
            f,
        )
    os._exit(0)


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay")
    p.add_argument("notebook")
    p.add_argument("mode", choices=("plain", "nbsight", "nbsight-prov", "ipyflow"))
    p.add_argument("out")
    p.add_argument("--data")
    p.add_argument("--cell-timeout", type=float, default=300.0)
    p.add_argument("--skip", action="append", default=[], metavar="CELL_ID=REASON", help="a cell not to run")
    p.set_defaults(func=replay)
    p = sub.add_parser("load")
    p.add_argument("mode", choices=("plain", "nbsight", "nbsight-prov", "ipyflow"))
    p.add_argument("out")
    p.set_defaults(func=load)
    p = sub.add_parser("status")
    p.add_argument("out")
    p.add_argument("--cells", type=int, default=1000)
    p.add_argument("--run", type=int, default=400)
    p.add_argument("--repeat", type=int, default=50)
    p.set_defaults(func=status)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
