"""The what-if workbench (musici.widgets.Workbench), its analysis helpers
(musici.analysis.whatif) and its verdicts (musici.playtest.headline), kernel-side: inputs
become the right arms (any base, several arms, card edits), a run fills verdicts, the
altered-games count, the edited cards' plays, effects, fame charts through END and the
compared flags; the same inputs give the same frames, and exports are written. The page
itself: test_browser_see.py."""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pandas as pd
import pytest

from musici.analysis.palette import strategy_colour
from musici.analysis.whatif import (
    ArmSpec,
    arm_cards,
    arm_comparisons,
    arm_setups,
    card_numbers,
    card_plays,
    combine_results,
    describe_edit,
    edit_cards,
    effects_figure,
    fame_through_end,
    flag_subject,
    flags_compared,
    flags_table,
    months_through_end,
    play_arms,
)
from musici.cards import CardSetError, standard_cardset
from musici.playtest.compare import Comparison, compare, paired_effects
from musici.playtest.headline import altered_games, arms_verdicts, comparison_verdicts, headline
from musici.ruletext import rule_text
from musici.sim import SimulationResult
from musici.widgets import Workbench
from musici.widgets.workbench import ruling_html

LINEUP = ["greedy", "random", "random"]  # three players: the fastest games


def small(**kwargs) -> Workbench:
    kwargs.setdefault("rules", {"RULING-MONTHS": 2})
    return Workbench(LINEUP, games=6, jobs=1, seed=3, **kwargs)


# ---------------------------------------------------------------- pictures and tables
def test_effects_figure_gives_every_metric_its_own_axis():
    effects = pd.DataFrame([
        {"metric": "win share", "who": "entry 0: greedy", "effect": 0.1, "low": -0.2, "high": 0.4,
         "base": 0.3, "variant": 0.4},
        {"metric": "win share", "who": "entry 1: random", "effect": -0.1, "low": -0.15,
         "high": -0.05, "base": 0.3, "variant": 0.2},
        {"metric": "final fame", "who": "entry 0: greedy", "effect": 8.0, "low": 2.0, "high": 14.0,
         "base": 20, "variant": 28},
        {"metric": "top fame", "who": "game", "effect": 1.0, "low": -3.0, "high": 5.0,
         "base": 30, "variant": 31}])
    fig = effects_figure(effects)
    assert [t.meta for t in fig.data] == ["win share", "final fame", "top fame"]
    assert len({t.xaxis for t in fig.data}) == 3  # one x axis per metric
    share = fig.data[0]
    assert list(share.error_x.array) == pytest.approx([0.3, 0.05])
    assert list(share.error_x.arrayminus) == pytest.approx([0.3, 0.05])
    assert list(share.marker.symbol) == ["circle-open", "circle"]  # only the second is clear
    assert share.marker.color[0] == strategy_colour("greedy")
    with pytest.raises(ValueError, match="no effects for metric"):
        effects_figure(effects, metrics=["money"])


def test_effects_figure_puts_every_arm_of_an_entry_on_its_own_row():
    rows = [{"arm": arm, "metric": "win share", "who": who, "effect": e, "low": e - 0.1,
             "high": e + 0.1, "base": 0.3, "variant": 0.3 + e}
            for arm, e in (("arm 1", 0.2), ("arm 2", 0.05)) for who in ("entry 0: greedy",
                                                                         "entry 1: random")]
    fig = effects_figure(pd.DataFrame(rows))
    assert list(fig.data[0].y) == ["entry 0: greedy · arm 1", "entry 0: greedy · arm 2",
                                   "entry 1: random · arm 1", "entry 1: random · arm 2"]
    assert list(fig.data[0].marker.symbol) == ["circle", "diamond-open", "circle",
                                               "diamond-open"]


