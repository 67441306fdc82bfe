"""The review tab in a real browser (issue 18 item 3): Voila serves a stepper on a short
finished game, Chromium (Playwright) clicks.

What kernel-side tests (``test_review_panel.py``) cannot see: that the review, run in a
background thread, reaches the page with its progress bar and its evaluation graph; that a
click on a point of the plotly ``FigureWidget`` reaches the kernel and moves the stepper's
step (the slider follows); and that "retry from here" shows the lines menu with the played
line kept as a variation.

The game: four months (RULING-MONTHS=4), seat 2 played by ``random``; its first 12
decisions with a choice are reviewed (at most 16 worlds each, ~15 s alone), which may flag
some (labels by win share or final fame; the evaluation is deterministic for a seed). Screenshot:
``artifacts/review.png`` (ignored by git). Voila, Chromium and the tool checks are
``test_browser.py``'s (imported, so both modules skip or fail alike).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
import test_browser as tb
from test_browser import Voila, known_page_error

browser_deps = tb.browser_deps
chromium = tb.browser

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
VIEWPORT = {"width": 1400, "height": 1000}
FIRST_RENDER = 120  # the notebook plays a four-month game before the stepper shows
ROUND_TRIP = 30
REVIEW_WAIT = 300  # 12 decisions x 16 worlds: ~15 s alone, minutes on a loaded machine
STEPPER = ".game-stepper"
PANEL = f"{STEPPER} .review-panel"
GRAPH = f"{PANEL} .review-graph.js-plotly-plot"
SLIDER = f"{STEPPER} .time-slider .widget-readout"
LINES = f"{STEPPER} .lines-select select"

SOURCE = """\
from musici.rules import RuleSet
from musici.widgets import GameStepper

stepper = GameStepper(players=("greedy", "greedy", "random", "greedy"), seed=3,
                      rules=RuleSet.from_options({"RULING-MONTHS": 4}), seat=2)
stepper.advance("end")
# a small budget: seat 2's first 12 decisions with a choice, 16 worlds at most each
snaps = stepper.history.snaps
mine = [k for k, g in enumerate(snaps[:-1]) if g.decision.player == 2
        and (g.decision.space != "choice" or len(g.decision.options) > 1)][:12]
