"""P4: three rounds of one action each (P4.1–P4.4), with the action table :data:`ACTIONS`.

Each action has a row: whether the player can take it now, and how it starts. The menu of a
turn is the table's rows that can be taken, in table order."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from musici import economy as E
from musici import scoring
from musici.cards import VIRTUOSOS
from musici.decisions import Kind, new_decision, parse_option, player_option
from musici.economy import ACTION_ROUNDS, DISCOVER_PRICE, MONEY_UNIT, SCORE_PRICE
from musici.engine import effects, p4_specials
from musici.engine.context import ask, emit, push_all, task
from musici.engine.state import PlayerState
from musici.events import (
    ActionSpent,
    ActionTaken,
    Appease,
    Buy,
    CardPassed,
    Concert,
    Declined,
    Discover,
    Drew,
    Hire,
    Offer,
    PassRound,
    Poach,
    PoachRefused,
    Sold,
)

if TYPE_CHECKING:
    from musici.engine.game import Game, Task


def start(g: Game) -> None:
    g.phase = "P4"
    tasks: list[Task] = []
    for r in range(ACTION_ROUNDS):  # P4.1: three rounds in turn order
        tasks.append(task(begin_round, r))
        tasks.extend(task(ask_action, s) for s in g._order())
    push_all(g, *tasks)


def begin_round(g: Game, r: int) -> None:
    g.round = r + 1


def ask_action(g: Game, seat: int) -> None:
    p = g.players[seat]
    options = ("pass", *[name for name, can in _MENU if can(g, p)])
    ask(g, new_decision(seat, Kind.ACTION, "P4.1", options=options, info={"round": g.round}), on_action, seat)


def on_action(g: Game, action: str, seat: int) -> None:
    p = g.players[seat]
    if action == "pass":
        emit(g, PassRound(g.month, g.phase, "P4.1", seat, g.round))
        return
    p.actions += 1
    emit(g, ActionTaken(g.month, g.phase, "P4.2", seat, action, g.round))
    ACTIONS[action].start(g, p)


def can_concert(g: Game, p: PlayerState) -> bool:
    # P4.2: at most one concert a month; needs a card and someone to play it.
    return p.concert is None and bool(p.hand) and bool(p.orchestras or virtuosos(g, p))


def virtuosos(g: Game, p: PlayerState) -> list[str]:
    return [c for c in p.permanent if c in VIRTUOSOS]


def start_concert(g: Game, p: PlayerState) -> None:
    ask(g,
        new_decision(p.seat, Kind.CONCERT_CARD, "P4.CONCERT.1", options=tuple(p.hand)),
        on_concert_card, p.seat
    )


def on_concert_card(g: Game, card: str, seat: int) -> None:
    p = g.players[seat]
    items = [*p.orchestras, *virtuosos(g, p)]
    groups = [g.cards.performer(i)[0] for i in items]
    venue = p.venue
    capacity = E.capacity(venue) if venue is not None else None  # P4.CONCERT.2
    if capacity is None:
        capacity = len(items)
    ask(g,
        new_decision(
            seat,
            Kind.CONCERT_ORCHESTRAS,
            "P4.CONCERT.2",
            space="subset",
            items=tuple(items),
            groups=tuple(groups),
            min_size=1,
            max_size=min(capacity, len(items)),
            info={"card": card, "venue": venue, "capacity": capacity},
        ),
        on_concert_orchestras,
        seat,
        card,
    )


def on_concert_orchestras(g: Game, chosen: tuple[str, ...], seat: int, card_id: str) -> None:
    p = g.players[seat]
    card = g.cards.music[card_id]
    # P4.CONCERT.3 RULING-STYLE: the orchestras' style; virtuosos count (SPECIAL.P3/P4)
    style, brought, markers = scoring.lineup(g.cards, chosen, p.markers)
    restore = scoring.restoration(g.cards, g.rules, card, p.played, p.permanent)
    p.hand.remove(card_id)
    p.played.append(card_id)  # P4.CONCERT.1: stays in front of the player
    media = g.media == seat
    venue = p.venue
    out = scoring.concert_outcome(
        card, style, brought, markers, rules=g.rules, venue=venue, media=media, restore=restore,
        tours=g.cards.tours,
    )
    fame, income = out.fame, out.income
    p.concert = {"card": card_id, "income": income, "fame": fame}
    emit(g, Concert.of(g.month, g.phase, seat, card_id, card.kind, chosen,
                       tuple(o for o in chosen if o in g.cards.specials),  # SPECIAL.P3/P4
                       brought, markers, media, venue, out))
    if fame:
        effects.change_fame(g, p, fame, "P4.CONCERT.4", f"concert of {card_id}")


def iter_hire_targets(g: Game, p: PlayerState) -> Iterator[str]:
    # A generator, so the action menu can ask "any?" without building the list.
    money, orchestras = p.money, g.cards.orchestras
    for o in g.orchestra_market:
        if o is not None and money >= orchestras[o].price:
            yield o
    for other in g.players:
        if other is not p:
            for o, m in other.markers.items():  # P4.HIRE.2: only with a marker
                if money >= E.poach_price(orchestras[o].price, m):  # P4.HIRE.2
                    yield o


def hire_targets(g: Game, p: PlayerState) -> list[str]:
    return list(iter_hire_targets(g, p))


def can_hire(g: Game, p: PlayerState) -> bool:
    return next(iter_hire_targets(g, p), None) is not None


def poach_price_of(g: Game, orch: str, markers: int) -> int:
    return E.poach_price(g.cards.orchestras[orch].price, markers)  # P4.HIRE.2


def start_hire(g: Game, p: PlayerState) -> None:
    ask(g, new_decision(p.seat, Kind.HIRE, "P4.HIRE.1", options=tuple(hire_targets(g, p))), on_hire, p.seat)


def owner_of(g: Game, orch: str) -> PlayerState | None:
    for q in g.players:
        if orch in q.orchestras:
            return q
    return None


def on_hire(g: Game, orch: str, seat: int) -> None:
    p = g.players[seat]
    if orch in g.orchestra_market:
        slot = g.orchestra_market.index(orch)
        effects.pay(g, p, g.cards.orchestras[orch].price, "P4.HIRE.1", f"hired {orch}")
        p.orchestras.append(orch)
        g.orchestra_market[slot] = g.orchestra_deck.pop() if g.orchestra_deck else None
        emit(g, Hire(g.month, g.phase, "P4.HIRE.1", seat, orch, g.orchestra_market[slot]))
        return
    owner = owner_of(g, orch)
    assert owner is not None
    price = poach_price_of(g, orch, owner.markers[orch])
    ask(g,
        new_decision(
            owner.seat,
            Kind.POACH_CONSENT,
            "P4.HIRE.2",
            options=("agree", "refuse"),
            info={"buyer": seat, "orchestra": orch, "price": price},
        ),
        on_poach,
        seat,
        orch,
        price,
    )


def on_poach(g: Game, answer: str, seat: int, orch: str, price: int) -> None:
    p = g.players[seat]
    owner = owner_of(g, orch)
    assert owner is not None
    if answer == "refuse":
        emit(g, PoachRefused(g.month, g.phase, "P4.HIRE.2", owner.seat, seat, orch))
        return
    effects.pay(g, p, price, "P4.HIRE.2", f"hired {orch} away", to=owner.seat)
    markers = owner.markers.pop(orch)
    owner.orchestras.remove(orch)
    p.orchestras.append(orch)
    if g.rules.options["RULING-POACH-MARKERS"] == "stay":
        p.markers[orch] = markers
    emit(g, Poach(g.month, g.phase, "P4.HIRE.2", seat, orch, owner.seat, price, markers))


def iter_market_buys(g: Game, p: PlayerState) -> Iterator[str]:
    if p.money >= SCORE_PRICE:
        seat, marks = p.seat, g.thief_marks
        for c in g.score_market:
            if c is not None and marks.get(c, seat) == seat:  # P4.BUY.5
                yield c


def sellers(g: Game, p: PlayerState) -> list[PlayerState]:
    """The players ``p`` may make an offer to: anyone else with a card in hand (P4.BUY.2)."""
    return [q for q in g.players if q is not p and q.hand]


def iter_buy_targets(g: Game, p: PlayerState) -> Iterator[str]:
    yield from iter_market_buys(g, p)
    for q in sellers(g, p):
        yield player_option(q.seat)


def market_buys(g: Game, p: PlayerState) -> list[str]:
    return list(iter_market_buys(g, p))


def buy_targets(g: Game, p: PlayerState) -> list[str]:
    return list(iter_buy_targets(g, p))


def can_buy(g: Game, p: PlayerState) -> bool:
    # Sellers first: mid-game someone nearly always holds a card, and it is the cheaper test.
    return bool(sellers(g, p)) or next(iter_market_buys(g, p), None) is not None


def start_buy(g: Game, p: PlayerState) -> None:
    ask(g, new_decision(p.seat, Kind.BUY, "P4.BUY.1", options=tuple(buy_targets(g, p))), on_buy, p.seat)


def on_buy(g: Game, target: str, seat: int) -> None:
    p = g.players[seat]
    what, value = parse_option(target)
    if what != "player":
        buy_face_up(g, p, target, "P4.BUY.1")
        return
    seller = int(value)
    ask(g,
        new_decision(
            seat,
            Kind.BUY_PRICE,
            "P4.BUY.2",
            space="amount",
            lo=0,
            hi=p.money - p.money % MONEY_UNIT,
            step=MONEY_UNIT,  # COMP.8
            info={"seller": seller},
        ),
        on_buy_price,
        seat,
        seller,
    )


def buy_face_up(g: Game, p: PlayerState, card: str, rule: str) -> None:
    slot = g.score_market.index(card)
    effects.pay(g, p, SCORE_PRICE, rule, f"bought {card}")
    p.hand.append(card)
    g.thief_marks.pop(card, None)
    g.score_market[slot] = g.score_deck.pop() if g.score_deck else None
    emit(g, Buy(g.month, g.phase, rule, p.seat, card, g.score_market[slot]))


def on_buy_price(g: Game, price: int, seat: int, seller: int) -> None:
    if g.rules.options["RULING-NEGOTIATION"] == "blind":
        on_buy_era(g, "any", seat, seller, price)
        return
    ask(g,
        new_decision(
            seat,
            Kind.BUY_ERA,
            "RULING-NEGOTIATION",
            options=("any", "baroque", "classical", "romantic"),
            info={"seller": seller, "price": price},
        ),
        on_buy_era,
        seat,
        seller,
        price,
    )


def on_buy_era(g: Game, era: str, seat: int, seller: int, price: int) -> None:
    q = g.players[seller]
    emit(g, Offer(g.month, g.phase, "P4.BUY.2", seat, seller, price, era))
    # P4.BUY.2: only a score card can be sold, never a discovery card (protocol 1, which
    # replays saves made before revision 2, still asks with every card of the era).
    cards = [c for c in q.hand if (g.cards.music[c].kind == "score" or g.protocol < 2)
             and (era == "any" or g.cards.music[c].era == era)]
    ask(g,
        new_decision(
            seller,
            Kind.SELL,
            "RULING-NEGOTIATION",
            options=("decline", *cards),
            info={"buyer": seat, "price": price, "era": era},
        ),
        on_sell,
        seat,
        seller,
        price,
    )


def on_sell(g: Game, answer: str, seat: int, seller: int, price: int) -> None:
    p, q = g.players[seat], g.players[seller]
    if answer != "decline":
        q.hand.remove(answer)
        p.hand.append(answer)
        if price:
            effects.pay(g, p, price, "P4.BUY.2", "bought a card by negotiation", to=seller)
        emit(g, Sold(g.month, g.phase, "P4.BUY.2", seller, seat, price))
        emit(g, CardPassed(g.month, g.phase, "P4.BUY.2", seller, seat, answer,
                           private=(seat, seller)))
        return
    emit(g, Declined(g.month, g.phase, "P4.BUY.3", seller, seat, price))
    fallback = market_buys(g, p)  # P4.BUY.3: must buy a face-up card if possible
    if not fallback:
        emit(g, ActionSpent(g.month, g.phase, "P4.BUY.3", seat))
        return
    ask(g, new_decision(seat, Kind.BUY_FALLBACK, "P4.BUY.3", options=tuple(fallback)), on_buy_fallback, seat)


def on_buy_fallback(g: Game, card: str, seat: int) -> None:
    buy_face_up(g, g.players[seat], card, "P4.BUY.3")


def start_discover(g: Game, p: PlayerState) -> None:
    options = tuple(d for d in ("authentic", "modern") if g.discovery_decks[d])
    ask(g, new_decision(p.seat, Kind.DISCOVER, "P4.DISCOVER.1", options=options), on_discover, p.seat)


def on_discover(g: Game, deck: str, seat: int) -> None:
    p = g.players[seat]
    effects.pay(g, p, DISCOVER_PRICE, "P4.DISCOVER.1", f"searched the {deck} discovery deck")
    card = g.discovery_decks[deck].pop()
    p.hand.append(card)
    emit(g, Discover(g.month, g.phase, "P4.DISCOVER.1", seat, deck))
    emit(g, Drew(g.month, g.phase, "P4.DISCOVER.1", seat, card, private=(seat,)))


def start_appease(g: Game, p: PlayerState) -> None:
    items = tuple(p.markers)
    ask(g,
        new_decision(
            p.seat,
            Kind.APPEASE,
            "P4.APPEASE.1",
            space="subset",
            items=items,
            costs=tuple(g.cards.orchestras[o].salary for o in items),
            limits=tuple(p.markers[o] for o in items),
            budget=p.money,
            min_size=1,
            max_size=sum(p.markers.values()),
        ),
        on_appease,
        p.seat,
    )


def on_appease(g: Game, chosen: tuple[str, ...], seat: int) -> None:
    p = g.players[seat]
    for orch in chosen:
        effects.pay(g, p, g.cards.orchestras[orch].salary, "P4.APPEASE.1", f"appeased {orch}")
        left = p.markers[orch] - 1
        if left:
            p.markers[orch] = left
        else:
            del p.markers[orch]
        emit(g, Appease(g.month, g.phase, "P4.APPEASE.1", seat, orch, left))


def can_discover(g: Game, p: PlayerState) -> bool:
    return p.money >= DISCOVER_PRICE and any(g.discovery_decks.values())  # P4.DISCOVER.1


def can_appease(g: Game, p: PlayerState) -> bool:
    if p.markers:  # most turns have none: skip building the generator
        return any(p.money >= g.cards.orchestras[o].salary for o in p.markers)  # P4.APPEASE.1
    return False


def can_special(g: Game, p: PlayerState) -> bool:
    return not p.special_used and bool(p4_specials.usable_specials(g, p))  # P4.2, P4.SPECIAL.1


@dataclass(frozen=True, slots=True)
class Action:
    """One row of the action table: its rule, when it can be taken, how it starts."""

    rule: str
    can: Callable[[Game, PlayerState], bool]
    start: Callable[[Game, PlayerState], None]


# P4.1: the actions besides passing, in the order a turn's menu lists them.
ACTIONS: dict[str, Action] = {
    "concert": Action("P4.CONCERT", can_concert, start_concert),
    "hire": Action("P4.HIRE", can_hire, start_hire),
    "buy": Action("P4.BUY", can_buy, start_buy),
    "discover": Action("P4.DISCOVER", can_discover, start_discover),
    "appease": Action("P4.APPEASE", can_appease, start_appease),
    "special": Action("P4.SPECIAL", can_special, p4_specials.start_special),
}
_MENU: tuple[tuple[str, Callable[[Game, PlayerState], bool]], ...] = tuple(
    (name, action.can) for name, action in ACTIONS.items())  # the table, ready for each turn
