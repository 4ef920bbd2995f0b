#!/usr/bin/env python3
"""Checks `nbsight.provenance` answers against perturbation: an input whose
change changes the value must be named (in `where` or `why`), and an input
named in `where` must be able to change it.

    .venv/bin/python bench/provenance/validate.py [--sessions GLOB] [--json OUT] [-v]

For each session (`sessions/*.py`: cells after `# %% CELL_ID` lines, then
`# ask: SYMBOL` lines) and each symbol asked:

1. baseline: the cells run in a fresh plain IPython shell, the symbol
   evaluated (`eval(symbol, user_ns)`);
2. answer: the cells run in a fresh shell with nbsight loaded and recording,
   `nbsight.provenance(symbol)`;
3. inputs: every literal bound at a cell's top level (to a name, attribute
   or constant subscript; elements of literal containers; a dict literal's
   keys, named after the dict), named as nbsight names them;
4. each input perturbed alone, a few ways, in the source; the cells re-run
   in a fresh plain shell: a value that differs (or a run that raises) makes
   the input *influencing*;
5. verdict: `missed` (influencing, not named), `where_inert` (in `where`,
   no perturbation changed the value), `named_unknown` (named, not an
   input the harness enumerates).

Runs happen in worker processes of this script (`--worker plain|nbsight`,
a JSON request on stdin, a JSON answer on stdout), one of each per session,
at most two at a time. A plain worker makes a fresh `InteractiveShell` per
run (`clear_instance` between runs) and compares values in-process.
"""

from __future__ import annotations

import argparse
import ast
import atexit
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RUN_TIMEOUT = 10  # seconds per cell; only a perturbation that loops forever reaches it
WORKER_TIMEOUT = 1800

Cells = list[tuple[str, str]]
Key = tuple[str, str]  # (cell id, symbol path)


# ----- sessions ------------------------------------------------------------


@dataclass
class Session:
    name: str
    cells: Cells  # (cell id, source) in run order; an id may repeat (a re-run)
    asks: list[str]


def parse_session(path: Path) -> Session:
    cells: Cells = []
    asks: list[str] = []
    for line in path.read_text().splitlines():
        if line.startswith("# %%"):
            cells.append((line[4:].strip(), ""))
        elif line.startswith("# ask:"):
            asks.append(line[6:].strip())
        elif cells:
            cell_id, source = cells[-1]
            cells[-1] = (cell_id, source + line + "\n")
    return Session(path.stem, [(c, s.strip("\n") + "\n") for c, s in cells], asks)


# ----- inputs --------------------------------------------------------------


@dataclass
class Site:
    """One literal in the source: cell `index` in run order, its span."""

    index: int
    span: tuple[int, int, int, int]  # lineno, col, end_lineno, end_col (UTF-8 bytes)
    value: Any


@dataclass
class Input:
    cell: str
    symbol: str
    sites: list[Site] = field(default_factory=list)


def literal_value(node: ast.expr) -> tuple[bool, Any]:
    """`(True, value)` for a number/str/bytes/bool/None literal, `-1` included."""
    if isinstance(node, ast.Constant) and node.value is not Ellipsis:
        return True, node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, (ast.USub, ast.UAdd))
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) in (int, float, complex)
    ):
        return True, ast.literal_eval(node)
    return False, None


