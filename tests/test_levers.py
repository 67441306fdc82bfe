"""The merchant's levers as card-set data (issue 19 item 2): tour costs and multipliers,
END award sizes and special cards' first bids.

Each lever is an optional object of the card file (docs/cards.md) whose defaults are the
rules' numbers; the engine charges and scores with the card set's values, the bots'
forecasts call the same economy/scoring functions with them, the tuner's change syntax
reaches them, and a change to each lever changes what it should on the same seeds.
"""

from __future__ import annotations

import functools
import pickle
from fractions import Fraction
from typing import Any

import pandas as pd
import pytest

from musici import Game, RuleSet, scoring
from musici import economy as E
from musici.cards import CardSetError, cardset_from_data, standard_cardset, standard_cardset_data
from musici.decisions import Decision, Kind
from musici.playtest import tuning
from musici.strategies.greedy import greedy_strategy
from musici.strategies.random_strategy import random_strategy
from musici.views import PlayerView

LINEUP = ["impresario", "merchant", "collector", "greedy"]


def _cards(**objects: Any):
    data = standard_cardset_data()
    data.update(objects)
    return cardset_from_data(data, "<levers>")


# ---------------------------------------------------------------- the card file
def test_without_the_objects_the_levers_are_the_rules() -> None:
    cards = standard_cardset()
    assert dict(cards.tours) == dict(E.TOURS)
    assert dict(cards.end_awards) == dict(E.END_AWARDS)
    assert dict(cards.special_prices) == dict.fromkeys(cards.specials, E.AUCTION_STEP)
    assert "tours" not in standard_cardset_data()  # the bundled file sets none of them


def test_the_objects_set_what_they_name_and_keep_the_rest() -> None:
    cards = _cards(tours={"large-commercial": {"fame": 6, "income_multiplier": 2.5},
                          "small-academic": {"money": 250, "fame_multiplier": 1.25}},
                   end_awards={"german-austrian": 2, "specials": 0},
                   special_prices={"P2": 150})
    assert cards.tours["large-commercial"] == (0, 6, (0, 1), (5, 2))
    assert cards.tours["small-academic"] == (250, 0, (5, 4), (0, 1))
    assert cards.tours["large-academic"] == E.TOURS["large-academic"]
    assert cards.end_awards["german-austrian"] == 2 and cards.end_awards["specials"] == 0
    assert cards.end_awards["italian"] == E.NATIONALITY_AWARDS["italian"]
    assert cards.special_prices["P2"] == 150 and cards.special_prices["P1"] == E.AUCTION_STEP
    assert cards.fingerprint != standard_cardset().fingerprint
    # Worker processes get the set through its document: the levers travel with it.
    assert pickle.loads(pickle.dumps(cards)).tours == cards.tours


@pytest.mark.parametrize(("objects", "words"), [
    ({"tours": [1]}, "expected an object of tour name"),
    ({"tours": {"grand-tour": {"money": 100}}}, "unknown tour"),
    ({"tours": {"large-academic": {"price": 100}}}, "unknown field 'price'"),
    ({"tours": {"large-academic": {"money": 455}}}, "multiple of 10"),
    ({"tours": {"large-academic": {"money": -10}}}, "from 0 to 10000"),
    ({"tours": {"large-commercial": {"fame": 2.5}}}, "whole number"),
    ({"tours": {"large-commercial": {"income_multiplier": 1.333}}}, "at most two decimals"),
    ({"tours": {"large-commercial": {"income_multiplier": 11}}}, "from 0 to 10"),
    ({"tours": {"large-commercial": {"income_multiplier": True}}}, "a number"),
    ({"end_awards": {"baroque": -1}}, "from 0 to 100"),
    ({"end_awards": {"spanish": 3}}, "unknown award"),
    ({"end_awards": 5}, "expected an object of award name"),
    ({"special_prices": {"P9": 100}}, "unknown special card"),
    ({"special_prices": {"P2": 102}}, "multiple of 5"),
])
def test_bad_lever_objects_are_refused_with_their_place(objects, words) -> None:
    with pytest.raises(CardSetError, match=words):
        _cards(**objects)


