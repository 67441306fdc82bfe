"""The stepper fits common screens (issue 21 item 4), in a real browser.

Voila serves two steppers: one where seat 0 (a person) must decide, and a finished game of
bots. At 1280×720 and at 900×720 (the width JupyterLab leaves a notebook on a 1280 px
screen with the file browser open), the board, the decision box, the fame chart and the
chart's END stars must lie inside the page's width, the page must not scroll sideways,
and the board of the finished game shows the final fame (after the END awards).

The same checks run in JupyterLab itself at 1280×720 with the file browser open (the
notebook run from the page), when JupyterLab is installed (``pip install -e '.[lab]'``;
skipped otherwise): there a figure drawn off screen once took plotly's default 700 px and
was cut off. Screenshots ``stepper-lab-1280x720.png``, ``stepper-lab-end-1280x720.png``.

Marked slow (about a minute with Voila's start): ``pytest -m slow tests/test_browser_fit.py``.

The Voila, browser and tool checks are those of ``test_browser.py`` (imported, so the
modules skip or fail alike). Screenshots go to ``artifacts/``: ``stepper-1280x720.png``,
``stepper-900x720.png``, ``stepper-end-1280x720.png``, ``stepper-end-900x720.png``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
import test_browser as tb
from test_browser import Voila
from test_browser_tutorial import notebook, open_page, shot

browser_deps = tb.browser_deps
chromium = tb.browser

PLAY = ".game-stepper.play-stepper"
DONE = ".game-stepper.done-stepper"
SOURCE = """from musici.widgets import GameStepper
play = GameStepper(players=("human", "greedy", "greedy", "random"), seed=5)
play.widget.add_class("play-stepper")
done = GameStepper(players=("greedy", "greedy", "greedy", "random"), seed=5)
done.advance("end")
done.widget.add_class("done-stepper")
from ipywidgets import VBox
VBox([play.widget, done.widget])"""

# Every END star as drawn, and the plot area it must lie in.
STARS = """el => {
    const shown = el._fullData.filter(t => t.visible === true);
    const i = shown.findIndex(t => t.name === 'final (END)');
    const trace = el.querySelectorAll('.scatterlayer g.trace')[i];
    const box = r => ({left: r.left, top: r.top, right: r.right, bottom: r.bottom});
    return {
        stars: trace ? [...trace.querySelectorAll('.points path')].map(
            p => box(p.getBoundingClientRect())) : [],
        plot: box(el.querySelector('.nsewdrag').getBoundingClientRect())};
}"""

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # ~1 min: not in the default run


@pytest.fixture(scope="module")
def voila(browser_deps: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Voila]:
    home = tmp_path_factory.mktemp("voila-fit")
    target = home / "fit.ipynb"
    nbformat.write(notebook(SOURCE), target)
    with tb.serve_voila(target, home, home, "") as server:
        yield server


def inside(box: dict[str, float] | None, width: int, what: str) -> None:
    assert box is not None, f"{what} is not drawn"
    assert box["x"] >= -0.5 and box["x"] + box["width"] <= width + 0.5, (
        f"{what} spans x {box['x']:.0f}–{box['x'] + box['width']:.0f}, the page is {width} px")


@pytest.mark.parametrize("width", [1280, 900])
def test_the_stepper_fits_the_page(chromium: Any, voila: Voila, width: int) -> None:
    viewport = {"width": width, "height": 720}
    page = open_page(chromium, voila, [f"{PLAY} .human-controls .answer-btn",
                                       f"{PLAY} .board-view svg", f"{DONE} .fame-chart"],
                     viewport=viewport)
    try:
        shot(page, f"stepper-{width}x720.png")
        inside(page.locator(f"{PLAY} .human-controls").bounding_box(), width, "decision box")
        board = page.locator(f"{PLAY} .board-view svg.musici-board").bounding_box()
        inside(board, width, "board")
        assert board["width"] >= 0.75 * width, f"the board is drawn {board['width']:.0f} px wide"
        inside(page.locator(f"{PLAY} .fame-chart.js-plotly-plot").bounding_box(), width,
               "fame chart")
        for css in (f"{PLAY} .fame-chart .legend", f"{DONE} .fame-chart .legend"):
            inside(page.locator(css).bounding_box(), width, "chart legend")
        overflow = page.evaluate("""() => [...document.querySelectorAll('*')]
            .filter(e => e.scrollWidth > e.clientWidth + 1 &&
                         getComputedStyle(e).overflowX === 'visible' &&
                         e.getBoundingClientRect().right > innerWidth + 1).length""")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, overflow
        # the finished game: the END stars inside the plot and the page, final fame on board
        chart = page.locator(f"{DONE} .fame-chart.js-plotly-plot")
        chart.scroll_into_view_if_needed()
        page.wait_for_function(f"() => ({STARS})(document.querySelector("
                               f"'{DONE} .fame-chart.js-plotly-plot')).stars.length === 4")
        drawn = chart.evaluate(STARS)
        plot = drawn["plot"]
        for star in drawn["stars"]:
            assert plot["left"] - 1 <= star["left"] and star["right"] <= plot["right"] + 1, (
                star, plot)
            assert star["left"] >= 0 and star["right"] <= width, star
            assert star["top"] >= 0 and star["bottom"] <= viewport["height"], star
        shot(page, f"stepper-end-{width}x720.png")
        numbers = page.locator(f"{DONE} .board-view .seat-numbers").evaluate_all(
            "els => els.map(e => e.textContent)")  # SVG text: no innerText
        assert len(numbers) == 4 and all(t.startswith("final fame") for t in numbers), numbers
        assert page.page_errors == [], page.page_errors
    finally:
        page.context.close()


# ---------------------------------------------------------------------------- JupyterLab
LAB_START = 60  # JupyterLab listening (~5-10 s measured)
LAB_RUN = 180  # the page loaded, the notebook run and its widgets drawn (~35-60 s measured)


@pytest.fixture(scope="module")
def lab(browser_deps: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """JupyterLab on 127.0.0.1 serving the fit notebook (no token, its own process group,
    Jupyter's user config kept out); yields the notebook's URL."""
    if importlib.util.find_spec("jupyterlab") is None:
        pytest.skip("JupyterLab is not installed (pip install -e '.[lab]')")
    home = tmp_path_factory.mktemp("lab-fit")
    root = home / "root"
    root.mkdir()
    nbformat.write(notebook(SOURCE), root / "fit.ipynb")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"),
               JUPYTER_DATA_DIR=str(home / "data"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               JUPYTER_PLATFORM_DIRS="1", JUPYTER_PATH=os.pathsep.join(filter(None, [
                   str(Path(sys.prefix) / "share" / "jupyter"), os.environ.get("JUPYTER_PATH")])))
    port = tb.free_port()
    log = home / "lab.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
             "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password=",
             f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True",
             "--allow-root"],
            cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=out,
            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + LAB_START
        while True:
            if proc.poll() is not None:
                pytest.fail(f"JupyterLab exited with {proc.returncode}:\n"
                            f"{log.read_text(errors='replace')[-3000:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab not listening after {LAB_START} s")
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/lab/tree/fit.ipynb"
    finally:
        tb.stop(proc)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


def test_the_stepper_fits_jupyterlab_with_the_file_browser_open(chromium: Any, lab: str) -> None:
    viewport = {"width": 1280, "height": 720}
    context = chromium.new_context(viewport=viewport)
    context.set_default_timeout(LAB_RUN * 1000)
    page = context.new_page()
    try:
        page.goto(lab, wait_until="commit")
        page.wait_for_function("() => window.jupyterapp && document.querySelector("
                               "'.jp-NotebookPanel .jp-Cell')")
        assert page.locator("#filebrowser").is_visible(), "the file browser is not open"
        # the kernel is ready (status bar), then run the notebook; the command's promise is
        # not awaited (it settles only when every cell has run)
        page.wait_for_function("() => /\\| Idle/.test(document.querySelector("
                               "'.jp-StatusBar-Widget, #jp-main-statusbar')?.innerText ?? '')")
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        page.wait_for_selector(f"{PLAY} .human-controls .answer-btn")
        panel = page.locator(".jp-NotebookPanel").bounding_box()
        right = min(viewport["width"], panel["x"] + panel["width"])
        page.locator(f"{PLAY} .human-controls").scroll_into_view_if_needed()
        shot(page, "stepper-lab-1280x720.png")
        for css, what in ((f"{PLAY} .human-controls", "decision box"),
                          (f"{PLAY} .board-view svg.musici-board", "board"),
                          (f"{PLAY} .fame-chart", "fame chart")):
            box = page.locator(css).bounding_box()
            assert box is not None and panel["x"] <= box["x"] and \
                box["x"] + box["width"] <= right + 0.5, f"{what} {box} outside the notebook {panel}"
        chart = page.locator(f"{DONE} .fame-chart")
        chart.scroll_into_view_if_needed()
        page.wait_for_function(f"() => ({STARS})(document.querySelector("
                               f"'{DONE} .fame-chart')).stars.length === 4")
        # the chart follows its box (a resize is reported to the kernel and drawn back)
        page.wait_for_function(
            f"""() => {{ const d = ({STARS})(document.querySelector('{DONE} .fame-chart'));
                return d.stars.every(s => s.right <= d.plot.right + 1 && s.right <= {right}); }}""",
            timeout=30_000)
        shot(page, "stepper-lab-end-1280x720.png")
        for star in chart.evaluate(STARS)["stars"]:
            assert star["left"] >= panel["x"] and star["right"] <= right, (star, panel)
            assert star["top"] >= 0 and star["bottom"] <= viewport["height"], star
    finally:
        context.close()
