"""What a month did to each seat, and the final score sheet: plain data read from the
events and ``game.results``, never re-derived (the rules' arithmetic lives in
:mod:`musici.economy` and :mod:`musici.scoring`; this only adds up what the events say).

Example::

    from musici import Game
    from musici.strategies import make_strategy
    from musici.analysis.summary import month_summary, score_sheet

    game = Game(4, seed=3).play([make_strategy("random")] * 4)
    for row in month_summary(game, 1):
        print(row.seat, row.fame_change, row.money_change, [c.text for c in row.changes])
    sheet = score_sheet(game)        # winners, END awards with their rule ids, final fame
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from musici import economy as E
from musici import events as ev
from musici.events import Event

if TYPE_CHECKING:
    from musici.engine import Game

# Why fame or money changed, by the rule of the event (the words a player uses).
_FAME_WHY = {
    "P4.CONCERT.4": "concert", "P5.2": "commercial tour", "P4.3": "tour, no concert",
    "RULING-UNPAID-VENUE": "unpaid venue", "SPECIAL.P2": "Stradivari cello",
    "SPECIAL.P7": "Journalist",
}
_PAY_WHY = {
    "P1.3": "special-card auction", "P2.2": "media bid", "P4.HIRE.1": "hiring",
    "P4.HIRE.2": "hiring away", "P4.BUY.1": "buying a score", "P4.BUY.2": "buying a card",
    "P4.BUY.3": "buying a score", "P4.DISCOVER.1": "discovery search",
    "P4.APPEASE.1": "appeasing", "P5.3": "salaries", "P5.4": "fame surcharge",
}
_INCOME_WHY = {"P5.1": "concert income", "P4.4": "idle bonus", "SPECIAL.P1": "Guarneri violin"}


@dataclass(frozen=True, slots=True)
class Change:
    """One cause of a seat's fame or money change in a month, summed over its events."""

    text: str
    rule: str
    fame: int = 0
    money: int = 0


@dataclass(frozen=True, slots=True)
class SeatMonth:
    """A seat's month: fame and money before and after, and what changed them."""

    seat: int
    fame_before: int
    fame_after: int
    money_before: int
    money_after: int
    changes: tuple[Change, ...] = ()

    @property
    def fame_change(self) -> int:
        return self.fame_after - self.fame_before

    @property
    def money_change(self) -> int:
        return self.money_after - self.money_before


def _pay_why(d: ev.Pay) -> str:
    rule = d.rule
    if rule in ("P5.2", "P4.3"):  # a venue (hall rent or tour), or P4.3's half salaries
        reason = d.reason
        if reason.startswith("salaries"):
            return "salaries"
        venue = d.venue or reason
        return ("rent" if venue in E.HALLS else "tour") + (", no concert" if rule == "P4.3"
                                                          else "")
    return _PAY_WHY.get(rule, d.reason)


def _month_bounds(game: Game, month: int) -> tuple[int, int]:
    """(first, last) index of ``month``'s events: from its "month" event to its
    "month_end" event; raises ValueError if the month has not ended."""
    start = next((i for i, e in enumerate(game.events)
                  if isinstance(e, ev.Month) and e.month_ == month), None)
    end = next((i for i, e in enumerate(game.events)
                if e.kind == "month_end" and e.month == month), None)
    if start is None or end is None:
        raise ValueError(f"month {month} has not ended yet (the game is at month "
                         f"{game.month} {game.phase}); a summary needs the whole month")
    return start, end


def _before(game: Game, start: int) -> tuple[list[int], list[int]]:
    """Fame and money of every seat just before ``game.events[start]``: the previous
    month's end, or the set-up (fame 0, the starting money)."""
    for e in reversed(game.events[:start]):
        if isinstance(e, ev.MonthEnd):
            return list(e.fame), list(e.money)
        if isinstance(e, ev.Setup):
            return [0] * game.n, [e.money] * game.n
    raise ValueError("the game has no set-up event")


