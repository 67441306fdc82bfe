"""The guided first month in a real browser (issue 21 item 1): Voila serves
``GameStepper(tutorial=True)``, Chromium (Playwright) clicks only what is highlighted.

From the first decision to the end of month 1 the test clicks the one highlighted control
(class ``tutorial-pick``) and nothing else, checks at each decision that the board outlines
the part it concerns (``.zone-highlight``) and that the guide says what is decided, and at
the end that every rule id fired in month 1 (the rules of seat 0's decisions and of every
event seat 0 saw, as the same game played in Python gives them) was introduced on the
page with the rules' own words.

The Voila, browser and tool checks are those of ``test_browser.py`` (imported, so the
modules skip or fail alike). Screenshots at 1280×720 go to ``artifacts/``:
``tutorial-first.png``, ``tutorial-board.png``, ``tutorial-concert.png``,
``tutorial-done.png``: look at them.

Marked slow (about a minute with Voila's start): ``pytest -m slow tests/test_browser_tutorial.py``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
import test_browser as tb
from test_browser import Voila, known_page_error
from test_tutorial import follow_month

from musici.ruletext import rule_text
from musici.widgets import GameStepper

browser_deps = tb.browser_deps
chromium = tb.browser

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
VIEWPORT = {"width": 1280, "height": 720}
FIRST_RENDER = 90
ROUND_TRIP = 30
MAX_CLICKS = 40  # the guided month asks seat 0 about a dozen times

STEPPER = ".game-stepper"
PANEL = f"{STEPPER} .tutorial-view .tutorial-panel"
PICK = f"{STEPPER} .human-controls .tutorial-pick"
DONE = f"{STEPPER} .tutorial-view .tutorial-done"
CHART = f"{STEPPER} .fame-chart.js-plotly-plot"

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # ~1 min: not in the default run


def notebook(source: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb


@pytest.fixture(scope="module")
def voila(browser_deps: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Voila]:
    home = tmp_path_factory.mktemp("voila-tutorial")
    target = home / "tutorial.ipynb"
    nbformat.write(notebook("from musici.widgets import GameStepper\n"
                            "GameStepper(tutorial=True)"), target)
    with tb.serve_voila(target, home, home, "") as server:
        yield server


def open_page(browser: Any, voila: Voila, selectors: list[str],
              viewport: dict[str, int] = VIEWPORT) -> Any:
    """The page, rendered up to ``selectors``; fails with the page errors and Voila's log."""
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(ROUND_TRIP * 1000)
    page = context.new_page()
    page.page_errors = []
    page.on("pageerror", lambda exc: None if known_page_error(exc) or slow_start(exc) else
            page.page_errors.append(f"{exc.name}: {exc.message}\n{(exc.stack or '')[:500]}"))
    page.goto(voila.url, wait_until="commit", timeout=FIRST_RENDER * 1000)
    deadline = time.monotonic() + FIRST_RENDER
    for selector in selectors:
        try:
            page.wait_for_selector(selector,
                                   timeout=max(1.0, deadline - time.monotonic()) * 1000)
        except Exception as exc:
            shot(page, "tutorial-failure.png")
            context.close()
            pytest.fail(f"{selector} not shown within {FIRST_RENDER} s ({type(exc).__name__}); "
                        f"page errors {page.page_errors}; Voila log:\n{voila.log_tail()}")
    return page


def slow_start(exc: Any) -> bool:
    """anywidget rejects a model's "ready" promise when it takes over 2 s to initialize
    (``AbortSignal.timeout(2000)`` in its front end), which a busy 2-core machine reaches
    with the stepper's two FigureWidgets; the widget still renders (the chart is checked)."""
    return "[anywidget] Failed to initialize model" in exc.message


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), timeout=ROUND_TRIP * 1000)
    return path


def expected_month() -> tuple[int, set[str]]:
    """The same guided month played in Python by following the picks: the number of
    seat 0's decisions and every rule id that fired for seat 0 in month 1."""
    stepper = GameStepper(tutorial=True)
    _panels, asked = follow_month(stepper)
    fired = {e.rule for e in stepper.game.events if e.month == 1 and e.visible_to(0)}
    return len(asked), fired | {d.rule for d, _ in asked}


def test_the_guided_month_by_following_the_highlights(chromium: Any, voila: Voila) -> None:
    decisions, fired = expected_month()
    page = open_page(chromium, voila, [PANEL, PICK, CHART])
    try:
        first = page.locator(PANEL).inner_text()
        assert "I Musici" in first and rule_text("GOAL.2")[:40] in first
        shot(page, "tutorial-first.png")
        # the close-up in the guide and the outline on the board below
        zoom = page.locator(f"{PANEL} .tutorial-zoom svg.musici-board").bounding_box()
        assert zoom is not None and zoom["width"] > 100, zoom
        outline = page.locator(f"{STEPPER} .board-view .zone-highlight").first
        outline.scroll_into_view_if_needed()
        shot(page, "tutorial-board.png")
        page.locator(PANEL).scroll_into_view_if_needed()
        panels: list[str] = []
        rules: list[str] = []
        clicks = 0
        for clicks in range(MAX_CLICKS + 1):  # noqa: B007 (the count is checked below)
            panel = page.locator(PANEL)
            panels.append(panel.inner_text())
            rules += [r for r in panel.evaluate(
                "e => [...e.querySelectorAll('.tutorial-rule')].map(li => li.dataset.rule)")]
            if page.locator(DONE).count():
                break
            lesson = page.locator(f"{PANEL} .tutorial-lesson")
            assert lesson.count() == 1, panels[-1]
            kind = lesson.get_attribute("data-kind")
            # the board outlines the part this decision concerns
            assert page.locator(f"{STEPPER} .board-view .zone-highlight").count() >= 1
            picks = page.locator(PICK)
            assert picks.count() == 1, f"{picks.count()} highlighted controls"
            if kind == "concert_orchestras":
                shot(page, "tutorial-concert.png")
            picks.evaluate("e => e.dataset.clicked = '1'")
            picks.click()
            page.wait_for_function(
                """([pick, done]) => document.querySelector(done) ||
                    [...document.querySelectorAll(pick)].some(e => !e.dataset.clicked)""",
                arg=[PICK, DONE], timeout=ROUND_TRIP * 1000)
        else:
            pytest.fail(f"the guided month did not end after {MAX_CLICKS} clicks")
        shot(page, "tutorial-done.png")
        assert clicks == decisions, "the page did not follow the same path as Python"
        assert len(rules) == len(set(rules)), "a rule introduced twice"
        missing = fired - set(rules)
        assert not missing, f"fired in month 1 but never introduced: {sorted(missing)}"
        text = re.sub(r"\s+", " ", " ".join(panels))
        for rule in sorted(fired):  # in the rules' own words
            assert re.sub(r"\s+", " ", rule_text(rule))[:60] in text, rule
        assert page.locator(PICK).count() == 0 or page.locator(DONE).count() == 1
        assert page.locator(CHART).evaluate("e => e.data.length") >= 4  # the chart is drawn
        assert page.page_errors == [], page.page_errors
    finally:
        page.context.close()
