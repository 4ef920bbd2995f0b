"""Fixtures and helpers shared by the Python tests (one file per feature).

- `shell`: a fresh in-process IPython `InteractiveShell` per test; `run(shell,
  code, cell_id=None)` runs a cell in it as a frontend would.
- `kernel`: a real kernel per test, started by jupyter_client from the
  kernelspec that `python -m nbsight install-kernel --prefix` writes;
  `kernel.execute(code, cell_id=None)` runs a cell and returns its messages.
- `nbsight_bin`: the Rust `nbsight` binary, to compare the package with.

Nothing touches the user's real Jupyter or IPython folders: `pytest_configure`
points IPYTHONDIR and every JUPYTER_* folder at a temporary directory before
any test runs, and kernels inherit that environment.

Test files import the helpers with `from conftest import run, Kernel` (the
`pythonpath` setting in pyproject.toml makes this folder importable).
"""

from __future__ import annotations

import atexit
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from IPython.core.interactiveshell import ExecutionResult, InteractiveShell
    from jupyter_client.blocking.client import BlockingKernelClient
    from jupyter_client.manager import KernelManager

ROOT = Path(__file__).resolve().parents[2]
KERNEL_NAME = "python3-nbsight"
# Generous: a kernel's first start imports IPython and ipykernel on a busy
# 2-core machine. Timeouts only bound a hang; no test waits for them.
KERNEL_TIMEOUT = 60.0

_scratch: Path | None = None


def pytest_configure(config: pytest.Config) -> None:
    """Isolate IPython and Jupyter from the user's folders for the session."""
    global _scratch
    _scratch = Path(tempfile.mkdtemp(prefix="nbsight-pytest-"))
    os.environ["IPYTHONDIR"] = str(_scratch / "ipython")
    os.environ["JUPYTER_CONFIG_DIR"] = str(_scratch / "jupyter-config")
    os.environ["JUPYTER_DATA_DIR"] = str(_scratch / "jupyter-data")
    os.environ["JUPYTER_RUNTIME_DIR"] = str(_scratch / "jupyter-runtime")
    # Kernelspecs are found here first (see the `kernelspec` fixture).
    os.environ["JUPYTER_PATH"] = str(_scratch / "prefix" / "share" / "jupyter")
    os.environ["JUPYTER_PLATFORM_DIRS"] = "1"
    # No `python -m nbsight` child may pick the wrong package up from a
    # checkout: the tests run against the installed one.
    os.environ.pop("PYTHONPATH", None)


def pytest_unconfigure(config: pytest.Config) -> None:
    if _scratch is not None:
        shutil.rmtree(_scratch, ignore_errors=True)


# --------------------------------------------------------------------------
# The in-process shell


@pytest.fixture
def shell() -> Iterator[InteractiveShell]:
    """A fresh IPython shell, the only `InteractiveShell` instance during the
    test (IPython's shell is a singleton: `get_ipython()` returns it).

    History is kept in memory. Afterwards the extensions still loaded are
    unloaded (`unload_ipython_extension`: tracers are process-wide), the
    namespace is cleared, the history closed and `sys` (`__main__`, hooks)
    restored, so the next test starts from nothing.
    """
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    InteractiveShell.clear_instance()
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    ip = InteractiveShell.instance(config=config)
    try:
        yield ip
    finally:
        try:
            for extension in sorted(ip.extension_manager.loaded):
                ip.extension_manager.unload_extension(extension)
            ip.atexit_operations()
        finally:
            atexit.unregister(ip.atexit_operations)
            ip.cleanup()
            InteractiveShell.clear_instance()


def run(shell: InteractiveShell, code: str, cell_id: str | None = None) -> ExecutionResult:
    """Runs `code` as one cell, as a frontend does (stored in history, so
    execution counts advance; `cell_id` reaches the `pre_run_cell` and
    `post_run_cell` events as `info.cell_id`). Raises the error that kept the
    cell from running (a syntax error, an input transformer's rejection);
    an exception raised by the cell itself is in the result's
    `error_in_exec`."""
    result = shell.run_cell(code, store_history=True, cell_id=cell_id)
    if result.error_before_exec is not None:
        raise result.error_before_exec
    return result


# --------------------------------------------------------------------------
# A real kernel


@pytest.fixture
def loaded(shell: InteractiveShell) -> Iterator[InteractiveShell]:
    """The `shell` with nbsight loaded (unloaded after the test)."""
    run(shell, "%load_ext nbsight")
    yield shell
    run(shell, "%unload_ext nbsight")


def cells(shell: InteractiveShell, *sources: tuple[str, str]) -> None:
    """Runs `(cell_id, source)` cells in order; each must succeed."""
    for cell_id, source in sources:
        result = run(shell, source, cell_id=cell_id)
        assert result.error_in_exec is None, (cell_id, result.error_in_exec)


def stale_symbols() -> set[str]:
    """The stale symbols `nbsight.status()` reports."""
    import nbsight

    return set(nbsight.status()["stale_symbols"])


