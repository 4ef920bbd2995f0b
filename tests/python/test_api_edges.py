"""The edges of the live API and of the extension around a cell: bad
arguments raise the documented errors, a malformed comm message is answered
on the comm, nested runs keep the outer cell's identity, no AST transformer
stays registered, block mode never asks to re-run the blocked cell."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

import nbsight
from conftest import run


@pytest.fixture
def ip(shell: InteractiveShell, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[InteractiveShell]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NBSIGHT_HISTORY", "off")
    run(shell, "%load_ext nbsight")
    yield shell
    run(shell, "%unload_ext nbsight")


def test_provenance_of_a_text_that_is_not_a_path_is_a_key_error(ip: InteractiveShell) -> None:
    run(ip, "a = [1, 2]", cell_id="c1")
    with pytest.raises(KeyError):
        nbsight.provenance("a[")
    with pytest.raises(KeyError):
        nbsight.provenance("a +")


def test_record_provenance_takes_a_bool(ip: InteractiveShell) -> None:
    with pytest.raises(TypeError):
        nbsight.record_provenance("on")  # type: ignore[arg-type]
    nbsight.record_provenance(False)


def test_sync_notebook_rejects_duplicate_ids(ip: InteractiveShell) -> None:
    with pytest.raises(ValueError, match="more than once"):
        nbsight.sync_notebook([("c1", "a = 1"), ("c1", "b = 2")])


def test_a_cell_id_that_is_not_a_string_is_used_as_text(ip: InteractiveShell) -> None:
    result = ip.run_cell("x = 1", store_history=True, cell_id=7)  # type: ignore[arg-type]
    assert result.error_in_exec is None
    run(ip, "y = x + 1", cell_id="c2")
    run(ip, "x = 5", cell_id="7")
    assert nbsight.status()["fresh_cells"] == ["c2"]


class FakeComm:
    """Stands in for an ipykernel comm: keeps what nbsight sends."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.handler: Any = None

    def send(self, data: dict[str, Any]) -> None:
        self.sent.append(data)

    def on_msg(self, handler: Any) -> None:
        self.handler = handler

    def on_close(self, handler: Any) -> None:
        pass


