"""`nbsight.scan_batch` / `scan_tables` (issue 35) and the Dask and Ray
pipelines of docs/scale.md (`examples/scale/`), each giving the rows
`nbsight scan` writes for the same Parquet table: a status row per notebook
(bad rows included) and the same findings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import nbsight

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = [
    ROOT / "crates/nbsight-check/tests/fixtures/leakage_suite",
    ROOT / "tests/fixtures/precision",
]


def notebooks() -> tuple[list[str], list[str | None]]:
    """Ids and JSON texts of the fixture notebooks, plus three bad rows."""
    ids: list[str] = []
    texts: list[str | None] = []
    for folder in FIXTURES:
        for path in sorted(folder.glob("*.ipynb")):
            ids.append(f"{folder.name}/{path.name}")
            texts.append(path.read_text(encoding="utf-8"))
    ids += ["broken", "null", "not-a-notebook"]
    texts += ['{"cells": [', None, '{"x": 1}']
    return ids, texts


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The notebooks as two Parquet files (small row groups)."""
    folder = tmp_path_factory.mktemp("corpus")
    ids, texts = notebooks()
    table = pa.table({"id": ids, "content": texts})
    half = table.num_rows // 2
    pq.write_table(table.slice(0, half), folder / "part-0.parquet", row_group_size=9)
    pq.write_table(table.slice(half), folder / "part-1.parquet", row_group_size=9)
    return folder


@pytest.fixture(scope="module")
def scanned(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`nbsight scan` of the corpus (the package's console entry)."""
    out = tmp_path_factory.mktemp("scan") / "out"
    result = subprocess.run(
        [sys.executable, "-m", "nbsight", "scan", str(corpus), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "3 unreadable" in result.stderr
    return out


def rows(table: Any, drop: tuple[str, ...] = ("seconds",)) -> list[tuple[Any, ...]]:
    """A table's rows, sorted, without the columns that may differ."""
    names = [n for n in table.column_names if n not in drop]
    return sorted(
        tuple(str(r[n]) for n in names) for r in table.select(names).to_pylist()
    )


def test_scan_tables_gives_the_rows_of_nbsight_scan(corpus: Path, scanned: Path) -> None:
    table = pq.read_table(corpus)
    tables = nbsight.scan_tables(table, threads=2)
    assert set(tables) == {"status", "findings"}
    status = tables["status"]
    assert status.num_rows == table.num_rows
    assert status.schema == pq.read_schema(scanned / "status.parquet")
    assert rows(status) == rows(pq.read_table(scanned / "status.parquet"))
    assert rows(tables["findings"]) == rows(pq.read_table(scanned / "findings.parquet"))
    assert tables["findings"].num_rows > 40
    by_status = dict(zip(*status.select(["id", "status"]).to_pydict().values(), strict=True))
    assert by_status["broken"] == by_status["null"] == "unreadable"


def test_every_input_form_and_output(corpus: Path) -> None:
    ids, texts = notebooks()
    good = [(i, t) for i, t in zip(ids, texts, strict=True) if t is not None][:12]
    frame = pd.DataFrame({"id": [i for i, _ in good], "content": [t for _, t in good]})
    expected = rows(nbsight.scan_batch(frame))
    batch = pa.RecordBatch.from_pandas(frame, preserve_index=False)
    assert rows(nbsight.scan_batch(batch)) == expected
    from_texts = nbsight.scan_batch([t for _, t in good], ids=[i for i, _ in good])
    assert rows(from_texts) == expected
    # Other column names; without ids, the row numbers.
    renamed = frame.rename(columns={"id": "key", "content": "nb"})
    assert rows(nbsight.scan_batch(renamed, column="nb", id_column="key")) == expected
    status = nbsight.scan_batch(frame[["content"]], output="status")
    assert status.column("id").to_pylist() == [str(i) for i in range(len(good))]
    # Rule selection as on the command line.
    only = nbsight.scan_batch(frame, select=["NBS001"])
    assert set(only.column("code").to_pylist()) <= {"NBS001"}
    with pytest.raises(ValueError, match="no column `nb`"):
        nbsight.scan_batch(frame, column="nb")
    with pytest.raises(ValueError, match="unknown analysis"):
        nbsight.scan_batch(frame, analysis="nope")
    with pytest.raises(ValueError, match="output must be one of"):
        nbsight.scan_batch(frame, output="nope")
    with pytest.raises(TypeError, match="pyarrow.Table"):
        nbsight.scan_batch(42)
    # A zero budget: every notebook is a timeout, nothing raises.
    timed = nbsight.scan_batch(frame, output="status", timeout=1e-9)
    assert set(timed.column("status").to_pylist()) == {"timeout"}


def run_pipeline(script: str, *args: str) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples/scale" / script), *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "scanned" in result.stdout


def test_the_dask_pipeline_writes_the_rows_of_nbsight_scan(
    corpus: Path, scanned: Path, tmp_path: Path
) -> None:
    out = tmp_path / "dask"
    run_pipeline("dask_scan.py", str(corpus / "*.parquet"), str(out), "--workers", "2")
    for name in ("status", "findings"):
        assert rows(pq.read_table(out / name)) == rows(pq.read_table(scanned / f"{name}.parquet"))


def test_the_ray_pipeline_writes_the_rows_of_nbsight_scan(
    corpus: Path, scanned: Path, tmp_path: Path
) -> None:
    out = tmp_path / "ray"
    run_pipeline("ray_scan.py", str(corpus), str(out))
    for name in ("status", "findings"):
        assert rows(pq.read_table(out / name)) == rows(pq.read_table(scanned / f"{name}.parquet"))
