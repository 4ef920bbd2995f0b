"""Run-time subscripts (`lst[i]` in a loop, `d[k]`, `lst[x] += 1`): the
tracer reads the index's value where the statement runs, so the statement
reads or sets those elements only; where it cannot know every key (a value
that is not an `int` or `str`, a loop longer than its budget, a line that
binds the index itself) the subscript stays a read or change of the whole
container. The papers' and ipyflow's examples of the same thing are in
test_papers.py and test_conformance.py; these take the edges.
"""

from __future__ import annotations

from IPython.core.interactiveshell import InteractiveShell

import nbsight
from conftest import cells, stale_symbols


def parents(symbol: str) -> set[str]:
    return {p["symbol"] for p in nbsight.deps(symbol)["parents"]}


def test_a_string_key_reads_that_entry(loaded: InteractiveShell) -> None:
    cells(loaded, ("c1", "d = {'a': 1, 'b': 2}"), ("c2", "k = 'a'"), ("c3", "v = d[k]"))
    assert parents("v") >= {"d['a']", "k"}
    cells(loaded, ("c4", "d['b'] = 20"))
    assert "v" not in stale_symbols()
    cells(loaded, ("c5", "d['a'] = 10"))
    assert "v" in stale_symbols()


def test_a_store_through_a_name_sets_that_element(loaded: InteractiveShell) -> None:
    cells(loaded, ("c1", "lst = [0, 1, 2]"), ("c2", "i = 1"), ("c3", "lst[i] = 5"))
    cells(loaded, ("c4", "a = lst[0]"), ("c5", "b = lst[1]"))
    assert nbsight.backward_slice("c4") == ["c1", "c4"]
    assert nbsight.backward_slice("c5") == ["c1", "c2", "c3", "c5"]


def test_a_while_loop_reads_each_index_it_took(loaded: InteractiveShell) -> None:
    cells(
        loaded,
        ("c1", "lst = list(range(10))"),
        ("c2", "i = 0\ns = 0\nwhile i < 3:\n    s += lst[i]\n    i += 1"),
        ("c3", "lst[5] = 0"),
    )
    assert "s" not in stale_symbols()
    cells(loaded, ("c4", "lst[2] = 0"))
    assert "s" in stale_symbols()


def test_an_index_that_is_no_int_or_str_reads_the_whole_container(loaded: InteractiveShell) -> None:
    cells(loaded, ("c1", "d = {(1, 2): 'x', (3, 4): 'y'}"), ("c2", "k = (1, 2)"), ("c3", "v = d[k]"))
    cells(loaded, ("c4", "d[(3, 4)] = 'z'"))
    assert "v" in stale_symbols()


def test_a_loop_longer_than_the_budget_reads_the_whole_container(loaded: InteractiveShell) -> None:
    cells(
        loaded,
        ("c1", "lst = list(range(3000))"),
        ("c2", "s = 0\nfor i in range(2000):\n    s += lst[i]"),
        ("c3", "lst[2500] = 0"),
    )
    # Not every key was read: `s` counts as computed from all of `lst`.
    assert "s" in stale_symbols()


def test_a_line_that_binds_its_index_reads_the_whole_container(loaded: InteractiveShell) -> None:
    cells(loaded, ("c1", "lst = [0, 1, 2]"), ("c2", "i = 0; v = lst[i]"), ("c3", "lst[2] = 7"))
    assert "v" in stale_symbols()


def test_a_dict_display_with_a_name_key_makes_that_entry(loaded: InteractiveShell) -> None:
    cells(
        loaded,
        ("c1", "k = 'a'\nx = 1\ny = 2"),
        ("c2", "d = {k: x, 'b': y}"),
        ("c3", "va = d['a']"),
        ("c4", "vb = d['b']"),
        ("c5", "y = 3"),
    )
    assert {"va", "vb"} & stale_symbols() == {"vb"}



def test_remove_finds_the_index_without_running_user_code(loaded: InteractiveShell) -> None:
    """`lst.remove(v)` removes at the index of the first element equal to
    `v`: the tracer compares built-in values only, so a user object before
    it (whose `__eq__` it must not call) leaves the index unknown and the
    whole list changed."""
    cells(
        loaded,
        ("c0", "seen = []\nclass E:\n    def __eq__(self, other):\n        seen.append(other)\n        return False"),
        ("c1", "lst = [E(), 20, 30]"),
        ("c2", "a = lst[0]"),
        ("c3", "lst.remove(20)"),
    )
    assert loaded.user_ns["seen"] == [20]
    assert "a" in stale_symbols()
    cells(loaded, ("c4", "lst = [10, 20, 30]"), ("c5", "a = lst[0]"), ("c6", "v = 20"))
    cells(loaded, ("c7", "lst.remove(v)"))
    assert "a" not in stale_symbols()
