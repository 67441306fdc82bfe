"""Play one game of a batch and keep what the frames need, as plain tuples.

This runs in worker processes: it returns small, picklable records, and pandas is not
imported here (DESIGN principle 7: frames are built once, after the games).
"""

from __future__ import annotations

import json
import traceback
from dataclasses import dataclass, field
from typing import Any

from musici.cards import CardSet
from musici.engine import Game
from musici.rules import RuleSet
from musici.strategies.registry import StrategySpec, make_strategy, strategy_label


@dataclass(frozen=True)
class GameTask:
    """Everything one game depends on (DESIGN principle 4)."""

    index: int
    seed: int
    lineup: tuple[StrategySpec, ...]  # one spec per seat, already rotated
    arm: str = ""  # which side of a comparison, "" for a plain batch
    rules: RuleSet | None = None
    cards: CardSet | None = None
    events: bool = False
    labels: tuple[str, ...] = ()  # names for the frames, one per seat (default: from the specs)


@dataclass
class GameRecord:
    index: int
    seed: int
    arm: str
    strategies: tuple[str, ...]
    error: str | None = None
    decisions: int = 0
    n_events: int = 0
    winners: tuple[int, ...] = ()
    # (seat, fame, money, rank, win share, award fame, marker penalty, concerts, cards played,
    #  specials bought)
    players: list[tuple[Any, ...]] = field(default_factory=list)
    months: list[tuple[int, int, int, int]] = field(default_factory=list)  # month, seat, fame, money
    # month, seat, card, kind, venue, rating, card fame, bonus, fame, income
    concerts: list[tuple[Any, ...]] = field(default_factory=list)
    # month, seat, area, money paid for it, fame paid for it (P5.2, P4.3, P3.TOUR.3)
    venues: list[tuple[int, int, str, int, int]] = field(default_factory=list)
    specials: list[tuple[int, int, str, int]] = field(default_factory=list)  # month, seat, card, price
    events: list[tuple[Any, ...]] | None = None


def play_task(task: GameTask) -> GameRecord:
    """Play ``task``'s game; a crash is recorded (with its seed) instead of raised."""
    labels = task.labels or tuple(strategy_label(s) for s in task.lineup)
    record = GameRecord(task.index, task.seed, task.arm, labels)
    try:
        strategies = [make_strategy(s) for s in task.lineup]
        game = Game(players=len(strategies), seed=task.seed, rules=task.rules, cards=task.cards)
        game.play(strategies)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # sys.exit() in a bot too: one bad game must not sink the batch
        tail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        record.error = f"game {task.index} (seed {task.seed}): {tail}"
        return record
    _collect(game, record, with_events=task.events)
    return record


def _collect(game: Game, record: GameRecord, *, with_events: bool) -> None:
    res = game.results
    assert res is not None
    n = game.n
    award_fame = [0.0] * n
    penalty = [0] * n
    concerts = [0] * n
    venue_cost: dict[tuple[int, int], list[int]] = {}  # (month, seat) -> [money, fame]
    for e in game.events:
        kind = e.kind
        if kind == "concert":
            d = e.data
            restore = d["restoration"]
            record.concerts.append((
                e.month, e.player, d["card"], d["kind"], d["venue"], d["rating"],
                d["card_fame"], restore["bonus"] if restore else 0, d["fame"], d["income"]))
            concerts[e.player] += 1
        elif kind == "venue":
            record.venues.append((e.month, e.player, e.data["area"], 0, 0))
        elif kind in ("pay", "fame") and "venue" in e.data:
            cost = venue_cost.setdefault((e.month, e.player), [0, 0])
            if kind == "pay":
                cost[0] += e.data["amount"]
            else:
                cost[1] -= e.data["delta"]
        elif kind == "special_bought":
            record.specials.append((e.month, e.player, e.data["card"], e.data["price"]))
        elif kind == "marker_penalty":
            penalty[e.player] = e.data["markers"]
    for award in res["awards"]:
        for s in award["winners"]:
            award_fame[s] += float(award["share"])
    winners = res["winners"]
    share = 1.0 / len(winners)
    for s, p in enumerate(game.players):
        record.players.append((
            s, float(res["fame"][s]), res["money"][s], res["ranks"][s],
            share if s in winners else 0.0, award_fame[s], penalty[s], concerts[s],
            len(p.played), p.specials_bought))
    for row in game.monthly:
        for s in range(n):
            record.months.append((row["month"], s, row["fame"][s], row["money"][s]))
    record.venues = [(m, s, a, *venue_cost.get((m, s), (0, 0))) for m, s, a, _, _ in record.venues]
    record.winners = tuple(winners)
    record.decisions = game.step
    record.n_events = len(game.events)
    if with_events:
        record.events = [
            (i, e.month, e.phase, e.kind, e.rule, e.player, e.private is not None,
             json.dumps(e.data, default=str, separators=(",", ":")))
            for i, e in enumerate(game.events)]


def play_chunk(tasks: list[GameTask]) -> list[GameRecord]:
    """Play several games in one worker call (fewer round trips than one game per call)."""
    return [play_task(t) for t in tasks]


__all__ = ["GameRecord", "GameTask", "play_chunk", "play_task"]
