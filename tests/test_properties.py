"""Invariants under random play, property-based (Hypothesis).

Over random seeds, 3 and 4 players, rule sets drawn from every option's values, card sets
drawn from valid variations of the bundled set and line-ups of the random, greedy and
heuristic bots, after EVERY answer the state keeps :func:`check_invariants` (money >= 0 and
a multiple of 5, every card in exactly one place with the COMP.4-7 counts and the SETUP.6
removals, <= 2 markers, fame >= 0 under RULING-FAME-FLOOR=zero, ...), every new event keeps
:func:`check_events` ((month, phase) never goes back, amounts stay legal), and at the end
every recorded answer replays as legal (:func:`check_replay`).

The default suite runs a derandomized slice; ``make test-slow`` runs ten seeded chunks of
1,000 games each (10,000 games).
"""

from __future__ import annotations

import time
from collections import Counter

import pytest
from game_cases import GameCase, build_cardset, cardset_variants, game_cases
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from musici import Game, RuleSet
from musici.cards import cardset_from_data
from musici.invariants import InvariantError, check_events, check_invariants, check_replay
from musici.state import AREAS
from musici.strategies import random_strategy

STATS: Counter[str] = Counter()

FAST = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def play_checked(case: GameCase) -> Game:
    """Play ``case`` to the end, checking the state after every answer and every new event."""
    game = case.game()
    strategies = case.strategies()
    check_invariants(game)
    last = check_events(game)
    seen = len(game.events)
    while (decision := game.decision) is not None:
        game.ask(strategies[decision.player])
        check_invariants(game)
        last = check_events(game, seen, last)
        seen = len(game.events)
    assert game.finished, case
    assert len(game.monthly) == game.rules.months
    assert [e.kind for e in game.events].count("month") == game.rules.months
    check_replay(game)
    STATS["games"] += 1
    STATS["answers"] += game.step
    STATS["events"] += len(game.events)
    return game


@pytest.mark.rules("COMP.4", "COMP.5", "COMP.6", "COMP.7", "COMP.8", "SETUP.6", "MONTH.1",
                   "P5.7", "P5.8")
@FAST
@given(case=game_cases())
def test_random_play_keeps_every_invariant(case: GameCase) -> None:
    play_checked(case)


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(data=cardset_variants())
def test_card_set_variants_are_valid_and_varied(data) -> None:
    cards = cardset_from_data(data)
    assert len(cards.scores) == 30 and len(cards.discoveries) == 20
    assert len(cards.orchestras) == 32 and len(cards.specials) == 15


def test_card_set_variants_really_vary() -> None:
    # The strategy must not collapse to the bundled set (a vacuous property test).
    prints = set()

    @settings(max_examples=40, deadline=None, derandomize=True, database=None)
    @given(data=cardset_variants())
    def collect(data) -> None:
        prints.add(build_cardset(data).fingerprint)

    collect()
    assert len(prints) >= 30


def _corruptions():
    def money(g):
        g.players[0].money = -5

    def odd_money(g):
        g.players[1].money += 3

    def third_marker(g):
        p = next(p for p in g.players if p.orchestras)
        p.markers[p.orchestras[0]] = 3

    def duplicate(g):
        g.players[0].hand.append(g.score_market[0])

    def lost(g):
        g.score_deck.pop()

    def fame(g):
        g.players[2].fame = -1

    def removal(g):  # a 3-player game with one removed card back in the deck (SETUP.6)
        g.score_deck.append(g.out_of_game.pop())

    def wrong_place(g):  # a discovery card face up in the score market
        g.score_market[0], g.discovery_decks["modern"][0] = (g.discovery_decks["modern"][0],
                                                             g.score_market[0])

    def bought(g):
        g.players[0].specials_bought += 1

    def venue(g):
        g.venues[next(a for a in AREAS if a not in g.venues)] = 0

    def gap(g):
        g.orchestra_deck.append(g.orchestra_market[2])
        g.orchestra_market[2] = None

    return [money, odd_money, third_marker, duplicate, lost, fame, removal, wrong_place, bought,
            venue, gap]


@pytest.mark.parametrize("corrupt", _corruptions(), ids=lambda f: f.__name__)
def test_invariant_checks_catch_corruption(corrupt) -> None:
    """The checks are not vacuous: each corruption of a legal mid-game state is caught."""
    game = Game(players=3, seed=5)
    while not (game.phase == "P4" and game.month == 3 and any(p.orchestras for p in game.players)):
        game.ask(random_strategy)
    check_invariants(game)
    corrupt(game)
    with pytest.raises(InvariantError):
        check_invariants(game)


def test_event_and_replay_checks_catch_corruption() -> None:
    game = Game(players=4, seed=3).play([random_strategy] * 4, max_steps=120)
    last = check_events(game)
    # month 1's first event again, after later phases' events: out of order
    game.events.append(next(e for e in game.events if e.kind == "month"))
    with pytest.raises(InvariantError, match="out of order"):
        check_events(game, len(game.events) - 1, last)
    game.events.pop()
    check_replay(game)
    game.answers[-1] = "teleport"
    with pytest.raises(Exception, match="teleport"):
        check_replay(game)


# ---------------------------------------------------------------------- the long run
LONG_CHUNKS = 10
LONG_GAMES_PER_CHUNK = 1_000


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(LONG_CHUNKS))
def test_ten_thousand_games_keep_every_invariant(chunk: int) -> None:
    """1,000 games per chunk; chunk k is Hypothesis seed 20_250 + k, so a failure replays."""
    before = Counter(STATS)
    start = time.perf_counter()

    @seed(20_250 + chunk)
    @settings(max_examples=LONG_GAMES_PER_CHUNK, deadline=None, database=None,
              derandomize=False, print_blob=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(case=game_cases())
    def run(case: GameCase) -> None:
        play_checked(case)

    run()
    done = STATS - before
    print(f"\nchunk {chunk}: {done['games']} games, {done['answers']} answers, "
          f"{done['events']} events in {time.perf_counter() - start:.1f} s")
    assert done["games"] >= LONG_GAMES_PER_CHUNK


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(case=game_cases(rules=st.fixed_dictionaries({"RULING-FAME-FLOOR": st.just("none")})
                       .map(lambda d: RuleSet.from_options(d).to_dict())))
def test_negative_fame_games_keep_every_other_invariant(case: GameCase) -> None:
    play_checked(case)
