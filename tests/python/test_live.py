"""Live lineage in an in-process IPython shell: scripted sessions with known
answers (nbsafety's Figure 1 and section 6.6, the three-cell example of
../shared/seed-notes.md, element granularity, aliases, in-place changes,
redefined functions, del, errors, loops, block mode, never-run and edited
cells, a user's own sys.settrace)."""

from __future__ import annotations

import sys

import pytest
from IPython.core.interactiveshell import InteractiveShell

import nbsight
from conftest import cells, run


@pytest.fixture
def ip(loaded: InteractiveShell) -> InteractiveShell:
    return loaded


def test_three_cells_second_fresh_third_stale(ip: InteractiveShell) -> None:
    cells(ip, ("c1", "a = 4"), ("c2", "b = a"), ("c3", "c = a + b"))
    assert nbsight.status() == {
        "stale_cells": [],
        "fresh_cells": [],
        "refresher_cells": [],
        "stale_symbols": [],
    }
    cells(ip, ("c1", "a = 5"))
    status = nbsight.status()
    assert status["stale_cells"] == ["c3"]
    assert status["fresh_cells"] == ["c2"]
    assert status["refresher_cells"] == ["c2"]
    assert "b" in status["stale_symbols"]
    why = nbsight.why("c3")
    assert why["stale"][0]["symbol"] == "b"
    assert why["stale"][0]["set_by"] == "c2"
    assert why["stale"][0]["updated_ancestor"]["symbol"] == "a"
    assert why["stale"][0]["updated_ancestor"]["cell"] == "c1"
    assert why["rerun"] == ["c2"]
    # Running the second cell resolves the third.
    cells(ip, ("c2", "b = a"))
    assert nbsight.status()["stale_cells"] == []


