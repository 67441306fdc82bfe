"""Why did that happen? Events explained line by line, each line with its rule id.

A concert is taken apart condition by condition (RATE, RESTORE, P3.TOUR, P4.CONCERT.4);
payments, fame changes, markers and awards name the rule that caused them. The numbers come
from the event itself; restoration is recomputed with the engine's own
:func:`musici.scoring.restoration` and checked against what the event recorded; every price
or amount quoted in a line is read from :mod:`musici.economy`.

Example::

    from musici import Game
    from musici.strategies import greedy_strategy
    from musici.analysis import explain_event

    game = Game(4, seed=3).play([greedy_strategy] * 4)
    concert = next(e for e in game.events if e.kind == "concert")
    for line in explain_event(concert, game.cards, game.rules):
        print(line)          # "... [RATE.GOOD]"
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from musici import economy as E
from musici import events as ev
from musici import rating as R
from musici import scoring
from musici.analysis.explain_specials import explain_special, other_corner
from musici.cards import SPECIAL_NAMES, CardSet, MusicCard
from musici.describe import card_name, describe_event
from musici.events import Event
from musici.rules import RuleSet

PAYMENT_KINDS: tuple[str, ...] = ("pay", "income", "unpaid", "fame", "marker", "award",
                                  "marker_penalty")

TOUR_NAMES = {
    "large-academic": "large academic tour", "small-academic": "small academic tour",
    "large-commercial": "large commercial tour", "small-commercial": "small commercial tour",
}
HALL_NAMES = {"chapel": "Chapel", "university": "University Hall", "dome": "Dome Concert Hall",
              "opera": "National Opera"}


@dataclass(frozen=True, slots=True)
class Line:
    """One step of an explanation and the rule id it applies."""

    text: str
    rule: str

    def __str__(self) -> str:
        return f"{self.text} [{self.rule}]"


# ---------------------------------------------------------------------------- helpers
def _per_style(amounts: Any) -> str:
    """"100 G modern, 150 G authentic" from an economy table by style."""
    return ", ".join(f"{amounts[s]} G {s}" for s in sorted(amounts, key=amounts.__getitem__))


def _actions(n: int) -> str:
    return "one action" if n == 1 else f"{n} actions"


def _musicians(pair: tuple[int, int] | list[int]) -> str:
    return f"{pair[0] * 10} instrumentalists + {pair[1] * 10} singers"


def _requirement(card: MusicCard, style: str) -> str:
    own = card.authentic if style == "authentic" else card.modern
    return "no corner for this style" if own is None else _musicians(own)


def _area(venue: str | None) -> str:
    if venue is None:
        return "no venue"
    return HALL_NAMES.get(venue) or TOUR_NAMES.get(venue) or venue


def _lineage_path(cards: CardSet, a: str, b: str) -> str:
    """Teacher -> student chain linking composers ``a`` and ``b`` (either direction), and
    "(direct teacher)" or "(via …)" for the composers in between."""
    graph = cards.lineage_graph()
    for src, dst in ((a, b), (b, a)):
        try:
            path = nx.shortest_path(graph, src, dst)
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            continue
        names = [cards.composers[c].name for c in path]
        how = "direct teacher" if len(names) <= 2 else "via " + ", ".join(names[1:-1])
        return f"{' → '.join(names)} ({how})"
    return f"{cards.composers[a].name} and {cards.composers[b].name}"


def _index(events: Sequence[Event], event: Event) -> int | None:
    """Where ``event`` is in ``events`` (the same object, else an equal one)."""
    index = next((i for i, e in enumerate(events) if e is event), None)
    if index is None:
        index = next((i for i, e in enumerate(events) if e == event), None)
    return index


def _fame_before(events: Sequence[Event], index: int, seat: int | None) -> int:
    """``seat``'s fame just before ``events[index]`` (every change is a "fame" event)."""
    for e in reversed(events[:index]):
        if isinstance(e, ev.Fame) and e.player == seat:
            return e.fame
    return 0


