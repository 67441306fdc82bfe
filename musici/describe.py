"""Events in words: the readable game log (CLI, notebooks). Only called when someone looks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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


def _concert(e: Event, cards: CardSet) -> str:
    d = e.data
    virtuosos = f", {_names(cards, d['virtuosos'])} among them" if d.get("virtuosos") else ""
    # One line: what decided the rating is in the explanation (analysis.explain_event).
    text = (f"played {card_name(cards, d['card'])} at {d['venue']} with {len(d['orchestras'])} "
            f"{d['style']} orchestra(s){virtuosos} ({d['brought'][0] * 10} instrumentalists + "
            f"{d['brought'][1] * 10} singers, {d['required'][0] * 10} + "
            f"{d['required'][1] * 10} required): {d['rating']}")
    if d["rating"] != d["base_rating"]:
        text += f" (raised from {d['base_rating']} by the media)"
    restoration = d.get("restoration")
    if restoration is not None:
        text += f", restoration +{restoration['bonus']}"
        pioneers = [m[0] for m in restoration["matches"] if m[0] in cards.specials]
        if pioneers:
            text += f" (with {_names(cards, pioneers)})"
        if restoration["capped"]:
            text += " (capped at 10, RESTORE.4)"
    return text + f" -> fame {d['fame']:+d}, income {d['income']} G"


def _names(cards: CardSet, ids: list[str]) -> str:
    return ", ".join(card_name(cards, i) for i in ids) or "none"


# What each single-use special card did (SPECIAL.S1–S8), from its "effect" event.
_EFFECTS: dict[str, Callable[[dict[str, Any], CardSet], str]] = {
    "S1": lambda d, c: f"seat {d['target']} takes no part in month {d['month']}'s auction",
    "S2": lambda d, c: f"in month {d['month']}'s media auction the bid counts "
                       f"{d['bonus']} G higher",
    "S3": lambda d, c: f"the {d['tour']} costs nothing in this month's P5",
    "S4": lambda d, c: f"takes {_names(c, d['orchestras'])} free; orchestras face up now "
                       f"{_names(c, [o for o in d['market'] if o])}",
    "S5": lambda d, c: f"up to {d['exempts']} orchestras need no salary in this month's P5",
    "S6": lambda d, c: "at the end of P5 " + (", ".join(f"seat {s}" for s in d["targets"])
                                              or "nobody") + " must take a dissent marker",
    "S7": lambda d, c: "takes " + "; ".join(
        [card_name(c, x) for x in d.get("face_up", [])]
        + [f"the top card of the {k} discovery deck" for k in d.get("decks", [])]) + " free",
    "S8": lambda d, c: f"marks {card_name(c, d['marked'])}: only this player may buy it",
}


def special_effect(data: dict[str, Any], cards: CardSet) -> str:
    """What a single-use special card did, in words, from its "effect" event's data."""
    what = _EFFECTS.get(data.get("card", ""))
    head = card_name(cards, data.get("card"))
    return f"{head}: {what(data, cards)}" if what else f"{head} takes effect"


def _effect(e: Event, cards: CardSet) -> str:
    return special_effect(e.data, cards)


def _venue_free(e: Event, cards: CardSet) -> str:
    d = e.data
    if d.get("card") != "S3":
        return f"pays nothing for the {d['area']}"
    saved = f"{d['money']} G" if d["money"] else f"{d['fame']} fame"
    return f"Tour guide [S3]: pays nothing for the {d['area']} (saves {saved})"


def _marker(e: Event, cards: CardSet) -> str:
    d = e.data
    text = (f"dissent marker on {card_name(cards, d['orchestra'])} ({d['markers']} now; "
            f"{d['reason']})")
    return f"Rumourmonger [S6] of seat {d['owner']}: {text}" if d.get("card") == "S6" else text


def _award(e: Event, cards: CardSet) -> str:
    d = e.data
    counts = ", ".join(f"seat {s} {c}" for s, c in enumerate(d["counts"]))
    return (f"award '{d['award']}' to {' and '.join(_seat(s) for s in d['winners'])}: "
            f"+{d['share']} fame each (counted: {counts})")


def _final(e: Event, cards: CardSet) -> str:
    # Fame as "seat 0 69/2": the panels write fractions as mixed numbers (34½).
    d = e.data
    fame = ", ".join(f"seat {s} {f}" for s, f in enumerate(d["fame"]))
    money = ", ".join(f"seat {s} {m} G" for s, m in enumerate(d["money"]))
    won = " and ".join(_seat(s) for s in d["winners"])
    verb = "wins" if len(d["winners"]) == 1 else "share the win"
    return f"final fame {fame}; money {money}; {won} {verb}"


