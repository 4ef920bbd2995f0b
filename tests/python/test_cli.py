"""The command line from the wheel (`nbsight`, `python -m nbsight`) is the
Rust binary's: same output, same exit codes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

PASSENGERS = str(ROOT / "examples" / "passengers.ipynb")


def console_script() -> str:
    """The `nbsight` script installed beside this Python."""
    script = Path(sys.executable).parent / "nbsight"
    found = str(script) if script.exists() else shutil.which("nbsight")
    assert found, "the nbsight console script is not installed"
    return found


def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize(
    "args",
    [
        ["--version"],
        ["cells", PASSENGERS],
        ["cells", "--format", "json", PASSENGERS],
        ["check", "--no-progress", "examples/"],
    ],
    ids=["version", "cells", "cells-json", "check"],
)
def test_console_script_answers_as_the_rust_binary(nbsight_bin: Path, args: list[str]) -> None:
    expected = run([str(nbsight_bin), *args])
    actual = run([console_script(), *args])
    assert (actual.returncode, actual.stdout, actual.stderr) == (
        expected.returncode,
        expected.stdout,
        expected.stderr,
    )


def test_python_m_nbsight_answers_as_the_rust_binary(nbsight_bin: Path) -> None:
    expected = run([str(nbsight_bin), "cells", PASSENGERS])
    actual = run([sys.executable, "-m", "nbsight", "cells", PASSENGERS])
    assert (actual.returncode, actual.stdout) == (expected.returncode, expected.stdout)


@pytest.mark.parametrize(
    "argv",
    [[sys.executable, "-m", "nbsight", "cells"], [console_script(), "cells"]],
    ids=["python-m", "console-script"],
)
def test_usage_errors_say_nbsight_and_exit_2(argv: list[str]) -> None:
    result = run(argv)
    assert result.returncode == 2
    assert "Usage: nbsight cells" in result.stderr


def test_help_goes_to_stdout_with_exit_0() -> None:
    result = run([console_script(), "--help"])
    assert result.returncode == 0
    assert "Usage: nbsight <COMMAND>" in result.stdout


def test_input_errors_exit_2() -> None:
    result = run([console_script(), "cells", "no/such/notebook.ipynb"])
    assert result.returncode == 2
    assert result.stderr.startswith("nbsight: error:")


def test_cli_main_returns_the_exit_code(capfd: pytest.CaptureFixture[str]) -> None:
    from nbsight import _nbsight

    assert _nbsight.cli_main(["nbsight", "--version"]) == 0
    assert capfd.readouterr().out == f"nbsight {_nbsight.__version__}\n"
    # The example has a cell with a syntax error: problems found, exit 1.
    assert _nbsight.cli_main(("nbsight", "cells", PASSENGERS)) == 1