def _concert_fame_lines(event: ev.Concert, opts: Any, events: Sequence[Event] | None
                        ) -> list[Line]:
    """The concert's fame change (P4.CONCERT.4) and, if fame stopped at 0, the P5.8 floor:
    read from the seat's following fame event when ``events`` are given, else the rules."""
    fame = event.fame
    lines = [Line(f"Fame {fame:+d}, " + ("gained" if fame >= 0 else "lost") + " at once",
                  "P4.CONCERT.4")]
    if fame >= 0:
        return lines
    at = _index(events, event) if events is not None else None
    if events is not None and at is not None:
        change = next(((i, e) for i, e in enumerate(events) if i > at
                       and isinstance(e, ev.Fame) and e.player == event.player
                       and e.rule == "P4.CONCERT.4"), None)
        if change is not None and change[1].floored:
            before = _fame_before(events, change[0], event.player)
            after = change[1].fame
            lines.append(Line(f"Fame never drops below 0: {before} → {after}, an actual change "
                              f"of {after - before:+d} instead of {fame:+d}", "P5.8"))
        return lines
    if opts["RULING-FAME-FLOOR"] == "zero":
        lines.append(Line("Fame never drops below 0: the loss stops at 0", "P5.8"))
    return lines


def _rules(rules: RuleSet | None) -> RuleSet:
    return rules if rules is not None else RuleSet()


