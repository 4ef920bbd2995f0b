"""Loading the `nbsight` extension: `%load_ext` in a shell, and at start in
the kernel of the installed kernelspec; cell ids reach IPython's events."""

from __future__ import annotations

from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

from conftest import Kernel, run


def test_load_ext_in_a_shell(shell: InteractiveShell) -> None:
    run(shell, "%load_ext nbsight")
    assert "nbsight" in shell.extension_manager.loaded
    run(shell, "%unload_ext nbsight")
    assert "nbsight" not in shell.extension_manager.loaded


def test_cell_ids_reach_the_events_in_a_shell(shell: InteractiveShell) -> None:
    seen: list[Any] = []
    shell.events.register("pre_run_cell", lambda info: seen.append(info.cell_id))
    run(shell, "x = 1", cell_id="cell-a")
    run(shell, "y = x", cell_id="cell-b")
    assert seen == ["cell-a", "cell-b"]


def test_shells_are_fresh_per_test(shell: InteractiveShell) -> None:
    # An earlier test in this file defined x and ran cells in its shell.
    assert "x" not in shell.user_ns
    assert shell.execution_count == 1
    assert InteractiveShell.instance() is shell


def test_run_raises_what_kept_a_cell_from_running(shell: InteractiveShell) -> None:
    with pytest.raises(SyntaxError):
        run(shell, "x = (")
    assert run(shell, "1 / 0").error_in_exec is not None


def test_kernel_starts_with_nbsight_loaded(kernel: Kernel) -> None:
    execution = kernel.execute_ok("print(sorted(get_ipython().extension_manager.loaded))")
    assert "'nbsight'" in execution.stdout


def test_kernel_passes_cell_ids_to_run_cell(kernel: Kernel) -> None:
    kernel.execute_ok(
        "seen = []\n"
        "get_ipython().events.register('pre_run_cell', lambda info: seen.append(info.cell_id))"
    )
    kernel.execute_ok("x = 1", cell_id="cell-a")
    kernel.execute_ok("y = x", cell_id="cell-b")
    assert kernel.execute_ok("print(seen)").stdout == "['cell-a', 'cell-b', None]\n"


def test_kernel_messages_are_those_of_the_request(kernel: Kernel) -> None:
    execution = kernel.execute(
        "import sys\n"
        "for i in range(200): print(i)\n"
        "print('to stderr', file=sys.stderr)\n"
        "raise ValueError('boom')"
    )
    assert execution.stdout == "".join(f"{i}\n" for i in range(200))
    assert execution.stderr == "to stderr\n"
    assert execution.reply["status"] == "error"
    assert execution.error is not None and execution.error["ename"] == "ValueError"
    states = [c["execution_state"] for c in execution.of_type("status")]
    assert states == ["busy", "idle"]
    assert execution.messages[-1]["msg_type"] == "status"
