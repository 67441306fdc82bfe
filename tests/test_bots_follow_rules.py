"""Every bot plays the engine's game: its own prediction of a concert is what the engine records.

Each heuristic bot (greedy, impresario, merchant, collector; the search bot's concerts are
its greedy fallback's) says, when it chooses a concert's orchestras, which rating, fame and
income it expects; the engine then records the concert event. They must agree under every
value of every ruling that the concert's arithmetic reads (all combinations), on the bundled
card set and on one with each card's authentic and modern corners swapped, and under every
other ruling's values too. The search bot's "if the game ended now" END estimate must equal
the awards the engine gives at the end, under both readings of RULING-END-CARDS.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import musici
from musici import Game, RuleSet, scoring
from musici.cards import CardSet, standard_cardset
from musici.decisions import Decision
from musici.rules import RULE_OPTIONS
from musici.strategies._plans import ConcertForecast, Planner
from musici.strategies.collector import Collector
from musici.strategies.greedy import greedy_forecast, greedy_strategy
from musici.strategies.impresario import Impresario
from musici.strategies.merchant import Merchant
from musici.strategies.random_strategy import random_strategy
from musici.strategies.search import _award_shares
from musici.views import PlayerView
from tests.card_variants import corner_swapped_cards

# The rulings that a concert's outcome reads (scoring.concert_outcome and what it calls);
# test_concert_rulings_are_the_ones_scoring_reads keeps the list honest.
CONCERT_RULINGS = scoring.CONCERT_RULINGS
CONCERT_FUNCTIONS = (scoring.rate, scoring.restoration, scoring.restoration_bonus,
                     scoring.tour_result, scoring.concert_outcome)

Forecaster = Callable[[PlayerView, Decision], ConcertForecast | None]
Bot = Callable[[PlayerView, Decision], Any]


def _planner(planner: Planner) -> tuple[Bot, Forecaster]:
    return planner, planner.predict_concert


BOTS: dict[str, Callable[[], tuple[Bot, Forecaster]]] = {
    "greedy": lambda: (greedy_strategy, greedy_forecast),
    "impresario": lambda: _planner(Impresario()),
    "merchant": lambda: _planner(Merchant()),
    "collector": lambda: _planner(Collector()),
}


CARD_SETS: dict[str, Callable[[], CardSet]] = {
    "bundled": standard_cardset, "swapped": corner_swapped_cards,
}


def _settings() -> list[tuple[dict[str, Any], str, int]]:
    """(options, card set, seed): every combination of the concert rulings on both card sets,
    and every value of every other option on the bundled set; one game each, seeds vary."""
    out = []
    for values in itertools.product(*(RULE_OPTIONS[n].choices for n in CONCERT_RULINGS)):
        for card_set in CARD_SETS:
            out.append((dict(zip(CONCERT_RULINGS, values, strict=True)), card_set, len(out)))
    for name, option in RULE_OPTIONS.items():
        if name in CONCERT_RULINGS:
            continue
        out += [({name: v}, "bundled", len(out) + i)
                for i, v in enumerate(option.choices) if v != option.default]
    return out


SETTINGS = _settings()
SEEN: Counter[Any] = Counter()  # what each bot's checked concerts covered, over the module


def _concert_of(game: Game, items: tuple[str, ...]) -> dict[str, Any]:
    """The concert event the engine records when ``game``'s decision is answered ``items``."""
    start = len(game.events)
    game.answer(items)
    concerts = [e.data for e in game.events[start:] if e.kind == "concert"]
    assert len(concerts) == 1
    return concerts[0]


def _check(name: str, forecast: ConcertForecast | None, event: dict[str, Any], cards: CardSet,
           where: str) -> None:
    assert forecast is not None, f"{name} has no forecast for a concert: {where}"
    got = (event["rating"], event["fame"], event["income"])
    assert (forecast.rating, forecast.fame, forecast.income) == got, f"{name}: {where}"
    SEEN[name] += 1
    restoration = event["restoration"]
    if restoration is not None and restoration["bonus"]:
        SEEN[name, "restoration bonus"] += 1
    if restoration is not None and restoration["capped"]:
        SEEN[name, "RESTORE.4 cap"] += 1
    if event["venue"] and "academic" in event["venue"]:
        SEEN[name, "academic tour"] += 1
    if event["venue"] and "commercial" in event["venue"]:
        SEEN[name, "commercial tour"] += 1
    if cards.performer(event["orchestras"][0])[0] != event["style"]:
        SEEN[name, "judged in the other style"] += 1


def _play_and_check(rules: RuleSet, cards: CardSet, seed: int) -> int:
    """Play one game of the four bots (seats rotated by ``seed``). At every concert, each
    bot forecasts the concert it would give in that seat; the seated bot's forecast is
    checked against the concert it gives, every other bot's against the engine's record of
    its orchestras on a copy of the game."""
    names = list(BOTS)
    names = names[seed % 4:] + names[:seed % 4]
    bots = {n: BOTS[n]() for n in names}
    game = Game(players=4, seed=seed, rules=rules, cards=cards)
    checked = 0
    plans: dict[int, Any] = {}  # seat -> the month plan of a planner choosing its card
    while game.decision is not None:
        d = game.decision
        seated = names[d.player]
        bot = bots[seated][0]
        view = game.view(d.player)
        if d.kind == "concert_card" and isinstance(bot, Planner):
            plans[d.player] = bot.plan_for_concert(view)
        if d.kind != "concert_orchestras":
            game.answer(bot(view, d))
            continue
        where = (f"seat {d.player}, month {game.month}, {d.info['card']} at "
                 f"{d.info['venue']}, {rules.non_default()}, {cards.source}")
        for name, (_, forecaster) in bots.items():
            if name != seated:
                forecast = forecaster(view, d)
                if forecast is not None:
                    _check(name, forecast, _concert_of(game.clone(), forecast.items), cards,
                           where)
        forecast = bots[seated][1](view, d)
        event = _concert_of(game, bot(view, d))
        plan = plans.pop(d.player, None)
        if plan is not None and plan.card == event["card"] and sorted(plan.lineup.items) \
                == sorted(event["orchestras"]):  # the month plan (options()) predicted it too
            assert (plan.lineup.level, plan.concert_fame, plan.income) == (
                event["rating"], event["fame"], event["income"]), f"{seated} plan: {where}"
            SEEN[seated, "month plan"] += 1
        assert forecast is not None and sorted(forecast.items) == sorted(event["orchestras"]), \
            f"{seated} did not bring the orchestras it forecast: {where}"
        _check(seated, forecast, event, cards, where)
        checked += 1
    return checked


