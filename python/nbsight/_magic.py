"""The ``%nbsight`` line magic: the live API for people.

``%nbsight status``, ``%nbsight why CELL``, ``%nbsight deps SYMBOL``,
``%nbsight mode warn|block|off``. Texts come from the native session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

    from nbsight._live import Live
    from nbsight._types import InputRef, Provenance

USAGE = """usage: %nbsight status | why CELL | deps SYMBOL | slice CELL [--forward]
                | gather CELL [FILE] | provenance on|off|SYMBOL
                | history [PATH|off] | mode warn|block|reactive|off

  status        stale, fresh and refresher cells, and the stale symbols
  why CELL      the stale values cell CELL reads, why, and what to re-run
  deps SYMBOL   what SYMBOL was computed from, and what was computed from it
  slice CELL    the cells CELL's latest result needs (--forward: the cells
                whose latest results depend on it)
  gather CELL   a script reproducing CELL's latest result on a fresh kernel
                (printed, or written to FILE: .py, or .ipynb for a notebook)
  provenance    on / off: record the cells that run from now on for value
                provenance; SYMBOL: the inputs its value depends on
  history       the SQLite file the runs are written to (docs/history.md);
                PATH: write to that file from now on, off: stop writing
  mode MODE     warn (print a warning before a stale read, then run),
                block (do not run a cell that reads stale values),
                reactive (warn, and after each run re-run the cells that
                read what it changed), off (trace nothing)"""


def run_magic(live: Live, line: str) -> None:
    """Runs one ``%nbsight`` command line."""
    words = line.split()
    command, args = (words[0], words[1:]) if words else ("", [])
    session = live.session
    if command == "status" and not args:
        print(session.status_text(), end="")
    elif command == "why" and len(args) == 1:
        text = session.why_text(args[0])
        print(text if text is not None else f"nbsight knows no cell {args[0]!r}", end="" if text else "\n")
    elif command == "deps" and len(args) == 1:
        text = session.deps_text(args[0])
        print(text if text is not None else f"nbsight knows no symbol {args[0]!r}", end="" if text else "\n")
    elif command == "slice" and len(args) in (1, 2) and args[1:] in ([], ["--forward"]):
        from nbsight import _api

        cells = (_api.forward_slice if args[1:] else _api.backward_slice)(args[0])
        print(", ".join(cells))
    elif command == "gather" and len(args) in (1, 2):
        from nbsight import _api

        text = _api.gather(args[0], args[1] if len(args) == 2 else None)
        print(f"written to {args[1]}" if len(args) == 2 else text, end="\n" if len(args) == 2 else "")
    elif command == "provenance" and args in (["on"], ["off"]):
        live.provenance_on = args[0] == "on"
        print(f"nbsight provenance recording: {args[0]}")
    elif command == "provenance" and len(args) == 1:
        from nbsight import _api

        report = _api.provenance(args[0])
        print(format_provenance(args[0], report))
    elif command == "history":
        # The rest of the line: a path may hold spaces.
        where = line.strip()[len(command) :].strip()
        if where:
            live.choose_history(None if where == "off" else where)
        print(f"nbsight history: {session.history_path() or 'off'}")
    elif command == "mode" and len(args) == 1:
        live.set_mode(args[0])
        print(f"nbsight mode: {args[0]}")
    elif command == "mode" and not args:
        print(f"nbsight mode: {live.mode}")
    else:
        print(USAGE)


def register_magic(shell: InteractiveShell, live: Live) -> None:
    def nbsight(line: str) -> None:
        try:
            run_magic(live, line)
        except (ValueError, KeyError, OSError) as error:
            print(f"nbsight: {error}")

    nbsight.__doc__ = USAGE
    # IPython's decorator hides this method's real signature from mypy.
    shell.register_magic_function(nbsight, "line", "nbsight")  # type: ignore[arg-type]


def format_provenance(symbol: str, report: Provenance) -> str:
    def inputs(refs: list[InputRef]) -> str:
        shown = [f"{r['symbol']} (cell {r['cell']})" for r in refs]
        return ", ".join(shown) if shown else "(none)"

    if not report["followed"]:
        note = f" (not followed: {report['reason']}; it is its own input)"
    elif not report["recorded"]:
        note = " (not recorded: it is its own input)"
    else:
        note = ""
    lines = [
        f"`{symbol}`" + note,
        f"  where: {inputs(report['where'])}",
        f"  why:   {inputs(report['why'])}",
    ]
    if report["files"]:
        lines.append(f"  files: {', '.join(report['files'])}")
    return "\n".join(lines)
