"""The month summary and the final score sheet (issue 21 item 3): their numbers are the
events' and ``game.results``', every END award is shown with its rule id, fame is written
as mixed numbers, and the stepper shows them at a month's end and at game over."""

from __future__ import annotations

import re
from fractions import Fraction
from html import unescape

import pytest

from musici import Game
from musici.analysis.hints import fame_text
from musici.analysis.summary import award_label, month_summary, score_sheet, standings_rows
from musici.strategies import make_strategy
from musici.widgets.summary import month_summary_html, score_sheet_html, summary_html

GAMES = [(n, seed) for n in (3, 4) for seed in (0, 1, 2, 5)]


def played(n: int, seed: int, bot: str = "random") -> Game:
    game = Game(n, seed=seed)
    return game.play([make_strategy(bot) for _ in range(n)])


@pytest.fixture(scope="module", params=GAMES, ids=[f"{n}p-seed{s}" for n, s in GAMES])
def game(request: pytest.FixtureRequest) -> Game:
    n, seed = request.param
    return played(n, seed, "greedy" if seed % 2 else "random")


def test_month_summary_rows_sum_to_the_real_changes(game: Game) -> None:
    fame, money = [0] * game.n, None
    for record in game.monthly:
        rows = month_summary(game, record["month"])
        assert [r.seat for r in rows] == list(range(game.n))
        for r in rows:
            assert r.fame_after == record["fame"][r.seat]
            assert r.money_after == record["money"][r.seat]
            assert r.fame_before == fame[r.seat]
            if money is not None:
                assert r.money_before == money[r.seat]
            assert sum(c.fame for c in r.changes) == r.fame_change, r
            assert sum(c.money for c in r.changes) == r.money_change, r
            assert all(c.fame or c.money for c in r.changes)  # no empty causes listed
        fame, money = record["fame"], record["money"]


def test_score_sheet_equals_game_results(game: Game) -> None:
    res = game.results
    assert res is not None
    sheet = score_sheet(game)
    assert sheet.winners == tuple(res["winners"])
    assert [(a.name, a.rule, list(a.counts), list(a.winners), a.share) for a in sheet.awards] == \
        [(a["award"], a["rule"], a["counts"], a["winners"], a["share"]) for a in res["awards"]]
    for row in sheet.rows:
        assert row.fame == res["fame"][row.seat]
        assert row.money == res["money"][row.seat]
        assert row.rank == res["ranks"][row.seat]
        assert row.winner == (row.seat in res["winners"])
        if row.fame > 0:  # the breakdown adds up (unless the fame floor stopped it at 0)
            assert row.fame_before + row.awards - row.markers == row.fame
    assert [r.rank for r in sheet.rows] == sorted(r.rank for r in sheet.rows)


def test_score_sheet_html_shows_every_award_with_its_rule_and_the_results(game: Game) -> None:
    res = game.results
    assert res is not None
    html = score_sheet_html(game)
    text = unescape(html)
    award_rows = re.findall(r"<tr class='award-row' data-rule='([^']+)'>(.*?)</tr>", html)
    assert len(award_rows) == len(res["awards"])
    for (rule, row), award in zip(award_rows, res["awards"], strict=True):
        assert rule == award["rule"] and f">{award['rule']}</span>" in row
        label = award_label(score_sheet(game).awards[res["awards"].index(award)])
        assert label in unescape(row)
        taken = " and ".join(f"seat {s}" for s in award["winners"])
        assert f">{taken}</td>" in row
        assert f"+{fame_text(award['share'])}<" in unescape(row)
    for seat in range(game.n):
        row = re.search(rf"<tr class='sheet-row' data-seat='{seat}'.*?</tr>", html)
        assert row, seat
        fame = re.search(r"class='final-fame'>([^<]+)<", row[0])
        money = re.search(r"class='final-money'>(-?\d+) G<", row[0])
        assert fame and unescape(fame[1]) == fame_text(res["fame"][seat])
        assert money and int(money[1]) == res["money"][seat]
    # mixed numbers (34½, 5 1/6), never an improper fraction such as 69/2
    assert all(int(a) < int(b) for a, b in re.findall(r"(\d+)/(\d+)", text)), text
    assert "False" not in text and "True" not in text
    banner = re.search(r"class='winner-banner'.*?</div>", html, re.S)
    assert banner
    for s in res["winners"]:
        assert f"seat {s}" in banner[0]
    assert fame_text(max(res["fame"])) in unescape(banner[0])


def test_month_summary_html_has_one_row_per_seat_with_the_month_end_numbers(game: Game) -> None:
    record = game.monthly[2]
    html = month_summary_html(game, 3, names=[f"P{s}" for s in range(game.n)])
    rows = re.findall(r"<tr class='summary-row' data-seat='(\d)'>(.*?)</tr>", html)
    assert [int(s) for s, _ in rows] == list(range(game.n))
    for s, row in rows:
        assert f">P{s}</td>" in row
        assert f">{record['fame'][int(s)]} (" in row
        assert f">{record['money'][int(s)]} G (" in row


