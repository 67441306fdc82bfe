"""P5: income, venue, salaries, surcharge, fame cards and rumours, in turn order (P5.1–P5.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from musici import economy as E
from musici.decisions import Kind, new_decision
from musici.economy import HALLS, TOURS
from musici.engine import effects
from musici.engine.context import ask, emit, push_all, task
from musici.engine.state import PlayerState
from musici.events import Exempt, RumourVoid, Unpaid, VenueFree

if TYPE_CHECKING:
    from musici.engine.game import Game


def start(g: Game) -> None:
    g.phase = "P5"
    g.round = 0
    push_all(g, *[task(settle, s) for s in g._order()], task(rumours))


def ledger(g: Game, p: PlayerState, cost: E.VenueCost | None = None) -> tuple[E.LedgerLine, ...]:
    """``p``'s settlement lines this month (economy.month_ledger, the one home of P5's
    arithmetic), with the surcharge at the fame P5.4 finds if the venue is paid."""
    held = p.concert is not None
    if cost is None:
        cost = _venue_cost(g, p, held)
    assert p.venue is not None
    orchestras = g.cards.orchestras
    return E.month_ledger(
        held_concert=held, income=p.concert["income"] if p.concert is not None else 0,
        actions=p.actions, permanent=p.permanent, venue=p.venue, venue_cost=cost,
        salaries=[orchestras[o].salary for o in p.orchestras],
        surcharge_fame=p.fame - cost.fame, alone=_alone(g, p))


def _alone(g: Game, p: PlayerState) -> bool:
    """SPECIAL.P7: no one else in a hall (or on a tour) like ``p``'s; only the Journalist asks."""
    if "P7" not in p.permanent:
        return False
    assert p.venue is not None
    kind = TOURS if p.venue in TOURS else HALLS
    return all(s == p.seat for a, s in g.venues.items() if a in kind)


_CARD_OF = {"SPECIAL.P1": "P1", "SPECIAL.P2": "P2", "SPECIAL.P7": "P7"}


def settle(g: Game, seat: int) -> None:
    p = g.players[seat]
    held = p.concert is not None
    # P5.1: income, then the P4.4 bonus and Guarneri: the ledger's first lines (the rest of
    # it, venue and salaries, is paid below as far as the player can).
    income = p.concert["income"] if p.concert is not None else 0
    for line in E.received_lines(held_concert=held, income=income, actions=p.actions,
                                 permanent=p.permanent):
        effects.receive(g, p, line.money, line.rule, line.reason, card=_CARD_OF.get(line.rule))
    pay_venue(g, p, held)
    # P5.3: salaries (SPECIAL.S5 first exempts up to 3)
    if p.advisor and len(p.orchestras) > 3:
        ask(g,
            new_decision(
                seat,
                Kind.ADVISOR,
                "SPECIAL.S5",
                space="subset",
                items=tuple(p.orchestras),
                min_size=3,
                max_size=3,
            ),
            on_advisor,
            seat,
        )
    else:
        on_advisor(g, tuple(p.orchestras) if p.advisor else (), seat)


def _venue_cost(g: Game, p: PlayerState, held: bool) -> E.VenueCost:
    assert p.venue is not None
    return E.venue_cost(
        p.venue, held_concert=held, rules=g.rules, chapel_free=g.chapel_free == p.seat,
        tour_guide=p.tour_guide, hall_rents=g.cards.hall_rents, tours=g.cards.tours,
    )


def pay_venue(g: Game, p: PlayerState, held: bool, cost: E.VenueCost | None = None) -> None:
    """P5.2: ``p`` pays its venue (``cost``: its :func:`~musici.economy.venue_cost`, computed
    here if not given); what it cannot pay is handled by RULING-UNPAID-VENUE."""
    venue = p.venue
    assert venue is not None
    if cost is None:
        cost = _venue_cost(g, p, held)
    opts = g.rules.options
    if cost.free:  # P3.HALL.1, SPECIAL.S3
        if cost.rule == "SPECIAL.S3":  # what the Tour guide saved
            waived = E.venue_cost(venue, held_concert=held, rules=g.rules,
                                  hall_rents=g.cards.hall_rents, tours=g.cards.tours)
            emit(g, VenueFree(g.month, g.phase, cost.rule, p.seat, venue, "S3", waived.money,
                              waived.fame))
        else:
            emit(g, VenueFree(g.month, g.phase, cost.rule, p.seat, venue))
        return
    rule, money, fame_cost = cost.rule, cost.money, cost.fame
    if fame_cost:
        effects.change_fame(g, p, -fame_cost, rule, f"{venue} costs {fame_cost} fame", venue=venue)
        if not money:  # a card file's tour may cost money and fame at once
            return
    paid = min(money, p.money)
    if paid:
        effects.pay(g, p, paid, rule, f"{venue}", venue=venue)
    unpaid = money - paid
    if unpaid:
        if opts["RULING-UNPAID-VENUE"] == "fame-per-50":
            lost = E.unpaid_venue_fame(unpaid)
            emit(g, Unpaid(g.month, g.phase, "RULING-UNPAID-VENUE", p.seat, unpaid, lost))
            effects.change_fame(g, p, -lost, "RULING-UNPAID-VENUE", f"{unpaid} G venue unpaid", venue=venue)
        else:
            emit(g, Unpaid(g.month, g.phase, "RULING-UNPAID-VENUE", p.seat, unpaid, 0))


