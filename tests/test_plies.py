"""Every ply counted (issue 23 item 1): ``game.plies`` is ``game.step`` (the decisions put to
strategies) plus the forced ones, a choice with one legal answer applied without asking
(``musici.engine.context.ask``). It is state: a clone, a position and a save keep it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from musici import Game, RuleSet
from musici.engine import p1_auction, p2_media, p3_venues, p4_actions, p4_specials, p5_settlement
from musici.engine.position import PositionError
from musici.strategies import make_strategy, random_strategy

PHASE_MODULES = (p1_auction, p2_media, p3_venues, p4_actions, p4_specials, p5_settlement)
OTHER_RULES = RuleSet.from_options({"RULING-NEGOTIATION": "blind", "RULING-MONTHS": 6,
                                    "RULING-UNPAID-SURCHARGE": "marker"})


@pytest.fixture
def forced_seen(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts, independently of the engine, every decision posed with one legal option
    (each phase module's ``ask`` wrapped)."""
    seen = [0]
    for module in PHASE_MODULES:
        original: Callable[..., None] = module.ask

        def counting(g: Any, decision: Any, then: Any, *args: Any,
                     _original: Callable[..., None] = original) -> None:
            if decision.space == "choice" and len(decision.options) == 1:
                seen[0] += 1
            _original(g, decision, then, *args)

        monkeypatch.setattr(module, "ask", counting)
    yield seen


# The count wraps each phase module's `ask`: compiled modules call it natively, past the
# wrapper, so on a compiled build it runs on the same sources as Python (conftest).
@pytest.mark.pure_python
@pytest.mark.parametrize("players, rules, bots", [
    (4, None, ("random",) * 4),
    (3, None, ("greedy", "random", "impresario")),
    (4, OTHER_RULES, ("merchant", "random", "collector", "random")),
])
def test_plies_are_the_decisions_asked_plus_the_forced_ones(
        forced_seen: list[int], players: int, rules: RuleSet | None, bots: tuple[str, ...]) -> None:
    for seed in range(4):
        forced_seen[0] = 0
        game = Game(players, seed=seed, rules=rules).play([make_strategy(b) for b in bots])
        assert game.finished
        assert game.plies == game.step + forced_seen[0], (seed, bots)
        assert forced_seen[0] > 0  # a game of I Musici always has forced plies


def test_a_random_game_has_about_fifty_forced_plies() -> None:
    forced = [g.plies - g.step for g in
              (Game(4, seed=s).play([random_strategy] * 4) for s in range(10))]
    assert 30 < sum(forced) / len(forced) < 90, forced


def test_a_clone_keeps_the_count_and_plays_on_to_the_same_count() -> None:
    game = Game(4, seed=5).play([random_strategy] * 4, max_steps=150)
    assert game.plies >= game.step == 150
    twin = game.clone(keep_log=False)
    assert twin.plies == game.plies and twin.step == 0  # step is history, plies is state
    game.play([random_strategy] * 4)
    twin.play([random_strategy] * 4)
    assert twin.plies == game.plies


def test_an_exact_position_keeps_the_count() -> None:
    game = Game(3, seed=8).play([random_strategy] * 3, max_steps=90)
    data = json.loads(json.dumps(game.position()))
    assert data["plies"] == game.plies > 90
    rebuilt = Game.from_position(data)
    assert rebuilt.plies == game.plies
    game.play([random_strategy] * 3)
    rebuilt.play([random_strategy] * 3)
    assert rebuilt.plies == game.plies and rebuilt.results == game.results


def test_an_arranged_position_counts_from_its_plies_or_from_zero() -> None:
    at = {"seed": 3, "month": 5, "at": {"action": 0, "round": 2}}
    assert Game.from_position({**at, "plies": 400}).plies == 400
    assert Game.from_position(at).plies == 0  # a decision is pending: nothing forced yet
    # positions written before the count was kept have none: counted from 0
    game = Game(4, seed=1).play([random_strategy] * 4, max_steps=40)
    old = game.position()
    del old["plies"]
    assert Game.from_position(old).plies == 0


@pytest.mark.parametrize("bad", [-1, 2.0, "3", True, None])
def test_a_bad_plies_count_is_refused_by_name(bad: object) -> None:
    game = Game(4, seed=1)
    with pytest.raises(PositionError, match="plies"):
        Game.from_position({**game.position(), "plies": bad})
    with pytest.raises(PositionError, match="plies"):
        Game.from_position({"seed": 1, "at": "P2", "plies": bad})


def test_a_save_keeps_the_count_and_an_older_save_without_it_loads() -> None:
    from musici import persistence

    game = Game(4, seed=2).play([random_strategy] * 4)
    loaded = persistence.loads(game.to_json())
    assert loaded.plies == game.plies and loaded.step == game.step
    # A format-3 save written before positions kept the count (its digest made without it).
    data = json.loads(game.to_json())
    del data["position"]["plies"]
    data["check"]["digest"] = persistence._digest(data, loaded)
    assert persistence.loads(json.dumps(data)).plies == game.plies
