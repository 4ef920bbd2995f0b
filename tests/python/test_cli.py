"""The command line from the wheel (`nbsight`, `python -m nbsight`) is the
Rust binary's: same output, same exit codes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import IO

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


def _frame(message: dict) -> bytes:
    import json

    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read_frame(stream: IO[bytes]) -> dict:
    import json

    length = 0
    while True:
        line = stream.readline()
        assert line, "the server closed its output"
        if not line.strip():
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    message: dict = json.loads(stream.read(length))
    return message


@pytest.mark.parametrize(
    "argv",
    [[sys.executable, "-m", "nbsight", "server"], [console_script(), "server"]],
    ids=["python-m", "console-script"],
)
def test_the_language_server_runs_from_the_wheel(argv: list[str], tmp_path: Path) -> None:
    """What editors start after `pip install nbsight`: an LSP session whose
    three cells give one NBS001 on the second, then a clean exit."""
    cell = lambda i: f"vscode-notebook-cell:{tmp_path}/nb.ipynb#C{i}"  # noqa: E731
    texts = ["a = 1", "print(a + missing)", "b = a"]
    server = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=tmp_path)
    assert server.stdin is not None and server.stdout is not None

    def send(message: dict) -> None:
        assert server.stdin is not None
        server.stdin.write(_frame(message))
        server.stdin.flush()

    try:
        send({"id": 1, "method": "initialize", "params": {"capabilities": {}}})
        assert _read_frame(server.stdout)["result"]["capabilities"]["notebookDocumentSync"]
        send({"method": "initialized", "params": {}})
        send(
            {
                "method": "notebookDocument/didOpen",
                "params": {
                    "notebookDocument": {
                        "uri": f"file://{tmp_path}/nb.ipynb",
                        "notebookType": "jupyter-notebook",
                        "version": 0,
                        "cells": [{"kind": 2, "document": cell(i)} for i in range(3)],
                    },
                    "cellTextDocuments": [
                        {"uri": cell(i), "languageId": "python", "version": 0, "text": t}
                        for i, t in enumerate(texts)
                    ],
                },
            }
        )
        published: dict[str, list[str]] = {}
        while len(published) < 3:
            message = _read_frame(server.stdout)
            if message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                published[params["uri"]] = [d["code"] for d in params["diagnostics"]]
        assert published == {cell(0): [], cell(1): ["NBS001"], cell(2): []}
        send({"id": 2, "method": "shutdown"})
        assert _read_frame(server.stdout) == {"jsonrpc": "2.0", "id": 2, "result": None}
        send({"method": "exit"})
        assert server.wait(timeout=60) == 0
    finally:
        if server.poll() is None:
            server.kill()
