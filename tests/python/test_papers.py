"""The worked examples of the nbsafety paper (seed 001) and the NBSlicer
paper (seed 004), and of their notes in ../shared/seed-notes.md, as scripted
sessions in an in-process IPython shell, each with the answer the paper (and
a careful user) gives.

Lost listings are reconstructed (NBSlicer's Figure 2 `f()[g()]`, its section
2.1 program, the trace-once loop, the `dropna` snippet, the OrderedDict case
study). Examples already asserted in test_live.py and test_slices.py are not
repeated (the a/b/c status and `why`, Figure 1's warning with a user class,
section 6.6 after an edited `wiener`, `r = lst[1](2)` against `s =
lst[0](2)`, `lst[3] = 42` against a reader of `lst[2]`, NBSlicer's
`LR_solve` session and `lst` slices, `dropna(inplace=True)` on a frame,
`plt.plot`, reactive re-runs of `total += c`); the tests here take the same
examples further or take the others.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from IPython.core.interactiveshell import InteractiveShell

import nbsight
from conftest import cells, run


@pytest.fixture
def ip(
    shell: InteractiveShell, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[InteractiveShell]:
    # The history file and the examples' data files go to tmp_path.
    monkeypatch.chdir(tmp_path)
    run(shell, "%load_ext nbsight")
    yield shell
    run(shell, "%unload_ext nbsight")


def cell(ip: InteractiveShell, cell_id: str, source: str) -> str:
    """Runs a cell; returns what it displayed (the repr of its value)."""
    result = run(ip, source, cell_id=cell_id)
    assert result.error_in_exec is None, (cell_id, result.error_in_exec)
    return "" if result.result is None else repr(result.result)


def counted(ip: InteractiveShell, cell_id: str, source: str) -> int:
    """Runs a cell; returns its execution counter."""
    counter: int = ip.execution_count
    cells(ip, (cell_id, source))
    return counter


def stale_symbols() -> set[str]:
    return set(nbsight.status()["stale_symbols"])


def parents(symbol: str) -> set[str]:
    return {p["symbol"] for p in nbsight.deps(symbol)["parents"]}


def reproduces(ip: InteractiveShell, cell_id: str, expected: str, tmp_path: Path) -> None:
    """The gathered script, run in a fresh interpreter, prints `expected`
    last."""
    script = tmp_path / "gathered.py"
    text = nbsight.gather(cell_id, script)
    ran = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path
    )
    assert ran.returncode == 0, ran.stderr + text
    assert ran.stdout.strip().splitlines()[-1] == expected, text


# ==========================================================================
# nbsafety (seed 001)
# ==========================================================================

# Figure 1 with pandas' own `agg` (test_live.py has it with a user class).
FIG1_SETUP = (
    "import pandas as pd\n"
    "df_x = pd.DataFrame({'A': [1, 2, 3], 'B': [4, 5, 6]})\n"
    "df_y = pd.DataFrame({'A': [7, 8, 9], 'B': [10, 11, 13]})"
)
FIG1_C1 = "def custom_agg(series):\n    return series.max()"
FIG1_C1_FIXED = "def custom_agg(series):\n    return series.max() - series.min()"
FIG1_C2 = "agg_by_col = {'A': 'min', 'B': custom_agg}"
FIG1_C3 = "df_x_agg = df_x.agg(agg_by_col)\ndf_y_agg = df_y.agg(agg_by_col)"


def test_figure1_timestamps_and_dependencies(ip: InteractiveShell) -> None:
    """Definitions 2-4 on Figure 1: ts(custom_agg) = ts(c1) = [4],
    ts(agg_by_col) = [2], agg_by_col depends on custom_agg, df_x_agg on
    df_x and (through agg_by_col) custom_agg; after [4], agg_by_col and its
    descendants are stale."""
    cells(ip, ("c0", FIG1_SETUP))
    counted(ip, "c1", FIG1_C1)
    t2 = counted(ip, "c2", FIG1_C2)
    counted(ip, "c3", FIG1_C3)
    t4 = counted(ip, "c1", FIG1_C1_FIXED)
    assert nbsight.deps("custom_agg")["timestamp"] == t4
    assert nbsight.deps("custom_agg")["cell"] == "c1"
    assert nbsight.deps("agg_by_col")["timestamp"] == t2
    assert parents("agg_by_col") == {"custom_agg"}
    assert {"df_x", "agg_by_col"} <= parents("df_x_agg")
    assert nbsight.deps("agg_by_col")["stale"] is True
    assert nbsight.deps("df_x_agg")["stale"] is True
    assert nbsight.deps("custom_agg")["stale"] is False
    # Field-granular: the dict's entry holding custom_agg is stale, 'A' is not.
    assert stale_symbols() == {"agg_by_col", "agg_by_col['B']", "df_x_agg", "df_y_agg"}
    status = nbsight.status()
    assert status["stale_cells"] == ["c3"]
    assert status["fresh_cells"] == ["c2"]
    assert status["refresher_cells"] == ["c2"]


def test_figure1_rerunning_the_third_cell_keeps_it_stale(ip: InteractiveShell) -> None:
    """[5] re-runs c3 without c2: the results are new but still computed from
    the old custom_agg, so they stay stale; re-running c2 then c3 clears
    everything and picks up the fix."""
    cells(ip, ("c0", FIG1_SETUP), ("c1", FIG1_C1), ("c2", FIG1_C2), ("c3", FIG1_C3))
    cells(ip, ("c1", FIG1_C1_FIXED))
    t5 = counted(ip, "c3", FIG1_C3)
    assert nbsight.last_warning("c3") == ["agg_by_col"]
    assert ip.user_ns["df_x_agg"].to_dict() == {"A": 1, "B": 6}
    assert nbsight.deps("df_x_agg")["timestamp"] == t5
    assert nbsight.deps("df_x_agg")["stale"] is True
    assert stale_symbols() == {"agg_by_col", "agg_by_col['B']", "df_x_agg", "df_y_agg"}
    cells(ip, ("c2", FIG1_C2), ("c3", FIG1_C3))
    assert nbsight.last_warning("c3") == []
    assert ip.user_ns["df_x_agg"].to_dict() == {"A": 1, "B": 2}
    status = nbsight.status()
    assert status["stale_cells"] == [] and status["stale_symbols"] == [], status


def test_three_cells_a_refresher_need_not_be_fresh(ip: InteractiveShell) -> None:
    """Section 4.2: "running any other cell that assigns to b would also
    resolve the staleness issue, so staleness-resolving cells need not
    necessarily be fresh"; and re-running the second cell makes the third
    (not the first, erratum) fresh."""
    cells(ip, ("c0", "k = 1"), ("c4", "b = k * 7"))
    cells(ip, ("c1", "a = 4"), ("c2", "b = a"), ("c3", "c = a + b"))
    nbsight.sync_notebook(
        [("c0", "k = 1"), ("c1", "a = 4"), ("c2", "b = a"), ("c3", "c = a + b"), ("c4", "b = k * 7")]
    )
    cells(ip, ("c1", "a = 5"))
    status = nbsight.status()
    assert status["stale_cells"] == ["c3"]
    assert status["fresh_cells"] == ["c2"]
    assert status["refresher_cells"] == ["c2", "c4"]
    cells(ip, ("c2", "b = a"))
    status = nbsight.status()
    assert status["stale_cells"] == []
    assert status["fresh_cells"] == ["c3"]
    assert status["refresher_cells"] == []


FIG4 = (
    "if num % 3 == 0:\n"
    "    foobar = True\n"
    "    s = 'foobar'\n"
    "elif num % 3 == 1:\n"
    "    foo = True\n"
    "    s = 'foo'\n"
    "else:\n"
    "    s = 'bar'\n"
    "print(s, foobar)"
)


def test_figure4_num_and_foobar_are_live_s_and_foo_are_not(ip: InteractiveShell) -> None:
    """Figure 4 (seed notes: LIVE = {num, foobar}): a new `s` or `foo` does
    not make the cell fresh, a new `num` or `foobar` does."""
    cells(ip, ("c0", "num = 4\nfoobar = False"), ("c1", FIG4))
    cells(ip, ("c2", "s = 'other'\nfoo = 0"))
    status = nbsight.status()
    assert status["fresh_cells"] == [] and status["stale_cells"] == [], status
    cells(ip, ("c3", "num = 7"))
    assert nbsight.status()["fresh_cells"] == ["c1"]
    cells(ip, ("c1", FIG4))
    assert nbsight.status()["fresh_cells"] == []
    cells(ip, ("c4", "foobar = True"))
    assert nbsight.status()["fresh_cells"] == ["c1"]


def test_figure4_s_is_dead_so_the_cell_refreshes_a_stale_s(ip: InteractiveShell) -> None:
    """Figure 4: `s` is assigned on every path (dead, Definition 6), so the
    cell is a refresher (Definition 10) for a cell that reads a stale `s`."""
    cells(
        ip,
        ("c0", "num = 4\nfoobar = False\nbase = 1"),
        ("c1", FIG4),
        ("c2", "s = str(base)"),
        ("c3", "print(s)"),
        ("c5", "base = 2"),
    )
    status = nbsight.status()
    assert status["stale_cells"] == ["c3"]
    assert status["refresher_cells"] == ["c1", "c2"]


def test_figure4_foo_is_not_dead_so_no_refresher_for_foo(ip: InteractiveShell) -> None:
    """Figure 4: `foo` is assigned on one path only: the cell does not
    refresh a stale `foo`."""
    cells(
        ip,
        ("c0", "num = 5\nfoobar = False\nbase = 1"),
        ("c1", FIG4),
        ("c2", "foo = base > 0"),
        ("c3", "print(foo)"),
        ("c5", "base = 2"),
    )
    status = nbsight.status()
    assert status["stale_cells"] == ["c3"]
    assert status["refresher_cells"] == ["c2"]


LAMBDA_LIST = "def f(y):\n    return x + y\nlst = [f, lambda t: t + 1]"


def test_section_4_4_print_lst1_does_not_read_x(ip: InteractiveShell) -> None:
    """Section 4.4: `print(lst[1](2))` calls the lambda, so `x` is not live in
    it: a new `x` leaves it neither stale nor fresh, while the cell calling
    `lst[0]` (which is `f`, reading `x`) is fresh."""
    cells(
        ip,
        ("c1", "x = 0\n" + LAMBDA_LIST),
        ("c2", "print(lst[1](2))"),
        ("c3", "print(lst[0](2))"),
        ("c4", "x = 10"),
    )
    status = nbsight.status()
    assert status["stale_cells"] == []
    assert status["fresh_cells"] == ["c3"]


LAMBDA_NOTEBOOK = [
    ("c0", "base = 1"),
    ("c1", "x = base"),
    ("c2", LAMBDA_LIST),
    ("c3", "print(lst[1](2))"),
    ("c4", "print(lst[0](2))"),
]


def lambda_session(ip: InteractiveShell) -> None:
    """`x` made stale; the two calling cells not run yet."""
    cells(ip, ("c0", "base = 0"), ("c1", "x = base"), ("c2", LAMBDA_LIST), ("c0", "base = 1"))
    nbsight.sync_notebook(LAMBDA_NOTEBOOK)


def test_section_4_4_the_lambda_call_is_safe_before_it_runs(ip: InteractiveShell) -> None:
    """Section 4.4 and the seed notes: a checker that consults run-time values
    before the cell runs knows that `print(lst[1](2))` does not read the
    stale `x`: it is not stale and block mode runs it."""
    lambda_session(ip)
    assert "c3" not in nbsight.status()["stale_cells"]
    nbsight.set_mode("block")
    lam = ip.run_cell("print(lst[1](2))\nran_lambda = True", store_history=True, cell_id="c3")
    assert lam.error_before_exec is None and lam.error_in_exec is None
    assert ip.user_ns["ran_lambda"] is True


def test_section_4_4_the_call_of_f_is_stale_before_it_runs(ip: InteractiveShell) -> None:
    """Section 4.4, the other entry: `print(lst[0](2))` calls `f`, which reads
    the stale `x`: the cell is stale and block mode does not run it."""
    lambda_session(ip)
    assert nbsight.status()["stale_cells"] == ["c4"]
    nbsight.set_mode("block")
    blocked = ip.run_cell("print(lst[0](2))\nran_f = True", store_history=True, cell_id="c4")
    assert blocked.error_before_exec is not None
    assert "`x`" in str(blocked.error_before_exec)
    assert "ran_f" not in ip.user_ns


def test_a_stale_symbol_that_is_not_live_does_not_stale_the_cell(ip: InteractiveShell) -> None:
    """Definition 7 needs a *live* stale symbol: a cell that sets `b` before
    reading it is not stale, runs in block mode, and refreshes `b`."""
    cells(ip, ("c1", "a = 1"), ("c4", "b = 0\nprint(b)"), ("c2", "b = a"), ("c3", "print(b)"))
    nbsight.sync_notebook(
        [("c1", "a = 1"), ("c2", "b = a"), ("c3", "print(b)"), ("c4", "b = 0\nprint(b)")]
    )
    cells(ip, ("c1", "a = 2"))
    status = nbsight.status()
    assert status["stale_cells"] == ["c3"]
    assert status["fresh_cells"] == ["c2"]
    assert status["refresher_cells"] == ["c2", "c4"]
    nbsight.set_mode("block")
    result = ip.run_cell("b = 0\nprint(b)", store_history=True, cell_id="c4")
    assert result.error_before_exec is None and result.error_in_exec is None
    assert nbsight.status()["stale_cells"] == []


def test_a_refresher_removes_some_not_all_stale_symbols(ip: InteractiveShell) -> None:
    """Definition 10: merging the refresher with the stale cell leaves fewer
    live stale symbols, not necessarily none."""
    cells(
        ip,
        ("c1", "a = 1"),
        ("c2", "b = a + 1"),
        ("c3", "d = a * 2"),
        ("c4", "print(b, d)"),
        ("c1", "a = 2"),
    )
    status = nbsight.status()
    assert status["stale_cells"] == ["c4"]
    assert status["refresher_cells"] == ["c2", "c3"]
    why = nbsight.why("c4")
    assert sorted(s["symbol"] for s in why["stale"]) == ["b", "d"]
    assert why["rerun"] == ["c2", "c3"]
    cells(ip, ("c2", "b = a + 1"))
    status = nbsight.status()
    assert status["stale_cells"] == ["c4"] and status["refresher_cells"] == ["c3"]


def test_a_refresher_kills_on_every_path(ip: InteractiveShell) -> None:
    """Definitions 6 and 10: a cell that assigns `b` on one branch only is not
    a refresher, even if that branch ran: `b` stays live in the merged cell."""
    cells(
        ip,
        ("c1", "a = 1"),
        ("c4", "if a > 0:\n    b = a"),
        ("c2", "b = a"),
        ("c3", "print(b)"),
    )
    nbsight.sync_notebook(
        [("c1", "a = 1"), ("c2", "b = a"), ("c3", "print(b)"), ("c4", "if a > 0:\n    b = a")]
    )
    cells(ip, ("c1", "a = 2"))
    status = nbsight.status()
    assert status["stale_cells"] == ["c3"]
    assert status["fresh_cells"] == ["c2", "c4"]
    assert status["refresher_cells"] == ["c2"]


def test_section_3_2_map_lambda_parents(ip: InteractiveShell) -> None:
    """Section 3.2: after `gen = map(lambda x: f(x), foo + [bar])`,
    Par(gen) = {f, foo, bar}: not `map` (a builtin), not `x` (the lambda's
    argument)."""
    cells(
        ip,
        ("c1", "def f(v):\n    return v * 2\nfoo = [1, 2]\nbar = 3"),
        ("c2", "gen = map(lambda x: f(x), foo + [bar])"),
    )
    assert parents("gen") == {"f", "foo", "bar"}
    cells(ip, ("c3", "x = 5"))
    assert "gen" not in stale_symbols()
    cells(ip, ("c4", "def f(v):\n    return v * 3"))
    assert "gen" in stale_symbols()


@pytest.mark.parametrize("update", ["a = a + q", "a += q"])
def test_table1_an_update_keeps_the_old_parents(ip: InteractiveShell, update: str) -> None:
    """Table 1: `a = a + e` and `a += e` give Par(a) = Par(a) ∪ USE[e]: `a`
    still depends on what it was computed from before."""
    cells(
        ip,
        ("c1", "p = 1\nq = 2"),
        ("c2", "a = p"),
        ("c3", update),
        ("c4", "print(a)"),
        ("c5", "p = 10"),
    )
    assert "a" in stale_symbols()
    assert nbsight.status()["stale_cells"] == ["c3", "c4"]


def test_table1_a_for_target_depends_on_the_iterable(ip: InteractiveShell) -> None:
    """Table 1: `for a in e` gives Par(a) = USE[e]. The loop's cell is fresh
    but no refresher: `seq` may be empty, so `item` is not assigned on every
    path (not dead, Definition 6)."""
    cells(
        ip,
        ("c1", "seq = [3, 4]"),
        ("c2", "for item in seq:\n    pass"),
        ("c3", "print(item)"),
        ("c4", "seq = [5]"),
    )
    assert "item" in stale_symbols()
    status = nbsight.status()
    assert status["stale_cells"] == ["c3"]
    assert status["fresh_cells"] == ["c2"]
    assert status["refresher_cells"] == []


def test_table1_defaults_are_a_functions_parents_its_body_is_not(ip: InteractiveShell) -> None:
    """Table 1: `def f(a=e)` gives Par(f) = USE[e]; a global the body reads is
    read at each call (RET[f] of the call), not when `def` runs."""
    cells(
        ip,
        ("c1", "k = 1"),
        ("c2", "def g(n=k):\n    return n"),
        ("c3", "def h():\n    return k"),
        ("c4", "print(g())"),
        ("c5", "print(h())"),
        ("c6", "k = 2"),
    )
    stale = stale_symbols()
    assert "g" in stale and "h" not in stale
    status = nbsight.status()
    assert status["stale_cells"] == ["c4"]
    assert status["fresh_cells"] == ["c2", "c5"]


def test_table1_a_class_depends_on_its_bases(ip: InteractiveShell) -> None:
    """Table 1: `class c(e)` gives Par(c) = USE[e]."""
    cells(
        ip,
        ("c1", "class Base:\n    x = 1"),
        ("c2", "class C(Base):\n    pass"),
        ("c3", "print(C.x)"),
        ("c1", "class Base:\n    x = 2"),
    )
    assert "C" in stale_symbols()
    status = nbsight.status()
    assert status["stale_cells"] == ["c3"] and status["refresher_cells"] == ["c2"]


def test_table1_a_call_depends_on_what_the_function_returns(ip: InteractiveShell) -> None:
    """Table 1 and "Handling Function Calls and Returns": `a = f()` with
    `f` returning a captured global `k` depends on `k`."""
    cells(
        ip,
        ("c1", "k = 1"),
        ("c2", "def f():\n    return k * 2"),
        ("c3", "a = f()"),
        ("c4", "print(a)"),
        ("c5", "k = 5"),
    )
    stale = stale_symbols()
    assert "a" in stale and "f" not in stale
    status = nbsight.status()
    assert status["stale_cells"] == ["c4"] and status["fresh_cells"] == ["c3"]


ATTR_CHAIN = (
    "class Inner:\n"
    "    pass\n"
    "class A:\n"
    "    def b(self):\n"
    "        return self.inner\n"
    "a = A()\n"
    "a.inner = Inner()\n"
    "a.inner.c = 1\n"
    "a.other = 0"
)


def test_section_3_2_attribute_chain_reads_the_returned_objects_field(
    ip: InteractiveShell,
) -> None:
    """Section 3.2: the parent of `s = a.b().c` is the `c` in the namespace of
    what `a.b()` returned (here `a.inner.c`)."""
    cells(ip, ("c1", ATTR_CHAIN), ("c2", "s = a.b().c"), ("c3", "print(s)"))
    cells(ip, ("c4", "a.inner.c = 5"))
    assert "s" in stale_symbols()
    assert nbsight.status()["stale_cells"] == ["c3"]


def test_section_3_2_attribute_chain_ignores_other_fields(ip: InteractiveShell) -> None:
    """Section 3.2 (field granularity): `s = a.b().c` reads `a.inner.c`, not
    `a.other`."""
    cells(ip, ("c1", ATTR_CHAIN), ("c2", "s = a.b().c"), ("c3", "print(s)"))
    cells(ip, ("c4", "a.other = 9"))
    assert "s" not in stale_symbols()
    assert nbsight.status()["stale_cells"] == []


BOUNDED_LOOP = "x = 0\nfor i in [3, 5, 42]:\n    x += lst[i]"


def test_bounding_lineage_appending_does_not_stale_the_sum(ip: InteractiveShell) -> None:
    """Section 3.2, "Bounding Lineage Overhead": making `x` depend on all of
    `lst` "will cause x to be incorrectly classified as stale whenever lst is
    mutated, e.g., if a new entry is appended"."""
    cells(ip, ("c1", "lst = list(range(100))"), ("c2", BOUNDED_LOOP), ("c3", "print(x)"))
    cells(ip, ("c4", "lst.append(100)"))
    assert "x" not in stale_symbols()
    assert nbsight.status()["stale_cells"] == []