@pytest.mark.parametrize(
    "data",
    [
        "not a dict",
        {"type": "sync_notebook", "cells": "c1"},
        {"type": "sync_notebook", "cells": [["c1"]]},
        {"type": "sync_notebook", "cells": [["c1", "a"], ["c1", "b"]]},
        {"type": "notebook_path", "path": 3},
        {"type": "what"},
    ],
)
def test_a_malformed_comm_message_is_answered_on_the_comm(
    ip: InteractiveShell, data: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    live = nbsight._api._current()
    comm = FakeComm()
    live._on_comm_open(comm, {})
    comm.sent.clear()
    comm.handler({"content": {"data": data}})
    assert [m["type"] for m in comm.sent] == ["error"]
    assert comm.sent[0]["message"].startswith("nbsight: ")
    assert "Traceback" not in capsys.readouterr().err


def test_nested_runs_keep_the_outer_cell(ip: InteractiveShell) -> None:
    run(ip, "get_ipython().run_cell('inner = 1')\nouter = inner + 1", cell_id="c1")
    run(ip, "%%capture\nz = 3", cell_id="c2")
    run(ip, "w = outer + z", cell_id="c3")
    status = nbsight.status()
    every = set(status["stale_cells"]) | set(status["fresh_cells"]) | set(status["refresher_cells"])
    assert every <= {"c1", "c2", "c3"}
    assert nbsight.backward_slice("c3")[-1] == "c3"
    assert set(nbsight.backward_slice("c3")) <= {"c1", "c2", "c3"}


def test_no_ast_transformer_is_registered_and_deep_expressions_run(ip: InteractiveShell) -> None:
    """A 1,000-term expression does under nbsight what it does without
    (it runs on 3.12+; 3.10/3.11 cannot compile it, with or without)."""
    assert ip.ast_transformers == []
    source = "+".join(["1"] * 1000)

    def outcome() -> tuple[str | None, object]:
        result = ip.run_cell(source, store_history=True)
        error = result.error_in_exec or result.error_before_exec
        return (type(error).__name__ if error else None, result.result)

    under_nbsight = outcome()
    run(ip, "%unload_ext nbsight")
    assert outcome() == under_nbsight
    run(ip, "%load_ext nbsight")
    if sys.version_info >= (3, 12):
        assert under_nbsight == (None, 1000)


def test_block_mode_never_asks_to_rerun_the_blocked_cell(ip: InteractiveShell) -> None:
    run(ip, "a = 1", cell_id="c1")
    run(ip, "b = a + 1", cell_id="c2")
    run(ip, "c = b * 2", cell_id="c3")
    run(ip, "a = 2", cell_id="c1")
    nbsight.set_mode("block")
    try:
        result = ip.run_cell("c = b * 2", store_history=True, cell_id="c3")
        assert result.error_before_exec is not None
        message = str(result.error_before_exec)
        # A short id is kept, the execution count the notebook shows after it.
        assert re.search(r"re-run cell c2 \[\d+\] first", message) and "cell c3" not in message, message
        assert ip.ast_transformers == []
        assert nbsight.why("c3")["rerun"] == ["c2"]
        # Following the advice clears it.
        run(ip, "b = a + 1", cell_id="c2")
        assert run(ip, "c = b * 2", cell_id="c3").error_in_exec is None
        assert nbsight.status()["stale_cells"] == []
    finally:
        nbsight.set_mode("warn")


def test_a_reactive_rerun_does_not_warn_about_the_cell_it_reruns(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    run(ip, "a = 1", cell_id="c1")
    run(ip, "b = a + 1", cell_id="c2")
    run(ip, "c = b * 2", cell_id="c3")
    nbsight.set_mode("reactive")
    try:
        capsys.readouterr()
        run(ip, "a = 2", cell_id="c1")
        assert nbsight.last_reactive_run() == ["c2", "c3"]
        assert "nbsight: this cell reads stale" not in capsys.readouterr().err
        assert ip.user_ns["c"] == 6
    finally:
        nbsight.set_mode("warn")


def test_the_session_reads_nbsight_effects_as_the_command_line_does(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from nbsight._nbsight import Session, history_location

    missing = tmp_path / "missing.toml"
    monkeypatch.setenv("NBSIGHT_EFFECTS", f"{missing}{os.pathsep}")
    with pytest.raises(RuntimeError, match="missing.toml"):
        Session()
    # Given explicitly, the list wins over the environment.
    assert Session(effects=[]).tracer in ("sys.monitoring", "sys.settrace")
    # The history's default place is the Rust history crate's.
    assert history_location(str(tmp_path / "a" / "nb.ipynb")) == str(
        tmp_path / "a" / ".nbsight" / "nb.sqlite"
    )
    monkeypatch.chdir(tmp_path)
    assert history_location() == str(tmp_path / ".nbsight" / "history.sqlite")


def test_the_answers_have_the_keys_their_types_declare(ip: InteractiveShell) -> None:
    from nbsight import Deps, Provenance, Status, Why
    from nbsight._types import InputRef, StaleRead, SymbolRef, UpdatedAncestor

    nbsight.record_provenance(True)
    run(ip, "a = 4", cell_id="c1")
    run(ip, "b = a * 2", cell_id="c2")
    run(ip, "a = 5", cell_id="c1")
    run(ip, "c = b + 1", cell_id="c3")
    assert set(nbsight.status()) == Status.__required_keys__
    why = nbsight.why("c3")
    assert set(why) == Why.__required_keys__
    assert why["stale"], why
    stale = why["stale"][0]
    assert set(stale) == StaleRead.__required_keys__
    assert stale["updated_ancestor"] is not None
    assert set(stale["updated_ancestor"]) == UpdatedAncestor.__required_keys__
    deps = nbsight.deps("b")
    assert set(deps) == Deps.__required_keys__
    assert deps["parents"] and set(deps["parents"][0]) == SymbolRef.__required_keys__
    provenance = nbsight.provenance("c")
    assert set(provenance) == Provenance.__required_keys__
    assert provenance["where"] and set(provenance["where"][0]) == InputRef.__required_keys__


def test_texts_name_a_front_end_s_long_cell_ids_by_execution_count(ip: InteractiveShell) -> None:
    # JupyterLab's cell ids are UUIDs: the warning names the cell by the
    # execution count shown beside it instead.
    ids = [f"{i}f1b2c3a-0000-4000-8000-00000000000{i}" for i in range(3)]
    run(ip, "a = 1", cell_id=ids[0])
    counted = run(ip, "b = a + 1", cell_id=ids[1]).execution_count
    run(ip, "a = 2", cell_id=ids[0])
    nbsight.set_mode("block")
    try:
        result = ip.run_cell("print(b)", store_history=True, cell_id=ids[2])
        message = str(result.error_before_exec)
        assert f"re-run cell [{counted}] first" in message, message
        assert not any(i in message for i in ids), message
    finally:
        nbsight.set_mode("warn")
