"""Dynamic slices over the real execution history, gather, and reactive
re-execution, in an in-process IPython shell: NBSlicer's section 1 session
(the `LR_solve` typo), the `lst` example at field granularity, in-place
changes against returned copies, `plt.plot` outside every slice. Every
gathered program runs in a fresh interpreter and must print what the cell
displayed."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from IPython.core.interactiveshell import InteractiveShell

import nbsight
from conftest import run


@pytest.fixture
def ip(shell: InteractiveShell) -> Iterator[InteractiveShell]:
    run(shell, "%load_ext nbsight")
    yield shell
    run(shell, "%unload_ext nbsight")


def cell(ip: InteractiveShell, cell_id: str, source: str) -> str:
    """Runs a cell; returns what it displayed (the repr of its value)."""
    result = run(ip, source, cell_id=cell_id)
    assert result.error_in_exec is None, result.error_in_exec
    return "" if result.result is None else repr(result.result)


def reproduces(ip: InteractiveShell, cell_id: str, displayed: str, tmp_path: Path) -> None:
    """The gathered script prints, in a fresh interpreter, what the cell
    displayed; the gathered notebook holds the same code."""
    script = tmp_path / "gathered.py"
    text = nbsight.gather(cell_id, script)
    assert script.read_text() == text
    ran = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path
    )
    assert ran.returncode == 0, ran.stderr + text
    assert ran.stdout.strip().splitlines()[-1] == displayed, text
    notebook = nbsight.gather(cell_id, tmp_path / "gathered.ipynb")
    assert '"nbformat": 4' in notebook


def test_nbslicer_lr_solve_slice_is_cells_1_5_6(ip: InteractiveShell, tmp_path: Path) -> None:
    cell(
        ip,
        "c1",
        "import numpy as np\n"
        "housing = np.array([[1., 2., 3.], [2., 1., 5.], [3., 4., 7.], [4., 3., 10.]])\n"
        "corr = np.corrcoef(housing.T)",
    )
    cell(ip, "c2", "np.abs(corr)")
    solve = (
        "def LR_solve(X, y):\n"
        '    """Solves a linear regression problem."""\n'
        "    if len(X.shape) == 2:\n"
        "        A = np.{stack}((np.ones((X.shape[0], 1)), X))\n"
        "    else:\n"
        "        A = np.{stack}((np.ones((X.shape[0], 1)), np.expand_dims(X, 1)))\n"
        "    rtn = np.linalg.lstsq(A, y, rcond=None)\n"
        "    return rtn[0].round(6).tolist()"
    )
    fit = "X = housing[:, :(-1)]\nb = housing[:, (-1)]\nLR_solve(X, b)"
    cell(ip, "c3", solve.format(stack="hstock"))
    typo = run(ip, fit, cell_id="c4")
    assert isinstance(typo.error_in_exec, AttributeError)
    cell(ip, "c3", solve.format(stack="hstack"))
    displayed = cell(ip, "c4", fit)
    # The paper's cells 1, 5 and 6: the first cell and the re-runs.
    assert nbsight.backward_slice("c4") == ["c1", "c3", "c4"]
    assert nbsight.forward_slice("c1") == ["c1", "c2", "c4"]
    reproduces(ip, "c4", displayed, tmp_path)


def test_lst_at_field_granularity(ip: InteractiveShell, tmp_path: Path) -> None:
    cell(ip, "c1", "lst = [1, 2, 3, 4, 5]")
    cell(ip, "c2", "lst[3] = 42")
    displayed = cell(ip, "c3", "y = lst[2] + 7\ny")
    assert nbsight.backward_slice("c3") == ["c1", "c3"]
    reproduces(ip, "c3", displayed, tmp_path)
    cell(ip, "c4", "lst = [6, 7, 8, 9, 10]")
    cell(ip, "c5", "y = lst[2] + 7\ny")
    assert nbsight.backward_slice("c5") == ["c4", "c5"]
    assert nbsight.forward_slice("c2") == ["c2"]


def test_inplace_changes_are_in_the_slice_returned_copies_are_not(
    ip: InteractiveShell, tmp_path: Path
) -> None:
    cell(ip, "c1", "import pandas as pd\ndf = pd.DataFrame({'a': [1.0, None, 3.0]})")
    cell(ip, "c2", "df.dropna(inplace=True)")
    cell(ip, "c3", "filled = df.fillna(0)")
    cell(ip, "c4", "copy = df.dropna()")
    displayed = cell(ip, "c5", "len(df)")
    assert nbsight.backward_slice("c5") == ["c1", "c2", "c5"]
    reproduces(ip, "c5", displayed, tmp_path)


def test_plotting_is_outside_every_slice(ip: InteractiveShell, tmp_path: Path) -> None:
    cell(
        ip,
        "c1",
        "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nxs = [3, 1, 2]",
    )
    cell(ip, "c2", "plt.plot(xs)\nplt.title('xs')")
    displayed = cell(ip, "c3", "sorted(xs)")
    assert nbsight.backward_slice("c3") == ["c1", "c3"]
    assert nbsight.forward_slice("c2") == ["c2"]
    reproduces(ip, "c3", displayed, tmp_path)


def test_reactive_reruns_dependents_in_notebook_order(ip: InteractiveShell) -> None:
    nbsight.set_mode("reactive")
    cell(ip, "c1", "a = 1")
    cell(ip, "c2", "b = a + 1")
    cell(ip, "c3", "c = b * 10")
    cell(ip, "c4", "unrelated = 0")
    cell(ip, "c5", "total = 0")
    cell(ip, "c6", "total += c")
    assert nbsight.last_reactive_run() == []
    cell(ip, "c1", "a = 2")
    assert nbsight.last_reactive_run() == ["c2", "c3", "c6"]
    # total += c re-ran once with the new c: 20 + 30.
    assert (ip.user_ns["b"], ip.user_ns["c"], ip.user_ns["total"]) == (3, 30, 50)
    assert nbsight.status()["stale_cells"] == []


def test_reactive_stops_at_an_error_and_runs_edited_code(ip: InteractiveShell) -> None:
    nbsight.set_mode("reactive")
    cell(ip, "c1", "a = 1")
    cell(ip, "c2", "b = 10 // a")
    cell(ip, "c3", "c = b + 1")
    cell(ip, "c4", "d = a * 2")
    nbsight.sync_notebook(
        [
            ("c1", "a = 1"),
            ("c2", "b = 10 // a"),
            ("c3", "c = b + 1"),
            ("c4", "d = a * 3"),  # edited, not re-run: its new code reads a
            ("c5", "e = a"),  # never run: not executed
        ]
    )
    cell(ip, "c1", "a = 5")
    assert nbsight.last_reactive_run() == ["c2", "c3", "c4"]
    assert (ip.user_ns["b"], ip.user_ns["c"], ip.user_ns["d"]) == (2, 3, 15)
    assert "e" not in ip.user_ns
    result = run(ip, "a = 0", cell_id="c1")
    assert result.error_in_exec is None
    # c2 divides by zero: the re-runs stop there, c3 and c4 keep old values.
    assert nbsight.last_reactive_run() == ["c2"]
    assert (ip.user_ns["c"], ip.user_ns["d"]) == (3, 15)


def test_slice_and_gather_magics(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cell(ip, "c1", "a = 1")
    cell(ip, "c2", "b = a + 1")
    capsys.readouterr()
    run(ip, "%nbsight slice c2")
    assert capsys.readouterr().out == "c1, c2\n"
    run(ip, "%nbsight slice c1 --forward")
    assert capsys.readouterr().out == "c1, c2\n"
    run(ip, f"%nbsight gather c2 {tmp_path / 'g.py'}")
    assert "written to" in capsys.readouterr().out
    assert "b = a + 1" in (tmp_path / "g.py").read_text()
    run(ip, "%nbsight slice nowhere")
    assert "has not run" in capsys.readouterr().out
