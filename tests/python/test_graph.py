"""The cell dependency graph the JupyterLab panel draws: `nbsight.graph()`
in an in-process IPython shell (the kernel's executions), and the Jupyter
server's `POST /nbsight/graph` answer (`nbsight._jupyter_server.graph_of`,
the static graph of the cells a browser sends)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from IPython.core.interactiveshell import InteractiveShell

import nbsight
from conftest import run
from nbsight._jupyter_server import graph_of


@pytest.fixture
def ip(shell: InteractiveShell) -> Iterator[InteractiveShell]:
    run(shell, "%load_ext nbsight")
    yield shell
    run(shell, "%unload_ext nbsight")


def test_the_kernel_graph_follows_what_ran(ip: InteractiveShell) -> None:
    nbsight.sync_notebook([("c1", "a = 1"), ("c2", "b = a + 1"), ("c3", "c = b * 2"), ("c4", "print(c)"), ("c5", "d = c")])
    for cell_id, source in [("c1", "a = 1"), ("c2", "b = a + 1"), ("c3", "c = b * 2"), ("c4", "print(c)")]:
        assert run(ip, source, cell_id=cell_id).error_in_exec is None
    view = nbsight.graph()
    assert view["origin"] == "kernel"
    assert [c["id"] for c in view["cells"]] == ["c1", "c2", "c3", "c4", "c5"]
    assert [(e["from"], e["to"], e["symbols"]) for e in view["flows"]] == [
        ("c1", "c2", ["a"]),
        ("c2", "c3", ["b"]),
        ("c3", "c4", ["c"]),
    ]
    cells = {c["id"]: c for c in view["cells"]}
    assert cells["c2"]["inputs"] == ["a"] and cells["c2"]["outputs"] == ["b"]
    assert "never-run" in cells["c5"]["states"]
    # The slices are the kernel's own answers.
    assert view["slices"]["c3"] == {
        "backward": nbsight.backward_slice("c3"),
        "forward": nbsight.forward_slice("c3"),
    }
    # The dependencies are the backward slices (not sent twice).
    assert view["dependencies"] == [] and "c1" in view["slices"]["c4"]["backward"]

    # A stale read shows in the states, and the arrow into c2 now comes
    # from a run c1 has made again since: superseded, outside the slices.
    run(ip, "a = 2", cell_id="c1")
    view = nbsight.graph()
    states = {c["id"]: c["states"] for c in view["cells"]}
    assert "stale" in states["c3"], states
    arrows = {(e["from"], e["to"]): e.get("superseded", False) for e in view["flows"]}
    assert arrows[("c1", "c2")] is True and arrows[("c2", "c3")] is False
    assert view["slices"]["c2"]["backward"] == ["c2"]


def test_the_server_answers_the_static_graph() -> None:
    view = json.loads(
        graph_of(
            {
                "path": "work/analysis.ipynb",
                "cells": [["code", "x = 1"], ["markdown", "# Then"], ["code", "y = x + 1"], ["code", "print(y)"]],
            }
        )
    )
    assert view["origin"] == "static" and view["title"] == "work/analysis.ipynb"
    assert [c["id"] for c in view["cells"]] == ["0", "2", "3"]
    assert [(e["from"], e["to"], e["symbols"]) for e in view["flows"]] == [("0", "2", ["x"]), ("2", "3", ["y"])]
    assert view["slices"]["3"]["backward"] == ["0", "2", "3"]


@pytest.mark.parametrize(
    "body",
    [None, [], {"cells": "x"}, {"path": 3, "cells": []}, {"cells": [["code"]]}, {"cells": [["code", 1]]}],
)
def test_the_server_refuses_what_is_not_cells(body: object) -> None:
    with pytest.raises(ValueError):
        graph_of(body)