def _source_of(fn: Callable[..., Any]) -> str:
    """``fn``'s source read from scoring.py (a compiled build's functions have no source for
    inspect: mypyc makes them built-in functions, and its modules' ``__file__`` is not where
    they are; the package's ``__init__`` is pure Python in both builds)."""
    tree = ast.parse((Path(musici.__file__ or "").parent / "scoring.py").read_text())
    found = [node for node in tree.body
             if isinstance(node, ast.FunctionDef) and node.name == fn.__name__]
    assert len(found) == 1, fn
    return ast.unparse(found[0])


def test_concert_rulings_are_the_ones_scoring_reads():
    read = set()
    for fn in CONCERT_FUNCTIONS:
        read |= set(re.findall(r"'(RULING-[A-Z-]+)'", _source_of(fn)))
    assert read == set(CONCERT_RULINGS)
    assert set(CONCERT_RULINGS) <= set(RULE_OPTIONS)


@pytest.mark.rules("RATE.GOOD", "RULING-STYLE", "RESTORE.1", "RESTORE.2", "RESTORE.3", "RESTORE.4",
                   "RULING-LINEAGE", "RULING-RESTORE-GOOD", "P3.TOUR", "P3.TOUR.4",
                   "RULING-ROUNDING", "P4.CONCERT.4")
@pytest.mark.parametrize("options,card_set,seed", SETTINGS, ids=[
    ",".join(f"{k}={v}" for k, v in o.items()) + f"-{c}" for o, c, _ in SETTINGS])
def test_each_bot_predicts_the_concert_the_engine_records(options: dict[str, Any],
                                                          card_set: str, seed: int):
    rules = RuleSet.from_options(options)
    checked = _play_and_check(rules, CARD_SETS[card_set](), seed)
    assert checked >= rules.months  # the bots held concerts to check


def test_the_checks_covered_every_part_of_a_concert():
    """Runs after the games above (same module, file order): each bot's checked forecasts
    included restoration bonuses, both kinds of tour and a card judged in the other style
    (RULING-STYLE=best-of-card)."""
    if not SEEN:  # run alone: play the games here
        for options, card_set, seed in SETTINGS:
            _play_and_check(RuleSet.from_options(options), CARD_SETS[card_set](), seed)
    for name in BOTS:
        for what in ("restoration bonus", "academic tour", "commercial tour",
                     "judged in the other style"):
            assert SEEN[name, what] > 0, f"no {what} in {name}'s checked concerts: {SEEN}"
        if name != "greedy":
            assert SEEN[name, "month plan"] > 0, f"no month plan of {name} checked: {SEEN}"


@pytest.mark.rules("END.1", "END.2", "END.3", "END.4", "END.6", "END.7", "RULING-END-CARDS")
@pytest.mark.parametrize("reading", RULE_OPTIONS["RULING-END-CARDS"].choices)
def test_search_estimates_the_end_awards_the_engine_gives(reading: str):
    rules = RuleSet.from_options({"RULING-END-CARDS": reading})
    differs = 0
    for seed in range(3):
        game = Game(players=4, seed=seed, rules=rules)
        game.play([BOTS[n]()[0] for n in BOTS])
        given = [Fraction(0)] * game.n
        for e in game.events:
            if e.kind == "award":
                for s in e.data["winners"]:
                    given[s] += Fraction(e.data["share"])
        assert _award_shares(game) == [float(f) for f in given]
        other = RuleSet.from_options({"RULING-END-CARDS": next(
            c for c in RULE_OPTIONS["RULING-END-CARDS"].choices if c != reading)})
        other_awards = scoring.award_fame(scoring.end_awards(game.cards, other, game.players),
                                           game.n)
        differs += other_awards != given
    assert differs, "the two readings gave the same awards in every game: nothing was tested"


@pytest.mark.parametrize("guided", [False, True])
def test_the_planner_prices_a_tour_as_the_engine_charges_it(guided: bool) -> None:
    """SPECIAL.S3 is played face up, so a seat's view (through which the planner and the
    preview price venues) sees it and counts the tour free."""
    from musici import economy as E
    from musici.engine.p5_settlement import pay_venue

    for area in E.TOURS:
        game = Game(4, seed=2)
        game.play([random_strategy] * 4, until="phase")  # into the month, before P5
        p = game.players[0]
        p.venue, p.tour_guide, p.money, p.fame = area, guided, 500, 50  # above any floor
        forecast = game.view(0).venue_cost(area, held_concert=True)  # the planner's price
        money, fame = p.money, p.fame
        pay_venue(game, p, True)
        assert (money - p.money, fame - p.fame) == (forecast.money, forecast.fame), area
        assert forecast.free == guided, area