# ---------------------------------------------------------------------------- concerts
def explain_concert(event: Event, cards: CardSet, rules: RuleSet | None = None, *,
                    events: Sequence[Event] | None = None) -> list[Line]:
    """A "concert" event step by step: card, requirement, musicians brought, every RATE
    condition, the media, card fame, restoration card by card, tour, fame and income.

    ``events``: the game's events (holding ``event``); with them a fame loss stopped at 0
    (P5.8) shows the actual change, read from the seat's following fame event."""
    if not isinstance(event, ev.Concert):
        raise ValueError(f"explain_concert needs a 'concert' event, got {event.kind!r}")
    rules = _rules(rules)
    opts = rules.options
    d = event
    card = cards.music[d.card]
    composer = cards.composers[card.composer]
    style = d.style
    required, brought = d.required, d.brought
    matches_style = card.has_style(style)
    need, have = sum(required), sum(brought)
    reasons = set(d.reasons)
    poor = d.base_rating == R.POOR
    lines: list[Line] = []

    kind_rule = "COMP.7" if card.kind == "discovery" else "COMP.5"
    back = f", {card.deck} back" if card.deck else ""
    lines.append(Line(
        f"Card {card_name(cards, card.id)}: {card.kind} card{back}, {card.era} era, "
        f"{composer.nationality} composer; fame good/fair/poor {card.fame[0]}/{card.fame[1]}/"
        f"{card.fame[2]}, income {card.income} G", kind_rule))
    lines.append(Line(
        f"Requirement per style: authentic {_requirement(card, 'authentic')}; "
        f"modern {_requirement(card, 'modern')}", "RATE"))
    style_rule = "RULING-STYLE" if opts["RULING-STYLE"] != "orchestras" else "P4.CONCERT.3"
    corner = "the card has this style" if matches_style else "the card has no corner for it"
    compared = other_corner(d, cards, rules)  # RULING-STYLE=best-of-card: the other corner
    if compared is not None:
        lines.append(Line(*compared))
    lines.append(Line(
        f"Judged in the {style} style ({corner}): required {_musicians(required)}", style_rule))
    performers = []
    for item in d.orchestras:
        if item in cards.orchestras:
            o = cards.orchestras[item]
            performers.append(f"{o.name} [{item}] ({o.style} {o.part})")
        else:
            performers.append(f"{SPECIAL_NAMES.get(item, item)} [{item}] (virtuoso)")
    capacity = ""
    room = E.capacity(d.venue) if d.venue is not None else None
    if room is not None:
        capacity = f"; the {_area(d.venue)} holds {room * 10} musicians"
    lines.append(Line(
        f"Brought {_musicians(brought)} ({have * 10} of {need * 10} required): "
        f"{', '.join(performers)}; {d.markers} dissent marker(s) on stage{capacity}",
        "P4.CONCERT.2"))
    # SPECIAL.P3/P4: a virtuoso on stage is named with what it counts as.
    lines += [Line(text, rule) for text, rule in explain_special(event, cards)]

    # RATE.POOR.1-5 and RATE.FAIR.1-3: the event lists every condition that held.
    short = (need - have) * 10
    gap = f"{short} musicians short" if short > 0 else "none short"
    missing = [part for part, r, b in (("instrumentalists", required[0], brought[0]),
                                       ("singers", required[1], brought[1])) if r and not b]
    checks = [
        ("RATE.POOR.1", f"wrong style and fewer musicians than required ({have * 10} of "
                        f"{need * 10})" if not matches_style else "the style matches the card"),
        ("RATE.POOR.2", f"own style, {gap} (poor from 20 short)" if matches_style
                        else "not in the card's own style"),
        ("RATE.POOR.3", f"the card asks for {' and '.join(missing)} and none were brought"
                        if missing else "every section the card asks for is on stage"),
        ("RATE.POOR.4", f"{d.markers} dissent marker(s) on stage (poor from 2)"),
    ]
    if card.kind == "discovery":
        found = bool(d.restoration and d.restoration.found)
        checks.append(("RATE.POOR.5", "restoration found nothing (RESTORE.1)" if not found
                       else "restoration found something (RESTORE.1)"))
    for rule, why in checks:
        holds = rule in reasons
        lines.append(Line(f"{'holds' if holds else 'does not hold'}: {why}", rule))
    fair_checks = [
        ("RATE.FAIR.1", f"wrong style, {have * 10} of {need * 10} required musicians brought "
                        "(fair with at least as many)" if not matches_style
                        else "the style matches the card"),
        ("RATE.FAIR.2", f"own style, {gap} (fair when exactly 10 short)"
                        if matches_style else "not in the card's own style"),
        ("RATE.FAIR.3", f"{d.markers} dissent marker(s) on stage (fair with exactly 1)"),
    ]
    for rule, why in fair_checks:
        if poor:
            lines.append(Line(f"not checked (already poor): {why}", rule))
        else:
            lines.append(Line(f"{'holds' if rule in reasons else 'does not hold'}: {why}", rule))
    base = d.base_rating
    base_rule = {"poor": "RATE.POOR", "fair": "RATE.FAIR", "good": "RATE.GOOD"}[base]
    held = ", ".join(r for r in d.reasons if r != "RATE.GOOD")
    lines.append(Line(f"Rating before the media: {base}" + (f" ({held})" if held else
                                                            " (no poor or fair condition)"),
                      base_rule))
    if d.media:
        if d.rating != base:
            lines.append(Line(f"Media holder: the rating goes up one level, {base} → "
                              f"{d.rating}", "RATE.MEDIA"))
        else:
            lines.append(Line("Media holder, but a good concert stays good", "RATE.MEDIA"))
    else:
        lines.append(Line(f"Not the media holder: the rating stays {d.rating}", "RATE.MEDIA"))
    lines.append(Line(f"Card fame for a {d.rating} concert: {d.card_fame}", "RATE.FAME"))

    total = d.card_fame
    rest = d.restoration
    if rest is not None:
        lines.extend(_explain_restoration(event, rest, cards, card, rules))
        total = d.card_fame + rest.bonus
        cap = E.RESTORE_CAP
        if rest.capped:
            lines.append(Line(f"Card fame + restoration = {total} > {cap}: a discovery card "
                              f"gives at most {cap}", "RESTORE.4"))
            total = cap
        elif rest.bonus:
            lines.append(Line(f"Card fame + restoration = {total} (at most {cap})", "RESTORE.4"))

    lines.extend(_explain_tour(d, card, total, opts, cards))
    lines.extend(_concert_fame_lines(event, opts, events))
    lines.append(Line(f"Income {d.income} G, received in P5 settlement", "P5.1"))
    return lines