def test_flags_table_names_the_test_behind_each_flag():
    flags = ["seat 2 wins 40.0% (95% CI 30.0%-50.0%) ...",
             "score card S07 gives 9.0 fame per play, more than ...",
             "dome is chosen 60% of the time (more than half of all venue choices)",
             "owners of special card P3 win 60.0% ...",
             "turn position 0 wins 40.0% (95% CI 30.0%-50.0%) ..."]
    table = flags_table(flags, "variant")
    assert list(table.kind) == ["seat", "card", "venue", "special", "turn"]
    assert table.test.str.len().min() > 20 and set(table.arm) == {"variant"}
    assert [flag_subject(f) for f in flags] == [("seat", "2"), ("card", "S07"), ("venue", "dome"),
                                                ("special", "P3"), ("turn", "0")]


def report(flags, **tables):
    empty = pd.DataFrame()
    return SimpleNamespace(flags=flags, by_seat=tables.get("by_seat", empty), by_turn=None,
                           by_strategy=tables.get("by_strategy", empty),
                           cards=tables.get("cards", empty), venues=empty, specials=empty)


def test_flags_are_compared_across_arms_not_repeated():
    strategies = pd.DataFrame({"strategy": ["greedy", "random"], "win_rate": [0.42, 0.29],
                               "win_low": [0.35, 0.25], "win_high": [0.5, 0.33]})
    cards = pd.DataFrame({"card": ["S07"], "fame_per_play": [4.5], "plays": [40]})
    flag = ("strategy greedy wins 70.0% of its seats (95% CI 60.0%-80.0%), more than 1.5x the "
            "33% of an even table: it dominates this line-up")
    card = ("score card S07 gives 12.0 fame per play, more than 2 sd above the score cards' "
            "mean 4.0 (41 plays)")
    table = flags_compared({"base": report([flag], by_strategy=strategies, cards=cards),
                            "arm 1": report([flag, card], by_strategy=strategies, cards=cards),
                            "arm 2": report([], by_strategy=strategies, cards=cards)})
    assert list(table.columns) == ["kind", "what", "base", "arm 1", "arm 2", "test"]
    assert list(table.what) == ["strategy greedy", "card S07"]  # one row per thing flagged
    row = table.iloc[0]
    assert row.base.startswith("⚑ wins 70.0% of its seats") and row["arm 1"] == row.base
    assert row["arm 2"] == "no flag: wins 42.0% (95% CI 35.0%-50.0%)"
    assert table.iloc[1].base == "no flag: 4.5 fame per play (40 plays)"
    assert table.iloc[1]["arm 1"].startswith("⚑ gives 12.0 fame per play")


def test_ruling_text_is_the_full_text_of_the_rules():
    html = ruling_html("RULING-MONTHS")
    assert "MONTH.4" in html and rule_text("MONTH.4")[:40] in html
    assert "default <code>12</code>" in html


# ---------------------------------------------------------------- arms and cards
def test_an_arm_states_what_it_changes_from_any_base():
    base = ArmSpec("base", rules={"RULING-MONTHS": 2, "RULING-MEDIA-STEP": 50},
                   players=list(LINEUP), card_edits={"S07": {"income": 400}})
    arms = [ArmSpec("arm 1", rules={"RULING-MEDIA-STEP": 100}),
            ArmSpec("arm 2", players=["greedy", "greedy", "random"],
                    card_edits={"S07": {"fame": [9, 6, 3]}})]
    setups = arm_setups(base, arms)
    assert [s.name for s in setups] == [
        "base: RULING-MONTHS=2; RULING-MEDIA-STEP=50; S07 income 360 → 400",
        "arm 1: RULING-MEDIA-STEP=100",
        "arm 2: line-up greedy,greedy,random; S07 fame 5/2/-1 → 9/6/3"]
    assert setups[0].rules == {"RULING-MONTHS": 2, "RULING-MEDIA-STEP": 50}
    assert setups[1].rules == {"RULING-MONTHS": 2, "RULING-MEDIA-STEP": 100}  # base's, overridden
    assert list(setups[1].players) == LINEUP and list(setups[2].players)[1] == "greedy"
    # the base's card edit holds in every arm; arm 2's own edit on top of it
    assert [s.cards.music["S07"].income for s in setups] == [400, 400, 400]
    assert setups[2].cards.music["S07"].fame == (9, 6, 3)
    assert setups[1].cards.music["S07"].fame == standard_cardset().music["S07"].fame
    assert arm_cards(base, arms[1], own=False).music["S07"].fame == (5, 2, -1)
    with pytest.raises(ValueError, match="as many players as the base"):
        arm_setups(base, [ArmSpec("arm 1", players=["greedy", "random"])])
    with pytest.raises(ValueError, match="its own name"):
        arm_setups(base, [ArmSpec("base")])