# ---------------------------------------------------------------- engine and bots agree
TOURS_CHANGED = {"large-academic": {"money": 300, "fame_multiplier": 2.5},
                 "small-academic": {"money": 250, "fame_multiplier": 1.25,
                                    "income_multiplier": 0.5},
                 "large-commercial": {"fame": 4, "money": 20, "income_multiplier": 3},
                 "small-commercial": {"fame": 2, "income_multiplier": 1.25,
                                      "fame_multiplier": 0.5}}


@pytest.mark.rules("P3.TOUR", "P5.2")
@pytest.mark.parametrize("guided", [False, True])
def test_the_engine_charges_the_card_sets_tour_costs_and_the_planner_sees_them(guided) -> None:
    from musici.engine.p5_settlement import pay_venue

    cards = _cards(tours=TOURS_CHANGED)
    for area in E.TOURS:
        game = Game(4, seed=2, cards=cards)
        game.play([random_strategy] * 4, until="phase")
        p = game.players[0]
        p.venue, p.tour_guide, p.money, p.fame = area, guided, 500, 50
        forecast = game.view(0).venue_cost(area, held_concert=True)  # the planner's price
        money, fame = p.money, p.fame
        pay_venue(game, p, True)
        assert (money - p.money, fame - p.fame) == (forecast.money, forecast.fame), area
        if guided:  # the Tour guide waived the card set's cost, and says so
            waived = [e.data for e in game.events if e.kind == "venue_free"][-1]
            assert (waived["money"], waived["fame"]) == cards.tours[area][:2], area
        else:
            assert (forecast.money, forecast.fame) == cards.tours[area][:2], area
        assert forecast.free == guided


@pytest.mark.rules("P3.TOUR.5")
def test_a_commercial_tour_opens_at_the_card_sets_fame_cost() -> None:
    rules = RuleSet()
    cards = _cards(tours={"large-commercial": {"fame": 8}})
    assert "large-commercial" in E.areas_open_to(6, rules)
    assert "large-commercial" not in E.areas_open_to(6, rules, cards.tours)
    assert "large-commercial" in E.areas_open_to(8, rules, cards.tours)


@pytest.mark.rules("P3.TOUR", "P3.TOUR.4")
def test_the_concert_arithmetic_reads_the_card_sets_multipliers() -> None:
    cards = _cards(tours=TOURS_CHANGED)
    rules = RuleSet()
    assert scoring.tour_result(6, 300, "large-academic", rules) == (12, 0)
    assert scoring.tour_result(6, 300, "large-academic", rules, cards.tours) == (15, 0)
    assert scoring.tour_result(6, 300, "small-academic", rules, cards.tours) == (7, 150)
    assert scoring.tour_result(6, 300, "large-commercial", rules, cards.tours) == (0, 900)
    assert scoring.tour_result(-2, 300, "large-commercial", rules, cards.tours) == (-2, 900)
    assert scoring.tour_result(5, 300, "small-commercial", rules, cards.tours) == (2, 375)


@pytest.mark.rules("P3.TOUR", "P4.CONCERT.4")
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_bot_forecasts_the_concerts_the_engine_records_under_changed_tours(seed) -> None:
    from tests.test_bots_follow_rules import SEEN, _play_and_check

    cards = _cards(tours=TOURS_CHANGED)
    assert cards.tours["small-commercial"] == (0, 2, (1, 2), (5, 4))  # the file's, in play
    SEEN.clear()
    assert _play_and_check(RuleSet(), cards, seed) >= 12
    assert any(what in ("academic tour", "commercial tour") for key in SEEN
               if isinstance(key, tuple) for what in key[1:])