def _explain_restoration(event: ev.Concert, rest: ev.ConcertRestoration, cards: CardSet,
                         card: MusicCard, rules: RuleSet) -> list[Line]:
    opts = rules.options
    me = cards.composers[card.composer]
    recorded = rest.matches
    pioneer_ids = {"P5", "P6"}
    matched_cards = [m[0] for m in recorded if m[0] not in pioneer_ids]
    pioneers = [m[0] for m in recorded if m[0] in pioneer_ids]
    # The engine's own function, over the cards the event says matched (RESTORE.5: the
    # pioneer card it recorded stands for the permanent card the player held).
    again = scoring.restoration(cards, rules, card, matched_cards, pioneers)
    assert again is not None  # a concert event with a restoration is a discovery card
    lines: list[Line] = []
    if not recorded:
        lines.append(Line(f"Restoration: no earlier played card shares {me.name}'s nationality "
                          f"({me.nationality}) or the {card.era} era, nor composer or lineage",
                          "RESTORE.1"))
    for m in again.matches:
        if m.card in pioneer_ids:
            lines.append(Line(f"+1 {SPECIAL_NAMES[m.card]} [{m.card}]: counts as one played "
                              f"card of the same era", "RESTORE.5"))
            continue
        other = cards.music[m.card]
        them = cards.composers[other.composer]
        if m.nationality_or_era:
            parts = []
            if "nationality" in m.why:
                parts.append(f"same nationality ({them.nationality})")
            if "era" in m.why:
                parts.append(f"same era ({other.era})")
            lines.append(Line(f"+1 {card_name(cards, m.card)}: {' and '.join(parts)}",
                              "RESTORE.1"))
        if "same composer" in m.why:
            lines.append(Line(f"+1 {card_name(cards, m.card)}: same composer ({me.name})",
                              "RESTORE.1"))
        elif "lineage" in m.why:
            lines.append(Line(f"+1 {card_name(cards, m.card)}: one teaching lineage, "
                              f"{_lineage_path(cards, them.id, me.id)}", "RESTORE.2"))
    lineage_only = opts["RULING-RESTORE-GOOD"] == "lineage-good-only"
    good = event.rating == R.GOOD
    bonus = scoring.restoration_bonus(again, event.rating, rules)
    points = sum(m.nationality_or_era + m.composer_or_lineage for m in again.matches)
    if bonus != rest.bonus or [m.card for m in again.matches] != [m[0] for m in recorded]:
        lines.append(Line(f"Note: with these rules the restoration would be +{bonus}; the game "
                          f"recorded +{rest.bonus} (played under other rule options?)",
                          "RESTORE.2"))
    rule_name = "RULING-RESTORE-GOOD" if lineage_only else "RESTORE.3"
    if good:
        why = "the concert is good: the whole bonus counts"
    elif lineage_only:
        why = (f"the concert is {event.rating}: only the nationality/era points count, "
               "the composer/lineage points need a good rating")
    else:
        why = f"the concert is {event.rating}, not good: the bonus does not count"
    lines.append(Line(f"Restoration bonus +{rest.bonus} of {points} point(s) found ({why})",
                      rule_name))
    return lines


def _explain_tour(d: ev.Concert, card: MusicCard, total: int, opts: Any,
                  cards: CardSet) -> list[Line]:
    venue = d.venue
    if venue is None or venue not in cards.tours:
        return [Line(f"In the {_area(venue)}: no tour multiplier", "P3.HALL")]
    _, _, (fn, fd), (inum, iden) = cards.tours[venue]  # the card set's terms, as played
    away = opts["RULING-ROUNDING"] == "away-from-zero"
    rounding = "away from zero" if away else "toward zero"
    lines: list[Line] = []
    if fn:
        exact = total * fn / fd
        no_income = "" if inum else "; no income"  # a card file may set both multipliers
        lines.append(Line(f"On the {_area(venue)}: fame {total} ×{fn / fd:g} = {exact:g}"
                          f"{no_income}", "P3.TOUR"))
        if exact != int(exact):
            lines.append(Line(f"{exact:g} fame rounded {rounding} to {d.fame}", "P3.TOUR.4"))
    else:
        if total > 0:
            lines.append(Line(f"On the {_area(venue)}: the concert's {total} fame is given up",
                              "P3.TOUR.3"))
        else:
            lines.append(Line(f"On the {_area(venue)}: no fame gain, but the loss of {total} "
                              "still counts", "P3.TOUR.3"))
    if inum:
        exact_income = card.income * inum / iden
        lines.append(Line(f"Income {card.income} G ×{inum / iden:g} = {exact_income:g} G",
                          "P3.TOUR"))
        if exact_income % E.MONEY_UNIT:
            lines.append(Line(f"{exact_income:g} G rounded {rounding} to {E.MONEY_UNIT} G: "
                              f"{d.income} G", "P3.TOUR.4"))
    return lines


