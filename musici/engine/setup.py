"""SETUP: shuffling, the 3-player removals, the starting hands, markets and money (SETUP.1–6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from musici import draws
from musici.cards import STYLES
from musici.economy import (
    HAND_SIZE,
    MARKET_SLOTS,
    SETUP6_DISCOVERIES_PER_DECK,
    SETUP6_ORCHESTRAS,
    SETUP6_SCORES,
    START_MONEY,
)
from musici.engine import flow
from musici.engine.context import emit, push
from musici.events import Deal, RemovedCards, RemovedOrchestras, Setup

if TYPE_CHECKING:
    from musici.engine.game import Game


def deal(g: Game) -> None:
    cards, rng = g.cards, g.rng
    orchestras = list(cards.orchestras)
    if g.n == 3:  # SETUP.6: before shuffling, remove 2+2+1+1 orchestras
        removed: list[str] = []
        for (style, part), k in SETUP6_ORCHESTRAS.items():
            kind = [
                o
                for o in orchestras
                if cards.orchestras[o].style == style and cards.orchestras[o].part == part
            ]
            removed.extend(kind[-k:])
        orchestras = [o for o in orchestras if o not in removed]
        g.out_of_game.extend(removed)
        emit(g, RemovedOrchestras(g.month, g.phase, "SETUP.6", None, tuple(removed)))
    scores = [c.id for c in cards.scores]
    draws.shuffle(rng, scores)  # SETUP.2
    draws.shuffle(rng, orchestras)  # SETUP.3
    specials = list(cards.specials)
    draws.shuffle(rng, specials)
    for deck in STYLES:  # COMP.7: a discovery deck per back
        pile = [c.id for c in cards.discoveries if c.deck == deck]
        draws.shuffle(rng, pile)
        g.discovery_decks[deck] = pile
    if g.n == 3:  # SETUP.6: after shuffling, 6 scores and 3 of each discovery deck
        hidden = [scores.pop() for _ in range(SETUP6_SCORES)]
        for deck in STYLES:
            hidden.extend(g.discovery_decks[deck].pop() for _ in range(SETUP6_DISCOVERIES_PER_DECK))
        g.out_of_game.extend(hidden)
        emit(g, RemovedCards(g.month, g.phase, "SETUP.6", None, SETUP6_SCORES,
                             SETUP6_DISCOVERIES_PER_DECK * len(STYLES), tuple(hidden), private=()))
    for p in g.players:  # SETUP.2: 3 secret cards each
        p.hand = [scores.pop() for _ in range(HAND_SIZE)]
        emit(g, Deal(g.month, g.phase, "SETUP.2", p.seat, tuple(p.hand), private=(p.seat,)))
    g.score_market = [scores.pop() for _ in range(MARKET_SLOTS)]
    g.score_deck = scores
    g.orchestra_market = [orchestras.pop() for _ in range(MARKET_SLOTS)]  # SETUP.3
    g.orchestra_deck = orchestras
    g.special_slot = specials.pop()
    g.special_deck = specials
    if g.rules.options["RULING-START-PLAYER"] == "random":  # SETUP.5
        g.start_player = draws.randbelow(rng, g.n)
    emit(g, Setup(g.month, g.phase, "SETUP.1", None, START_MONEY, g.start_player,
                  tuple(g.score_market), tuple(g.orchestra_market), g.special_slot,
                  g.rules.months))
    push(g, flow.month_start)
