"""The month as a declared table of phases (MONTH.1) and the turn of the month (MONTH.3).

A month pushes its phases in the order of :data:`MONTH`; each phase's ``start`` task
pushes the tasks of that phase. Change the table, and the month changes with it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from musici.engine import end, p1_auction, p2_media, p3_venues, p4_actions, p5_settlement
from musici.engine.context import emit, push, push_all, task
from musici.events import Month, MonthEnd

if TYPE_CHECKING:
    from musici.engine.game import Game


def month_start(g: Game) -> None:
    if g.month > 1:  # MONTH.3: the start-player marker passes clockwise
        g.start_player = (g.start_player + 1) % g.n
    for p in g.players:
        p.critic_now, p.critic_next = p.critic_next, False
        p.banned_now, p.banned_next = p.banned_next, False
    g.phase = "P1"
    emit(g, Month(g.month, g.phase, "MONTH.1", None, g.month, g.start_player))
    push_all(g, *(task(phase.start) for phase in MONTH), task(month_end))


def month_end(g: Game) -> None:
    g.monthly.append(
        {
            "month": g.month,
            "fame": [p.fame for p in g.players],
            "money": [p.money for p in g.players],
        }
    )
    emit(g, MonthEnd(g.month, g.phase, "MONTH.3", None, tuple(p.fame for p in g.players),
                     tuple(p.money for p in g.players)))
    # MONTH.3: location markers and the media token come back.
    g.venues = {}
    g.media = None
    g.chapel_free = None
    for p in g.players:
        p.venue = None
        p.concert = None
        p.actions = 0
        p.special_used = p.tour_guide = p.advisor = p.rumour = False
    if g.month >= g.rules.months:
        push(g, end.score)
    else:
        g.month += 1
        push(g, month_start)


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase of the month: its id (the rule section), its name and its first task."""

    id: str
    name: str
    start: Callable[[Game], None]


# MONTH.1: the five phases in order.
MONTH: tuple[Phase, ...] = (
    Phase("P1", "auction of the special card", p1_auction.start),
    Phase("P2", "media influence", p2_media.start),
    Phase("P3", "rent a hall or plan a tour", p3_venues.start),
    Phase("P4", "three free actions", p4_actions.start),
    Phase("P5", "settlement", p5_settlement.start),
)