_FORMATS: dict[str, Callable[[Event, CardSet], str]] = {
    "setup": lambda e, c: (f"set-up: {e.data['money']} G each, start player seat "
                           f"{e.data['start_player']}, {e.data['months']} months"),
    "removed": lambda e, c: "3-player game: cards removed from the game",
    "deal": lambda e, c: "dealt " + "; ".join(card_name(c, x) for x in e.data["cards"]),
    "month": lambda e, c: f"month {e.data['month']} begins, start player seat "
                          f"{e.data['start_player']}",
    "auction": lambda e, c: f"auction of {card_name(c, e.data['card'])}",
    "auction_banned": lambda e, c: "takes no part in this auction (Auctioneer [S1])",
    "bid": lambda e, c: f"bids {e.data['amount']} G",
    "pass_auction": lambda e, c: "passes",
    "special_bought": lambda e, c: f"takes {card_name(c, e.data['card'])} for "
                                   f"{e.data['price']} G",
    "unsold": lambda e, c: f"nobody bid: {card_name(c, e.data['card'])} goes under the deck",
    "special_revealed": lambda e, c: f"next special card: {card_name(c, e.data['card'])}",
    "no_auction": lambda e, c: "special deck empty: no auction",
    "media_bid": lambda e, c: f"secretly bids {e.data['amount']} G for the media",
    "critic": lambda e, c: f"Critic [S2]: bid {e.data['bid']} G counts as {e.data['counts']} G",
    # the list by seat, as tests/test_browser.py reads it
    "media_reveal": lambda e, c: f"media bids revealed: {e.data['bids']}",
    "media_tie": lambda e, c: "wins the media tie (less fame, then chance)",
    "no_media": lambda e, c: "nobody bid for the media",
    "media": lambda e, c: f"takes the media token for {e.data['bid']} G",
    "chapel_free": lambda e, c: f"has strictly the least fame ({e.data['fame']}): "
                                "the Chapel is free",
    "venue": lambda e, c: f"takes the {e.data['area']}",
    "pass_round": lambda e, c: f"passes round {e.data['round']}",
    "action": lambda e, c: f"round {e.data['round']}: {e.data['action']}",
    "concert": _concert,
    "fame": lambda e, c: f"fame {e.data['delta']:+d} -> {e.data['fame']} ({e.data['reason']})",
    "pay": lambda e, c: (f"pays {e.data['amount']} G"
                         + (f" to seat {e.data['to']}" if e.data['to'] is not None else "")
                         + f" ({e.data['reason']}) -> {e.data['money']} G"),
    "income": lambda e, c: f"receives {e.data['amount']} G ({e.data['reason']}) -> "
                           f"{e.data['money']} G",
    "hire": lambda e, c: f"hires {card_name(c, e.data['orchestra'])}",
    "poach": lambda e, c: f"hires {card_name(c, e.data['orchestra'])} away from seat "
                          f"{e.data['from']} for {e.data['price']} G",
    "poach_refused": lambda e, c: f"refuses to let seat {e.data['buyer']} hire "
                                  f"{card_name(c, e.data['orchestra'])}",
    "buy": lambda e, c: f"buys {card_name(c, e.data['card'])}",
    "offer": lambda e, c: f"offers seat {e.data['seller']} {e.data['price']} G for a card"
                          + ("" if e.data["era"] == "any" else f" of the {e.data['era']} era"),
    "sold": lambda e, c: f"sells a card to seat {e.data['buyer']} for {e.data['price']} G",
    "card_passed": lambda e, c: f"the card sold was {card_name(c, e.data['card'])}",
    "declined": lambda e, c: f"declines seat {e.data['buyer']}'s offer",
    "action_spent": lambda e, c: "no face-up card can be bought: the action is spent",
    "discover": lambda e, c: f"searches the {e.data['deck']} discovery deck",
    "drew": lambda e, c: f"draws {card_name(c, e.data['card'])}"
                         + (f" from the {e.data['deck']} discovery deck" if "deck" in e.data else ""),
    "appease": lambda e, c: f"appeases {card_name(c, e.data['orchestra'])} "
                            f"({e.data['markers']} marker(s) left)",
    "special": lambda e, c: f"plays {card_name(c, e.data['card'])}",
    "effect": _effect,
    "exempt": lambda e, c: f"Financial advisor [S5]: no salary for {_names(c, e.data['orchestras'])}",
    "venue_free": _venue_free,
    "unpaid": lambda e, c: f"cannot pay {e.data['amount']} G",
    "marker": _marker,
    "orchestra_leaves": lambda e, c: f"{card_name(c, e.data['orchestra'])} gets a third "
                                     "marker and leaves",
    "rumour_void": lambda e, c: "has no orchestra for the rumour marker (Rumourmonger [S6])",
    "month_end": lambda e, c: f"end of month {e.month}: " + "; ".join(
        f"seat {s} fame {f}, {m} G"
        for s, (f, m) in enumerate(zip(e.data["fame"], e.data["money"], strict=True))),
    "award": _award,
    "marker_penalty": lambda e, c: f"-{e.data['markers']} fame for dissent markers",
    "final": _final,
}


def describe_event(event: Event, cards: CardSet) -> str:
    """One line in words, with the rule id, e.g. ``seat 2: takes the dome [P3.1]``."""
    fmt = _FORMATS.get(event.kind)
    body = fmt(event, cards) if fmt else f"{event.kind} {event.data}"
    who = f"seat {event.player}: " if event.player is not None else ""
    return f"{who}{body} [{event.rule}]"