@pytest.mark.rules("END.1", "END.2", "END.3", "END.4", "END.6")
def test_the_final_scoring_and_the_search_bots_estimate_read_the_card_sets_awards() -> None:
    from musici.strategies.search import _award_shares

    bigger = {name: points + 3 for name, points in E.END_AWARDS.items()}
    plain, changed = Game(4, seed=5), Game(4, seed=5, cards=_cards(end_awards=bigger))
    for game in (plain, changed):
        game.play([greedy_strategy] * 4)
    # The heuristic bots do not read the awards: the same game up to END, 3 more per award.
    assert [e.to_dict() for e in plain.events if e.kind == "concert"] == [
        e.to_dict() for e in changed.events if e.kind == "concert"]
    awards = [a for a in plain.results["awards"]]
    assert awards
    extra = [Fraction(0)] * 4
    for a in awards:
        for s in a["winners"]:
            extra[s] += Fraction(3, len(a["winners"]))
    assert [b - a for a, b in zip(plain.results["fame"], changed.results["fame"],
                                  strict=True)] == extra
    given = [Fraction(0)] * 4
    for e in changed.events:
        if e.kind == "award":
            for s in e.data["winners"]:
                given[s] += Fraction(e.data["share"])
    assert _award_shares(changed) == [float(f) for f in given]


@pytest.mark.rules("P1.1", "P1.3")
def test_the_auction_opens_at_the_card_sets_first_bid_and_raises_by_the_step() -> None:
    assert E.next_bid(0, first=True, opening=E.AUCTION_STEP) == E.AUCTION_STEP
    assert E.next_bid(300, first=False, opening=250) == 300 + E.AUCTION_STEP
    cards = _cards(special_prices=dict.fromkeys(standard_cardset().specials, 250))
    game = Game(4, seed=1, cards=cards)
    asked: list[Decision] = []
    while game.decision is not None and game.decision.kind == Kind.AUCTION:
        d = game.decision
        asked.append(d)
        game.answer("bid" if len(asked) <= 3 and "bid" in d.options else "pass")
    assert [d.info["bid"] for d in asked[:3]] == [250, 250 + E.AUCTION_STEP,
                                                   250 + 2 * E.AUCTION_STEP]
    bought = [e for e in game.events if e.kind == "special_bought"]
    assert bought and bought[0].data["price"] == 250 + 2 * E.AUCTION_STEP
    assert game.players[bought[0].player].money == E.START_MONEY - bought[0].data["price"]


# ---------------------------------------------------------------- the tuner's syntax
@pytest.mark.parametrize(("text", "where", "value"), [
    ("TOUR:large-commercial:fame=+2", ("tours", "large-commercial"), (0, 7, (0, 1), (2, 1))),
    ("TOUR:large-academic:money=+100", ("tours", "large-academic"), (500, 0, (2, 1), (0, 1))),
    ("TOUR:small-commercial:income_multiplier=-0.25", ("tours", "small-commercial"),
     (0, 3, (0, 1), (5, 4))),
    ("TOUR:small-academic:fame_multiplier=+0.5", ("tours", "small-academic"),
     (200, 0, (2, 1), (0, 1))),
    ("END:END.2=-1", ("end_awards", "italian"), 3),
    ("END:baroque=+1", ("end_awards", "baroque"), 5),
    ("SPECIAL:P2:price=+50", ("special_prices", "P2"), 150),
    ("HALL:opera:rent=+50", ("hall_rents", "opera"), 450),
])
def test_a_change_reaches_its_lever(text, where, value) -> None:
    change = tuning.parse_change(text)
    assert str(change) == text.replace("HALL:", "")
    cards = tuning.apply_changes(tuning.card_document(None), [change])
    assert getattr(cards, where[0])[where[1]] == value
    twice = tuning.apply_changes(tuning.card_document(None), [change, change])
    assert twice.fingerprint != cards.fingerprint  # applied on top of each other


@pytest.mark.parametrize("text", ["TOUR:grand:fame=+1", "TOUR:large-commercial:cost=+1",
                                  "TOUR:large-commercial:income_multiplier=+1/3",
                                  "END:spanish=+1", "SPECIAL:P9:price=+50",
                                  "SPECIAL:P2:rent=+50", "END:END.9=-1"])
def test_unknown_levers_are_refused_with_the_syntax(text) -> None:
    with pytest.raises(ValueError, match="TOUR:NAME:FIELD=DELTA"):
        tuning.parse_change(text)


