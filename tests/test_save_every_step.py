"""Save and load at every decision (in the spirit of OpenSpiel's random simulation test).

At every decision of a game the game is saved to JSON (``game.to_json()``), loaded back
(``persistence.loads``), and the loaded game must equal the original in everything: the
events as dicts, the answers, every player's state, the pending decision (with its info),
the markets, the decks, the table, every generator's state, and even the engine's task
stack. Then play goes on *from the loaded game* (the original is dropped), with the same
strategies; the final result must equal that of the same game played without interruption.
At some steps the loaded game is also forked and played to the end on its own.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from game_cases import GameCase, game_cases, rule_sets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from musici import Game
from musici.cards import standard_cardset_data
from musici.persistence import dumps, load, loads, save
from musici.state import PLAYER_SLOTS


def snapshot(game: Game) -> dict[str, Any]:
    """Everything a game is, as comparable plain values."""
    decision = game.decision
    return {
        "events": [e.to_dict() for e in game.events],
        "answers": list(game.answers),
        "players": [{name: getattr(p, name) for name in PLAYER_SLOTS}
                    for p in game.players],
        "decision": decision,
        "decision_info": None if decision is None else dict(decision.info),
        "markets": (game.score_market, game.orchestra_market, game.special_slot,
                    game.thief_marks),
        "decks": (game.score_deck, game.orchestra_deck, game.discovery_decks, game.special_deck,
                  game.out_of_game),
        "table": (game.n, game.seed, game.rules, game.cards.fingerprint, game.month, game.phase,
                  game.round, game.start_player, game.venues, game.media, game.chapel_free,
                  game.media_bids, game.monthly, game.results),
        "rngs": [game._random(i).getstate() for i in range(game.n + 1)],
        "machine": (game._stack, game._pending),
    }


def assert_same(loaded: Game, game: Game, where: str) -> None:
    a, b = snapshot(loaded), snapshot(game)
    for key in a:
        assert a[key] == b[key], f"{where}: loaded game differs in {key}"


def final(game: Game) -> dict[str, Any]:
    assert game.finished
    return {"events": [e.to_dict() for e in game.events], "answers": list(game.answers),
            "results": game.results, "standings": game.standings()}


def play_saving_every_step(case: GameCase, *, fork_every: int | None = None,
                           fork_steps: int = 0, file_every: int = 0, tmp_path=None) -> int:
    """Returns the number of save/load round trips checked."""
    reference = case.game().play(case.strategies())
    expected = final(reference)
    game = case.game()
    strategies = case.strategies()
    picker = random.Random(case.seed)
    forks = set(picker.sample(range(reference.step), min(fork_steps, reference.step)))
    trips = 0
    while True:
        where = f"{case!r} at step {game.step}"
        text = game.to_json()
        assert text == dumps(game)
        loaded = loads(text, cards=game.cards)
        assert_same(loaded, game, where)
        assert loaded.to_json() == text, f"{where}: a second save differs"
        if file_every and game.step % file_every == 0:
            path = tmp_path / "game.json"
            save(loaded, path)
            from_file = load(path, cards=game.cards)
            assert_same(from_file, game, where + " (file)")
        trips += 1
        if (fork_every and game.step % fork_every == 0) or game.step in forks:
            fork = loads(text, cards=game.cards)
            assert final(fork.play(case.strategies())) == expected, f"{where}: fork ends differently"
        game = loaded  # go on from the loaded game only
        if game.decision is None:
            break
        game.ask(strategies[game.decision.player])
    assert final(game) == expected, f"{case!r}: the saved-and-loaded game ended differently"
    return trips


def _variant_cards() -> dict[str, Any]:
    data = standard_cardset_data()
    data["name"] = "save-test variant"
    for i, card in enumerate(data["scores"]):
        card["id"] = f"score-{29 - i:02d}"
    data["scores"][0]["fame"] = [12, 4, -6]
    data["discoveries"].reverse()
    return data


CASES = [
    GameCase(4, 1, {}, None, ("random", "random", "random", "random")),
    GameCase(3, 2, {"RULING-MEDIA-ZERO": "zero-can-win", "RULING-NEGOTIATION": "blind",
                    "RULING-START-PLAYER": "seat0"}, None, ("greedy", "impresario", "random")),
    GameCase(4, 3, {"RULING-FAME-FLOOR": "none", "RULING-POACH-MARKERS": "stay",
                    "RULING-MONTHS": 6, "RULING-AUCTION-LAST": "free"}, None,
             ("merchant", "collector", "random", "greedy")),
    GameCase(3, 4, {"RULING-MEDIA-STEP": 50, "RULING-UNPAID-SURCHARGE": "forgiven",
                    "RULING-MONTHS": 4, "RULING-STYLE": "best-of-card"}, _variant_cards(),
             ("random", "collector", "random")),
]


@pytest.mark.rules("MONTH.1")
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.players}p-seed{c.seed}")
def test_save_and_load_at_every_decision(case: GameCase, tmp_path) -> None:
    trips = play_saving_every_step(case, fork_steps=4, file_every=25, tmp_path=tmp_path)
    assert trips > 50


@settings(max_examples=6, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=game_cases(rules=rule_sets(months=st.sampled_from((1, 2, 3)))))
def test_save_and_load_at_every_decision_of_drawn_games(case: GameCase) -> None:
    play_saving_every_step(case, fork_steps=2)


# ---------------------------------------------------------------------- slow
@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.players}p-seed{c.seed}")
def test_every_decision_forked_to_the_end(case: GameCase) -> None:
    play_saving_every_step(case, fork_every=1)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=game_cases())
def test_save_and_load_at_every_decision_of_many_drawn_games(case: GameCase) -> None:
    play_saving_every_step(case, fork_steps=5)


def test_the_check_catches_a_lossy_load(monkeypatch) -> None:
    """Not vacuous: a load that loses one seat's generator state is caught."""
    import test_save_every_step as me

    real = me.loads

    def lossy(text: str, cards=None) -> Game:
        game = real(text, cards=cards)
        if game.step == 30:
            game.seat_rng(1).random()
        return game

    monkeypatch.setattr(me, "loads", lossy)
    with pytest.raises(AssertionError, match="rngs"):
        play_saving_every_step(CASES[0])
