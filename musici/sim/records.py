"""Play one game of a batch and keep what the frames need, as small named rows.

This runs in worker processes: it returns small, picklable records, and pandas is not
imported here (DESIGN principle 7: frames are built once, after the games).
"""

from __future__ import annotations

import json
import time
import traceback
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple, cast

from musici import events as ev
from musici.cards import CardSet
from musici.engine import Game
from musici.rules import RuleSet
from musici.sim.limits import (
    NO_LIMITS,
    GameWindow,
    LimitExceeded,
    Limits,
    TimedStrategy,
    in_worker,
)
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
    turn: int  # position in month 1's turn order (MONTH.2): 0 = the start player (SETUP.5)
    decisions: int  # decisions put to this seat's strategy


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
    style: str  # the judged style (P4.CONCERT.3 RULING-STYLE): authentic or modern


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


class AwardRow(NamedTuple):
    seat: int
    award: str  # the rule id the award event cites (END.1-END.4)
    fame: float  # this seat's share (END.6)


class CardRow(NamedTuple):
    card: str
    kind: str  # score, discovery or orchestra
    offered: int  # times revealed face up into a market
    drawn_by: int  # -1: none
    bought_by: int  # the first taker; -1: none
    played_by: int  # the first seat that played it; -1: none
    discarded: bool  # an orchestra sent away (P5.7)
    held_by: int  # in a hand or employed at the end; -1: none
    plays: int
    buys: int


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
    awards: list[AwardRow] = field(default_factory=list)
    cards: list[CardRow] = field(default_factory=list)
    events: list[EventRow] | None = None


def _memory_error(exc: BaseException) -> bool:
    while exc is not None:
        if isinstance(exc, MemoryError):
            return True
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return False


class _Counted:
    """A seat's strategy that counts the decisions put to it (``counts[seat]``)."""

    __slots__ = ("counts", "seat", "strategy")

    def __init__(self, strategy: Any, counts: list[int], seat: int) -> None:
        self.strategy, self.counts, self.seat = strategy, counts, seat

    def __call__(self, view: Any, decision: Any) -> Any:
        self.counts[self.seat] += 1
        return self.strategy(view, decision)


def play_task(task: GameTask, limits: Limits = NO_LIMITS) -> GameRecord:
    """Play ``task``'s game; a crash or a broken limit is recorded (with its seed), not raised."""
    labels = task.labels or tuple(strategy_label(s) for s in task.lineup)
    record = GameRecord(task.index, task.seed, task.arm, labels)
    # The game's time limit holds for the whole game, not only while a bot is asked: code
    # that runs after a bot returned (an answer's __repr__, say) is stopped too.
    deadline = time.monotonic() + limits.game_seconds if limits.game_seconds is not None else None
    try:
        with GameWindow(deadline, task.seed):
            strategies = [make_strategy(s) for s in task.lineup]
            if limits.decision_seconds is not None or limits.game_seconds is not None:
                strategies = [TimedStrategy(s, limits.decision_seconds, deadline) for s in strategies]
            asked = [0] * len(strategies)
            strategies = [_Counted(s, asked, seat) for seat, s in enumerate(strategies)]
            game = Game(players=len(strategies), seed=task.seed, rules=task.rules, cards=task.cards)
            game.play(strategies)
    except KeyboardInterrupt as exc:
        if not in_worker():  # here it may be the user's Ctrl-C: it stops the batch
            raise
        # In a worker, which ignores Ctrl-C (the driver stops the batch), a bot raised it.
        tail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        record.error = f"game {task.index} (seed {task.seed}): a bot raised {tail}"
        return record
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
    _collect(game, record, with_events=task.events, decisions=asked)
    return record


