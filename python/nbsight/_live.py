"""The IPython side of nbsight's live mode.

Hooks around every cell run (``pre_run_cell``, ``post_run_cell``, and
the shell's compiler, to hand each code object IPython compiles for the
cell to the tracer: nothing of nbsight's is on the stack while user code
runs),
the ``%nbsight`` magic, block mode's AST guard and the ``nbsight`` comm. The
lineage, staleness, highlights and every text are computed natively by
``nbsight._nbsight.Session``; this module only forwards.

nbsight never changes what user code computes, prints or raises: its own
warnings go to stderr, and if nbsight itself fails during a cell it says so
in one line, stops tracing that cell and lets it run.

The history (docs/history.md): each run is written to an SQLite file, by
default ``.nbsight/<notebook>.sqlite`` beside the notebook when the kernel
knows it (``NBSIGHT_NOTEBOOK``, Jupyter Server's ``JPY_SESSION_NAME`` or the
``__session__`` ipykernel puts in the namespace, VS Code's
``__vsc_ipynb_file__``, or a ``notebook_path`` comm message), else
``.nbsight/history.sqlite`` in the working directory; ``NBSIGHT_HISTORY`` (a
path, or ``off``) and ``%nbsight history`` choose another. A history that cannot be written is said once, in
one line, and the kernel goes on without it.
"""

from __future__ import annotations

import ast
import codeop
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from IPython.core.error import InputRejected

from nbsight._nbsight import CompileWatcher, Session
from nbsight._nbsight import history_location as _history_location

if TYPE_CHECKING:
    from IPython.core.interactiveshell import ExecutionInfo, ExecutionResult, InteractiveShell

MODES = ("warn", "block", "reactive", "off")
COMM_TARGET = "nbsight"
HISTORY_ENV = "NBSIGHT_HISTORY"
NOTEBOOK_ENV = "NBSIGHT_NOTEBOOK"
# Names front ends put in the namespace with the notebook's path: VS Code's,
# and ipykernel's copy of Jupyter Server's JPY_SESSION_NAME.
NOTEBOOK_NAMES = ("__vsc_ipynb_file__", "__session__")


def _absolute_notebook(path: str) -> str:
    """A notebook path as a front end or Jupyter Server gave it, made
    absolute: relative to the working directory when it is there, else the
    file of that name in the working directory (Jupyter Server may give a
    path relative to its root; the kernel runs in the notebook's folder)."""
    given = os.path.expanduser(path)
    if os.path.isabs(given):
        return os.path.normpath(given)
    here = os.path.abspath(given)
    if os.path.exists(here):
        return here
    return os.path.abspath(os.path.basename(given))


def notebook_from_env() -> str | None:
    """The notebook this kernel runs, when its environment says:
    ``NBSIGHT_NOTEBOOK``, else Jupyter Server's ``JPY_SESSION_NAME`` (the
    notebook's path, for the kernels it starts)."""
    explicit = os.environ.get(NOTEBOOK_ENV, "").strip()
    if explicit:
        return _absolute_notebook(explicit)
    session = os.environ.get("JPY_SESSION_NAME", "").strip()
    if session.endswith(".ipynb"):
        return _absolute_notebook(session)
    return None


def history_location(notebook: str | None) -> str:
    """The default history file: ``.nbsight/<stem>.sqlite`` beside the
    notebook, else ``.nbsight/history.sqlite`` in the working directory
    (the rule is the Rust history crate's, which the command line uses)."""
    return _history_location(notebook)


class StaleReadError(InputRejected):
    """Raised instead of running a cell that reads stale values (block mode)."""

    def _render_traceback_(self) -> list[str]:
        return [str(self)]


class _Guard(ast.NodeTransformer):
    """An AST transformer that stops a cell block mode does not let run."""

    def __init__(self, live: Live) -> None:
        self.live = live

    def visit(self, node: ast.AST) -> ast.AST:
        message = self.live.blocked
        if message is not None:
            self.live.blocked = None
            raise StaleReadError(message)
        return node


