"""nbsight: finds hidden-state bugs in Jupyter notebooks and explains where
values come from.

`%load_ext nbsight` in IPython or Jupyter turns on the live mode; the command
line is `nbsight` (or `python -m nbsight`). Everything here is re-exported
from the native module `nbsight._nbsight` (crates/nbsight-python); this file
holds no logic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nbsight._api import (
    backward_slice,
    deps,
    forward_slice,
    gather,
    graph,
    history_path,
    last_reactive_run,
    last_warning,
    provenance,
    record_provenance,
    set_mode,
    status,
    sync_notebook,
    why,
)
from nbsight._nbsight import __version__, cli_main
from nbsight._scan import scan_batch, scan_tables
from nbsight._types import Deps, Provenance, Status, Why

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

__all__ = [
    "Deps",
    "Provenance",
    "Status",
    "Why",
    "__version__",
    "backward_slice",
    "cli_main",
    "deps",
    "forward_slice",
    "gather",
    "graph",
    "history_path",
    "last_reactive_run",
    "last_warning",
    "load_ipython_extension",
    "provenance",
    "record_provenance",
    "scan_batch",
    "scan_tables",
    "set_mode",
    "status",
    "sync_notebook",
    "unload_ipython_extension",
    "why",
]


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """The Jupyter server extension (the JupyterLab panel's static graph)."""
    return [{"module": "nbsight._jupyter_server"}]


def load_ipython_extension(ip: InteractiveShell) -> None:
    """Called by `%load_ext nbsight` and by the kernel `python3-nbsight` at start."""
    from nbsight import _api, _magic

    live = _api.load(ip)
    if live is not None:
        _magic.register_magic(ip, live)


def unload_ipython_extension(ip: InteractiveShell) -> None:
    """Called by `%unload_ext nbsight`."""
    from nbsight import _api

    _api.unload(ip)
