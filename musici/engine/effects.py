"""State changes that every phase makes, each with its event: fame (P5.8 floor), payments,
income and dissent markers (P5.7), and refilling a market from its deck."""

from __future__ import annotations

from typing import TYPE_CHECKING

from musici.engine.context import emit
from musici.engine.state import PlayerState
from musici.events import Fame, Income, Marker, OrchestraLeaves, Pay

if TYPE_CHECKING:
    from musici.engine.game import Game


def change_fame(
    g: Game, p: PlayerState, delta: int, rule: str, reason: str, venue: str | None = None,
    card: str | None = None,
) -> None:
    before = p.fame
    after = before + delta
    floored = False
    if after < 0 and g.rules.options["RULING-FAME-FLOOR"] == "zero":
        after, floored = 0, True  # P5.8
    p.fame = after
    # venue: a hall's or tour's cost (lets analyses net it against returns); card: the
    # special card that acts (SPECIAL.P2, P7)
    emit(g, Fame(g.month, g.phase, rule, p.seat, delta, after, reason, venue,
                 "P5.8" if floored else None, card))


def pay(
    g: Game,
    p: PlayerState,
    amount: int,
    rule: str,
    reason: str,
    to: int | None = None,
    venue: str | None = None,
) -> None:
    p.money -= amount
    if to is not None:
        g.players[to].money += amount
    emit(g, Pay(g.month, g.phase, rule, p.seat, amount, to, reason, p.money, venue))


def receive(g: Game, p: PlayerState, amount: int, rule: str, reason: str,
            card: str | None = None) -> None:
    p.money += amount
    # card: the special card that pays (SPECIAL.P1)
    emit(g, Income(g.month, g.phase, rule, p.seat, amount, reason, p.money, card))


def add_marker(g: Game, p: PlayerState, orch: str, rule: str, reason: str,
               rumour: int | None = None) -> None:
    """One dissent marker on ``orch``; ``rumour``: the seat whose Rumourmonger placed it
    (SPECIAL.S6)."""
    card = None if rumour is None else "S6"
    count = p.markers.get(orch, 0) + 1
    if count > 2:  # P5.7: a third marker sends the orchestra away
        del p.markers[orch]
        p.orchestras.remove(orch)
        g.orchestra_deck.insert(0, orch)
        emit(g, OrchestraLeaves(g.month, g.phase, "P5.7", p.seat, orch, reason, rule, card,
                                rumour))
        # Slots left empty by an exhausted deck fill again now that it holds a card.
        refill(g.orchestra_market, g.orchestra_deck)
        return
    p.markers[orch] = count
    emit(g, Marker(g.month, g.phase, rule, p.seat, orch, count, reason, card, rumour))


def refill(market: list[str | None], deck: list[str]) -> None:
    for i, c in enumerate(market):
        if c is None and deck:
            market[i] = deck.pop()