def test_bounding_lineage_a_point_update_of_a_read_element_stales_the_sum(
    ip: InteractiveShell,
) -> None:
    """Section 3.2: after a point update to `lst[42]`, which the loop read,
    "x should technically be considered stale" (nbsafety's trace-once misses
    it; it is a false negative)."""
    cells(ip, ("c1", "lst = list(range(100))"), ("c2", BOUNDED_LOOP), ("c3", "print(x)"))
    cells(ip, ("c4", "lst[42] = 0"))
    assert "x" in stale_symbols()
    assert nbsight.status()["stale_cells"] == ["c3"]


def test_bounding_lineage_a_point_update_of_another_element_does_not(
    ip: InteractiveShell,
) -> None:
    """Section 3.2: `x` was computed from lst[3], lst[5] and lst[42]; a new
    lst[7] does not change it."""
    cells(ip, ("c1", "lst = list(range(100))"), ("c2", BOUNDED_LOOP), ("c3", "print(x)"))
    cells(ip, ("c4", "lst[7] = 0"))
    assert "x" not in stale_symbols()


def test_aliases_both_names_get_the_mutations_timestamp(ip: InteractiveShell) -> None:
    """Section 3.2, "Handling Aliases": when x and y refer to the same list
    and it is appended to, both have their timestamps bumped, whichever name
    the mutation went through."""
    cells(
        ip,
        ("c1", "x = [1, 2]"),
        ("c2", "y = x"),
        ("c3", "nx = len(x)"),
        ("c4", "ny = len(y)"),
        ("c5", "print(nx, ny)"),
    )
    t6 = counted(ip, "c6", "x.append(3)")
    assert nbsight.deps("x")["timestamp"] == t6
    assert nbsight.deps("y")["timestamp"] == t6
    assert {"nx", "ny"} <= stale_symbols()
    cells(ip, ("c3", "nx = len(x)"), ("c4", "ny = len(y)"))
    t7 = counted(ip, "c7", "y.append(4)")
    assert nbsight.deps("x")["timestamp"] == t7
    assert {"nx", "ny"} <= stale_symbols()


