"""`nbsight.scan_batch` and `nbsight.scan_tables`: `nbsight scan`'s analyses
on a batch of notebooks held in memory, for Dask, Ray or any other engine
that hands out Arrow tables (docs/scale.md). The work is in Rust
(crates/nbsight-scan), on every core, with the interpreter released; the
rows are those `nbsight scan` writes for the same notebooks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nbsight import _nbsight

__all__ = ["scan_batch", "scan_tables"]


def _pyarrow() -> Any:
    """pyarrow, imported when a scan is asked for (not with `nbsight`)."""
    try:
        import pyarrow  # type: ignore[import-untyped]
    except ImportError as error:
        raise ImportError(
            "nbsight.scan_batch needs pyarrow: pip install 'nbsight[scale]'"
        ) from error
    return pyarrow


def _ipc_bytes(table: Any) -> bytes:
    pa = _pyarrow()

    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    data: bytes = sink.getvalue().to_pybytes()
    return data


def _read_ipc(data: bytes) -> Any:
    pa = _pyarrow()

    return pa.ipc.open_stream(data).read_all()


def _as_arrow(table: Any) -> Any:
    """A pyarrow.Table of `table` (a Table, a RecordBatch or a pandas
    DataFrame)."""
    pa = _pyarrow()

    if isinstance(table, pa.Table):
        return table
    if isinstance(table, pa.RecordBatch):
        return pa.Table.from_batches([table])
    if hasattr(table, "to_arrow"):  # polars
        return table.to_arrow()
    try:
        import pandas as pd  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - pandas is optional
        pd = None
    if pd is not None and isinstance(table, pd.DataFrame):
        return pa.Table.from_pandas(table, preserve_index=False)
    raise TypeError(
        "scan_batch takes a pyarrow.Table or RecordBatch, a pandas DataFrame, "
        f"or a list of notebook JSON texts, not {type(table).__name__}"
    )


def scan_tables(
    table: Any,
    analysis: str = "check",
    column: str = "content",
    id_column: str | None = None,
    *,
    ids: Sequence[str] | None = None,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] = (),
    timeout: float | None = 60.0,
    threads: int | None = None,
) -> dict[str, Any]:
    """Run `analysis` on every notebook of `table` and return
    `{"status": pyarrow.Table, <the analysis's table>: pyarrow.Table}`, the
    rows `nbsight scan` writes (`status`, and `findings` for `check`).

    `table` is a pyarrow.Table or RecordBatch, a pandas DataFrame, or a
    sequence of nbformat JSON texts (with `ids`, else ids are positions).
    `column` holds each notebook's JSON text; `id_column` the ids (default:
    `id` when there is one, else the row number). `select` and `ignore` pick
    the `check` rules as on the command line; `timeout` is the budget per
    notebook in seconds (None or 0: none); `threads` defaults to every
    core. A bad row gets a status row, never an exception.
    """
    rules = (list(select) if select is not None else None, list(ignore))
    if isinstance(table, Sequence) and not isinstance(table, (str, bytes)):
        texts = [str(t) for t in table]
        status, name, rows = _nbsight.scan_json(
            texts,
            [str(i) for i in ids] if ids is not None else None,
            analysis,
            rules[0],
            rules[1],
            timeout,
            threads,
        )
    else:
        arrow = _as_arrow(table)
        # Only the notebook and id columns cross to Rust (a missing notebook
        # column is reported there, naming the columns).
        names = arrow.column_names
        arrow = arrow.select(
            list(dict.fromkeys(c for c in (column, id_column or "id") if c in names))
        )
        status, name, rows = _nbsight.scan_ipc(
            _ipc_bytes(arrow),
            analysis,
            column,
            id_column,
            rules[0],
            rules[1],
            timeout,
            threads,
        )
    return {"status": _read_ipc(status), name: _read_ipc(rows)}


def scan_batch(
    table: Any,
    analysis: str = "check",
    column: str = "content",
    id_column: str | None = None,
    *,
    output: str | None = None,
    ids: Sequence[str] | None = None,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] = (),
    timeout: float | None = 60.0,
    threads: int | None = None,
) -> Any:
    """`scan_tables`, returning one pyarrow.Table: the analysis's table
    (`findings` for `check`) by default, or the one `output` names
    (`"status"`)."""
    tables = scan_tables(
        table,
        analysis,
        column,
        id_column,
        ids=ids,
        select=select,
        ignore=ignore,
        timeout=timeout,
        threads=threads,
    )
    if output is None:
        return next(t for name, t in tables.items() if name != "status")
    if output not in tables:
        raise ValueError(f"output must be one of {sorted(tables)}, not {output!r}")
    return tables[output]
