"""The playtest report (``musici report``) opened in a real browser, with no network.

Debian's Chromium through Playwright opens the saved HTML file (``file://``) in an offline
context that also refuses every request that is not the file itself, and checks what a
designer sees: the verdicts come first, the card table has a row for every card of the
bundled set, and at least five plotly figures are drawn (plotly.js is inline in the file).

Needs Playwright for Python and Debian's Chromium (``make browser-deps``; never
``playwright install``); skipped without them unless ``MUSICI_BROWSER_TESTS=1`` (as in CI),
which makes a missing piece a failure. ``MUSICI_CHROMIUM`` overrides the browser path.
A full-page screenshot is saved to ``/tmp/report.png``: look at it.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from musici.cards import standard_cardset

CHROMIUM = os.environ.get("MUSICI_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("MUSICI_BROWSER_TESTS") == "1"
SCREENSHOT = Path("/tmp/report.png")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--host-resolver-rules=MAP * ~NOTFOUND",
]
RENDER = 60  # seconds: load a 5 MB page and draw every figure (about 2 s measured)
VIEWPORT = {"width": 1366, "height": 900}

pytestmark = pytest.mark.browser


def missing_pieces() -> list[str]:
    missing = []
    if importlib.util.find_spec("playwright") is None:
        missing.append("the Python package playwright (pip install -e '.[browser]')")
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        missing.append(f"Chromium at {CHROMIUM} (apt-get install -y chromium; or set "
                       f"MUSICI_CHROMIUM to its path)")
    return missing


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = missing_pieces()
    if missing:
        if REQUIRED:
            pytest.fail("MUSICI_BROWSER_TESTS=1 but the browser test cannot run; missing: "
                        + "; ".join(missing), pytrace=False)
        pytest.skip("browser test needs " + "; ".join(missing) + ". Run `make browser-deps` "
                    "(MUSICI_BROWSER_TESTS=1 makes missing pieces an error instead of a skip)")
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS,
                                      headless=True, timeout=30_000)
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        pw.stop()


@pytest.fixture(scope="module")
def report_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from musici.playtest.report import playtest_report
    from musici.sim import simulate

    result = simulate(["impresario", "merchant", "collector", "greedy"], games=40, seed=0,
                      rules={"RULING-MONTHS": 4}, jobs=1, progress=False)
    return playtest_report(result, source="a 40-game test batch").save(
        tmp_path_factory.mktemp("report") / "report.html")


def test_the_report_opens_offline_verdicts_first_every_card_five_figures(
        browser: Any, report_file: Path, tmp_path: Path) -> None:
    context = browser.new_context(viewport=VIEWPORT, offline=True)
    requests: list[str] = []

    def refuse(route: Any) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            requests.append(route.request.url)
            route.abort()

    context.route("**/*", refuse)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"{exc.name}: {exc.message}"))
    shot = tmp_path / "report.png"
    try:
        page.goto(report_file.as_uri(), wait_until="load", timeout=RENDER * 1000)
        page.wait_for_function(
            "() => document.querySelectorAll('.js-plotly-plot .main-svg').length >= 5",
            timeout=RENDER * 1000)
        page.wait_for_timeout(500)  # let the last figure finish its layout
        sections = page.eval_on_selector_all("main section", "els => els.map(e => e.id)")
        assert sections[0] == "verdicts", sections
        tops = page.eval_on_selector_all(
            "main section", "els => els.map(e => e.getBoundingClientRect().top)")
        assert tops[0] == min(tops)
        verdicts = page.locator("#verdicts")
        assert verdicts.is_visible()
        assert "Holm–Bonferroni correction over all" in verdicts.inner_text()
        assert page.locator("#verdicts .verdict").count() >= 4  # strategies answered
        cards = standard_cardset()
        assert page.locator("#card-table tbody tr").count() == (
            len(cards.music) + len(cards.orchestras) + len(cards.specials))
        drawn = page.eval_on_selector_all(
            ".js-plotly-plot", "els => els.filter(e => e.querySelector('.main-svg') && "
            "e.getBoundingClientRect().height > 200 && "
            "e.querySelectorAll('.trace, .hm, .bars, .points').length > 0).length")
        assert drawn >= 5, drawn
        assert errors == [], errors
        assert requests == [], requests
    finally:
        page.screenshot(path=str(shot), full_page=True)
        shutil.copyfile(shot, SCREENSHOT)
        context.close()
