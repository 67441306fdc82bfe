"""musici.analysis: explanations cite the right rules, the bonus graph uses the engine's
restoration, trajectories follow the log, and HTML never shows a hidden hand."""

from __future__ import annotations

import random
import subprocess
import sys

import pandas as pd
import pytest
from conftest import advance_to, make_game
from test_rule_coverage import documented_ids

from musici import Game, standard_cardset
from musici import rating as R
from musici.analysis import (
    PAYMENT_KINDS,
    Line,
    bonus_breakdown,
    bonus_figure,
    bonus_for_seat,
    cardset_html,
    composer_graph,
    composer_labels,
    composer_layout,
    explain_concert,
    explain_event,
    explain_payment,
    fame_figure,
    fame_points,
    fan_chart,
    game_html,
    lineage_figure,
    results_html,
)
from musici.analysis.bonus_graph import CHAR_PX, LABEL_GAP_PX, MARGIN, lineage_tree_layout
from musici.analysis.palette import STRATEGY_COLOURS, strategy_colour
from musici.cards import cardset_from_data, standard_cardset_data
from musici.strategies import greedy_strategy, random_strategy

CARDS = standard_cardset()


def orchestras(style: str, instrumental: int, vocal: int) -> tuple[str, ...]:
    pick = []
    for part, k in (("instrumental", instrumental), ("vocal", vocal)):
        pick += [o.id for o in CARDS.orchestras.values() if o.style == style and o.part == part][:k]
    return tuple(pick)


def concert(card: str, stage: tuple[str, ...], *, venue: str = "opera", played: tuple[str, ...] = (),
            markers: dict[str, int] | None = None, media: bool = False,
            permanent: tuple[str, ...] = (), **options: object) -> tuple[Game, object]:
    """Hold one hand-built concert as the start player's first P4 action; returns
    (game, concert event)."""
    g = make_game(players=4, seed=3, RULING_MONTHS=1, **options)
    advance_to(g, "action")
    seat = g.decision.player
    for p in g.players:
        p.hand, p.played, p.orchestras, p.markers, p.permanent = [], [], [], {}, []
        p.money, p.fame, p.concert, p.actions = 1000, 0, None, 0
    p = g.players[seat]
    p.hand = [card]
    p.played = list(played)
    p.orchestras = list(stage)
    p.markers = dict(markers or {})
    p.permanent = list(permanent)
    others = [a for a in ("chapel", "university", "dome", "opera", "small-commercial") if a != venue]
    areas = {seat: venue}
    rest = iter(others)
    for q in g.players:
        if q.seat != seat:
            areas[q.seat] = next(rest)
    for s, area in areas.items():
        g.players[s].venue = area
    g.venues = {a: s for s, a in areas.items()}
    g.media = seat if media else None
    g.chapel_free = None
    # ask the action again with options computed from the arranged table
    g.resume_at("action", seat)
    g.answer("concert")
    if g.decision.kind == "concert_card":
        g.answer(card)
    g.answer(stage)
    event = [e for e in g.events if e.kind == "concert"][-1]
    return g, event


def rules_of(lines: list[Line]) -> list[str]:
    return [line.rule for line in lines]


def holds(lines: list[Line], rule: str) -> bool:
    """Whether the explanation says condition ``rule`` holds."""
    texts = [line.text for line in lines if line.rule == rule]
    assert texts, f"no line cites {rule}"
    return texts[0].startswith("holds")


# ---------------------------------------------------------------------------- explain
@pytest.mark.rules("RATE.GOOD", "P3.TOUR")
def test_explain_good_concert_on_a_large_academic_tour():
    g, e = concert("S01", orchestras("authentic", 2, 2), venue="large-academic")
    lines = explain_concert(e, CARDS, g.rules)
    assert all(isinstance(line, Line) for line in lines)
    assert e.data["rating"] == "good" and e.data["fame"] == 14
    for rule in ("RATE.POOR.1", "RATE.POOR.2", "RATE.POOR.3", "RATE.POOR.4",
                 "RATE.FAIR.1", "RATE.FAIR.2", "RATE.FAIR.3"):
        assert not holds(lines, rule)
    cited = rules_of(lines)
    assert "RATE.GOOD" in cited and "P3.TOUR" in cited and "P4.CONCERT.4" in cited
    assert "RATE.POOR.5" not in cited  # a score card: no restoration condition
    tour = next(line for line in lines if line.rule == "P3.TOUR")
    assert "×2" in tour.text and "14" in tour.text
    assert str(lines[0]).endswith("[COMP.5]")


