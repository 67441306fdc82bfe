"""P4.SPECIAL: single-use special cards (SPECIAL.S1–S8), with the table :data:`SPECIALS`.

Each card has a row: when it can be played (its preconditions, P4.SPECIAL.1) and what it
does. Permanent cards (SPECIAL.P1–P7) act where their rule applies (P2, P4.CONCERT, P5)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from musici.cards import STYLES
from musici.decisions import Kind, deck_option, new_decision, parse_option
from musici.economy import ADVISOR_EXEMPTS, COLLECTOR_TAKES, CRITIC_BONUS, EDUCATOR_TAKES, TOURS
from musici.engine import effects
from musici.engine.context import ask, emit
from musici.engine.state import PlayerState
from musici.events import (
    AdvisorPlayed,
    AuctioneerPlayed,
    CollectorPlayed,
    CriticPlayed,
    Drew,
    EducatorPlayed,
    RumourmongerPlayed,
    SpecialPlayed,
    ThiefPlayed,
    TourGuidePlayed,
)

if TYPE_CHECKING:
    from musici.engine.game import Game


def usable_specials(g: Game, p: PlayerState) -> list[str]:
    """The single-use cards in ``p``'s hand whose preconditions hold now (P4.SPECIAL.1)."""
    usable = []
    for card in p.specials_hand:
        if card not in usable and SPECIALS[card].usable(g, p):
            usable.append(card)
    return usable


def start_special(g: Game, p: PlayerState) -> None:
    ask(g,
        new_decision(p.seat, Kind.SPECIAL, "P4.SPECIAL.1", options=tuple(usable_specials(g, p))),
        on_special,
        p.seat,
    )


def on_special(g: Game, card: str, seat: int) -> None:
    p = g.players[seat]
    p.specials_hand.remove(card)
    p.specials_discard.append(card)
    p.special_used = True
    emit(g, SpecialPlayed(g.month, g.phase, "P4.SPECIAL.1", seat, card))
    SPECIALS[card].play(g, p)


# ---------------------------------------------------------------------------- the cards
def _always(g: Game, p: PlayerState) -> bool:
    return True


def play_auctioneer(g: Game, p: PlayerState) -> None:  # SPECIAL.S1
    others = tuple(s for s in g._order() if s != p.seat)
    ask(g, new_decision(p.seat, Kind.AUCTIONEER, "SPECIAL.S1", options=others), on_auctioneer, p.seat)


def play_critic(g: Game, p: PlayerState) -> None:  # SPECIAL.S2, P2.5
    p.critic_next = True
    emit(g, CriticPlayed(g.month, g.phase, "SPECIAL.S2", p.seat, "S2", g.month + 1, CRITIC_BONUS))


def on_tour(g: Game, p: PlayerState) -> bool:
    return p.venue in TOURS


def play_tour_guide(g: Game, p: PlayerState) -> None:  # SPECIAL.S3
    p.tour_guide = True
    emit(g, TourGuidePlayed(g.month, g.phase, "SPECIAL.S3", p.seat, "S3", p.venue))


def orchestras_face_up(g: Game, p: PlayerState) -> bool:
    return any(g.orchestra_market)


def play_educator(g: Game, p: PlayerState) -> None:  # SPECIAL.S4
    items = tuple(o for o in g.orchestra_market if o is not None)
    ask(g,
        new_decision(
            p.seat,
            Kind.EDUCATOR,
            "SPECIAL.S4",
            space="subset",
            items=items,
            min_size=1,
            max_size=min(EDUCATOR_TAKES, len(items)),
        ),
        on_educator,
        p.seat,
    )


def play_advisor(g: Game, p: PlayerState) -> None:  # SPECIAL.S5 (applied in P5.3)
    p.advisor = True  # the orchestras exempted are chosen, and named, in P5.3 ("exempt")
    emit(g, AdvisorPlayed(g.month, g.phase, "SPECIAL.S5", p.seat, "S5", ADVISOR_EXEMPTS))


def play_rumourmonger(g: Game, p: PlayerState) -> None:  # SPECIAL.S6 (placed in P5.6)
    p.rumour = True  # each target names its orchestra in P5.6 ("marker", "rumour_void")
    targets = [s for s in g._order() if s != p.seat]
    emit(g, RumourmongerPlayed(g.month, g.phase, "SPECIAL.S6", p.seat, "S6", tuple(targets)))


