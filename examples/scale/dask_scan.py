"""`nbsight scan` on Dask: the same rows, on a cluster.

    python examples/scale/dask_scan.py 'corpus/*.parquet' OUT [--workers 2]
    python examples/scale/dask_scan.py 's3://bucket/notebooks/*.parquet' s3://bucket/out \
        --scheduler tcp://scheduler:8786

Each partition of the Parquet table (columns `id` and `content`) is one
task: `nbsight.scan_tables` analyses its notebooks in Rust on the worker's
cores and the task writes its rows as `OUT/status/part-N.parquet` and
`OUT/findings/part-N.parquet` (any fsspec URL: shared storage on a
cluster). `pyarrow.parquet.read_table("OUT/status")` then holds a row per
notebook, as `nbsight scan`'s `OUT/status.parquet` does. See docs/scale.md.
"""

from __future__ import annotations

import argparse
from typing import Any

import dask
import dask.dataframe as dd
import fsspec
import pyarrow.parquet as pq

import nbsight


def scan_partition(part: Any, number: int, out: str, column: str, id_column: str) -> int:
    """Scans one partition (a pandas DataFrame) and writes its tables; the
    number of notebooks."""
    tables = nbsight.scan_tables(part, column=column, id_column=id_column)
    fs, root = fsspec.core.url_to_fs(out)
    for name, table in tables.items():
        fs.makedirs(f"{root}/{name}", exist_ok=True)
        pq.write_table(table, f"{root}/{name}/part-{number:05d}.parquet", filesystem=fs)
    return int(tables["status"].num_rows)


def scan(inputs: str, out: str, column: str = "content", id_column: str = "id") -> int:
    """Scans the Parquet files `inputs` into `out` on the current Dask
    scheduler; the number of notebooks."""
    frame = dd.read_parquet(inputs, columns=[id_column, column])
    tasks = [
        dask.delayed(scan_partition)(part, number, out, column, id_column)
        for number, part in enumerate(frame.to_delayed())
    ]
    return sum(dask.compute(*tasks))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", help="Parquet files (a glob or folder, any fsspec URL)")
    parser.add_argument("out", help="the output folder (shared storage on a cluster)")
    parser.add_argument("--column", default="content")
    parser.add_argument("--id-column", default="id")
    parser.add_argument("--scheduler", help="a Dask scheduler address (default: a local cluster)")
    parser.add_argument("--workers", type=int, default=2, help="local cluster's workers")
    args = parser.parse_args()
    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        client = Client(args.scheduler)
    else:
        client = Client(LocalCluster(n_workers=args.workers, threads_per_worker=1))
    with client:
        count = scan(args.inputs, args.out, args.column, args.id_column)
    print(f"scanned {count} notebooks into {args.out}")


if __name__ == "__main__":
    main()
