"""Live lineage in a real kernel (the installed "Python 3 (nbsight)"
kernelspec), as a front end sees it: the warning before a stale read as
one short block on stderr, block mode's error, and the `nbsight` comm that
carries the highlights after every execution and takes `sync_notebook`."""

from __future__ import annotations

import uuid
from typing import Any

from conftest import Kernel


def open_comm(kernel: Kernel, data: dict[str, Any] | None = None) -> str:
    comm_id = uuid.uuid4().hex
    content = {"comm_id": comm_id, "target_name": "nbsight", "data": data or {}}
    message = kernel.client.session.msg("comm_open", content)
    kernel.client.shell_channel.send(message)
    return comm_id


def highlights(execution: Any, comm_id: str) -> list[dict[str, Any]]:
    return [
        m["content"]["data"]
        for m in execution.comm_messages
        if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == comm_id
    ]


def test_a_stale_read_warns_in_one_short_block(kernel: Kernel) -> None:
    kernel.execute_ok("a = 4", cell_id="c1")
    kernel.execute_ok("b = a", cell_id="c2")
    kernel.execute_ok("c = a + b", cell_id="c3")
    kernel.execute_ok("a = 5", cell_id="c1")
    execution = kernel.execute_ok("c = a + b\nprint('ran', c)", cell_id="c3")
    assert execution.stdout == "ran 9\n"  # the stale b: 5 + 4
    warning = execution.stderr
    assert warning.startswith("nbsight: this cell reads stale `b`:"), warning
    assert "re-run cell c2" in warning
    assert "Traceback" not in warning and len(warning.splitlines()) <= 4
    check = kernel.execute_ok("import nbsight; print(nbsight.last_warning('c3'))")
    assert check.stdout == "['b']\n"


def test_block_mode_answers_with_one_clear_error(kernel: Kernel) -> None:
    kernel.execute_ok("a = 1", cell_id="c1")
    kernel.execute_ok("b = a", cell_id="c2")
    kernel.execute_ok("a = 2", cell_id="c1")
    kernel.execute_ok("%nbsight mode block")
    execution = kernel.execute("print(b)", cell_id="c3")
    assert execution.reply["status"] == "error"
    error = execution.error
    assert error is not None and error["ename"] == "StaleReadError"
    assert "re-run cell c2" in error["evalue"]
    assert execution.stdout == ""


def test_the_comm_carries_highlights_and_takes_the_notebook(kernel: Kernel) -> None:
    comm_id = open_comm(kernel)
    kernel.execute_ok("a = 4", cell_id="c1")
    kernel.execute_ok("b = a", cell_id="c2")
    sync = {
        "type": "sync_notebook",
        "cells": [["c1", "a = 4"], ["c2", "b = a"], ["c3", "c = a + b"]],
    }
    message = kernel.client.session.msg("comm_msg", {"comm_id": comm_id, "data": sync})
    kernel.client.shell_channel.send(message)
    execution = kernel.execute_ok("a = 5", cell_id="c1")
    sent = highlights(execution, comm_id)
    assert sent, execution.comm_messages
    last = sent[-1]
    assert last["type"] == "highlights"
    assert last["cell_id"] == "c1"
    assert last["fresh_cells"] == ["c2"]
    assert last["stale_cells"] == ["c3"]
    assert last["refresher_cells"] == ["c2"]
    assert last["stale_symbols"] == ["b"]
    # What the front end shows of the stale cell, and the mode it shows.
    assert last["mode"] == "warn"
    why = last["why"]["c3"]
    assert why["cell"] == "c3" and why["rerun"] == ["c2"]
    assert [read["symbol"] for read in why["stale"]] == ["b"]
    assert why["stale"][0]["updated_ancestor"]["symbol"] == "a"


def test_the_comm_sets_the_mode(kernel: Kernel) -> None:
    comm_id = open_comm(kernel)
    kernel.execute_ok("a = 1", cell_id="c1")
    data = {"type": "set_mode", "mode": "block"}
    message = kernel.client.session.msg("comm_msg", {"comm_id": comm_id, "data": data})
    kernel.client.shell_channel.send(message)
    execution = kernel.execute_ok("%nbsight mode", cell_id="c2")
    assert execution.stdout.strip() == "nbsight mode: block"
    sent = highlights(execution, comm_id)
    assert sent and sent[-1]["mode"] == "block"