def test_aliases_inside_a_container_share_mutations(ip: InteractiveShell) -> None:
    """Section 3.2: the alias registry maps an object to *all* symbols that
    reference it, `holder['k']` included: the append updates `holder['k']`
    (not stale), so its reader is fresh and only what it computed is
    stale. The cell that put the list in the dict read `lst`, changed
    since: fresh too (nbsafety's Definition 8, and ipyflow's
    `inner_mutation_considered_fresh`)."""
    cells(
        ip,
        ("c1", "lst = [1, 2]"),
        ("c2", "holder = {'k': lst}"),
        ("c3", "n = len(holder['k'])"),
        ("c4", "print(n)"),
        ("c5", "lst.append(3)"),
    )
    stale = stale_symbols()
    assert "n" in stale and "holder['k']" not in stale
    status = nbsight.status()
    assert status["stale_cells"] == ["c4"] and status["fresh_cells"] == ["c2", "c3"]


def test_definition1_list_elements_are_symbols(ip: InteractiveShell) -> None:
    """Definition 1: with a 10-element `lst`, `lst`, `lst[0]` and `lst[8]`
    are symbols, each with its own time."""
    cells(ip, ("c1", "lst = list(range(10))"), ("c2", "lst[8] = 80"))
    assert nbsight.deps("lst[8]")["cell"] == "c2"
    assert nbsight.deps("lst[0]")["cell"] == "c1"
    assert nbsight.deps("lst[0]")["stale"] is False


