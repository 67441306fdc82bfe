"""Long runs for `make test-slow` (kept out of the default suite by the `slow` marker)."""

from __future__ import annotations

import random

import pytest

from musici import Game, RuleSet
from musici.invariants import check_invariants
from musici.rules import RULE_OPTIONS
from musici.strategies import greedy_strategy, random_strategy


@pytest.mark.slow
@pytest.mark.rules("GOAL.1", "P5.7")
def test_two_thousand_games_with_random_options_keep_every_invariant():
    picker = random.Random(2024)
    for seed in range(2000):
        options = {name: picker.choice(o.choices) for name, o in RULE_OPTIONS.items()}
        players = picker.choice((3, 4))
        lineup = [picker.choice((random_strategy, greedy_strategy)) for _ in range(players)]
        game = Game(players=players, seed=seed, rules=RuleSet.from_options(options))
        while game.decision is not None:
            check_invariants(game)
            game.ask(lineup[game.decision.player])
        check_invariants(game)
        assert game.finished and len(game.monthly) == options["RULING-MONTHS"]
