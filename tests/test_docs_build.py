"""The documentation site shows its pictures and stays inside the repository.

Fast checks call docs/hooks.py directly: executed outputs become static HTML, a tutorial
page without a picture fails the build, the rulebook and the Chinese source are published
from ``musici/data``, the rules page keeps its rating-map marker. The slow test builds
the whole site strictly (the notebooks run) and counts the figures of every tutorial in
the built HTML; with Chromium present it also draws a tutorial page and saves a screenshot
in ``artifacts/docs-tutorial.png``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import mkdocs  # noqa: F401  (the docs extra; `make test` installs it)
import nbformat
import pytest
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
TUTORIALS = ("walkthrough", "rules", "play", "what_if", "balance")
MIN_FIGURES = {"rules": 3, "what_if": 4, "balance": 4}  # the others: at least one


def load_hooks():
    spec = importlib.util.spec_from_file_location("musici_docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hooks = load_hooks()


def test_static_outputs_turn_figures_and_widgets_into_html():
    nb = nbformat.v4.new_notebook()
    nb.metadata["widgets"] = {"state": {"x": 1}}
    figure = {"data": [{"type": "scatter", "x": [1, 2], "y": [3, 4]}], "layout": {}}
    cell = nbformat.v4.new_code_cell("fig")
    cell.outputs = [
        nbformat.v4.new_output("execute_result", data={
            "application/vnd.plotly.v1+json": figure, "text/plain": "Figure"}, execution_count=1),
        nbformat.v4.new_output("display_data", data={
            "application/vnd.jupyter.widget-view+json": {"model_id": "a"},
            "text/html": "<div class='mine'>static</div>", "text/plain": "Explorer"}),
        nbformat.v4.new_output("display_data", data={
            "application/vnd.jupyter.widget-view+json": {"model_id": "b"}, "text/plain": "W"}),
        nbformat.v4.new_output("stream", name="stdout", text="hello"),
    ]
    nb.cells.append(cell)
    hooks.static_outputs(nb)
    first, second, third, _ = cell.outputs
    assert "application/vnd.plotly.v1+json" not in first.data
    assert 'class="plotly-graph-div"' in first.data["text/html"]
    assert "<script src" not in first.data["text/html"]  # plotly.js comes from the site
    assert second.data["text/html"] == "<div class='mine'>static</div>"
    assert "application/vnd.jupyter.widget-view+json" not in second.data
    assert third.data["text/html"] == hooks.LIVE_ONLY
    assert "widgets" not in nb.metadata


def page(uri: str) -> SimpleNamespace:
    return SimpleNamespace(file=SimpleNamespace(src_uri=uri, url_relative_to=lambda _: ""))


class FakeFiles:
    def get_file_from_path(self, path: str):
        assert path == hooks.PLOTLY_JS
        return SimpleNamespace(url_relative_to=lambda _: "../../assets/plotly.min.js")


def test_a_tutorial_page_without_a_picture_fails_the_build():
    with pytest.raises(PluginError, match="shows no picture"):
        hooks.on_page_content("<p>In [1]: code</p>", page("notebooks/play.ipynb"), None,
                              FakeFiles())
    html = ('<script src="https://cdnjs.cloudflare.com/ajax/libs/mathjax/2.7.7/latest.js">'
            '</script><div class="plotly-graph-div"></div>')
    out = hooks.on_page_content(html, page("notebooks/play.ipynb"), None, FakeFiles())
    assert "cdnjs" not in out  # nothing is fetched from another host
    script = out.index('<script src="../../assets/plotly.min.js">')
    assert script < out.index("plotly-graph-div")  # loaded before the figure draws
    # a plain page needs no picture
    assert hooks.on_page_content("<p>text</p>", page("cards.md"), None, FakeFiles()) == "<p>text</p>"


def test_rulebook_and_source_pages_come_from_the_package_data():
    from musici.ruletext import rules_markdown, source_text

    book = hooks.rulebook_page()
    assert book.startswith("# ") and "(../rules.md)" in book
    ids = re.findall(r"^- ((?:GOAL|COMP|SETUP|MONTH|P[1-5]|RATE|RESTORE|END|SPECIAL)[A-Z0-9.]*)",
                     rules_markdown(), flags=re.M)
    assert ids and all(f"- {i}" in book for i in ids)
    zh = hooks.source_page()
    line = next(x for x in source_text().splitlines() if x.strip() and "<" not in x)
    assert line.strip() in zh and "(i-musici-rules-zh.txt)" in zh


def test_rules_page_links_resolve_inside_the_repository():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert hooks.RATING_MAP in text
    assert "seeds/" not in text
    assert "(source/RULES.md)" in text and "(source/i-musici-rules-zh.md)" in text
    marked = hooks.on_page_markdown(text, page("rules.md"), None, None)
    assert hooks.RATING_MAP not in marked and 'class="plotly-graph-div"' in marked
    with pytest.raises(PluginError, match="rating map"):
        hooks.on_page_markdown("# Rules\n", page("rules.md"), None, None)


@pytest.mark.slow
def test_built_site_shows_every_tutorials_outputs(tmp_path):
    site = tmp_path / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                          str(site)], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=1800)
    assert run.returncode == 0, run.stderr[-3000:]
    for name in TUTORIALS:
        html = (site / "notebooks" / name / "index.html").read_text(encoding="utf-8")
        figures = html.count('class="plotly-graph-div"') + len(re.findall(r"<img\b", html))
        assert figures >= MIN_FIGURES.get(name, 1), (name, figures)
        assert "In&nbsp;[&nbsp;]" not in html  # every cell ran
    rules = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert 'class="plotly-graph-div"' in rules and "Rating map of" in rules
    assert (site / "assets" / "plotly.min.js").stat().st_size > 1_000_000
    assert (site / "source" / "RULES" / "index.html").is_file()
    assert (site / "source" / "i-musici-rules-zh.txt").is_file()
    remote = re.compile(r'<(?:script|link|img)[^>]*(?:src|href)="https?://')
    for path in site.rglob("*.html"):
        assert not remote.search(path.read_text(encoding="utf-8")), path
    screenshot(site)


def screenshot(site: Path) -> None:
    """Draw the rules tutorial as a reader sees it (only where Chromium is installed)."""
    chromium = os.environ.get("MUSICI_CHROMIUM", "/usr/bin/chromium")
    if importlib.util.find_spec("playwright") is None or not os.path.isfile(chromium):
        return
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=[
            "--headless", "--no-sandbox", "--disable-gpu",
            "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"])
        try:
            tab = browser.new_page(viewport={"width": 1400, "height": 1000})
            errors: list[str] = []
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.goto((site / "notebooks" / "rules" / "index.html").as_uri())
            tab.wait_for_selector(".plotly-graph-div .main-svg", timeout=30_000)
            drawn = tab.evaluate("() => document.querySelectorAll('.plotly-graph-div "
                                 ".main-svg').length")
            assert drawn >= MIN_FIGURES["rules"], drawn
            tab.locator(".plotly-graph-div").nth(1).scroll_into_view_if_needed()
            ARTIFACTS.mkdir(exist_ok=True)
            tab.screenshot(path=str(ARTIFACTS / "docs-tutorial.png"))
            assert not errors, errors
        finally:
            browser.close()