stepper.review_panel.options = {"worlds": 16, "min_worlds": 8, "steps": set(mine)}
stepper
"""


pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def voila(browser_deps: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Voila]:
    home = tmp_path_factory.mktemp("voila-review")
    served = home / "notebooks"
    served.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SOURCE)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, served / "review.ipynb")
    with tb.serve_voila(served / "review.ipynb", served, home, "") as server:
        yield server


def shot(page_or_locator: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page_or_locator.screenshot(path=str(path), timeout=ROUND_TRIP * 1000)
    return path


@pytest.fixture
def page(chromium: Any, voila: Voila) -> Iterator[Any]:
    context = chromium.new_context(viewport=VIEWPORT)
    context.set_default_timeout(ROUND_TRIP * 1000)
    page = context.new_page()
    page.page_errors = []
    page.on("pageerror", lambda exc: None if known_page_error(exc) else
            page.page_errors.append(f"{exc.name}: {exc.message} {(exc.stack or '')[:300]}"))
    page.goto(voila.url, wait_until="commit", timeout=FIRST_RENDER * 1000)
    try:
        page.wait_for_selector(f"{STEPPER} .review-btn", timeout=FIRST_RENDER * 1000)
        yield page
    finally:
        context.close()


def slider_step(page: Any) -> int:
    return int(page.locator(SLIDER).inner_text().strip())


def test_review_graph_click_jumps_and_retry_keeps_the_line(page: Any, voila: Voila) -> None:
    try:
        check_review(page, voila)
    except BaseException:
        shot(page, "review-failure.png")
        raise


def check_review(page: Any, voila: Voila) -> None:
    last = slider_step(page)
    assert last > 50, last  # the finished game's last step is shown
    page.locator(f"{STEPPER} .review-btn").click()
    # the review runs in a thread: its progress shows and the stepper answers meanwhile
    # (the review takes seconds, a click's round trip well under one)
    page.wait_for_selector(f"{PANEL} .review-progress", state="visible")
    page.locator(f"{STEPPER} .back-btn").click()
    deadline = time.monotonic() + ROUND_TRIP
    while slider_step(page) != last - 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert slider_step(page) == last - 1
    assert "reviewing" in page.locator(f"{PANEL} .review-summary").inner_text()
    try:
        page.wait_for_function(
            "sel => /Review of seat 2|review failed/.test(document.querySelector(sel)"
            "?.innerText || '')", arg=f"{PANEL} .review-summary", timeout=REVIEW_WAIT * 1000)
    except Exception:
        shot(page, "review-failure.png")
        pytest.fail(f"no review after {REVIEW_WAIT} s; Voila log:\n{voila.log_tail()}")
    summary = page.locator(f"{PANEL} .review-summary").inner_text()
    assert "Review of seat 2" in summary, summary
    # the curve has one point per reviewed decision; click one in the middle
    try:
        page.wait_for_function(
            "sel => (document.querySelector(sel)?._fullData || []).some("
            "t => t.name === 'win share' && t.x.length > 5)", arg=GRAPH)
    except Exception:
        info = page.evaluate("sel => { const el = document.querySelector(sel); return el ? "
                             "(el._fullData || []).map(t => [t.name, (t.x || []).length]) "
                             ": 'no graph'; }", GRAPH)
        pytest.fail(f"the graph has no curve: {info}")
    graph = page.locator(GRAPH)
    steps = graph.evaluate("el => Array.from(el._fullData.find(t => t.name === 'win share').x)")
    i = len(steps) // 2
    target = int(steps[i])
    assert target != slider_step(page)
    graph.scroll_into_view_if_needed()
    box = graph.evaluate(
        """(el, i) => { const k = el._fullData.findIndex(t => t.name === 'win share');
            const pts = el.querySelectorAll('.scatterlayer g.trace')[k]
                          .querySelectorAll('.points path');
            const r = pts[i].getBoundingClientRect();
            return {x: r.left + r.width / 2, y: r.top + r.height / 2}; }""", i)
    page.mouse.move(box["x"], box["y"])
    page.mouse.click(box["x"], box["y"])
    deadline = time.monotonic() + ROUND_TRIP
    while slider_step(page) != target and time.monotonic() < deadline:
        time.sleep(0.2)
    assert slider_step(page) == target, (slider_step(page), target)

    # retry from the shown step: a new line, the played one kept in the lines menu
    assert not page.locator(LINES).is_visible()  # one line only: no menu yet
    page.locator(PANEL).scroll_into_view_if_needed()
    shot(page.locator(PANEL), "review.png")
    page.locator(f"{PANEL} .review-retry-shown-btn").click()
    page.wait_for_function("sel => document.querySelector(sel)?.options.length === 2",
                           arg=LINES)
    # (ipywidgets writes the options' spaces as no-break spaces)
    options = [o.replace("\xa0", " ") for o in page.locator(f"{LINES} option").all_inner_texts()]
    assert options[0].startswith("main line") and f"0–{last}" in options[0], options
    assert options[1].startswith(f"line 1: from step {target}"), options
    page.wait_for_function("sel => document.querySelector(sel).innerText.includes("
                           "'retrying from step')", arg=f"{STEPPER} .status-view")
    assert slider_step(page) == target
    shot(page.locator(STEPPER).locator(".lines-view"), "review-lines.png")
    # a flagged decision (if this budget flags one: labels need the interval to clear the
    # threshold) is marked on the curve, and its "go to step" jumps there
    flags = page.locator(f"{PANEL} .review-flag")
    marks = graph.evaluate("el => Array.from(el._fullData.find(t => t.name === 'flagged').text"
                           " || [])")
    assert len(marks) == flags.count() and set(marks) <= {"?!", "?", "??"}, marks
    if flags.count():
        text = flags.first.inner_text().replace("\xa0", " ")
        # the cost on the label's scale: win share, or final fame (review.py)
        assert "better:" in text and ("win share" in text or " fame" in text), text
        flag_step = int(text.split("step ", 1)[1].split(",", 1)[0].split(")", 1)[0])
        flags.first.locator(".review-goto-btn").click()
        deadline = time.monotonic() + ROUND_TRIP
        while slider_step(page) != flag_step and time.monotonic() < deadline:
            time.sleep(0.2)
        assert slider_step(page) == flag_step, (slider_step(page), flag_step)
        # "go to step" shows the reviewed, played line: the menu selects it, or hides when
        # the retry line, still empty, is dropped (one line left). Either comes a round
        # trip after the slider moved: wait for it, never act on a menu about to hide.
        page.wait_for_function(
            "sel => { const s = document.querySelector(sel);"
            " return !s || s.offsetParent === null || s.selectedIndex === 0; }",
            arg=LINES, timeout=ROUND_TRIP * 1000)
    # back to the played line through the menu if another line is shown, then "end"
    # follows its record to the end
    if page.locator(LINES).evaluate(
            "s => s.offsetParent !== null && s.selectedIndex !== 0"):
        page.locator(LINES).select_option(index=0)
        page.wait_for_function("sel => document.querySelector(sel).selectedIndex === 0",
                               arg=LINES)
    page.locator(f"{STEPPER} .end-btn").click()
    deadline = time.monotonic() + ROUND_TRIP
    while slider_step(page) != last and time.monotonic() < deadline:
        time.sleep(0.2)
    assert slider_step(page) == last, (slider_step(page), last)
    assert not page.page_errors, page.page_errors
