"""The command line: `nbsight ...` (the console script) and `python -m nbsight ...`.

Both run the Rust command line (`nbsight --help`), except `install-kernel`,
which registers the Jupyter kernel "Python 3 (nbsight)" (`_kernelspec.py`:
it needs this Python, so it is answered here; the Rust command line lists
it in its help).
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Sequence
from typing import NoReturn

from nbsight import _nbsight


def run_cli(argv: Sequence[str]) -> int:
    """Run the Rust command line on `argv` (`argv[0]` is the program name)."""
    # Rust writes to the file descriptors directly: flush what Python buffered
    # first so that the output keeps its order.
    sys.stdout.flush()
    sys.stderr.flush()
    return _nbsight.cli_main(list(argv))


def main(argv: Sequence[str] | None = None) -> int:
    """`nbsight ARGS` and `python -m nbsight ARGS`: `install-kernel`, else the
    Rust command line."""
    args = list(sys.argv if argv is None else argv)
    if args[1:2] == ["install-kernel"]:
        from nbsight import _kernelspec

        return _kernelspec.main(args[2:])
    return run_cli(args)


def _exit_on_ctrl_c() -> None:
    # While Rust runs, Python cannot raise KeyboardInterrupt: let Ctrl-C end
    # the process at once, as it ends the Rust binary.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def cli() -> NoReturn:
    """The `nbsight` console script."""
    _exit_on_ctrl_c()
    sys.exit(main(sys.argv))


if __name__ == "__main__":
    _exit_on_ctrl_c()
    sys.exit(main())