def test_a_card_edit_is_checked_by_the_card_loader():
    cards = edit_cards(None, {"D03": {"fame": [8, 5, 1], "income": 250, "modern": [2, 1]}})
    assert card_numbers(cards, "D03")["fame"] == [8, 5, 1] and cards.music["D03"].modern == (2, 1)
    with pytest.raises(CardSetError, match="D03"):
        edit_cards(None, {"D03": {"fame": [1, 5, 8]}})  # good >= fair >= poor
    with pytest.raises(ValueError, match="no score or discovery card"):
        edit_cards(None, {"X99": {"income": 5}})
    before = card_numbers(standard_cardset(), "S07")
    assert describe_edit(before, {**before, "fame": [9, 6, 3], "authentic": None}) == \
        "fame 5/2/-1 → 9/6/3, authentic 1+2 → –"


def test_every_arm_plays_the_same_seeds_and_pairs_with_the_base():
    base = ArmSpec("base", rules={"RULING-MONTHS": 2}, players=list(LINEUP))
    arms = [ArmSpec("arm 1"), ArmSpec("arm 2", rules={"RULING-MONTHS": 1})]
    setups = arm_setups(base, arms)
    results = play_arms(setups, 6, seed=4, jobs=1)
    assert [list(r.games.seed) for r in results[1:]] == [list(results[0].games.seed)] * 2
    # the same as compare's base arm on the same seed
    alone = compare(setups[0], setups[2], games=6, seed=4, jobs=1)
    pd.testing.assert_frame_equal(alone.base.players, results[0].players)
    pd.testing.assert_frame_equal(alone.variant.players, results[2].players)
    comparisons = arm_comparisons(results, [s.name for s in setups])
    assert [c.names for c in comparisons] == [(setups[0].name, setups[1].name),
                                              (setups[0].name, setups[2].name)]
    pd.testing.assert_frame_equal(comparisons[1].effects, alone.effects)


def test_fame_through_end_ends_with_the_final_fame_after_the_awards():
    c = compare({"players": LINEUP, "rules": {"RULING-MONTHS": 2}, "name": "a"},
                {"players": LINEUP, "rules": {"RULING-MONTHS": 1}, "name": "b"},
                games=3, seed=1, jobs=1)
    frame = months_through_end(c.base)
    end = frame[frame.month == 3].set_index(["game", "seat"]).fame.sort_index()
    assert end.to_dict() == c.base.players.set_index(["game", "seat"]).fame.sort_index().to_dict()
    assert (c.base.players.award_fame > 0).any()  # the END point is not the month-2 fame
    fig = fame_through_end(c.base, title="a", y_range=(0, 40))
    assert list(fig.layout.xaxis.ticktext) == ["1", "2", "END"]
    assert list(fig.layout.xaxis.tickvals) == [1, 2, 3]
    medians = [t for t in fig.data if t.mode == "lines+markers"]
    assert medians and all(list(t.x)[-1] == 3 for t in medians)
    assert "END awards" in medians[0].hovertemplate
    assert list(fig.layout.yaxis.range) == [0, 40]


