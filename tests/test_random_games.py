"""Many complete random games, for 3 and 4 players and every rule option value."""

from __future__ import annotations

import pytest

from musici import Game, RuleSet
from musici.invariants import check_invariants
from musici.rules import RULE_OPTIONS
from musici.strategies import random_strategy

PHASE_ORDER = {"SETUP": 0, "P1": 1, "P2": 2, "P3": 3, "P4": 4, "P5": 5, "END": 6}

VARIANTS = [
    (name, value)
    for name, option in RULE_OPTIONS.items()
    for value in option.choices
    if value != option.default and (name != "RULING-MONTHS" or value in (1, 4, 6))
]


def play_checked(game: Game) -> Game:
    last = (0, 0)
    seen = 0
    while game.decision is not None:
        check_invariants(game)
        game.ask(random_strategy)
        for e in game.events[seen:]:
            order = (e.month, PHASE_ORDER[e.phase])
            assert order >= last, f"event out of order (MONTH.1): {e}"
            last = order
        seen = len(game.events)
    check_invariants(game)
    return game


@pytest.mark.rules("GOAL.1", "MONTH.1", "COMP.8", "P5.7", "P5.8")
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", range(12))
def test_random_games_finish_and_stay_consistent(players, seed):
    game = play_checked(Game(players=players, seed=seed))
    assert game.finished
    assert game.month == 12
    assert len(game.monthly) == 12
    assert [e.kind for e in game.events].count("month") == 12
    assert game.results is not None and game.results["winners"]


@pytest.mark.parametrize(("name", "value"), VARIANTS, ids=[f"{n}={v}" for n, v in VARIANTS])
@pytest.mark.parametrize("players", [3, 4])
def test_random_games_under_every_option(name, value, players):
    rules = RuleSet.from_options({name: value})
    for seed in range(3):
        game = play_checked(Game(players=players, seed=100 + seed, rules=rules))
        assert game.finished
        assert len(game.monthly) == rules.months