@pytest.mark.rules("RATE.FAIR.1", "RATE.POOR.1")
def test_explain_wrong_style_fair_or_poor():
    _, fair = concert("S05", orchestras("modern", 2, 2))
    lines = explain_concert(fair, CARDS)
    assert holds(lines, "RATE.FAIR.1") and not holds(lines, "RATE.POOR.1")
    _, poor = concert("S05", orchestras("modern", 1, 1))
    lines = explain_concert(poor, CARDS)
    assert holds(lines, "RATE.POOR.1")
    assert any(line.rule == "RATE.FAIR.1" and line.text.startswith("not checked") for line in lines)


@pytest.mark.rules("RATE.FAIR.2", "RATE.FAIR.3", "RATE.MEDIA")
def test_explain_short_marker_and_media():
    _, short = concert("S03", orchestras("modern", 1, 0))
    assert holds(explain_concert(short, CARDS), "RATE.FAIR.2")
    stage = orchestras("authentic", 2, 0)
    _, marked = concert("S03", stage, markers={stage[0]: 1})
    lines = explain_concert(marked, CARDS)
    assert holds(lines, "RATE.FAIR.3") and not holds(lines, "RATE.POOR.4")
    _, raised = concert("S03", stage, markers={stage[0]: 1}, media=True)
    lines = explain_concert(raised, CARDS)
    media = next(line for line in lines if line.rule == "RATE.MEDIA")
    assert raised.data["rating"] == "good" and "fair → good" in media.text
    _, two = concert("S03", stage, markers={stage[0]: 1, stage[1]: 1})
    assert holds(explain_concert(two, CARDS), "RATE.POOR.4")


@pytest.mark.rules("RESTORE.1", "RESTORE.2", "RESTORE.3", "RATE.POOR.5")
def test_explain_restoration_by_lineage_and_its_absence():
    g, e = concert("D09", orchestras("authentic", 1, 0), played=("S07",))
    lines = explain_concert(e, CARDS, g.rules)
    assert e.data["restoration"]["bonus"] == 1 and e.data["rating"] == "good"
    lineage = next(line for line in lines if line.rule == "RESTORE.2")
    assert "S07" in lineage.text and "Domenico Scarlatti" in lineage.text  # the path
    assert not holds(lines, "RATE.POOR.5")
    assert "RESTORE.3" in rules_of(lines)
    assert not any(line.text.startswith("Note:") for line in lines)
    g, e = concert("D09", orchestras("authentic", 1, 0), played=("S07",), RULING_LINEAGE="direct")
    lines = explain_concert(e, CARDS, g.rules)
    assert holds(lines, "RATE.POOR.5")
    assert any(line.rule == "RESTORE.1" and "no earlier played card" in line.text for line in lines)


@pytest.mark.rules("RESTORE.4", "RESTORE.5", "P3.TOUR.4")
def test_explain_cap_pioneer_and_rounding():
    played = ("S01", "S02", "S04", "S10", "S03", "S06")
    g, e = concert("D01", orchestras("authentic", 1, 2), played=played, permanent=("P6",),
                   venue="small-academic")
    lines = explain_concert(e, CARDS, g.rules)
    assert e.data["restoration"]["capped"]
    assert "RESTORE.4" in rules_of(lines) and "RESTORE.5" in rules_of(lines)
    assert e.data["fame"] == 15  # 10 x 1.5
    _, e = concert("S11", orchestras("authentic", 1, 1), venue="small-commercial")
    lines = explain_concert(e, CARDS)
    assert e.data["income"] == 335  # 337.5 G toward zero in steps of 5 G
    assert "P3.TOUR.3" in rules_of(lines) and "P3.TOUR.4" in rules_of(lines)


def _played_game(seed: int) -> Game:
    return Game(4, seed=seed).play([greedy_strategy, random_strategy] * 2)