class Live:
    """nbsight loaded into one IPython shell."""

    def __init__(self, shell: InteractiveShell) -> None:
        self.shell = shell
        # Extra effects files come from NBSIGHT_EFFECTS, read in Rust as the
        # command line reads it.
        self.session = Session()
        self.mode = "warn"
        self.blocked: str | None = None
        self.tracing = False
        self.reacting = False
        self.reactive_run: list[str] = []
        # How many cells are running inside one another: a cell that runs
        # another (`get_ipython().run_cell(...)`, `%%capture`) keeps its
        # identity; the inner run is part of it.
        self.depth = 0
        self.cell_id: str | None = None
        self.comms: list[Any] = []
        self.notebook: str | None = notebook_from_env()
        # The namespace's notebook path last seen (NOTEBOOK_NAMES).
        self._namespace_notebook: str | None = None
        # The history's place was chosen (NBSIGHT_HISTORY, %nbsight history):
        # learning the notebook later does not move it.
        self.history_chosen = False
        # A line to say at the start of the next cell (nothing runs yet).
        self._notice: str | None = None
        self._guard = _Guard(self)
        # `%nbsight provenance on`: the native tracer records each cell's
        # decisions from the interpreter (nothing is added to the code).
        self.provenance_on = False
        # Stands for `compile` in `codeop` while nbsight is loaded.
        self._watcher = CompileWatcher(self.session)
        self._codeop_compile: Any = None

    # ----- installation -------------------------------------------------

    def install(self) -> None:
        shell = self.shell
        shell.events.register("pre_run_cell", self.pre_run_cell)
        shell.events.register("post_run_cell", self.post_run_cell)
        # No AST transformer stays registered: IPython runs
        # `ast.fix_missing_locations` over every cell when any is, which
        # changes what deep expressions do. Block mode's guard is added for
        # the one cell that needs it.
        self._watch_compiler()
        self._register_comm_target()
        self._open_history_at_load()

    def uninstall(self) -> None:
        shell = self.shell
        for event, hook in (("pre_run_cell", self.pre_run_cell), ("post_run_cell", self.post_run_cell)):
            try:
                shell.events.unregister(event, hook)
            except ValueError:
                pass
        if self._guard in shell.ast_transformers:
            shell.ast_transformers.remove(self._guard)
        self._unwatch_compiler()
        self.session.close_history()
        self.session.close()

    # ----- the run of a cell --------------------------------------------

    def _transformer(self, transformer: ast.NodeTransformer, on: bool) -> None:
        """Registers `transformer` with the shell (or removes it)."""
        transformers = self.shell.ast_transformers
        if on and transformer not in transformers:
            transformers.append(transformer)
        elif not on and transformer in transformers:
            transformers.remove(transformer)

    def pre_run_cell(self, info: ExecutionInfo) -> None:
        self.depth += 1
        if self.depth > 1:
            # A cell run inside the running one is part of it: its code is
            # not the outer cell's module code.
            self._watcher.set_enabled(False)
            return
        self.blocked = None
        self.tracing = False
        if self._notice is not None:
            print(self._notice, file=sys.stderr, flush=True)
            self._notice = None
        self._notebook_from_namespace()
        if self.mode == "off":
            return
        try:
            count = self.shell.execution_count - 1 if info.store_history else None
            given = getattr(info, "cell_id", None)
            cell_id = str(given) if given not in (None, "") else str(count if count is not None else self.shell.execution_count)
            pre = self.session.pre_run(
                cell_id,
                info.raw_cell or "",
                count,
                self.shell.user_global_ns,
                record=self.provenance_on,
            )
            self.tracing = True
            self._watcher.set_enabled(True)
            self.cell_id = cell_id
            if pre["warning"] is not None:
                if self.mode == "block" and pre["blocked"] is not None:
                    self.blocked = pre["blocked"]
                    self._transformer(self._guard, True)
                elif not self.reacting:
                    # A reactive re-run refreshes the cell: no warning.
                    print(pre["warning"], file=sys.stderr, end="", flush=True)
        except Exception as error:  # nbsight's own failure: the cell still runs
            self._fail(error)

    def _watch_compiler(self) -> None:
        """Stands nbsight's native `CompileWatcher` in for `compile` in the
        `codeop` module, through which IPython compiles each top-level
        statement of a cell: it hands the code objects of a traced cell to
        the session. It is native, so no frame of nbsight's is on the stack
        while a cell compiles or runs (tracebacks, `inspect.stack()` and
        recursion depth unchanged)."""
        self._codeop_compile = codeop.__dict__.get("compile")
        codeop.compile = self._watcher  # type: ignore[attr-defined]

    def _unwatch_compiler(self) -> None:
        if codeop.__dict__.get("compile") is self._watcher:
            if self._codeop_compile is None:
                del codeop.compile  # type: ignore[attr-defined]
            else:
                codeop.compile = self._codeop_compile  # type: ignore[attr-defined]

    def post_run_cell(self, result: ExecutionResult) -> None:
        nested = self.depth > 1
        self.depth = max(0, self.depth - 1)
        self._watcher.set_enabled(self.tracing and self.depth == 1)
        if nested:
            return
        self._transformer(self._guard, False)
        self.blocked = None
        if not self.tracing:
            return
        self.tracing = False
        try:
            if result.error_before_exec is not None:
                self.session.abort_run()
                return
            run = self.session.runs()
            unwritten = self.session.post_run(self.shell.user_ns, result.error_in_exec)
            if unwritten is not None:
                print(unwritten, file=sys.stderr, flush=True)
            # A recorded cell the replay could not follow is said in the
            # answers about what it wrote (`followed`, `reason`), not here:
            # nbsight speaks up only when it helps.
        except Exception as error:
            self._fail(error)
            return
        self._send_highlights()
        if self.mode == "reactive" and not self.reacting:
            self._react(run, failed=result.error_in_exec is not None)

    def _react(self, run: int, failed: bool) -> None:
        """Re-runs, in the same `run_cell`, the cells that read what run
        `run` changed, transitively, each once, in notebook order, stopping at
        the first error."""
        self.reactive_run = []
        if failed:
            return
        self.reacting = True
        try:
            while True:
                following = self.session.reactive_next(run)
                if following is None:
                    break
                cell_id, source = following
                self.reactive_run.append(cell_id)
                outcome = self.shell.run_cell(  # type: ignore[no-untyped-call]
                    source, store_history=False, cell_id=cell_id
                )
                if not outcome.success:
                    break
        except Exception as error:
            self._fail(error)
        finally:
            self.reacting = False

    def _fail(self, error: BaseException) -> None:
        self.tracing = False
        self._watcher.set_enabled(False)
        self._transformer(self._guard, False)
        self.blocked = None
        print(
            f"nbsight: internal error ({type(error).__name__}: {error}); "
            "this cell is not traced, it runs as usual",
            file=sys.stderr,
        )
        try:
            self.session.abort_run()
        except Exception:
            pass

    # ----- the API ------------------------------------------------------

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown nbsight mode {mode!r}: expected one of {', '.join(MODES)}")
        self.mode = mode

    def sync_notebook(self, cells: list[tuple[str, str]]) -> None:
        unwritten = self.session.sync_notebook(cells)
        if unwritten is not None:
            print(unwritten, file=sys.stderr, flush=True)

    # ----- the history --------------------------------------------------

    def _say(self, line: str) -> None:
        """Says `line` on stderr now when a cell is running (its output shows
        it), else at the start of the next cell (a kernel loading nbsight at
        start has no cell to show it under)."""
        if getattr(self.shell.displayhook, "exec_result", None) is not None:
            print(line, file=sys.stderr, flush=True)
        else:
            self._notice = line

    def _notebook_from_namespace(self) -> None:
        """Follows the notebook path a front end put in the namespace
        (NOTEBOOK_NAMES), unless ``NBSIGHT_NOTEBOOK`` names the notebook."""
        if os.environ.get(NOTEBOOK_ENV, "").strip():
            return
        try:
            for name in NOTEBOOK_NAMES:
                value = self.shell.user_ns.get(name)
                if isinstance(value, str) and value.endswith(".ipynb"):
                    if value != self._namespace_notebook:
                        self._namespace_notebook = value
                        self.set_notebook(value)
                    return
        except Exception as error:  # nbsight's own failure: the cell still runs
            self._say(f"nbsight: cannot follow the notebook's path ({error})")

    def _open_history_at_load(self) -> None:
        if not os.environ.get(NOTEBOOK_ENV, "").strip():
            for name in NOTEBOOK_NAMES:
                value = self.shell.user_ns.get(name)
                if isinstance(value, str) and value.endswith(".ipynb"):
                    self._namespace_notebook = value
                    self.notebook = _absolute_notebook(value)
                    break
        chosen = os.environ.get(HISTORY_ENV, "").strip()
        if chosen:
            self.history_chosen = True
            if chosen.lower() != "off":
                self.open_history(os.path.expanduser(chosen))
        else:
            self.open_history(history_location(self.notebook))

    def open_history(self, path: str) -> str | None:
        """Writes the history to `path` from now on (the runs so far
        included); the path, or None when it cannot be written (said once)."""
        try:
            opened: str = self.session.open_history(os.path.abspath(path), self.notebook)
        except RuntimeError as error:
            self._say(str(error))
            return None
        return opened

    def choose_history(self, path: str | None) -> str | None:
        """``%nbsight history PATH|off``: the history goes to `path` (None:
        off), whatever the notebook."""
        self.history_chosen = True
        if path is None:
            self.session.close_history()
            return None
        return self.open_history(path)

    def set_notebook(self, path: str) -> None:
        """The front end says which notebook this kernel runs: the history
        moves beside it, unless its place was chosen."""
        notebook = _absolute_notebook(path)
        if notebook == self.notebook:
            return
        self.notebook = notebook
        if self.history_chosen:
            unwritten = self.session.set_history_notebook(notebook)
            if unwritten is not None:
                self._say(unwritten)
            return
        target = history_location(notebook)
        if self.session.history_path() != target:
            self.open_history(target)

    # ----- the comm -----------------------------------------------------

    def _register_comm_target(self) -> None:
        if getattr(self.shell, "kernel", None) is None:
            return
        try:
            from comm import get_comm_manager
        except ImportError:
            return
        get_comm_manager().register_target(COMM_TARGET, self._on_comm_open)

    def _on_comm_open(self, comm: Any, message: dict[str, Any]) -> None:
        self.comms.append(comm)

        def on_msg(msg: dict[str, Any]) -> None:
            try:
                handle(msg)
            except Exception as error:  # a malformed message: answered on the comm
                try:
                    comm.send({"type": "error", "message": f"nbsight: cannot use this message ({error})"})
                except Exception:
                    pass

        def handle(msg: dict[str, Any]) -> None:
            content = msg.get("content") if isinstance(msg, dict) else None
            data = content.get("data") if isinstance(content, dict) else None
            if not isinstance(data, dict):
                raise ValueError("expected a JSON object with a 'type'")
            kind = data.get("type")
            if kind == "sync_notebook":
                cells = data.get("cells")
                if not isinstance(cells, list) or not all(
                    isinstance(c, (list, tuple)) and len(c) == 2 for c in cells
                ):
                    raise ValueError("'cells' must be a list of [cell_id, source] pairs")
                view = [(str(c[0]), str(c[1])) for c in cells]
                if len({cell_id for cell_id, _ in view}) != len(view):
                    raise ValueError("'cells' names a cell id more than once")
                self.sync_notebook(view)
                self._send_highlights()
            elif kind == "set_mode":
                mode = data.get("mode")
                if not isinstance(mode, str):
                    raise ValueError("'mode' must be a string")
                self.set_mode(mode)
                self._send_highlights()
            elif kind == "graph":
                # The JupyterLab panel's drawing (nbsight.graph()).
                title = self.notebook or "notebook"
                comm.send({"type": "graph", "view": json.loads(self.session.graph_json(title))})
            elif kind == "notebook_path":
                if not isinstance(data.get("path"), str):
                    raise ValueError("'path' must be a string")
                self.set_notebook(data["path"])
            else:
                raise ValueError(f"unknown message type {kind!r}")

        def on_close(msg: dict[str, Any]) -> None:
            if comm in self.comms:
                self.comms.remove(comm)

        comm.on_msg(on_msg)
        comm.on_close(on_close)
        self._send_highlights()

    def _send_highlights(self) -> None:
        if not self.comms:
            return
        try:
            status = self.session.status()
            data: dict[str, Any] = {"type": "highlights", **status}
            data["cell_id"] = self.cell_id
            data["warning"] = self.session.last_warning(self.cell_id) if self.cell_id else []
            data["mode"] = self.mode
            # What the front end says of each stale cell (`nbsight.why`).
            data["why"] = {cell: self.session.why(cell) for cell in status["stale_cells"]}
            for comm in list(self.comms):
                comm.send(data)
        except Exception as error:
            print(f"nbsight: cannot send highlights ({error})", file=sys.stderr)
