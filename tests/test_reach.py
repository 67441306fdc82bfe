"""What a seat can reach (musici.analysis.reach, issue 18 item 4): the planner's line-ups are
concerts the engine then records as the planner said, it reads only the seat's view, it
finds the best line-up there is, and it says when nothing can play a card.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from card_variants import corner_swapped_cards

from musici import Game, RuleSet, scoring
from musici import economy as E
from musici.analysis import reach as RCH
from musici.cards import STYLES, CardSet, cardset_from_data, standard_cardset, standard_cardset_data
from musici.decisions import Decision
from musici.rules import RULE_OPTIONS
from musici.strategies.greedy import greedy_strategy
from musici.strategies.impresario import Impresario
from musici.views import PlayerView

# Other tour terms (as tests/test_levers.py): multipliers that round, both multipliers on one
# tour, a commercial tour that keeps half the fame.
TOURS_CHANGED = {"large-academic": {"money": 300, "fame_multiplier": 2.5},
                 "small-academic": {"money": 250, "fame_multiplier": 1.25,
                                    "income_multiplier": 0.5},
                 "large-commercial": {"fame": 4, "money": 20, "income_multiplier": 3},
                 "small-commercial": {"fame": 2, "income_multiplier": 1.25,
                                      "fame_multiplier": 0.5}}


@functools.cache
def _tours_changed() -> CardSet:
    data = standard_cardset_data()
    data["tours"] = TOURS_CHANGED
    return cardset_from_data(data, "<tours changed>")


CARD_SETS: dict[str, Callable[[], CardSet]] = {
    "bundled": standard_cardset, "swapped": corner_swapped_cards, "tours": _tours_changed}


class ReachBot:
    """Plays by the planner: at the venue the area whose best concert gives the most fame
    (money breaking ties), then hires the planned orchestras, then gives the planned concert
    (the concert card's reach, hires=0); everything else as the greedy bot. Records each
    plan made at the venue and each concert forecast, for the checks."""

    def __init__(self) -> None:
        self.plan: RCH.Reach | None = None
        self.forecast: RCH.Reach | None = None

    def __call__(self, view: PlayerView, d: Decision) -> Any:
        if d.kind == "venue":
            reach = RCH.venue_reach(view, d.options)
            best = [(rs[0], a) for a, rs in reach.items() if rs and rs[0].playable]
            if not best:
                self.plan = None
                return greedy_strategy(view, d)
            r, area = max(best, key=lambda x: (x[0].fame, x[0].income, -x[0].hire_cost))
            self.plan = r
            return area
        plan = self.plan
        if d.kind == "action" and plan is not None:
            missing = [o for o in plan.hires if o not in view.me.orchestras]
            if missing and "hire" in d.options:
                return "hire"
            if not missing and "concert" in d.options and plan.card in view.hand:
                return "concert"
            other = greedy_strategy(view, d)  # e.g. buy a card for the months ahead
            return "pass" if other in ("concert", "hire") else other
        if d.kind == "hire" and plan is not None:
            wanted = [o for o in plan.hires if o in d.options]
            return wanted[0] if wanted else d.options[0]
        if d.kind == "concert_card":
            if plan is not None and plan.card in d.options:
                return plan.card
            found = [RCH.card_reach(view, c, view.me.venue, hires=0) for c in d.options]
            return max(found, key=lambda r: (r.fame or -99, r.income or 0)).card
        if d.kind == "concert_orchestras":
            self.forecast = RCH.card_reach(view, d.info["card"], view.me.venue, hires=0)
            return (*self.forecast.items, *self.forecast.hires)
        return greedy_strategy(view, d)


def _concerts(rules: RuleSet, card_set: str, seed: int, players: int) -> tuple[int, int]:
    """Play the reach bot in seat 0 against greedy and impresario bots; every concert it
    gives must be the one its concert-time reach forecast, and the one its venue-time plan
    forecast whenever the plan's hires all came through."""
    bot = ReachBot()
    others: list[Any] = [greedy_strategy, Impresario(), greedy_strategy]
    game = Game(players, seed=seed, rules=rules, cards=CARD_SETS[card_set]())
    checked = planned = 0
    while game.decision is not None:
        d = game.decision
        view = game.view(d.player)
        answer = bot(view, d) if d.player == 0 else others[d.player - 1](view, d)
        start = len(game.events)
        game.answer(answer)
        if d.player != 0 or d.kind != "concert_orchestras":
            continue
        event = next(e for e in game.events[start:] if e.kind == "concert").data
        forecast = bot.forecast
        assert forecast is not None and forecast.outcome is not None
        where = f"seed {seed}, month {game.month}, {rules.non_default()}, {card_set}"
        assert (forecast.rating, forecast.fame, forecast.income) == (
            event["rating"], event["fame"], event["income"]), where
        checked += 1
        plan = bot.plan
        if plan is not None and plan.card == event["card"] and sorted(
                (*plan.items, *plan.hires)) == sorted(event["orchestras"]):
            assert (plan.rating, plan.fame, plan.income) == (
                event["rating"], event["fame"], event["income"]), f"plan: {where}"
            planned += 1
            PLANNED["with hires"] += bool(plan.hires)
            PLANNED["on a tour"] += plan.area in game.cards.tours
    return checked, planned


PLANNED: Counter[str] = Counter()  # what the checked venue-time plans covered
COMBOS = list(itertools.product(*(RULE_OPTIONS[n].choices for n in scoring.CONCERT_RULINGS)))


@pytest.mark.rules("P3.1", "P4.CONCERT.2", "P4.CONCERT.4", "P4.HIRE.1", "P3.TOUR", "RATE.GOOD")
@pytest.mark.parametrize("i", range(0, len(COMBOS), 4))
def test_the_planners_concerts_are_the_engines(i: int) -> None:
    rules = RuleSet.from_options(dict(zip(scoring.CONCERT_RULINGS, COMBOS[i], strict=True)))
    card_set = list(CARD_SETS)[i % len(CARD_SETS)]
    checked, planned = _concerts(rules, card_set, seed=300 + i, players=3 + i % 2)
    assert checked >= 3 and planned >= 2, (checked, planned)


def test_the_checked_plans_hired_and_toured() -> None:
    """Runs after the games above (file order): venue-time plans that hired from the
    market and plans on a tour were among those the engine confirmed."""
    if not PLANNED:
        for i in range(0, len(COMBOS), 4):
            test_the_planners_concerts_are_the_engines(i)
    assert PLANNED["with hires"] > 0 and PLANNED["on a tour"] > 0, PLANNED


def _brute_best(view: PlayerView, card_id: str, area: str | None) -> int:
    """The most fame before the venue any line-up of the seat's own orchestras gives
    (every subset of one style within the room), by the engine's functions."""
    cards, rules, me = view.cards, view.rules, view.me
    card = cards.music[card_id]
    items = list(me.orchestras)
    room = E.capacity(area) if area is not None else None
    restore = scoring.restoration(cards, rules, card, me.played, me.permanent)
    best = -999
    for style in STYLES:
        mine = [o for o in items if cards.performer(o)[0] == style]
        for n in range(1, len(mine) + 1):
            if room is not None and n > room:
                break
            for chosen in itertools.combinations(mine, n):
                st, brought, marks = scoring.lineup(cards, chosen, dict(me.markers))
                out = scoring.concert_outcome(card, st, brought, marks, rules=rules,
                                              venue=None, media=view.media == view.seat,
                                              restore=restore, tours=cards.tours)
                best = max(best, out.total)
    return best


@pytest.mark.parametrize("seed", range(4))
def test_the_best_line_up_is_the_best_there_is(seed: int) -> None:
    """Against every subset of the seat's orchestras (no hires), some with dissent markers:
    the reach's fame is the most any line-up gives, in every hall and tour, for every card
    in hand."""
    game = Game(4, seed=seed, rules=RuleSet.from_options({"RULING-STYLE": "best-of-card"}))
    rng = random.Random(seed)
    compared = 0
    while game.decision is not None and game.month <= 6:
        d = game.decision
        view = game.view(d.player)
        if d.kind == "venue" and view.me.orchestras and rng.random() < 0.5:
            marked = game.clone()  # more orchestras, some with dissent markers (RATE.FAIR.3,
            seat = marked.players[d.player]  # RATE.POOR.4): enough to staff a card
            seat.orchestras += [marked.orchestra_deck.pop() for _ in range(4)
                                if marked.orchestra_deck]
            for o in seat.orchestras:
                if rng.random() < 0.4:
                    seat.markers[o] = rng.choice((1, 2))
            view = marked.view(d.player)
            for area in (None, *E.AREAS):
                for c in view.hand:
                    r = RCH.card_reach(view, c, area, hires=0)
                    assert r.outcome is not None
                    assert r.outcome.total == _brute_best(view, c, area), (seed, c, area)
                    compared += 1
        game.answer(greedy_strategy(game.view(d.player), d))
    assert compared > 20


def _at_venue(seed: int = 3) -> Game:
    game = Game(4, seed=seed)
    while not (game.decision.kind == "venue" and game.decision.player == 0):
        game.answer(greedy_strategy(game.view(game.decision.player), game.decision))
    return game


def test_nothing_playable_when_no_orchestra_is_owned_or_affordable() -> None:
    """The learner's case: nothing to play a card with (no orchestra owned, none on the
    market that the money buys) is said, not shown as a concert."""
    game = _at_venue()
    p = game.players[0]
    p.orchestras.clear()
    p.permanent.clear()
    p.money = 50  # below every hire price (P4.HIRE.1)
    view = game.view(0)
    for area in E.AREAS:
        for r in RCH.area_reach(view, area):
            assert not r.playable and r.rating is None
            assert "none on the market you can afford" in r.limits[0]
            assert "cannot be played" in RCH.reach_words(view, r)
    p.money = 1500  # now the market can staff it
    assert any(r.playable and r.hires for r in RCH.area_reach(game.view(0), "opera"))


def test_hires_are_within_the_money_and_the_hires_left() -> None:
    game = _at_venue()
    view = game.view(0)
    assert RCH.hires_left(view) == E.ACTION_ROUNDS - 1  # P4.1: the concert takes one round
    prices = dict(RCH.market_offers(view))
    for money in (0, 100, 150, 250, 1500):
        for r in RCH.area_reach(view, "opera", money=money):
            assert len(r.hires) <= E.ACTION_ROUNDS - 1
            assert r.hire_cost == sum(prices[o] for o in r.hires) <= money
    for r in RCH.area_reach(view, "opera", hires=0):
        assert not r.hires


def test_the_venue_multiplier_is_the_card_sets() -> None:
    """The same hand on a tour: fame and income as scoring.tour_result gives them under the
    card set's terms (P3.TOUR, RULING-ROUNDING)."""
    for card_set in CARD_SETS:
        game = Game(4, seed=5, cards=CARD_SETS[card_set]())
        while not (game.decision.kind == "venue" and game.decision.player == 0):
            game.answer(greedy_strategy(game.view(game.decision.player), game.decision))
        view = game.view(0)
        for area in E.TOURS:
            for r in RCH.area_reach(view, area):
                if r.outcome is None:
                    continue
                card = view.cards.music[r.card]
                assert (r.fame, r.income) == scoring.tour_result(
                    r.outcome.total, card.income, area, view.rules, view.cards.tours)


def test_the_reach_reads_only_the_view() -> None:
    """Two games that differ only in what seat 0 cannot see (other hands, the decks) give
    seat 0 the same reach."""
    game = _at_venue(seed=4)
    other = game.view(0).resample(random.Random(9))
    a = {k: [(r.card, r.items, r.hires, r.outcome) for r in v]
         for k, v in RCH.venue_reach(game.view(0)).items()}
    b = {k: [(r.card, r.items, r.hires, r.outcome) for r in v]
         for k, v in RCH.venue_reach(other.view(0)).items()}
    assert a == b


def test_bad_input_is_refused_with_a_clear_error() -> None:
    view = _at_venue().view(0)
    with pytest.raises(KeyError, match="not a music card"):
        RCH.card_reach(view, "O01", "opera")
    with pytest.raises(ValueError, match="unknown area"):
        RCH.card_reach(view, view.hand[0], "moon")
    with pytest.raises(KeyError, match="not an orchestra"):
        RCH.hire_reach(view, view.hand[0])
