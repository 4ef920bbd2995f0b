"""`nbsight scan` on Ray Data: the same rows, on a Ray cluster.

    python examples/scale/ray_scan.py corpus/ OUT
    RAY_ADDRESS=ray://head:10001 python examples/scale/ray_scan.py s3://bucket/notebooks s3://bucket/out

`ray.data.read_parquet` reads the table (columns `id` and `content`);
`map_batches` runs `nbsight.scan_tables` on each batch (in Rust, on the
worker's cores) and returns its status and findings rows in one Arrow table
told apart by a `table` column; each table is then written with
`write_parquet` to `OUT/status/` and `OUT/findings/`, which
`pyarrow.parquet.read_table` reads as `nbsight scan`'s `OUT/status.parquet`
and `OUT/findings.parquet`. See docs/scale.md.
"""

from __future__ import annotations

import argparse
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import ray

import nbsight

# The columns of each table (`nbsight.scan_tables` of an empty batch).
SCHEMAS = {name: t.schema for name, t in nbsight.scan_tables([]).items()}


def scan_batch(batch: pa.Table, column: str, id_column: str) -> pa.Table:
    """The status and findings rows of a batch, in one table."""
    tables = nbsight.scan_tables(batch, column=column, id_column=id_column)
    tagged = [
        t.append_column("table", pa.array([name] * t.num_rows, pa.string()))
        for name, t in tables.items()
    ]
    return pa.concat_tables(tagged, promote_options="permissive")


def only(batch: pa.Table, name: str) -> pa.Table:
    """The rows of table `name`, with its own columns and types."""
    rows = batch.filter(pc.equal(batch["table"], name))
    schema = SCHEMAS[name]
    return rows.select(schema.names).cast(schema)


def scan(inputs: str, out: str, column: str = "content", id_column: str = "id") -> int:
    rows: Any = ray.data.read_parquet(inputs, columns=[id_column, column]).map_batches(
        scan_batch,
        fn_kwargs={"column": column, "id_column": id_column},
        batch_format="pyarrow",
    )
    rows = rows.materialize()
    for name in SCHEMAS:
        rows.map_batches(only, fn_kwargs={"name": name}, batch_format="pyarrow").write_parquet(
            f"{out}/{name}"
        )
    return int(rows.filter(expr="table == 'status'").count())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", help="Parquet files or a folder of them (any URL Ray reads)")
    parser.add_argument("out", help="the output folder (shared storage on a cluster)")
    parser.add_argument("--column", default="content")
    parser.add_argument("--id-column", default="id")
    args = parser.parse_args()
    ray.init()
    count = scan(args.inputs, args.out, args.column, args.id_column)
    print(f"scanned {count} notebooks into {args.out}")


if __name__ == "__main__":
    main()
