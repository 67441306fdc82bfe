"""Events in words: the readable game log (CLI, notebooks). Only called when someone looks."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from musici import events as ev
from musici.cards import CardSet
from musici.events import Event

PHASE_NAMES = {
    "SETUP": "Set-up", "P1": "P1 auction", "P2": "P2 media", "P3": "P3 venue",
    "P4": "P4 actions", "P5": "P5 settlement", "END": "Final scoring",
}


def card_name(cards: CardSet, card_id: str | None) -> str:
    if card_id is None:
        return "nothing"
    if card_id in cards.music:
        c = cards.music[card_id]
        return f"{cards.composers[c.composer].name}: {c.piece} [{card_id}]"
    if card_id in cards.orchestras:
        o = cards.orchestras[card_id]
        return f"{o.name} ({o.style} {o.part}) [{card_id}]"
    if card_id in cards.specials:
        return f"{cards.specials[card_id].name} [{card_id}]"
    return card_id



def answer_words(cards: CardSet, answer: Any) -> str:
    """An answer in words: card names for card ids, "seat 2" for ``player:2``, "the modern
    discovery deck" for ``deck:modern``, "150 G" for an amount, "A + B" for a set."""
    if isinstance(answer, tuple | list):
        return " + ".join(answer_words(cards, a) for a in answer) or "nothing"
    if isinstance(answer, int):
        return f"{answer} G"
    if isinstance(answer, str) and answer.startswith("player:"):
        return f"seat {answer.split(':', 1)[1]}"
    if isinstance(answer, str) and answer.startswith("deck:"):
        return f"the {answer.split(':', 1)[1]} discovery deck"
    name = card_name(cards, answer)
    return name.replace("-", " ") if name == answer else name


def _seat(s: Any) -> str:
    return f"seat {s}"


def _concert(d: ev.Concert, cards: CardSet) -> str:
    virtuosos = f", {_names(cards, d.virtuosos)} among them" if d.virtuosos else ""
    # One line: what decided the rating is in the explanation (analysis.explain_event).
    text = (f"played {card_name(cards, d.card)} at {d.venue} with {len(d.orchestras)} "
            f"{d.style} orchestra(s){virtuosos} ({d.brought[0] * 10} instrumentalists + "
            f"{d.brought[1] * 10} singers, {d.required[0] * 10} + "
            f"{d.required[1] * 10} required): {d.rating}")
    if d.rating != d.base_rating:
        text += f" (raised from {d.base_rating} by the media)"
    restoration = d.restoration
    if restoration is not None:
        text += f", restoration +{restoration.bonus}"
        pioneers = [m[0] for m in restoration.matches if m[0] in cards.specials]
        if pioneers:
            text += f" (with {_names(cards, pioneers)})"
        if restoration.capped:
            text += " (capped at 10, RESTORE.4)"
    return text + f" -> fame {d.fame:+d}, income {d.income} G"


def _names(cards: CardSet, ids: Iterable[str]) -> str:
    return ", ".join(card_name(cards, i) for i in ids) or "none"


def special_effect(e: ev.Event, cards: CardSet) -> str:
    """What a single-use special card did (SPECIAL.S1–S8), in words, from its "effect"
    event."""
    match e:
        case ev.AuctioneerPlayed():
            what = f"seat {e.target} takes no part in month {e.month_}'s auction"
        case ev.CriticPlayed():
            what = f"in month {e.month_}'s media auction the bid counts {e.bonus} G higher"
        case ev.TourGuidePlayed():
            what = f"the {e.tour} costs nothing in this month's P5"
        case ev.EducatorPlayed():
            what = (f"takes {_names(cards, e.orchestras)} free; orchestras face up now "
                    f"{_names(cards, [o for o in e.market if o])}")
        case ev.AdvisorPlayed():
            what = f"up to {e.exempts} orchestras need no salary in this month's P5"
        case ev.RumourmongerPlayed():
            what = ("at the end of P5 " + (", ".join(f"seat {s}" for s in e.targets) or "nobody")
                    + " must take a dissent marker")
        case ev.CollectorPlayed():
            what = "takes " + "; ".join(
                [card_name(cards, x) for x in e.face_up]
                + [f"the top card of the {k} discovery deck" for k in e.decks]) + " free"
        case ev.ThiefPlayed():
            what = f"marks {card_name(cards, e.marked)}: only this player may buy it"
        case _:
            return f"{e.kind} takes effect"
    return f"{card_name(cards, e.card)}: {what}"


def _venue_free(d: ev.VenueFree) -> str:
    if d.card != "S3":
        return f"pays nothing for the {d.area}"
    saved = f"{d.money} G" if d.money else f"{d.fame} fame"
    return f"Tour guide [S3]: pays nothing for the {d.area} (saves {saved})"


def _marker(d: ev.Marker, cards: CardSet) -> str:
    text = (f"dissent marker on {card_name(cards, d.orchestra)} ({d.markers} now; "
            f"{d.reason})")
    return f"Rumourmonger [S6] of seat {d.owner}: {text}" if d.card == "S6" else text


def _award(d: ev.Award) -> str:
    counts = ", ".join(f"seat {s} {c}" for s, c in enumerate(d.counts))
    return (f"award '{d.award}' to {' and '.join(_seat(s) for s in d.winners)}: "
            f"+{d.share} fame each (counted: {counts})")