def test_a_lever_taken_below_zero_is_refused_by_the_loader() -> None:
    with pytest.raises(CardSetError, match="from 0 to"):
        tuning.apply_changes(tuning.card_document(None),
                             [tuning.parse_change("TOUR:small-commercial:fame=-4")])


# ---------------------------------------------------------------- sensitivity runs
def take_tour(tour: str, view: PlayerView, decision: Decision) -> Any:
    """A greedy player that always goes on ``tour`` when it is free (a lever's user)."""
    if decision.kind == Kind.VENUE and tour in decision.options:
        return tour
    return greedy_strategy(view, decision)


def eager_bidder(view: PlayerView, decision: Decision) -> Any:
    """A greedy player that bids for every special card while it can pay."""
    if decision.kind == Kind.AUCTION:
        return "bid" if "bid" in decision.options else "pass"
    return greedy_strategy(view, decision)


OPEN_TOURS = {"RULING-COMMERCIAL-FAME": "not-required", "RULING-FAME-FLOOR": "none"}


def _taker_run(tour: str, change: str, games: int = 8):
    taker = functools.partial(take_tour, tour)
    run = tuning.sensitivity([taker, "greedy", "greedy", "greedy"], [tuning.parse_change(change)],
                             games=games, seed=4, rules=OPEN_TOURS, jobs=1, progress=False)
    return run, f"take_tour({tour!r})"


def _month_one(run, label: str, tour: str) -> pd.DataFrame:
    """The taker's month 1 in both arms, in the games where it was on ``tour`` in both."""
    rows = []
    for arm, r in (("base", run.comparison.base), ("variant", run.comparison.variant)):
        on = r.venues[(r.venues.strategy == label) & (r.venues.month == 1)
                      & (r.venues.area == tour)][["game", "seat"]]
        m = r.months[(r.months.strategy == label) & (r.months.month == 1)]
        c = r.concerts[(r.concerts.strategy == label) & (r.concerts.month == 1)]
        part = on.merge(m[["game", "fame", "money"]], on="game").merge(
            c[["game", "card", "fame", "income"]].rename(
                columns={"fame": "concert_fame", "income": "concert_income"}),
            on="game", how="left")
        rows.append(part.assign(arm=arm))
    both = rows[0].merge(rows[1], on=["game", "seat"], suffixes=("_base", "_variant"))
    assert len(both), f"the taker was never on {tour} in month 1 of both arms"
    return both


def _mean_money(run, label: str) -> tuple[float, float]:
    """The taker's money at the end of a month, averaged over its months (both arms)."""
    return tuple(float(r.months[r.months.strategy == label].money.mean())  # type: ignore
                 for r in (run.comparison.base, run.comparison.variant))


def _final(run, label: str, column: str) -> tuple[float, float]:
    return tuple(float(r.players[r.players.strategy == label][column].mean())  # type: ignore
                 for r in (run.comparison.base, run.comparison.variant))


def test_sensitivity_a_dearer_tour_takes_money_from_who_tours() -> None:
    run, label = _taker_run("large-academic", "TOUR:large-academic:money=+200")
    both = _month_one(run, label, "large-academic")
    # Month 1 is the same game in both arms until P5, which charges 200 G more.
    assert (both.money_variant - both.money_base == -200).all()
    base, variant = _mean_money(run, label)
    assert variant < base  # and over the year the taker holds less money
    levers = run.levers().set_index("arm")
    assert levers.loc["variant", "money_paid"] > levers.loc["base", "money_paid"]
    for r, price in ((run.comparison.base, E.TOURS["large-academic"][0]),
                     (run.comparison.variant, E.TOURS["large-academic"][0] + 200)):
        paid = r.venues[r.venues.area == "large-academic"].cost_money  # less when short
        assert paid.max() == price
    assert "tour large-academic" in run.to_text()