# ---------------------------------------------------------------------------- payments
def _pay_lines(d: ev.Pay, cards: CardSet) -> list[Line]:
    rule = d.rule
    amount, reason = d.amount, d.reason
    to = f" to seat {d.to}" if d.to is not None else " to the bank"
    head = f"Pays {amount} G{to} → {d.money} G left"
    lines: list[Line] = []
    if rule == "P1.3":
        lines.append(Line(f"{head}: the highest bid won the special-card auction", rule))
    elif rule == "P2.2":
        lines.append(Line(f"{head}: the winning media bid", rule))
    elif rule == "P4.HIRE.1":
        lines.append(Line(f"{head}: hired a face-up orchestra ({_per_style(E.HIRE_PRICE)})",
                          rule))
    elif rule == "P4.HIRE.2":
        lines.append(Line(f"{head}: hired an orchestra away from its owner (its price, "
                          f"{E.POACH_DISCOUNT} G less with {E.MAX_MARKERS} markers)", rule))
    elif rule in ("P4.BUY.1", "P4.BUY.3"):
        lines.append(Line(f"{head}: bought a face-up score card for {E.SCORE_PRICE} G "
                          f"({reason})", rule))
    elif rule == "P4.BUY.2":
        lines.append(Line(f"{head}: the agreed price of a card bought from another player",
                          rule))
    elif rule == "P4.DISCOVER.1":
        lines.append(Line(f"{head}: searched a discovery deck ({reason})", rule))
    elif rule == "P4.APPEASE.1":
        lines.append(Line(f"{head}: one month's salary to remove a dissent marker ({reason})",
                          rule))
    elif rule in ("P5.2", "P4.3") and not reason.startswith("salaries"):
        full = cards.hall_rents[reason] if reason in cards.hall_rents else \
            cards.tours[reason][0] if reason in cards.tours else None
        lines.append(Line(f"{head}: the {_area(reason)}" + (f" (costs {full} G)" if full else ""),
                          "P5.2"))
        if rule == "P4.3":
            lines.append(Line("No concert this month: half the venue cost", "P4.3"))
    elif rule in ("P5.3", "P4.3"):
        lines.append(Line(f"{head}: {reason} ({_per_style(E.SALARY)} a month)", "P5.3"))
        if rule == "P4.3":
            lines.append(Line("No concert this month: half of every salary", "P4.3"))
    elif rule == "P5.4":
        steps = ", ".join(f"{amount} G from fame {fame}" for fame, amount in reversed(E.SURCHARGES))
        lines.append(Line(f"{head}: {reason} ({steps})", rule))
    else:
        lines.append(Line(f"{head} ({reason})", rule))
    return lines


def _income_lines(d: ev.Income) -> list[Line]:
    rule = d.rule
    head = f"Receives {d.amount} G → {d.money} G"
    why = {
        "P5.1": "the concert's income (after any tour multiplier)",
        "P4.4": f"no concert and at most {_actions(E.IDLE_MAX_ACTIONS)} this month: "
                f"{E.IDLE_BONUS} G from the bank",
        "SPECIAL.P1": f"Guarneri violin: {E.GUARNERI_BONUS} G in a month with a concert",
    }.get(rule, d.reason)
    return [Line(f"{head}: {why}", rule)]


def _fame_lines(d: ev.Fame) -> list[Line]:
    rule = d.rule
    head = f"Fame {d.delta:+d} → {d.fame}"
    why = {
        "P4.CONCERT.4": f"the {d.reason}",
        "P5.2": f"commercial tour paid in fame ({d.reason})",
        "P4.3": f"no concert: half a commercial tour's fame cost ({d.reason})",
        "RULING-UNPAID-VENUE": f"1 fame per started {E.UNPAID_VENUE_STEP} G of venue cost not "
                               f"paid ({d.reason})",
        "SPECIAL.P2": f"Stradivari cello: +{E.STRADIVARI_FAME} fame in a month with a concert",
        "SPECIAL.P7": f"Journalist: +{E.JOURNALIST_FAME} fame, alone in a hall or on a tour",
    }.get(rule, d.reason)
    lines = [Line(f"{head}: {why}", rule)]
    if rule == "P4.3":
        lines.append(Line("Half a fame cost is rounded as RULING-HALF-FAME says",
                          "RULING-HALF-FAME"))
    if d.floored:
        lines.append(Line("Fame never drops below 0: the loss stops at 0", "P5.8"))
    return lines