@pytest.mark.rules("P5.1", "P5.2", "P5.3", "END.5")
def test_explain_payment_cites_the_event_rule_for_every_money_event():
    seen = set()
    known = documented_ids() | {"RATE"}  # "RATE": the section defining the requirement
    for seed in (1, 2):
        g = _played_game(seed)
        for e in g.events:
            if e.kind in PAYMENT_KINDS:
                lines = explain_payment(e, g.cards)
                assert lines and e.rule in rules_of(lines), (e, lines)
                seen.add(e.kind)
            lines = explain_event(e, g.cards, g.rules)
            assert lines and all(line.text and line.rule in known for line in lines), lines
    assert {"pay", "income", "fame", "award"} <= seen
    with pytest.raises(ValueError):
        explain_payment(next(e for e in g.events if e.kind == "venue"), g.cards)
    venue = next(e for e in g.events if e.kind == "venue")
    (line,) = explain_event(venue, g.cards)
    assert line.rule == "P3.1" and "[" not in line.text


# ---------------------------------------------------------------------------- bonus
def test_bonus_breakdown_equals_the_engines_restoration():
    rng = random.Random(5)
    music = list(CARDS.music)
    discoveries = [c.id for c in CARDS.discoveries]
    for _ in range(200):
        d = rng.choice(discoveries)
        played = rng.sample([m for m in music if m != d], rng.randrange(0, 8))
        kw = {"pioneer": rng.random() < 0.3, "lineage_any_depth": rng.random() < 0.5}
        good, lineage_only = rng.random() < 0.7, rng.random() < 0.3
        frame = bonus_breakdown(CARDS, d, played, good=good, lineage_only_needs_good=lineage_only,
                                **kw)
        expected = R.restoration(CARDS, CARDS.music[d], played, **kw).bonus(
            good=good, lineage_only_needs_good=lineage_only)
        assert frame.attrs["bonus"] == expected == frame.points.sum()
        assert list(frame.card[: len(played)]) == played


@pytest.mark.rules("RESTORE.2")
def test_bonus_breakdown_lineage_depth():
    deep = bonus_breakdown(CARDS, "D09", ["S07"])
    assert deep.attrs["bonus"] == 1 and deep.why[0] == "lineage"
    direct = bonus_breakdown(CARDS, "D09", ["S07"], lineage_any_depth=False)
    assert direct.attrs["bonus"] == 0 and not direct.attrs["found"]
    with pytest.raises(ValueError):
        bonus_breakdown(CARDS, "S01", [])


def test_bonus_for_seat_matches_recorded_concerts():
    checked = nonzero = 0
    for seed in range(12):
        g = _played_game(seed)
        for e in g.events:
            if e.kind == "concert" and e.data["kind"] == "discovery":
                frame, bonus = bonus_for_seat(g, e.player, e.data["card"])
                assert bonus == e.data["restoration"]["bonus"], (seed, e)
                assert frame.attrs["found"] == e.data["restoration"]["found"]
                checked += 1
                nonzero += bonus > 0
    assert checked >= 3 and nonzero >= 1


def test_bonus_for_seat_mid_game_uses_played_cards_and_pioneer():
    g = make_game(seed=2)
    advance_to(g, "action")
    p = g.players[1]
    p.played, p.permanent = ["S07", "S16"], ["P6"]
    frame, bonus = bonus_for_seat(g, 1, "D09")
    assert bonus == R.restoration(CARDS, CARDS.music["D09"], ["S07", "S16"], pioneer=True).bonus(
        good=True)
    assert list(frame.card) == ["S07", "S16", "P6"]


def test_composer_graph_and_figure_highlights():
    graph = composer_graph(CARDS)
    assert set(graph.nodes) == set(CARDS.composers)
    assert graph.has_edge("corelli", "geminiani") and graph.nodes["js-bach"]["n_cards"] == 4
    plain = bonus_figure(CARDS)
    composers = [c for t in plain.data if t.meta in ("baroque", "classical", "romantic")
                 for c in t.customdata]
    assert sorted(composers) == sorted(CARDS.composers)  # one node per composer
    played = ["S07", "S16", "S25"]  # for Soler's D09: lineage, era (classical), nothing
    frame = bonus_breakdown(CARDS, "D09", played)
    fig = bonus_figure(CARDS, "D09", played)
    traces = {t.meta: t for t in fig.data}
    assert list(traces["discovery"].customdata) == ["soler"]
    adds = {CARDS.music[c].composer for c, a, b in zip(frame.card, frame.nationality_or_era,
                                                        frame.composer_or_lineage, strict=True)
            if a + b}
    nothing = {CARDS.music[c].composer for c in played} - adds
    assert adds == {"a-scarlatti", "haydn"} and nothing == {"verdi"}
    assert set(traces["adds to the bonus"].customdata) == adds
    assert set(traces["played, adds nothing"].customdata) == nothing
    assert len(traces["lineage used"].x) > 0  # A. Scarlatti -> D. Scarlatti -> Soler
    assert f"+{frame.attrs['bonus']}" in fig.layout.title.text
    assert fig.layout.meta["bonus"] == frame.attrs["bonus"]


