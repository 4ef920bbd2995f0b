"""The IPython side of nbsight's live mode.

Hooks around every cell run (``pre_run_cell``, ``post_run_cell``, and
``run_code`` to hand each compiled code object of the cell to the tracer),
the ``%nbsight`` magic, block mode's AST guard and the ``nbsight`` comm. The
lineage, staleness, highlights and every text are computed natively by
``nbsight._nbsight.Session``; this module only forwards.

nbsight never changes what user code computes, prints or raises: its own
warnings go to stderr, and if nbsight itself fails during a cell it says so
in one line, stops tracing that cell and lets it run.
"""

from __future__ import annotations

import ast
import os
import sys
from typing import TYPE_CHECKING, Any

from IPython.core.error import InputRejected

from nbsight._nbsight import Session

if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine

    from IPython.core.interactiveshell import ExecutionInfo, ExecutionResult, InteractiveShell

MODES = ("warn", "block", "reactive", "off")
COMM_TARGET = "nbsight"


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
        effects = [p for p in os.environ.get("NBSIGHT_EFFECTS", "").split(os.pathsep) if p]
        self.session = Session(effects)
        self.mode = "warn"
        self.blocked: str | None = None
        self.tracing = False
        self.reacting = False
        self.reactive_run: list[str] = []
        self.cell_id: str | None = None
        self.comms: list[Any] = []
        self._guard = _Guard(self)
        self._run_code: Callable[..., Coroutine[Any, Any, bool]] = shell.run_code

    # ----- installation -------------------------------------------------

    def install(self) -> None:
        shell = self.shell
        shell.events.register("pre_run_cell", self.pre_run_cell)
        shell.events.register("post_run_cell", self.post_run_cell)
        shell.ast_transformers.append(self._guard)
        shell.run_code = self.run_code  # type: ignore[method-assign]
        from nbsight._magic import register_magic

        register_magic(shell, self)
        self._register_comm_target()

    def uninstall(self) -> None:
        shell = self.shell
        for event, hook in (("pre_run_cell", self.pre_run_cell), ("post_run_cell", self.post_run_cell)):
            try:
                shell.events.unregister(event, hook)
            except ValueError:
                pass
        if self._guard in shell.ast_transformers:
            shell.ast_transformers.remove(self._guard)
        shell.run_code = self._run_code  # type: ignore[method-assign]
        self.session.close()

    # ----- the run of a cell --------------------------------------------

    def pre_run_cell(self, info: ExecutionInfo) -> None:
        self.blocked = None
        self.tracing = False
        if self.mode == "off":
            return
        try:
            count = self.shell.execution_count - 1 if info.store_history else None
            cell_id = info.cell_id or str(count if count is not None else self.shell.execution_count)
            pre = self.session.pre_run(cell_id, info.raw_cell or "", count)
            self.tracing = True
            self.cell_id = cell_id
            if pre["warning"] is not None:
                if self.mode == "block":
                    self.blocked = pre["blocked"]
                else:
                    print(pre["warning"], file=sys.stderr, end="", flush=True)
        except Exception as error:  # nbsight's own failure: the cell still runs
            self._fail(error)

    async def run_code(self, code_obj: Any, result: Any = None, *, async_: bool = False) -> bool:
        if self.tracing:
            try:
                self.session.watch(code_obj)
            except Exception as error:
                self._fail(error)
        return await self._run_code(code_obj, result, async_=async_)

    def post_run_cell(self, result: ExecutionResult) -> None:
        if not self.tracing:
            return
        self.tracing = False
        try:
            if result.error_before_exec is not None:
                self.session.abort_run()
                return
            run = self.session.runs()
            self.session.post_run(self.shell.user_ns, result.error_in_exec)
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
            data = msg.get("content", {}).get("data", {})
            if data.get("type") == "sync_notebook":
                cells = [(str(c[0]), str(c[1])) for c in data.get("cells", [])]
                self.session.sync_notebook(cells)
                self._send_highlights()

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
            data: dict[str, Any] = {"type": "highlights", **self.session.status()}
            data["cell_id"] = self.cell_id
            data["warning"] = self.session.last_warning(self.cell_id) if self.cell_id else []
            for comm in list(self.comms):
                comm.send(data)
        except Exception as error:
            print(f"nbsight: cannot send highlights ({error})", file=sys.stderr)
