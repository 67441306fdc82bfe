"""Exact positions (issue 22 item 3): ``Game.from_position(game.position())`` at any decision
is the same game.

At every decision of many games, the position goes through ``json.dumps``/``loads`` and is
rebuilt. The rebuilt game must pose the same decision with the same options, show every seat
the same view (its history aside: a position has none), and, given the answer the original
got, emit the same events and reach *the same position* as the original's next one. By
induction the two games then play identically to the end; a sample is also played to the
end literally and its results compared.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from card_variants import corner_swapped_cards

from musici import Game, RuleSet
from musici.engine.position import PositionError
from musici.rules import RULE_OPTIONS
from musici.strategies import make_strategy

BOTS = ("random", "greedy", "impresario", "merchant", "collector")
VIEW_FIELDS = ("seat", "n_players", "month", "phase", "round", "months", "start_player", "hand",
               "my_media_bid", "players", "me", "score_market", "orchestra_market",
               "special_slot", "thief_marks", "deck_sizes", "venues", "media", "chapel_free")


def view_snapshot(game: Game, seat: int) -> tuple[Any, ...]:
    view = game.view(seat)
    return (*(getattr(view, f) for f in VIEW_FIELDS), view.rng.getstate())


def random_rules(rng: random.Random) -> RuleSet:
    return RuleSet.from_options({name: rng.choice(option.choices)
                                 for name, option in RULE_OPTIONS.items()})


def check_game(index: int, *, to_end_every: int = 0) -> int:
    """Play game ``index`` (its line-up, players, rules and card set drawn from it) and check
    every decision's position; returns the number of positions checked."""
    rng = random.Random(f"exact-positions:{index}")
    n = rng.choice((3, 4))
    rules = random_rules(rng) if index % 3 else RuleSet()
    cards = corner_swapped_cards() if index % 5 == 4 else None
    game = Game(n, seed=index, rules=rules, cards=cards)
    names = [rng.choice(BOTS) for _ in range(n)]
    players = [make_strategy(name) for name in names]
    twins = [make_strategy(name) for name in names]  # the rebuilt games' players
    checked = 0
    data = json.loads(json.dumps(game.position()))
    while True:
        rebuilt = Game.from_position(data, cards=cards)
        assert rebuilt.decision == game.decision, f"game {index} step {game.step}"
        if game.decision is None:
            assert rebuilt.results == game.results
            return checked + 1
        assert rebuilt.decision.options == game.decision.options
        assert dict(rebuilt.decision.info) == dict(game.decision.info)
        for seat in range(n):
            assert view_snapshot(rebuilt, seat) == view_snapshot(game, seat), (index, game.step, seat)
        d = game.decision
        answer = players[d.player](game.view(d.player), d)
        # The bot asked in the rebuilt game draws from the rebuilt seat's generator: the
        # same answer, and both generators move on alike.
        assert twins[d.player](rebuilt.view(d.player), rebuilt.decision) == answer
        before = len(game.events)
        if to_end_every and checked % to_end_every == 0:
            _play_both_to_end(game.clone(), rebuilt.clone(), players, answer)
        game.answer(answer)
        rebuilt.answer(answer)
        assert rebuilt.events == game.events[before:], f"game {index} step {game.step}"
        data = json.loads(json.dumps(game.position()))
        assert rebuilt.position() == data, f"game {index} step {game.step}"
        checked += 1


def _play_both_to_end(game: Game, rebuilt: Game, players: list[Any], first: Any) -> None:
    before = len(game.events)
    answers = [first]
    game.answer(first)
    while game.decision is not None:
        d = game.decision
        answers.append(players[d.player](game.view(d.player), d))
        game.answer(answers[-1])
    for a in answers:
        rebuilt.answer(a)
    assert rebuilt.decision is None and rebuilt.results == game.results
    assert rebuilt.events == game.events[before:]


@pytest.mark.parametrize("index", range(12))
def test_every_decision_of_a_game_resumes_exactly(index: int) -> None:
    assert check_game(index, to_end_every=97) > 20


@pytest.mark.slow
def test_every_decision_of_a_thousand_games_resumes_exactly() -> None:
    total = sum(check_game(index, to_end_every=211) for index in range(1000))
    print(f"positions checked: {total}")
    assert total > 300_000


def test_the_reported_mid_p4_case_resumes_at_the_action_menu() -> None:
    """The issue's reproduction: four greedy bots, seed 0, month 1 P4, a seat asked for an
    action after its concert must be asked again for an action, without "concert" (P4.2)."""
    greedy = make_strategy("greedy")
    game = Game(4, seed=0)
    found = 0
    while game.decision is not None and game.month == 1:
        d = game.decision
        if d.kind == "action" and game.players[d.player].concert is not None:
            rebuilt = Game.from_position(json.loads(json.dumps(game.position())))
            assert rebuilt.decision.kind == "action"
            assert "concert" not in rebuilt.decision.options
            assert rebuilt.decision.options == d.options
            found += 1
        game.answer(greedy(game.view(d.player), d))
    assert found