# ---------------------------------------------------------------- verdicts
def fake_arm(wins: list[list[float]], fames: list[list[float]] | None = None,
             strategies=("merchant", "collector", "greedy")) -> SimulationResult:
    """A hand-made result: game i's seats win ``wins[i]`` (entry = seat)."""
    players, games = [], []
    for g, row in enumerate(wins):
        fame = fames[g] if fames else [10.0 + 5 * w for w in row]
        for seat, w in enumerate(row):
            players.append({"game": g, "seat": seat, "entry": seat, "strategy": strategies[seat],
                            "fame": fame[seat], "money": 100, "win": w, "concerts": 2})
        games.append({"game": g, "seed": 1000 + g, "winners": ",".join(
            str(s) for s, w in enumerate(row) if w), "top_fame": max(fame)})
    concerts = pd.DataFrame({"game": [0], "card": ["S01"], "fame": [3.0]})
    empty = pd.DataFrame()
    return SimulationResult(games=pd.DataFrame(games), players=pd.DataFrame(players),
                            months=empty, concerts=concerts, venues=empty, specials=empty,
                            errors=empty, config={})


def comparison(base: SimulationResult, variant: SimulationResult) -> Comparison:
    return Comparison(base, variant, paired_effects(base, variant),
                      ("base", "arm 1: RULING-X=y"), {})


def test_a_clear_change_in_a_win_share_is_said_in_points_with_its_test():
    # the merchant wins 30 of 40 games in the base, 10 in the arm; the collector the rest
    base = fake_arm([[1, 0, 0]] * 30 + [[0, 1, 0]] * 10)
    arm = fake_arm([[1, 0, 0]] * 10 + [[0, 1, 0]] * 30)
    verdicts = comparison_verdicts(comparison(base, arm))
    merchant = next(v for v in verdicts if v.subject == "win share: the merchant")
    assert merchant.significant and merchant.headline
    assert merchant.estimate == pytest.approx(-0.5)
    low, high = merchant.interval
    assert merchant.text == (
        f"RULING-X=y lowers the merchant's win share by 50 points [{-high * 100:.0f}, "
        f"{-low * 100:.0f}] (75% → 25%; paired test on 40 common seeds, 20 of them changed; "
        "significant after Holm over 3 strategies)")
    greedy = next(v for v in verdicts if v.subject == "win share: the greedy bot")
    assert not greedy.significant
    assert greedy.statement == ("RULING-X=y changed the greedy bot's win share in none of the "
                                "40 common games (0% in both arms)")
    assert headline(verdicts)[0] == merchant.text
    shares = [v for v in verdicts if v.data["family"] == "win share"]
    assert all(v.p_adjusted >= v.p for v in shares if not math.isnan(v.p))
    assert altered_games(base, arm).text() == (
        "The change altered 20 of 40 games (50%): a different winner in 20, a different final "
        "fame for some player in 20.")


def test_no_detectable_change_says_so_with_its_half_width():
    rows = [[1, 0, 0], [0, 1, 0], [0, 0, 1]] * 10
    base = fake_arm(rows)
    arm = fake_arm(rows[1:] + rows[:1])  # shuffled winners: no systematic change
    lines = headline(comparison_verdicts(comparison(base, arm)))
    assert lines[0].startswith("RULING-X=y: no detectable change in any strategy's win share "
                               "at this sample size (± ")
    assert "points; paired tests on 30 common seeds, Holm over 3 strategies)" in lines[0]


def test_a_change_clear_only_before_holm_is_named_but_not_stated():
    # the merchant takes 5 of the collector's 40 wins: p about 0.018 each, 0.055 after Holm
    base = fake_arm([[0, 1, 0]] * 40)
    arm = fake_arm([[1, 0, 0]] * 5 + [[0, 1, 0]] * 35)
    verdicts = comparison_verdicts(comparison(base, arm))
    merchant = next(v for v in verdicts if v.subject == "win share: the merchant")
    assert merchant.p < 0.05 < merchant.p_adjusted and not merchant.significant
    line = headline(verdicts)[0]
    assert line.startswith("RULING-X=y: no detectable change in any strategy's win share")
    assert "clear only before the correction: the merchant +1" in line
    assert f"(p = {merchant.p:.3f} before Holm, {merchant.p_adjusted:.2f} after)" in line
    assert "before Holm" in merchant.null_text