def salary(g: Game, p: PlayerState, orch: str) -> int:
    return E.salary_due(g.cards.orchestras[orch].salary, p.concert is not None)  # P4.3


def on_advisor(g: Game, exempt: tuple[str, ...], seat: int) -> None:
    p = g.players[seat]
    if exempt:
        emit(g, Exempt(g.month, g.phase, "SPECIAL.S5", seat, "S5", exempt))
    due = [o for o in p.orchestras if o not in exempt]
    total = sum(salary(g, p, o) for o in due)
    if total <= p.money:
        on_salaries(g, tuple(due), seat, tuple(due))
        return
    if all(salary(g, p, o) > p.money for o in due):  # nothing payable: no choice
        on_salaries(g, (), seat, tuple(due))
        return
    ask(g,
        new_decision(
            seat,
            Kind.SALARIES,
            "P5.3",
            space="subset",
            items=tuple(due),
            costs=tuple(salary(g, p, o) for o in due),
            budget=p.money,
            min_size=0,
            max_size=len(due),
            maximal=True,
        ),
        on_salaries,
        seat,
        tuple(due),
    )


def on_salaries(g: Game, paid: tuple[str, ...], seat: int, due: tuple[str, ...]) -> None:
    p = g.players[seat]
    rule = "P5.3" if p.concert is not None else "P4.3"
    total = sum(salary(g, p, o) for o in paid)
    if total:
        effects.pay(g, p, total, rule, f"salaries of {len(paid)} orchestra(s)")
    for orch in due:
        if orch not in paid:
            effects.add_marker(g, p, orch, "P5.3", "salary unpaid")
    # P5.4: the fame surcharge
    surcharge = E.surcharge(p.fame)
    if surcharge:
        if p.money >= surcharge:
            effects.pay(g, p, surcharge, "P5.4", f"salary surcharge at fame {p.fame}")
        elif g.rules.options["RULING-UNPAID-SURCHARGE"] == "marker" and p.orchestras:
            ask(g,
                new_decision(seat, Kind.SURCHARGE_MARKER, "RULING-UNPAID-SURCHARGE",
                             options=tuple(p.orchestras)),
                on_surcharge_marker,
                seat,
            )
            return
        else:
            emit(g, Unpaid(g.month, g.phase, "RULING-UNPAID-SURCHARGE", seat, surcharge))
    fame_cards(g, seat)


def on_surcharge_marker(g: Game, orch: str, seat: int) -> None:
    effects.add_marker(g, g.players[seat], orch, "RULING-UNPAID-SURCHARGE", "salary surcharge unpaid")
    fame_cards(g, seat)


def fame_cards(g: Game, seat: int) -> None:
    p = g.players[seat]
    if p.concert is None or not ("P2" in p.permanent or "P7" in p.permanent):
        return
    # P5.5: Stradivari, then the Journalist (SPECIAL.P2, P7): the ledger's last lines.
    for line in E.fame_lines(held_concert=True, permanent=p.permanent, alone=_alone(g, p)):
        effects.change_fame(g, p, line.fame, line.rule, line.reason, card=_CARD_OF[line.rule])


def rumours(g: Game) -> None:
    # P5.6: at the very end of P5 the Rumourmonger's markers are placed.
    for owner in g._order():
        if g.players[owner].rumour:
            targets = [s for s in g._order() if s != owner]
            push_all(g, *[task(ask_rumour, s, owner) for s in targets])


def ask_rumour(g: Game, seat: int, owner: int) -> None:
    p = g.players[seat]
    if not p.orchestras:
        emit(g, RumourVoid(g.month, g.phase, "SPECIAL.S6", seat, "S6", owner))
        return
    ask(g,
        new_decision(seat, Kind.RUMOUR_MARKER, "SPECIAL.S6", options=tuple(p.orchestras),
                     info={"owner": owner}),
        on_rumour,
        seat,
        owner,
    )


def on_rumour(g: Game, orch: str, seat: int, owner: int) -> None:
    effects.add_marker(g, g.players[seat], orch, "SPECIAL.S6", f"rumour from seat {owner}",
                       rumour=owner)