def test_composer_labels_tell_namesakes_apart():
    labels = composer_labels(composer_graph(CARDS))
    assert labels["js-bach"] == "Johann Sebastian Bach" and labels["cpe-bach"].endswith("Bach")
    assert labels["a-scarlatti"] != labels["d-scarlatti"]
    assert labels["mozart"] == "Mozart"  # a unique surname stays short
    assert len(set(labels.values())) == len(labels)


@pytest.mark.rules("RESTORE.1")
def test_composer_lanes_are_countries_as_restore_1_compares_them():
    graph = composer_graph(CARDS)
    layout = composer_layout(graph)
    assert set(layout.lanes) == {d["nationality"] for _, d in graph.nodes(data=True)}
    for node, (_, y) in layout.positions.items():  # every composer inside its country's lane
        top, bottom, _ = layout.lanes[graph.nodes[node]["nationality"]]
        assert bottom <= y <= top, node
    # Beethoven (German) and Hummel (Austrian) share a scoring group but not a lane
    lane = {n: graph.nodes[n]["nationality"] for n in ("beethoven", "hummel")}
    assert lane["beethoven"] != lane["hummel"]
    fig = bonus_figure(CARDS)
    assert list(fig.layout.yaxis.ticktext) == list(layout.lanes)


@pytest.mark.parametrize("width", [700, 1000, 1400])
def test_composer_labels_do_not_overlap_in_page_pixels(width):
    graph = composer_graph(CARDS)
    layout = composer_layout(graph, width)
    plot = width - MARGIN["l"] - MARGIN["r"]
    lo, hi = layout.x_range
    px = {n: (x - lo) / (hi - lo) * plot for n, (x, _) in layout.positions.items()}
    boxes = {n: (px[n] - 12, px[n] + LABEL_GAP_PX + CHAR_PX * len(layout.labels[n]) + 4,
                 layout.positions[n][1]) for n in graph.nodes}
    for a, (l1, r1, y1) in boxes.items():
        assert r1 <= plot, (a, "label runs past the plot")
        for b, (l2, r2, y2) in boxes.items():
            if a < b and y1 == y2:
                assert r1 < l2 or r2 < l1, (a, b)


def test_label_trace_marks_the_discovery_without_hiding_its_name():
    fig = bonus_figure(CARDS, "D09", ["S07", "S16"])
    traces = {t.meta: t for t in fig.data}
    labels = traces["composer names"]
    names = dict(zip(labels.customdata, labels.text, strict=True))
    assert names["soler"] == "<b>Soler</b>" and names["a-scarlatti"].startswith("<b>")
    assert names["verdi"] == "Verdi"
    star = traces["discovery"]
    label_x = dict(zip(labels.customdata, labels.x, strict=True))
    assert label_x["soler"] > star.x[0]  # the name starts right of the star, not under it
    assert labels.textposition == "middle right"


@pytest.mark.rules("RESTORE.2")
def test_lineage_tree_puts_every_pupil_one_generation_or_more_after_a_teacher():
    graph = composer_graph(CARDS)
    pos = lineage_tree_layout(graph)
    assert set(pos) == {n for n in graph.nodes if graph.degree(n)}
    for teacher, pupil in graph.edges:
        assert pos[pupil][0] > pos[teacher][0], (teacher, pupil)
    assert len(set(pos.values())) == len(pos)  # no two composers on one spot
    fig = lineage_figure(CARDS, "D09", ["S07"])
    traces = {t.meta: t for t in fig.data}
    assert list(traces["adds to the bonus"].customdata) == ["a-scarlatti"]
    assert len(traces["lineage used"].x) == 6  # two links: A. Scarlatti -> D. Scarlatti -> Soler