def test_definition1_a_frames_column_is_a_symbol(ip: InteractiveShell) -> None:
    """Definition 1: `df` and `df.col` are both symbols (`df.col` is
    `df['col']`)."""
    cells(
        ip,
        ("c1", "import pandas as pd\ndf = pd.DataFrame({'col': [1, 2], 'other': [3, 4]})"),
        ("c2", "df['col'] = [5, 6]"),
    )
    assert nbsight.deps("df['col']")["cell"] == "c2"
    assert nbsight.deps("df.col")["cell"] == "c2"


FRAME = "import pandas as pd\ndf = pd.DataFrame({'A': [1.0, 2.0], 'B': [3.0, 4.0]})"


def test_a_reader_of_one_column_is_not_stale_after_another_changes(
    ip: InteractiveShell,
) -> None:
    """Definition 1's `df.col`: `m = df.A.sum()` depends on column A only."""
    cells(ip, ("c1", FRAME), ("c2", "m = df.A.sum()"), ("c3", "print(m)"))
    cells(ip, ("c4", "df['B'] = 0.0"))
    assert "m" not in stale_symbols()
    assert nbsight.status()["stale_cells"] == []


def test_a_reader_of_df_a_is_stale_after_df_bracket_a_changes(ip: InteractiveShell) -> None:
    """Definition 1: `df.A` and `df['A']` name the same column."""
    cells(ip, ("c1", FRAME), ("c2", "m = df.A.sum()"), ("c3", "print(m)"))
    cells(ip, ("c4", "df['A'] = df['A'] * 2"))
    assert "m" in stale_symbols()
    assert nbsight.status()["stale_cells"] == ["c3"]


