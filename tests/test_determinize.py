"""determinize(): samples agree with the seat's view and never depend on hidden information."""

from __future__ import annotations

import random

import pytest
from conftest import hidden_twin

from musici.determinize import determinize
from musici.engine import Game
from musici.invariants import check_invariants
from musici.strategies import random_strategy


def _midgame(players: int, seed: int, steps: int) -> Game:
    game = Game(players, seed=seed)
    game.play([random_strategy] * players, max_steps=steps)
    assert game.decision is not None
    return game


def _hidden_state(game: Game, seat: int) -> tuple:
    return (
        tuple(tuple(p.hand) for p in game.players if p.seat != seat),
        tuple(game.score_deck), tuple(game.orchestra_deck), tuple(game.special_deck),
        tuple(game.discovery_decks["authentic"]), tuple(game.discovery_decks["modern"]),
        tuple(game.out_of_game), tuple(sorted(game.media_bids.items())),
    )


@pytest.mark.parametrize(("players", "seed", "steps"), [(4, 3, 150), (3, 11, 90), (4, 5, 20)])
def test_sample_keeps_what_the_seat_sees(players: int, seed: int, steps: int) -> None:
    game = _midgame(players, seed, steps)
    seat = game.decision.player
    sample = determinize(game.view(seat), random.Random(1))
    view, seen = game.view(seat), sample.view(seat)
    assert seen.hand == view.hand
    assert seen.players == view.players
    assert (seen.score_market, seen.orchestra_market, seen.deck_sizes) == \
        (view.score_market, view.orchestra_market, view.deck_sizes)
    assert sample.decision == game.decision
    check_invariants(sample)
    # The sample is a full game: it can be played to the end under the rules.
    sample.play([random_strategy] * players)
    assert sample.finished


def test_sample_redeals_hidden_cards() -> None:
    game = _midgame(4, 3, 150)
    seat = game.decision.player
    samples = [_hidden_state(determinize(game.view(seat), random.Random(k)), seat) for k in range(5)]
    assert len(set(samples)) == 5
    assert _hidden_state(game, seat) not in samples


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_sample_depends_only_on_the_view(seed: int) -> None:
    game = _midgame(4, seed, 120)
    seat = game.decision.player
    twin = hidden_twin(game, seat)
    assert _hidden_state(twin, seat) != _hidden_state(game, seat)
    a = determinize(game.view(seat), random.Random(9))
    b = determinize(twin.view(seat), random.Random(9))
    assert _hidden_state(a, seat) == _hidden_state(b, seat)
    strategies = [random_strategy] * 4
    a.play(strategies)
    b.play(strategies)
    assert a.results == b.results


def test_sealed_media_bids_are_resampled() -> None:
    game = Game(4, seed=2)
    while not (game.phase == "P2" and len(game.media_bids) >= 2):
        game.ask(random_strategy)
    seat = game.decision.player
    real = dict(game.media_bids)
    bids = [determinize(game.view(seat), random.Random(k)).media_bids for k in range(20)]
    assert all(b.keys() == real.keys() for b in bids)
    assert any(b != real for b in bids)
    for b in bids:
        for other, amount in b.items():
            assert 0 <= amount <= game.players[other].money


def test_media_bid_model_sets_the_others_sealed_bids_and_is_checked() -> None:
    # The engine's seam (Game.resample): a bot may model how the others bid (P2.1).
    game = Game(4, seed=2)
    while not (game.phase == "P2" and len(game.media_bids) >= 2):
        game.ask(random_strategy)
    seat = game.decision.player
    real = dict(game.media_bids)
    world = determinize(game.view(seat), random.Random(3), media_bid=lambda w, s: 5 * s)
    assert dict(world.media_bids) == {s: real[s] if s == seat else 5 * s for s in real}
    assert dict(game.media_bids) == real  # the real game is untouched
    with pytest.raises(ValueError, match="not a legal sealed bid"):
        determinize(game.view(seat), random.Random(3), media_bid=lambda w, s: 3)


def test_sample_keeps_the_public_backs_of_every_hand() -> None:
    # A collector draws discovery cards; their backs are public (P4.DISCOVER.1, COMP.7).
    from musici.strategies import make_strategy

    bots = [make_strategy(n) for n in ("greedy", "collector", "greedy", "greedy")]
    game = Game(4, seed=1)
    checked = 0
    while game.decision is not None and checked < 40:
        seat = game.decision.player
        view = game.view(seat)
        if any(n for p in view.players if p.seat != seat for b, n in p.hand_backs if b != "score"):
            sample = determinize(view, random.Random(checked))
            assert sample.view(seat).players == view.players  # hand_backs included
            checked += 1
        game.ask(bots[seat])
    assert checked == 40
