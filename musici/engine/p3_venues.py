"""P3: in turn order each player takes one of the 8 areas (P3.1, P3.HALL.1, P3.TOUR.5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from musici import economy as E
from musici.decisions import Kind, new_decision
from musici.engine.context import ask, emit, push_each
from musici.events import ChapelFree, Venue

if TYPE_CHECKING:
    from musici.engine.game import Game


def start(g: Game) -> None:
    g.phase = "P3"
    fames = [p.fame for p in g.players]
    least = min(fames)
    if fames.count(least) == 1:  # P3.HALL.1: strictly the least fame
        g.chapel_free = fames.index(least)
        emit(g, ChapelFree(g.month, g.phase, "P3.HALL.1", g.chapel_free, least))
    push_each(g, ask_venue, g._order())


def ask_venue(g: Game, seat: int) -> None:
    p = g.players[seat]
    taken = g.venues  # P3.1: one marker per area; P3.TOUR.5
    options = tuple(a for a in E.areas_open_to(p.fame, g.rules, g.cards.tours) if a not in taken)
    ask(g, new_decision(seat, Kind.VENUE, "P3.1", options=options), on_venue, seat)


def on_venue(g: Game, area: str, seat: int) -> None:
    g.venues[area] = seat
    g.players[seat].venue = area
    emit(g, Venue(g.month, g.phase, "P3.1", seat, area))
