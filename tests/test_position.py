"""Positions (Game.position / Game.from_position): arranging a game as data, like a FEN."""

from __future__ import annotations

import pytest
from conftest import advance_to

from musici import Game
from musici.engine.game import GameError
from musici.engine.position import PositionError
from musici.invariants import check_invariants
from musici.strategies import random_strategy


def test_round_trip_at_an_action_gives_the_same_state_and_play():
    game = advance_to(Game(players=4, seed=11), "action", when=lambda g: g.month == 3)
    data = {**game.position(), "at": {"action": game.decision.player, "round": game.round}}
    data.pop("phase"), data.pop("round")
    twin = Game.from_position(data)
    # An arranged position starts fresh generators, no sealed bids and claims the areas in
    # seat order; all else is the same (tests/test_exact_positions.py checks the exact round
    # trip, generators included).
    def arranged_part(g: Game) -> dict:
        data = {k: v for k, v in g.position().items() if k not in ("rngs", "media_bids")}
        return {**data, "venues": sorted(data["venues"])}
    assert arranged_part(twin) == arranged_part(game)
    assert twin.decision == game.decision
    check_invariants(twin)


@pytest.mark.rules("P4.1", "MONTH.2")
def test_arranged_seat_acts_then_the_rest_of_the_round_in_turn_order():
    g = Game.from_position({"seed": 2, "month": 4, "start_player": 1,
                            "seats": [{"money": 90}], "at": {"action": 3, "round": 2}})
    assert (g.month, g.phase, g.round, g.players[0].money) == (4, "P4", 2, 90)
    asked = []
    while g.phase == "P4" and g.decision is not None:
        if g.decision.kind == "action":
            asked.append((g.round, g.decision.player))
        g.ask(random_strategy)
    # round 2 from seat 3 in turn order (start player 1: 1, 2, 3, 0), then round 3 whole
    assert asked[:2] == [(2, 3), (2, 0)] and [s for r, s in asked if r == 3] == [1, 2, 3, 0]


def test_named_cards_leave_their_dealt_place_and_the_market_refills():
    base = Game(players=4, seed=5)
    card = base.score_market[0]
    g = Game.from_position({"seed": 5, "seats": [{"hand": [card]}], "at": "P3"})
    assert g.players[0].hand == [card]
    assert card not in g.score_market and None not in g.score_market
    assert g.phase == "P3" and g.decision.kind == "venue"
    check_invariants(g)
    g.play([random_strategy] * 4)
    assert g.finished


@pytest.mark.parametrize("data, match", [
    ({"seats": [{"cash": 5}]}, "unknown fields"),
    ({"colour": "red"}, "unknown position fields"),
    ({"seats": [{"hand": ["S01"]}, {"hand": ["S01"]}]}, "named twice"),
    ({"seats": [{"hand": ["NOPE"]}]}, "unknown card"),
    ({"at": {"action": 9}}, "needs a seat"),
    ({"at": "P9"}, "at must be one of"),
    ({"month": 13}, "month must be"),
    ({"seats": [{"money": "lots"}]}, "must be a int"),
])
def test_bad_positions_are_refused_with_their_field(data, match):
    with pytest.raises(PositionError, match=match):
        Game.from_position(data)


def test_an_arranged_game_cannot_be_saved_by_replay(tmp_path):
    g = Game.from_position({"at": "end"})
    assert g.finished
    with pytest.raises(GameError, match="no history"):
        g.save(tmp_path / "x.json")
