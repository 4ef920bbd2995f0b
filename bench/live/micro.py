"""Micro benchmark of the live tracer: a few call- and loop-heavy cells run
under plain IPython and under `%load_ext nbsight` (and ipyflow, when asked
and installed) in fresh processes of the Python running this script:
`--rounds` rounds, each running every mode once in turn (interleaved, so
that the machine's other load falls on every mode alike), each process
running every cell `--repeat` times; the median over all runs of a cell is
reported.

    python bench/live/micro.py [--modes plain,nbsight,nbsight-prov,ipyflow] [--rounds 5] [--repeat 2]

(`nbsight-prov`: nbsight with value provenance recorded for every cell.)

Needs IPython, numpy and pandas in that Python, and nbsight installed there
(the tables in bench/live/README.md say how they were made).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

SETUP = """
import numpy as np, pandas as pd
def f(x):
    return x + 1
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
rng = np.random.default_rng(0)
df = pd.DataFrame(rng.random((200_000, 4)), columns=list("abcd"))
small = df.head(5_000)
"""

CELLS = {
    "f(i) called 10^6 times": "for i in range(10**6):\n    f(i)",
    # Under the recorder's event limit: recorded whole (10^6 is not).
    "f(i) called 10^5 times": "for i in range(10**5):\n    f(i)",
    "fib(25)": "r = fib(25)",
    "loop of 10^7": "s = 0\nfor i in range(10**7):\n    s += i",
    "comprehension over 10^6": "xs = [i * 2 for i in range(10**6) if i % 3]",
    "pandas (groupby, rolling, apply)": (
        "k = df.assign(k=(df.a * 10).astype(int))\n"
        "g = k.groupby('k').b.agg(['mean', 'std'])\n"
        "df['e'] = df.a.rolling(100).mean()\n"
        "m = k.merge(g, left_on='k', right_index=True, how='left')\n"
        "t = small.apply(lambda row: row.a + row.b, axis=1)\n"
        "z = df.describe()"
    ),
}


def child(mode: str, repeat: int) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    if mode == "nbsight-prov":
        # Provenance recorded from the start: the set-up's functions are
        # recorded code.
        shell.run_cell("%load_ext nbsight")
        shell.run_cell("__import__('nbsight').record_provenance(True)")
    elif mode != "plain":
        shell.run_cell(f"%load_ext {mode}")
    shell.run_cell(SETUP, store_history=True, cell_id="setup")
    times: dict[str, list[float]] = {name: [] for name in CELLS}
    for _ in range(repeat):
        for k, (name, source) in enumerate(CELLS.items()):
            start = time.perf_counter()
            result = shell.run_cell(source, store_history=True, cell_id=f"c{k}")
            times[name].append(time.perf_counter() - start)
            if not result.success:
                raise SystemExit(f"{mode}: {name} failed: {result.error_in_exec or result.error_before_exec}")
    print(json.dumps(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modes", default="plain,nbsight")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.repeat)
        return
    modes = [m for m in args.modes.split(",") if m]
    samples: dict[str, dict[str, list[float]]] = {m: {name: [] for name in CELLS} for m in modes}
    for r in range(args.rounds):
        for mode in modes[r % len(modes) :] + modes[: r % len(modes)]:
            out = subprocess.run(
                [sys.executable, __file__, "--child", mode, "--repeat", str(args.repeat)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            for name, ts in json.loads(out.strip().splitlines()[-1]).items():
                samples[mode][name].extend(ts)
    results = {m: {name: statistics.median(ts) for name, ts in cells.items()} for m, cells in samples.items()}
    version = sys.version.split()[0]
    runs = args.rounds * args.repeat
    print(f"CPython {version}, median of {runs} runs per cell ({args.rounds} interleaved rounds of {args.repeat}); "
          "seconds, slowdown against plain\n")
    print("| cell | " + " | ".join(modes) + " |")
    print("|---|" + "---:|" * len(modes))
    for name in CELLS:
        plain = results[modes[0]][name]
        row = [f"{plain:.3f}"]
        row += [f"{results[m][name]:.3f} ({results[m][name] / plain:.2f}×)" for m in modes[1:]]
        print(f"| {name} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
