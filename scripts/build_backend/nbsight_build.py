"""pip's build backend for nbsight: maturin's, after the JupyterLab extension
is built (scripts/build-labextension) into the folder maturin puts into the
wheel's data. `pip install .` from a checkout thus installs the extension
prebuilt, as a wheel from PyPI does; building it needs Node.js 18+ and npm,
and the `jupyterlab` package, which is then asked for as a build
requirement. NBSIGHT_NO_LABEXTENSION=1 builds a wheel without it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import maturin
from maturin import (  # noqa: F401 (the hooks maturin answers alone)
    build_sdist,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_wheel,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "target" / "wheel-data"
BUILT = DATA / "data" / "share" / "jupyter" / "labextensions" / "nbsight" / "package.json"


def _skipped() -> bool:
    return os.environ.get("NBSIGHT_NO_LABEXTENSION", "") not in ("", "0")


def _extension_requires() -> list[str]:
    return [] if BUILT.exists() or _skipped() else ["jupyterlab>=4.5,<5"]


def _ensure_extension() -> None:
    if _skipped():
        DATA.mkdir(parents=True, exist_ok=True)
        return
    if shutil.which("npm") is None and not BUILT.exists():
        raise RuntimeError(
            "nbsight: building from source builds its JupyterLab extension, which needs "
            "Node.js 18+ and npm; install them, or set NBSIGHT_NO_LABEXTENSION=1 to build "
            "without the extension"
        )
    subprocess.run(["bash", str(ROOT / "scripts" / "build-labextension"), sys.executable], check=True)


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    requires: list[str] = maturin.get_requires_for_build_wheel(config_settings)
    return requires + _extension_requires()


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    requires: list[str] = maturin.get_requires_for_build_editable(config_settings)
    return requires + _extension_requires()


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    _ensure_extension()
    name: str = maturin.build_wheel(wheel_directory, config_settings, metadata_directory)
    return name


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    _ensure_extension()
    name: str = maturin.build_editable(wheel_directory, config_settings, metadata_directory)
    return name
