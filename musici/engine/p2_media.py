"""P2: sealed media bids, revealed together; the highest wins (P2.1–P2.6, RULING-MEDIA-*).

The sealed bids are engine state (``Game.media_bids``); a view shows a seat only its own
bid until the reveal (P2.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from musici import draws
from musici.decisions import Kind, new_decision
from musici.economy import CRITIC_BONUS
from musici.engine import effects
from musici.engine.context import ask, emit, push_all, task
from musici.events import Critic, Media, MediaBid, MediaReveal, MediaTie, NoMedia

if TYPE_CHECKING:
    from musici.engine.game import Game


def start(g: Game) -> None:
    g.phase = "P2"
    order = g._order()
    g._media_bids = {}
    push_all(g, *[task(ask_bid, s) for s in order], task(reveal, order))


def ask_bid(g: Game, seat: int) -> None:
    step = g.rules.options["RULING-MEDIA-STEP"]
    money = g.players[seat].money
    ask(g,
        new_decision(seat, Kind.MEDIA_BID, "P2.1", space="amount", lo=0, hi=money - money % step, step=step),
        on_bid,
        seat,
    )


def on_bid(g: Game, amount: int, seat: int) -> None:
    g._media_bids = {**g._media_bids, seat: amount}
    emit(g, MediaBid(g.month, g.phase, "P2.1", seat, amount, private=(seat,)))


def reveal(g: Game, order: list[int]) -> None:
    bids = g._media_bids
    effective = {s: bids[s] + (CRITIC_BONUS if g.players[s].critic_now else 0) for s in order}
    for s in order:
        if g.players[s].critic_now:
            emit(g, Critic(g.month, g.phase, "P2.5", s, bids[s], effective[s], "S2"))
    emit(g, MediaReveal(g.month, g.phase, "P2.1", None, tuple(bids[s] for s in range(g.n)),
                        tuple(effective[s] for s in range(g.n))))
    top = max(effective.values())
    if top == 0 and g.rules.options["RULING-MEDIA-ZERO"] == "no-winner":
        emit(g, NoMedia(g.month, g.phase, "P2.3", None))
        return
    tied = [s for s in order if effective[s] == top]
    if len(tied) > 1:  # P2.2: less fame wins, then chance
        least = min(g.players[s].fame for s in tied)
        tied_bids = tied
        tied = [s for s in tied if g.players[s].fame == least]
        by_chance = len(tied) > 1
        if by_chance:
            tied = [tied[draws.randbelow(g.rng, len(tied))]]
        emit(g, MediaTie(g.month, g.phase, "P2.2", tied[0], tuple(tied_bids), least, by_chance))
    winner = tied[0]
    g.media = winner
    if bids[winner]:
        effects.pay(g, g.players[winner], bids[winner], "P2.2", "won the media")
    emit(g, Media(g.month, g.phase, "P2.2", winner, bids[winner]))
