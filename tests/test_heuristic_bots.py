"""The three heuristic bots: legal everywhere, strong against random play, and different.

The strength and plan checks share one batch of games per bot (100 games against three
random bots, the bot's seat rotated, fixed seeds), played once per test session.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from musici import Game, RuleSet
from musici.strategies.collector import collector_strategy
from musici.strategies.impresario import impresario_strategy
from musici.strategies.merchant import merchant_strategy
from musici.strategies.random_strategy import random_strategy

BOTS: dict[str, Callable[[Any, Any], Any]] = {
    "impresario": impresario_strategy,
    "merchant": merchant_strategy,
    "collector": collector_strategy,
}
STRENGTH_GAMES = 100
SEED0 = 31_000

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"RULING-STYLE": "best-of-card", "RULING-RESTORE-GOOD": "lineage-good-only"},
    {"RULING-MEDIA-ZERO": "zero-can-win", "RULING-MEDIA-STEP": 50,
     "RULING-AUCTION-LAST": "free"},
    {"RULING-COMMERCIAL-FAME": "not-required", "RULING-HALF-FAME": "down",
     "RULING-FAME-FLOOR": "none", "RULING-ROUNDING": "away-from-zero"},
    {"RULING-NEGOTIATION": "blind", "RULING-POACH-MARKERS": "stay",
     "RULING-LINEAGE": "direct", "RULING-END-CARDS": "score-only"},
    {"RULING-UNPAID-VENUE": "forgiven", "RULING-UNPAID-SURCHARGE": "forgiven",
     "RULING-START-PLAYER": "seat0", "RULING-MONTHS": 6},
]


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_bots_answer_legally_under_rule_options(options: dict[str, Any], players: int) -> None:
    rules = RuleSet.from_options(options)
    bots = list(BOTS.values())
    for seed in range(3):
        # Each game seats the bots against each other and a random player, rotated, so
        # every bot meets decisions it would not provoke itself (sales, poaching, rumours).
        lineup = [*bots, random_strategy][:players]
        lineup = lineup[seed % players:] + lineup[:seed % players]
        # Game.ask raises StrategyError on an illegal answer or an exception.
        game = Game(players=players, seed=500 + seed, rules=rules).play(lineup)
        assert game.finished
        assert len(game.monthly) == rules.months


def test_bots_answer_legally_against_random_players_in_three_player_games() -> None:
    for i, bot in enumerate(BOTS.values()):
        for seed in range(3):
            lineup = [random_strategy] * 3
            lineup[seed % 3] = bot
            assert Game(players=3, seed=900 + 10 * i + seed).play(lineup).finished


@dataclass
class Batch:
    """What one bot did over the strength games."""

    wins: float = 0.0
    fame: float = 0.0
    venues: Counter[str] = field(default_factory=Counter)  # concerts by venue
    early_big: int = 0  # concerts in dome/opera/academic tours before the last 3 months
    discoveries: int = 0
    restore_bonus: int = 0
    media: int = 0


@pytest.fixture(scope="module")
def batches() -> dict[str, Batch]:
    out: dict[str, Batch] = {}
    for name, bot in BOTS.items():
        batch = Batch()
        for i in range(STRENGTH_GAMES):
            seat = i % 4
            lineup: list[Callable[[Any, Any], Any]] = [random_strategy] * 4
            lineup[seat] = bot
            game = Game(players=4, seed=SEED0 + i).play(lineup)
            winners = game.results["winners"]
            batch.wins += winners.count(seat) / len(winners)
            batch.fame += float(game.results["fame"][seat])
            months = game.rules.months
            for e in game.events:
                if e.player != seat:
                    continue
                if e.kind == "concert":
                    venue = e.data["venue"]
                    batch.venues[venue] += 1
                    big = venue in ("dome", "opera") or venue.endswith("academic")
                    if big and e.month <= months - 3:
                        batch.early_big += 1
                    if e.data["restoration"]:
                        batch.restore_bonus += e.data["restoration"]["bonus"]
                elif e.kind == "discover":
                    batch.discoveries += 1
                elif e.kind == "media":
                    batch.media += 1
        out[name] = batch
    return out


@pytest.mark.parametrize("name", list(BOTS))
def test_each_bot_beats_three_random_bots(batches: dict[str, Batch], name: str) -> None:
    rate = batches[name].wins / STRENGTH_GAMES
    assert rate >= 0.80, f"{name} won only {rate:.2%} of {STRENGTH_GAMES} games vs random"


def _commercial(b: Batch) -> int:
    return b.venues["large-commercial"] + b.venues["small-commercial"]


def _academic(b: Batch) -> int:
    return b.venues["large-academic"] + b.venues["small-academic"]


def test_merchant_takes_the_most_commercial_tours(batches: dict[str, Batch]) -> None:
    m = _commercial(batches["merchant"])
    assert m > 1.3 * _commercial(batches["impresario"])
    assert m > 1.3 * _commercial(batches["collector"])


def test_impresario_plays_big_and_academic_before_the_last_months(
        batches: dict[str, Batch]) -> None:
    imp = batches["impresario"]
    assert imp.early_big > 1.2 * batches["merchant"].early_big
    assert imp.early_big > batches["collector"].early_big
    assert _academic(imp) > _academic(batches["collector"])
    # Only the impresario bids for the media from the first month on (P2).
    assert imp.media > batches["merchant"].media


def test_collector_discovers_and_restores_the_most(batches: dict[str, Batch]) -> None:
    col = batches["collector"]
    for other in ("impresario", "merchant"):
        assert col.discoveries > 2 * max(1, batches[other].discoveries)
        assert col.restore_bonus > 2 * max(1, batches[other].restore_bonus)
