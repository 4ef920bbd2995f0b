"""The history that outlives the kernel (docs/history.md): a session run in
an in-process IPython shell and one in a real kernel that is then killed,
read back by the `nbsight` binary (`history`, `slice --history`,
`provenance`), whose answers must be the ones the live session gave; where
the file goes (beside the notebook the front end names, under the working
directory otherwise, where NBSIGHT_HISTORY says); and a history that cannot
be written: said once, in one line, and the cells run."""

from __future__ import annotations

import json
import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

import nbsight
from conftest import KERNEL_TIMEOUT, SUM_UP_MULTIPLES, Kernel, kernel_manager, run


# A session: sumUpMultiples over a list an earlier cell defines, a value
# re-set, a failed run, a dict pipeline, a run after recording is off.
CELLS: list[tuple[str, str]] = [
    ("c1", "numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"),
    ("c2", SUM_UP_MULTIPLES),
    ("c3", "factor = 3\ntotal = sumUpMultiples(numbers, factor)\ntotal"),
    ("c4", "scale = 2"),
    ("c5", "scaled = total * scale"),
    ("c4", "scale = 10"),
    ("c6", "broken = scaled + missing_name"),
    ("c7", "d = {'a': numbers[0], 'b': factor}\nres = [d[k] for k in d if d[k] > 1]"),
]
CELL_IDS = ["c1", "c2", "c3", "c4", "c5", "c6", "c7"]
SYMBOLS = ["total", "numbers", "numbers[2]", "scaled", "scale", "res", "d", "d['b']", "later"]


@pytest.fixture(autouse=True)
def _no_history_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NBSIGHT_HISTORY", "NBSIGHT_NOTEBOOK", "JPY_SESSION_NAME", "NBSIGHT_EFFECTS"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def here(tmp_path: Path) -> Iterator[Path]:
    """The test runs in `tmp_path` (a terminal session's history goes under
    the working directory)."""
    before = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(before)


