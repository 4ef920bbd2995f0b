"""The live API (a contract: other programs drive nbsight by these names).

Every function acts on the nbsight loaded into the running IPython shell
(``%load_ext nbsight``). Cells are identified by the ``cell_id`` Jupyter
front ends send (a terminal run by its execution count, as a string).
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

from nbsight._types import Deps, Provenance, Status, Why

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

    from nbsight._live import Live

_loaded: dict[int, Live] = {}


def _current() -> Live:
    from IPython import get_ipython

    shell = get_ipython()
    live = _loaded.get(id(shell)) if shell is not None else None
    if live is None:
        raise RuntimeError("nbsight is not loaded in this shell: run %load_ext nbsight")
    return live


def load(shell: InteractiveShell) -> Live | None:
    """Installs nbsight in `shell`: the new session, `None` when it was loaded."""
    from nbsight._live import Live

    if id(shell) in _loaded:
        return None
    live = Live(shell)
    live.install()
    _loaded[id(shell)] = live
    return live


def unload(shell: InteractiveShell) -> None:
    live = _loaded.pop(id(shell), None)
    if live is not None:
        live.uninstall()


def sync_notebook(cells: list[tuple[str, str]]) -> None:
    """The front end's view of the notebook: ``(cell_id, source)`` in order,
    including cells never run and cells edited but not re-run."""
    view = [(str(i), str(s)) for i, s in cells]
    seen: set[str] = set()
    for cell_id, _ in view:
        if cell_id in seen:
            raise ValueError(f"sync_notebook: cell id {cell_id!r} appears more than once")
        seen.add(cell_id)
    _current().sync_notebook(view)


def status() -> Status:
    """``stale_cells``, ``fresh_cells``, ``refresher_cells`` (cell ids in
    notebook order) and ``stale_symbols``."""
    result: Status = _current().session.status()
    return result


def last_warning(cell_id: str) -> list[str]:
    """The stale symbols the warning before that cell's latest run named."""
    result: list[str] = _current().session.last_warning(str(cell_id))
    return result


def set_mode(mode: str) -> None:
    """``"warn"`` (the default), ``"block"``, ``"reactive"`` (warn, and after
    each run re-run the cells that read what it changed) or ``"off"``."""
    _current().set_mode(mode)


def why(cell_id: str) -> Why:
    """The stale symbols the cell reads, each with the cell that set it, the
    updated ancestor that made it stale and the cells to re-run, in order."""
    result: Why | None = _current().session.why(str(cell_id))
    if result is None:
        raise KeyError(f"nbsight knows no cell {cell_id!r}")
    return result


def deps(symbol: str) -> Deps:
    """The symbol's lineage: the cell and time it was set, its parents and
    children with their cells and timestamps."""
    result: Deps | None = _current().session.deps(symbol)
    if result is None:
        raise KeyError(f"nbsight knows no symbol {symbol!r}")
    return result


def graph() -> dict[str, Any]:
    """The cell dependency graph of what has run: each code cell (`id`,
    `label`, `code`, `inputs`, `outputs`, `states`), the `flows` between
    cells (`from`, `to`, `symbols`, `superseded` when read from a run its
    cell has made again since) and each cell's `slices` (`backward`,
    `forward`; a cell depends on its backward slice, so `dependencies` is
    empty) (docs/graph.md). What the JupyterLab panel draws."""
    live = _current()
    view: dict[str, Any] = json.loads(live.session.graph_json(live.notebook or "notebook"))
    return view


def backward_slice(cell_id: str) -> list[str]:
    """The cells whose latest executions are in the backward slice of that
    cell's latest execution (the cell included), in notebook order."""
    result: list[str] | None = _current().session.backward_slice(str(cell_id))
    if result is None:
        raise KeyError(f"cell {cell_id!r} has not run since nbsight was loaded")
    return result


def forward_slice(cell_id: str) -> list[str]:
    """The cells whose latest executions depend on that cell's latest
    execution, transitively (the cell included), in notebook order."""
    result: list[str] | None = _current().session.forward_slice(str(cell_id))
    if result is None:
        raise KeyError(f"cell {cell_id!r} has not run since nbsight was loaded")
    return result


def gather(cell_id: str, path: str | os.PathLike[str] | None = None) -> str:
    """A program that reproduces the cell's latest result on a fresh kernel:
    the code its backward slice really ran, in execution order, reduced to
    the statements it needs. A script, or a notebook when `path` ends in
    ``.ipynb``; written to `path` when given."""
    notebook = path is not None and os.fspath(path).endswith(".ipynb")
    text: str | None = _current().session.gather(str(cell_id), notebook)
    if text is None:
        raise KeyError(f"cell {cell_id!r} has not run since nbsight was loaded")
    if path is not None:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    return text


def history_path() -> str | None:
    """The SQLite file the runs are written to (docs/history.md), or None
    when the history is off (``NBSIGHT_HISTORY=off``, ``%nbsight history
    off``, or a file that could not be written)."""
    return _current().session.history_path()


def last_reactive_run() -> list[str]:
    """The cells re-executed (reactive mode) after the latest user run, in order."""
    return list(_current().reactive_run)


def record_provenance(on: bool = True) -> None:
    """Turns value-provenance recording on (or off) for the cells that run
    from now on: nbsight's tracer reads their run-time decisions (which way
    each condition went, how many times each loop turned) from the
    interpreter, so that ``provenance()`` can replay them. The cells' code
    is not changed."""
    if not isinstance(on, bool):
        raise TypeError(f"record_provenance takes True or False, not {type(on).__name__} {on!r}")
    _current().provenance_on = on


def provenance(symbol: str) -> Provenance:
    """The inputs the value at `symbol` (``total``, ``res[0]``, ``d['k']``,
    ``df['a']``) depends on: ``where`` (copied or computed into it) and
    ``why`` (read by the decisions that let it in or kept something out),
    each a list of ``{"cell", "symbol"}`` naming the cell that made the
    input and the path it was first bound to; ``files`` it derives from;
    ``recorded`` (false: the value came from a run not recorded, and is its
    own input); ``followed`` (false: the run was recorded but the replay
    could not follow it, ``reason`` says why; the value is its own input)."""
    if not isinstance(symbol, str):
        raise TypeError(f"provenance takes a symbol's path as a string, not {type(symbol).__name__}")
    try:
        result: Provenance | None = _current().session.provenance(symbol)
    except ValueError as error:  # a path that does not parse (`a[`)
        raise KeyError(f"nbsight knows no value {symbol!r} ({error})") from None
    if result is None:
        raise KeyError(f"nbsight knows no value {symbol!r}")
    return result