def test_two_arms_share_one_holm_correction_per_family():
    base = fake_arm([[1, 0, 0]] * 30 + [[0, 1, 0]] * 10)
    arm = fake_arm([[1, 0, 0]] * 10 + [[0, 1, 0]] * 30)
    same = fake_arm([[1, 0, 0]] * 30 + [[0, 1, 0]] * 10)
    first, second = arms_verdicts([comparison(base, arm), comparison(base, same)])
    v = next(x for x in first if x.subject == "win share: the merchant")
    assert "significant after Holm over 6 tests (3 strategies × 2 arms)" in v.text
    assert headline(second)[0] == "RULING-X=y changed no player's win in any of the 40 common games"
    assert altered_games(base, same).altered == 0


def test_an_entry_is_named_by_its_strategy_only_when_that_is_unambiguous():
    base = fake_arm([[1, 0, 0]] * 6)
    arm = fake_arm([[1, 0, 0]] * 6, strategies=("merchant", "merchant", "greedy"))
    subjects = [v.subject for v in comparison_verdicts(comparison(base, arm))
                if v.data["family"] == "win share"]
    assert subjects == ["win share: entry 0 (merchant)", "win share: entry 1 (collector → merchant)",
                        "win share: the greedy bot"]


def test_unpaired_arms_are_refused():
    base = fake_arm([[1, 0, 0]] * 4)
    other = fake_arm([[1, 0, 0]] * 4)
    other.games["seed"] += 1
    with pytest.raises(ValueError, match="not played on the same seeds"):
        altered_games(base, other)


def test_a_real_change_is_judged_and_its_altered_games_counted():
    c = compare({"players": LINEUP, "rules": {"RULING-MONTHS": 3}, "name": "base"},
                {"players": LINEUP, "rules": {"RULING-MONTHS": 1}, "name": "one month"},
                games=12, seed=2, jobs=1)
    verdicts = comparison_verdicts(c, cards=["S07"])
    fame = [v for v in verdicts if v.data["family"] == "game" and v.data["metric"] == "mean fame"]
    assert fame[0].significant and fame[0].text.startswith(
        "one month lowers the mean final fame by ")
    altered = altered_games(c.base, c.variant)
    assert altered.games == 12 and altered.fame == 12 and altered.altered == 12
    assert 0 <= altered.winner <= 12
    # the card's test is there whether or not it was played
    assert [v.data["card"] for v in verdicts if v.data["family"] == "card"] == ["S07"]


def test_card_plays_give_the_card_in_every_arm():
    base = ArmSpec("base", rules={"RULING-MONTHS": 2}, players=list(LINEUP))
    arms = [ArmSpec("arm 1", card_edits={"S14": {"fame": [20, 15, 10]}})]
    setups = arm_setups(base, arms)
    results = play_arms(setups, 6, seed=0, jobs=1)
    table = card_plays({"base": results[0], "arm 1": results[1]},
                       {"base": setups[0].cards, "arm 1": setups[1].cards}, ["S14"])
    printed = "/".join(map(str, standard_cardset().music["S14"].fame))
    assert list(table.arm) == ["base", "arm 1"]
    assert list(table["fame (good/fair/poor)"]) == [printed, "20/15/10"]
    for result, (_, row) in zip(results, table.iterrows(), strict=True):
        plays = result.concerts[result.concerts.card == "S14"]
        assert row.plays == len(plays)
        if len(plays):
            assert row["fame per play"] == pytest.approx(plays.fame.mean())


