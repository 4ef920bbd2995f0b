"""Types of the native module `nbsight._nbsight` (crates/nbsight-python).

Keep in step with the `#[pymodule]` in crates/nbsight-python/src/lib.rs.
"""

from collections.abc import Sequence
from types import CodeType
from typing import Any

from nbsight._types import Deps, PreRun, Provenance, Status, Why

__version__: str
"""The version of the Rust workspace the module was built from."""

def cli_main(argv: Sequence[str]) -> int:
    """Run the nbsight command line on `argv` (`argv[0]` is the program name,
    as in `sys.argv`) and return its exit code: 0 clean, 1 problems found,
    2 usage or input errors. Writes to the process's file descriptors 1 and 2,
    not to `sys.stdout`/`sys.stderr`."""

class Session:
    """A live kernel's lineage and tracer (used by `nbsight._live`; the public
    API is the functions of `nbsight`)."""

    def __init__(self, effects: Sequence[str] | None = None) -> None:
        """`effects`: extra library-effects files (default: NBSIGHT_EFFECTS)."""
    @property
    def tracer(self) -> str:
        """`"sys.monitoring"` (CPython 3.12+) or `"sys.settrace"` (the native
        `PyEval_SetTrace` tracer of 3.10 and 3.11)."""
    def pre_run(
        self,
        cell_id: str,
        source: str,
        execution_count: int | None = None,
        namespace: dict[str, Any] | None = None,
        record: bool = False,
    ) -> PreRun:
        """Starts tracing a run; returns `stale` (symbols), `warning` and
        `blocked` (texts, or None). `namespace`: the globals the cell runs
        in, where run-time subscript indexes are read. `record`: record the
        run's decisions for value provenance (from the interpreter)."""
    def watch(self, code: CodeType) -> None:
        """Traces a module-level code object of the running cell."""
    def post_run(
        self,
        user_ns: dict[str, Any],
        error: BaseException | None = None,
    ) -> str | None:
        """Ends the run and records what it did (and replays its provenance
        events, when recorded); writes it to the history. Returns the line to
        print when the history could not be written (it is then off)."""
    def provenance(self, symbol: str) -> Provenance | None: ...
    def provenance_error(self) -> str | None: ...
    def abort_run(self) -> None: ...
    def sync_notebook(self, cells: Sequence[tuple[str, str]]) -> str | None:
        """The front end's view; the line to print when the history could not
        be written."""
    def open_history(self, path: str, notebook: str | None = None) -> str:
        """Writes the history to the SQLite file at `path` from now on (the
        runs so far included); returns the path. Raises RuntimeError with the
        one line to print when it cannot be written (the history is then
        off)."""
    def close_history(self) -> None: ...
    def history_path(self) -> str | None: ...
    def set_history_notebook(self, notebook: str) -> str | None:
        """Records the notebook of the history's session; the line to print
        when the history could not be written."""
    def status(self) -> Status: ...
    def status_text(self) -> str: ...
    def last_warning(self, cell_id: str) -> list[str]: ...
    def why(self, cell_id: str) -> Why | None: ...
    def why_text(self, cell_id: str) -> str | None: ...
    def deps(self, symbol: str) -> Deps | None: ...
    def deps_text(self, symbol: str) -> str | None: ...
    def graph_json(self, title: str) -> str:
        """The session's cell dependency graph (`nbsight-graph`'s view, JSON)."""
    def backward_slice(self, cell_id: str) -> list[str] | None: ...
    def forward_slice(self, cell_id: str) -> list[str] | None: ...
    def gather(self, cell_id: str, notebook: bool = False) -> str | None: ...
    def runs(self) -> int: ...
    def reactive_next(self, since: int) -> tuple[str, str] | None: ...
    def reset(self) -> None: ...
    def close(self) -> None: ...
    def symbols(self) -> list[str]: ...
    def _last_run_facts_for_tests(self) -> dict[str, Any] | None:
        """For tests: `lines`, `calls` (`(line, callee, caller)`) and
        `function_lines` (`{qualname: lines}`) the tracer gave the last
        recorded run."""

class CompileWatcher:
    """Stands for `compile` in the `codeop` module while nbsight is loaded:
    compiles exactly as `compile` does and hands the code objects of a traced
    cell to the session."""

    def __init__(self, session: Session) -> None: ...
    def set_enabled(self, on: bool) -> None: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

def scan_ipc(
    data: bytes,
    analysis: str,
    column: str,
    id_column: str | None,
    select: Sequence[str] | None,
    ignore: Sequence[str],
    timeout: float | None,
    threads: int | None,
) -> tuple[bytes, str, bytes]:
    """Scan the notebooks of an Arrow IPC stream (`nbsight.scan_batch`):
    the status table, the analysis's table name and that table, as IPC
    streams."""

def scan_json(
    texts: Sequence[str],
    ids: Sequence[str] | None,
    analysis: str,
    select: Sequence[str] | None,
    ignore: Sequence[str],
    timeout: float | None,
    threads: int | None,
) -> tuple[bytes, str, bytes]:
    """`scan_ipc` for notebooks given as nbformat JSON texts."""

def static_graph_json(path: str, cells: Sequence[tuple[str, str]]) -> str:
    """The static cell dependency graph (`nbsight flow`'s, JSON) of the
    notebook at `path` whose cells are `(kind, source)` pairs."""

def history_location(notebook: str | None = None) -> str:
    """The history a kernel writes by default: `.nbsight/<stem>.sqlite`
    beside the notebook, else `.nbsight/history.sqlite` in the working
    directory."""