def test_figure1_warns_before_reading_the_old_custom_agg(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    setup = (
        "class Frame:\n"
        "    def __init__(self, values):\n"
        "        self.values = values\n"
        "    def agg(self, how):\n"
        "        return {k: (min(self.values) if f == 'min' else f(self.values)) for k, f in how.items()}\n"
        "df_x = Frame([1, 2, 3])\n"
        "df_y = Frame([4, 5, 6])"
    )
    c3 = "df_x_agg = df_x.agg(agg_by_col)\ndf_y_agg = df_y.agg(agg_by_col)"
    cells(
        ip,
        ("c0", setup),
        ("c1", "def custom_agg(series):\n    return max(series)"),
        ("c2", "agg_by_col = {'A': 'min', 'B': custom_agg}"),
        ("c3", c3),
    )
    assert nbsight.last_warning("c3") == []
    cells(ip, ("c1", "def custom_agg(series):\n    return sum(series)"))
    capsys.readouterr()
    cells(ip, ("c3", c3))
    err = capsys.readouterr().err
    assert "`agg_by_col`" in err and "re-run cell c2" in err, err
    assert nbsight.last_warning("c3") == ["agg_by_col"]
    # The warning did not change what the cell computed: the old function.
    assert ip.user_ns["df_x_agg"] == {"A": 1, "B": 3}
    assert nbsight.status()["stale_cells"] == ["c3"]
    cells(ip, ("c2", "agg_by_col = {'A': 'min', 'B': custom_agg}"))
    assert nbsight.status()["fresh_cells"] == ["c3"]


def test_section_6_6_w_still_comes_from_the_old_wiener(ip: InteractiveShell) -> None:
    wiener = (
        "def wiener(tmax, n):\n"
        "    times = [tmax * i / n for i in range(n)]\n"
        "    return times, [t * 2 for t in times]"
    )
    c2, c3 = "t, w = wiener(1.0, 10)", "t, W = wiener(1.0, 10)"
    c4 = "data = {'time': t, 'W': w}"
    cells(ip, ("c1", wiener), ("c2", c2), ("c3", c3), ("c4", c4), ("c3", c3), ("c4", c4))
    cells(ip, ("c1", wiener.replace("t * 2", "t * 3")))
    status = nbsight.status()
    assert "c3" in status["fresh_cells"] and "c4" in status["stale_cells"], status
    cells(ip, ("c3", c3))
    assert nbsight.status()["stale_cells"] == ["c4"]
    stale = nbsight.why("c4")["stale"]
    assert [s["symbol"] for s in stale] == ["w"]
    assert stale[0]["set_by"] == "c2"
    assert stale[0]["updated_ancestor"]["symbol"] == "wiener"


def test_an_element_set_does_not_stale_readers_of_another(ip: InteractiveShell) -> None:
    cells(
        ip,
        ("c1", "lst = [0, 1, 2, 3]"),
        ("c2", "x = lst[2] + 1"),
        ("c3", "total = sum(lst)"),
        ("c4", "print(x, total)"),
        ("c5", "lst[3] = 42"),
    )
    status = nbsight.status()
    assert status["stale_symbols"] == ["total"]
    assert status["fresh_cells"] == ["c3"]
    cells(ip, ("c6", "d = {'k': 1, 'j': 2}"), ("c7", "y = d['k']"), ("c8", "d['j'] = 0"))
    assert "y" not in nbsight.status()["stale_symbols"]


def test_aliases_share_changes(ip: InteractiveShell) -> None:
    cells(
        ip,
        ("c1", "a = [1, 2]"),
        ("c2", "b = a"),
        ("c3", "n = len(b)"),
        ("c4", "print(n)"),
        ("c5", "a.append(3)"),
    )
    status = nbsight.status()
    assert status["stale_cells"] == ["c4"]
    assert nbsight.deps("b")["cell"] == "c5"


def test_in_place_changes(ip: InteractiveShell) -> None:
    cells(
        ip,
        ("c1", "class Box:\n    pass\nbox = Box()\nbox.x = [1]\nitems = [3, 1]"),
        ("c2", "first = box.x[0]"),
        ("c3", "ordered = sorted(items)"),
        ("c4", "print(first, ordered)"),
        ("c5", "items.append(0)"),
    )
    assert nbsight.status()["stale_symbols"] == ["ordered"]
    cells(ip, ("c3", "ordered = sorted(items)"), ("c6", "box.x = [9]"))
    assert nbsight.status()["stale_symbols"] == ["first"]


def test_a_redefined_function(ip: InteractiveShell) -> None:
    cells(ip, ("c1", "def f():\n    return 1"), ("c2", "y = f()"), ("c3", "z = y * 2"))
    cells(ip, ("c1", "def f():\n    return 2"))
    status = nbsight.status()
    assert status["fresh_cells"] == ["c2"] and status["stale_cells"] == ["c3"]


def test_del_and_reset_remove_symbols(ip: InteractiveShell) -> None:
    cells(ip, ("c1", "x = 1\ny = 2"), ("c2", "z = x + y"), ("c3", "del x"))
    with pytest.raises(KeyError):
        nbsight.deps("x")
    cells(ip, ("c4", "%reset -f"))
    cells(ip, ("c5", "w = 0"))
    with pytest.raises(KeyError):
        nbsight.deps("z")


def test_an_exception_keeps_what_ran_before_it(ip: InteractiveShell) -> None:
    cells(ip, ("c0", "b = 0"))
    result = run(ip, "a = 1\nb = 1 / 0\nc = 3", cell_id="c1")
    assert isinstance(result.error_in_exec, ZeroDivisionError)
    assert nbsight.deps("a")["cell"] == "c1"
    assert nbsight.deps("b")["cell"] == "c0"
    with pytest.raises(KeyError):
        nbsight.deps("c")


def test_loops_and_comprehensions(ip: InteractiveShell) -> None:
    cells(
        ip,
        ("c1", "vals = [1, 2, 3]"),
        ("c2", "total = 0\nfor v in vals:\n    total += v"),
        ("c3", "squares = [v * v for v in vals]"),
        ("c4", "print(total, squares)"),
        ("c1", "vals = [4]"),
    )
    status = nbsight.status()
    assert status["stale_cells"] == ["c4"]
    assert status["refresher_cells"] == ["c2", "c3"]


def test_only_the_branch_that_ran_counts(ip: InteractiveShell) -> None:
    cells(
        ip,
        ("c1", "flag = True\na = 1\nb = 2"),
        ("c2", "if flag:\n    y = a\nelse:\n    y = b"),
        ("c3", "print(y)"),
        ("c4", "b = 3"),
    )
    assert nbsight.status()["stale_cells"] == []
    cells(ip, ("c5", "a = 3"))
    assert nbsight.status()["stale_cells"] == ["c3"]


def test_a_call_reads_the_function_it_reaches(ip: InteractiveShell) -> None:
    # nbsafety section 4.4: lst[1](2) calls the lambda, not f.
    cells(
        ip,
        ("c0", "x = 0"),
        ("c1", "def f(y):\n    return x + y\nlst = [f, lambda t: t + 1]"),
        ("c2", "r = lst[1](2)"),
        ("c3", "s = lst[0](2)"),
        ("c4", "x = 10"),
    )
    stale = nbsight.status()["stale_symbols"]
    assert "s" in stale and "r" not in stale


def test_block_mode_does_not_run_a_stale_read(ip: InteractiveShell) -> None:
    cells(ip, ("c1", "a = 1"), ("c2", "b = a"), ("c3", "c = b"), ("c1", "a = 2"))
    nbsight.set_mode("block")
    result = ip.run_cell("c = b\nran = True", store_history=True, cell_id="c3")
    assert result.error_before_exec is not None
    assert "stale `b`" in str(result.error_before_exec)
    assert "re-run cell c2" in str(result.error_before_exec)
    assert "ran" not in ip.user_ns
    cells(ip, ("c2", "b = a"), ("c3", "c = b\nran = True"))
    assert ip.user_ns["ran"] is True
    nbsight.set_mode("off")
    cells(ip, ("c9", "untracked = 1"))
    with pytest.raises(KeyError):
        nbsight.deps("untracked")
    with pytest.raises(ValueError):
        nbsight.set_mode("loud")


def test_never_run_and_edited_cells(ip: InteractiveShell) -> None:
    cells(ip, ("c1", "a = 1"), ("c2", "b = a + 1"))
    nbsight.sync_notebook(
        [
            ("c1", "a = 1"),
            ("c2", "b = a + 2"),
            ("c3", "c = b * 2"),
            ("c4", "d = undefined_name"),
        ]
    )
    assert nbsight.status()["fresh_cells"] == ["c2", "c3"]
    cells(ip, ("c1", "a = 10"))
    status = nbsight.status()
    assert status["stale_cells"] == ["c3"]
    assert status["refresher_cells"] == ["c2"]


def test_magics_print_for_people(ip: InteractiveShell, capsys: pytest.CaptureFixture[str]) -> None:
    cells(ip, ("c1", "a = 1"), ("c2", "b = a"), ("c1", "a = 2"))
    capsys.readouterr()
    run(ip, "%nbsight status")
    assert "fresh cells:      c2" in capsys.readouterr().out
    run(ip, "%nbsight deps b")
    assert "computed from: `a`" in capsys.readouterr().out
    run(ip, "%nbsight why c2")
    assert "reads nothing stale" in capsys.readouterr().out
    run(ip, "%nbsight mode block")
    assert "nbsight mode: block" in capsys.readouterr().out
    run(ip, "%nbsight frobnicate")
    assert "usage: %nbsight" in capsys.readouterr().out


def test_a_users_own_settrace_keeps_working(ip: InteractiveShell) -> None:
    cells(
        ip,
        (
            "c1",
            "import sys\n"
            "events = []\n"
            "def tracer(frame, event, arg):\n"
            "    events.append(event)\n"
            "    return None\n"
            "def g():\n"
            "    return 1\n"
            "sys.settrace(tracer)\n"
            "g()\n"
            "sys.settrace(None)\n"
            "a = 1",
        ),
        ("c2", "b = a"),
        ("c1b", "a = 2"),
    )
    assert "call" in ip.user_ns["events"]
    assert nbsight.status()["fresh_cells"] == ["c2"]
    assert sys.gettrace() is None


def test_the_api_needs_the_extension(shell: InteractiveShell) -> None:
    with pytest.raises(RuntimeError, match="load_ext nbsight"):
        nbsight.status()


class _Failing:
    """A session whose `pre_run` fails, to stand for a bug in nbsight."""

    def __init__(self, session: object) -> None:
        self._session = session

    def pre_run(self, *args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    def __getattr__(self, name: str) -> object:
        return getattr(self._session, name)


def test_nbsights_own_failure_leaves_the_cell_running(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from nbsight import _api

    live = _api._current()
    monkeypatch.setattr(live, "session", _Failing(live.session))
    capsys.readouterr()
    result = run(ip, "x = 6 * 7\nprint(x)", cell_id="c1")
    out = capsys.readouterr()
    assert result.error_in_exec is None and ip.user_ns["x"] == 42
    assert out.out == "42\n"
    lines = out.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("nbsight: internal error (RuntimeError: boom)")
    monkeypatch.undo()
    cells(ip, ("c2", "y = x"))
    assert nbsight.deps("y")["cell"] == "c2"


def test_importing_again_or_drawing_again_stales_nothing(ip: InteractiveShell) -> None:
    cells(
        ip,
        ("c0", "import json\nd = json.loads('[1, 2]')"),
        ("c1", "import json"),
        ("c2", "it = iter(range(10))\nfirst = next(it)"),
        ("c3", "second = next(it)"),
        ("c4", "print(d, first, second)"),
    )
    status = nbsight.status()
    assert status["stale_cells"] == [] and status["stale_symbols"] == [], status