def test_palette_keeps_one_colour_per_strategy():
    assert strategy_colour("impresario") == strategy_colour("entry 3: greedy -> impresario")
    assert strategy_colour("search(rollouts=8)") == STRATEGY_COLOURS["search"]
    assert len(set(STRATEGY_COLOURS.values())) == len(STRATEGY_COLOURS)
    mine = strategy_colour("my_bot.py")
    assert mine == strategy_colour("my_bot.py") and mine not in STRATEGY_COLOURS.values()
    rows = [{"strategy": s, "month": m, "fame": m} for s in ("merchant", "collector")
            for m in (1, 2)]
    fig = fan_chart(pd.DataFrame(rows), title="variant arm")
    lines = {t.name: t.line.color for t in fig.data if "band" not in t.name}
    assert lines == {"collector": STRATEGY_COLOURS["collector"],
                     "merchant": STRATEGY_COLOURS["merchant"]}
    assert fig.layout.title.text.startswith("variant arm:")


# ---------------------------------------------------------------------------- trajectories
@pytest.mark.parametrize("steps", [None, 150])
def test_fame_points_follow_the_log(steps):
    g = Game(4, seed=4)
    g.play([greedy_strategy, random_strategy] * 2, max_steps=steps)
    points = fame_points(g)
    last = points.sort_values("step").groupby("seat").last()
    assert list(last.fame) == [p.fame for p in g.players]
    assert list(last.money) == [p.money for p in g.players]
    assert (points.groupby("seat").size() == points.step.nunique()).all()
    assert all(rows.x.is_monotonic_increasing for _, rows in points.groupby("seat"))
    if steps is None:
        assert points.month.max() == 12 and set(points.phase) >= {"P1", "P5"}


@pytest.mark.rules("P5.4", "COMP.1")
def test_fame_figure_has_threshold_lines():
    g = _played_game(1)
    fig = fame_figure(g, money=True)
    assert sorted(s.y0 for s in fig.layout.shapes) == [30, 50]
    assert all("P5.4" in a.text for a in fig.layout.annotations if a.text)
    names = [t.name for t in fig.data]
    assert all(f"seat {s}" in names and f"seat {s} money" in names for s in range(4))
    assert "final (END)" in names
    assert [t.name for t in fame_figure(g).data if "money" in t.name] == []


def test_fan_chart_traces():
    rows = [{"strategy": s, "month": m, "fame": m * (2 if s == "a" else 1) + k, "seat": 0}
            for s in ("a", "b") for m in range(1, 5) for k in range(5)]
    frame = pd.DataFrame(rows)
    fig = fan_chart(frame, bands=(0.5, 0.9))
    assert [t.name for t in fig.data] == ["a 90% band", "a 50% band", "a",
                                          "b 90% band", "b 50% band", "b"]
    median_a = next(t for t in fig.data if t.name == "a")
    assert list(median_a.y) == [m * 2 + 2 for m in range(1, 5)]
    band = fig.data[0]
    assert band.fill == "toself" and len(band.x) == 8
    assert max(band.y) == 4 * 2 + 4 - 0.2  # 95% quantile of month 4 (8..12)
    with pytest.raises(ValueError):
        fan_chart(frame, value="money")


# ---------------------------------------------------------------------------- HTML
def test_view_html_never_shows_another_hand():
    g = Game(4, seed=6)
    g.play([random_strategy] * 4, max_steps=60)
    hands = [set(p.hand) for p in g.players]
    public = set(g.score_market) | {c for p in g.players for c in p.played}
    for seat in range(4):
        page = g.view(seat)._repr_html_()
        assert page == game_html(g, seat)
        for other in range(4):
            for card in hands[other] - hands[seat] - public:
                shown = f"[{card}]" in page or CARDS.music[card].piece in page
                assert shown == (other == seat), (seat, other, card)
        for card in hands[seat]:
            assert f"[{card}]" in page
    full = g._repr_html_()
    assert all(f"[{c}]" in full for h in hands for c in h)


def test_html_escapes_and_renders():
    data = standard_cardset_data()
    data["name"] = "<script>alert(1)</script>"
    cards = cardset_from_data(data)
    page = cards._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert page == cardset_html(cards) and page.count("<details>") == 5
    g = _played_game(1)
    res = results_html(g)
    assert "Awards" in res and "END.1" in res
    assert "not finished" in results_html(Game(4, seed=1))


def test_simulation_result_html():
    from musici.sim import simulate

    result = simulate(["greedy", "random", "random"], games=3, jobs=1, rules={"RULING-MONTHS": 2})
    page = result._repr_html_()
    assert "win_rate" in page and "greedy" in page


