"""Statements that raised an exception the cell caught (in `try`, or in a
`with` that suppressed it) bound nothing: what they would have bound keeps
its value and its lineage. The tracer reports the lines of the cell an
exception was raised on or passed through (a RAISE event on 3.12+, the
trace function's exception event on 3.10/3.11); a line inside a loop may
have run to its end in another iteration and counts as having run.
ipyflow's examples of the same thing are in test_conformance.py.
"""

from __future__ import annotations

from IPython.core.interactiveshell import InteractiveShell

import nbsight
from conftest import cells, stale_symbols


def test_a_caught_failure_binds_nothing(loaded: InteractiveShell) -> None:
    cells(
        loaded,
        ("c1", "x = 1\ny = 2"),
        ("c2", "try:\n    x = y + int('no')\nexcept ValueError:\n    pass"),
        ("c3", "y = 3"),
    )
    # `x` still holds the value of c1, which did not read `y`.
    assert "x" not in stale_symbols()
    assert nbsight.deps("x")["cell"] == "c1"


def test_a_with_that_suppressed_the_failure_binds_nothing(loaded: InteractiveShell) -> None:
    cells(
        loaded,
        ("c1", "import contextlib\nd = {}\nv = 0\nk = 1"),
        ("c2", "with contextlib.suppress(KeyError):\n    v = d['missing'] + k"),
        ("c3", "k = 2"),
    )
    assert "v" not in stale_symbols()


def test_a_failure_in_one_iteration_keeps_the_others(loaded: InteractiveShell) -> None:
    cells(
        loaded,
        ("c1", "raw = ['1', 'x', '3']\nscale = 10"),
        (
            "c2",
            "vals = []\nfor r in raw:\n    try:\n        v = int(r) * scale\n"
            "    except ValueError:\n        continue\n    vals.append(v)",
        ),
        ("c3", "scale = 100"),
    )
    # The line that raised once ran to its end in the other iterations.
    assert {"v", "vals"} <= stale_symbols()