WIENER = (
    "import numpy as np\n"
    "import pandas as pd\n"
    "def wiener(tmax, n):\n"
    "    # Return one realization of a Wiener process\n"
    "    # with n steps and a max time of tmax.\n"
    "    times = np.linspace(0, tmax, n)\n"
    "    difference = np.diff(times)\n"
    "    process = np.random.normal(0, difference**.5)\n"
    "    process = np.cumsum(process)\n"
    "    return (times, np.insert(process, 0, 0))"
)
W2, W3 = "t, w = wiener(1.0, 1000)", "t, W = wiener(1.0, 1000)"
W4 = "data = pd.DataFrame({'time': t, 'W': w})"
W4_FIXED = "data = pd.DataFrame({'time': t, 'W': W})"


def test_section_6_6_each_rerun_of_1_3_4_warns_about_w(ip: InteractiveShell) -> None:
    """Section 6.6: the user edits the call cell from `t, w` ([2]) to `t, W`
    ([3]), plots `w` ([4]), re-runs 3 and 4, then re-runs 1, 3 and 4 about 20
    times, each time plotting the old `w`. After re-running cell 1, nbsafety
    shows the call cell fresh and the plot cell stale; after re-running the
    call cell the plot cell stays stale, its warning naming `w` (latest
    update in cell 2), which depends on the old `wiener`. Editing the plot
    cell to read `W` ends it."""
    cells(ip, ("c1", WIENER), ("c2", W2), ("c2", W3), ("c3", W4), ("c2", W3), ("c3", W4))
    assert nbsight.last_warning("c3") == []
    for _ in range(3):
        cells(ip, ("c1", WIENER))
        status = nbsight.status()
        assert status["fresh_cells"] == ["c2"] and status["stale_cells"] == ["c3"], status
        assert status["refresher_cells"] == ["c2"]
        cells(ip, ("c2", W3))
        assert nbsight.status()["stale_cells"] == ["c3"]
        stale = nbsight.why("c3")["stale"]
        assert [s["symbol"] for s in stale] == ["w"]
        assert stale[0]["set_by"] == "c2"
        assert stale[0]["updated_ancestor"]["symbol"] == "wiener"
        assert stale[0]["updated_ancestor"]["cell"] == "c1"
        cells(ip, ("c3", W4))
        assert nbsight.last_warning("c3") == ["w"]
    nbsight.sync_notebook([("c1", WIENER), ("c2", W3), ("c3", W4_FIXED)])
    status = nbsight.status()
    assert status["stale_cells"] == [] and status["fresh_cells"] == ["c3"], status
    cells(ip, ("c3", W4_FIXED))
    assert nbsight.last_warning("c3") == []