class _CardLog:
    """What became of every score, discovery and orchestra card, read off the events.

    It follows the two open markets (SETUP.2/SETUP.3, P4.BUY.1, P4.HIRE.1, SPECIAL.S4/S7 and
    P5.7) to count reveals, and who drew, took, played and holds each card. One list per card,
    in order of first appearance: [offered, drawn_by, bought_by, played_by, discarded,
    held_by, plays, buys].
    """

    __slots__ = ("cards", "orchestra_market", "orchestras", "score_market")

    def __init__(self, orchestras: Any) -> None:
        self.orchestras = orchestras  # the card set's orchestra ids (virtuosos are specials)
        self.cards: dict[str, list[Any]] = {}
        self.score_market: list[str | None] = []
        self.orchestra_market: list[str | None] = []

    def _card(self, card: str) -> list[Any]:
        row = self.cards.get(card)
        if row is None:
            row = self.cards[card] = [0, -1, -1, -1, False, -1, 0, 0]
        return row

    def _offer(self, card: str | None) -> None:
        if card is not None:
            self._card(card)[0] += 1

    def _reveal(self, market: list[str | None], after: list[str | None]) -> None:
        """``market`` becomes ``after``; the cards new to it were revealed from the deck."""
        before = set(market)
        for card in after:
            if card not in before:
                self._offer(card)
        market[:] = after

    def _refill(self, market: list[str | None], card: str, refill: str | None) -> None:
        """``card`` left ``market``; its slot took ``refill`` from the deck (or stays empty)."""
        if card in market:
            market[market.index(card)] = refill
        self._offer(refill)

    def _take(self, card: str, seat: int) -> None:
        row = self._card(card)
        if row[2] < 0:
            row[2] = seat
        row[7] += 1
        row[5] = seat

    def _draw(self, card: str, seat: int) -> None:
        row = self._card(card)
        row[1] = row[5] = seat

    def _play(self, card: str, seat: int) -> None:
        row = self._card(card)
        if row[3] < 0:
            row[3] = seat
        row[6] += 1

    def event(self, e: ev.Event, seat: Any) -> None:
        if isinstance(e, ev.Setup):  # SETUP.2, SETUP.3: the first four of each market
            self._reveal(self.score_market, list(e.scores))
            self._reveal(self.orchestra_market, list(e.orchestras))
        elif isinstance(e, ev.Deal):  # SETUP.2
            for card in e.cards:
                self._draw(card, seat)
        elif isinstance(e, ev.Drew):  # P4.DISCOVER.1, SPECIAL.S7
            self._draw(e.card, seat)
        elif isinstance(e, ev.Buy):  # P4.BUY.1, P4.BUY.3
            self._take(e.card, seat)
            self._refill(self.score_market, e.card, e.refill)
        elif isinstance(e, ev.CardPassed):  # P4.BUY.2: sold from the seller's hand
            self._take(e.card, e.buyer)
        elif isinstance(e, ev.Hire):  # P4.HIRE.1
            self._take(e.orchestra, seat)
            self._refill(self.orchestra_market, e.orchestra, e.refill)
        elif isinstance(e, ev.Poach):  # P4.HIRE.2
            self._take(e.orchestra, seat)
        elif isinstance(e, ev.Concert):  # P4.CONCERT.1: the card leaves the hand for good
            card = e.card
            self._play(card, seat)
            self.cards[card][5] = -1
            for orch in e.orchestras:
                if orch in self.orchestras:
                    self._play(orch, seat)
        elif isinstance(e, ev.OrchestraLeaves):  # P5.7: under the deck; an empty slot takes it back
            row = self._card(e.orchestra)
            row[4], row[5] = True, -1
            market = self.orchestra_market
            if None in market:  # a slot is empty only while the deck is (effects.refill)
                market[market.index(None)] = e.orchestra
                row[0] += 1
        elif isinstance(e, ev.CollectorPlayed):  # SPECIAL.S7: free face-up cards, a refill
            for card in e.face_up:
                self._take(card, seat)
            self._reveal(self.score_market, list(e.market))
        elif isinstance(e, ev.EducatorPlayed):  # SPECIAL.S4: free orchestras, then a refill
            for orch in e.orchestras:
                self._take(orch, seat)
            self._reveal(self.orchestra_market, list(e.market))

    def rows(self, music: Any) -> list[CardRow]:
        return [CardRow(card, "orchestra" if card in self.orchestras else music[card].kind,
                        *row) for card, row in self.cards.items()]


_CARD_EVENTS = frozenset(("setup", "deal", "drew", "buy", "card_passed", "hire", "poach",
                          "concert", "orchestra_leaves", "effect"))


def _collect(game: Game, record: GameRecord, *, with_events: bool,
             decisions: list[int] | None = None) -> None:
    """Fill ``record`` from the finished ``game``'s events and results; ``decisions`` counts
    the decisions put to each seat (not in the events; None: zeros)."""
    res = game.results
    assert res is not None
    n = game.n
    award_fame = [0.0] * n
    penalty = [0] * n
    concerts = [0] * n
    start = 0
    venue_cost: dict[tuple[int, int], list[int]] = {}  # (month, seat) -> [money, fame]
    log = _CardLog(game.cards.orchestras)
    for e in game.events:
        kind = e.kind
        seat = cast(int, e.player)  # the kinds read below are all a seat's own events
        if kind in _CARD_EVENTS:
            log.event(e, seat)
        if isinstance(e, ev.Concert):
            restore = e.restoration
            record.concerts.append(ConcertRow(
                e.month, seat, e.card, e.kind_, e.venue or "", e.rating,  # P3: always a venue
                e.card_fame, restore.bonus if restore else 0, e.fame, e.income, e.style))
            concerts[seat] += 1
        elif isinstance(e, ev.Venue):
            record.venues.append(VenueRow(e.month, seat, e.area, 0, 0))
        elif isinstance(e, ev.Pay | ev.Fame) and e.venue is not None:
            cost = venue_cost.setdefault((e.month, seat), [0, 0])
            if isinstance(e, ev.Pay):
                cost[0] += e.amount
            else:
                cost[1] -= e.delta
        elif isinstance(e, ev.SpecialBought):
            record.specials.append(SpecialRow(e.month, seat, e.card, e.price))
        elif isinstance(e, ev.MarkerPenalty):
            penalty[seat] = e.markers
        elif isinstance(e, ev.Award):  # END.1-4: each winner's share (END.6), as the event states it
            share = float(Fraction(e.share))
            record.awards.extend(AwardRow(s, e.rule, share) for s in e.winners)
        elif isinstance(e, ev.Setup):  # SETUP.5: month 1's start player
            start = e.start_player
    for award in res["awards"]:
        for s in award["winners"]:
            award_fame[s] += float(award["share"])
    winners = res["winners"]
    share = 1.0 / len(winners)
    asked = decisions if decisions is not None else [0] * n
    for s, p in enumerate(game.players):
        record.players.append(PlayerRow(
            s, float(res["fame"][s]), res["money"][s], res["ranks"][s],
            share if s in winners else 0.0, award_fame[s], penalty[s], concerts[s],
            len(p.played), p.specials_bought, (s - start) % n, asked[s]))
    for row in game.monthly:
        for s in range(n):
            record.months.append(MonthRow(row["month"], s, row["fame"][s], row["money"][s]))
    record.venues = [v._replace(cost_money=paid[0], cost_fame=paid[1]) if (
        paid := venue_cost.get((v.month, v.seat))) else v for v in record.venues]
    record.cards = log.rows(game.cards.music)
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


__all__ = ["AwardRow", "CardRow", "ConcertRow", "EventRow", "GameRecord", "GameTask", "MonthRow",
           "PlayerRow", "SpecialRow", "VenueRow", "play_chunk", "play_task"]
