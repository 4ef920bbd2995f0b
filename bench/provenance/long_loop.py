"""How the provenance replay scales with a loop's length.

Runs, in one IPython shell, a list of N random numbers, then a loop summing
it and a loop that could `break` (its tests decide the rest), with nbsight
recording provenance (the replay runs after each cell, inside its time),
and prints each cell's seconds beside the same cells in plain IPython.
Linear replay: ten times N, about ten times the time.

    .venv/bin/python bench/provenance/long_loop.py [N ...]
"""

from __future__ import annotations

import subprocess
import sys
import time

CELLS = [
    "import random\nxs = [random.random() for _ in range({n})]",
    "total = 0\nfor x in xs:\n    total += x",
    "acc = 0\nfor x in xs:\n    if x > 2:\n        break\n    acc += x",
]
NAMES = ["make the list", "sum it", "sum it, with a break test"]


def run(n: int, nbsight_on: bool) -> list[float]:
    """Each cell's seconds, in a fresh shell."""
    from IPython.core.interactiveshell import InteractiveShell

    InteractiveShell.clear_instance()
    shell = InteractiveShell.instance()
    if nbsight_on:
        shell.run_cell("%load_ext nbsight")
        import nbsight

        nbsight.record_provenance(True)
    times = []
    for i, cell in enumerate(CELLS):
        start = time.perf_counter()
        result = shell.run_cell(cell.format(n=n), store_history=True, cell_id=f"c{i}")
        times.append(time.perf_counter() - start)
        if result.error_in_exec is not None:
            raise result.error_in_exec
    if nbsight_on:
        import nbsight

        for name in ("total", "acc"):
            if nbsight.provenance(name)["followed"] is not True:
                raise SystemExit(f"{name}: not followed at N={n}")
    return times


def main() -> None:
    if sys.argv[1:2] == ["--one"]:
        n, mode = int(sys.argv[2]), sys.argv[3]
        print(" ".join(f"{t:.4f}" for t in run(n, mode == "prov")))
        return
    sizes = [int(a) for a in sys.argv[1:]] or [1_000, 10_000, 100_000]
    print("| cell | N | plain (s) | nbsight-prov (s) |")
    print("|---|---:|---:|---:|")
    for n in sizes:
        # Each (N, mode) in its own process: one shell each, no state shared.
        times = {
            mode: [
                float(t)
                for t in subprocess.run(
                    [sys.executable, __file__, "--one", str(n), mode],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout.split()
            ]
            for mode in ("plain", "prov")
        }
        for name, plain, prov in zip(NAMES, times["plain"], times["prov"]):
            print(f"| {name} | {n:,} | {plain:.3f} | {prov:.3f} |")


if __name__ == "__main__":
    main()
