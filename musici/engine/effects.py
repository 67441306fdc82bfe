"""State changes that every phase makes, each with its event: fame (P5.8 floor), payments,
income and dissent markers (P5.7), and refilling a market from its deck."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from musici.engine.context import emit
from musici.engine.state import PlayerState
from musici.events import Event  # noqa: F401

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
    data = {"delta": delta, "fame": after, "reason": reason}
    if venue is not None:  # a hall's or tour's cost: lets analyses net it against returns
        data["venue"] = venue
    if floored:
        data["floored"] = "P5.8"
    if card is not None:  # the special card that acts (SPECIAL.P2, P7)
        data["card"] = card
    emit(g, "fame", rule, p.seat, data)


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
    data = {"amount": amount, "to": to, "reason": reason, "money": p.money}
    if venue is not None:
        data["venue"] = venue
    emit(g, "pay", rule, p.seat, data)


def receive(g: Game, p: PlayerState, amount: int, rule: str, reason: str,
            card: str | None = None) -> None:
    p.money += amount
    data: dict[str, Any] = {"amount": amount, "reason": reason, "money": p.money}
    if card is not None:  # the special card that pays (SPECIAL.P1)
        data["card"] = card
    emit(g, "income", rule, p.seat, data)


def add_marker(g: Game, p: PlayerState, orch: str, rule: str, reason: str,
               extra: dict[str, Any] | None = None) -> None:
    """One dissent marker on ``orch``; ``extra`` names who placed it (SPECIAL.S6)."""
    count = p.markers.get(orch, 0) + 1
    if count > 2:  # P5.7: a third marker sends the orchestra away
        del p.markers[orch]
        p.orchestras.remove(orch)
        g.orchestra_deck.insert(0, orch)
        emit(g, "orchestra_leaves", "P5.7", p.seat,
                {"orchestra": orch, "reason": reason, "cause": rule, **(extra or {})})
        # Slots left empty by an exhausted deck fill again now that it holds a card.
        refill(g.orchestra_market, g.orchestra_deck)
        return
    p.markers[orch] = count
    emit(g, "marker", rule, p.seat, {"orchestra": orch, "markers": count, "reason": reason,
                                     **(extra or {})})


def refill(market: list[str | None], deck: list[str]) -> None:
    for i, c in enumerate(market):
        if c is None and deck:
            market[i] = deck.pop()