def target_path(node: ast.expr) -> str | None:
    """`x`, `cfg.rate`, `d['k']`, `cfg.params['lr']`; None for other targets."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = target_path(node.value)
        return None if base is None else f"{base}.{node.attr}"
    if isinstance(node, ast.Subscript):
        base = target_path(node.value)
        ok, key = literal_value(node.slice)
        return None if base is None or not ok else f"{base}[{key!r}]"
    return None


def top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements a cell runs outside any function (compound bodies too)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for name in ("body", "orelse", "finalbody"):
            yield from top_level(getattr(stmt, name, []))
        for handler in getattr(stmt, "handlers", []):
            yield from top_level(handler.body)
        for case in getattr(stmt, "cases", []):
            yield from top_level(case.body)


def cell_inputs(index: int, source: str) -> Iterator[tuple[str, Site | None]]:
    """(symbol, site) for every input literal of one cell; a site of None
    declares an input with nothing to perturb (an empty dict's keys)."""

    def site(node: ast.expr, value: Any) -> Site:
        assert node.end_lineno is not None and node.end_col_offset is not None
        return Site(index, (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset), value)

    def bound(path: str, node: ast.expr) -> Iterator[tuple[str, Site | None]]:
        ok, value = literal_value(node)
        if ok:
            yield path, site(node, value)
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            for i, element in enumerate(node.elts):
                if isinstance(element, ast.Starred):
                    break  # positions after it are not known from the source
                yield from bound(f"{path}[{i}]", element)
        elif isinstance(node, ast.Dict):
            yield path, None  # the keys are an input named after the dict
            for key, value_node in zip(node.keys, node.values):
                ok, key_value = literal_value(key) if key is not None else (False, None)
                if ok:
                    assert key is not None
                    yield path, site(key, key_value)
                    yield from bound(f"{path}[{key_value!r}]", value_node)

    def bind(target: ast.expr, node: ast.expr) -> Iterator[tuple[str, Site | None]]:
        if isinstance(target, (ast.Tuple, ast.List)):
            if (
                isinstance(node, (ast.Tuple, ast.List))
                and len(node.elts) == len(target.elts)
                and not any(isinstance(e, ast.Starred) for e in [*node.elts, *target.elts])
            ):
                for t, v in zip(target.elts, node.elts):
                    yield from bind(t, v)
            return
        path = target_path(target)
        if path is not None:
            yield from bound(path, node)

    tree = ast.parse(source)
    for stmt in top_level(tree.body):
        if isinstance(stmt, ast.Assign):
            yield from bind(stmt.targets[0], stmt.value)  # `x = y = 1` is named `x`
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            yield from bind(stmt.target, stmt.value)
        elif isinstance(stmt, ast.ClassDef):
            # A class attribute bound in a top-level class body: `K.rate`.
            for inner in stmt.body:
                if isinstance(inner, ast.Assign):
                    target, value = inner.targets[0], inner.value
                elif isinstance(inner, ast.AnnAssign) and inner.value is not None:
                    target, value = inner.target, inner.value
                else:
                    continue
                if isinstance(target, ast.Name):
                    yield from bound(f"{stmt.name}.{target.id}", value)


def session_inputs(session: Session) -> dict[Key, Input]:
    inputs: dict[Key, Input] = {}
    for index, (cell_id, source) in enumerate(session.cells):
        for symbol, site in cell_inputs(index, source):
            entry = inputs.setdefault((cell_id, symbol), Input(cell_id, symbol))
            if site is not None:
                entry.sites.append(site)
    return inputs


# ----- perturbations -------------------------------------------------------


OTHER_STRINGS = 4  # a string is also set to up to this many other strings of the session


def changes(value: Any, strings: list[str]) -> list[tuple[str, Any]]:
    """(label, new value) for one literal; `strings`: the session's string
    inputs (a string set to another one: a key, a category, a name)."""
    if isinstance(value, bool):
        out: list[tuple[str, Any]] = [("not", not value)]
    elif isinstance(value, int):
        out = [("+1", value + 1), ("-1", value - 1), ("*10+7", value * 10 + 7), ("=0", 0),
               ("+1e6", value + 10**6), ("-1e6", value - 10**6)]
    elif isinstance(value, float):
        out = [("+0.5", value + 0.5), ("*-2", value * -2), ("+1e6", value + 1e6), ("-1e6", value - 1e6)]
    elif isinstance(value, str):
        out = [("+'x'", value + "x"), ("=''", ""), ("'~'+", "~" + value)]
        out += [(f"={other!r}", other) for other in [s for s in strings if s != value][:OTHER_STRINGS]]
    elif isinstance(value, bytes):
        out = [("+b'x'", value + b"x"), ("=b''", b"")]
    elif value is None:
        out = [("=0", 0), ("=1", 1)]
    else:
        out = []
    return [(label, new) for label, new in out if not (type(new) is type(value) and new == value)]


@dataclass
class Variant:
    key: Key
    label: str  # e.g. "numbers[2] +1" or "site 2: +1"
    cells: Cells


def edit(cells: Cells, edits: list[tuple[Site, str]]) -> Cells:
    """The cells with each site's text replaced (byte-exact spans)."""
    out = list(cells)
    for index in {s.index for s, _ in edits}:
        cell_id, source = out[index]
        lines = source.encode().splitlines(keepends=True)
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line))
        data = source.encode()
        spans = sorted(
            ((starts[s.span[0] - 1] + s.span[1], starts[s.span[2] - 1] + s.span[3], text)
             for s, text in edits if s.index == index),
            reverse=True,
        )
        for start, end, text in spans:
            data = data[:start] + text.encode() + data[end:]
        out[index] = (cell_id, data.decode())
    return out