def cli(binary: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    ran = subprocess.run([str(binary), *args], capture_output=True, text=True)
    assert ran.returncode == code, (args, ran.stdout, ran.stderr)
    return ran


def cli_json(binary: Path, *args: str) -> Any:
    return json.loads(cli(binary, *args, "--format", "json").stdout)


def live_answers() -> dict[str, Any]:
    """What the live session answers: both slices of every cell, and the
    provenance of every symbol (None: not bound)."""
    provenance: dict[str, Any] = {}
    for symbol in SYMBOLS:
        try:
            provenance[symbol] = nbsight.provenance(symbol)
        except KeyError:
            provenance[symbol] = None
    return {
        "slices": {c: [nbsight.backward_slice(c), nbsight.forward_slice(c)] for c in CELL_IDS},
        "provenance": provenance,
    }


def assert_cli_agrees(binary: Path, where: str, live: dict[str, Any]) -> None:
    """`nbsight slice --history` and `nbsight provenance` on the history
    `where` answer what the live session answered."""
    for cell, (backward, forward) in live["slices"].items():
        report = cli_json(binary, "slice", "--history", where, "--cell", cell)
        assert report["cells"] == backward, cell
        assert report["direction"] == "backward"
        report = cli_json(binary, "slice", "--history", where, "--cell", cell, "--forward")
        assert report["cells"] == forward, cell
    for symbol, answer in live["provenance"].items():
        if answer is None:
            ran = cli(binary, "provenance", where, symbol, code=2)
            assert f"`{symbol}` was not bound at the end of any session" in ran.stderr
            continue
        report = cli_json(binary, "provenance", where, symbol)
        assert {k: report[k] for k in answer} == answer, symbol


def refs(entries: list[dict[str, Any]]) -> list[str]:
    return [f"{e['cell']}:{e['symbol']}" for e in entries]


def test_a_shell_session_read_back_by_the_cli(
    shell: InteractiveShell, here: Path, nbsight_bin: Path
) -> None:
    # The front end named the notebook in the namespace (ipykernel's
    # `__session__`): the history goes beside it.
    notebook = here / "analysis.ipynb"
    shell.user_ns["__session__"] = str(notebook)
    run(shell, "%load_ext nbsight")
    nbsight.record_provenance(True)
    for cell_id, source in CELLS:
        run(shell, source, cell_id=cell_id)
    nbsight.record_provenance(False)
    run(shell, "later = total + 1", cell_id="c8")
    database = here / ".nbsight" / "analysis.sqlite"
    assert nbsight.history_path() == str(database)
    live = live_answers()
    # The thesis's answer, live.
    total = live["provenance"]["total"]
    assert refs(total["where"]) == ["c1:numbers[2]", "c1:numbers[5]", "c1:numbers[8]"]
    assert {f"c1:numbers[{i}]" for i in range(10)} | {"c3:factor"} <= set(refs(total["why"]))
    assert live["provenance"]["later"]["recorded"] is False
    run(shell, "%unload_ext nbsight")
    shell.user_ns.clear()

    # The shell is gone; the file answers.
    rows = cli_json(nbsight_bin, "history", str(notebook))
    assert [r["cell"] for r in rows] == ["c1", "c2", "c3", "c4", "c5", "c4", "c6", "c7", "c8"]
    assert [r["status"] for r in rows].count("error") == 1
    assert rows[6]["status"] == "error" and rows[6]["cell"] == "c6"
    assert rows[4]["reads"] == [{"symbol": "total", "whole": True}, {"symbol": "scale", "whole": True}]
    assert rows[4]["writes"] == ["scaled"]
    assert rows[4]["depends_on"] == [2, 3]
    assert all(r["session"] == 1 for r in rows)
    counts = [r["execution_count"] for r in rows]
    assert counts == sorted(counts) and None not in counts
    text = cli(nbsight_bin, "history", str(notebook)).stdout
    assert text.splitlines()[0].split() == [
        "session", "cell", "count", "counter", "time", "(UTC)", "seconds", "status", "reads", "writes"
    ]
    assert len(text.splitlines()) == 1 + len(rows)
    assert_cli_agrees(nbsight_bin, str(notebook), live)
    assert_cli_agrees(nbsight_bin, str(database), live)

    report = cli_json(nbsight_bin, "provenance", str(notebook), "total")
    assert refs(report["where"]) == ["c1:numbers[2]", "c1:numbers[5]", "c1:numbers[8]"]
    assert report["last_set"]["cell"] == "c3"
    text = cli(nbsight_bin, "provenance", str(notebook), "total").stdout
    assert "where: numbers[2] (cell c1), numbers[5] (cell c1), numbers[8] (cell c1)" in text
    assert "factor (cell c3)" in text


def test_a_terminal_session_writes_under_the_working_directory(
    shell: InteractiveShell, here: Path, nbsight_bin: Path
) -> None:
    run(shell, "%load_ext nbsight")
    run(shell, "a = 1")
    run(shell, "b = a + 1")
    assert nbsight.history_path() == str(here / ".nbsight" / "history.sqlite")
    live = nbsight.backward_slice("3")
    run(shell, "%unload_ext nbsight")
    # The folder names its history; a terminal cell's id is its count
    # (`%load_ext` was [1]).
    report = cli_json(nbsight_bin, "slice", "--history", str(here), "--cell", "3")
    assert report["cells"] == live == ["2", "3"]


def test_the_history_goes_where_nbsight_history_says(
    shell: InteractiveShell, here: Path, nbsight_bin: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = here / "elsewhere" / "runs.sqlite"
    monkeypatch.setenv("NBSIGHT_HISTORY", str(chosen))
    shell.user_ns["__session__"] = str(here / "analysis.ipynb")
    run(shell, "%load_ext nbsight")
    run(shell, "a = 1", cell_id="x")
    assert nbsight.history_path() == str(chosen)
    # `%nbsight history PATH` moves it: the new file gets the runs so far.
    moved = here / "moved.sqlite"
    run(shell, f"%nbsight history {moved}")
    run(shell, "b = a", cell_id="y")
    run(shell, "%unload_ext nbsight")
    assert not (here / ".nbsight").exists()
    cells = [r["cell"] for r in cli_json(nbsight_bin, "history", str(moved))]
    assert cells[:1] == ["x"] and "y" in cells
    assert [r["cell"] for r in cli_json(nbsight_bin, "history", str(chosen))][0] == "x"


def test_an_unwritable_history_is_said_once_and_the_cells_run(
    shell: InteractiveShell,
    here: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A file where the folder should be: nobody, root included, can make it.
    (here / "blocker").write_text("")
    monkeypatch.setenv("NBSIGHT_HISTORY", str(here / "blocker" / "h.sqlite"))
    run(shell, "%load_ext nbsight")
    for i in range(4):
        result = run(shell, f"v{i} = {i} * 2", cell_id=f"c{i}")
        assert result.error_in_exec is None
    assert shell.user_ns["v3"] == 6
    assert nbsight.history_path() is None
    assert nbsight.backward_slice("c3") == ["c3"]
    err = capsys.readouterr().err
    said = [line for line in err.splitlines() if "history" in line]
    assert len(said) == 1, err
    assert said[0].startswith("nbsight: cannot write the history to ")
    assert "blocker" in said[0] and said[0].endswith("going on without it")
    # Choosing another unwritable place during a cell: said once, now.
    result = run(shell, f"%nbsight history {here / 'blocker' / 'other.sqlite'}\nw = 1")
    assert result.error_in_exec is None
    err = capsys.readouterr().err
    assert len([line for line in err.splitlines() if "cannot write the history" in line]) == 1, err
    run(shell, "z = 3")
    assert "cannot write" not in capsys.readouterr().err
    run(shell, "%unload_ext nbsight")


# --------------------------------------------------------------------------
# A real kernel, killed


def probe_code() -> str:
    """A cell that prints the live answers as JSON and binds no name."""
    return (
        "print(__import__('json').dumps({"
        f"'slices': {{c: [__import__('nbsight').backward_slice(c), __import__('nbsight').forward_slice(c)] for c in {CELL_IDS!r}}},"
        f"'provenance': {{s: __import__('nbsight').provenance(s) for s in {SYMBOLS[:-1]!r}}}"
        "}))"
    )


def test_a_killed_kernels_history_read_back_by_the_cli(
    kernelspec: str, tmp_path: Path, nbsight_bin: Path
) -> None:
    notebook = tmp_path / "nb.ipynb"
    env = {k: v for k, v in os.environ.items() if not k.startswith("NBSIGHT_")}
    # As Jupyter Server starts a notebook's kernel.
    env["JPY_SESSION_NAME"] = str(notebook)
    manager = kernel_manager(kernelspec)
    manager.start_kernel(cwd=str(tmp_path), env=env)
    client = manager.blocking_client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=KERNEL_TIMEOUT)
        kernel = Kernel(manager, client)
        kernel.execute_ok("import nbsight\nnbsight.record_provenance(True)", cell_id="c0")
        for cell_id, source in CELLS:
            kernel.execute(source, cell_id=cell_id)
        where = kernel.execute_ok("print(nbsight.history_path())", cell_id="w").stdout.strip()
        live = json.loads(kernel.execute_ok(probe_code(), cell_id="probe").stdout)
    finally:
        client.stop_channels()
        # Killed, not shut down: every run it answered is in the file.
        manager.shutdown_kernel(now=True)
    assert where == str(tmp_path / ".nbsight" / "nb.sqlite")
    rows = cli_json(nbsight_bin, "history", str(notebook))
    assert [r["cell"] for r in rows] == ["c0", *[c for c, _ in CELLS], "w", "probe"]
    assert [r["execution_count"] for r in rows] == list(range(1, len(rows) + 1))
    assert rows[7]["status"] == "error"
    total = live["provenance"]["total"]
    assert refs(total["where"]) == ["c1:numbers[2]", "c1:numbers[5]", "c1:numbers[8]"]
    assert_cli_agrees(nbsight_bin, str(notebook), live)
    sessions = {r["session"] for r in rows}
    assert sessions == {1}


def test_a_file_of_another_program_is_said_once_and_left_alone(
    shell: InteractiveShell,
    here: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    notes = here / "notes.sqlite"
    notes.write_text("these are someone's notes\n" * 50)
    before = notes.read_bytes()
    monkeypatch.setenv("NBSIGHT_HISTORY", str(notes))
    run(shell, "%load_ext nbsight")
    run(shell, "a = 1", cell_id="c1")
    run(shell, "b = a + 1", cell_id="c2")
    assert shell.user_ns["b"] == 2
    err = capsys.readouterr().err
    said = [line for line in err.splitlines() if "history" in line]
    assert len(said) == 1, err
    assert "notes.sqlite is not an nbsight history" in said[0], said
    assert notes.read_bytes() == before
    run(shell, "%unload_ext nbsight")


def test_the_comm_names_the_notebook_and_the_history_moves_beside_it(
    kernel: Kernel, tmp_path: Path, nbsight_bin: Path
) -> None:
    kernel.execute_ok("a = 1", cell_id="c1")
    # A front end opens the `nbsight` comm and says which notebook it shows.
    comm_id = uuid.uuid4().hex
    content = {"comm_id": comm_id, "target_name": "nbsight", "data": {}}
    kernel.client.shell_channel.send(kernel.client.session.msg("comm_open", content))
    notebook = tmp_path / "shown.ipynb"
    data = {"type": "notebook_path", "path": str(notebook)}
    message = kernel.client.session.msg("comm_msg", {"comm_id": comm_id, "data": data})
    kernel.client.shell_channel.send(message)
    kernel.execute_ok("b = a + 1", cell_id="c2")
    where = kernel.execute_ok("import nbsight\nprint(nbsight.history_path())", cell_id="c3")
    assert where.stdout.strip() == str(tmp_path / ".nbsight" / "shown.sqlite")
    # The new file has the runs from before the move.
    rows = cli_json(nbsight_bin, "history", str(notebook))
    assert [r["cell"] for r in rows][:2] == ["c1", "c2"]
    report = cli_json(nbsight_bin, "slice", "--history", str(notebook), "--cell", "c2")
    assert report["cells"] == ["c1", "c2"]
