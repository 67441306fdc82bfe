"""The options a decision does not offer, and the rule that forbids each (issue 21 item 5).

A learner sees the legal answers of a decision; this module names the ones that are
missing and why: a commercial tour at fame 0 (P3.TOUR.5), an area another seat took
(P3.1), an orchestra one cannot afford (P4.HIRE.1), a face-up card marked by a Thief
(P4.BUY.5), a special card whose precondition does not hold (SPECIAL.S3 ...).

Whether an option is allowed is always the engine's own test (``economy.areas_open_to``,
the action table's ``can`` functions, ``iter_hire_targets``, ``iter_market_buys``,
``usable_specials``, ``poach_price``); this module only chooses the words and the rule id.
For every decision, :func:`candidates` is the set the options come from, and the options
plus :func:`unavailable` split it exactly (a test checks this over many games).

Only the deciding seat's own state and the public table are read.

    from musici import Game
    from musici.analysis.unavailable import unavailable
    game = Game(4, seed=3)
    ...  # play to a venue decision
    for u in unavailable(game):
        print(u.option, u.rule, u.reason)   # small-commercial P3.TOUR.5 needs 3 fame ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from musici import economy as E
from musici.decisions import Decision, Kind, parse_option, player_option
from musici.engine import p4_actions, p4_specials

if TYPE_CHECKING:
    from musici.engine import Game
    from musici.state import PlayerState


@dataclass(frozen=True, slots=True)
class Unavailable:
    """An option the decision does not offer: the rule id that forbids it and why, in words."""

    option: Any
    rule: str
    reason: str


# SPECIAL.S*: a single-use card's precondition in words (P4.SPECIAL.1: "its preconditions
# must hold"); the test of each is the engine's own (p4_specials.SPECIALS[card].usable).
_PRECONDITIONS: dict[str, str] = {
    "S3": "only while you are on a tour this month",
    "S4": "no face-up orchestra to take",
    "S7": "no face-up score card and both discovery decks are empty",
    "S8": "every face-up score card already carries a Thief's marker",
}


def _seat(game: Game, decision: Decision) -> PlayerState:
    return game.players[decision.player]


def candidates(game: Game, decision: Decision | None = None) -> tuple[Any, ...]:
    """Every option the decision's kind could offer in principle, in a stable order:
    the 8 areas, the 6 actions and "pass", the face-up cards, the other seats' orchestras,
    the cards in hand ... For a kind without such a set, its options."""
    d = decision if decision is not None else game.decision
    if d is None:
        return ()
    g, p = game, _seat(game, d)
    kind = d.kind
    if kind == Kind.VENUE:
        return E.AREAS
    if kind == Kind.ACTION:
        return ("pass", *p4_actions.ACTIONS)
    if kind == Kind.AUCTION:
        return ("pass", "bid")
    if kind == Kind.HIRE:
        theirs = [o for q in g.players if q is not p for o in q.orchestras]
        return (*(o for o in g.orchestra_market if o is not None), *theirs)
    if kind == Kind.BUY:
        return (*(c for c in g.score_market if c is not None),
                *(player_option(q.seat) for q in g.players if q is not p))
    if kind in (Kind.BUY_FALLBACK, Kind.THIEF):
        return tuple(c for c in g.score_market if c is not None)
    if kind == Kind.DISCOVER:
        return tuple(g.discovery_decks)
    if kind == Kind.SPECIAL:
        return tuple(dict.fromkeys(p.specials_hand))
    if kind == Kind.SELL:
        return ("decline", *dict.fromkeys(p.hand))
    return tuple(d.options)


def unavailable(game: Game, decision: Decision | None = None) -> tuple[Unavailable, ...]:
    """The options of :func:`candidates` that ``decision`` (default: the pending one) does
    not offer, each with the rule that forbids it, in the candidates' order."""
    d = decision if decision is not None else game.decision
    if d is None or d.space != "choice":
        return ()
    out = []
    for option in candidates(game, d):
        why = _why(game, d, option)
        if why is not None:
            out.append(Unavailable(option, *why))
    return tuple(out)


def _why(g: Game, d: Decision, option: Any) -> tuple[str, str] | None:
    """(rule, reason) if ``option`` is forbidden now, else None; the test is the engine's."""
    p = _seat(g, d)
    kind = d.kind
    if kind == Kind.VENUE:
        return _venue(g, p, option)
    if kind == Kind.ACTION:
        if option == "pass" or p4_actions.ACTIONS[option].can(g, p):
            return None
        return _action(g, p, option)
    if kind == Kind.AUCTION:
        bid = int(d.info.get("bid", 0))
        if option == "bid" and p.money < bid:  # P1.2
            return "P1.2", f"the next bid is {bid} G and you have {p.money} G"
        return None
    if kind == Kind.HIRE:
        return _hire(g, p, option)
    if kind in (Kind.BUY, Kind.BUY_FALLBACK):
        return _buy(g, p, option)
    if kind == Kind.THIEF:
        if option in g.thief_marks:
            return "SPECIAL.S8", f"already marked by seat {g.thief_marks[option]}'s Thief"
        return None
    if kind == Kind.DISCOVER:
        if not g.discovery_decks[option]:
            return "P4.DISCOVER.1", f"the {option} discovery deck is empty"
        return None
    if kind == Kind.SPECIAL:
        if option in p4_specials.usable_specials(g, p):
            return None
        rule = p4_specials.SPECIALS[option].rule
        return rule, _PRECONDITIONS.get(option, "its precondition does not hold now")
    if kind == Kind.SELL:
        return _sell(g, d, option)
    return None