def test_unfinished_month_and_game_are_refused_clearly() -> None:
    game = Game(4, seed=1)
    game.play([make_strategy("random")] * 4, until="phase")
    with pytest.raises(ValueError, match="month 1 has not ended"):
        month_summary(game, 1)
    with pytest.raises(ValueError, match="not finished"):
        score_sheet(game)
    assert summary_html(game, 0) == ""


def test_fractional_final_fame_is_a_mixed_number() -> None:
    # a game whose awards are shared so that some final fame is a fraction
    for seed in range(40):
        game = played(4, seed)
        res = game.results
        assert res is not None
        odd = [f for f in res["fame"] if Fraction(f).denominator != 1]
        if odd:
            html = unescape(score_sheet_html(game))
            assert fame_text(odd[0]) in html and str(odd[0]) not in html
            return
    pytest.fail("no game with a fractional final fame in 40 seeds")


def test_stepper_shows_the_month_summary_then_the_score_sheet() -> None:
    from musici.widgets import GameStepper

    stepper = GameStepper(players=("greedy", "greedy", "random", "random"), seed=4)
    assert stepper.summary_view.value == ""
    stepper.advance("month")
    assert "class='month-summary' data-month='1'" in stepper.summary_view.value
    stepper.advance("end")
    value = stepper.summary_view.value
    assert "class='score-sheet'" in value and "winner-banner" in value
    assert value == summary_html(stepper.game, 0, stepper.labels())
    assert "<details class='last-month'>" in value and "data-month='12'" in value


def test_standings_rows_read_as_a_person_writes_them(game: Game) -> None:
    res = game.results
    assert res is not None
    rows = standings_rows(game)
    assert [(r["seat"], r["rank"], r["money"]) for r in rows] == \
        [(s["seat"], s["rank"], s["money"]) for s in game.standings()]
    for r in rows:
        assert r["fame"] == fame_text(res["fame"][r["seat"]])
        assert r["winner"] == ("winner" if r["seat"] in res["winners"] else "")


# ---------------------------------------------------------------------------- in a browser
BROWSER_BOTS = ("greedy", "greedy", "greedy", "random")
BROWSER_SEED = 5


@pytest.mark.slow
@pytest.mark.browser
def test_score_sheet_in_the_browser_equals_game_results(tmp_path_factory) -> None:
    """Voila + Chromium at 1280x720: press **end** on a stepper of bots; the page's score
    sheet shows every END award with its rule id and the final fame and money of
    ``game.results`` (the same seed and bots played here). ~30 s; run with ``-m slow``."""
    import nbformat
    import test_browser as tb

    if tb.missing_pieces():
        pytest.skip("needs " + "; ".join(tb.missing_pieces()))
    from playwright.sync_api import sync_playwright

    home = tmp_path_factory.mktemp("voila-summary")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "from musici.widgets import GameStepper\n"
        f"GameStepper(players={BROWSER_BOTS!r}, seed={BROWSER_SEED})")]
    notebook = home / "summary.ipynb"
    nbformat.write(nb, notebook)
    game = Game(4, seed=BROWSER_SEED).play([make_strategy(b) for b in BROWSER_BOTS])
    res = game.results
    assert res is not None
    with tb.serve_voila(notebook, home, home, "") as voila, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=tb.CHROMIUM, args=tb.CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.set_default_timeout(60_000)
            page.goto(voila.url, wait_until="commit", timeout=120_000)
            page.wait_for_selector(".game-stepper .end-btn", timeout=120_000)
            page.click(".game-stepper .end-btn")
            sheet = page.wait_for_selector(".game-stepper .summary-view .score-sheet",
                                           timeout=180_000)
            assert sheet is not None
            rules = [r.get_attribute("data-rule")
                     for r in page.query_selector_all(".score-sheet .award-row")]
            assert rules == [a["rule"] for a in res["awards"]]
            for award, row in zip(res["awards"], page.query_selector_all(
                    ".score-sheet .award-row"), strict=True):
                assert award["rule"] in row.inner_text()
                assert f"+{fame_text(award['share'])}" in row.inner_text()
            for s in range(4):
                row = page.query_selector(f".score-sheet .sheet-row[data-seat='{s}']")
                assert row is not None
                assert row.query_selector(".final-fame").inner_text() == fame_text(res["fame"][s])
                assert row.query_selector(".final-money").inner_text() == f"{res['money'][s]} G"
            banner = page.query_selector(".score-sheet .winner-banner")
            assert banner is not None and banner.is_visible()
            box = banner.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 1280
            sheet.screenshot(path=str(tmp_path_factory.getbasetemp() / "score-sheet.png"))
        finally:
            browser.close()