# ---------------------------------------------------------------- the widget
def test_workbench_arms_follow_the_controls():
    bench = small()
    base, variant = bench.setups()
    assert variant.rules == {"RULING-MONTHS": 2} and not base.rules
    bench.ruling.value = "RULING-MEDIA-STEP"
    bench.choice.value = 100
    bench.ruling_target.value = "arm 1"
    bench.add_ruling.click()
    assert bench.variant_rules() == {"RULING-MONTHS": 2, "RULING-MEDIA-STEP": 100}
    assert "RULING-MEDIA-STEP=100" in bench.setups()[1].name
    # the base takes any value too, and "every arm" sets it everywhere
    bench.ruling.value = "RULING-HALF-FAME"
    bench.choice.value = "down"
    bench.ruling_target.value = "base"
    bench.add_ruling.click()
    assert bench.setups()[0].name == "base: RULING-HALF-FAME=down"
    assert bench.setups()[1].rules["RULING-HALF-FAME"] == "down"  # inherited
    bench.ruling.value = "RULING-MONTHS"
    bench.choice.value = 1
    bench.ruling_target.value = "every arm"
    bench.add_ruling.click()
    assert [s.rules["RULING-MONTHS"] for s in bench.setups()] == [1, 1]
    # more arms: added, named, targeted, removed
    bench.add_arm_button.click()
    assert bench.names() == ["base", "arm 1", "arm 2"]
    assert "arm 2" in bench.ruling_target.options and "arm 2" in bench.card_target.options
    assert bench.setups()[2].name == "arm 2: the same setup as the base"
    bench.arms[0].remove.click()
    assert bench.names() == ["base", "arm 2"]
    bench.arms[0].remove.click()  # the last arm stays
    assert bench.names() == ["base", "arm 2"]
    bench.arms[0].players.value = ["greedy", "random"]
    with pytest.raises(ValueError, match="as many players as the base"):
        bench.setups()
    with pytest.raises(ValueError, match="unknown strategies"):
        Workbench(["greedy", "nobody", "random"])


def test_the_card_editor_sets_one_cards_numbers_in_one_arm():
    bench = small()
    bench.card_target.value = "arm 1"
    bench.card.value = "S07"
    assert [b.value for b in bench.fame_boxes] == [5, 2, -1]
    assert bench.income_box.value == 360 and bench.corner["authentic"][0].value
    assert "S07" in bench.card_current.value and "fame 5/2/-1" in bench.card_current.value
    bench.fame_boxes[0].value = 15
    bench.apply_card.click()
    assert bench.arms[0].edits == {"S07": {"fame": [15, 2, -1], "income": 360,
                                           "authentic": [1, 2], "modern": None}}
    assert "S07 fame 5/2/-1 → 15/2/-1" in bench.arms[0].edits_text.value
    assert "✓ arm 1: S07 fame 5/2/-1 → 15/2/-1" in bench.card_status.value
    assert "edited in arm 1: fame 5/2/-1 → 15/2/-1" in bench.card_current.value
    assert bench.setups()[1].cards.music["S07"].fame == (15, 2, -1)
    assert bench.setups()[0].cards is None  # the base keeps the bundled set
    assert bench.edited_cards() == ["S07"]
    # a number the loader refuses is shown, not set
    bench.fame_boxes[0].value = -5
    bench.apply_card.click()
    assert "not set" in bench.card_status.value and "S07" in bench.card_status.value
    assert bench.arms[0].edits["S07"]["fame"] == [15, 2, -1]
    bench.reset_card.click()
    assert bench.arms[0].edits == {} and bench.edited_cards() == []
    bench.set_card("D03", "base", income=500)
    assert bench.base.edits["D03"]["income"] == 500
    assert [s.cards.music["D03"].income for s in bench.setups()] == [500, 500]