def test_analysis_layer_imports_no_widgets():
    code = ("import sys, musici.analysis, musici; musici.Game(4, seed=1)._repr_html_(); "
            "bad = [m for m in ('ipywidgets', 'IPython', 'plotly') if m in sys.modules]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------------------- review fixes
def test_explain_lineage_says_direct_teacher_or_via():
    g, e = concert("D09", orchestras("authentic", 1, 0), played=("S07",))
    (line,) = [line for line in explain_concert(e, CARDS, g.rules) if line.rule == "RESTORE.2"]
    assert "(via Domenico Scarlatti)" in line.text and "any depth" not in line.text
    g, e = concert("D13", orchestras("modern", 2, 0), played=("S13",))  # Mozart taught Hummel
    lines = explain_concert(e, CARDS, g.rules)
    assert any(line.rule == "RESTORE.2" and "Mozart → Johann Nepomuk Hummel (direct teacher)"
               in line.text for line in lines), [str(line) for line in lines]


@pytest.mark.rules("P5.8", "P4.CONCERT.4")
def test_explain_concert_fame_loss_stopped_at_zero():
    from musici.strategies import make_strategy

    g = Game(3, 0).play([make_strategy(s) for s in ("collector", "collector", "impresario")])
    i, e = next((i, e) for i, e in enumerate(g.events) if e.kind == "concert"
                and g.events[i + 1].kind == "fame" and g.events[i + 1].data.get("floored"))
    fame = g.events[i + 1]
    before = next((x.data["fame"] for x in reversed(g.events[:i]) if x.kind == "fame"
                   and x.player == e.player), 0)
    lines = explain_event(e, g.cards, g.rules, events=g.events)
    floor = [line for line in lines if line.rule == "P5.8"]
    assert floor and f"{before} → {fame.data['fame']}" in floor[0].text
    assert f"{fame.data['fame'] - before:+d}" in floor[0].text
    assert not any("gained at once" in line.text for line in lines)
    # without the events, the rules still say that a loss stops at 0
    assert any(line.rule == "P5.8" for line in explain_concert(e, g.cards, g.rules))


@pytest.mark.rules("RULING-STYLE")
def test_explain_best_of_card_names_the_orchestras_style():
    from musici.rules import RuleSet
    from musici.strategies import make_strategy

    rules = RuleSet.from_options({"RULING-STYLE": "best-of-card"})
    g = Game(4, 0, rules).play([make_strategy(s) for s in
                                ("collector", "collector", "impresario", "random")])
    switched = [e for e in g.events if e.kind == "concert"
                and g.cards.performer(e.data["orchestras"][0])[0] != e.data["style"]]
    assert switched
    for e in switched:
        d = e.data
        own_style = g.cards.performer(d["orchestras"][0])[0]
        own = R.rate_concert(g.cards.music[d["card"]], own_style, tuple(d["brought"]), d["markers"],
                             restored=d["restoration"] is None or d["restoration"]["found"],
                             media=d["media"])
        text = " ".join(line.text for line in explain_concert(e, g.cards, g.rules)
                        if line.rule == "RULING-STYLE")
        assert f"orchestras were of the {own_style} style" in text
        assert f"other corner ({own_style}) would have rated {own.level}" in text
        assert f"against {d['rating']} in the {d['style']} corner" in text
        assert "the better corner was taken" in text


# ---------------------------------------------------------------------------- rating map
@pytest.mark.rules("RATE.POOR.2", "RATE.POOR.3", "RATE.FAIR.2", "RATE.GOOD")
def test_rating_heatmap_cells_are_the_engines_ratings():
    from musici.analysis.rating_map import rating_heatmap
    from musici.rating import FAME_INDEX, rate_concert

    card = CARDS.music["S04"]
    fig = rating_heatmap(CARDS, "S04", most=4)
    assert len(fig.data) == 2 and {t.type for t in fig.data} == {"heatmap"}
    for trace, style in zip(fig.data, ("authentic", "modern"), strict=True):
        for vocal in range(5):
            for inst in range(5):
                r = rate_concert(card, style, (inst, vocal), 0)
                assert trace.z[vocal][inst] == card.fame[FAME_INDEX[r.level]]
                assert trace.text[vocal][inst].startswith(r.level)
    authentic = fig.data[0]
    assert authentic.text[2][0] == "poor<br>POOR.2+3"  # no players and two short
    assert authentic.text[2][2] == "good"
    with pytest.raises(ValueError, match="styles must be"):
        rating_heatmap(CARDS, "S04", styles=["baroque"])
    with pytest.raises(KeyError):
        rating_heatmap(CARDS, "X99")