def cards_to_collect(g: Game, p: PlayerState) -> bool:
    return any(g.score_market) or any(g.discovery_decks.values())


def play_collector(g: Game, p: PlayerState) -> None:  # SPECIAL.S7
    ask(g, new_decision(p.seat, Kind.COLLECTOR, "SPECIAL.S7", options=collector_options(g)),
        on_collector, p.seat)


def unmarked_face_up(g: Game, p: PlayerState) -> bool:
    return any(c is not None and c not in g.thief_marks for c in g.score_market)


def play_thief(g: Game, p: PlayerState) -> None:  # SPECIAL.S8
    options = tuple(c for c in g.score_market if c is not None and c not in g.thief_marks)
    ask(g, new_decision(p.seat, Kind.THIEF, "SPECIAL.S8", options=options), on_thief, p.seat)


def on_auctioneer(g: Game, target: int, seat: int) -> None:
    g.players[target].banned_next = True
    emit(g, AuctioneerPlayed(g.month, g.phase, "SPECIAL.S1", seat, "S1", target, g.month + 1))


def on_educator(g: Game, chosen: tuple[str, ...], seat: int) -> None:
    p = g.players[seat]
    for orch in chosen:
        g.orchestra_market[g.orchestra_market.index(orch)] = None
        p.orchestras.append(orch)
    effects.refill(g.orchestra_market, g.orchestra_deck)
    emit(g, EducatorPlayed(g.month, g.phase, "SPECIAL.S4", seat, "S4", chosen,
                           tuple(g.orchestra_market)))


def collector_options(g: Game) -> tuple[tuple[str, ...], ...]:
    face_up = [c for c in g.score_market if c is not None]
    decks = [deck_option(d) for d in STYLES if g.discovery_decks[d]]
    options: list[tuple[str, ...]] = [(c,) for c in face_up]
    options += combinations(face_up, COLLECTOR_TAKES)  # SPECIAL.S7: "up to 2 of the 4"
    options += [(c, d) for c in face_up for d in decks]
    if not face_up:
        options += [(d,) for d in decks]
    return tuple(options)


def on_collector(g: Game, chosen: tuple[str, ...], seat: int) -> None:
    p = g.players[seat]
    taken: list[str] = []
    face_up: list[str] = []
    decks: list[str] = []
    for item in chosen:
        what, deck = parse_option(item)
        if what == "deck":
            card = g.discovery_decks[str(deck)].pop()
            p.hand.append(card)
            # the card itself only in the owner's event; the deck is public (its back)
            emit(g, Drew(g.month, g.phase, "SPECIAL.S7", seat, card, str(deck), private=(seat,)))
            taken.append(item)
            decks.append(str(deck))
        else:
            face_up.append(item)
            g.score_market[g.score_market.index(item)] = None
            g.thief_marks.pop(item, None)
            p.hand.append(item)
            taken.append(item)
    effects.refill(g.score_market, g.score_deck)
    emit(g, CollectorPlayed(g.month, g.phase, "SPECIAL.S7", seat, "S7", tuple(taken),
                            tuple(face_up), tuple(decks), tuple(g.score_market)))


def on_thief(g: Game, card: str, seat: int) -> None:
    g.thief_marks[card] = seat
    emit(g, ThiefPlayed(g.month, g.phase, "SPECIAL.S8", seat, "S8", card))


@dataclass(frozen=True, slots=True)
class Special:
    """One row of the special-card table: its rule, its precondition and its effect."""

    rule: str
    usable: Callable[[Game, PlayerState], bool]
    play: Callable[[Game, PlayerState], None]


# SPECIAL.S1–S8: every single-use card, its precondition (P4.SPECIAL.1) and what it does.
SPECIALS: dict[str, Special] = {
    "S1": Special("SPECIAL.S1", _always, play_auctioneer),
    "S2": Special("SPECIAL.S2", _always, play_critic),
    "S3": Special("SPECIAL.S3", on_tour, play_tour_guide),
    "S4": Special("SPECIAL.S4", orchestras_face_up, play_educator),
    "S5": Special("SPECIAL.S5", _always, play_advisor),
    "S6": Special("SPECIAL.S6", _always, play_rumourmonger),
    "S7": Special("SPECIAL.S7", cards_to_collect, play_collector),
    "S8": Special("SPECIAL.S8", unmarked_face_up, play_thief),
}