def test_sensitivity_a_tour_dearer_in_fame_takes_fame_from_who_tours() -> None:
    run, label = _taker_run("small-commercial", "TOUR:small-commercial:fame=+2")
    both = _month_one(run, label, "small-commercial")
    assert (both.fame_variant - both.fame_base == -2).all()
    base, variant = _final(run, label, "fame")
    assert variant < base
    v = run.comparison.variant.venues
    paid = v[(v.area == "small-commercial") & (v.cost_fame > 0)]  # not the Tour guide's
    assert set(paid.cost_fame) == {E.TOURS["small-commercial"][1] + 2}


def test_sensitivity_a_richer_commercial_tour_pays_who_tours() -> None:
    run, label = _taker_run("large-commercial", "TOUR:large-commercial:income_multiplier=+1")
    both = _month_one(run, label, "large-commercial").dropna(subset=["card_base"])
    assert len(both) and (both.card_base == both.card_variant).all()
    cards = standard_cardset()
    income = [cards.music[c].income for c in both.card_base]
    assert list(both.concert_income_base) == [2 * i for i in income]
    assert list(both.concert_income_variant) == [3 * i for i in income]
    assert list(both.money_variant - both.money_base) == income  # paid in P5.1
    base, variant = _final(run, label, "money")
    assert variant > base


def test_sensitivity_a_prouder_academic_tour_gives_fame_to_who_tours() -> None:
    run, label = _taker_run("large-academic", "TOUR:large-academic:fame_multiplier=+1")
    both = _month_one(run, label, "large-academic").dropna(subset=["card_base"])
    assert len(both) and (both.card_base == both.card_variant).all()
    assert (both.concert_fame_variant >= both.concert_fame_base).all()
    assert (both.concert_fame_variant * 2 == both.concert_fame_base * 3).all()
    base, variant = _final(run, label, "fame")
    assert variant > base


def test_sensitivity_a_bigger_end_award_adds_its_points_and_nothing_else() -> None:
    run = tuning.sensitivity(["greedy"] * 4, [tuning.parse_change("END:END.2=+5")], games=6,
                             seed=2, jobs=1, progress=False)
    a, b = run.comparison.base, run.comparison.variant
    cols = ["game", "month", "seat", "card", "fame", "income"]
    pd.testing.assert_frame_equal(a.concerts[cols], b.concerts[cols])  # the same play
    added = (b.players.award_fame - a.players.award_fame)
    gained = b.players.fame - a.players.fame
    above = a.players.fame > 0  # RULING-FAME-FLOOR: a final fame floored at 0 absorbs some
    assert gained[above].tolist() == pytest.approx(added[above].tolist())
    assert (gained[~above] <= added[~above] + 1e-9).all()
    assert added.min() >= 0 and added.groupby(a.players.game).sum().max() > 0
    # Every game gives each END.2 award it gives 5 more in all (shared when tied).
    per_game = added.groupby(a.players.game).sum()
    assert set(per_game.round(6)) <= {0.0, 5.0, 10.0, 15.0}
    levers = run.levers().set_index("arm")
    assert levers.loc["variant", "award_fame"] > levers.loc["base", "award_fame"]


def test_sensitivity_a_dearer_special_card_costs_its_buyer_more() -> None:
    run = tuning.sensitivity([eager_bidder, "greedy", "greedy", "greedy"],
                             [tuning.parse_change("SPECIAL:P2:price=+200")], games=8, seed=1,
                             jobs=1, progress=False)
    a, b = run.comparison.base, run.comparison.variant
    base_p2, variant_p2 = a.specials[a.specials.card == "P2"], b.specials[b.specials.card == "P2"]
    assert len(base_p2) and len(variant_p2)
    assert (base_p2.price < 300).any()  # the change bites
    assert ((variant_p2.price >= 300) & ((variant_p2.price - 300) % E.AUCTION_STEP == 0)).all()
    # The first P2 auction of a game is the same auction in both arms: its buyer pays more.
    first = base_p2.groupby("game").head(1).merge(variant_p2.groupby("game").head(1),
                                                  on=["game", "month", "seat"],
                                                  suffixes=("_base", "_variant"))
    assert len(first) and (first.price_variant >= first.price_base).all()
    assert (first.price_variant > first.price_base).any()
    levers = run.levers().set_index("arm")
    assert levers.loc["variant", "price"] > levers.loc["base", "price"]
