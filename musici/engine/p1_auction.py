"""P1: the auction of the special card (P1.1–P1.7, RULING-AUCTION-LAST)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from musici import economy as E
from musici.decisions import Kind, new_decision
from musici.engine import effects
from musici.engine.context import ask, emit, push
from musici.events import (
    Auction,
    AuctionBanned,
    Bid,
    NoAuction,
    PassAuction,
    SpecialBought,
    SpecialRevealed,
    Unsold,
)

if TYPE_CHECKING:
    from musici.engine.game import Game


def start(g: Game) -> None:
    g.phase = "P1"
    if g.special_slot is None:  # P1.6: empty special deck, no auction
        emit(g, NoAuction(g.month, g.phase, "P1.6", None))
        return
    passed = [p.banned_now for p in g.players]  # P1.7
    for p in g.players:
        if p.banned_now:
            emit(g, AuctionBanned(g.month, g.phase, "P1.7", p.seat, g.special_slot, "S1"))
    order = g._order()
    emit(g, Auction(g.month, g.phase, "P1.1", None, g.special_slot))
    push(g, turn, order, 0, passed, 0, None)


def turn(g: Game, order: list[int], i: int, passed: list[bool], high: int, leader: int | None) -> None:
    remaining = [s for s in order if not passed[s]]
    if len(remaining) <= 1:  # P1.3: one player left
        if leader is not None:
            win(g, leader, high)
        elif remaining and g.rules.options["RULING-AUCTION-LAST"] == "free":
            win(g, remaining[0], 0)
        elif remaining:  # RULING-AUCTION-LAST: the last player may still bid or pass
            offer(g, remaining[0], order, passed, high, leader, "RULING-AUCTION-LAST")
        else:
            unsold(g)
        return
    while passed[order[i % g.n]]:
        i += 1
    offer(g, order[i % g.n], order, passed, high, leader, "P1.1")


def offer(
    g: Game, seat: int, order: list[int], passed: list[bool], high: int, leader: int | None, rule: str
) -> None:
    card = g.special_slot
    assert card is not None
    # P1.1: the card's first bid (the card set's special_prices), then the step above
    bid = E.next_bid(high, first=leader is None, opening=g.cards.special_prices[card])
    options = ("pass", "bid") if g.players[seat].money >= bid else ("pass",)  # P1.2
    ask(g,
        new_decision(
            seat,
            Kind.AUCTION,
            rule,
            options=options,
            info={"card": g.special_slot, "bid": bid, "high": high, "leader": leader},
        ),
        on_answer,
        seat,
        order,
        passed,
        high,
        leader,
    )


def on_answer(
    g: Game, answer: str, seat: int, order: list[int], passed: list[bool], high: int, leader: int | None
) -> None:
    if answer == "bid":
        card = g.special_slot
        assert card is not None
        high = E.next_bid(high, first=leader is None, opening=g.cards.special_prices[card])
        leader = seat
        emit(g, Bid(g.month, g.phase, "P1.1", seat, high))
    else:
        passed = passed[:]
        passed[seat] = True
        emit(g, PassAuction(g.month, g.phase, "P1.2", seat))
    push(g, turn, order, order.index(seat) + 1, passed, high, leader)


def win(g: Game, seat: int, price: int) -> None:
    p = g.players[seat]
    card = g.special_slot
    assert card is not None
    if price:
        effects.pay(g, p, price, "P1.3", f"won the auction for {card}")
    p.specials_bought += 1
    if g.cards.specials[card].permanent:
        p.permanent.append(card)  # P1.4: works at once
    else:
        p.specials_hand.append(card)
    emit(g, SpecialBought(g.month, g.phase, "P1.3", seat, card, price))
    reveal_special(g)


def unsold(g: Game) -> None:
    card = g.special_slot
    assert card is not None
    g.special_deck.insert(0, card)  # P1.5: face down under the special deck
    emit(g, Unsold(g.month, g.phase, "P1.5", None, card))
    reveal_special(g)


def reveal_special(g: Game) -> None:
    g.special_slot = g.special_deck.pop() if g.special_deck else None  # P1.6
    emit(g, SpecialRevealed(g.month, g.phase, "P1.6", None, g.special_slot))
