from __future__ import annotations

import pytest

from musici import Game
from musici.strategies import available_strategies, greedy_strategy, make_strategy, random_strategy


def test_registry_knows_its_strategies_and_rejects_unknown_names():
    assert make_strategy("random") is random_strategy
    assert make_strategy("greedy") is greedy_strategy
    with pytest.raises(ValueError, match=r"unknown strategy 'clever'; known strategies: .*greedy"):
        make_strategy("clever")
    assert {"random", "greedy"} <= set(available_strategies())


def test_greedy_beats_random_players_most_of_the_time():
    wins = 0.0
    games = 40
    for seed in range(games):
        game = Game(seed=seed).play([greedy_strategy, random_strategy, random_strategy,
                                     random_strategy])
        winners = game.results["winners"]
        wins += winners.count(0) / len(winners)
    assert wins / games >= 0.5, f"greedy won only {wins} of {games}"


def test_random_strategy_is_reproducible_from_the_seed():
    a = Game(seed=77).play([random_strategy] * 4)
    b = Game(seed=77).play([random_strategy] * 4)
    assert a.answers == b.answers