def variants(session: Session, inputs: dict[Key, Input]) -> list[Variant]:
    """Each input's sites perturbed one at a time; an input with several
    sites (a re-run cell, keys of a dict) also all at once."""
    out: list[Variant] = []
    strings = sorted({s.value for i in inputs.values() for s in i.sites if isinstance(s.value, str)})
    for key, entry in inputs.items():
        several = len(entry.sites) > 1
        for n, s in enumerate(entry.sites):
            for label, new in changes(s.value, strings):
                where = f"site {n + 1} " if several else ""
                out.append(Variant(key, f"{where}{label}", edit(session.cells, [(s, repr(new))])))
        if several:
            labels = dict.fromkeys(label for s in entry.sites for label, _ in changes(s.value, strings))
            for label in labels:
                edits = [(s, repr(new)) for s in entry.sites for lb, new in changes(s.value, strings) if lb == label]
                out.append(Variant(key, f"all sites {label}", edit(session.cells, edits)))
    return out


# ----- comparing values ----------------------------------------------------


def masked_repr(value: Any) -> str:
    try:
        text = repr(value)
    except Exception as error:  # noqa: BLE001 - a broken __repr__ is a value too
        text = f"<repr failed: {type(error).__name__}>"
    return re.sub(r"0x[0-9a-fA-F]+", "0x?", text)


def same(a: Any, b: Any, depth: int = 0) -> bool:
    """Equal values across two runs (classes defined in cells differ by
    identity between runs, so types are compared by name)."""
    if a is b:
        return True
    ta, tb = type(a), type(b)
    if (ta.__module__, ta.__qualname__) != (tb.__module__, tb.__qualname__):
        return False
    if depth > 40:
        return masked_repr(a) == masked_repr(b)
    np = sys.modules.get("numpy")
    pd = sys.modules.get("pandas")
    if np is not None and isinstance(a, np.ndarray):
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        try:
            return bool(np.array_equal(a, b, equal_nan=True))
        except TypeError:  # object or string arrays
            return bool(np.array_equal(a, b))
    if pd is not None and isinstance(a, (pd.DataFrame, pd.Series, pd.Index)):
        return bool(a.equals(b)) and repr(getattr(a, "name", None)) == repr(getattr(b, "name", None))
    if isinstance(a, float) or (np is not None and isinstance(a, np.floating)):
        return bool(a == b) or (a != a and b != b)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, depth + 1) for x, y in zip(a, b))
    if isinstance(a, dict):
        return same(list(a), list(b), depth + 1) and same(list(a.values()), list(b.values()), depth + 1)
    if isinstance(a, (set, frozenset)):
        return bool(a == b)
    if ta.__module__ == "__main__" or getattr(ta, "__eq__") is object.__eq__:
        da, db = getattr(a, "__dict__", None), getattr(b, "__dict__", None)
        if isinstance(da, dict) and isinstance(db, dict):
            return same(da, db, depth + 1)
        return masked_repr(a) == masked_repr(b)
    try:
        equal = a == b
    except Exception:  # noqa: BLE001
        equal = None
    if isinstance(equal, bool) or (np is not None and isinstance(equal, np.bool_)):
        return bool(equal)
    return masked_repr(a) == masked_repr(b)


# ----- the worker (one process: fresh shells, one per run) ------------------


class Timeout(Exception):
    pass


def on_alarm(signum: int, frame: object) -> None:
    raise Timeout(f"a cell ran longer than {RUN_TIMEOUT}s")