def _marker_lines(d: ev.Marker, cards: CardSet) -> list[Line]:
    rule = d.rule
    why = {
        "P5.3": "its salary was not paid",
        "RULING-UNPAID-SURCHARGE": "the fame surcharge (P5.4) could not be paid",
        "SPECIAL.S6": "the Rumourmonger's marker",
    }.get(rule, d.reason)
    return [
        Line(f"Dissent marker on {card_name(cards, d.orchestra)}: {why}; "
             f"{d.markers} marker(s) now", rule),
        Line("On stage 1 marker makes a concert fair, 2 make it poor", "RATE.FAIR.3"),
        Line("A third marker sends the orchestra away", "P5.7"),
        Line("Each marker left at the end costs 1 fame", "END.5"),
    ]


def _unpaid_lines(d: ev.Unpaid) -> list[Line]:
    rule = d.rule
    if rule == "RULING-UNPAID-VENUE":
        if d.fame:
            return [Line(f"Cannot pay {d.amount} G of the venue: costs {d.fame} fame "
                         f"(1 per started {E.UNPAID_VENUE_STEP} G)", rule)]
        return [Line(f"Cannot pay {d.amount} G of the venue: forgiven", rule)]
    return [Line(f"Cannot pay the {d.amount} G fame surcharge: forgiven", rule)]


def _award_lines(d: ev.Award) -> list[Line]:
    winners = ", ".join(f"seat {s}" for s in d.winners)
    lines = [Line(f"Award '{d.award}': counts {list(d.counts)} per seat; most: {winners}; "
                  f"+{d.share} fame each", d.rule)]
    if len(d.winners) > 1:
        lines.append(Line(f"{len(d.winners)} players tied: they share the award", "END.6"))
    return lines


def explain_payment(event: Event, cards: CardSet) -> list[Line]:
    """A money, fame, marker or award event: what was paid or received, and why."""
    kind = event.kind
    if isinstance(event, ev.Pay):
        return _pay_lines(event, cards)
    if isinstance(event, ev.Income):
        return _income_lines(event)
    if isinstance(event, ev.Unpaid):
        return _unpaid_lines(event)
    if isinstance(event, ev.Fame):
        return _fame_lines(event)
    if isinstance(event, ev.Marker):
        return _marker_lines(event, cards)
    if isinstance(event, ev.Award):
        return _award_lines(event)
    if isinstance(event, ev.MarkerPenalty):
        return [Line(f"-{event.markers} fame: one per dissent marker at the end", event.rule)]
    raise ValueError(f"explain_payment does not explain {kind!r} events; "
                     f"expected one of {', '.join(PAYMENT_KINDS)}")


def explain_event(event: Event, cards: CardSet, rules: RuleSet | None = None, *,
                  events: Sequence[Event] | None = None) -> list[Line]:
    """Any event: concerts and payments in detail, everything else in one described line.
    ``events``: the game's events, for what a concert's explanation reads from later ones."""
    if isinstance(event, ev.Concert):
        return explain_concert(event, cards, rules, events=events)
    special = [Line(text, rule) for text, rule in explain_special(event, cards)]
    if event.kind in PAYMENT_KINDS:
        return explain_payment(event, cards) + special
    if special:  # a special card's effect, its targets named (SPECIAL.*)
        return special
    text = describe_event(event, cards)
    suffix = f" [{event.rule}]"
    if text.endswith(suffix):
        text = text[: -len(suffix)]
    return [Line(text, event.rule)]


__all__ = ["PAYMENT_KINDS", "Line", "explain_concert", "explain_event", "explain_payment"]