def _venue(g: Game, p: PlayerState, area: str) -> tuple[str, str] | None:
    if area in g.venues:
        return "P3.1", f"seat {g.venues[area]} took it: an area holds one marker"
    if area not in E.areas_open_to(p.fame, g.rules, g.cards.tours):
        need = g.cards.tours[area][1]
        return ("P3.TOUR.5", f"a commercial tour needs fame of at least its cost ({need}); "
                f"you have {p.fame} (RULING-COMMERCIAL-FAME)")
    return None


def _action(g: Game, p: PlayerState, action: str) -> tuple[str, str]:
    """Why the action table's ``can`` refused ``action`` (it did: the caller checked)."""
    if action == "concert":
        if p.concert is not None:
            return "P4.2", "you held this month's concert already (one a month)"
        if not p.hand:
            return "P4.CONCERT.1", "no score or discovery card in your hand"
        return "P4.CONCERT.2", "no orchestra to play it: hire one first"
    if action == "hire":
        prices = [g.cards.orchestras[o].price for o in g.orchestra_market if o is not None]
        if not prices:
            return "P4.HIRE.1", "no face-up orchestra, and none you may hire away"
        return ("P4.HIRE.1", f"the cheapest face-up orchestra costs {min(prices)} G and you "
                f"have {p.money} G; none you may hire away (P4.HIRE.2)")
    if action == "buy":
        return ("P4.BUY.1", f"no face-up score card you may buy ({E.SCORE_PRICE} G each, you "
                f"have {p.money} G) and no other player holds a card")
    if action == "discover":
        if not any(g.discovery_decks.values()):
            return "P4.DISCOVER.1", "both discovery decks are empty"
        return "P4.DISCOVER.1", f"a search costs {E.DISCOVER_PRICE} G and you have {p.money} G"
    if action == "appease":
        if not p.markers:
            return "P4.APPEASE.1", "none of your orchestras carries a dissent marker"
        cheapest = min(g.cards.orchestras[o].salary for o in p.markers)
        return ("P4.APPEASE.1", f"removing a marker costs a month's salary ({cheapest} G) and "
                f"you have {p.money} G")
    if action == "special":
        if p.special_used:
            return "P4.2", "you played a special card this month already (one a month)"
        if not p.specials_hand:
            return "P4.SPECIAL.1", "no single-use special card in your hand"
        return "P4.SPECIAL.1", "the precondition of none of your single-use cards holds now"
    raise ValueError(f"unknown action {action!r}; expected one of {tuple(p4_actions.ACTIONS)}")


def _hire(g: Game, p: PlayerState, orch: str) -> tuple[str, str] | None:
    if orch in p4_actions.iter_hire_targets(g, p):
        return None
    price = g.cards.orchestras[orch].price
    if orch in g.orchestra_market:
        return "P4.HIRE.1", f"costs {price} G and you have {p.money} G"
    owner = p4_actions.owner_of(g, orch)
    seat = owner.seat if owner is not None else "?"
    markers = owner.markers.get(orch, 0) if owner is not None else 0
    if not markers:
        return "P4.HIRE.2", f"seat {seat}'s orchestra has no dissent marker: it cannot be hired away"
    cost = E.poach_price(price, markers)
    return "P4.HIRE.2", f"hiring it away from seat {seat} costs {cost} G and you have {p.money} G"


def _buy(g: Game, p: PlayerState, option: str) -> tuple[str, str] | None:
    what, value = parse_option(option)
    if what == "player":
        if any(q.seat == int(value) for q in p4_actions.sellers(g, p)):
            return None
        return "P4.BUY.2", f"seat {value} has no card in hand to sell"
    if option in p4_actions.iter_market_buys(g, p):
        return None
    thief = g.thief_marks.get(option)
    if thief is not None and thief != p.seat:
        return "P4.BUY.5", f"marked by seat {thief}'s Thief: only that seat may buy it"
    return "P4.BUY.1", f"costs {E.SCORE_PRICE} G and you have {p.money} G"


def _sell(g: Game, d: Decision, option: str) -> tuple[str, str] | None:
    if option == "decline":
        return None
    card = g.cards.music[option]
    if card.kind != "score":
        return "P4.BUY.2", "a discovery card is never sold between players"
    era = d.info.get("era", "any")
    if era not in ("any", card.era):
        return "RULING-NEGOTIATION", f"the buyer asked for a {era} card; this one is {card.era}"
    return None


__all__ = ["Unavailable", "candidates", "unavailable"]
