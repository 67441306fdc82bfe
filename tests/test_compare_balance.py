"""What-if comparisons on common random numbers, and the balance report."""

from __future__ import annotations

import pandas as pd
import pytest

from musici.playtest.balance import balance_report
from musici.playtest.compare import Setup, compare
from musici.sim import SimulationError, simulate

LINEUP = ["greedy", "random", "random", "random"]


def test_identical_arms_have_zero_effect_exactly() -> None:
    c = compare({"players": LINEUP}, {"players": LINEUP, "name": "same again"}, games=10,
                seed=3, jobs=1, progress=False)
    assert (c.effects.effect == 0).all()
    pd.testing.assert_frame_equal(c.base.players, c.variant.players)


def test_arms_share_seeds_and_seating_and_match_plain_batches() -> None:
    c = compare(Setup(LINEUP), Setup(LINEUP, rules={"RULING-MONTHS": 6}), games=8, seed=4,
                jobs=2, progress=False)
    assert c.base.games.seed.tolist() == c.variant.games.seed.tolist()
    pd.testing.assert_frame_equal(c.base.players[["game", "seat", "entry"]],
                                  c.variant.players[["game", "seat", "entry"]])
    plain = simulate(LINEUP, games=8, seed=4, jobs=1, progress=False, rules={"RULING-MONTHS": 6})
    pd.testing.assert_frame_equal(c.variant.players, plain.players)
    assert c.variant.months.month.max() == 6 and c.base.months.month.max() == 12


def test_a_six_month_year_gives_less_fame_with_an_interval_that_says_so() -> None:
    c = compare(Setup(LINEUP), Setup(LINEUP, rules={"RULING-MONTHS": 6}), games=40, seed=1,
                jobs=1, progress=False)
    top = c.effects.set_index(["metric", "who"]).loc[("top fame", "game")]
    assert top.effect < 0 and top.high < 0  # half the months, clearly less fame
    assert top.low <= top.effect <= top.high
    assert top.effect == pytest.approx(top.variant - top.base)


def test_line_up_comparison_names_both_strategies() -> None:
    c = compare(Setup(LINEUP), Setup(["random"] * 4), games=12, seed=2, jobs=1, progress=False)
    win = c.effects[(c.effects.metric == "win share") & c.effects.who.str.startswith("entry 0")]
    assert win.who.item() == "entry 0: greedy -> random"
    assert win.effect.item() < 0


@pytest.mark.parametrize(("base", "variant", "message"), [
    ({"players": LINEUP}, {"players": ["random"] * 3}, "same number of players"),
    ({"players": LINEUP}, {"players": LINEUP, "colour": "red"}, "unknown setup keys"),
    (Setup(LINEUP, name="x"), Setup(LINEUP, name="x"), "different names"),
    ({"players": LINEUP}, 7, "must be a Setup or a dict"),
])
def test_bad_comparisons_are_refused(base, variant, message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        compare(base, variant, games=2, jobs=1, progress=False)


@pytest.fixture(scope="module")
def report():
    return balance_report(simulate(LINEUP, games=60, seed=8, jobs=2, progress=False))


def test_balance_tables_add_up(report) -> None:
    assert report.games == 60
    assert report.by_seat.seats_played.tolist() == [60] * 4
    assert report.by_seat.wins.sum() == pytest.approx(60)
    assert report.venues.share.sum() == pytest.approx(1)
    assert (report.cards.plays > 0).all()
    assert set(report.cards.kind) <= {"score", "discovery"}
    assert ((report.specials.owner_win_low <= report.specials.owner_win_rate)
            & (report.specials.owner_win_rate <= report.specials.owner_win_high)).all()
    text = report.to_text()
    for heading in ("by seat", "cards", "venues", "specials", "fame", "flags"):
        assert f"## {heading}" in text
    assert "<table" in report._repr_html_()


def test_balance_flags_a_dominant_strategy(report) -> None:
    # One greedy bot against three random ones wins far more than its quarter of the seats.
    assert any(f.startswith("strategy greedy wins") for f in report.flags)


def test_an_even_line_up_raises_no_strategy_flag() -> None:
    even = balance_report(simulate(["random"] * 4, games=40, seed=8, jobs=1, progress=False))
    assert not any(f.startswith("strategy") for f in even.flags)


def test_a_strategy_in_two_seats_can_still_be_flagged_dominant() -> None:
    report = balance_report(simulate(["impresario", "impresario", "random", "random"], games=40,
                                     seed=1, jobs=2, progress=False))
    assert any(f.startswith("strategy impresario wins") for f in report.flags)
    assert not any(f.startswith("strategy random") for f in report.flags)


def test_seat_flags_need_every_seat_to_have_seen_the_same_strategies() -> None:
    fixed = balance_report(simulate(LINEUP, games=40, seed=1, jobs=2, rotate=False,
                                    progress=False))
    assert not any(f.startswith("seat") for f in fixed.flags)  # greedy always in seat 0
    assert any(f.startswith("strategy greedy") for f in fixed.flags)


def test_venue_table_nets_costs_against_returns(report) -> None:
    v = report.venues.set_index("area")
    halls = v.loc[v.index.isin(["chapel", "university", "dome", "opera"])]
    assert (halls.cost_money_per_choice > 0).all()
    expected = (v.fame_per_concert.fillna(0) * v.concert_rate - v.cost_fame_per_choice)
    assert (v.net_fame_per_choice - expected).abs().max() < 1e-9
