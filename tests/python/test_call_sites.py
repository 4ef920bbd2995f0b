"""A user function called from two lines of one cell reads, for each call,
the globals of the branch that call took: the tracer tells a function's
lines apart by the cell's line that called it (3.10/3.11: the line of the
cell's code running; 3.12+: its events are switched on again when a second
line calls it). A call inside a loop of the cell keeps the union of what
the function read in the run (later iterations are not told apart).
ipyflow's example of the same thing is in test_conformance.py.
"""

from __future__ import annotations

from IPython.core.interactiveshell import InteractiveShell

from conftest import cells, stale_symbols

BRANCHES = "x = 0\ny = 1\ndef f(p):\n    if p:\n        return x\n    else:\n        return y"


def test_a_second_line_after_a_call_through_another_function(loaded: InteractiveShell) -> None:
    cells(
        loaded,
        ("c1", BRANCHES + "\ndef g(p):\n    return f(p)"),
        ("c2", "a = g(False)\nb = f(True)"),
        ("c3", "y = 2"),
    )
    assert "a" in stale_symbols() and "b" not in stale_symbols()
    cells(loaded, ("c4", "x = 3"))
    assert "b" in stale_symbols()


def test_the_same_line_twice_keeps_both_branches(loaded: InteractiveShell) -> None:
    cells(loaded, ("c1", BRANCHES), ("c2", "z = f(False) + f(True)"), ("c3", "y = 2"))
    assert "z" in stale_symbols()


def test_a_call_in_a_loop_keeps_the_union(loaded: InteractiveShell) -> None:
    cells(
        loaded,
        ("c1", BRANCHES),
        ("c2", "for p in [True, False]:\n    z = f(p)\nw = f(True)"),
        ("c3", "x = 2"),
    )
    # `z`'s last value came from `y`, but the loop's calls are not told
    # apart: it stays computed from both; `w` took the `x` branch.
    assert {"z", "w"} <= stale_symbols()
    cells(loaded, ("c4", "w = f(True)"), ("c5", "y = 3"))
    assert "w" not in stale_symbols() and "z" in stale_symbols()
