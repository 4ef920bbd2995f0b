"""The installed package: its native module, version, types and metadata."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path


from conftest import ROOT


def test_version_is_the_workspace_version() -> None:
    import nbsight

    cargo = (ROOT / "Cargo.toml").read_text()
    workspace_version = re.search(r'^\[workspace\.package\][^\[]*?^version = "([^"]+)"', cargo, re.M | re.S)
    assert workspace_version is not None
    assert nbsight.__version__ == workspace_version.group(1)
    assert importlib.metadata.version("nbsight") == nbsight.__version__


def test_native_module_is_inside_the_package() -> None:
    import nbsight
    from nbsight import _nbsight

    assert Path(_nbsight.__file__).parent == Path(nbsight.__file__).parent
    assert _nbsight.__name__ == "nbsight._nbsight"


def test_types_ship_with_the_package() -> None:
    import nbsight

    package = Path(nbsight.__file__).parent
    assert (package / "py.typed").is_file()
    assert (package / "_nbsight.pyi").is_file()


def test_stub_declares_what_the_native_module_exports() -> None:
    import ast

    from nbsight import _nbsight

    stub = ast.parse((ROOT / "python" / "nbsight" / "_nbsight.pyi").read_text())
    declared = {
        node.name if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else node.target.id  # type: ignore[attr-defined]
        for node in stub.body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AnnAssign))
    }
    exported = {name for name in dir(_nbsight) if not name.startswith("__") or name == "__version__"}
    assert exported == declared


def test_console_script_is_declared() -> None:
    scripts = importlib.metadata.entry_points(group="console_scripts")
    assert {(e.name, e.value) for e in scripts if e.name == "nbsight"} == {
        ("nbsight", "nbsight.__main__:cli")
    }
