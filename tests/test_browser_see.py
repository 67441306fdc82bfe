"""See the game in a real browser: the composer graph, the bonus explorer and the what-if
workbench, served by Voila and read by Chromium (Playwright).

What kernel-side tests cannot see: that no two composer names overlap *as drawn* (their
bounding boxes in the page), that the discovery's star leaves its name readable, that
the explorer's chosen cards show as chips and a card picked in the search box joins them,
and that the workbench, driven like a designer drives it (games box set to 50, *run*),
answers at once, then shows an effect with its interval for every metric, each metric on
its own axis, fame charts ending with END and a verdict with the games the change
altered; and that a card edited in the workbench's card editor (its fame 10 higher, in
arm 1, RULING-MONTHS=3 in every arm, 24 games) gives a headline verdict, the altered
games and that card's fame per play in both arms on the page.

The Voila, browser and tool checks are those of ``test_browser.py`` (imported, so both
modules skip or fail alike). Screenshots go to ``artifacts/`` (ignored by git):
``composer-graph.png``, ``lineage-tree.png``, ``bonus-explorer.png``, ``workbench*.png`` (the
workbench's also in /tmp: ``workbench-verdicts.png``, ``workbench-card-plays.png``,
``workbench-fame-end.png``, ``workbench-flags.png``, ...).
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
import test_browser as tb
from test_browser import Voila, known_page_error

# test_browser.py's fixtures, under the names used here: the same tool checks and one
# module-scoped Chromium
browser_deps = tb.browser_deps
chromium = tb.browser

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "artifacts"
VIEWPORT = {"width": 1500, "height": 1100}
VOILA_LISTEN = 30
FIRST_RENDER = 120  # the rules notebook plays a whole game before the explorer shows
ROUND_TRIP = 30
FIRST_FEEDBACK = 5  # after "run": the status changes within this many seconds
RUN_50 = 600  # a 50-game comparison: ~30 s alone, minutes on a loaded 2-core machine
GAMES = 50
METRICS = {"win share", "final fame", "final money", "top fame", "mean fame",
           "concerts per player"}

pytestmark = pytest.mark.browser


def workbench_notebook() -> nbformat.NotebookNode:
    """The workbench cell of what_if.ipynb alone (the notebook's batch studies after it
    would keep the kernel busy before a click can reach it)."""
    nb = nbformat.read(NOTEBOOKS / "what_if.ipynb", as_version=4)
    cells = [c for c in nb.cells if c.cell_type == "code" and "Workbench(" in c.source]
    assert cells, "what_if.ipynb has no Workbench cell"
    nb.cells = cells
    return nb


@pytest.fixture(scope="module")
def voila_dir(browser_deps: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Voila]:
    """Voila serving a folder with rules.ipynb and the workbench notebook (its own process
    group; Jupyter's user config kept out, this venv's kernel first)."""
    home = tmp_path_factory.mktemp("voila-see")
    served = home / "notebooks"
    served.mkdir()
    shutil.copyfile(NOTEBOOKS / "rules.ipynb", served / "rules.ipynb")
    nbformat.write(workbench_notebook(), served / "workbench.ipynb")
    with tb.serve_voila(served, served, home, "voila/render/") as server:
        yield server


def open_page(browser: Any, voila: Voila, notebook: str, selectors: list[str]) -> Any:
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(ROUND_TRIP * 1000)
    page = context.new_page()
    page.page_errors = []
    page.on("pageerror", lambda exc: None if known_page_error(exc) else
            page.page_errors.append(f"{exc.name}: {exc.message}"))
    page.goto(voila.url + notebook, wait_until="commit", timeout=FIRST_RENDER * 1000)
    deadline = time.monotonic() + FIRST_RENDER
    for selector in selectors:
        try:
            page.wait_for_selector(selector, timeout=max(1.0, deadline - time.monotonic()) * 1000)
        except Exception as exc:
            shot(page, f"{notebook}-failure.png")
            context.close()
            pytest.fail(f"{notebook}: {selector} not shown within {FIRST_RENDER} s "
                        f"({type(exc).__name__}); page errors {page.page_errors}; Voila log:\n"
                        f"{voila.log_tail()}")
    return page


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


# The composer names as drawn: the labels trace is the figure's only text trace.
LABEL_BOXES = """el => [...el.querySelectorAll('.scatterlayer .textpoint text')].map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, left: r.left, top: r.top, right: r.right, bottom: r.bottom}; })"""
STAR_BOX = """el => {
    const shown = el._fullData.filter(t => t.visible === true);
    const i = shown.findIndex(t => t.meta === 'discovery');
    const point = el.querySelectorAll('.scatterlayer g.trace')[i]?.querySelector('.points path');
    if (!point) return null;
    const r = point.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }"""


# a chip per chosen card (the tag input's own text box carries the tag class too)
CHIPS = ".bonus-explorer .played-select .jupyter-widget-tag:not(.jupyter-widget-taginput)"


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and \
        a["top"] < b["bottom"] and b["top"] < a["bottom"]


def test_composer_graph_labels_and_explorer_selection(chromium: Any, voila_dir: Voila) -> None:
    graph = ".bonus-explorer .bonus-graph.js-plotly-plot"
    page = open_page(chromium, voila_dir, "rules.ipynb", [".bonus-explorer", graph])
    try:
        figure = page.locator(graph)
        page.wait_for_function("sel => document.querySelector(sel)?._fullData?.length > 0",
                               arg=graph)
        boxes = figure.evaluate(LABEL_BOXES)
        composers = figure.evaluate("el => el.data.find(t => t.meta === 'composer names')"
                                    ".customdata.length")
        assert len(boxes) == composers >= 30, (len(boxes), composers)
        clashes = [(a["text"], b["text"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                   if overlap(a, b)]
        assert not clashes, f"composer names overlap in the page: {clashes}"
        texts = [b["text"] for b in boxes]
        assert "Johann Sebastian Bach" in texts and "Carl Philipp Emanuel Bach" in texts
        # the discovery (D01, J. S. Bach) is starred and its name is beside the star
        star = figure.evaluate(STAR_BOX)
        assert star is not None, "no discovery star drawn"
        name = next(b for b in boxes if b["text"] == "Johann Sebastian Bach")
        assert not overlap(star, name), (star, name)

        # the chosen cards show as chips; a card picked by name in the search box joins them
        chips = page.locator(CHIPS)
        before = [c.inner_text().strip() for c in chips.all()]
        # chips name composer and piece, not card ids (issue 21 item 6)
        assert before and not any(re.search(r"\b[SD]\d\d\b", c) for c in before), before
        table = page.locator(".bonus-explorer .bonus-table")
        assert all(c.split(" · ")[0] in table.inner_text() for c in before)
        assert "country or era +1" in table.inner_text()  # readable headers
        label = page.evaluate("() => [...document.querySelectorAll('.played-search datalist "
                              "option')].map(o => o.value).find(v => v.includes('[S03]'))")
        assert label, "the search box offers no card S03"
        search = page.locator(".bonus-explorer .played-search input")
        search.fill(label)
        search.press("Enter")
        page.wait_for_function("([sel, n]) => document.querySelectorAll(sel).length > n",
                               arg=[CHIPS, len(before)])
        page.wait_for_function("() => document.querySelector('.bonus-explorer .bonus-table')"
                               ".innerText.includes('S03')")
        after = [c.inner_text().strip() for c in chips.all()]
        assert after[:-1] == before and after[-1].startswith("Antonio Vivaldi · "), after
        # the graph follows: Vivaldi (S03, Baroque like the St Mark Passion) is ringed
        page.wait_for_function("sel => document.querySelector(sel)?.layout?.meta?.adds"
                               "?.includes('vivaldi')", arg=graph)
        boxes = figure.evaluate(LABEL_BOXES)
        assert not [(a["text"], b["text"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                    if overlap(a, b)]

        explorer = page.locator(".bonus-explorer")
        tall_viewport(page, explorer)
        shot(explorer, "bonus-explorer.png")
        shot(figure, "composer-graph.png")

        # the second view: the teaching lineages as family trees, names clear of each other
        page.locator(".bonus-explorer .graph-view button", has_text="teaching lineages").click()
        tree = page.locator(".bonus-explorer .lineage-graph.js-plotly-plot")
        tree.wait_for(state="visible")
        page.wait_for_function("() => document.querySelector('.bonus-explorer .lineage-graph')"
                               "?.querySelectorAll('.scatterlayer .textpoint text').length > 10")
        boxes = tree.evaluate(LABEL_BOXES)
        assert any("Domenico Scarlatti" in b["text"] for b in boxes)
        assert not [(a["text"], b["text"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                    if overlap(a, b)]
        assert not figure.is_visible()  # one view at a time
        shot(tree, "lineage-tree.png")
        assert not page.page_errors, page.page_errors
    finally:
        page.context.close()


EFFECTS = ".whatif-workbench .effects-figure.js-plotly-plot"


def wb_shot(page_or_locator: Any, name: str) -> Path:
    """A workbench screenshot in artifacts/ and in /tmp (workbench-*.png)."""
    path = shot(page_or_locator, name)
    shutil.copyfile(path, Path(tempfile.gettempdir()) / name)
    return path

FIGURE_AXES = "sel => { const el = document.querySelector(sel); return {ticks: " \
    "Array.from(el.layout.xaxis.ticktext || []), title: el.layout.title.text}; }"


def wait_for_result(page: Any, voila: Voila, seconds: float, name: str) -> None:
    """Until the effects figure shows, or the status says done or an error (a failure must
    not wait it out)."""
    status = page.locator(".whatif-workbench .run-status")
    try:
        page.wait_for_function(
            "sel => document.querySelector(sel) !== null || /done|Error/.test("
            "document.querySelector('.whatif-workbench .run-status').innerText)",
            arg=EFFECTS, timeout=seconds * 1000)
    except Exception:
        wb_shot(page, f"{name}-failure.png")
        pytest.fail(f"no result after {seconds} s; status: {status.inner_text()!r}; "
                    f"progress: {page.locator('.run-progress').inner_text()!r}; "
                    f"Voila log:\n{voila.log_tail()}")


def test_workbench_runs_a_50_game_comparison(chromium: Any, voila_dir: Voila) -> None:
    page = open_page(chromium, voila_dir, "workbench.ipynb", [".whatif-workbench .run-btn"])
    try:
        arm = page.locator(".whatif-workbench .arm-1 .arm-rulings-text")
        assert "MONTH.4" in arm.inner_text()
        assert page.locator(".whatif-workbench .ruling-help").inner_text().strip()
        games = page.locator(".whatif-workbench .games-box input")
        games.fill(str(GAMES))
        games.press("Tab")
        status = page.locator(".whatif-workbench .run-status")
        idle = status.inner_text()
        page.locator(".whatif-workbench .run-btn").click()
        page.wait_for_function("([sel, old]) => document.querySelector(sel).innerText !== old",
                               arg=[".whatif-workbench .run-status", idle],
                               timeout=FIRST_FEEDBACK * 1000)
        assert f"{GAMES} games per arm" in status.inner_text() or "/50" in status.inner_text()
        wait_for_result(page, voila_dir, RUN_50, "workbench")
        assert "done: 50 games per arm" in status.inner_text(), status.inner_text()
        page.wait_for_selector(EFFECTS)
        traces = page.locator(EFFECTS).evaluate(
            "el => el._fullData.map(t => ({metric: t.meta, xaxis: t.xaxis, x: Array.from(t.x),"
            " plus: Array.from(t.error_x.array), minus: Array.from(t.error_x.arrayminus)}))")
        assert {t["metric"] for t in traces} == METRICS
        assert len({t["xaxis"] for t in traces}) == len(METRICS)  # one axis per metric
        for t in traces:
            assert t["x"] and len(t["plus"]) == len(t["minus"]) == len(t["x"]), t
            assert all(v >= 0 for v in t["plus"] + t["minus"]), t
            assert any(v > 0 for v in t["plus"]), f"{t['metric']}: no interval drawn"
        charts = [page.evaluate(FIGURE_AXES, f".fame-{c}-figure.js-plotly-plot")
                  for c in ("base", "arm-1")]
        assert charts[0]["title"].startswith("base")
        assert charts[1]["title"].startswith("arm 1: RULING-MONTHS=6")
        assert charts[0]["ticks"][-2:] == ["12", "END"] and charts[1]["ticks"][-2:] == ["6", "END"]
        verdicts = page.locator(".whatif-workbench .verdicts").inner_text()
        assert "RULING-MONTHS=6" in verdicts and re.search(
            r"The change altered (\d+ of 50 games|none of the 50 games)", verdicts), verdicts
        flags = page.locator(".flags-table").inner_text()
        assert "compared across arms" in flags or "none in any arm" in flags
        bench = page.locator(".whatif-workbench")
        tall_viewport(page, bench)
        wb_shot(bench, "workbench.png")
        json.dumps(traces)  # plain data came back from the page
        assert not page.page_errors, page.page_errors
    finally:
        page.context.close()


EDIT_GAMES = 24
EDIT_MONTHS = 3
EDIT_RUN = 120  # two arms of 24 three-month games: ~5 s alone


def most_played_card() -> tuple[str, tuple[int, int, int]]:
    """The card the base arm plays most in the browser test's set-up (kernel-side, the same
    seeds): an edited card that is never played would show nothing to compare."""
    from musici.widgets import Workbench

    bench = Workbench(workbench_lineup(), base_rules={"RULING-MONTHS": EDIT_MONTHS},
                      rules={"RULING-MONTHS": EDIT_MONTHS}, games=EDIT_GAMES, jobs=2)
    assert bench.run() is not None, bench.error
    plays = bench.arm_results[0].concerts.groupby("card").size()
    card = str(plays.sort_values(ascending=False, kind="stable").index[0])
    from musici.cards import standard_cardset

    return card, standard_cardset().music[card].fame


def workbench_lineup() -> list[str]:
    source = workbench_notebook().cells[0].source
    match = re.search(r"Workbench\((\[[^\]]*\])", source)
    assert match, source
    return json.loads(match.group(1).replace("'", '"'))


def select(page: Any, css: str, label: str) -> None:
    page.locator(f".whatif-workbench {css} select").select_option(label=label)


def type_number(page: Any, css: str, value: int) -> None:
    box = page.locator(f".whatif-workbench {css} input")
    box.fill(str(value))
    box.press("Tab")


def test_workbench_edits_a_card_and_judges_two_arms(chromium: Any, voila_dir: Voila) -> None:
    """A designer's card change in the browser: RULING-MONTHS=3 in every arm, one card's
    fame raised by 10 in arm 1, 24 games per arm; the page gives the headline verdict, the
    number of games the change altered and the card's fame per play in both arms."""
    from musici.analysis.whatif import card_label
    from musici.cards import standard_cardset

    card, fame = most_played_card()
    began = time.monotonic()
    page = open_page(chromium, voila_dir, "workbench.ipynb", [".whatif-workbench .run-btn"])
    try:
        bench = ".whatif-workbench"
        # RULING-MONTHS=3 in every arm (the base too): short games
        select(page, ".ruling-select", "RULING-MONTHS (default 12)")
        select(page, ".ruling-choice", str(EDIT_MONTHS))
        select(page, ".ruling-target", "every arm")
        page.locator(f"{bench} .add-ruling").click()
        for arm in ("arm-base", "arm-1"):
            page.wait_for_function(
                "([sel, want]) => document.querySelector(sel).innerText.includes(want)",
                arg=[f"{bench} .{arm} .arm-rulings-text", f"RULING-MONTHS={EDIT_MONTHS}"])
        # the card editor: the card, in arm 1, its fame 10 higher at every rating
        select(page, ".card-target", "arm 1")
        select(page, ".card-select", card_label(standard_cardset(), card))
        page.wait_for_function(
            "([sel, want]) => document.querySelector(sel).innerText.includes(want)",
            arg=[f"{bench} .card-current", f"fame {'/'.join(map(str, fame))}"])
        editor = page.locator(f"{bench} .card-editor")
        wb_shot(editor, "workbench-card-editor-before.png")
        new = [v + 10 for v in fame]
        for rating, value in zip(("good", "fair", "poor"), new, strict=True):
            type_number(page, f".card-fame-{rating}", value)
        page.locator(f"{bench} .apply-card").click()
        page.wait_for_function(
            "sel => document.querySelector(sel).innerText.includes('✓')",
            arg=f"{bench} .card-status")
        edit = f"{card} fame {'/'.join(map(str, fame))} → {'/'.join(map(str, new))}"
        assert edit in page.locator(f"{bench} .arm-1 .arm-card-edits").inner_text()
        wb_shot(page.locator(f"{bench} .arms"), "workbench-arms.png")
        type_number(page, ".games-box", EDIT_GAMES)
        page.locator(f"{bench} .run-btn").click()
        wait_for_result(page, voila_dir, EDIT_RUN, "workbench-card")
        status = page.locator(f"{bench} .run-status").inner_text()
        assert f"done: {EDIT_GAMES} games per arm, 2 arms" in status, status

        # the headline verdict and the games the change altered, for arm 1
        verdict = page.locator(f"{bench} .verdict-arm-1")
        text = verdict.inner_text()
        assert f"arm 1: {edit}" in text, text
        assert re.search(rf"The change altered (\d+ of {EDIT_GAMES} games|none of the "
                         rf"{EDIT_GAMES} games)", text), text
        assert re.search(r"(raises|lowers) .+ by .+ \[.+\]|no detectable change .+ at this "
                         r"sample size \(± \d+ points", text), text
        assert "Holm over" in text and "paired test" in text, text
        altered = verdict.locator(".altered")
        assert altered.is_visible() and "altered" in altered.inner_text()
        # the card's fame per play in both arms
        rows = page.locator(f"{bench} .card-plays tbody tr")
        cells = [[c.inner_text().strip() for c in r.locator("td").all()] for r in rows.all()]
        header = [h.inner_text().strip() for h in page.locator(
            f"{bench} .card-plays thead th").all()]
        by_arm = {row[header.index("arm")]: dict(zip(header, row, strict=True)) for row in cells
                  if row[header.index("card")] == card}
        assert set(by_arm) == {"base", "arm 1"}, cells
        assert by_arm["base"]["fame (good/fair/poor)"] == "/".join(map(str, fame))
        assert by_arm["arm 1"]["fame (good/fair/poor)"] == "/".join(map(str, new))
        for arm, row in by_arm.items():
            assert int(row["plays"]) > 0, (arm, row)
            assert re.match(r"-?\d+\.\d\d( \[-?\d+\.\d\d, -?\d+\.\d\d\])?$",
                            row["fame per play [95% CI]"]), row
        per_play = {a: float(r["fame per play [95% CI]"].split()[0]) for a, r in by_arm.items()}
        assert per_play["arm 1"] > per_play["base"], per_play  # 10 more fame per rating
        # the card's verdict names it, and the fame charts end with END
        assert f"{card}'s fame per play" in text or f"{card} was played" in text, text
        axes = page.evaluate(FIGURE_AXES, f"{bench} .fame-arm-1-figure.js-plotly-plot")
        assert axes["ticks"] == ["1", "2", "3", "END"], axes
        flags = page.locator(f"{bench} .flags-table").inner_text()
        assert "none in any arm" in flags or ("base" in flags and "arm 1" in flags), flags
        elapsed = time.monotonic() - began

        # pictures, as a designer looks at them (every test unfolded)
        page.locator(f"{bench} .verdicts summary").click()
        page.locator(f"{bench} .effects-table summary").click()
        for css, name in ((".verdicts", "verdicts"), (".card-plays", "card-plays"),
                          (".fame-figures", "fame-end"), (".flags-table", "flags"),
                          (".effects-figure.js-plotly-plot", "effects"),
                          (".effects-table", "effects-table")):
            locator = page.locator(f"{bench} {css}")
            locator.scroll_into_view_if_needed()
            wb_shot(locator, f"workbench-{name}.png")
        whole = page.locator(bench)
        tall_viewport(page, whole)
        wb_shot(whole, "workbench-card-run.png")
        assert not page.page_errors, page.page_errors
        print(f"card {card} edited, 2 arms x {EDIT_GAMES} games: {elapsed:.1f} s in the page")
    finally:
        page.context.close()