@pytest.fixture(scope="session")
def kernelspec() -> str:
    """Installs the nbsight kernelspec with `python -m nbsight install-kernel
    --prefix` into the session's JUPYTER_PATH; returns its name."""
    prefix = Path(os.environ["JUPYTER_PATH"]).parents[1]
    installed = subprocess.run(
        [sys.executable, "-m", "nbsight", "install-kernel", "--prefix", str(prefix)],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stderr
    return KERNEL_NAME


@dataclass
class Execution:
    """What a kernel answered to one execute request."""

    reply: dict[str, Any]
    """The content of the `execute_reply` (`status`, `execution_count`, ...)."""
    messages: list[dict[str, Any]] = field(default_factory=list)
    """The IOPub messages of the request, in order, from `busy` to `idle`."""

    def of_type(self, *msg_types: str) -> list[dict[str, Any]]:
        """The contents of the messages of these types, in order."""
        return [m["content"] for m in self.messages if m["msg_type"] in msg_types]

    def stream(self, name: str = "stdout") -> str:
        return "".join(c["text"] for c in self.of_type("stream") if c["name"] == name)

    @property
    def stdout(self) -> str:
        return self.stream("stdout")

    @property
    def stderr(self) -> str:
        return self.stream("stderr")

    @property
    def error(self) -> dict[str, Any] | None:
        """The `error` message's content (`ename`, `evalue`, `traceback`), if any."""
        errors = self.of_type("error")
        return errors[-1] if errors else None

    @property
    def comm_messages(self) -> list[dict[str, Any]]:
        """`comm_open`, `comm_msg` and `comm_close` messages, whole (header
        and buffers included), in order."""
        return [m for m in self.messages if m["msg_type"].startswith("comm_")]


class Kernel:
    """A kernel started by jupyter_client, and a blocking client to it."""

    def __init__(self, manager: KernelManager, client: BlockingKernelClient) -> None:
        self.manager = manager
        self.client = client

    def execute(
        self, code: str, cell_id: str | None = None, timeout: float = KERNEL_TIMEOUT
    ) -> Execution:
        """Runs `code` as a notebook frontend does and collects what the
        kernel sent for it until it went idle.

        JupyterLab and Notebook send the cell's id as `cellId` in the request's
        metadata; jupyter_client's `execute` cannot, so the request is built
        here. ipykernel (6.22+) passes it on to `run_cell(cell_id=...)`.
        """
        content = {
            "code": code,
            "silent": False,
            "store_history": True,
            "user_expressions": {},
            "allow_stdin": False,
            "stop_on_error": True,
        }
        metadata = {} if cell_id is None else {"cellId": cell_id}
        request = self.client.session.msg("execute_request", content, metadata=metadata)
        self.client.shell_channel.send(request)
        msg_id = request["header"]["msg_id"]
        deadline = time.monotonic() + timeout

        messages = []
        while True:
            message = self._next(self.client.get_iopub_msg, deadline, code)
            if message["parent_header"].get("msg_id") != msg_id:
                continue
            messages.append(message)
            if (
                message["msg_type"] == "status"
                and message["content"]["execution_state"] == "idle"
            ):
                break
        while True:
            reply = self._next(self.client.get_shell_msg, deadline, code)
            if reply["parent_header"].get("msg_id") == msg_id:
                return Execution(reply=reply["content"], messages=messages)

    def execute_ok(self, code: str, cell_id: str | None = None) -> Execution:
        """`execute`, failing the test when the cell raised."""
        execution = self.execute(code, cell_id)
        assert execution.reply["status"] == "ok", execution.error
        return execution

    @staticmethod
    def _next(get: Any, deadline: float, code: str) -> dict[str, Any]:
        try:
            message: dict[str, Any] = get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise TimeoutError(f"the kernel did not finish running {code!r}") from None
        return message


def kernel_manager(kernel_name: str) -> KernelManager:
    """A manager for a kernel of `kernel_name` that talks over Unix sockets
    in the session's scratch folder: TCP ports are picked free and bound
    later, which two test runs side by side (scripts/test runs 3.13 and
    3.11 at once) can race for."""
    from jupyter_client.manager import KernelManager

    global _kernels
    assert _scratch is not None
    folder = _scratch / "ipc"
    folder.mkdir(exist_ok=True)
    _kernels += 1
    return KernelManager(kernel_name=kernel_name, transport="ipc", ip=str(folder / f"k{_kernels}"))


_kernels = 0


@pytest.fixture
def kernel(kernelspec: str) -> Iterator[Kernel]:
    """A fresh kernel of the installed nbsight kernelspec, shut down after the test."""
    manager = kernel_manager(kernelspec)
    manager.start_kernel()
    client = manager.blocking_client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=KERNEL_TIMEOUT)
        yield Kernel(manager, client)
    finally:
        client.stop_channels()
        manager.shutdown_kernel()


# --------------------------------------------------------------------------
# The Rust binary


@pytest.fixture(scope="session")
def nbsight_bin() -> Path:
    """The Rust `nbsight` binary: $NBSIGHT_BIN (scripts/test passes the one
    `cargo test` built), else `cargo build -p nbsight-cli`'s."""
    if os.environ.get("NBSIGHT_BIN"):
        return Path(os.environ["NBSIGHT_BIN"])
    subprocess.run(
        ["cargo", "build", "--quiet", "--locked", "-p", "nbsight-cli", "--bin", "nbsight"],
        cwd=ROOT,
        check=True,
    )
    return ROOT / "target" / "debug" / "nbsight"


# The provenance thesis's listing 2.8 (seed 002), ported to Python 3.
SUM_UP_MULTIPLES = """\
def sumUpMultiples(numbers, factor):
    sum = 0
    i = 0
    numRows = len(numbers)
    while i < numRows:
        n = numbers[i]
        # filtering condition: why provenance
        if n % factor == 0:
            # where provenance
            sum += n
        i = i+1
    return sum
"""