def test_section_6_5_a_generator_cell_runs_as_python_does(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    """Section 6.5: memoizing kernels fail on `y = (i + 2 for i in
    range(10))` then `print(list(y))` run twice after an edit; nbsafety just
    runs Python: the second run prints an exhausted generator."""
    cells(ip, ("c1", "y = (i + 2 for i in range(10))"), ("c3", "print(list(y))"))
    cells(ip, ("c1", "y = (i + 3 for i in range(10))"))
    status = nbsight.status()
    assert status["fresh_cells"] == ["c3"] and status["stale_cells"] == []
    capsys.readouterr()
    cells(ip, ("c3", "print(list(y))"), ("c3", "print(list(y))"))
    assert capsys.readouterr().out == f"{list(range(3, 13))}\n[]\n"


def test_section_6_5_a_saved_copy_survives_the_other_universe(ip: InteractiveShell) -> None:
    """Section 6.5's multiverse analysis: the user saves `df_saved =
    df.copy()`, changes cell 1 to the second file and re-runs the cells
    below by hand, stopping before the copy. nbsight re-runs nothing (warn
    mode), the copy keeps the first universe (stale, and read by no cell),
    its cell is fresh, and the latest run of cell 1 reaches cells 1-4 only
    (cells 2 and 3 are fresh too: cell 4 rewrote the `df` they read)."""
    Path("universe1.csv").write_text("col1,col2,col3\n1,2,x\n1,3,y\n2,,z\n")
    Path("universe2.csv").write_text("col1,col2,col3\n5,6,x\n7,8,y\n7,9,z\n8,1,w\n")
    c2 = "df = df.dropna()[['col1', 'col2']]"
    c3 = "df = df.rename(columns={'col1': 'a', 'col2': 'b'})"
    c4 = "df = df.merge(df.groupby('a').sum().reset_index(), on='a', how='left')"
    cells(
        ip,
        ("c1", "import pandas as pd\ndf = pd.read_csv('universe1.csv')"),
        ("c2", c2),
        ("c3", c3),
        ("c4", c4),
        ("c5", "df_saved = df.copy()"),
        ("c1", "import pandas as pd\ndf = pd.read_csv('universe2.csv')"),
        ("c2", c2),
        ("c3", c3),
        ("c4", c4),
    )
    assert len(ip.user_ns["df_saved"]) == 2 and len(ip.user_ns["df"]) == 4
    status = nbsight.status()
    assert status["stale_cells"] == [] and status["stale_symbols"] == ["df_saved"], status
    assert status["fresh_cells"] == ["c2", "c3", "c5"]
    assert nbsight.forward_slice("c1") == ["c1", "c2", "c3", "c4"]


# ==========================================================================
# NBSlicer (seed 004)
# ==========================================================================


def test_nbslicer_figure1_read_and_write_sets_give_the_slices(ip: InteractiveShell) -> None:
    """Figure 1: one statement a cell; the sliced cell is the `X, y` split.
    Its backward slice is pd, df and itself; its forward slice the cells
    that read X or y (and A, built from X). Calls to numpy do not write `np`
    (no edge from np to np), so a later `np.zeros` needs only the import."""
    Path("housing.csv").write_text("x,z,target\n1,2,3\n2,1,5\n3,4,7\n4,3,10\n")
    cells(
        ip,
        ("c1", "import numpy as np"),
        ("c2", "import pandas as pd"),
        ("c3", "df = pd.read_csv('housing.csv').values"),
        ("c4", "X, y = df[:, 0], df[:, -1]"),
        ("c5", "X = np.expand_dims(X, 1)"),
        ("c6", "s = (df.shape[0], 1)"),
        ("c7", "A = np.hstack((np.ones(s), X))"),
        ("c8", "rtn = np.linalg.lstsq(A, y, rcond=None)"),
        ("c9", "z = np.zeros(2)"),
    )
    assert nbsight.backward_slice("c4") == ["c2", "c3", "c4"]
    assert nbsight.forward_slice("c4") == ["c4", "c5", "c7", "c8"]
    assert nbsight.backward_slice("c6") == ["c2", "c3", "c6"]
    assert nbsight.forward_slice("c6") == ["c6", "c7", "c8"]
    assert nbsight.backward_slice("c8") == ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"]
    assert nbsight.backward_slice("c9") == ["c1", "c9"]
    assert nbsight.forward_slice("c1") == ["c1", "c5", "c7", "c8", "c9"]


def test_nbslicer_lst_a_new_list_stales_what_read_its_element(ip: InteractiveShell) -> None:
    """Section 3.1's `lst` lines as cells: `lst[2]` depends on `lst`, so line
    4's new list makes line 3's `y` stale (and line 3 fresh, and line 2,
    which reads `lst` to set its element), while line 2's `lst[3] = 42`
    never touched it."""
    cells(
        ip,
        ("c1", "lst = [1, 2, 3, 4, 5]"),
        ("c2", "lst[3] = 42"),
        ("c3", "y = lst[2] + 7"),
        ("c4", "print(y)"),
        ("c2", "lst[3] = 43"),
    )
    assert stale_symbols() == set()
    cells(ip, ("c5", "lst = [6, 7, 8, 9, 10]"))
    assert "y" in stale_symbols()
    status = nbsight.status()
    assert status["stale_cells"] == ["c4"]
    assert status["fresh_cells"] == ["c2", "c3"] and status["refresher_cells"] == ["c3"]


F_OF_G = "def f():\n    return lst\ndef g():\n    return 2"


def test_nbslicer_figure2_f_of_g_slice(ip: InteractiveShell, tmp_path: Path) -> None:
    """Figure 2 (reconstructed): `f()` returns `lst`, `g()` returns 2; the
    run resolves `f()[g()]` to `lst[2]`, so the slice leaves out the cell
    that set `lst[3]`."""
    cells(ip, ("c1", "lst = [1, 2, 3, 4, 5]"), ("c2", F_OF_G), ("c3", "lst[3] = 42"))
    displayed = cell(ip, "c4", "x = f()[g()]\nx")
    assert displayed == "3"
    assert nbsight.backward_slice("c4") == ["c1", "c2", "c4"]
    reproduces(ip, "c4", "3", tmp_path)


def test_nbslicer_figure2_f_of_g_reads_one_element(ip: InteractiveShell) -> None:
    """Figure 2 (reconstructed): `x = f()[g()]` read `lst[2]`: a new `lst[4]`
    leaves `x` alone, a new `lst[2]` makes it stale."""
    cells(ip, ("c1", "lst = [1, 2, 3, 4, 5]"), ("c2", F_OF_G), ("c4", "x = f()[g()]"))
    cells(ip, ("c5", "print(x)"), ("c6", "lst[4] = 0"))
    assert "x" not in stale_symbols()
    cells(ip, ("c7", "lst[2] = 0"))
    assert "x" in stale_symbols()
    assert nbsight.status()["stale_cells"] == ["c5"]


def test_nbslicer_a_runtime_index_slice(ip: InteractiveShell, tmp_path: Path) -> None:
    """Section 3.1: `x = lst[y]` with y = 2 at run time reads `lst[2]`; the
    cell that set `lst[3]` is not in the slice."""
    cells(ip, ("c1", "lst = [1, 2, 3, 4, 5]"), ("c2", "y = 2"), ("c3", "lst[3] = 42"))
    assert cell(ip, "c4", "x = lst[y]\nx") == "3"
    assert nbsight.backward_slice("c4") == ["c1", "c2", "c4"]
    reproduces(ip, "c4", "3", tmp_path)


def test_nbslicer_a_runtime_index_reads_one_element(ip: InteractiveShell) -> None:
    """Section 3.1: `x = lst[y]` with y = 2: a new `lst[4]` leaves `x` alone,
    a new `lst[2]` makes it stale."""
    cells(ip, ("c1", "lst = [1, 2, 3, 4, 5]"), ("c2", "y = 2"), ("c4", "x = lst[y]"))
    cells(ip, ("c5", "print(x)"), ("c6", "lst[4] = 0"))
    assert "x" not in stale_symbols()
    cells(ip, ("c7", "lst[2] = 0"))
    assert "x" in stale_symbols()


BRANCH = "if a > 0:\n    c = a\nelse:\n    c = b"


def test_nbslicer_section_2_1_a_branch_not_taken_is_not_in_the_slice(
    ip: InteractiveShell, tmp_path: Path
) -> None:
    """Section 2.1 (program reconstructed): a cell holding an `if` is sliced
    whole, but only the branch that ran brings its reads in: `b`'s cell is
    not in the slice of the cell that shows `c`."""
    cells(ip, ("c1", "a = 1"), ("c2", "b = 2"), ("c3", BRANCH))
    assert cell(ip, "c4", "c") == "1"
    assert nbsight.backward_slice("c4") == ["c1", "c3", "c4"]
    assert nbsight.forward_slice("c2") == ["c2"]
    reproduces(ip, "c4", "1", tmp_path)


TRACE_ONCE = "for i in range(3):\n    x[i] = i * k"


def test_nbslicer_trace_once_keeps_later_iterations_in_the_slice(
    ip: InteractiveShell, tmp_path: Path
) -> None:
    """Section 3.3 (loop reconstructed): tracing the loop body once resolves
    `x[0]` only; `print(x[1])` must still have the loop in its slice (the
    paper's option (i); option (ii) would lose it)."""
    cells(ip, ("c1", "x = [0, 0, 0]"), ("c2", "k = 10"), ("c3", TRACE_ONCE))
    assert cell(ip, "c4", "x[1]") == "10"
    assert nbsight.backward_slice("c4") == ["c1", "c2", "c3", "c4"]
    reproduces(ip, "c4", "10", tmp_path)


def test_nbslicer_trace_once_later_elements_go_stale(ip: InteractiveShell) -> None:
    """Section 3.3: `x[1]`, written in the loop's second iteration, depends on
    `k`; a new `k` makes its reader stale. The loop's cell only stores into
    `x` (as ipyflow has it, storing into a stale container is not a stale
    read), and re-running it is the advice that refreshes the reader."""
    cells(
        ip,
        ("c1", "x = [0, 0, 0]"),
        ("c2", "k = 10"),
        ("c3", TRACE_ONCE),
        ("c4", "y1 = x[1]"),
        ("c5", "k = 20"),
    )
    assert "y1" in stale_symbols()
    status = nbsight.status()
    assert status["stale_cells"] == ["c4"]
    # Definition 10: `x = [0, 0, 0]` kills the stale `x` that c4 reads.
    assert status["refresher_cells"] == ["c1"]
    assert nbsight.why("c4")["rerun"] == ["c3"]
    cells(ip, ("c3", TRACE_ONCE), ("c4", "y1 = x[1]"))
    assert nbsight.status()["stale_cells"] == []


LOOP_BRANCH = (
    "for i in range(3):\n"
    "    if i == 0:\n"
    "        total = a\n"
    "    else:\n"
    "        total = total + b"
)


def test_nbslicer_a_branch_first_taken_in_a_later_iteration(
    ip: InteractiveShell, tmp_path: Path
) -> None:
    """Section 3.3: a branch not taken in the first iteration still counts
    when a later one takes it: `total` depends on `b`."""
    cells(ip, ("c1", "a = 1"), ("c2", "b = 2"), ("c3", LOOP_BRANCH))
    assert cell(ip, "c4", "total") == "5"
    assert nbsight.backward_slice("c4") == ["c1", "c2", "c3", "c4"]
    reproduces(ip, "c4", "5", tmp_path)
    cells(ip, ("c5", "b = 3"))
    assert "total" in stale_symbols()
    assert "c4" in nbsight.status()["stale_cells"]


def test_nbslicer_a_loop_that_sets_before_reading_is_fresh_not_stale(
    ip: InteractiveShell,
) -> None:
    """The loop's cell never reads the `total` it finds (the first iteration
    sets it, as the seed notes' CRABS `count` example): after a new `b` it
    is fresh, not stale, and only the cell showing `total` is stale."""
    cells(ip, ("c1", "a = 1"), ("c2", "b = 2"), ("c3", LOOP_BRANCH), ("c4", "print(total)"))
    cells(ip, ("c5", "b = 3"))
    status = nbsight.status()
    assert status["stale_cells"] == ["c4"]
    assert status["fresh_cells"] == ["c3"]


DROPNA_FRAME = "import pandas as pd\ndf = pd.DataFrame({'A': [1.0, None, 3.0]})"


@pytest.mark.parametrize(
    ("flag", "expected_slice", "length"),
    [
        ("False", ["c1", "c4"], "3"),
        ("True", ["c1", "c2", "c3", "c4"], "2"),
    ],
    ids=["inplace-false", "inplace-true"],
)
def test_nbslicer_dropna_inplace_decided_at_run_time(
    ip: InteractiveShell, tmp_path: Path, flag: str, expected_slice: list[str], length: str
) -> None:
    """Section 3.3 (snippet reconstructed): whether `dropna(inplace=...)`
    changes `df` is known only from its run (None returned or not); with a
    variable flag, the slice of `len(df)` holds the dropna cell (and the
    flag's) exactly when it was in place."""
    cells(
        ip,
        ("c1", DROPNA_FRAME),
        ("c2", f"inplace = {flag}"),
        ("c3", "df.dropna(inplace=inplace);"),
    )
    assert cell(ip, "c4", "len(df)") == length
    assert nbsight.backward_slice("c4") == expected_slice
    reproduces(ip, "c4", length, tmp_path)


def test_nbslicer_dropna_in_place_stales_readers_a_copy_does_not(ip: InteractiveShell) -> None:
    """Section 3.3: a call that returns a value (`df.dropna()`) changes
    nothing; one that returns None (`inplace=True`) changes `df`."""
    cells(
        ip,
        ("c1", DROPNA_FRAME),
        ("c2", "n = len(df)"),
        ("c3", "print(n)"),
        ("c4", "copy = df.dropna()"),
    )
    assert stale_symbols() == set()
    cells(ip, ("c5", "df.dropna(inplace=True)"))
    assert "n" in stale_symbols()
    status = nbsight.status()
    assert status["stale_cells"] == ["c3"] and status["fresh_cells"] == ["c2", "c4"]


ELEMENTS = [("c1", "lst = [10, 20, 30, 40]"), ("c2", "a = lst[0]"), ("c3", "c = lst[1]"), ("c4", "b = lst[2]")]


def test_nbslicer_list_insert_shifts_later_element_readers(ip: InteractiveShell) -> None:
    """Figure 3's ListInsert handler: `lst.insert(1, 15)` leaves `lst[0]`
    alone and shuffles 20, 30 and 40 forward to `lst[2]` to `lst[4]`. As in
    ipyflow (NBSlicer's implementation), the moved element symbols are
    updated: what was computed from them is stale (re-running its cell
    reads another element), what read `lst[0]` is not; the cells reading
    the moved positions are fresh."""
    cells(ip, *ELEMENTS, ("c5", "n = len(lst)"), ("c6", "lst.insert(1, 15)"))
    assert stale_symbols() & {"a", "b", "c", "n"} == {"b", "c", "n"}
    fresh = nbsight.status()["fresh_cells"]
    assert "c2" not in fresh and "c3" in fresh and "c4" in fresh and "c5" in fresh
    # Re-running the readers of the moved positions refreshes them.
    cells(ip, ("c3", "c = lst[1]"), ("c4", "b = lst[2]"), ("c5", "n = len(lst)"))
    assert stale_symbols() & {"a", "b", "c", "n"} == set()
    assert ip.user_ns["c"] == 15 and ip.user_ns["b"] == 20


@pytest.mark.parametrize(
    "removal",
    [
        "lst.pop(1)",
        "del lst[1]",
        "lst.remove(20)",
        "v = 20\nlst.remove(v)",
    ],
)
def test_nbslicer_list_removal_shifts_later_element_readers(
    ip: InteractiveShell, removal: str
) -> None:
    """Figure 3's ListPop and ListRemove handlers (and `del lst[i]`):
    removing 20 moves 30 and 40 down one place; what was computed from them
    is stale, the reader of `lst[0]` is not; a later write to `lst[1]`
    (30's new place) reaches the symbol that holds 30."""
    cells(
        ip,
        ("c1", "lst = [10, 20, 30, 40]"),
        ("c2", "a = lst[0]"),
        ("c3", "b = lst[2]"),
        ("c4", "d = lst[3]"),
        ("c5", removal),
    )
    assert stale_symbols() & {"a", "b", "d"} == {"b", "d"}
    fresh = nbsight.status()["fresh_cells"]
    # `lst[3]` is gone: its reader would fail, it is not fresh.
    assert "c2" not in fresh and "c3" in fresh and "c4" not in fresh
    cells(ip, ("c3", "b = lst[1]"), ("c4", "d = lst[2]"))
    assert stale_symbols() & {"a", "b", "d"} == set()
    cells(ip, ("c6", "lst[1] = 0"))
    assert stale_symbols() & {"a", "b", "d"} == {"b"}


@pytest.mark.parametrize("growth", ["lst.append(40)", "lst.extend([40, 50])"])
def test_nbslicer_append_and_extend_leave_element_readers_alone(
    ip: InteractiveShell, growth: str
) -> None:
    """Figure 3's ListAppend and ListExtend: the existing elements keep their
    places; only readers of the whole list are affected."""
    cells(
        ip,
        ("c1", "lst = [10, 20, 30]"),
        ("c2", "a = lst[0]"),
        ("c3", "b = lst[2]"),
        ("c4", "n = len(lst)"),
        ("c5", "print(a, b, n)"),
        ("c6", growth),
    )
    assert stale_symbols() & {"a", "b", "n"} == {"n"}
    cells(ip, ("c4", "n = len(lst)"), ("c7", "lst[3] = 0"))
    assert stale_symbols() & {"a", "b"} == set()


def test_nbslicer_reading_a_file_changes_its_handle(ip: InteractiveShell, tmp_path: Path) -> None:
    """Figure 3: `IOBase.read` is `Mutate[self]` although it returns a value:
    the second read's slice holds the first."""
    Path("data.txt").write_text("hello world")
    cells(ip, ("c1", "fh = open('data.txt')"), ("c2", "first = fh.read(5)"))
    assert cell(ip, "c3", "rest = fh.read()\nrest") == "' world'"
    assert nbsight.backward_slice("c3") == ["c1", "c2", "c3"]
    reproduces(ip, "c3", "' world'", tmp_path)
    cells(ip, ("c4", "fh.close()"))


def test_nbslicer_a_change_inside_an_inner_list_freshens_its_containers_readers(
    ip: InteractiveShell,
) -> None:
    """Figure 3 on nested lists: `outer[0].append(5)` changes `outer`'s
    content; `outer` is newer, not stale, so the cell that read it is fresh
    (and a refresher), and what it computed is stale."""
    cells(
        ip,
        ("c1", "outer = [[1, 2], [3, 4]]"),
        ("c2", "flat = [v for row in outer for v in row]"),
        ("c3", "print(flat)"),
        ("c4", "outer[0].append(5)"),
    )
    stale = stale_symbols()
    assert "flat" in stale and "outer" not in stale
    status = nbsight.status()
    assert status["stale_cells"] == ["c3"]
    assert status["fresh_cells"] == ["c2"]
    assert status["refresher_cells"] == ["c2"]
    assert nbsight.why("c2")["stale"] == []


def test_nbslicer_nested_elements_are_separate_symbols(ip: InteractiveShell) -> None:
    """Field granularity one level down: `outer[1][0] = 7` stales what read
    `outer[1]`, not what read `outer[0][0]`."""
    cells(
        ip,
        ("c1", "outer = [[1, 2], [3, 4]]"),
        ("c2", "first = outer[0][0]"),
        ("c3", "second = sum(outer[1])"),
        ("c4", "outer[1][0] = 7"),
    )
    stale = stale_symbols()
    assert "second" in stale and "first" not in stale
    assert "outer" not in stale and "outer[1]" not in stale


def test_nbslicer_ordereddict_subclass_append_on_a_subscript(
    ip: InteractiveShell, tmp_path: Path
) -> None:
    """Section 4.3's case study (reconstructed): a subclass of OrderedDict,
    and an append on a subscripted value; the print's slice holds every
    cell (the static slicer lost the append's)."""
    cells(
        ip,
        ("c1", "from collections import OrderedDict\nclass Registry(OrderedDict):\n    pass"),
        ("c2", "reg = Registry()\nreg['k'] = []"),
        ("c3", "reg['k'].append(1)"),
        ("c4", "print(reg['k'])"),
    )
    assert nbsight.backward_slice("c4") == ["c1", "c2", "c3", "c4"]
    assert nbsight.forward_slice("c3") == ["c3", "c4"]
    reproduces(ip, "c4", "[1]", tmp_path)


def test_nbslicer_reactive_reruns_only_readers_of_the_changed_element(
    ip: InteractiveShell,
) -> None:
    """Section 4.5 with field granularity: after `lst[3] = 42` only the
    reader of `lst[3]` re-runs, not the reader of `lst[2]`."""
    nbsight.set_mode("reactive")
    cells(
        ip,
        ("c1", "lst = [1, 2, 3, 4, 5]"),
        ("c2", "y = lst[2] + 7"),
        ("c3", "z = lst[3] * 2"),
        ("c4", "lst[3] = 42"),
    )
    assert nbsight.last_reactive_run() == ["c3"]
    assert (ip.user_ns["y"], ip.user_ns["z"]) == (10, 84)
    assert nbsight.status()["stale_cells"] == []
