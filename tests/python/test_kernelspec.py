"""`python -m nbsight install-kernel`: the kernelspec it writes, where, and
what happens without jupyter_client or ipykernel."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from nbsight import _kernelspec


def install_kernel(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nbsight", "install-kernel", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def spec_in(kernels: Path, name: str = "python3-nbsight") -> dict[str, object]:
    spec: dict[str, object] = json.loads((kernels / name / "kernel.json").read_text())
    return spec


def test_install_kernel_into_a_prefix(tmp_path: Path) -> None:
    result = install_kernel("--prefix", str(tmp_path))
    assert result.returncode == 0, result.stderr
    kernels = tmp_path / "share" / "jupyter" / "kernels"
    assert result.stdout.strip().endswith(str(kernels / "python3-nbsight"))
    spec = spec_in(kernels)
    # ipykernel's own kernelspec (`python -m ipykernel install`) but for
    # what loads nbsight and the name.
    from ipykernel.kernelspec import get_kernel_dict

    ipykernel_spec = get_kernel_dict(python_arguments=["-Xfrozen_modules=off"])
    assert spec["argv"] == [*ipykernel_spec["argv"], "--ext=nbsight"]
    assert spec["argv"][:2] == [sys.executable, "-Xfrozen_modules=off"]
    assert spec["display_name"] == "Python 3 (nbsight)"
    assert {k: v for k, v in spec.items() if k not in ("argv", "display_name")} == {
        k: v for k, v in ipykernel_spec.items() if k not in ("argv", "display_name")
    }
    assert (kernels / "python3-nbsight" / "logo-64x64.png").is_file()


def test_name_and_display_name(tmp_path: Path) -> None:
    result = install_kernel("--prefix", str(tmp_path), "--name", "mine", "--display-name", "Mine")
    assert result.returncode == 0, result.stderr
    assert spec_in(tmp_path / "share" / "jupyter" / "kernels", "mine")["display_name"] == "Mine"


def test_user_install_goes_to_the_jupyter_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path))
    assert _kernelspec.main(["--user"]) == 0
    assert spec_in(tmp_path / "kernels")["display_name"] == "Python 3 (nbsight)"
    assert str(tmp_path / "kernels" / "python3-nbsight") in capsys.readouterr().out


def test_without_jupyter_client_the_spec_is_copied_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A None entry in sys.modules makes `import` fail.
    monkeypatch.setitem(sys.modules, "jupyter_client", None)
    monkeypatch.setitem(sys.modules, "jupyter_client.kernelspec", None)
    assert _kernelspec.main(["--prefix", str(tmp_path)]) == 0
    assert spec_in(tmp_path / "share" / "jupyter" / "kernels")["argv"] == _kernelspec.kernel_json(
        "x"
    )["argv"]
    # Installing again replaces the kernel.
    assert _kernelspec.main(["--prefix", str(tmp_path), "--display-name", "again"]) == 0
    assert spec_in(tmp_path / "share" / "jupyter" / "kernels")["display_name"] == "again"


def test_without_ipykernel_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ipykernel_launcher", None)
    assert _kernelspec.main(["--prefix", str(tmp_path)]) == 2
    assert "ipykernel is not installed" in capsys.readouterr().err
    assert not (tmp_path / "share").exists()


def test_locations_exclude_each_other() -> None:
    result = install_kernel("--user", "--prefix", "/tmp/x")
    assert result.returncode == 2
    assert "not allowed with argument" in result.stderr


def test_the_console_script_installs_the_kernel_and_lists_the_command(tmp_path: Path) -> None:
    from test_cli import console_script

    result = subprocess.run(
        [console_script(), "install-kernel", "--prefix", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert spec_in(tmp_path / "share" / "jupyter" / "kernels")["display_name"] == "Python 3 (nbsight)"
    usage = subprocess.run(
        [console_script(), "install-kernel", "--help"], capture_output=True, text=True
    )
    assert usage.returncode == 0 and "usage: nbsight install-kernel" in usage.stdout
    listed = subprocess.run([console_script(), "--help"], capture_output=True, text=True)
    assert "install-kernel" in listed.stdout


def test_the_rust_binary_says_where_install_kernel_runs(nbsight_bin: Path) -> None:
    result = subprocess.run(
        [str(nbsight_bin), "install-kernel", "--user"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "pip install 'nbsight[kernel]'" in result.stderr
