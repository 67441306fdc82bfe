"""The designer's playtest report (issue 19): verdicts with Holm-corrected tests, and one
self-contained HTML page with every card, at least five figures and no network.

The default tests use a 40-game, 4-month batch (a few seconds); the 400-game check of the
issue's bar (the merchant's dominance and the strong score cards stated, with intervals)
is marked slow.
"""

from __future__ import annotations

import ast
import html
import math
import re
from dataclasses import fields, replace
from pathlib import Path

import pandas as pd
import pytest

from musici.cards import standard_cardset
from musici.playtest import verdicts as V
from musici.playtest.report import Report, playtest_report, rerun_command
from musici.sim import simulate
from musici.sim.simulate import SimulationResult

LINEUP = ["impresario", "merchant", "collector", "greedy"]
CARDS = standard_cardset()
N_CARDS = len(CARDS.music) + len(CARDS.orchestras) + len(CARDS.specials)


@pytest.fixture(scope="module")
def small() -> SimulationResult:
    return simulate(LINEUP, games=40, seed=0, rules={"RULING-MONTHS": 4}, jobs=1,
                    progress=False)


@pytest.fixture(scope="module")
def report(small: SimulationResult) -> Report:
    return playtest_report(small)


@pytest.fixture(scope="module")
def page(report: Report) -> str:
    return report.to_html()


def _section(page: str, name: str) -> str:
    match = re.search(rf'<section id="{name}">(.*?)</section>', page, re.S)
    assert match, f"no section {name}"
    return match.group(1)


def _stated_on_page(page: str) -> list[str]:
    """The findings the page states (bold verdict lines; the "not detectable" answers and
    the all-tests table are not statements)."""
    return [html.unescape(re.sub(r"<[^>]+>", "", t)).removeprefix("⚑ flagged ")
            for t in re.findall(r'<span class="verdict">(.*?)</span>', page, re.S)]