def run_session(cells: Cells, symbols: list[str], recording: bool) -> dict[str, Any]:
    """Runs the cells in a fresh shell (stopping at the first error), then
    evaluates each symbol; with `recording`, also asks nbsight."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    InteractiveShell.clear_instance()
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    ip = InteractiveShell.instance(config=config)
    error: str | None = None
    values: dict[str, Any] = {}
    answers: dict[str, Any] = {}
    try:
        if recording:
            ip.run_cell("%load_ext nbsight", store_history=False)  # type: ignore[no-untyped-call]
            import nbsight

            nbsight.record_provenance(True)
        for cell_id, source in cells:
            signal.alarm(RUN_TIMEOUT)
            try:
                result = ip.run_cell(source, store_history=True, cell_id=cell_id)  # type: ignore[no-untyped-call]
            except Timeout as timeout:
                result = None
                error = f"{cell_id}: Timeout: {timeout}"
            finally:
                signal.alarm(0)
            failure = result and (result.error_before_exec or result.error_in_exec)
            if failure:
                error = f"{cell_id}: {type(failure).__name__}: {failure}"
            if error:
                break
        for symbol in symbols:
            try:
                values[symbol] = eval(symbol, ip.user_ns)
            except Exception as e:  # noqa: BLE001
                values[symbol] = Missing(f"{type(e).__name__}: {e}")
            if recording:
                try:
                    answers[symbol] = nbsight.provenance(symbol)
                except Exception as e:  # noqa: BLE001
                    answers[symbol] = {"error": f"{type(e).__name__}: {e}"}
    finally:
        extensions = ip.extension_manager
        assert extensions is not None
        for extension in sorted(extensions.loaded):
            extensions.unload_extension(extension)
        ip.atexit_operations()  # type: ignore[no-untyped-call]
        atexit.unregister(ip.atexit_operations)
        ip.cleanup()  # type: ignore[no-untyped-call]
        InteractiveShell.clear_instance()
    return {"error": error, "values": values, "answers": answers}


@dataclass
class Missing:
    """A symbol that could not be evaluated."""

    why: str


def outcome(base: Any, run: dict[str, Any], symbol: str) -> str:
    """`same`, `changed`, `raised` (a cell failed) or `unevaluable`."""
    if run["error"]:
        return "raised"
    value = run["values"][symbol]
    if isinstance(value, Missing):
        return "unevaluable"
    return "same" if same(base, value) else "changed"


def worker(kind: str) -> None:
    request = json.load(sys.stdin)
    # Cells print; only this script's answer goes to the real stdout.
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    signal.signal(signal.SIGALRM, on_alarm)
    cells = [tuple(c) for c in request["cells"]]
    symbols: list[str] = request["symbols"]
    base = run_session(cells, symbols, recording=kind == "nbsight")
    reply: dict[str, Any] = {
        "error": base["error"],
        "values": {s: masked_repr(v)[:300] for s, v in base["values"].items()},
        "answers": base["answers"],
        "outcomes": [],
    }
    for variant in request.get("variants", []):
        run = run_session([tuple(c) for c in variant], symbols, recording=False)
        reply["outcomes"].append({s: outcome(base["values"][s], run, s) for s in symbols})
    json.dump(reply, out, default=str)
    out.close()


def call_worker(kind: str, request: dict[str, Any]) -> dict[str, Any]:
    scratch = Path(tempfile.mkdtemp(prefix="nbsight-prov-"))
    env = dict(os.environ, PYTHONHASHSEED="0", NBSIGHT_HISTORY="off", MPLBACKEND="Agg",
               IPYTHONDIR=str(scratch / "ipython"))
    try:
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--worker", kind],
            input=json.dumps(request), capture_output=True, text=True, cwd=scratch, env=env,
            timeout=WORKER_TIMEOUT, check=False,
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if done.returncode != 0:
        raise RuntimeError(f"{kind} worker failed ({done.returncode}):\n{done.stderr[-3000:]}")
    reply: dict[str, Any] = json.loads(done.stdout)
    return reply


# ----- verdicts ------------------------------------------------------------


def entries(answer: dict[str, Any], part: str) -> set[Key]:
    """(cell, symbol) named in `where` or `why`, slices `L[0:12]` expanded."""
    out: set[Key] = set()
    for e in answer.get(part) or []:
        m = re.fullmatch(r"(.*)\[(\d+):(\d+)\]", e["symbol"])
        if m:
            out |= {(str(e["cell"]), f"{m[1]}[{i}]") for i in range(int(m[2]), int(m[3]))}
        else:
            out.add((str(e["cell"]), str(e["symbol"])))
    return out


def show(keys: set[Key] | list[Key]) -> str:
    return ", ".join(f"{c}:{s}" for c, s in sorted(keys)) or "-"


def judge(session: Session, plain: dict[str, Any], prov: dict[str, Any],
          inputs: dict[Key, Input], tried: list[Variant]) -> list[dict[str, Any]]:
    results = []
    classes = {(cell_id, stmt.name) for cell_id, source in session.cells
               for stmt in ast.parse(source).body if isinstance(stmt, ast.ClassDef)}
    for symbol in session.asks:
        answer = prov["answers"].get(symbol, {})
        where, why = entries(answer, "where"), entries(answer, "why")
        effects: dict[Key, list[str]] = {k: [] for k in inputs}
        for variant, outcomes in zip(tried, plain["outcomes"]):
            effects[variant.key].append(f"{variant.label}: {outcomes[symbol]}")
        perturbed = {k for k, v in effects.items() if v}
        influencing = {k for k, v in effects.items() if any(not e.endswith(": same") for e in v)}
        by_value = {k for k, v in effects.items() if any(e.endswith(": changed") for e in v)}
        named = where | why
        # A class named as a whole covers the literals of its body (`Settings`
        # read through a dataclass instance covers `Settings.label`).
        named |= {k for k in inputs if (k[0], k[1].split(".")[0]) in named & classes}
        missed = influencing - named
        inert = (where & perturbed) - influencing
        ok = answer.get("followed") is True and answer.get("recorded") is True
        results.append({
            "session": session.name,
            "symbol": symbol,
            "right": ok and not missed and not inert and "error" not in answer,
            "missed": sorted(missed),
            "missed_raise_only": sorted(missed - by_value),
            "where_inert": sorted(inert),
            "named_unknown": sorted((where | why) - set(inputs)),
            "where": sorted(where),
            "why": sorted(why),
            "recorded": answer.get("recorded"),
            "followed": answer.get("followed"),
            "reason": answer.get("reason") or answer.get("error"),
            "influencing": sorted(influencing),
            "unperturbed": sorted(set(inputs) - perturbed),
            "effects": {f"{c}:{s}": v for (c, s), v in effects.items()},
            "value": plain["values"].get(symbol),
            "value_under_nbsight": prov["values"].get(symbol),
        })
    return results


def check_session(session: Session) -> tuple[Session, dict[Key, Input], list[Variant], dict[str, Any]]:
    inputs = session_inputs(session)
    tried = variants(session, inputs)
    request = {"cells": session.cells, "symbols": session.asks, "variants": [v.cells for v in tried]}
    return session, inputs, tried, request


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", default=str(HERE / "sessions" / "*.py"), help="a glob of session files")
    parser.add_argument("--json", type=Path, help="write every answer's details here")
    parser.add_argument("-v", "--verbose", action="store_true", help="print full answers")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes at once (at most 2)")
    parser.add_argument("--worker", choices=["plain", "nbsight"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return 0

    import glob

    paths = sorted(Path(p) for p in glob.glob(args.sessions))
    if not paths:
        parser.error(f"no session matches {args.sessions}")
    prepared = [check_session(parse_session(p)) for p in paths]
    jobs = [(kind, req) for _, _, _, req in prepared for kind in ("plain", "nbsight")]
    with ThreadPoolExecutor(max_workers=max(1, min(2, args.jobs))) as pool:
        replies = list(pool.map(lambda job: call_worker(job[0], job[1] if job[0] == "plain"
                                                        else {**job[1], "variants": []}), jobs))

    results: list[dict[str, Any]] = []
    broken: list[str] = []
    for n, (session, inputs, tried, _) in enumerate(prepared):
        plain, prov = replies[2 * n], replies[2 * n + 1]
        if plain["error"] or prov["error"]:
            broken.append(f"{session.name}: plain: {plain['error']}; nbsight: {prov['error']}")
        results.extend(judge(session, plain, prov, inputs, tried))

    print(f"# nbsight provenance vs. perturbation ({sys.version.split()[0]})\n")
    print("| session | symbol | right | missed | where_inert | followed / reason |")
    print("|---|---|---|---|---|---|")
    for r in results:
        missed = show(r["missed"]) + (f" (raise only: {show(r['missed_raise_only'])})" if r["missed_raise_only"] else "")
        followed = "yes" if r["followed"] else f"no: {r['reason']}"
        if r["recorded"] is not True:
            followed += " (not recorded)"
        print(f"| {r['session']} | `{r['symbol']}` | {'yes' if r['right'] else '**no**'} | {missed} "
              f"| {show(r['where_inert'])} | {followed} |")
    right = sum(r["right"] for r in results)
    print(f"\nright {right} of {len(results)}")
    excused = sum(
        r["followed"] is True and r["recorded"] is True and not r["where_inert"]
        and r["missed"] == r["missed_raise_only"] for r in results
    )
    print(f"right {excused} of {len(results)} if a miss whose only effect is an exception is forgiven")
    unknown = [r for r in results if r["named_unknown"]]
    if unknown:
        print("\nnamed_unknown (named by nbsight, not an input the harness enumerates):")
        for r in unknown:
            print(f"  {r['session']} `{r['symbol']}`: {show(r['named_unknown'])}")
    differ = [r for r in results if r["value"] != r["value_under_nbsight"]]
    for r in differ:
        print(f"\nvalue differs under nbsight: {r['session']} `{r['symbol']}`: "
              f"{r['value']} vs {r['value_under_nbsight']}")
    for line in broken:
        print(f"\nsession raised at baseline or under nbsight: {line}")
    if args.verbose:
        for r in results:
            print(f"\n## {r['session']} `{r['symbol']}` = {r['value']}")
            print(f"  where: {show(r['where'])}\n  why:   {show(r['why'])}")
            print(f"  influencing: {show(r['influencing'])}")
            for name, effects in r["effects"].items():
                print(f"  {name}: {'; '.join(effects) or 'not perturbed'}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=list))
    return 0


if __name__ == "__main__":
    sys.exit(main())
