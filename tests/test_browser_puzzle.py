"""A rule puzzle solved in a real browser: Voila serves a one-cell notebook with the
:class:`~musici.widgets.puzzle.PuzzleTrainer`, Chromium (Playwright) clicks.

The test reads the shown puzzle's id from the page, looks its answers up in the bundled
set, clicks a wrong answer's button (the page says "Not this one"), then the best one's
(the page says "Right" and shows why: the estimates table and the rules exercised), and
goes on with **next**. Screenshots: ``artifacts/puzzle.png`` (the solved puzzle) and
``artifacts/puzzle-wrong.png``.

The Voila, browser and tool checks are those of ``test_browser.py`` (imported, so both
modules skip or fail alike).
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

from musici.analysis.puzzles import bundled_puzzles
from musici.describe import answer_words

browser_deps = tb.browser_deps
chromium = tb.browser

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
VIEWPORT = {"width": 1366, "height": 900}
FIRST_RENDER = 90
ROUND_TRIP = 30
TRAINER = ".puzzle-trainer"
# A choice puzzle whose options are buttons: the first such in the bundled set.
CODE = """from musici.analysis.puzzles import bundled_puzzles
from musici.widgets.puzzle import PuzzleTrainer
trainer = PuzzleTrainer(start={start!r})
trainer"""

pytestmark = pytest.mark.browser


def button_puzzle() -> Any:
    """The first bundled puzzle answered by one button per option (a choice of at most 8)."""
    for p in bundled_puzzles():
        d = p.decision
        if d.space == "choice" and len(d.options) <= 8:
            return p
    pytest.fail("no bundled puzzle is a choice of at most 8 options")


@pytest.fixture(scope="module")
def voila_puzzle(browser_deps: None, tmp_path_factory: pytest.TempPathFactory
                 ) -> Iterator[tuple[Voila, Any]]:
    puzzle = button_puzzle()
    home = tmp_path_factory.mktemp("voila-puzzle")
    served = home / "notebooks"
    served.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(CODE.format(start=puzzle.id))]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, served / "puzzle.ipynb")
    with tb.serve_voila(served, served, home, "voila/render/") as server:
        yield server, puzzle


def shot(page_or_locator: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page_or_locator.screenshot(path=str(path), timeout=ROUND_TRIP * 1000)
    return path


def tall_viewport(page: Any, locator: Any) -> None:
    """Voila scrolls inside a container: only what the viewport holds is painted into a
    screenshot, so the viewport is made as tall as the element first."""
    box = locator.bounding_box()
    assert box is not None
    page.set_viewport_size({"width": VIEWPORT["width"],
                            "height": max(VIEWPORT["height"], int(box["height"]) + 60)})
    locator.evaluate("e => e.scrollIntoView({block: 'start'})")


def click_option(page: Any, decision: Any, answer: Any) -> None:
    """Click the button of ``answer``: the controls draw one per option, in option order."""
    buttons = page.locator(f"{TRAINER} .human-controls .answer-btn")
    assert buttons.count() == len(decision.options)
    buttons.nth(decision.options.index(answer)).click()


def test_solve_a_puzzle_in_the_browser(chromium: Any, voila_puzzle: tuple[Voila, Any]) -> None:
    voila, puzzle = voila_puzzle
    context = chromium.new_context(viewport=VIEWPORT)
    context.set_default_timeout(ROUND_TRIP * 1000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: None if known_page_error(exc) else
            errors.append(f"{exc.name}: {exc.message}"))
    try:
        page.goto(voila.url + "puzzle.ipynb", wait_until="commit",
                  timeout=FIRST_RENDER * 1000)
        try:
            page.wait_for_selector(f"{TRAINER} .answer-btn", timeout=FIRST_RENDER * 1000)
        except Exception as exc:
            shot(page, "puzzle-failure.png")
            pytest.fail(f"the puzzle trainer did not render ({type(exc).__name__}); page "
                        f"errors {errors}; Voila log:\n{voila.log_tail()}")
        header = page.locator(f"{TRAINER} .puzzle-id").inner_text()
        assert header == puzzle.id
        assert page.locator(f"{TRAINER} .puzzle-board svg.musici-board").count() == 1
        game = puzzle.position()
        d = game.decision
        wrong = puzzle.options[1].answer
        click_option(page, d, wrong)
        page.wait_for_selector(f"{TRAINER} .puzzle-wrong")
        assert "Not this one" in page.locator(f"{TRAINER} .puzzle-feedback").inner_text()
        shot(page.locator(TRAINER), "puzzle-wrong.png")
        click_option(page, d, puzzle.best)
        page.wait_for_selector(f"{TRAINER} .puzzle-right")
        feedback = page.locator(f"{TRAINER} .puzzle-feedback").inner_text()
        assert "Right" in feedback and answer_words(game.cards, puzzle.best) in feedback
        why = page.locator(f"{TRAINER} .puzzle-why")
        why.wait_for()
        assert "Rules exercised" in why.inner_text()
        assert page.locator(f"{TRAINER} .puzzle-estimates tr").count() == len(puzzle.options) + 1
        tall_viewport(page, page.locator(TRAINER))
        shot(page.locator(TRAINER), "puzzle.png")
        # next: another puzzle, no verdict yet
        page.locator(f"{TRAINER} .puzzle-next-btn").click()
        deadline = time.monotonic() + ROUND_TRIP
        while page.locator(f"{TRAINER} .puzzle-id").inner_text() == puzzle.id:
            assert time.monotonic() < deadline, "next did not show another puzzle"
            time.sleep(0.2)
        assert page.locator(f"{TRAINER} .puzzle-right").count() == 0
        assert not errors, errors
    finally:
        context.close()