def month_summary(game: Game, month: int) -> list[SeatMonth]:
    """One row per seat for a finished ``month``: fame and money before and after (the
    month-end records) and the causes, in order of first appearance, summed from the
    events (a fame loss stopped at 0 counts what it actually cost, P5.8)."""
    start, end = _month_bounds(game, month)
    fame, money = _before(game, start)
    before = (list(fame), list(money))
    causes: list[dict[tuple[str, str], list[int]]] = [{} for _ in range(game.n)]

    def add(seat: int, why: str, rule: str, dfame: int, dmoney: int) -> None:
        entry = causes[seat].setdefault((why, rule), [0, 0])
        entry[0] += dfame
        entry[1] += dmoney

    for e in game.events[start:end]:
        seat = e.player
        if seat is None:
            continue
        if isinstance(e, ev.Fame):
            add(seat, _FAME_WHY.get(e.rule, e.reason), e.rule, e.fame - fame[seat], 0)
            fame[seat] = e.fame
        elif isinstance(e, ev.Pay):
            add(seat, _pay_why(e), e.rule, 0, -e.amount)
            if e.to is not None:  # a card sold or an orchestra hired away
                add(e.to, f"card sold to seat {seat}" if e.rule == "P4.BUY.2"
                    else f"orchestra hired away by seat {seat}", e.rule, 0, e.amount)
        elif isinstance(e, ev.Income):
            add(seat, _INCOME_WHY.get(e.rule, e.reason), e.rule, 0, e.amount)
    after = game.events[end]
    assert isinstance(after, ev.MonthEnd)
    return [SeatMonth(s, before[0][s], after.fame[s], before[1][s], after.money[s],
                      tuple(Change(why, rule, f, m) for (why, rule), (f, m)
                            in causes[s].items() if f or m))
            for s in range(game.n)]


def ended_months(events: Sequence[Event]) -> list[int]:
    """The months whose end is among ``events``."""
    return [e.month for e in events if e.kind == "month_end"]


@dataclass(frozen=True, slots=True)
class Award:
    """One END award: its name, rule id (END.x), counts per seat, who took it, the share."""

    name: str
    rule: str
    counts: tuple[int, ...]
    winners: tuple[int, ...]
    share: Fraction


_AWARD_WORDS = {"END.1": "most {} cards played", "END.2": "most cards by {} composers",
                "END.3": "most {} discovery cards played"}
_AWARD_NAMES = {"orchestras": "most orchestras at the end",
                "specials": "most special cards bought"}


def award_label(award: Award) -> str:
    """An END award in words, e.g. "most baroque cards played" (which cards count: END.7)."""
    if award.name in _AWARD_NAMES:
        return _AWARD_NAMES[award.name]
    words = _AWARD_WORDS.get(award.rule)
    return words.format(award.name.replace("-", "–")) if words else award.name


@dataclass(frozen=True, slots=True)
class SheetRow:
    """A seat's line of the score sheet: fame before the END, award fame won, markers lost
    (END.5), final fame, money and rank, all as ``game.results`` and the events have them."""

    seat: int
    rank: int
    fame_before: int
    awards: Fraction
    markers: int
    fame: Fraction
    money: int
    winner: bool


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The final score sheet of a finished game (END, END.WIN)."""

    winners: tuple[int, ...]
    tie_break: str | None
    awards: tuple[Award, ...]
    rows: tuple[SheetRow, ...] = field(default=())  # by rank, then seat


def score_sheet(game: Game) -> ScoreSheet:
    """The score sheet of a finished game, read from ``game.results`` (awards, final fame,
    money, ranks, winners) and the END events (marker penalties); raises ValueError for a
    game that is not finished."""
    res = game.results
    if res is None:
        raise ValueError(f"the game is not finished (month {game.month} {game.phase}); "
                         "a score sheet needs the final scoring")
    awards = tuple(Award(a["award"], a["rule"], tuple(a["counts"]), tuple(a["winners"]),
                         Fraction(a["share"])) for a in res["awards"])
    won = [sum((a.share for a in awards if s in a.winners), Fraction(0)) for s in range(game.n)]
    markers = [0] * game.n
    for e in game.events:
        if isinstance(e, ev.MarkerPenalty) and e.player is not None:
            markers[e.player] += e.markers
    before = next((list(e.fame) for e in reversed(game.events)
                   if isinstance(e, ev.MonthEnd)), [0] * game.n)
    rows = sorted((SheetRow(s, res["ranks"][s], before[s], won[s], markers[s],
                            Fraction(res["fame"][s]), res["money"][s], s in res["winners"])
                   for s in range(game.n)), key=lambda r: (r.rank, r.seat))
    return ScoreSheet(tuple(res["winners"]), res.get("tie_break"), awards, tuple(rows))


def standings_rows(game: Game, names: Sequence[str] | None = None) -> list[dict[str, object]]:
    """The final standings for a table a person reads (``pd.DataFrame(standings_rows(g))``):
    rank, seat, fame as a mixed number ("34½", never 69/2), money, "winner" or "" (never
    True/False). ``game.standings()`` keeps the exact Fractions for computing."""
    from musici.analysis.hints import fame_text  # the one home of fame in words

    return [{"rank": r.rank, "seat": names[r.seat] if names else r.seat,
             "fame": fame_text(r.fame), "money": r.money, "winner": "winner" if r.winner else ""}
            for r in score_sheet(game).rows]


__all__ = ["Award", "Change", "ScoreSheet", "SeatMonth", "SheetRow", "award_label", "ended_months",
           "month_summary", "score_sheet", "standings_rows"]
