"""The search bot: legal, reproducible, blind to hidden information, and stronger than chance."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import hidden_twin

from musici.engine import Game
from musici.rules import RuleSet
from musici.strategies import greedy_strategy, random_strategy
from musici.strategies.search import SearchBot, make_search_bot

SHORT = RuleSet.from_options({"RULING-MONTHS": 3})


def _cheap() -> SearchBot:
    return SearchBot(worlds=2, max_candidates=3)


def _until(game: Game, seat: int, kind: str, strategies: list[Any]) -> None:
    """Play on until ``seat`` must make a ``kind`` decision with several options."""
    while not (game.decision.player == seat and game.decision.kind == kind
               and len(game.decision.options) > 2):
        game.ask(strategies[game.decision.player])


def _fingerprint(game: Game) -> tuple:
    """Everything of a game except the seats' own generators (which a bot may draw from)."""
    return (
        tuple((p.fame, p.money, tuple(p.hand), tuple(p.played), tuple(p.orchestras),
               tuple(sorted(p.markers.items())), tuple(p.permanent), tuple(p.specials_hand),
               p.venue, p.actions, repr(p.concert)) for p in game.players),
        tuple(game.score_deck), tuple(game.score_market), tuple(game.orchestra_deck),
        tuple(game.orchestra_market), tuple(game.special_deck), game.special_slot,
        tuple(game.discovery_decks["authentic"]), tuple(game.discovery_decks["modern"]),
        tuple(sorted(game.media_bids.items())), tuple(sorted(game.venues.items())),
        game.month, game.phase, game.round, game.decision, len(game.events),
        tuple(game.answers), len(game._stack), game.rng.getstate(),
    )


def test_answers_are_legal_and_games_finish() -> None:
    for seed in (1, 2):
        bots: list[Any] = [_cheap(), greedy_strategy, _cheap(), random_strategy]
        game = Game(4, seed=seed, rules=SHORT).play(bots)  # an illegal answer would raise
        assert game.finished
        assert bots[0].searched > 0


def test_same_seed_same_game() -> None:
    def run() -> list[Any]:
        game = Game(4, seed=5, rules=SHORT)
        game.play([_cheap(), greedy_strategy, random_strategy, greedy_strategy])
        return game.answers

    assert run() == run()


def test_thinking_does_not_change_the_real_game() -> None:
    game = Game(4, seed=3)
    strategies: list[Any] = [greedy_strategy] * 4
    seat = 1
    _until(game, seat, "action", strategies)
    before = _fingerprint(game)
    bot = _cheap()
    answer = bot(game.view(seat), game.decision)
    assert bot.searched == 1
    assert game.is_legal(answer)
    assert _fingerprint(game) == before


@pytest.mark.parametrize(("seed", "kind"), [(3, "action"), (8, "venue"), (21, "action")])
def test_answer_depends_only_on_the_view(seed: int, kind: str) -> None:
    game = Game(4, seed=seed)
    strategies: list[Any] = [greedy_strategy] * 4
    game.play(strategies, max_steps=60)
    seat = (game.decision.player + 1) % 4
    _until(game, seat, kind, strategies)
    twin = hidden_twin(game, seat)
    assert [p.hand for p in twin.players] != [p.hand for p in game.players]
    a = SearchBot(worlds=3)(game.view(seat), game.decision)
    b = SearchBot(worlds=3)(twin.view(seat), twin.decision)
    assert a == b


def test_factory_gives_independent_bots() -> None:
    a, b = make_search_bot(), make_search_bot()
    assert a is not b and callable(a)


def test_cheap_search_beats_random_bots() -> None:
    rules = RuleSet.from_options({"RULING-MONTHS": 4})
    wins = 0.0
    for seed in range(4):
        seat = seed % 4
        strategies: list[Any] = [random_strategy] * 4
        strategies[seat] = _cheap()
        game = Game(4, seed=100 + seed, rules=rules).play(strategies)
        if seat in game.results["winners"]:
            wins += 1 / len(game.results["winners"])
    assert wins >= 3
