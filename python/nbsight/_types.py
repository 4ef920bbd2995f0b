"""The shapes of the live API's answers (`status()`, `why()`, `deps()`,
`provenance()`), as the native module builds them
(crates/nbsight-python/src/live/convert.rs): a contract other programs read.
Cells are named by their ids; `None` where nbsight knows no cell."""

from __future__ import annotations

from typing import TypedDict


class Status(TypedDict):
    """`nbsight.status()`: cell ids in notebook order, and symbols."""

    stale_cells: list[str]
    fresh_cells: list[str]
    refresher_cells: list[str]
    stale_symbols: list[str]


class UpdatedAncestor(TypedDict):
    """The symbol updated since a stale symbol was computed from it."""

    symbol: str
    cell: str | None
    counter: int


class StaleRead(TypedDict):
    """A stale symbol a cell reads."""

    symbol: str
    set_by: str | None
    updated_ancestor: UpdatedAncestor | None
    rerun: list[str]


class Why(TypedDict):
    """`nbsight.why(cell_id)`."""

    cell: str
    stale: list[StaleRead]
    rerun: list[str]


class SymbolRef(TypedDict):
    """A symbol, the cell that set it and when."""

    symbol: str
    cell: str | None
    timestamp: int


class Deps(TypedDict):
    """`nbsight.deps(symbol)`."""

    symbol: str
    cell: str | None
    timestamp: int
    stale: bool
    parents: list[SymbolRef]
    children: list[SymbolRef]


class InputRef(TypedDict):
    """An input: the cell that made it and the path it was bound to."""

    cell: str | None
    symbol: str


class Provenance(TypedDict):
    """`nbsight.provenance(symbol)`."""

    where: list[InputRef]
    why: list[InputRef]
    files: list[str]
    recorded: bool
    followed: bool
    reason: str | None


class PreRun(TypedDict):
    """What `Session.pre_run` says before a cell runs."""

    stale: list[str]
    warning: str | None
    blocked: str | None