@pytest.mark.parametrize("field, value, words", [
    ("seats", [], "all 4 seats"),
    ("rngs", [], "generator states"),
    ("phase", "P9", "phase must be one of"),
    ("where", {"decision": None, "handler": None, "stack": [{"task": "os.system", "args": []}]},
     "unknown continuation"),
    ("score_deck", ["S01", "S01"], "exactly one place"),
])
def test_a_broken_exact_position_is_refused_naming_the_field(field: str, value: Any,
                                                            words: str) -> None:
    game = Game(4, seed=3)
    data = json.loads(json.dumps(game.position()))
    data[field] = value
    with pytest.raises(PositionError, match=words):
        Game.from_position(data)


def test_a_card_moved_to_a_second_place_is_named() -> None:
    game = Game(4, seed=5)
    data = json.loads(json.dumps(game.position()))
    card = data["seats"][0]["hand"][0]
    data["seats"][1]["hand"].append(card)
    with pytest.raises(PositionError, match=card):
        Game.from_position(data)


def test_a_finished_game_round_trips_with_its_results() -> None:
    game = Game(3, seed=2).play([make_strategy("greedy")] * 3)
    rebuilt = Game.from_position(json.loads(json.dumps(game.position())))
    assert rebuilt.finished and rebuilt.results == game.results


def test_every_field_of_the_state_is_in_the_position() -> None:
    """A field added to the state but not to the position fails here (issue 22 item 1)."""
    from musici.engine.game import GAME_SLOTS
    from musici.engine.position import MONTH_FLAGS, SEAT_FIELDS
    from musici.state import PLAYER_SLOTS

    assert set(PLAYER_SLOTS) == {"seat", "concert", *SEAT_FIELDS, *MONTH_FLAGS}
    game = Game(4, seed=1)
    data = game.position()
    # Game attributes and where the position keeps them (history is not state).
    kept_as = {"n": "players", "seed": "seed", "rules": "rules", "month": "month",
               "phase": "phase", "round": "round", "start_player": "start_player",
               "players": "seats", "score_deck": "score_deck", "score_market": "score_market",
               "orchestra_deck": "orchestra_deck", "orchestra_market": "orchestra_market",
               "discovery_decks": "discovery_decks", "special_deck": "special_deck",
               "special_slot": "special_slot", "thief_marks": "thief_marks",
               "out_of_game": "out_of_game", "venues": "venues", "media": "media",
               "chapel_free": "chapel_free", "_media_bids": "media_bids", "_rngs": "rngs",
               "_rng_states": "rngs", "results": "results", "decision": "where",
               "_pending": "where", "_stack": "where", "protocol": "protocol",
               "plies": "plies"}
    history = {"events", "answers", "monthly", "arranged", "cards", "load_note"}
    transient = {"_asking"}  # set only while a strategy is being asked
    # Game's slots are every attribute a game can have (pure Python refuses any other, the
    # compiled build has no place for one), and a new game sets all of them.
    assert set(GAME_SLOTS) == set(kept_as) | history | transient
    for name in GAME_SLOTS:
        getattr(game, name)  # AttributeError if __init__ left one unset
    assert set(kept_as.values()) <= set(data)


def test_a_clone_copies_every_declared_container() -> None:
    """Game.clone and PlayerState.copy are made from the declaration (engine/state.py):
    every list and dict of the state is the clone's own."""
    from musici.engine.game import GAME_SLOTS
    from musici.engine.state import SEAT_STATE, TABLE_STATE

    game = Game(4, seed=2)
    twin = game.clone()
    for name in GAME_SLOTS:  # a native Game's slot left unset by clone: AttributeError
        assert name in ("_rngs", "players") or getattr(twin, name) == getattr(game, name), name
    containers = {"cards", "slots", "decks", "markers", "marks", "venues"}
    for f in TABLE_STATE:
        if f.kind in containers:
            assert getattr(twin, f.name) is not getattr(game, f.name), f.name
            assert getattr(twin, f.name) == getattr(game, f.name), f.name
    for p, q in zip(game.players, twin.players, strict=True):
        for f in SEAT_STATE:
            assert getattr(q, f.name) == getattr(p, f.name), f.name
            if f.kind in containers:
                assert getattr(q, f.name) is not getattr(p, f.name), f.name
