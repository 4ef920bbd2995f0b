"""`nbsight install-kernel` (and `python -m nbsight install-kernel`): registers the Jupyter kernel "Python 3
(nbsight)", an ordinary IPython kernel of this Python that loads the `nbsight`
extension at start.

The kernel runs `sys.executable -m ipykernel_launcher -f {connection_file}
--ext=nbsight`. `--ext` adds to IPython's `extra_extensions`, so extensions the
user configured still load; a failing extension is logged and the kernel runs
on without it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

KERNEL_NAME = "python3-nbsight"
DISPLAY_NAME = "Python 3 (nbsight)"


def kernel_json(display_name: str) -> dict[str, object]:
    """The kernel.json of the kernel, for this Python: ipykernel's own
    (`python -m ipykernel install`'s, from `ipykernel.kernelspec`, with
    `-Xfrozen_modules=off` on CPython as it writes) plus `--ext=nbsight`
    and the display name."""
    python_arguments = (
        ["-Xfrozen_modules=off"] if platform.python_implementation() == "CPython" else []
    )
    try:
        from ipykernel.kernelspec import get_kernel_dict

        spec: dict[str, object] = dict(
            get_kernel_dict(extra_arguments=["--ext=nbsight"], python_arguments=python_arguments)
        )
    except (ImportError, TypeError):
        # No ipykernel (the spec is then only written, for another Python
        # to use), or one older than `python_arguments`.
        spec = {
            "argv": [
                sys.executable,
                *python_arguments,
                "-m",
                "ipykernel_launcher",
                "-f",
                "{connection_file}",
                "--ext=nbsight",
            ],
            "language": "python",
            "metadata": {"debugger": True},
        }
    spec["display_name"] = display_name
    return spec


def main(argv: Sequence[str]) -> int:
    """Parses `install-kernel`'s options, installs, says where; the exit code."""
    parser = argparse.ArgumentParser(
        prog="nbsight install-kernel",
        description=f'Register the Jupyter kernel "{DISPLAY_NAME}": IPython with nbsight '
        "loaded at start, running this Python.",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--user", action="store_true", help="for the current user (the default)"
    )
    where.add_argument(
        "--sys-prefix",
        action="store_true",
        help=f"into this Python's environment ({sys.prefix})",
    )
    where.add_argument(
        "--prefix", metavar="DIR", help="into DIR/share/jupyter/kernels (add DIR/share/jupyter to JUPYTER_PATH)"
    )
    parser.add_argument("--name", default=KERNEL_NAME, help=f"kernel name (default: {KERNEL_NAME})")
    parser.add_argument(
        "--display-name", default=DISPLAY_NAME, help=f"name shown in Jupyter (default: {DISPLAY_NAME})"
    )
    args = parser.parse_args(argv)

    if not _has_module("ipykernel_launcher"):
        print(
            f"nbsight: error: ipykernel is not installed for {sys.executable}; "
            "install it with `python -m pip install 'nbsight[kernel]'` (or `ipykernel`)",
            file=sys.stderr,
        )
        return 2
    prefix = sys.prefix if args.sys_prefix else args.prefix
    try:
        with tempfile.TemporaryDirectory() as staging:
            source = Path(staging) / args.name
            _write_spec(source, args.display_name)
            destination = install(source, args.name, prefix=prefix)
    except (OSError, ValueError) as error:
        print(f"nbsight: error: cannot install the kernel {args.name!r}: {error}", file=sys.stderr)
        return 2
    print(f"Installed kernelspec {args.name} ({args.display_name}) in {destination}")
    return 0


def install(source: Path, name: str, *, prefix: str | None) -> str:
    """Installs the kernelspec folder `source` as `name`, for the user or into
    `prefix`; returns the folder it went to. Uses jupyter_client's
    KernelSpecManager when there is one, else copies the folder itself."""
    try:
        from jupyter_client.kernelspec import KernelSpecManager
    except ImportError:
        destination = _kernels_dir(prefix) / name
        if destination.exists():
            shutil.rmtree(destination)
        shutil.copytree(source, destination)
        return str(destination)
    return KernelSpecManager().install_kernel_spec(
        str(source), name, user=prefix is None, prefix=prefix
    )


def _write_spec(folder: Path, display_name: str) -> None:
    """kernel.json, with ipykernel's logos when it has them."""
    resources = _ipykernel_resources()
    if resources is not None:
        shutil.copytree(resources, folder)
    else:
        folder.mkdir()
    (folder / "kernel.json").write_text(json.dumps(kernel_json(display_name), indent=1) + "\n")


def _ipykernel_resources() -> Path | None:
    spec = importlib.util.find_spec("ipykernel")
    for location in (spec.submodule_search_locations or []) if spec else []:
        resources = Path(location) / "resources"
        if resources.is_dir():
            return resources
    return None


def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _kernels_dir(prefix: str | None) -> Path:
    """Where Jupyter looks for kernels: `prefix`'s, else the user's (as
    jupyter_core.paths.jupyter_data_dir says, or its defaults)."""
    if prefix is not None:
        return Path(prefix) / "share" / "jupyter" / "kernels"
    try:
        from jupyter_core.paths import jupyter_data_dir
    except ImportError:
        return _default_data_dir() / "kernels"
    return Path(jupyter_data_dir()) / "kernels"


def _default_data_dir() -> Path:
    if os.environ.get("JUPYTER_DATA_DIR"):
        return Path(os.environ["JUPYTER_DATA_DIR"])
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home())) / "jupyter"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Jupyter"
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "jupyter"