def _card_rows(page: str) -> int:
    table = re.search(r'<table id="card-table">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert table
    return table.group(1).count("<tr")


# ---------------------------------------------------------------------------- statistics
def test_holm_adjusts_step_down_and_skips_missing_p_values() -> None:
    adjusted = V.holm([0.01, 0.04, 0.03, 0.005, math.nan])
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1, kept monotone: 0.02, 0.03, 0.06, 0.06
    assert adjusted[:4] == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert math.isnan(adjusted[4])
    assert V.holm([]) == []
    assert V.holm([0.9, 0.8]) == pytest.approx([1.0, 1.0])  # never above 1, monotone


def test_one_proportion_test_agrees_with_its_wilson_interval() -> None:
    for wins, n in ((50, 100), (35, 100), (33, 100), (18, 100), (200, 400), (0, 40)):
        t = V.one_proportion(wins, n, 0.25)
        assert t.low <= t.estimate <= t.high
        excluded = not (t.low <= 0.25 <= t.high)
        assert excluded == (t.p < 0.05), (wins, n, t)
    t = V.one_proportion(100, 400, 0.25)
    assert t.p == pytest.approx(1.0) and t.estimate == 0.25


def test_two_sample_tests_estimate_intervals_and_p_values() -> None:
    t = V.two_proportions(60, 100, 40, 100)
    assert t.estimate == pytest.approx(0.2) and t.low < 0.2 < t.high and t.p < 0.01
    same = V.two_proportions(30, 100, 30, 100)
    assert same.estimate == 0 and same.p == pytest.approx(1.0)
    d = V.difference_in_means([1.0, 2.0, 3.0, 4.0] * 10, [0.0, 1.0, 2.0, 3.0] * 10)
    assert d.estimate == pytest.approx(1.0) and d.low < 1 < d.high and d.p < 0.01
    m = V.one_sample_mean([0.1, -0.1] * 20, 0.0)
    assert m.estimate == pytest.approx(0.0) and m.p == pytest.approx(1.0)
    assert math.isnan(V.difference_in_means([1.0], [2.0, 3.0]).p)  # too few: no test


def _fake(p: float, text: str, topic: str = "venue") -> V.Verdict:
    return V.Verdict(text=text, estimate=1.0, interval=(0.5, 1.5), test="made up", p=p,
                     topic=topic, subject="made up")


def test_apply_holm_states_only_what_clears_the_correction() -> None:
    verdicts = V.apply_holm([_fake(0.001, "a"), _fake(0.026, "b"), _fake(0.04, "c")])
    # Holm: 0.003, 0.052, 0.052: "b" and "c" have raw p < 0.05 but are not stated
    assert [v.significant for v in verdicts] == [True, False, False]
    assert [v.statement for v in verdicts] == ["a", "", ""]
    assert verdicts[1].p_adjusted == pytest.approx(0.052)
    headline = replace(_fake(0.3, "x"), headline=True, null_text="not detectable (± 4 points)")
    assert V.apply_holm([headline])[0].statement == "not detectable (± 4 points)"


def test_the_verdicts_module_needs_no_html_or_plotting() -> None:
    """The what-if workbench calls batch_verdicts too: no page, no figure behind it."""
    tree = ast.parse(Path(V.__file__).read_text(encoding="utf-8"))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not {n for n in names if n.split(".")[0] in ("plotly", "html", "ipywidgets")
                or n.startswith("musici.playtest.report") or n.startswith("musici.html")}


# ---------------------------------------------------------------------------- verdicts
def test_batch_verdicts_answer_the_headline_questions(small: SimulationResult) -> None:
    verdicts = V.batch_verdicts(small, cards=CARDS, min_plays=10)  # a small batch
    topics = V.by_topic(verdicts)
    assert len(topics["strategy"]) == 4 and len(topics["turn"]) == 4
    assert len(topics["seat"]) == 4 and len(topics["matchup"]) == 6
    assert {"card", "venue"} <= set(topics)
    m = V.number_of_tests(verdicts)
    adjusted = V.holm([v.p for v in verdicts])
    for v, adj in zip(verdicts, adjusted, strict=True):
        assert v.interval[0] <= v.estimate <= v.interval[1], v
        assert v.test and not math.isnan(v.p)
        assert v.p_adjusted == pytest.approx(adj) and v.p_adjusted >= v.p
        assert v.significant == (v.p_adjusted < V.ALPHA)
        if v.headline:
            assert v.statement, v  # a headline question is always answered
            if not v.significant:
                assert "not detectable at this sample size" in v.null_text or \
                    "detectable at this sample size" in v.null_text
    assert m == len(verdicts)
    # headline topics come first
    first_other = next(i for i, v in enumerate(verdicts) if not v.headline)
    assert all(not v.headline for v in verdicts[first_other:])
    # a flagged card is a significant card verdict far above its kind's mean
    for v in verdicts:
        if v.flagged:
            assert v.topic == "card" and v.significant and v.data["ratio"] >= V.FLAG_RATIO


def test_turn_positions_come_from_the_turn_column_or_the_seed(small: SimulationResult
                                                               ) -> None:
    from musici.playtest.quality import start_players

    replayed = V.turn_positions(replace(small, players=small.players.drop(
        columns=[c for c in ("turn",) if c in small.players.columns])))
    starts = start_players(small)
    expected = (small.players.seat - small.players.game.map(starts)) % 4
    assert (replayed.to_numpy() == expected.to_numpy()).all()
    if "turn" in small.players.columns:  # the frames record it: the two agree
        assert (small.players.turn.to_numpy() == expected.to_numpy()).all()


def test_headline_summary_groups_what_is_not_detectable() -> None:
    turn = [replace(_fake(0.5, f"position {k}", "turn"), headline=True, subject=str(k),
                    interval=(0.2, 0.3 + k / 50), null_text=f"no position {k} advantage")
            for k in range(4)]
    lines = V.headline_summary(V.apply_holm(turn))
    assert len(lines) == 1
    text, items, stated = lines[0]
    assert not stated and len(items) == 4
    assert text == ("no start-player or turn-order advantage detectable at this sample size "
                    "(± 8 points)")


# ---------------------------------------------------------------------------- the page
def test_the_page_opens_with_the_verdicts_and_states_the_holm_correction(
        report: Report, page: str) -> None:
    sections = re.findall(r'<section id="([^"]+)"', page)
    assert sections[0] == "verdicts"
    assert {"fame", "cards", "venues", "pacing", "seats", "matchups", "caveat"} <= set(sections)
    verdicts = _section(page, "verdicts")
    assert f"Holm–Bonferroni correction over all {report.tests} tests in this report" in \
        verdicts
    on_page = _stated_on_page(verdicts)
    for v in report.stated:
        assert v.text in on_page, v.text
    assert all(any(t == v.text for v in report.stated) for t in on_page)
    # the headline questions are answered, found or not
    assert "Strategy dominance" in verdicts and "Start player and turn order" in verdicts
    assert "Physical seat" in verdicts
    assert page.index('id="verdicts"') < page.index('id="fig-win-share"')


def test_every_card_of_the_set_is_in_the_card_table(report: Report, page: str) -> None:
    assert _card_rows(page) == N_CARDS == 97
    table = report.tables["cards"]
    assert set(table.card) == {*CARDS.music, *CARDS.orchestras, *CARDS.specials}
    played = table[table.kind.isin(["score", "discovery"])]
    assert (played.plays.fillna(0) >= 0).all()


def test_the_page_has_five_figures_and_needs_no_network(report: Report, page: str) -> None:
    from plotly.offline import get_plotlyjs

    assert len(report.figures) >= 5
    assert {"win-share", "fame-sources", "fame-by-month", "card-fame", "venues"} <= set(
        report.figures)
    assert page.count('class="plotly-graph-div"') >= 5
    assert page.count(get_plotlyjs()[:300]) == 1  # plotly.js inline, once
    assert not re.search(r"<script[^>]*\bsrc=", page)
    assert not re.search(r"""<(?:link|img|iframe)[^>]*(?:href|src)=["']?(?:https?:)?//""", page)
    body = report.body_html()
    assert "http://" not in body and "https://" not in body


def test_where_fame_comes_from_adds_up_to_the_final_fame(report: Report) -> None:
    sources = report.tables["fame_sources"].set_index("strategy")
    parts = sources.drop(columns="fame").sum(axis=1)
    assert parts.to_numpy() == pytest.approx(sources.fame.to_numpy())
    if not report.notes:  # the batch has the awards frame: END.1 ... END.4 one by one
        assert any(c.startswith("END.1") for c in sources.columns)


def test_a_verdict_just_above_its_holm_threshold_is_not_stated(small: SimulationResult
                                                                ) -> None:
    base = V.batch_verdicts(small)
    ps = [v.p for v in base]
    m = len(ps) + 2  # the two below join the correction
    p_b = 0.9 * V.ALPHA
    below = sum(p < p_b for p in ps) + 1  # the tiny one below is smaller too
    p_b = 1.01 * V.ALPHA / (m - below)  # just above its Holm threshold
    assert p_b < V.ALPHA  # stated without a correction
    tiny = _fake(1e-12, "a made-up finding that clears any correction")
    marginal = _fake(p_b, "a made-up finding just above its corrected threshold")
    rep = playtest_report(small, extra=[tiny, marginal])
    stated = {v.text for v in rep.stated}
    assert tiny.text in stated and marginal.text not in stated
    verdicts = _section(rep.to_html(), "verdicts")
    on_page = _stated_on_page(verdicts)
    assert tiny.text in on_page and marginal.text not in on_page
    assert f"over all {m} tests" in verdicts


def test_an_old_batch_without_the_new_frames_degrades_gracefully(
        small: SimulationResult, tmp_path: Path) -> None:
    # as SimulationResult.read_parquet gives a result written before these frames existed:
    # no turn, decisions or style column, the awards and cards frames empty
    empty = {"awards": pd.DataFrame(columns=["game", "seat", "strategy", "award", "fame"]),
             "cards": pd.DataFrame(columns=["game", "card", "kind", "offered", "drawn_by",
                                            "bought_by", "played_by", "discarded", "held_by"])}
    old = replace(
        small,
        players=small.players.drop(columns=[c for c in ("turn", "decisions")
                                            if c in small.players.columns]),
        concerts=small.concerts.drop(columns=[c for c in ("style",)
                                              if c in small.concerts.columns]),
        **{k: v for k, v in empty.items() if k in {f.name for f in fields(small)}})
    rep = playtest_report(old)
    page = rep.to_html()
    assert "The awards frame is not in this batch" in page
    assert "The cards frame is not in this batch" in page
    assert "decisions column is not in this batch" in page
    assert 'id="notes"' in page and rerun_command(small.config) in page.replace("&#x27;", "'")
    assert _card_rows(page) == N_CARDS
    assert len(rep.figures) >= 5
    path = rep.save(tmp_path / "old.html")
    assert path.read_text(encoding="utf-8") == page


def test_mirror_tables_and_three_against_four_players(small: SimulationResult, page: str
                                                      ) -> None:
    three = simulate(["merchant", "merchant", "collector"], games=12, seed=1,
                     rules={"RULING-MONTHS": 4}, jobs=1, progress=False)
    moved = {n: getattr(three, n).assign(game=getattr(three, n).game + 1000)
             for n in three.frames if isinstance(getattr(three, n, None), pd.DataFrame)
             and "game" in getattr(three, n).columns}
    both = replace(small, **{n: pd.concat([getattr(small, n), frame], ignore_index=True)
                             for n, frame in moved.items()})
    rep = playtest_report(both)
    mixed = rep.to_html()
    pacing = _section(mixed, "pacing")
    assert "<h3>3 players</h3>" in pacing and "<h3>4 players</h3>" in pacing
    players = [v for v in rep.verdicts if v.topic == "players"]
    assert players and all(v.text.startswith("games of 3 players differ from games of 4")
                           for v in players)
    assert 'id="mirror-table"' in _section(mixed, "matchups")
    assert "No mirror tables" in _section(page, "matchups")
    # the fair share of a strategy is 1/3 at a table of 3, 1/4 at a table of 4
    merchant = next(v for v in rep.verdicts if v.topic == "strategy" and v.subject == "merchant")
    assert 0.25 < merchant.null < 1 / 3 and "game as unit" in merchant.test


def test_the_verdicts_are_re_measured_on_ismcts_seats(small: SimulationResult, page: str
                                                      ) -> None:
    # the impresario's seats relabelled: the report treats them as the strong bot's
    renamed = {n: getattr(small, n).replace({"strategy": {"impresario": "ismcts"}})
               for n in small.frames if isinstance(getattr(small, n, None), pd.DataFrame)
               and "strategy" in getattr(small, n).columns}
    strong = replace(small, **renamed,
                     config={**small.config, "players": ["ismcts", *LINEUP[1:]]})
    rep = playtest_report(strong)
    again = [v for v in rep.verdicts if v.topic == "ismcts"]
    assert again and all(v.text.startswith("on the ismcts seats, ") for v in again)
    assert V.number_of_tests(rep.verdicts) == len(rep.verdicts)  # one correction for all
    caveat = _section(rep.to_html(), "caveat")
    assert "Re-measured on the ismcts seats" in caveat and "+590 [+536, +653]" in caveat
    assert "No ismcts seats in this batch" in _section(page, "caveat")


def test_the_report_notebook_view_is_a_self_contained_frame(report: Report) -> None:
    shown = report._repr_html_()
    assert shown.startswith("<iframe") and "srcdoc=" in shown
    assert "Verdicts" in shown and repr(report).startswith("<Report")


def test_the_causal_check_neutralises_a_card_on_the_same_seeds(small: SimulationResult
                                                                ) -> None:
    from musici.playtest.report import causal_checks

    checks, verdicts = causal_checks(small, CARDS, ["S14"], 8, excess={"S14": 2.3}, jobs=1,
                                     progress=False)
    [check] = checks
    assert check.card == "S14" and check.delta == -2
    assert len(verdicts) == 4 and {v.topic for v in verdicts} == {"causal"}
    for v in verdicts:
        assert v.text.startswith("neutralising S14 (fame -2 on every rating) moves the ")
        assert v.n == 8 and v.unit == "share"
    wins = check.effects[check.effects.metric == "win share"]
    assert len(wins) == 4 and abs(wins.effect.sum()) < 1e-9  # win shares move between lines


def test_report_options_causal_without_flags_and_a_fresh_ladder(small: SimulationResult
                                                                ) -> None:
    rep = playtest_report(small, causal=8, ladder=4, jobs=1, progress=False)
    page = rep.to_html()
    causal = _section(page, "causal")
    assert "No card is flagged, so there is nothing to neutralise." in causal
    assert 'id="ladder-now"' in _section(page, "caveat")
    assert set(rep.tables["ladder"].bot) == set(LINEUP)


def test_musici_report_from_a_result_directory(small: SimulationResult, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from musici.cli import main

    directory = small.to_parquet(tmp_path / "batch")
    out = tmp_path / "report.html"
    assert main(["report", "--from", str(directory), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "verdicts stated of" in printed and f"report written to {out}" in printed
    assert "the merchant line" in printed  # the headline answers are printed too
    page = out.read_text(encoding="utf-8")
    assert re.findall(r'<section id="([^"]+)"', page)[0] == "verdicts"
    assert _card_rows(page) == N_CARDS
    assert f"<code>{directory}</code>" in page
    assert main(["report", "--from", "", "--out", str(out)]) == 2


# ---------------------------------------------------------------------------- the bar
@pytest.mark.slow
def test_a_400_game_batch_states_the_merchant_and_the_strong_score_cards(tmp_path: Path
                                                                         ) -> None:
    from musici.cli import main

    directory = tmp_path / "b400"
    assert main(["simulate", "--players", ",".join(LINEUP), "--games", "400", "--jobs", "2",
                 "--quiet", "--out", str(directory)]) == 0
    out = tmp_path / "report.html"
    assert main(["report", "--from", str(directory), "--out", str(out), "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    verdicts = _section(page, "verdicts")
    merchant = re.search(r"the merchant line wins (\d+) % \[(\d+), (\d+)\] of its seats where "
                         r"25 % is fair: it dominates", verdicts)
    assert merchant and int(merchant.group(2)) > 25
    for card in ("S14", "S18"):
        assert re.search(rf"flagged</span> {card} \([^)]*\) scores about twice the mean score "
                         rf"card: [\d.]+ fame per play against [\d.]+ \(\+[\d.]+ \[[\d.]+, "
                         rf"[\d.]+\]", verdicts), card
    assert "large academic tour is almost never taken" in verdicts
    assert _card_rows(page) == N_CARDS
    assert page.count('class="plotly-graph-div"') >= 5
