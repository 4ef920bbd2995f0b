"""The JupyterLab extension in a real browser: a `jupyter lab` server in the
session's temporary Jupyter folders, headless Chromium (Debian's package)
driven by Playwright, a notebook run and edited as a person would, and the
contract the extension promises: every code cell's `data-nbsight-state`
attribute, a stale cell's colour and badge, silence on a kernel without
nbsight. Screenshots go to `target/browser-tests/`."""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import nbsight
from conftest import ROOT

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHOTS = ROOT / "target" / "browser-tests"
TOKEN = "nbsight-test"
# Bounds on a hang, never waited for: the first start of JupyterLab and of
# a kernel on a busy 2-core machine takes seconds.
TIMEOUT_MS = 90_000

if CHROMIUM is None:
    if os.environ.get("CI"):
        raise RuntimeError("chromium is missing: scripts/test installs it in CI")
    pytest.skip("no chromium on this machine (apt-get install chromium)", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def notebook(path: Path, kernel: str, sources: list[str]) -> None:
    cells = [
        {"cell_type": "code", "id": f"cell-{i}", "metadata": {}, "source": s, "outputs": [], "execution_count": None}
        for i, s in enumerate(sources)
    ]
    path.write_text(
        json.dumps(
            {
                "cells": cells,
                "metadata": {"kernelspec": {"name": kernel, "display_name": kernel, "language": "python"}},
                "nbformat": 4,
                "nbformat_minor": 5,
            }
        )
    )


@pytest.fixture(scope="module")
def turn() -> Iterator[None]:
    """The test command runs two pytest sessions side by side (two
    CPythons): their browser tests take turns, so that neither starves on 2
    cores. Held for the module's tests."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    with open(SHOTS / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory, kernelspec: str, turn: None) -> Iterator[tuple[str, Path]]:
    """A JupyterLab server on a free port, serving a temporary folder."""
    yield from serve("jupyterlab", tmp_path_factory.mktemp("lab"))


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory, kernelspec: str, turn: None) -> Iterator[tuple[str, Path]]:
    """A Notebook 7 server on a free port, serving a temporary folder."""
    yield from serve("notebook", tmp_path_factory.mktemp("notebook7"))


def serve(app: str, root: Path) -> Iterator[tuple[str, Path]]:
    """Runs `python -m APP` (jupyterlab or notebook) serving `root`."""
    port = free_port()
    log = open(root / "server.log", "w")  # noqa: SIM115 (closed below)
    server = subprocess.Popen(
        [
            sys.executable, "-m", app, "--no-browser", f"--port={port}", "--ip=127.0.0.1",
            "--allow-root", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={root}",
            "--ServerApp.disable_check_xsrf=True",
            *(["--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
              if app == "jupyterlab" else []),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=root,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            assert server.poll() is None, (root / "server.log").read_text()
            time.sleep(0.2)
    try:
        yield url, root
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
            ],
        )
        try:
            yield browser
        finally:
            browser.close()


def watched_page(browser: Any) -> tuple[Any, list[str]]:
    """A new page, and the list its console errors and uncaught exceptions
    go to."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def open_notebook(browser: Any, url: str, name: str) -> tuple[Any, list[str]]:
    """The page of notebook `name`, its kernel idle; and the console's errors."""
    page, errors = watched_page(browser)
    # A workspace of its own, reset: no other notebook is restored.
    page.goto(f"{url}/lab/workspaces/{name.replace('.', '-')}/tree/{name}?reset&token={TOKEN}")
    page.wait_for_selector(f"{VISIBLE} .jp-Cell")
    page.wait_for_selector(f"{VISIBLE} .jp-Notebook-ExecutionIndicator[data-status='idle']")
    return page, errors


# The notebook on screen.
VISIBLE = ".jp-NotebookPanel:not(.lm-mod-hidden)"


def cells(page: Any) -> Any:
    return page.locator(f"{VISIBLE} .jp-Notebook .jp-Cell")


def state(page: Any, index: int) -> set[str]:
    value = cells(page).nth(index).get_attribute("data-nbsight-state")
    return set((value or "").split())


def wait_for_state(page: Any, index: int, wanted: Any) -> None:
    """Waits until cell `index`'s states satisfy `wanted` (a test on a set)."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not wanted(state(page, index)):
        assert time.monotonic() < deadline, f"cell {index}: {state(page, index)}"
        page.wait_for_timeout(100)


PROMPT = (
    "document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell')[i]"
    ".querySelector('.jp-InputPrompt').textContent"
)


def run_cell(page: Any, index: int) -> None:
    """Runs cell `index` as a person would: select it (click its prompt),
    choose Run > Run Selected Cell and Do not Advance, and wait for its new
    execution count. A choice that did not start the cell (the menu not yet
    ready on a loaded machine) is made again; a cell that started is never
    run twice."""
    cell = cells(page).nth(index)
    prompt = cell.locator(".jp-InputPrompt")
    before = prompt.inner_text()
    started = f"([i, before]) => {{ const t = {PROMPT}; return t.includes('*') || (/\\[\\d+\\]/.test(t) && t !== before); }}"
    done = f"([i, before]) => {{ const t = {PROMPT}; return /\\[\\d+\\]/.test(t) && t !== before; }}"
    for attempt in range(5):
        prompt.click()
        page.wait_for_function(
            "([i]) => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell')[i]"
            ".classList.contains('jp-mod-active')",
            arg=[index],
        )
        # The Run menu, not a shortcut: a key press can land before the
        # notebook has the keyboard's focus.
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run Selected Cell and Do not Advance").first.click()
        try:
            page.wait_for_function(started, arg=[index, before], timeout=10_000)
            break
        except playwright_api.TimeoutError:
            page.keyboard.press("Escape")  # a menu left open
            if attempt == 4:
                raise
    page.wait_for_function(done, arg=[index, before])
    page.wait_for_selector(f"{VISIBLE} .jp-Notebook-ExecutionIndicator[data-status='idle']")


def source(page: Any, index: int) -> str:
    text: str = cells(page).nth(index).locator(".cm-content").inner_text()
    return text


def type_into(page: Any, index: int, text: str) -> None:
    """Replaces cell `index`'s text by typing `text` into its editor."""
    editor = cells(page).nth(index).locator(".jp-InputArea-editor")
    editor.click()
    cells(page).nth(index).locator(".cm-editor.cm-focused").wait_for()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while source(page, index) != text:
        assert time.monotonic() < deadline, source(page, index)
        page.wait_for_timeout(50)


def shot(page: Any, name: str) -> None:
    # JupyterLab's question about its news feed, if it shows, is declined.
    no = page.locator(".jp-toast-button", has_text="No")
    if no.count() > 0:
        no.first.click()
        no.first.wait_for(state="detached")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_the_extension_is_installed_and_enabled() -> None:
    listed = subprocess.run(
        [sys.executable, "-m", "jupyterlab.labextensions", "list"], capture_output=True, text=True, timeout=120
    )
    text = listed.stdout + listed.stderr
    line = next((l for l in text.splitlines() if l.strip().startswith("nbsight ")), "")
    assert "enabled" in line and "OK" in line, text
    # The server extension answering the graph panel's static graph.
    listed = subprocess.run(
        [sys.executable, "-m", "jupyter_server.extension.serverextension", "list"],
        capture_output=True, text=True, timeout=120,
    )
    text = re.sub(r"\x1b\[[0-9;]*m", "", listed.stdout + listed.stderr)  # colours off
    lines = [l.split() for l in text.splitlines()]
    assert ["nbsight", "enabled"] in lines and ["nbsight", nbsight.__version__, "OK"] in lines, text


def test_cells_are_marked_stale_fresh_and_refresher(lab: tuple[str, Path], browser: Any, kernelspec: str) -> None:
    url, root = lab
    notebook(root / "states.ipynb", kernelspec, ["a = 1", "b = a + 1", "print(b)"])
    page, errors = open_notebook(browser, url, "states.ipynb")
    for i in range(3):
        run_cell(page, i)
    assert cells(page).nth(2).locator(".jp-OutputArea").inner_text().strip() == "2"
    for i in range(3):
        wait_for_state(page, i, lambda s: "stale" not in s)

    # The first cell edited and run alone: the third reads a stale `b`.
    type_into(page, 0, "a = 2")
    run_cell(page, 0)
    wait_for_state(page, 2, lambda s: "stale" in s)
    assert state(page, 1) & {"fresh", "refresher"}, state(page, 1)
    assert "stale" not in state(page, 0)
    badge = cells(page).nth(2).locator(".jp-nbsight-badge")
    why = badge.get_attribute("title") or ""
    assert "reads `b`" in why and "updated since by cell 1" in why and "re-run cell 2" in why, why

    # A stale cell looks different from a plain one.
    colour = "el => getComputedStyle(el.querySelector('.jp-Cell-inputWrapper')).backgroundColor"
    assert cells(page).nth(2).evaluate(colour) != cells(page).nth(0).evaluate(colour)
    shot(page, "stale-after-edit")

    # A fourth cell typed, never run, that reads `b`: stale without running.
    cells(page).nth(2).locator(".jp-InputPrompt").click()
    page.locator(f"{VISIBLE} > .jp-Toolbar [data-command='notebook:insert-cell-below']").click()
    cells(page).nth(3).wait_for()
    type_into(page, 3, "print(b * 10)")
    wait_for_state(page, 3, lambda s: "stale" in s)
    shot(page, "typed-cell-stale")

    # The second cell re-run: nothing is stale.
    run_cell(page, 1)
    for i in range(4):
        wait_for_state(page, i, lambda s: "stale" not in s)
    shot(page, "refreshed")
    assert not errors, errors
    page.close()


def test_a_kernel_without_nbsight_stays_silent(lab: tuple[str, Path], browser: Any) -> None:
    url, root = lab
    notebook(root / "plain.ipynb", "python3", ["a = 1", "b = a + 1", "a = 2", "print(b)"])
    page, errors = open_notebook(browser, url, "plain.ipynb")
    for i in range(4):
        run_cell(page, i)
    page.wait_for_timeout(500)
    assert all(state(page, i) == set() for i in range(4))
    assert not errors, errors
    page.close()


def palette(page: Any, label: str) -> None:
    """Runs the command labelled `label` from the command palette (opened
    from the View menu)."""
    page.locator(".lm-MenuBar-itemLabel", has_text="View").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Activate Command Palette").first.click()
    search = page.locator(".lm-CommandPalette-input")
    search.fill(label)
    page.locator(".lm-CommandPalette-item", has_text=label).first.click()


def test_the_mode_control_and_running_stale_cells(lab: tuple[str, Path], browser: Any, kernelspec: str) -> None:
    url, root = lab
    notebook(root / "plan.ipynb", kernelspec, ["a = 1", "b = a + 1", "c = b * 2", "print(c)"])
    page, errors = open_notebook(browser, url, "plan.ipynb")
    for i in range(4):
        run_cell(page, i)
    type_into(page, 0, "a = 5")
    run_cell(page, 0)
    wait_for_state(page, 3, lambda s: "stale" in s)

    # "Run Stale Cells in Order" re-runs what the plans name: nothing stays
    # stale and the last cell prints the new value.
    palette(page, "nbsight: Run Stale Cells in Order")
    page.wait_for_function(
        "() => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell')[3]"
        ".querySelector('.jp-OutputArea').textContent.trim() === '12'"
    )
    for i in range(4):
        wait_for_state(page, i, lambda s: "stale" not in s)

    # The toolbar's control sets the kernel's mode: block refuses a stale read.
    page.locator(f"{VISIBLE} .jp-nbsight-mode").select_option("block")
    type_into(page, 0, "a = 7")
    run_cell(page, 0)
    wait_for_state(page, 3, lambda s: "stale" in s)
    run_cell(page, 3)
    output = cells(page).nth(3).locator(".jp-OutputArea").inner_text()
    assert "(block mode) did not run this cell" in output, output
    shot(page, "block-mode")
    assert not errors, errors
    page.close()


def nbsight_cli(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "nbsight", *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def open_page(browser: Any, path: Path) -> tuple[Any, list[str]]:
    """A page of the HTML graph, drawn; and the console's errors."""
    page, errors = watched_page(browser)
    # Nothing may be fetched: the page is one file.
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if not r.url.startswith(("file:", "data:")) else None)
    page.goto(path.as_uri())
    page.wait_for_selector(".nbsight-graph-node")
    assert not fetched, fetched
    return page, errors


def drawn_cells(page: Any, selector: str = "") -> list[str]:
    cells: list[str] = page.locator(f".nbsight-graph-node{selector}").evaluate_all(
        "nodes => nodes.map(n => n.dataset.cell)"
    )
    return cells


def test_the_html_graph_draws_every_code_cell_and_flow(browser: Any, tmp_path: Path, turn: None) -> None:
    nb = tmp_path / "pipeline.ipynb"
    sources = [
        "import math",
        "raw = [3, 1, 2]\nscale = 10",
        "# Cleaning",
        "clean = sorted(raw)",
        "scaled = [x * scale for x in clean]",
        "total = math.fsum(scaled)",
        "print(total, clean)",
        "broken = (",
    ]
    cells = [
        {"cell_type": "markdown" if s.startswith("#") else "code", "id": f"c{i}", "metadata": {}, "source": s}
        | ({} if s.startswith("#") else {"outputs": [], "execution_count": None})
        for i, s in enumerate(sources)
    ]
    nb.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    report = json.loads(nbsight_cli("flow", str(nb), "--format", "json"))
    html = tmp_path / "graph.html"
    html.write_text(nbsight_cli("flow", str(nb), "--format", "html"))

    page, errors = open_page(browser, html)
    code_cells = [str(i) for i, s in enumerate(sources) if not s.startswith("#")]
    assert drawn_cells(page) == code_cells
    # One arrow per pair of cells, carrying every flow between them.
    arrows = page.eval_on_selector_all(
        ".nbsight-graph-edge", "es => es.map(e => [e.dataset.from, e.dataset.to, e.dataset.symbols || ''])"
    )
    pairs = {(str(f["from"]), str(f["to"])) for f in report["flows"]}
    assert {(a, b) for a, b, _ in arrows} == pairs and len(arrows) == len(pairs)
    carried = sorted((a, b, s) for a, b, names in arrows for s in names.split())
    assert carried == sorted((str(f["from"]), str(f["to"]), f["symbol"]) for f in report["flows"])

    # A click shows the cell's code, inputs and outputs, and its slices.
    page.locator(".nbsight-graph-node[data-cell='4']").click()
    details = page.locator(".nbsight-graph-details")
    assert "scaled = [x * scale for x in clean]" in details.locator(".nbsight-graph-code").inner_text()
    text = details.inner_text()
    assert "clean" in text and "scale" in text and "scaled" in text, text
    assert drawn_cells(page, ".is-selected") == ["4"]
    assert drawn_cells(page, ".in-backward") == ["1", "3"]
    assert drawn_cells(page, ".in-forward") == ["5", "6"]
    # The slices are coloured apart from the rest.
    fill = "n => getComputedStyle(n.querySelector('rect')).fill"
    assert page.locator(".nbsight-graph-node[data-cell='1']").evaluate(fill) != page.locator(
        ".nbsight-graph-node[data-cell='6']"
    ).evaluate(fill)

    # The cell dependency graph: the same cells, arrows not implied by others.
    page.locator("input[value='dependencies']").check()
    page.wait_for_function("() => document.querySelector('.nbsight-graph-svg').getAttribute('aria-label').startsWith('Cell')")
    assert drawn_cells(page) == code_cells
    needed = {(str(d["from"]), str(d["to"])) for d in report["dependencies"]}
    drawn = set(map(tuple, page.eval_on_selector_all(".nbsight-graph-edge", "es => es.map(e => [e.dataset.from, e.dataset.to])")))
    assert drawn and drawn <= needed
    shot(page, "graph-page")
    assert not errors, errors
    page.close()

    # `nbsight slice --format html`: the slice asked for, highlighted.
    sliced = json.loads(nbsight_cli("slice", str(nb), "--cell", "6", "--format", "json"))
    html.write_text(nbsight_cli("slice", str(nb), "--cell", "6", "--format", "html"))
    page, errors = open_page(browser, html)
    assert drawn_cells(page, ".is-selected") == ["6"]
    assert drawn_cells(page, ".in-backward") == [str(c) for c in sliced["cells"] if c != 6]
    shot(page, "slice-page")
    assert not errors, errors
    page.close()


def show_graph_panel(page: Any) -> Any:
    palette(page, "nbsight: Show Cell Dependency Graph")
    panel = page.locator(".jp-nbsight-graph-panel")
    panel.locator(".nbsight-graph-node").first.wait_for()
    return panel


def test_the_graph_panel_follows_the_kernel_and_goes_to_cells(
    lab: tuple[str, Path], browser: Any, kernelspec: str
) -> None:
    url, root = lab
    notebook(root / "panel.ipynb", kernelspec, ["a = 1", "b = a + 1", "c = b * 2", "print(c)"])
    page, errors = open_notebook(browser, url, "panel.ipynb")
    for i in range(4):
        run_cell(page, i)
    panel = show_graph_panel(page)
    panel.locator(".jp-nbsight-graph-source", has_text="kernel").wait_for()
    page.wait_for_function("() => document.querySelectorAll('.jp-nbsight-graph-panel .nbsight-graph-edge').length === 3")
    ids = [f"cell-{i}" for i in range(4)]
    assert drawn_cells(panel) == ids
    edges = panel.locator(".nbsight-graph-edge").evaluate_all("es => es.map(e => [e.dataset.from, e.dataset.to, e.dataset.symbols])")
    assert edges == [["cell-0", "cell-1", "a"], ["cell-1", "cell-2", "b"], ["cell-2", "cell-3", "c"]]

    # A click on a box goes to the cell; its slices are highlighted.
    panel.locator(".nbsight-graph-node[data-cell='cell-2']").click()
    page.wait_for_function(
        "() => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell')[2]"
        ".classList.contains('jp-mod-active')"
    )
    assert drawn_cells(panel, ".in-backward") == ["cell-0", "cell-1"]
    assert drawn_cells(panel, ".in-forward") == ["cell-3"]
    # The notebook's active cell is selected in the graph.
    cells(page).nth(1).locator(".jp-InputPrompt").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-nbsight-graph-panel .nbsight-graph-node.is-selected')]"
        ".map(n => n.dataset.cell).join() === 'cell-1'"
    )

    # The cell dependencies, from the kernel's slices: the chain, each
    # arrow implied by no other.
    panel.locator(".jp-nbsight-graph-mode").select_option("dependencies")
    page.wait_for_function(
        "() => document.querySelector('.jp-nbsight-graph-panel .nbsight-graph-svg')"
        ".getAttribute('aria-label').startsWith('Cell')"
    )
    deps = panel.locator(".nbsight-graph-edge").evaluate_all("es => es.map(e => [e.dataset.from, e.dataset.to])")
    assert sorted(deps) == [["cell-0", "cell-1"], ["cell-1", "cell-2"], ["cell-2", "cell-3"]]
    panel.locator(".jp-nbsight-graph-mode").select_option("flows")

    # After an edit and a run, the graph shows the stale cell.
    type_into(page, 0, "a = 2")
    run_cell(page, 0)
    page.wait_for_selector(".jp-nbsight-graph-panel .nbsight-graph-node.is-stale")
    assert "cell-2" in drawn_cells(panel, ".is-stale")
    shot(page, "graph-panel")
    assert not errors, errors
    page.close()