def _final(d: ev.FinalResult) -> str:
    # Fame as "seat 0 69/2": the panels write fractions as mixed numbers (34½).
    fame = ", ".join(f"seat {s} {f}" for s, f in enumerate(d.fame))
    money = ", ".join(f"seat {s} {m} G" for s, m in enumerate(d.money))
    won = " and ".join(_seat(s) for s in d.winners)
    verb = "wins" if len(d.winners) == 1 else "share the win"
    return f"final fame {fame}; money {money}; {won} {verb}"


def _body(e: Event, c: CardSet) -> str:  # one case a kind
    match e:
        case ev.Setup():
            return f"set-up: {e.money} G each, start player seat {e.start_player}, {e.months} months"
        case ev.RemovedOrchestras() | ev.RemovedCards():
            return "3-player game: cards removed from the game"
        case ev.Deal():
            return "dealt " + "; ".join(card_name(c, x) for x in e.cards)
        case ev.Month():
            return f"month {e.month_} begins, start player seat {e.start_player}"
        case ev.Auction():
            return f"auction of {card_name(c, e.card)}"
        case ev.AuctionBanned():
            return "takes no part in this auction (Auctioneer [S1])"
        case ev.Bid():
            return f"bids {e.amount} G"
        case ev.PassAuction():
            return "passes"
        case ev.SpecialBought():
            return f"takes {card_name(c, e.card)} for {e.price} G"
        case ev.Unsold():
            return f"nobody bid: {card_name(c, e.card)} goes under the deck"
        case ev.SpecialRevealed():
            return f"next special card: {card_name(c, e.card)}"
        case ev.NoAuction():
            return "special deck empty: no auction"
        case ev.MediaBid():
            return f"secretly bids {e.amount} G for the media"
        case ev.Critic():
            return f"Critic [S2]: bid {e.bid} G counts as {e.counts} G"
        case ev.MediaReveal():  # the list by seat, as tests/test_browser.py reads it
            return f"media bids revealed: {list(e.bids)}"
        case ev.MediaTie():
            return "wins the media tie (less fame, then chance)"
        case ev.NoMedia():
            return "nobody bid for the media"
        case ev.Media():
            return f"takes the media token for {e.bid} G"
        case ev.ChapelFree():
            return f"has strictly the least fame ({e.fame}): the Chapel is free"
        case ev.Venue():
            return f"takes the {e.area}"
        case ev.PassRound():
            return f"passes round {e.round}"
        case ev.ActionTaken():
            return f"round {e.round}: {e.action}"
        case ev.Concert():
            return _concert(e, c)
        case ev.Fame():
            return f"fame {e.delta:+d} -> {e.fame} ({e.reason})"
        case ev.Pay():
            return (f"pays {e.amount} G" + (f" to seat {e.to}" if e.to is not None else "")
                    + f" ({e.reason}) -> {e.money} G")
        case ev.Income():
            return f"receives {e.amount} G ({e.reason}) -> {e.money} G"
        case ev.Hire():
            return f"hires {card_name(c, e.orchestra)}"
        case ev.Poach():
            return (f"hires {card_name(c, e.orchestra)} away from seat {e.from_} "
                    f"for {e.price} G")
        case ev.PoachRefused():
            return f"refuses to let seat {e.buyer} hire {card_name(c, e.orchestra)}"
        case ev.Buy():
            return f"buys {card_name(c, e.card)}"
        case ev.Offer():
            return (f"offers seat {e.seller} {e.price} G for a card"
                    + ("" if e.era == "any" else f" of the {e.era} era"))
        case ev.Sold():
            return f"sells a card to seat {e.buyer} for {e.price} G"
        case ev.CardPassed():
            return f"the card sold was {card_name(c, e.card)}"
        case ev.Declined():
            return f"declines seat {e.buyer}'s offer"
        case ev.ActionSpent():
            return "no face-up card can be bought: the action is spent"
        case ev.Discover():
            return f"searches the {e.deck} discovery deck"
        case ev.Drew():
            return (f"draws {card_name(c, e.card)}"
                    + (f" from the {e.deck} discovery deck" if e.deck is not None else ""))
        case ev.Appease():
            return f"appeases {card_name(c, e.orchestra)} ({e.markers} marker(s) left)"
        case ev.SpecialPlayed():
            return f"plays {card_name(c, e.card)}"
        case ev.Exempt():
            return f"Financial advisor [S5]: no salary for {_names(c, e.orchestras)}"
        case ev.VenueFree():
            return _venue_free(e)
        case ev.Unpaid():
            return f"cannot pay {e.amount} G"
        case ev.Marker():
            return _marker(e, c)
        case ev.OrchestraLeaves():
            return f"{card_name(c, e.orchestra)} gets a third marker and leaves"
        case ev.RumourVoid():
            return "has no orchestra for the rumour marker (Rumourmonger [S6])"
        case ev.MonthEnd():
            return f"end of month {e.month}: " + "; ".join(
                f"seat {s} fame {f}, {m} G" for s, (f, m) in enumerate(zip(e.fame, e.money, strict=True)))
        case ev.Award():
            return _award(e)
        case ev.MarkerPenalty():
            return f"-{e.markers} fame for dissent markers"
        case ev.FinalResult():
            return _final(e)
    if e.kind == "effect":
        return special_effect(e, c)
    return f"{e.kind} {e.data}"


def describe_event(event: Event, cards: CardSet) -> str:
    """One line in words, with the rule id, e.g. ``seat 2: takes the dome [P3.1]``."""
    body = _body(event, cards)
    who = f"seat {event.player}: " if event.player is not None else ""
    return f"{who}{body} [{event.rule}]"
