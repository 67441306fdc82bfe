"""Explanations of what a special card did, and of the other corner under best-of-card.

Pure functions returning ``(text, rule id)`` pairs, for ``musici.analysis.explain`` to
wrap as its lines: :func:`explain_special` for the events where a special card acts
(SPECIAL.P1–P7, S1–S8), :func:`other_corner` for a concert judged under
RULING-STYLE=best-of-card (the two corners are compared after the media, RATE.MEDIA).
"""

from __future__ import annotations

from musici import events as ev
from musici import rating as R
from musici import scoring
from musici.cards import CardSet
from musici.describe import card_name, special_effect
from musici.events import Event
from musici.rules import RuleSet

# Why each single-use card could do what it did: the part of its rule that the log line
# does not say.
_WHY: dict[str, str] = {
    "S1": "the named player counts as having passed in that auction (P1.7)",
    "S2": "the owner pays only the real bid (P2.5)",
    "S3": "the tour's cost is ignored in P5; the income or fame it gives up stays given up",
    "S4": "free, and not a hire action: the slots are refilled to 4",
    "S5": "the orchestras exempted are chosen in P5.3 and get no marker",
    "S6": "each other player puts the marker on an orchestra of their choice at the very "
          "end of P5 (P5.6); a third marker sends the orchestra away (P5.7)",
    "S7": "free, and not a buy action; a discovery card drawn stays secret, only its deck "
          "(the back) is public",
    "S8": "until the end of the game only this player may buy the marked card (P4.BUY.5)",
}


def special_of(event: Event) -> str | None:
    """The special card an event shows acting, or ``None``."""
    if event.kind == "effect" or event.rule.startswith("SPECIAL."):
        card = ev.card_of(event)
        return card if card is not None else event.rule.removeprefix("SPECIAL.")
    if isinstance(event, ev.Critic):
        return "S2"
    if isinstance(event, ev.AuctionBanned):
        return "S1"
    if isinstance(event, ev.Concert) and event.virtuosos:
        return event.virtuosos[0]
    return None


def explain_special(event: Event, cards: CardSet) -> list[tuple[str, str]]:
    """What the special card of ``event`` did, and why it could (empty for other events)."""
    card = special_of(event)
    if card is None or card not in cards.specials:
        return []
    name = card_name(cards, card)
    rule = f"SPECIAL.{card}"
    lines: list[tuple[str, str]] = []
    if event.kind == "effect":
        lines.append((special_effect(event, cards), rule))
        if card in _WHY:
            lines.append((_WHY[card], rule))
    elif isinstance(event, ev.VenueFree):
        saved = f"{event.money} G" if event.money else f"{event.fame or 0} fame"
        lines.append((f"{name}: the {event.area} costs nothing (saves {saved})", rule))
    elif isinstance(event, ev.Exempt):
        orchs = ", ".join(card_name(cards, o) for o in event.orchestras)
        lines.append((f"{name}: no salary and no marker for {orchs}", rule))
    elif isinstance(event, ev.RumourVoid):
        lines.append((f"{name} played by seat {event.owner}: no orchestra to take the marker",
                      rule))
    elif isinstance(event, (ev.Marker, ev.OrchestraLeaves)):
        lines.append((f"{name} played by seat {event.owner}: "
                      f"marker on {card_name(cards, event.orchestra)}", rule))
    elif isinstance(event, ev.Critic):
        lines.append((f"{name}: the bid of {event.bid} G counts as {event.counts} G", "P2.5"))
    elif isinstance(event, ev.AuctionBanned):
        lines.append((f"{name}: this player was named last month and sits out", "P1.7"))
    elif isinstance(event, ev.Drew):
        lines.append((f"{name}: drew {card_name(cards, event.card)} from the {event.deck} "
                      "discovery deck (only you see which card)", rule))
    elif isinstance(event, ev.Concert):
        for v in event.virtuosos:
            lines.append((f"{card_name(cards, v)} plays as one instrumental orchestra "
                          "(10 musicians, no salary, counts against the hall)", f"SPECIAL.{v}"))
    elif isinstance(event, ev.Income):
        lines.append((f"{name}: {event.amount} G ({event.reason})", rule))
    elif isinstance(event, ev.Fame):
        lines.append((f"{name}: {event.delta:+d} fame ({event.reason})", rule))
    return lines


def other_corner(concert: ev.Concert, cards: CardSet, rules: RuleSet) -> tuple[str, str] | None:
    """Under RULING-STYLE=best-of-card, the rating the card's *other* corner would have given
    this concert, compared like the engine after the media upgrade (``None`` when the
    ruling is off or the card has one corner)."""
    card = cards.music[concert.card]
    if rules.options["RULING-STYLE"] != "best-of-card" or not (
            card.has_style("authentic") and card.has_style("modern")):
        return None
    judged = concert.style
    other = "modern" if judged == "authentic" else "authentic"
    restored = concert.restoration is None or concert.restoration.found
    rated = scoring.rate_against(card, other, concert.brought, concert.markers,
                                 rules=rules, restored=restored, media=concert.media)
    after = " after the media upgrade" if concert.media else ""
    own = cards.performer(concert.orchestras[0])[0] if concert.orchestras else judged
    verdict = ("so the better corner was taken" if R.LEVELS.index(rated.level)
               < R.LEVELS.index(concert.rating) else "equal, so the orchestras' own style")
    return (f"The orchestras were of the {own} style. The card's other corner ({other}) "
            f"would have rated {rated.level}{after}, against {concert.rating} in the "
            f"{judged} corner: {verdict}", "RULING-STYLE")