def test_the_graph_panel_is_static_without_nbsight(lab: tuple[str, Path], browser: Any) -> None:
    url, root = lab
    notebook(root / "static.ipynb", "python3", ["x = 1", "y = x + 1", "print(y)", "z = 3"])
    page, errors = open_notebook(browser, url, "static.ipynb")
    panel = show_graph_panel(page)
    panel.locator(".jp-nbsight-graph-source", has_text="Static").wait_for()
    assert drawn_cells(panel) == ["0", "1", "2", "3"]
    assert panel.locator(".nbsight-graph-edge").count() == 2
    # An edit redraws it.
    type_into(page, 3, "z = y * 3")
    page.wait_for_function("() => document.querySelectorAll('.jp-nbsight-graph-panel .nbsight-graph-edge').length === 3")

    # Another notebook opened: its graph, nothing of the first one's.
    notebook(root / "other.ipynb", "python3", ["# no flows here", "q = 1"])
    page.locator(".jp-DirListing-itemText", has_text="other.ipynb").first.dblclick()
    page.wait_for_function(
        "() => { const n = [...document.querySelectorAll('.jp-nbsight-graph-panel .nbsight-graph-node')];"
        " return n.length === 2 && n.every(e => !e.classList.contains('is-selected') || e.dataset.cell !== '3'); }"
    )
    assert drawn_cells(panel) == ["0", "1"]
    assert panel.locator(".nbsight-graph-edge").count() == 0
    assert "z = y * 3" not in panel.locator(".nbsight-graph-details").inner_text()
    assert not errors, errors
    page.close()