def test_workbench_run_fills_results_and_is_deterministic(tmp_path):
    bench = small(base_rules={"RULING-MEDIA-STEP": 10})
    bench.set_card("S07", "arm 1", fame=[15, 10, 5])
    bench.add_arm(rules={"RULING-MONTHS": 1})
    comparison = bench.run()
    assert bench.error is None and comparison is not None
    assert bench.progress.value == bench.progress.max == 18  # 3 arms x 6 games
    assert sorted(comparison.base.games.game) == list(range(6))
    assert len(bench.comparisons) == 2 and len(bench.verdicts) == 2 == len(bench.altered)
    # the effects are the paired effects of the joined arms
    pd.testing.assert_frame_equal(comparison.effects,
                                  paired_effects(comparison.base, comparison.variant))
    assert bench.comparisons[1].variant.months.month.max() == 1
    titles = [bench.figures[k].layout.title.text for k in ("fame-base", "fame-arm-1",
                                                           "fame-arm-2")]
    assert titles[0].startswith("base: RULING-MEDIA-STEP=10")
    assert titles[1].startswith("arm 1: RULING-MONTHS=2; S07 fame")
    assert list(bench.figures["fame-arm-2"].layout.xaxis.ticktext) == ["1", "END"]
    metrics = {t.meta for t in bench.figures["effects"].data}
    assert metrics == set(comparison.effects.metric)
    # the verdicts and the altered games, per arm
    html = bench.verdicts_html()
    for c, altered in zip(bench.comparisons, bench.altered, strict=True):
        assert c.names[1] in html and altered.text() in html
        assert altered.altered > 0
    assert "paired test" in bench.tests.test.iloc[0]
    # the edited card in every arm
    assert list(bench.card_table.arm) == ["base", "arm 1", "arm 2"]
    assert list(bench.card_table["fame (good/fair/poor)"]) == ["5/2/-1", "15/10/5", "5/2/-1"]
    assert "fame per play in every arm" in bench.cards_html()
    # the flags: one table, a column per arm
    assert list(bench.flags.columns) == ["kind", "what", "base", "arm 1", "arm 2", "test"]
    again = small(base_rules={"RULING-MEDIA-STEP": 10})
    again.set_card("S07", "arm 1", fame=[15, 10, 5])
    again.add_arm(rules={"RULING-MONTHS": 1})
    again.run()
    pd.testing.assert_frame_equal(comparison.variant.players, again.comparison.variant.players)
    assert again.verdicts_text() == bench.verdicts_text()
    written = bench.export(tmp_path / "out")
    variant = SimulationResult.read_parquet(tmp_path / "out" / "arm-1")  # checked by its manifest
    pd.testing.assert_frame_equal(variant.players, comparison.variant.players)
    effects = pd.read_parquet(tmp_path / "out" / "effects.parquet")
    assert set(effects.arm) == {"arm 1", "arm 2"}
    assert (tmp_path / "out" / "fame-arm-2.html").stat().st_size > 1000
    assert (tmp_path / "out" / "plotly.min.js").is_file()  # figures open offline
    assert "The change altered" in (tmp_path / "out" / "verdicts.txt").read_text()
    # three arms, effects, flags, tests, card plays, verdicts, plotly.js, four figures
    assert len(written) == 3 + 4 + 1 + 1 + 4


def test_workbench_shows_a_bad_card_file_in_its_status(tmp_path):
    bench = small()
    bench.arms[0].cards.value = str(tmp_path / "missing.json")
    assert bench.run() is None
    assert "missing.json" in bench.status.value and bench.error
    assert not bench.run_button.disabled


def test_combine_results_numbers_games_of_later_chunks_after_earlier_ones():
    parts = [compare({"players": LINEUP, "rules": {"RULING-MONTHS": 1}, "name": "a"},
                     {"players": LINEUP, "rules": {"RULING-MONTHS": 2}, "name": "b"},
                     games=3, seed=s, jobs=1).base for s in (1, 2)]
    joined = combine_results(parts, {"games": 6})
    assert list(joined.games.game) == list(range(6))
    assert joined.players.groupby("game").size().eq(3).all()
    assert list(joined.games.seed) == [*parts[0].games.seed, *parts[1].games.seed]
    with pytest.raises(ValueError, match="no batches"):
        combine_results([], {})


def test_an_uploaded_card_set_becomes_that_arms_cards(tmp_path):
    from musici.cards import standard_cardset_data

    bench = small(upload_dir=tmp_path)
    arm = bench.arms[0]
    data = json.dumps(standard_cardset_data() | {"name": "mine"}).encode()
    arm._on_upload({"new": ({"name": "mine.json", "content": memoryview(data)},)})
    assert arm.cards.value == str(tmp_path / "mine.json")
    assert bench.setups()[1].cards.name == "mine" and "cards mine.json" in bench.setups()[1].name
    arm._on_upload({"new": ({"name": "bad.json", "content": memoryview(b"{")},)})
    assert "bad.json is not a card set" in arm.status.value
    assert arm.cards.value == str(tmp_path / "mine.json")  # unchanged
