"""Play one game of a batch and keep what the frames need, as small named rows.

This runs in worker processes: it returns small, picklable records, and pandas is not
imported here (DESIGN principle 7: frames are built once, after the games).
"""

from __future__ import annotations

import json
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from musici.cards import CardSet
from musici.engine import Game
from musici.rules import RuleSet
from musici.sim.limits import NO_LIMITS, LimitExceeded, Limits, TimedStrategy
from musici.sim.seeds import game_seed
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
    entry: tuple[int, ...] = ()  # the line-up position seated in each seat
    # The batch this game belongs to, if any: then ``source.task(index)`` makes it again.
    source: TaskSource | None = field(default=None, compare=False, repr=False)


def seating(n: int, index: int, rotate: bool) -> tuple[int, ...]:
    """Which line-up entry sits in each seat in game ``index`` (rotation by one per game)."""
    shift = index % n if rotate else 0
    return tuple((seat - shift) % n for seat in range(n))


@dataclass(frozen=True)
class TaskSource:
    """A batch's games as a pure function of the game index.

    A back end may then send a run of games as ``(source, start, stop)`` instead of the
    tasks themselves: Dask keeps its recent messages, and a message per chunk holding the
    tasks kept every chunk's tasks alive in the driver.
    """

    lineup: tuple[StrategySpec, ...]  # in entry order
    labels: tuple[str, ...]
    seed: int
    rotate: bool
    rules: RuleSet | None
    cards: CardSet | None  # None: the bundled set, loaded by the worker itself
    events: bool
    arm: str = ""

    def task(self, index: int) -> GameTask:
        entry = seating(len(self.lineup), index, self.rotate)
        return GameTask(index, game_seed(self.seed, index), tuple(self.lineup[e] for e in entry),
                        self.arm, self.rules, self.cards, self.events,
                        tuple(self.labels[e] for e in entry), entry, self)


class PlayerRow(NamedTuple):
    seat: int
    fame: float
    money: int
    rank: int
    win: float  # win share: 1/k for a k-way tie
    award_fame: float
    marker_penalty: int
    concerts: int
    cards_played: int
    specials_bought: int


class MonthRow(NamedTuple):
    month: int
    seat: int
    fame: int
    money: int


class ConcertRow(NamedTuple):
    month: int
    seat: int
    card: str
    kind: str
    venue: str
    rating: Any
    card_fame: int
    bonus: int
    fame: int
    income: int


class VenueRow(NamedTuple):
    month: int
    seat: int
    area: str
    cost_money: int  # P5.2, P4.3
    cost_fame: int  # P3.TOUR.3


class SpecialRow(NamedTuple):
    month: int
    seat: int
    card: str
    price: int


class EventRow(NamedTuple):
    # The events frame's column; as a field name it shadows tuple.index.
    index: int  # type: ignore[assignment]
    month: int
    phase: str
    kind: str
    rule: Any
    player: Any
    private: bool
    data: str  # JSON


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
    players: list[PlayerRow] = field(default_factory=list)
    months: list[MonthRow] = field(default_factory=list)
    concerts: list[ConcertRow] = field(default_factory=list)
    venues: list[VenueRow] = field(default_factory=list)
    specials: list[SpecialRow] = field(default_factory=list)
    events: list[EventRow] | None = None


def _memory_error(exc: BaseException) -> bool:
    while exc is not None:
        if isinstance(exc, MemoryError):
            return True
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return False


def play_task(task: GameTask, limits: Limits = NO_LIMITS) -> GameRecord:
    """Play ``task``'s game; a crash or a broken limit is recorded (with its seed), not raised."""
    labels = task.labels or tuple(strategy_label(s) for s in task.lineup)
    record = GameRecord(task.index, task.seed, task.arm, labels)
    try:
        strategies = [make_strategy(s) for s in task.lineup]
        if limits.decision_seconds is not None or limits.game_seconds is not None:
            deadline = (time.monotonic() + limits.game_seconds
                        if limits.game_seconds is not None else None)
            strategies = [TimedStrategy(s, limits.decision_seconds, deadline) for s in strategies]
        game = Game(players=len(strategies), seed=task.seed, rules=task.rules, cards=task.cards)
        game.play(strategies)
    except KeyboardInterrupt:
        raise
    except LimitExceeded as exc:
        record.error = f"game {task.index} (seed {task.seed}): {limits.describe(exc)}"
        return record
    except BaseException as exc:  # sys.exit() in a bot too: one bad game must not sink the batch
        if limits.memory_mb is not None and _memory_error(exc):
            record.error = f"game {task.index} (seed {task.seed}): {limits.describe(exc)}"
            return record
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
        seat = cast(int, e.player)  # the kinds read below are all a seat's own events
        if kind == "concert":
            d = e.data
            restore = d["restoration"]
            record.concerts.append(ConcertRow(
                e.month, seat, d["card"], d["kind"], d["venue"], d["rating"],
                d["card_fame"], restore["bonus"] if restore else 0, d["fame"], d["income"]))
            concerts[seat] += 1
        elif kind == "venue":
            record.venues.append(VenueRow(e.month, seat, e.data["area"], 0, 0))
        elif kind in ("pay", "fame") and "venue" in e.data:
            cost = venue_cost.setdefault((e.month, seat), [0, 0])
            if kind == "pay":
                cost[0] += e.data["amount"]
            else:
                cost[1] -= e.data["delta"]
        elif kind == "special_bought":
            record.specials.append(SpecialRow(e.month, seat, e.data["card"], e.data["price"]))
        elif kind == "marker_penalty":
            penalty[seat] = e.data["markers"]
    for award in res["awards"]:
        for s in award["winners"]:
            award_fame[s] += float(award["share"])
    winners = res["winners"]
    share = 1.0 / len(winners)
    for s, p in enumerate(game.players):
        record.players.append(PlayerRow(
            s, float(res["fame"][s]), res["money"][s], res["ranks"][s],
            share if s in winners else 0.0, award_fame[s], penalty[s], concerts[s],
            len(p.played), p.specials_bought))
    for row in game.monthly:
        for s in range(n):
            record.months.append(MonthRow(row["month"], s, row["fame"][s], row["money"][s]))
    record.venues = [v._replace(cost_money=paid[0], cost_fame=paid[1]) if (
        paid := venue_cost.get((v.month, v.seat))) else v for v in record.venues]
    record.winners = tuple(winners)
    record.decisions = game.step
    record.n_events = len(game.events)
    if with_events:
        record.events = [
            EventRow(i, e.month, e.phase, e.kind, e.rule, e.player, e.private is not None,
             json.dumps(e.data, default=str, separators=(",", ":")))
            for i, e in enumerate(game.events)]


def play_chunk(tasks: list[GameTask], limits: Limits = NO_LIMITS) -> list[GameRecord]:
    """Play several games in one worker call (fewer round trips than one game per call)."""
    return [play_task(t, limits) for t in tasks]


__all__ = ["ConcertRow", "EventRow", "GameRecord", "GameTask", "MonthRow", "PlayerRow",
           "SpecialRow", "VenueRow", "play_chunk", "play_task"]