def test_notebook_7_marks_cells_and_shows_the_graph(
    notebook7: tuple[str, Path], browser: Any, kernelspec: str
) -> None:
    url, root = notebook7
    notebook(root / "seven.ipynb", kernelspec, ["a = 1", "b = a + 1", "print(b)"])
    page, errors = watched_page(browser)
    page.goto(f"{url}/notebooks/seven.ipynb?token={TOKEN}")
    page.wait_for_selector(f"{VISIBLE} .jp-Cell")
    page.wait_for_selector(f"{VISIBLE} .jp-Notebook-ExecutionIndicator[data-status='idle']")
    for i in range(3):
        run_cell(page, i)
    # The contract attribute is there in Notebook 7 too.
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].every(c => c.hasAttribute('data-nbsight-state'))"
    )
    # The graph panel opens in Notebook 7's right area, from the kernel.
    page.keyboard.press("Escape")
    page.locator(".lm-MenuBar-itemLabel", has_text="View").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Command Palette").first.click()
    page.locator(".lm-CommandPalette-input").fill("nbsight: Show Cell Dependency Graph")
    page.locator(".lm-CommandPalette-item", has_text="nbsight: Show Cell Dependency Graph").first.click()
    panel = page.locator(".jp-nbsight-graph-panel")
    panel.locator(".jp-nbsight-graph-source", has_text="kernel").wait_for()
    page.wait_for_function("() => document.querySelectorAll('.jp-nbsight-graph-panel .nbsight-graph-edge').length === 2")
    assert drawn_cells(panel) == ["cell-0", "cell-1", "cell-2"]
    shot(page, "notebook7-graph")
    assert not errors, errors
    page.close()
