"""The live tracer (docs/live.md, "The tracer"): transparent to the user's
own trace and profile functions on every CPython (the native trace function
of 3.10/3.11 is invisible to ``sys.gettrace()``, is not installed over a
user's, and leaves one installed during a cell in place; 3.12+ takes its
own ``sys.monitoring`` tool id), and records the lines of user functions and
the calls between them."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

from conftest import run

NATIVE = sys.version_info < (3, 12)

# A Python-level trace function such as a user or coverage.py's pure-Python
# tracer installs: it logs the calls it sees.
TRACER = (
    "import sys\n"
    "seen = []\n"
    "def tracer(frame, event, arg):\n"
    "    if event == 'call':\n"
    "        seen.append(frame.f_code.co_name)\n"
    "    return None\n"
)


@pytest.fixture
def ip(shell: InteractiveShell) -> Iterator[InteractiveShell]:
    run(shell, "%load_ext nbsight")
    try:
        yield shell
    finally:
        sys.settrace(None)
        sys.setprofile(None)
        run(shell, "%unload_ext nbsight")


def cell(ip: InteractiveShell, cell_id: str, source: str) -> None:
    result = run(ip, source, cell_id=cell_id)
    assert result.error_in_exec is None, result.error_in_exec


def facts() -> dict[str, Any]:
    from nbsight._api import _current

    last: dict[str, Any] | None = _current().session._last_run_facts_for_tests()
    assert last is not None
    return last


def test_gettrace_in_a_cell_is_none(ip: InteractiveShell) -> None:
    cell(ip, "c1", "import sys\ninside = sys.gettrace()\nx = 1")
    assert ip.user_ns["inside"] is None
    assert facts()["lines"] == [1, 2, 3]
    assert sys.gettrace() is None


def test_a_users_settrace_keeps_tracing_later_cells(ip: InteractiveShell) -> None:
    cell(ip, "c1", TRACER + "sys.settrace(tracer)")
    if NATIVE:
        # Installed during the cell: nbsight stopped, the run is untraced.
        assert facts()["lines"] is None
    assert sys.gettrace() is ip.user_ns["tracer"]
    cell(ip, "c2", "def g():\n    return 1\ninside = sys.gettrace()\ng()")
    assert sys.gettrace() is ip.user_ns["tracer"]
    assert ip.user_ns["inside"] is ip.user_ns["tracer"]
    assert "g" in ip.user_ns["seen"]
    if NATIVE:
        # nbsight does not trace over the user's function.
        assert facts()["lines"] is None
    else:
        assert facts()["lines"] == [1, 3, 4]
    cell(ip, "c3", "sys.settrace(None)")
    cell(ip, "c4", "y = 2")
    assert facts()["lines"] == [1]


def test_removing_the_trace_function_in_a_cell(ip: InteractiveShell) -> None:
    cell(ip, "c1", "import sys\nsys.settrace(None)\nx = 1")
    assert sys.gettrace() is None
    if NATIVE:
        assert facts()["lines"] is None
    cell(ip, "c2", "y = 2")
    assert facts()["lines"] == [1]


def test_a_c_level_tracer_is_not_replaced(ip: InteractiveShell) -> None:
    coverage = pytest.importorskip("coverage")
    cov = coverage.Coverage(data_file=None, branch=False)
    cov.start()
    try:
        tracer = sys.gettrace()
        cell(ip, "c1", "def h():\n    return 3\nv = h()")
        assert sys.gettrace() is tracer
    finally:
        cov.stop()
    assert ip.user_ns["v"] == 3


def test_cprofile_and_setprofile_work(ip: InteractiveShell) -> None:
    cell(ip, "c1", "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)")
    cell(
        ip,
        "c2",
        "import cProfile, pstats\n"
        "profile = cProfile.Profile()\n"
        "profile.enable()\n"
        "fib(12)\n"
        "profile.disable()\n"
        "names = {key[2] for key in pstats.Stats(profile).stats}",
    )
    assert "fib" in ip.user_ns["names"]
    assert facts()["lines"] == [1, 2, 3, 4, 5, 6]
    cell(ip, "c3", "stats = %prun -r -q fib(10)")
    assert any(key[2] == "fib" for key in ip.user_ns["stats"].stats)
    cell(
        ip,
        "c4",
        "import sys\n"
        "profiled = []\n"
        "def profiler(frame, event, arg):\n"
        "    profiled.append((event, frame.f_code.co_name))\n"
        "sys.setprofile(profiler)\n"
        "fib(3)\n"
        "sys.setprofile(None)",
    )
    assert ("call", "fib") in ip.user_ns["profiled"]
    assert facts()["lines"] == [1, 2, 3, 5, 6, 7]


DEFINITIONS = (
    "def helper(x):\n"  # 1
    "    if x > 100:\n"  # 2
    "        return -x\n"  # 3
    "    return x * 2\n"  # 4
    "def outer(n):\n"  # 5
    "    total = 0\n"  # 6
    "    for i in range(n):\n"  # 7
    "        total += helper(i)\n"  # 8
    "    return total\n"  # 9
)


def test_function_lines_and_calls_between_functions(ip: InteractiveShell) -> None:
    cell(ip, "c1", DEFINITIONS)
    for _ in range(2):  # the second run sees them again (re-armed on 3.12+)
        cell(ip, "c2", "r = outer(3)")
        got = facts()
        assert got["lines"] == [1]
        assert sorted(got["calls"], key=str) == sorted([(1, "outer", None), (8, "helper", "outer")], key=str)
        assert got["function_lines"] == {"outer": [6, 7, 8, 9], "helper": [2, 4]}
    cell(ip, "c3", "r2 = helper(200)\nr3 = helper(1)")
    got = facts()
    assert got["function_lines"] == {"helper": [2, 3, 4]}
    assert sorted(got["calls"]) == [(1, "helper", None), (2, "helper", None)]


def test_hot_functions_and_loops_keep_their_lines(ip: InteractiveShell) -> None:
    cell(
        ip,
        "c1",
        "def fib(n):\n"
        "    if n < 2:\n"
        "        return n\n"
        "    return fib(n - 1) + fib(n - 2)\n"
        "def late(n):\n"
        "    for i in range(n):\n"
        "        if i == n - 1:\n"
        "            last = i\n"
        "    return last",
    )
    cell(ip, "c2", "a = fib(15)\nfor k in range(3):\n    b = late(50)\nc = [fib(2) for _ in range(3)]")
    got = facts()
    assert got["function_lines"]["fib"] == [2, 3, 4]
    assert got["function_lines"]["late"] == [6, 7, 8, 9]
    assert (4, "fib", "fib") in got["calls"]
    assert (1, "fib", None) in got["calls"]
    # Every line of the top-level loop ran in its first iteration.
    assert got["lines"] == [1, 2, 3, 4]


def test_the_tracer_resumes_after_a_long_statement(ip: InteractiveShell) -> None:
    cell(ip, "c1", "def g():\n    return 1")
    cell(ip, "c2", "for i in range(100_000):\n    pass\nv = g()")
    got = facts()
    assert got["lines"] == [1, 2, 3]
    assert got["calls"] == [(3, "g", None)]
    assert got["function_lines"] == {"g": [2]}
    # A branch first taken after the 3.10/3.11 tracer suspended itself in
    # that statement: the run's lines are then not all known.
    cell(ip, "c3", "for i in range(100_000):\n    if i == 99_999:\n        z = g()\nw = 1")
    got = facts()
    if NATIVE:
        assert got["lines"] is None
        assert got["calls"] == []
    else:
        assert got["lines"] == [1, 2, 3, 4]
        assert got["calls"] == [(3, "g", None)]
